package queue

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// storeWithResults leaves in a new directory a store as a stopped `judge serve` does: a result
// of m1 whose replay is stored, and a result of m2 with none. The jobs stream and the
// artifacts bucket are then deleted, so that a reader that creates what is missing shows.
func storeWithResults(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	q := embedded(t, Options{StoreDir: dir})
	ctx := testContext(t, 20*time.Second)
	if err := q.PutObject(ctx, BucketReplays, "replays/m1.jsonl", strings.NewReader("the replay of m1\n")); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"m1", "m2"} {
		if err := q.PublishResult(ctx, LaneMain, id, []byte(`{"id":"`+id+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.js.DeleteStream(ctx, q.jobsStream); err != nil {
		t.Fatal(err)
	}
	if err := q.js.DeleteObjectStore(ctx, q.buckets[BucketArtifacts]); err != nil {
		t.Fatal(err)
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func streamDirs(t *testing.T, store string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(store, "jetstream", "$G", "streams"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		// The server deletes a stream by renaming its directory to a dot-name and removing
		// that later: a stream being deleted is no stream.
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		names = append(names, e.Name())
	}
	return names
}

// A store read in process and read-only: its results and replays are there, nothing is
// written (no stream or bucket made for what is missing, every write refused), and the server
// takes no TCP clients.
func TestReadOnlyInProcess(t *testing.T) {
	t.Parallel()
	dir := storeWithResults(t)
	before := streamDirs(t, dir)

	q, err := Open(testContext(t, 20*time.Second), Options{StoreDir: dir, InProcess: true, ReadOnly: true, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if q.URL() != "" || q.srv.Addr() != nil {
		t.Errorf("the in-process server takes TCP clients: URL %q, listening on %v", q.URL(), q.srv.Addr())
	}
	ctx := testContext(t, 20*time.Second)
	if got := collect(t, q, ""); len(got) != 2 || got[0].id != "m1" || got[1].id != "m2" {
		t.Errorf("results: %v", got)
	}
	var replay bytes.Buffer
	if ok, err := q.GetObject(ctx, BucketReplays, "replays/m1.jsonl", &replay); !ok || err != nil || replay.String() != "the replay of m1\n" {
		t.Errorf("replay: ok=%v err=%v %q", ok, err, replay.String())
	}
	if ok, err := q.GetObject(ctx, BucketArtifacts, "build-x", &replay); ok || err != nil {
		t.Errorf("an object of a bucket the store lacks: ok=%v err=%v", ok, err)
	}
	if _, err := q.Submit(ctx, "m3", []byte("job")); !errors.Is(err, ErrReadOnly) {
		t.Errorf("submit: %v", err)
	}
	if err := q.PublishResult(ctx, LaneMain, "m3", []byte("r")); !errors.Is(err, ErrReadOnly) {
		t.Errorf("publish result: %v", err)
	}
	if err := q.PutObject(ctx, BucketReplays, "replays/m3.jsonl", strings.NewReader("x")); !errors.Is(err, ErrReadOnly) {
		t.Errorf("put: %v", err)
	}
	if _, err := q.Next(ctx); !errors.Is(err, ErrReadOnly) {
		t.Errorf("next: %v", err)
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	if after := streamDirs(t, dir); strings.Join(after, " ") != strings.Join(before, " ") {
		t.Errorf("streams before %v, after reading %v", before, after)
	}
}

// A store has one server at a time: another, in this process or another, is refused with
// where the first takes clients, and the store is free again once the first stops.
func TestStoreHasOneServer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first := embedded(t, Options{StoreDir: dir})
	ctx := testContext(t, 20*time.Second)
	for _, o := range []Options{
		{Listen: "127.0.0.1:-1", StoreDir: dir},
		{StoreDir: dir, InProcess: true, ReadOnly: true},
	} {
		o.Logger = testLogger()
		q, err := Open(ctx, o)
		var inUse *StoreInUseError
		if !errors.As(err, &inUse) {
			if err == nil {
				q.Close()
			}
			t.Fatalf("a second server on the store (%+v): %v", o, err)
		}
		if inUse.Dir != dir || inUse.URL != first.URL() || inUse.PID != os.Getpid() || !strings.Contains(err.Error(), dir) {
			t.Errorf("in use: %+v: %v", inUse, err)
		}
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again := embedded(t, Options{StoreDir: dir})
	if err := again.PublishResult(ctx, LaneMain, "m1", []byte("r")); err != nil {
		t.Errorf("the store after the first server stopped: %v", err)
	}
}

// Read-only, a store is read as it is or not at all: a directory with no store is not made
// one, and a cluster node's store is not loaded by a lone server.
func TestReadOnlyRefusesWhatItCannotReadAsIs(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 10*time.Second)
	empty := t.TempDir()
	_, err := Open(ctx, Options{StoreDir: empty, InProcess: true, ReadOnly: true, Logger: testLogger()})
	if err == nil || !strings.Contains(err.Error(), empty) || !strings.Contains(err.Error(), "no NATS store") {
		t.Errorf("a directory with no store: %v", err)
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Errorf("reading an empty directory left %v in it", entries)
	}
	node := t.TempDir()
	if err := os.MkdirAll(filepath.Join(node, "jetstream", "$SYS", "_js_", "_meta_"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, Options{StoreDir: node, InProcess: true, ReadOnly: true, Logger: testLogger()})
	if err == nil || !strings.Contains(err.Error(), "cluster") {
		t.Errorf("a cluster node's store: %v", err)
	}
	if _, err := Open(ctx, Options{URL: "nats://127.0.0.1:1", InProcess: true, Logger: testLogger()}); err == nil {
		t.Error("InProcess with a URL accepted")
	}
}

// An embedded server's start and stop say nothing at Info and above: no NATS warning about
// the payload limit (chosen on purpose, see maxPayload), no housekeeping lines, so that an
// interactive command's output is its result.
func TestEmbeddedServerIsQuiet(t *testing.T) {
	t.Parallel()
	var logged bytes.Buffer
	o := Options{Listen: "127.0.0.1:-1", StoreDir: t.TempDir(),
		Logger: slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelInfo}))}
	q, err := Open(testContext(t, 20*time.Second), o)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	if logged.Len() != 0 {
		t.Errorf("an embedded server's start and stop logged:\n%s", logged.String())
	}
	// The same at Debug: the lines are there, so the test above is not passing for want of
	// a logger that works.
	logged.Reset()
	o.Logger = slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
	o.StoreDir = t.TempDir()
	if q, err = Open(testContext(t, 20*time.Second), o); err != nil {
		t.Fatal(err)
	}
	q.Close()
	for _, want := range []string{"embedded NATS server started", "Maximum payloads over", "embedded NATS server stopped"} {
		if !strings.Contains(logged.String(), want) {
			t.Errorf("at Debug, no %q in:\n%.2000s", want, logged.String())
		}
	}
}
