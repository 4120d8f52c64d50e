package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/config"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/cores"
)

func (a *app) serveCmd() *cobra.Command {
	var contests bool
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "The daemon: pull match jobs from NATS JetStream, judge them, publish the results",
		Long: "The daemon. With nats.url unset it embeds a NATS server with JetStream (storage in\n" +
			"data_dir/nats, listening on nats.listen), so a single machine needs nothing else.\n" +
			"SIGTERM or SIGINT stops it: no new jobs, running matches get serve.grace to finish,\n" +
			"then are handed back to the queue. With --contests it runs the portal's contest engine\n" +
			"beside the daemon (builds, validation, the ladder, rounds: docs/portal.md), for portals\n" +
			"that serve pages only (`judge portal --engine=false`).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			q, err := a.Queue(ctx, base.Serve)
			if err != nil {
				return err
			}
			defer q.Close()
			if dir := q.StoreDir(); dir != "" {
				// The queue keeps its housekeeping at Debug; where the jobs, results and
				// replays are kept is the daemon's to say, once.
				a.Log.Info("serve: embedded NATS server", "url", q.URL(), "store_dir", dir)
			}
			d, metrics, err := a.daemon(ctx, q, a.Cfg.Serve.Workers, a.Log)
			if err != nil {
				return err
			}
			if a.Cfg.Serve.HTTP != "" {
				e := a.Engine // closed, and a.Engine cleared, when serve returns
				go func() {
					healthy := func(ctx context.Context) error {
						if err := d.Paused(); err != nil {
							return err
						}
						if _, err := e.ImageID(ctx, "judge-healthz"); err != nil {
							return err
						}
						_, _, err := q.Result(ctx, "healthz")
						return err
					}
					if err := metrics.Serve(ctx, a.Cfg.Serve.HTTP, healthy); err != nil {
						a.Log.Error("serving /metrics and /healthz", "addr", a.Cfg.Serve.HTTP, "err", err)
					}
				}()
			}
			cctx, stopCleaning := context.WithCancel(ctx)
			cleaning := daemon.Housekeep(cctx, q, a.Cfg.NATS, a.BuildDir(), int64(a.Cfg.Build.CacheLimit), daemon.HouseEvery, a.Log)
			defer func() { stopCleaning(); cleaning() }() // before q.Close
			if contests {
				kv, err := q.KeyValue(ctx, "portal")
				if err != nil {
					return err
				}
				e := a.ContestEngine(store.New(kv), q)
				ran := make(chan struct{})
				go func() { e.Run(cctx); close(ran) }()
				defer func() { stopCleaning(); <-ran }()
				a.Log.Info("serve: the contest engine runs here")
			}
			return d.Run(ctx)
		},
	}
	cmd.Flags().BoolVar(&contests, "contests", false, "run the contest engine beside the daemon")
	return cmd
}

// daemon makes the daemon of `judge serve` on q, with workers workers (0: one per core its
// bots may have, see workerCores),
// logging to log.
func (a *app) daemon(ctx context.Context, q *queue.Queue, workers int, log *slog.Logger) (*daemon.Daemon, *daemon.Metrics, error) {
	sets, workers, err := a.workerCores(workers, log)
	if err != nil {
		return nil, nil, err
	}
	a.Pool = poolFor(a.Cfg.Sandbox, len(sets) > 0, workers)
	b, err := a.Builder(ctx) // connects to the engine (its pool sized so) and sweeps dead judges' containers
	if err != nil {
		return nil, nil, err
	}
	r, err := a.Runner(b)
	if err != nil {
		return nil, nil, err
	}
	if a.Cfg.Images.Source == config.ImagesFromNATS {
		ib, err := a.ImageBuilder(ctx)
		if err != nil {
			return nil, nil, err
		}
		if err := os.MkdirAll(a.Cfg.DataDir, 0o755); err != nil {
			return nil, nil, err
		}
		start := time.Now()
		key, m, err := ib.Fetch(ctx, q.Cache(queue.BucketImages), a.Cfg.DataDir)
		if err != nil {
			return nil, nil, err
		}
		if key != "" {
			a.Log.Info("loaded images from the object store", "archive", key, "images", len(m.Images), "seconds", time.Since(start).Seconds())
		}
	}
	b.Remote, b.Log = q.Cache(queue.BucketArtifacts), log
	runners := []daemon.Runner{r}
	if len(sets) > 0 {
		runners = nil
		for _, set := range sets {
			pinned := *r
			pinned.Limits.CPUSet = set
			runners = append(runners, &pinned)
		}
	}
	if err := a.UseCatalog(ctx, q); err != nil {
		return nil, nil, err
	}
	metrics := daemon.NewMetrics()
	metrics.WatchStores(func(ctx context.Context) ([]queue.Usage, error) { return q.Admin().Usage(ctx, false) })
	d, err := daemon.New(daemon.Options{
		Queue: q, Runners: runners, Jobs: a.JobRules(), Workers: workers,
		Grace:     a.Cfg.Serve.Grace,
		Dirs:      []string{a.Cfg.DataDir, os.TempDir()},
		Heartbeat: a.Cfg.Serve.AckWait / 3,
		Metrics:   metrics, Log: log,
	})
	return d, metrics, err
}

// poolFor is the engine's pool for workers workers, from the per-worker settings s: each
// pinned worker's bots are of kinds of their own (their core is part of their limits), so
// the pool keeps each kind ready for its one worker; unpinned, one kind serves every worker.
func poolFor(s config.Sandbox, pinned bool, workers int) sandbox.Pool {
	perKind := workers
	if pinned {
		perKind = 1
	}
	return sandbox.Pool{Warm: s.Warm * perKind, WarmLimit: s.WarmLimit * workers, Reuse: s.Reuse * workers}
}

// workerCores gives each worker a core of its own for its bots, from the cores the judge may
// use (hyper-thread siblings are one core; the judge's affinity and CPU quota bound them)
// that no other judge of the host holds (a lease in serve.core_lease); the judge itself, the
// engine and compilations float over every core. workers 0 means one per core leased. With
// sandbox.pin off, or no core left to lease, bots are not pinned, and workers 0 means one per
// usable core. It returns each worker's CPU set (none when unpinned) and the worker count.
func (a *app) workerCores(workers int, log *slog.Logger) ([]string, int, error) {
	usable, err := (cores.Host{}).Usable()
	if err != nil {
		return nil, 0, err
	}
	if a.Cfg.Sandbox.Pin {
		lease, err := cores.Take(a.Cfg.Serve.CoreLease, usable, workers)
		if err != nil {
			return nil, 0, fmt.Errorf("serve.core_lease %s: %w (it must be a directory every judge of this host can write; or set sandbox.pin: false)",
				a.Cfg.Serve.CoreLease, err)
		}
		if len(lease.Cores) > 0 {
			a.Lease = lease
			if workers == 0 {
				workers = len(lease.Cores)
			}
			var sets, shown []string
			for i := range workers {
				sets = append(sets, lease.Cores[i%len(lease.Cores)].Set())
				shown = append(shown, fmt.Sprintf("%d:%s", i+1, sets[i]))
			}
			log.Info("daemon: each worker's bots on a core of their own", "workers", workers, "cores", strings.Join(shown, " "),
				"lease", a.Cfg.Serve.CoreLease)
			return sets, workers, nil
		}
		lease.Release()
		log.Warn("daemon: every core of this host is leased by other judges: bots are not pinned", "lease", a.Cfg.Serve.CoreLease)
	}
	if workers == 0 {
		workers = len(usable)
	}
	if a.Cfg.Sandbox.Runtime == sandbox.RuntimeGVisor {
		log.Warn("daemon: under gVisor, bots not pinned to a core of their own may be charged more CPU than their own clock reads (gVisor's kernel works for them on other cores; docs/rules.md)")
	}
	return nil, workers, nil
}
