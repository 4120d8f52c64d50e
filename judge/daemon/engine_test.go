package daemon_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	docker "github.com/docker/docker/client"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/enginetest"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// faultyEngine is a daemon whose engine is reached through a proxy that can fail, on a
// server of its own whose jobs are delivered faultyMaxDeliver times at most.
type faultyEngine struct {
	proxy  *enginetest.Proxy
	engine *sandbox.Engine
	srv    *queue.Queue
	m      *daemon.Metrics
	docker *docker.Client // the engine itself, past the proxy
}

const faultyMaxDeliver = 3

func startFaultyEngine(t *testing.T) *faultyEngine {
	t.Helper()
	sandboxtest.MustHaveDocker(t)
	f := &faultyEngine{proxy: enginetest.Start(t, ""), m: daemon.NewMetrics()}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	e, err := sandbox.New(ctx, sandbox.Options{Host: f.proxy.Host(), StateDir: sandboxtest.DataDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	f.engine = e
	if f.docker, err = docker.NewClientWithOpts(docker.FromEnv, docker.WithAPIVersionNegotiation()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.docker.Close() })
	f.srv, err = queue.Open(context.Background(), queue.Options{Redelivery: queue.Redelivery{AckWait: ackWait, MaxDeliver: faultyMaxDeliver}, Listen: "127.0.0.1:-1", StoreDir: t.TempDir(), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.srv.Close() })
	q, err := queue.Open(context.Background(), queue.Options{Redelivery: queue.Redelivery{AckWait: ackWait, MaxDeliver: faultyMaxDeliver}, URL: f.srv.URL(), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	r := &match.Runner{Sandbox: e, Builder: sandboxtest.Builder(t, e), Limits: sandboxtest.Limits(), Freeze: sandbox.FreezeSignal, WorkDir: t.TempDir()}
	d, err := daemon.New(daemon.Options{
		Queue: q, Jobs: job.Rules{Game: games.Lookup, Langs: images.LangNames(), MaxSource: 1 << 20}, Workers: 1, Grace: 30 * time.Second,
		Heartbeat: ackWait / 3, Metrics: f.m, Log: testLog(t), Backoff: []time.Duration{time.Second}, Runners: []daemon.Runner{r},
	})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.Run(runCtx); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	return f
}

// own lists the daemon's containers, asking the engine itself (the proxy may be failing).
func (f *faultyEngine) own(t *testing.T) []string {
	return f.list(t, true)
}

// list lists the daemon's containers, with all those not running too.
func (f *faultyEngine) list(t *testing.T, all bool) []string {
	t.Helper()
	list, err := f.docker.ContainerList(context.Background(), container.ListOptions{All: all,
		Filters: filters.NewArgs(filters.Arg("label", sandbox.LabelInstance+"="+f.engine.Instance()))})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range list {
		ids = append(ids, c.ID)
	}
	return ids
}

// noneLeft fails the test unless the daemon's containers are all gone within a few seconds:
// the engine being back, and a match judged since, those of the failed match are removed.
func (f *faultyEngine) noneLeft(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		left := f.own(t)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%d of the daemon's containers left with the engine back", len(left))
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// running waits until the daemon has n containers running: created, they may take a while
// to start.
func (f *faultyEngine) running(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for len(f.list(t, false)) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon never started %d containers", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// noBotBlamed fails the test for every player fault in res: the sample bots never fault, so
// a fault is the engine's failure blamed on a bot.
func noBotBlamed(t *testing.T, res map[string]result.Result) {
	t.Helper()
	for id, r := range res {
		for i, p := range r.Players {
			if p.Fault != nil {
				t.Errorf("%s: player %d (%s) blamed for the engine: %s at turn %d: %s", id, i, p.Name, p.Fault.Kind, p.Fault.Turn, p.Fault.Detail)
			}
		}
	}
}

// longMatch is a match of the C++ sample bots that runs for a few seconds.
func longMatch(t *testing.T, id string) []byte {
	return jobJSON(t, id, "amazes", map[string]string{"turns": "150"}, "judge/daemon/testdata/slow", "judge/daemon/testdata/slow")
}

func shortMatch(t *testing.T, id string) []byte {
	return jobJSON(t, id, "amazes", map[string]string{"turns": "5"}, "bots/amazes/cpp", "bots/amazes/cpp")
}

// The engine goes away (every connection cut, none taken) in the middle of a match and for
// a job submitted meanwhile, then comes back.
func TestEngineCutMidMatch(t *testing.T) {
	before := containers(t)
	f := startFaultyEngine(t)
	start := time.Now()
	submit(t, f.srv, "cut-mid", longMatch(t, "cut-mid"))
	f.running(t, 2)
	time.Sleep(300 * time.Millisecond) // the bots are playing
	f.proxy.Cut()
	t.Logf("cut %v after the submit", time.Since(start))
	submit(t, f.srv, "cut-during", shortMatch(t, "cut-during"))
	res := results(t, f.srv, 3*time.Minute, "cut-mid", "cut-during")
	t.Logf("results %v after the submit", time.Since(start))
	f.proxy.Resume()
	submit(t, f.srv, "cut-after", shortMatch(t, "cut-after"))
	for id, r := range results(t, f.srv, 3*time.Minute, "cut-after") {
		res[id] = r
	}
	for id, r := range res {
		t.Logf("%s: %s %+v", id, r.Status, r.Error)
	}
	noBotBlamed(t, res)
	if r := res["cut-during"]; r.Status != result.StatusError || r.Error.Code != result.Infrastructure {
		t.Errorf("a match that could not start for want of the engine: %s %+v, want an infrastructure error", r.Status, r.Error)
	}
	if n := counter(f.m, "retried"); n != faultyMaxDeliver-1 {
		t.Errorf("%v retries, want %d", n, faultyMaxDeliver-1)
	}
	if r := res["cut-after"]; r.Status != result.StatusOK {
		t.Errorf("after the engine came back: %s %+v", r.Status, r.Error)
	}
	f.noneLeft(t)
	noContainersLeft(t, before)
}

// testLog writes the daemon's log to the test's.
func testLog(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

type tWriter struct{ t *testing.T }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// The engine restarts in the middle of a match: every connection to it is cut and, as an
// engine without live-restore does, it kills every container; then it is back.
func TestEngineRestartMidMatch(t *testing.T) {
	before := containers(t)
	f := startFaultyEngine(t)
	submit(t, f.srv, "restart-mid", longMatch(t, "restart-mid"))
	f.running(t, 2)
	time.Sleep(300 * time.Millisecond) // the bots are playing
	f.proxy.Cut()
	for _, id := range f.own(t) {
		f.docker.ContainerKill(context.Background(), id, "KILL")
	}
	time.Sleep(2 * time.Second)
	f.proxy.Resume()
	res := results(t, f.srv, 3*time.Minute, "restart-mid")
	submit(t, f.srv, "restart-after", shortMatch(t, "restart-after"))
	for id, r := range results(t, f.srv, 3*time.Minute, "restart-after") {
		res[id] = r
	}
	for id, r := range res {
		t.Logf("%s: %s %+v", id, r.Status, r.Error)
	}
	noBotBlamed(t, res)
	if n := counter(f.m, "retried"); n < 1 {
		t.Errorf("the match the engine's restart broke was not retried (%v retries)", n)
	}
	if r := res["restart-after"]; r.Status != result.StatusOK {
		t.Errorf("after the engine came back: %s %+v", r.Status, r.Error)
	}
	f.noneLeft(t)
	noContainersLeft(t, before)
}
