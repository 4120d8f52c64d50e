package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/queue"
)

// replayStore is a judge's embedded server (as judge serve runs it) holding a replay of a
// test match (2,000 bytes), of a ladder match (3,000) and of an official round (1,000), and
// their results (200, 300 and 100 bytes).
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
	return q
}

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
	for _, tc := range []struct {
		args []string
		want string
		gone bool // the test and ladder replays, after
	}{
		{[]string{"--older-than", "1h"}, "expired 0 replays of test and ladder matches older than 1h0m0s (0 B)\n" +
			"expired 0 results of test and ladder matches older than 1h0m0s (0 B)\n" + noArtifacts, false},
		{[]string{"--dry-run", "--older-than", "1ns"}, "would expire 2 replays of test and ladder matches older than 1ns (4.9 KiB)\n" +
			"would expire 2 results of test and ladder matches older than 1ns (500 B)\n" +
			"would expire 0 compiled bots of the shared build cache older than 720h0m0s (0 B)\n", false},
		{[]string{"--older-than", "1ns"}, "expired 2 replays of test and ladder matches older than 1ns (4.9 KiB)\n" +
			"expired 2 results of test and ladder matches older than 1ns (500 B)\n" + noArtifacts, true},
		{nil, "expired 0 replays of test and ladder matches older than 168h0m0s (0 B)\n" + // nats.replays_max_age
			"expired 0 results of test and ladder matches older than 720h0m0s (0 B)\n" + noArtifacts, true}, // nats.results_max_age
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
		if !has(t, q, "round-1-1.jsonl") || !hasResult(t, q, "round-1-1") {
			t.Fatalf("judge store clean %s deleted the official round's replay or result", strings.Join(tc.args, " "))
		}
	}
	t.Setenv("JUDGE_NATS_REPLAYS_MAX_AGE", "0")
	t.Setenv("JUDGE_NATS_RESULTS_MAX_AGE", "0")
	t.Setenv("JUDGE_NATS_ARTIFACTS_MAX_AGE", "0")
	want := "nats.replays_max_age is 0: the replays of test and ladder matches are kept forever, and none was deleted\n" +
		"nats.results_max_age is 0: the results of test and ladder matches are kept forever, and none was deleted\n" +
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
	cleanReplays(t.Context(), q, 0, time.Hour, slog.New(slog.NewTextHandler(&log, nil)))
	if !has(t, q, "t1.jsonl") || !has(t, q, "l1.jsonl") || log.String() != "" {
		t.Fatalf("with no max age: the replays went, or it logged %q", log.String())
	}
	stop := serveCleanUp(t, q, time.Hour, &log)
	deadline := time.Now().Add(10 * time.Second)
	for has(t, q, "t1.jsonl") || has(t, q, "l1.jsonl") || hasResult(t, q, "t1") || hasResult(t, q, "l1") {
		if time.Now().After(deadline) {
			t.Fatal("the old test and ladder replays or results are still there")
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	if !has(t, q, "round-1-1.jsonl") || !hasResult(t, q, "round-1-1") {
		t.Error("the official round's replay or result went")
	}
	for _, want := range []string{`level=INFO msg="serve: expired the replays of test and ladder matches" count=2 bytes=5000`,
		`level=INFO msg="serve: expired the results of test and ladder matches" count=2 bytes=500`} {
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
	for strings.Count(log.String(), `level=WARN msg="serve: expiring old replays failed: trying again later"`) < 2 {
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

// serveCleanUp runs judge serve's clean-up of q's replays and results older than a
// nanosecond (all of them) each time every has passed, logging to log; stop ends it as the daemon's end does, and waits for
// it.
func serveCleanUp(t *testing.T, q *queue.Queue, every time.Duration, log *logBuffer) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		var both sync.WaitGroup
		both.Go(func() { cleanReplays(ctx, q, time.Nanosecond, every, slog.New(slog.NewTextHandler(log, nil))) })
		both.Go(func() { cleanResults(ctx, q, time.Nanosecond, every, slog.New(slog.NewTextHandler(log, nil))) })
		both.Wait()
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
		trimBuilds(ctx, dir, 1500, time.Hour, slog.New(slog.NewTextHandler(&log, nil)))
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
