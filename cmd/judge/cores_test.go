package main

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/config"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/cores"
)

// Two judges on one host never pin bots to the same core: the first leases every core for
// its workers, one each; the second, finding none left, runs unpinned and says so. Once the
// first lets go, its cores are free again.
func TestJudgesOfAHostShareNoCore(t *testing.T) {
	usable, err := (cores.Host{}).Usable()
	if err != nil {
		t.Fatal(err)
	}
	lease := t.TempDir()
	judge := func() (*app, []string, int, string) {
		var log bytes.Buffer
		a := &app{&base.App{Cfg: config.Defaults()}}
		a.Cfg.Serve.CoreLease = lease
		sets, workers, err := a.workerCores(0, slog.New(slog.NewTextHandler(&log, nil)))
		if err != nil {
			t.Fatal(err)
		}
		return a, sets, workers, log.String()
	}
	first, sets, workers, _ := judge()
	defer first.Lease.Release()
	if workers != len(usable) || len(sets) != len(usable) {
		t.Fatalf("the first judge: %d workers on %v; want one per core of %d", workers, sets, len(usable))
	}
	for i, c := range usable {
		if sets[i] != c.Set() {
			t.Errorf("worker %d on %q, want core %q", i+1, sets[i], c.Set())
		}
	}
	second, sets, workers, log := judge()
	if second.Lease != nil || len(sets) != 0 || workers != len(usable) ||
		!strings.Contains(log, "every core of this host is leased") {
		t.Errorf("the second judge: lease %v, cpusets %q, %d workers, log %q; want unpinned, saying why", second.Lease, sets, workers, log)
	}
	first.Lease.Release()
	third, sets, _, _ := judge()
	defer third.Lease.Release()
	if third.Lease == nil || len(sets) != len(usable) || sets[0] != usable[0].Set() {
		t.Errorf("after the first let go: %v", sets)
	}
}

// A lease directory the judge cannot use is an error that names the setting and the way out.
func TestCoreLeaseThatCannotBeUsed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	a := &app{&base.App{Cfg: config.Defaults()}}
	a.Cfg.Serve.CoreLease = filepath.Join(file, "cores") // under a file: no directory can be made
	_, _, err := a.workerCores(0, slog.New(slog.DiscardHandler))
	if err == nil || !strings.Contains(err.Error(), "serve.core_lease "+a.Cfg.Serve.CoreLease) || !strings.Contains(err.Error(), "sandbox.pin: false") {
		t.Errorf("got %v; want an error naming serve.core_lease and the way out", err)
	}
}

// judge serve sizes the engine's pool from its workers: per worker, and per kind of bot (a
// pinned worker's bots are a kind of their own).
func TestPoolFor(t *testing.T) {
	s := config.Sandbox{Warm: 1, WarmLimit: 4, Reuse: 8}
	for _, tc := range []struct {
		pinned  bool
		workers int
		want    sandbox.Pool
	}{
		{true, 2, sandbox.Pool{Warm: 1, WarmLimit: 8, Reuse: 16}},
		{false, 2, sandbox.Pool{Warm: 2, WarmLimit: 8, Reuse: 16}},
		{false, 1, sandbox.Pool{Warm: 1, WarmLimit: 4, Reuse: 8}},
	} {
		if got := poolFor(s, tc.pinned, tc.workers); got != tc.want {
			t.Errorf("pinned %v, %d workers: %+v, want %+v", tc.pinned, tc.workers, got, tc.want)
		}
	}
}
