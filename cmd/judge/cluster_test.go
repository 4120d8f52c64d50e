package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/queue/queuetest"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// resultsAfter opens a queue on url and waits, 3 minutes at most, until it holds n results.
func resultsAfter(t *testing.T, url string, ackWait time.Duration, n int) *queue.Queue {
	t.Helper()
	q, err := queue.Open(context.Background(), queue.Options{Redelivery: queue.Redelivery{AckWait: ackWait}, URL: url})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	count := func() int {
		k := 0
		q.Results(context.Background(), "", false, func(string, []byte) error { k++; return nil })
		return k
	}
	for deadline := time.Now().Add(3 * time.Minute); count() < n; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not %d matches judged in 3 minutes", n)
		}
	}
	return q
}

// A tournament on a 3-node NATS cluster (every stream on 3 replicas) completes, with every
// match judged once, while the node leading the jobs stream is killed with SIGKILL and
// started again: two judge serve daemons and the tournament command all on nats.url.
func TestTournamentAcrossANodeLoss(t *testing.T) {
	sandboxtest.Engine(t)
	const ackWait = 3 * time.Second
	c := queuetest.StartCluster(t, queuetest.Options{AckWait: ackWait})
	t.Setenv("JUDGE_NATS_URL", c.URLs(0))
	t.Setenv("JUDGE_SERVE_ACK_WAIT", ackWait.String())
	t.Setenv("JUDGE_SERVE_HTTP", "off")
	t.Setenv("JUDGE_SERVE_WORKERS", "1")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 2)
	for range 2 {
		go func() {
			root := newRoot()
			root.SetArgs([]string{"--data-dir", sandboxtest.DataDir(), "serve"})
			served <- root.ExecuteContext(ctx)
		}()
	}

	dir := t.TempDir()
	for _, lang := range []string{"cpp", "go", "java", "pascal"} {
		if err := os.CopyFS(filepath.Join(dir, lang), os.DirFS(filepath.Join(sandboxtest.Root(), "bots", "amazes", lang))); err != nil {
			t.Fatal(err)
		}
	}
	type outcome struct {
		judged, matches int
		failed          []string
		err             error
	}
	done := make(chan outcome, 1)
	go func() {
		o, err := tournamentJSON(t, context.Background(), "--game", "amazes", "--name", "clu", "--opt", "turns=40", "--no-compile", dir)
		done <- outcome{o.Judged, o.Matches, o.Failed, err}
	}()

	q := resultsAfter(t, c.URLs(1), ackWait, 3)
	lctx, lcancel := context.WithTimeout(context.Background(), 10*time.Second)
	leader, err := c.Leader(lctx, "JUDGE_JOBS")
	lcancel()
	if err != nil || leader < 0 {
		t.Fatalf("the jobs stream's leader: %d, %v", leader, err)
	}
	c.Kill(leader)
	time.Sleep(3 * time.Second)
	c.Restart(leader)

	select {
	case o := <-done:
		if o.err != nil || o.judged != 12 || o.matches != 12 || len(o.failed) != 0 {
			t.Errorf("the tournament: %d of %d judged, failed %v, %v; want 12 of 12", o.judged, o.matches, o.failed, o.err)
		}
	case <-time.After(5 * time.Minute):
		t.Fatal("the tournament did not finish in 5 minutes")
	}
	statuses := map[string]string{}
	q.Results(context.Background(), "", false, func(id string, data []byte) error {
		var r struct{ Status string }
		json.Unmarshal(data, &r)
		statuses[id] = r.Status
		return nil
	})
	ok := 0
	for _, s := range statuses {
		if s == "ok" {
			ok++
		}
	}
	if len(statuses) != 12 || ok != 12 {
		t.Errorf("results: %v; want 12, each ok", statuses)
	}
	cancel()
	for range 2 {
		if err := <-served; err != nil {
			t.Errorf("judge serve: %v", err)
		}
	}
}
