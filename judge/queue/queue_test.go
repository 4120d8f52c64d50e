package queue

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/queue/queuetest"
	"github.com/nats-io/nats.go/jetstream"
)

// Every test runs its own embedded server on a random port in its own directory, so tests
// run in parallel and the package's time is that of its slowest test (the AckWait ones).

// The server's debug log is for go test -v's reader; -json (make test's) also sets test.v, to
// "test2json", and would carry it into CI's log with every failure.
func testLogger() *slog.Logger {
	if v := flag.Lookup("test.v"); v != nil && v.Value.String() == "true" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

func testContext(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}

// embedded opens a Queue that runs the server (as `judge serve` does with no URL).
func embedded(t testing.TB, o Options) *Queue {
	t.Helper()
	if o.Listen == "" {
		o.Listen = "127.0.0.1:-1"
	}
	if o.StoreDir == "" {
		o.StoreDir = t.TempDir()
	}
	o.Logger = testLogger()
	q, err := Open(testContext(t, 30*time.Second), o)
	if err != nil {
		t.Fatalf("open embedded: %v", err)
	}
	t.Cleanup(func() { q.Close() })
	return q
}

// client opens another Queue on the server at url: another daemon or CLI process.
func client(t testing.TB, url string, o Options) *Queue {
	t.Helper()
	o.URL = url
	o.Logger = testLogger()
	q, err := Open(testContext(t, 30*time.Second), o)
	if err != nil {
		t.Fatalf("open client: %v", err)
	}
	t.Cleanup(func() { q.Close() })
	return q
}

func submit(t *testing.T, q *Queue, id, job string) {
	t.Helper()
	dup, err := q.Submit(testContext(t, 10*time.Second), id, []byte(job))
	if err != nil || dup {
		t.Fatalf("submit %s: duplicate=%v err=%v", id, dup, err)
	}
}

func next(t *testing.T, q *Queue, within time.Duration) *Delivery {
	t.Helper()
	d, err := q.Next(testContext(t, within))
	if err != nil {
		t.Fatalf("next: %v", err)
	}
	return d
}

// expectNothing asserts that no job is delivered for d.
func expectNothing(t *testing.T, q *Queue, d time.Duration) {
	t.Helper()
	got, err := q.Next(testContext(t, d))
	if err == nil {
		t.Fatalf("expected no delivery for %s, got job %s (delivered %d times)", d, got.ID, got.NumDelivered)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("next: %v, want %v", err, context.DeadlineExceeded)
	}
}

// eventually retries cond until it returns nil or the bound passes; it polls because the
// conditions (a server's stream state, a connection's status) have no event to wait on.
func eventually(t *testing.T, bound time.Duration, what string, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for {
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s: %v", what, bound, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// jobsLeft is the number of jobs stored in the work queue (waiting or delivered, not yet
// acked or terminated).
func jobsLeft(t *testing.T, q *Queue) uint64 {
	t.Helper()
	ctx := testContext(t, 5*time.Second)
	s, err := q.js.Stream(ctx, q.jobsStream)
	if err != nil {
		t.Fatalf("jobs stream: %v", err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatalf("jobs stream info: %v", err)
	}
	return info.State.Msgs
}

func waitJobsLeft(t *testing.T, q *Queue, want uint64) {
	t.Helper()
	eventually(t, 5*time.Second, fmt.Sprintf("%d jobs left", want), func() error {
		if n := jobsLeft(t, q); n != want {
			return fmt.Errorf("%d jobs left", n)
		}
		return nil
	})
}

func TestOpenValidatesOptions(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 10*time.Second)
	if _, err := Open(ctx, Options{Listen: "127.0.0.1:-1", Logger: testLogger()}); err == nil || !strings.Contains(err.Error(), "StoreDir") {
		t.Errorf("embedded without StoreDir: %v", err)
	}
	if _, err := Open(ctx, Options{Listen: "127.0.0.1:-1", StoreDir: t.TempDir(), Prefix: "a.b", Logger: testLogger()}); err == nil || !strings.Contains(err.Error(), "prefix") {
		t.Errorf("prefix with a dot: %v", err)
	}
	if _, err := Open(ctx, Options{Listen: "nonsense", StoreDir: t.TempDir(), Logger: testLogger()}); err == nil {
		t.Error("bad listen address accepted")
	}
	if _, err := Open(ctx, Options{URL: "nats://127.0.0.1:1", Logger: testLogger()}); err == nil || !strings.Contains(err.Error(), "queue: connect to nats://127.0.0.1:1") {
		t.Errorf("no server at URL: %v", err)
	}
	// The port is taken by the first server, so the second cannot listen.
	q := embedded(t, Options{})
	_, port, _ := strings.Cut(strings.TrimPrefix(q.URL(), "nats://"), ":")
	if _, err := Open(ctx, Options{Listen: "127.0.0.1:" + port, StoreDir: t.TempDir(), Logger: testLogger()}); err == nil {
		t.Error("second server on a port in use started")
	} else {
		t.Logf("port in use: %v", err)
	}
}

// A command run while its NATS server restarts (a rolling upgrade, the judge that embeds it
// started again) waits for it rather than fail.
func TestOpenWaitsForAServerComingBack(t *testing.T) {
	t.Parallel()
	addr := queuetest.FreeAddr(t)
	started := make(chan *Queue, 1)
	go func() {
		time.Sleep(2 * time.Second)
		started <- embedded(t, Options{Listen: addr})
	}()
	begin := time.Now()
	// A look for a server (whether a judge runs) does not wait.
	if _, err := Open(testContext(t, 30*time.Second), Options{URL: "nats://" + addr, Logger: testLogger()}); err == nil {
		t.Fatal("a look for a server that is not there found one")
	}
	q, err := Open(testContext(t, 30*time.Second), Options{URL: "nats://" + addr, WaitForServer: true, Logger: testLogger()})
	if err != nil {
		t.Fatalf("a client started 2 s before its server: %v", err)
	}
	defer q.Close()
	<-started
	if waited := time.Since(begin); waited < 2*time.Second {
		t.Errorf("connected after %v, before the server started", waited)
	}
	if _, err := q.Submit(testContext(t, 10*time.Second), "late-client", []byte("{}")); err != nil {
		t.Errorf("publishing through it: %v", err)
	}
}

func TestNamesFollowPrefix(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{Prefix: "contest-7"})
	ctx := testContext(t, 10*time.Second)
	for _, name := range []string{"CONTEST-7_JOBS", "CONTEST-7_RESULTS"} {
		if _, err := q.js.Stream(ctx, name); err != nil {
			t.Errorf("stream %s: %v", name, err)
		}
	}
	c, err := q.js.Consumer(ctx, "CONTEST-7_JOBS", ConsumerName)
	if err != nil {
		t.Fatalf("consumer: %v", err)
	}
	if cfg := c.CachedInfo().Config; cfg.FilterSubject != "contest-7.jobs" || cfg.AckPolicy != jetstream.AckExplicitPolicy || cfg.MaxDeliver != DefaultMaxDeliver || cfg.AckWait != DefaultAckWait {
		t.Errorf("consumer config: %+v", cfg)
	}
	for _, b := range []string{"contest-7-artifacts", "contest-7-replays"} {
		if _, err := q.js.ObjectStore(ctx, b); err != nil {
			t.Errorf("object store %s: %v", b, err)
		}
	}
	submit(t, q, "m1", "job")
	if d := next(t, q, 5*time.Second); d.Subject != "contest-7.jobs" || d.ID != "m1" {
		t.Errorf("delivery subject %q id %q", d.Subject, d.ID)
	}
	if err := q.PublishResult(ctx, LaneMain, "m1", []byte("r")); err != nil {
		t.Fatal(err)
	}
	if _, err := q.results.GetLastMsgForSubject(ctx, "contest-7.results.m1"); err != nil {
		t.Errorf("result subject: %v", err)
	}
}

func TestObjects(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	ctx := testContext(t, 10*time.Second)
	// Several chunks' worth, so the chunking and the digest check both take part.
	big := make([]byte, 300<<10+17)
	for i := range big {
		big[i] = byte(i * 7)
	}
	objects := map[string][]byte{
		"replays/round3-m17.jsonl": big,
		"odd key: *>. ü/..":        []byte("x"),
		"empty":                    {},
	}
	for key, data := range objects {
		if err := q.PutObject(ctx, BucketReplays, key, strings.NewReader(string(data))); err != nil {
			t.Fatalf("put %q: %v", key, err)
		}
	}
	// Another process reads what this one stored.
	other := client(t, q.URL(), Options{})
	for key, data := range objects {
		var buf strings.Builder
		ok, err := other.GetObject(ctx, BucketReplays, key, &buf)
		if err != nil || !ok {
			t.Fatalf("get %q: ok=%v err=%v", key, ok, err)
		}
		if buf.String() != string(data) {
			t.Errorf("get %q: %d bytes, want %d", key, buf.Len(), len(data))
		}
	}
	// Buckets are separate.
	if ok, err := q.GetObject(ctx, BucketArtifacts, "replays/round3-m17.jsonl", io.Discard); ok || err != nil {
		t.Errorf("key of the other bucket: ok=%v err=%v", ok, err)
	}
	if ok, err := q.GetObject(ctx, BucketReplays, "missing", io.Discard); ok || err != nil {
		t.Errorf("missing key: ok=%v err=%v", ok, err)
	}
	// Put replaces.
	if err := q.PutObject(ctx, BucketArtifacts, "a", strings.NewReader("one")); err != nil {
		t.Fatal(err)
	}
	if err := q.PutObject(ctx, BucketArtifacts, "a", strings.NewReader("two")); err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if ok, err := q.GetObject(ctx, BucketArtifacts, "a", &buf); !ok || err != nil || buf.String() != "two" {
		t.Errorf("replaced object: %q ok=%v err=%v", buf.String(), ok, err)
	}
	if err := q.PutObject(ctx, "logs", "a", strings.NewReader("x")); err == nil {
		t.Error("unknown bucket accepted")
	}
	if err := q.PutObject(ctx, BucketArtifacts, "", strings.NewReader("x")); err == nil {
		t.Error("empty key accepted")
	}
}

func TestInvalidIDsRejected(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	ctx := testContext(t, 10*time.Second)
	if _, err := q.Submit(ctx, "a b", nil); !errors.Is(err, job.ErrInvalidID) {
		t.Errorf("submit: %v", err)
	}
	if err := q.PublishResult(ctx, LaneMain, "a.>", nil); !errors.Is(err, job.ErrInvalidID) {
		t.Errorf("publish result: %v", err)
	}
	if _, _, err := q.Result(ctx, "*"); !errors.Is(err, job.ErrInvalidID) {
		t.Errorf("result: %v", err)
	}
	if err := q.Results(ctx, "a..b", false, func(string, []byte) error { return nil }); !errors.Is(err, job.ErrInvalidID) {
		t.Errorf("results: %v", err)
	}
}
