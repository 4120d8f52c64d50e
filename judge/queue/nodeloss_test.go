package queue

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/queue/queuetest"
	"github.com/nats-io/nats.go"
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
	t.Parallel()
	// A client opened before the loss reads through a consumer of its own, whose server may be
	// the lost one: it answers too.
	c, q, lost := loseResultsLeader(t)
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

	answers(t, q, "old")
	var fresh *Queue
	within(t, "Open", func(ctx context.Context) error {
		var err error
		fresh, err = Open(ctx, Options{URL: c.URLs(lost), Replicas: 3, Logger: testLogger()})
		return err
	})
	if fresh != nil {
		defer fresh.Close()
		answers(t, fresh, "new")
	}
}

// A listing of results whose consumer is on the node that is lost midway (killed, its store
// removed) answers within a bound: the rest of the results, or an error saying what failed.
// The listing is longer than what the client fetches at once, so it must ask the lost node
// for more.
func TestResultsWhenTheirNodeIsLost(t *testing.T) {
	t.Parallel()
	c := queuetest.StartCluster(t, queuetest.Options{})
	q := client(t, c.URLs(0), Options{Replicas: 3})
	ctx := testContext(t, 60*time.Second)
	const stored = 700
	for i := range stored {
		if err := q.PublishResult(ctx, LaneMain, fmt.Sprintf("r%d", i), []byte("result")); err != nil {
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

// stored is how many results loseResultsLeader stores before the loss.
const stored = 20

// loseResultsLeader starts a 3-node cluster, stores results r0 to r<stored-1> and a job
// through the client q, and loses for good (kills, removes the store of) the node leading
// the results stream, lost.
func loseResultsLeader(t *testing.T) (c *queuetest.Cluster, q *Queue, lost int) {
	t.Helper()
	c = queuetest.StartCluster(t, queuetest.Options{})
	q = client(t, c.URLs(0), Options{Replicas: 3})
	ctx := testContext(t, 30*time.Second)
	for i := range stored {
		if err := q.PublishResult(ctx, LaneMain, fmt.Sprintf("r%d", i), []byte(fmt.Sprintf("result %d", i))); err != nil {
			t.Fatal(err)
		}
	}
	submit(t, q, "before", "a job before the loss")
	lost, err := c.Leader(ctx, q.resultsStream)
	if err != nil || lost < 0 {
		t.Fatalf("the results stream's leader: %d, %v", lost, err)
	}
	c.Kill(lost)
	if err := os.RemoveAll(c.Nodes()[lost].Store); err != nil {
		t.Fatal(err)
	}
	return c, q, lost
}

// answers checks, after a node loss, that q reads the results r0 and r<stored-1> (kept), lists
// at least the stored results, and submits a job, each within answerBound; it returns the errors
// they answered with.
func answers(t *testing.T, q *Queue, who string) (errs []error) {
	t.Helper()
	for _, id := range []string{"r0", fmt.Sprintf("r%d", stored-1)} {
		errs = append(errs, within(t, who+": Result "+id, func(ctx context.Context) error {
			_, ok, err := q.Result(ctx, id)
			if err == nil && !ok {
				t.Errorf("%s: Result %s: none; want it kept", who, id)
			}
			return err
		}))
	}
	n := 0
	errs = append(errs, within(t, who+": Results of all", func(ctx context.Context) error {
		n = 0
		return q.Results(ctx, "", false, func(string, []byte) error { n++; return nil })
	}))
	if errs[len(errs)-1] == nil && n < stored {
		t.Errorf("%s: Results listed %d; want at least the %d stored before the loss", who, n, stored)
	}
	errs = append(errs, within(t, who+": Results of r3", func(ctx context.Context) error {
		return q.Results(ctx, "r3", false, func(string, []byte) error { return nil })
	}))
	errs = append(errs, within(t, who+": Submit", func(ctx context.Context) error {
		_, err := q.Submit(ctx, "after-"+who, []byte("a job after the loss"))
		return err
	}))
	return errs
}

// A node lost for good (killed, its store removed) is replaced as an operator would: a node
// of a new name with an empty store that lists the lost one in nats.cluster.replaces. Once it
// has joined, no stream has the lost node among its peers and each has three live copies
// again; then a second of the first nodes is lost for good, and every result stored before
// is read, results are listed, a job is submitted and a new client opens, without error. A
// node that would replace a server up is refused.
// Without the replacement the second loss leaves the streams, and the cluster's meta group,
// without a majority.
func TestReplaceALostNode(t *testing.T) {
	t.Parallel()
	c, q, lost := loseResultsLeader(t)
	ctx := testContext(t, 3*time.Minute)
	lostName := c.Nodes()[lost].Name
	// A node is refused that would replace a server up: removing that would stop its JetStream.
	alive := c.Nodes()[(lost+2)%3].Name
	_, err := c.Add(alive)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("server %q is up", alive)) {
		t.Fatalf("a node that replaces %s, which is up: %v; want it refused", alive, err)
	}
	t.Logf("a node that replaces %s, which is up: %v", alive, err)
	start := time.Now()
	added, err := c.Add(lostName)
	if err != nil {
		t.Fatal(err)
	}
	for {
		moved, why := streamsMoved(ctx, q, lostName)
		if moved {
			break
		}
		if ctx.Err() != nil || time.Since(start) > time.Minute {
			t.Fatalf("a minute after %s replaced %s: %s\n%s", c.Nodes()[added].Name, lostName, why, c.Log(added))
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Logf("%s replaced %s: every stream's copies on live nodes after %s", c.Nodes()[added].Name, lostName, time.Since(start).Round(time.Millisecond))
	// A client without credentials, as every client of the judge's, is the new node's own.
	nc, err := nats.Connect(c.Nodes()[added].Client, nats.NoReconnect())
	if err != nil {
		t.Fatalf("a client of the new node: %v", err)
	}
	if got := nc.ConnectedServerName(); got != c.Nodes()[added].Name {
		t.Errorf("a client of the new node %s got to %s", c.Nodes()[added].Name, got)
	}
	nc.Close()

	second := (lost + 1) % 3
	c.Kill(second)
	if err := os.RemoveAll(c.Nodes()[second].Store); err != nil {
		t.Fatal(err)
	}
	// The streams the second node led elect another leader first: a few seconds of errors
	// that say to try again.
	lostAt := time.Now()
	for errs := answers(t, q, "old"); errors.Join(errs...) != nil; errs = answers(t, q, "old") {
		if time.Since(lostAt) > 30*time.Second {
			t.Fatalf("30 s after a second node was lost: %v", errors.Join(errs...))
		}
		time.Sleep(time.Second)
	}
	t.Logf("every call answered without error %s after the second loss", time.Since(lostAt).Round(time.Millisecond))
	fresh, err := Open(ctx, Options{URL: c.URLs(added), Replicas: 3, Logger: testLogger()})
	if err != nil {
		t.Fatalf("a new client after a second node was lost: %v", err)
	}
	defer fresh.Close()
	for _, err := range answers(t, fresh, "new") {
		if err != nil {
			t.Errorf("a new client after a second node was lost: %v", err)
		}
	}
}

// streamsMoved reports whether every stream has a leader and two current followers, none of
// them the server lost; if not, why.
func streamsMoved(ctx context.Context, q *Queue, lost string) (bool, string) {
	names := q.js.StreamNames(ctx)
	n := 0
	for name := range names.Name() {
		n++
		s, err := q.js.Stream(ctx, name)
		if err != nil {
			return false, fmt.Sprintf("stream %s: %v", name, err)
		}
		cl := s.CachedInfo().Cluster
		if cl == nil || cl.Leader == "" || cl.Leader == lost || len(cl.Replicas) != 2 {
			return false, fmt.Sprintf("stream %s: %+v", name, cl)
		}
		for _, r := range cl.Replicas {
			if r.Name == lost || !r.Current || r.Offline {
				return false, fmt.Sprintf("stream %s: peer %s (current %v, offline %v)", name, r.Name, r.Current, r.Offline)
			}
		}
	}
	if err := names.Err(); err != nil || n == 0 {
		return false, fmt.Sprintf("listing the streams: %d, %v", n, err)
	}
	return true, ""
}
