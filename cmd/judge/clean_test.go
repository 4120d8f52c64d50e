package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
)

// replayStore is a judge's embedded server (as judge serve runs it) holding a replay of a
// test match (2,000 bytes), of a ladder match (3,000) and of an official round (1,000), and
// their results (200, 300 and 100 bytes); and a portal that holds the records of those test and
// ladder matches (portalMatches), of a validation match, of a ladder match not played yet,
// and a test-match count of this hour.
func replayStore(t *testing.T) *queue.Queue {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	q, err := queue.Open(ctx, queue.Options{Listen: "127.0.0.1:-1", StoreDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	for key, r := range map[string]struct {
		lane queue.Lane
		size int
	}{"t1.jsonl": {queue.LaneTest, 2000}, "l1.jsonl": {queue.LaneLadder, 3000}, "round-1-1.jsonl": {queue.LaneMain, 1000}} {
		meta := map[string]string{queue.MetaLane: r.lane.String()}
		if err := q.PutObjectMeta(ctx, queue.BucketReplays, key, meta, strings.NewReader(strings.Repeat("x", r.size))); err != nil {
			t.Fatal(err)
		}
		if err := q.PublishResult(ctx, r.lane, strings.TrimSuffix(key, ".jsonl"), bytes.Repeat([]byte("r"), r.size/10)); err != nil {
			t.Fatal(err)
		}
	}
	kv, err := q.KeyValue(ctx, "portal")
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(kv)
	for _, m := range []store.Match{
		{ID: "t1", Contest: "spring", Kind: store.KindTest, Owner: "alice", Result: &result.Result{ID: "t1"}},
		{ID: "l1", Contest: "spring", Kind: store.KindLadder, Seats: []store.Seat{{Login: "alice"}, {Login: "bob"}}, Result: &result.Result{ID: "l1"}},
		{ID: "sv", Contest: "spring", Kind: store.KindValidation, Owner: "alice", Result: &result.Result{ID: "sv"}},
		{ID: "l2", Contest: "spring", Kind: store.KindLadder, Seats: []store.Seat{{Login: "alice"}, {Login: "bob"}}},
	} {
		if _, err := st.AddMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	// t1 listed the way a portal before the keys named the kind did it too: it goes as well.
	if _, err := kv.Create(ctx, "own.spring.alice.m.t1", []byte(`"t1"`)); err != nil {
		t.Fatal(err)
	}
	if err := st.TakeQuota(ctx, "spring", "alice", 10); err != nil {
		t.Fatal(err)
	}
	alice := store.User{Contest: "spring", Login: "alice"}
	if _, _, err := st.NewSession(ctx, alice); err != nil {
		t.Fatal(err)
	}
	if out, _, err := st.NewSession(ctx, alice); err != nil || st.EndSession(ctx, out) != nil { // a log-out's marker
		t.Fatal(err)
	}
	if _, err := st.NewInvite(ctx, "spring", "alice"); err != nil {
		t.Fatal(err)
	}
	return q
}

// portalHeld is how many messages the portal's bucket holds, delete markers included.
func portalHeld(t *testing.T, q *queue.Queue) uint64 {
	t.Helper()
	kv, err := q.KeyValue(context.Background(), "portal")
	if err != nil {
		t.Fatal(err)
	}
	n, err := kv.Held(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// portalMatches are the test and ladder matches' records replayStore's portal holds, as judge
// store clean counts them (their key and value).
var portalMatches = []string{"t1", "l1"}

// portalKeys are the keys the portal's bucket holds, sorted.
func portalKeys(t *testing.T, q *queue.Queue) []string {
	t.Helper()
	kv, err := q.KeyValue(context.Background(), "portal")
	if err != nil {
		t.Fatal(err)
	}
	all, err := kv.Keys(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, k := range all {
		if i := strings.IndexByte(k, '.'); slices.Contains([]string{"quota", "session", "invite"}, k[:max(i, 0)]) {
			k = k[:i] // its hour's, its digest's
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// portalBytes is what judge store clean counts for the records of matches ids.
func portalBytes(t *testing.T, q *queue.Queue, ids ...string) int64 {
	t.Helper()
	kv, err := q.KeyValue(context.Background(), "portal")
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, id := range ids {
		e, err := kv.Get(context.Background(), "match."+id)
		if err != nil {
			t.Fatal(err)
		}
		n += int64(len("$KV.judge-portal.match."+id) + len(e.Value))
	}
	return n
}

// All the portal holds, and what it keeps of it after a clean-up of the test and ladder
// matches.
const (
	portalAll = "[all.spring.m.ladder.l1 all.spring.m.ladder.l2 all.spring.m.test.t1 all.spring.m.validation.sv invite match.l1 match.l2 match.sv match.t1 " +
		"own.spring.alice.m.ladder.l1 own.spring.alice.m.ladder.l2 own.spring.alice.m.t1 own.spring.alice.m.test.t1 own.spring.alice.m.validation.sv " +
		"own.spring.bob.m.ladder.l1 own.spring.bob.m.ladder.l2 quota session]"
	portalKept = "[all.spring.m.ladder.l2 all.spring.m.validation.sv invite match.l2 match.sv own.spring.alice.m.ladder.l2 own.spring.alice.m.validation.sv own.spring.bob.m.ladder.l2 quota session]"
)

// hasResult reports whether q holds the result of job id.
func hasResult(t *testing.T, q *queue.Queue, id string) bool {
	t.Helper()
	_, ok, err := q.Result(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// has reports whether q holds the replay key.
func has(t *testing.T, q *queue.Queue, key string) bool {
	t.Helper()
	ok, err := q.HasObject(context.Background(), queue.BucketReplays, key)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// noArtifacts is judge store clean's line for a shared build cache with nothing to expire.
const noArtifacts = "expired 0 compiled bots of the shared build cache older than 720h0m0s (0 B)\n"

// judge store clean says what it would delete, deletes it, and keeps the official round's.
func TestStoreClean(t *testing.T) {
	q := replayStore(t)
	t.Setenv("JUDGE_NATS_URL", q.URL())
	t.Setenv("JUDGE_DATA_DIR", t.TempDir())
	records := cli.ByteSize(portalBytes(t, q, portalMatches...))
	// lines is what judge store clean says: verb n of the test and ladder matches' replays
	// (older than replaysAge, of bytes sizes[0]), results and records (resultsAge, sizes[1:]).
	lines := func(verb string, n int, replaysAge, resultsAge string, sizes ...string) string {
		if n == 0 {
			sizes = []string{"0 B", "0 B", "0 B"}
		}
		return fmt.Sprintf("%[1]s %[2]d replays of test and ladder matches older than %[3]s (%[5]s)\n"+
			"%[1]s %[2]d results of test and ladder matches older than %[4]s (%[6]s)\n"+
			"%[1]s %[2]d portal records of test and ladder matches older than %[4]s (%[7]s)\n"+
			"%[1]s 0 portal test-match counts of past hours older than 2h0m0s (0 B)\n"+
			"%[1]s 0 portal sessions past their end older than 168h0m0s (0 B)\n"+
			"%[1]s 0 portal invites past their end older than 336h0m0s (0 B)\n"+
			"%[1]s 0 compiled bots of the shared build cache older than 720h0m0s (0 B)\n",
			verb, n, replaysAge, resultsAge, sizes[0], sizes[1], sizes[2])
	}
	for _, tc := range []struct {
		args []string
		want string
		gone bool // the test and ladder matches' replays, results and records, after
	}{
		{[]string{"--older-than", "1h"}, lines("expired", 0, "1h0m0s", "1h0m0s"), false},
		{[]string{"--dry-run", "--older-than", "1ns"}, lines("would expire", 2, "1ns", "1ns", "4.9 KiB", "500 B", records), false},
		{[]string{"--older-than", "1ns"}, lines("expired", 2, "1ns", "1ns", "4.9 KiB", "500 B", records), true},
		{nil, lines("expired", 0, "168h0m0s", "720h0m0s"), true}, // nats.replays_max_age, nats.results_max_age
	} {
		out, err := runCLI(t, append([]string{"store", "clean"}, tc.args...)...)
		if err != nil || out != tc.want {
			t.Errorf("judge store clean %s: %q, %v; want %q", strings.Join(tc.args, " "), out, err, tc.want)
		}
		if has(t, q, "t1.jsonl") == tc.gone || has(t, q, "l1.jsonl") == tc.gone {
			t.Errorf("after judge store clean %s: the test and ladder replays are there: %v, %v; want %v",
				strings.Join(tc.args, " "), has(t, q, "t1.jsonl"), has(t, q, "l1.jsonl"), !tc.gone)
		}
		if hasResult(t, q, "t1") == tc.gone || hasResult(t, q, "l1") == tc.gone {
			t.Errorf("after judge store clean %s: the test and ladder results are there: %v, %v; want %v",
				strings.Join(tc.args, " "), hasResult(t, q, "t1"), hasResult(t, q, "l1"), !tc.gone)
		}
		want := portalAll
		if tc.gone {
			want = portalKept
		}
		if got := fmt.Sprint(portalKeys(t, q)); got != want {
			t.Errorf("after judge store clean %s: the portal holds %s; want %s", strings.Join(tc.args, " "), got, want)
		}
		if !has(t, q, "round-1-1.jsonl") || !hasResult(t, q, "round-1-1") {
			t.Fatalf("judge store clean %s deleted the official round's replay or result", strings.Join(tc.args, " "))
		}
	}
	t.Setenv("JUDGE_NATS_REPLAYS_MAX_AGE", "0")
	t.Setenv("JUDGE_NATS_RESULTS_MAX_AGE", "0")
	t.Setenv("JUDGE_NATS_ARTIFACTS_MAX_AGE", "0")
	want := "nats.replays_max_age is 0: the replays of test and ladder matches are kept forever, and none was deleted\n" +
		"nats.results_max_age is 0: the results of test and ladder matches are kept forever, and none was deleted\n" +
		"nats.results_max_age is 0: the portal records of test and ladder matches are kept forever, and none was deleted\n" +
		"expired 0 portal test-match counts of past hours older than 2h0m0s (0 B)\n" +
		"expired 0 portal sessions past their end older than 168h0m0s (0 B)\n" +
		"expired 0 portal invites past their end older than 336h0m0s (0 B)\n" +
		"nats.artifacts_max_age is 0: the compiled bots of the shared build cache are kept forever, and none was deleted\n"
	if out, err := runCLI(t, "store", "clean"); err != nil || out != want {
		t.Errorf("judge store clean with every max age 0: %q, %v; want %q", out, err, want)
	}
}

// judge serve's clean-up runs at once (then hourly), logs what it deleted and stops with the
// daemon; with nats.replays_max_age 0 it deletes nothing.
func TestServeCleansReplays(t *testing.T) {
	q := replayStore(t)
	var log logBuffer
	for _, e := range daemon.Expiries(queue.Options{}) { // every max age 0
		e.Age = 0 // the hourly quotas' too, which no key sets
		e.Clean(t.Context(), q, time.Hour, slog.New(slog.NewTextHandler(&log, nil)))
	}
	if !has(t, q, "t1.jsonl") || !has(t, q, "l1.jsonl") || fmt.Sprint(portalKeys(t, q)) != portalAll || log.String() != "" {
		t.Fatalf("with no max age: the replays or the portal's records went, or it logged %q", log.String())
	}
	records := portalBytes(t, q, portalMatches...)
	stop := serveCleanUp(t, q, time.Hour, &log)
	deadline := time.Now().Add(10 * time.Second)
	for has(t, q, "t1.jsonl") || has(t, q, "l1.jsonl") || hasResult(t, q, "t1") || hasResult(t, q, "l1") ||
		fmt.Sprint(portalKeys(t, q)) != "[all.spring.m.ladder.l2 all.spring.m.validation.sv match.l2 match.sv own.spring.alice.m.ladder.l2 own.spring.alice.m.validation.sv own.spring.bob.m.ladder.l2]" ||
		portalHeld(t, q) != 7 {
		if time.Now().After(deadline) {
			t.Fatalf("the old test and ladder replays, results or records are still there, or the quota count, a session, an invite or a marker: the portal holds %v, %d messages", portalKeys(t, q), portalHeld(t, q))
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	if !has(t, q, "round-1-1.jsonl") || !hasResult(t, q, "round-1-1") {
		t.Error("the official round's replay or result went")
	}
	for _, want := range []string{`level=INFO msg="serve: expired the replays of test and ladder matches" count=2 bytes=5000`,
		`level=INFO msg="serve: expired the results of test and ladder matches" count=2 bytes=500`,
		fmt.Sprintf(`level=INFO msg="serve: expired the portal records of test and ladder matches" count=2 bytes=%d`, records),
		`level=INFO msg="serve: expired the portal test-match counts of past hours" count=1`,
		`level=INFO msg="serve: expired the portal sessions past their end" count=1`, // the log-out's marker goes uncounted
		`level=INFO msg="serve: expired the portal invites past their end" count=1`} {
		if s := log.String(); !strings.Contains(s, want) {
			t.Errorf("the log %q does not say %s", s, want)
		}
	}
}

// A clean-up that fails is a warning, and the next is tried all the same (an hour later in
// judge serve), until the daemon stops.
func TestServeCleanUpFails(t *testing.T) {
	q := replayStore(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	gone, err := queue.Open(ctx, queue.Options{URL: q.URL(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	gone.Close()
	var log logBuffer
	stop := serveCleanUp(t, gone, 10*time.Millisecond, &log)
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(log.String(), `level=WARN msg="serve: expiring the old replays of test and ladder matches failed: trying again later"`) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("not two warnings: the log is %q", log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	if !has(t, q, "t1.jsonl") {
		t.Error("a clean-up that failed deleted a replay")
	}
}

// serveCleanUp runs judge serve's clean-up of q's stores, every entry older than a nanosecond
// (all of them), each time every has passed, logging to log; stop ends it as the daemon's end
// does, and waits for it.
func serveCleanUp(t *testing.T, q *queue.Queue, every time.Duration, log *logBuffer) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		var all sync.WaitGroup
		for _, e := range daemon.Expiries(queue.Options{}) {
			e.Age = time.Nanosecond
			all.Go(func() { e.Clean(ctx, q, every, slog.New(slog.NewTextHandler(log, nil))) })
		}
		all.Wait()
	}()
	return func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the clean-up did not stop with its context")
		}
	}
}

// logBuffer is a log written by one goroutine and read by another.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// judge serve keeps the build cache within build.cache_limit: at once, it removes the least
// recently used build that is over it and says so; a build used within the hour stays.
func TestServeTrimsTheBuildCache(t *testing.T) {
	dir := t.TempDir()
	for i, age := range []time.Duration{3 * time.Hour, 2 * time.Hour, time.Minute} {
		d := filepath.Join(dir, "ab", fmt.Sprintf("ab%d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "artifact"), make([]byte, 1000), 0o644); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-age)
		os.Chtimes(d, at, at)
	}
	var log logBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		daemon.TrimBuilds(ctx, dir, 1500, time.Hour, slog.New(slog.NewTextHandler(&log, nil)))
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(log.String(), "trimmed the build cache") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	if !strings.Contains(log.String(), "removed=2") {
		t.Errorf("the log: %s", log.String())
	}
	for i, want := range []bool{false, false, true} {
		if _, err := os.Stat(filepath.Join(dir, "ab", fmt.Sprintf("ab%d", i))); (err == nil) != want {
			t.Errorf("build %d kept %v, want %v", i, err == nil, want)
		}
	}
}
