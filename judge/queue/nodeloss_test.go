package queue

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/queue/queuetest"
)

// answerBound is how long a call may take after a node loss: it answers (a result, or an
// error that says what failed) within it, never hangs.
const answerBound = 30 * time.Second

// within runs f with a context without a deadline, as `judge results` gives one, and fails
// the test when f has not returned within answerBound.
func within(t *testing.T, what string, f func(ctx context.Context) error) error {
	t.Helper()
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- f(context.WithoutCancel(t.Context())) }()
	select {
	case err := <-done:
		t.Logf("%s: %v after %s", what, err, time.Since(start).Round(time.Millisecond))
		return err
	case <-time.After(answerBound):
		t.Fatalf("%s: no answer within %s after a node was lost", what, answerBound)
		return nil
	}
}

// The node leading the results stream of a 3-node cluster is lost for good (killed, its store
// removed), then a second node is down for a few seconds (no quorum meanwhile) and comes
// back. Afterwards reading a result, listing results, submitting and opening a new client
// each answer within a bound, and every result stored before the loss is still there, on a
// client opened before the loss (a daemon, the portal) as on a new one (`judge results`).
func TestClusterNodeLostForGood(t *testing.T) {
	c := queuetest.StartCluster(t, queuetest.Options{})
	q := client(t, c.URLs(0), Options{Replicas: 3})
	ctx := testContext(t, 30*time.Second)
	const stored = 20
	for i := range stored {
		if err := q.PublishResult(ctx, fmt.Sprintf("r%d", i), []byte(fmt.Sprintf("result %d", i))); err != nil {
			t.Fatal(err)
		}
	}
	submit(t, q, "before", "a job before the loss")

	lost, err := c.Leader(ctx, q.resultsStream)
	if err != nil || lost < 0 {
		t.Fatalf("the results stream's leader: %d, %v", lost, err)
	}
	// A client opened before the loss reads through a consumer of its own, whose server may be
	// the lost one: it answers too.
	c.Kill(lost)
	if err := os.RemoveAll(c.Nodes()[lost].Store); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		within(t, fmt.Sprintf("probe %d after the loss: Results of r3", i), func(ctx context.Context) error {
			return q.Results(ctx, "r3", false, func(string, []byte) error { return nil })
		})
	}
	down := (lost + 1) % 3
	c.Kill(down)
	time.Sleep(8 * time.Second)
	c.Restart(down)
	for i := range 3 {
		within(t, fmt.Sprintf("probe %d after the restart: Results of r3", i), func(ctx context.Context) error {
			return q.Results(ctx, "r3", false, func(string, []byte) error { return nil })
		})
	}

	check := func(q *Queue, who string) {
		t.Helper()
		for _, id := range []string{"r0", fmt.Sprintf("r%d", stored-1)} {
			within(t, who+": Result "+id, func(ctx context.Context) error {
				r, ok, err := q.Result(ctx, id)
				if err == nil && !ok {
					t.Errorf("%s: Result %s: none; want it kept", who, id)
				}
				_ = r
				return err
			})
		}
		n := 0
		within(t, who+": Results of all", func(ctx context.Context) error {
			n = 0
			return q.Results(ctx, "", false, func(string, []byte) error { n++; return nil })
		})
		if n < stored {
			t.Errorf("%s: Results listed %d; want at least the %d stored before the loss", who, n, stored)
		}
		within(t, who+": Results of r3", func(ctx context.Context) error {
			return q.Results(ctx, "r3", false, func(string, []byte) error { return nil })
		})
		within(t, who+": Submit", func(ctx context.Context) error {
			_, err := q.Submit(ctx, "after-"+who, []byte("a job after the loss"))
			return err
		})
	}
	check(q, "old")
	var fresh *Queue
	within(t, "Open", func(ctx context.Context) error {
		var err error
		fresh, err = Open(ctx, Options{URL: c.URLs(lost), Replicas: 3, Logger: testLogger()})
		return err
	})
	if fresh != nil {
		defer fresh.Close()
		check(fresh, "new")
	}
}

// A listing of results whose consumer is on the node that is lost midway (killed, its store
// removed) answers within a bound: the rest of the results, or an error saying what failed.
// The listing is longer than what the client fetches at once, so it must ask the lost node
// for more.
func TestResultsWhenTheirNodeIsLost(t *testing.T) {
	c := queuetest.StartCluster(t, queuetest.Options{})
	q := client(t, c.URLs(0), Options{Replicas: 3})
	ctx := testContext(t, 60*time.Second)
	const stored = 700
	for i := range stored {
		if err := q.PublishResult(ctx, fmt.Sprintf("r%d", i), []byte("result")); err != nil {
			t.Fatal(err)
		}
	}
	first, lost := make(chan bool, 1), make(chan bool)
	var closeLost sync.Once
	defer closeLost.Do(func() { close(lost) }) // a listing still waiting ends with the test
	n := 0
	done := make(chan error, 1)
	go func() {
		done <- q.Results(context.WithoutCancel(t.Context()), "", false, func(string, []byte) error {
			if n++; n == 1 {
				first <- true
				<-lost
			}
			return nil
		})
	}()
	select {
	case <-first:
	case err := <-done:
		t.Fatalf("the listing ended before its first result: %v", err)
	case <-ctx.Done():
		t.Fatal("no first result within a minute")
	}
	s, err := q.js.Stream(ctx, q.resultsStream)
	if err != nil {
		t.Fatal(err)
	}
	node := -1
	for info := range s.ListConsumers(ctx).Info() {
		if info.Config.Durable != "" || info.Cluster == nil {
			continue // a daemons' consumer, not the listing's
		}
		for i, nd := range c.Nodes() {
			if nd.Name == info.Cluster.Leader {
				node = i
			}
		}
	}
	if node < 0 {
		t.Fatal("the listing's consumer is on no node")
	}
	t.Logf("the listing's consumer is on %s; the client is on %s", c.Nodes()[node].Name, q.nc.ConnectedServerName())
	c.Kill(node)
	if err := os.RemoveAll(c.Nodes()[node].Store); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	closeLost.Do(func() { close(lost) })
	select {
	case err := <-done:
		t.Logf("listed %d of %d, %v, after %s", n, stored, err, time.Since(start).Round(time.Millisecond))
		if err == nil && n < stored {
			t.Errorf("listed %d of %d with no error", n, stored)
		}
	case <-time.After(answerBound):
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "queue.(*Queue).Results") {
				t.Log(g)
			}
		}
		t.Fatalf("the listing: no answer within %s after its node was lost (%d of %d listed)", answerBound, n, stored)
	}
}
