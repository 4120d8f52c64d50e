package queue

import (
	"errors"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// The embedded server goes away and comes back on the same store and port while a client
// Queue stays open: the client reconnects by itself, publishes made during the outage go
// through once the server is back, and nothing stored before is lost.
func TestServerRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := embedded(t, Options{StoreDir: dir})
	u, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	c := client(t, srv.URL(), Options{})
	ctx := testContext(t, 40*time.Second)

	for _, id := range []string{"j1", "j2", "j3"} {
		submit(t, c, id, "job "+id)
	}
	// One job is taken and acked before the restart: it must not come back.
	d := next(t, c, 5*time.Second)
	if d.ID != "j1" {
		t.Fatalf("got %s", d.ID)
	}
	if err := d.Ack(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.PublishResult(ctx, LaneMain, "j1", []byte("r1")); err != nil {
		t.Fatal(err)
	}

	// A daemon idle in Next and a results follower stay blocked across the restart. The
	// daemon serves another prefix, so that it does not compete with c for the jobs above.
	idle := client(t, srv.URL(), Options{Prefix: "other"})
	idleGot := make(chan *Delivery, 1)
	idleErr := make(chan error, 1)
	go func() {
		d, err := idle.Next(ctx)
		if err != nil {
			idleErr <- err
			return
		}
		idleGot <- d
	}()
	followed := make(chan string, 10)
	go func() {
		_ = c.Results(ctx, "j5", true, func(_ string, r []byte) error {
			followed <- string(r)
			return nil
		})
	}()

	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "client sees the server gone", func() error {
		if s := c.nc.Status(); s == nats.CONNECTED {
			return errors.New("still connected")
		}
		return nil
	})

	// Publishes during the outage wait for the server instead of failing.
	type pubResult struct {
		dup bool
		err error
	}
	submitted := make(chan pubResult, 1)
	published := make(chan error, 1)
	go func() {
		dup, err := c.Submit(ctx, "j4", []byte("job j4"))
		submitted <- pubResult{dup, err}
	}()
	go func() { published <- c.PublishResult(ctx, LaneMain, "j2", []byte("r2")) }()

	srv2 := embedded(t, Options{StoreDir: dir, Listen: u.Host})
	if srv2.URL() != srv.URL() {
		t.Fatalf("restarted server at %s, want %s", srv2.URL(), srv.URL())
	}
	start := time.Now()
	eventually(t, 10*time.Second, "client reconnected", func() error {
		if s := c.nc.Status(); s != nats.CONNECTED {
			return errors.New(s.String())
		}
		return nil
	})
	t.Logf("client reconnected %s after the server restarted", time.Since(start).Round(time.Millisecond))

	if r := <-submitted; r.err != nil || r.dup {
		t.Fatalf("submit during the outage: duplicate=%v err=%v", r.dup, r.err)
	}
	if err := <-published; err != nil {
		t.Fatalf("publish result during the outage: %v", err)
	}

	for id, want := range map[string]string{"j1": "r1", "j2": "r2"} {
		r, ok, err := c.Result(ctx, id)
		if err != nil || !ok || string(r) != want {
			t.Errorf("result %s after restart: %q ok=%v err=%v", id, r, ok, err)
		}
	}
	var ids []string
	for range 3 {
		d := next(t, c, 10*time.Second)
		ids = append(ids, d.ID)
		if err := d.Ack(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(ids, []string{"j2", "j3", "j4"}) {
		t.Errorf("jobs after restart: %v, want j2 j3 j4", ids)
	}
	expectNothing(t, c, 300*time.Millisecond)
	// The blocked Next and the follower carry on with the restarted server.
	submit(t, idle, "k1", "job k1")
	select {
	case d := <-idleGot:
		if d.ID != "k1" {
			t.Errorf("idle daemon got %s", d.ID)
		}
	case err := <-idleErr:
		t.Fatalf("idle daemon's Next: %v", err)
	case <-ctx.Done():
		t.Fatal("idle daemon's Next did not get the job submitted after the restart")
	}
	if err := c.PublishResult(ctx, LaneMain, "j5", []byte("r5")); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	select {
	case r := <-followed:
		if r != "r5" {
			t.Errorf("followed %q", r)
		}
	case <-ctx.Done():
		t.Fatal("follower did not get the result published after the restart")
	}
	t.Logf("follower resumed in %s", time.Since(start).Round(time.Millisecond))

	// The dedup window survived too.
	if dup, err := c.Submit(ctx, "j3", []byte("again")); err != nil || !dup {
		t.Errorf("resubmit after restart: duplicate=%v err=%v", dup, err)
	}
}
