package queue

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/queue/queuetest"
)

// freeAddrs are n free loopback addresses (queuetest.FreePorts).
func freeAddrs(t *testing.T, n int) []string {
	var out []string
	for _, p := range queuetest.FreePorts(t, n) {
		out = append(out, fmt.Sprintf("127.0.0.1:%d", p))
	}
	return out
}

// cluster starts n embedded servers in a cluster, each through a Queue with o (as n `judge
// serve` with nats.cluster.* would), and returns the queues and their client URLs.
func cluster(t *testing.T, n int, o Options) ([]*Queue, []string) {
	t.Helper()
	if testing.Short() {
		t.Skip("a NATS cluster's election takes half a minute; skipped under -short")
	}
	addrs := freeAddrs(t, 2*n)
	clients, routes := addrs[:n], addrs[n:]
	qs := make([]*Queue, n)
	errs := make(chan error, n)
	for i := range n {
		go func() {
			oi := o
			oi.Listen, oi.StoreDir, oi.Logger = clients[i], t.TempDir(), testLogger()
			oi.Cluster = Cluster{Name: "test", Listen: routes[i], Routes: routes}
			// A cluster elects its JetStream meta leader once enough nodes are up: the
			// nodes start together, as machines of a cluster do.
			q, err := Open(testContext(t, 60*time.Second), oi)
			qs[i] = q
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatalf("a cluster node: %v", err)
		}
	}
	for _, q := range qs {
		t.Cleanup(func() { q.Close() })
	}
	var urls []string
	for _, q := range qs {
		urls = append(urls, q.URL())
	}
	return qs, urls
}

// On a 3-node cluster with 3 replicas, every stream and object store is kept by all three
// nodes, and a client given every node's URL works through any of them.
func TestClusterReplicas(t *testing.T) {
	t.Parallel()
	qs, urls := cluster(t, 3, Options{Replicas: 3})
	c := client(t, strings.Join(urls, ","), Options{Replicas: 3})
	ctx := testContext(t, 30*time.Second)
	for _, name := range []string{c.jobsStream, c.resultsStream, "OBJ_" + c.buckets[BucketReplays]} {
		s, err := c.js.Stream(ctx, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		info := s.CachedInfo()
		if info.Config.Replicas != 3 || info.Cluster == nil || len(info.Cluster.Replicas) != 2 {
			t.Errorf("%s: %d replicas configured, cluster %+v; want 3 (a leader and 2 followers)", name, info.Config.Replicas, info.Cluster)
		}
	}
	submit(t, c, "j1", "job one")
	d := next(t, qs[2], 10*time.Second)
	if string(d.Data) != "job one" {
		t.Errorf("job %q", d.Data)
	}
	if err := d.Ack(ctx); err != nil {
		t.Fatal(err)
	}
}

// Replicas a single server cannot give are an error saying what to do; a stream that has
// fewer replicas than asked is updated, not silently used as it is.
func TestReplicasOnTheWrongServer(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("waits out a replica placement that cannot happen; skipped under -short")
	}
	q := embedded(t, Options{})
	_, err := Open(testContext(t, 8*time.Second), Options{URL: q.URL(), Replicas: 3, Logger: testLogger()})
	if err == nil || !strings.Contains(err.Error(), "with 3 replicas (nats.replicas)") || !strings.Contains(err.Error(), "JetStream cluster of at least 3 servers") {
		t.Errorf("3 replicas on one server: %v", err)
	}
	if _, err := Open(testContext(t, 5*time.Second), Options{URL: q.URL(), Replicas: 6}); err == nil {
		t.Error("6 replicas: no error")
	}

	qs, urls := cluster(t, 3, Options{})
	ctx := testContext(t, 30*time.Second)
	s, err := qs[0].js.Stream(ctx, qs[0].jobsStream)
	if err != nil || s.CachedInfo().Config.Replicas != 1 {
		t.Fatalf("a cluster queue with the default replicas: %v", err)
	}
	c := client(t, strings.Join(urls, ","), Options{Replicas: 3})
	// A client with the default of one replica (judge submit with no nats.replicas) does not
	// take them away again.
	client(t, strings.Join(urls, ","), Options{})
	for _, name := range []string{c.jobsStream, c.resultsStream, "OBJ_" + c.buckets[BucketArtifacts]} {
		s, err := c.js.Stream(ctx, name)
		if err != nil || s.CachedInfo().Config.Replicas != 3 {
			t.Errorf("%s after Open with 3 replicas, then 1: %v, %+v", name, err, s.CachedInfo().Config)
		}
	}
}

func TestClusterOptionsAreChecked(t *testing.T) {
	for _, c := range []Cluster{
		{Routes: []string{"127.0.0.1:6222"}},
		{Listen: "nowhere"},
		{Listen: "127.0.0.1:0"},
	} {
		_, err := Open(testContext(t, 5*time.Second), Options{Listen: "127.0.0.1:-1", StoreDir: t.TempDir(), Cluster: c, Logger: testLogger()})
		if err == nil || !strings.Contains(err.Error(), "cluster") {
			t.Errorf("%+v: %v", c, fmt.Sprint(err))
		}
	}
}

// A node that replaces a lost one waits for a route to the cluster, and that wait ends with
// Open's context: a judge serve stopped meanwhile does not wait out the 10 s.
func TestReplacingEndsWithTheContext(t *testing.T) {
	addrs := freeAddrs(t, 3) // the client port, the route port, a cluster nobody runs
	o := Options{Listen: addrs[0], StoreDir: t.TempDir(), Logger: testLogger(),
		Cluster: Cluster{Name: "test", Listen: addrs[1], Routes: []string{addrs[2]}, Replaces: []string{"gone"}}}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	q, err := Open(ctx, o)
	if err == nil {
		q.Close()
	}
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 3*time.Second {
		t.Errorf("Open with nobody to route to: %v after %s; want the context's deadline, at once", err, time.Since(start).Round(time.Millisecond))
	}
}
