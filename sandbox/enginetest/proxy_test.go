package enginetest_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/docker/docker/client"

	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/enginetest"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// An engine call through the proxy works, hangs while it stalls, goes on when it resumes,
// and fails at once while it is cut.
func TestProxy(t *testing.T) {
	sandboxtest.MustHaveDocker(t)
	p := enginetest.Start(t, "")
	cli, err := client.NewClientWithOpts(client.WithHost(p.Host()), client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	ping := func(timeout time.Duration) error {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		_, err := cli.Ping(ctx)
		return err
	}
	if err := ping(10 * time.Second); err != nil {
		t.Fatalf("through the proxy: %v", err)
	}
	// The count is read from a copy of the request, beside its way to the engine: it may
	// come a moment after the answer (seen on a loaded machine).
	if n := requests(p, 1); n != 1 {
		t.Errorf("%d requests counted after one ping", n)
	}

	p.Stall()
	if err := ping(300 * time.Millisecond); err == nil {
		t.Error("a ping answered while the proxy stalls")
	}
	done := make(chan error, 1)
	go func() { done <- ping(10 * time.Second) }()
	time.Sleep(200 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("a ping returned while the proxy stalls: %v", err)
	default:
	}
	p.Resume()
	if err := <-done; err != nil {
		t.Errorf("a stalled ping after Resume: %v", err)
	}

	p.Cut()
	start := time.Now()
	if err := ping(10 * time.Second); err == nil {
		t.Error("a ping answered while the proxy is cut")
	} else if time.Since(start) > 2*time.Second {
		t.Errorf("a ping through a cut proxy took %v to fail", time.Since(start))
	}
	p.Resume()
	if err := ping(10 * time.Second); err != nil {
		t.Errorf("after Resume: %v", err)
	}
	if n := requests(p, 4); n < 4 {
		t.Errorf("%d requests counted, want at least 4", n)
	}
}

// A compilation through the proxy works: the client ends the container's stdin (the sources'
// tar) with a half-close of the attach connection, and the proxy passes it on rather than
// closing the connection, so the compiler's answer still comes back.
func TestProxyPassesAHalfClose(t *testing.T) {
	sandboxtest.MustHaveDocker(t)
	p := enginetest.Start(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e, err := sandbox.New(ctx, sandbox.Options{Host: p.Host(), StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	b := sandboxtest.Builder(t, e)
	b.Dir = t.TempDir() // no cache: the compiler runs
	sub, err := submission.Load(filepath.Join(sandboxtest.Root(), "bots/hello/cpp"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.Build(ctx, sub)
	if err != nil || !res.OK || res.Cached {
		t.Fatalf("a compilation through the proxy: %+v %v", res, err)
	}
}

// requests is the proxy's count once it reaches want, or after 5 seconds.
func requests(p *enginetest.Proxy, want int64) int64 {
	deadline := time.Now().Add(5 * time.Second)
	for p.Requests() < want && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	return p.Requests()
}
