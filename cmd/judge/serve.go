package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/config"
	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/cores"
)

func (a *app) serveCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "The daemon: pull match jobs from NATS JetStream, judge them, publish the results",
		Long: "The daemon. With nats.url unset it embeds a NATS server with JetStream (storage in\n" +
			"data_dir/nats, listening on nats.listen), so a single machine needs nothing else.\n" +
			"SIGTERM or SIGINT stops it: no new jobs, running matches get serve.grace to finish,\n" +
			"then are handed back to the queue.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			q, err := a.queue(ctx, true)
			if err != nil {
				return err
			}
			defer q.Close()
			if dir := q.StoreDir(); dir != "" {
				// The queue keeps its housekeeping at Debug; where the jobs, results and
				// replays are kept is the daemon's to say, once.
				a.log.Info("serve: embedded NATS server", "url", q.URL(), "store_dir", dir)
			}
			d, metrics, err := a.daemon(ctx, q, a.cfg.Serve.Workers, a.log)
			if err != nil {
				return err
			}
			if a.cfg.Serve.HTTP != "" {
				e := a.engine // closed, and a.engine cleared, when serve returns
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
					if err := metrics.Serve(ctx, a.cfg.Serve.HTTP, healthy); err != nil {
						a.log.Error("serving /metrics and /healthz", "addr", a.cfg.Serve.HTTP, "err", err)
					}
				}()
			}
			cctx, stopCleaning := context.WithCancel(ctx)
			var cleaning sync.WaitGroup
			cleaning.Go(func() { cleanReplays(cctx, q, a.cfg.NATS.ReplaysMaxAge, houseEvery, a.log) })
			cleaning.Go(func() { cleanResults(cctx, q, a.cfg.NATS.ResultsMaxAge, houseEvery, a.log) })
			cleaning.Go(func() { cleanArtifacts(cctx, q, a.cfg.NATS.ArtifactsMaxAge, houseEvery, a.log) })
			cleaning.Go(func() { trimBuilds(cctx, a.buildDir(), int64(a.cfg.Build.CacheLimit), houseEvery, a.log) })
			defer func() { stopCleaning(); cleaning.Wait() }() // before q.Close
			return d.Run(ctx)
		},
	}
}

// houseEvery is how often judge serve cleans up what grows: the old replays and results of
// test and ladder matches (one listing of the replays bucket an hour, a replay kept at most an
// hour past nats.replays_max_age), the shared compiled bots and the build cache.
const houseEvery = time.Hour

// cleanReplays deletes the replays of test and ladder matches older than maxAge from q, at
// once and then each time every has passed, until ctx is done; maxAge 0 keeps them all. A
// failure is logged and tried again the next time: the daemon judges on, whatever the store.
func cleanReplays(ctx context.Context, q *queue.Queue, maxAge, every time.Duration, log *slog.Logger) {
	clean(ctx, "replays", "the replays of test and ladder matches", q.ExpireReplays, maxAge, every, log)
}

// cleanResults deletes the results of test and ladder matches older than maxAge from q, as
// cleanReplays does their replays.
func cleanResults(ctx context.Context, q *queue.Queue, maxAge, every time.Duration, log *slog.Logger) {
	clean(ctx, "results", "the results of test and ladder matches", q.ExpireResults, maxAge, every, log)
}

// cleanArtifacts deletes the compiled bots of the shared build cache older than maxAge from
// q, as cleanReplays does the replays; one deleted is compiled again when next needed.
func cleanArtifacts(ctx context.Context, q *queue.Queue, maxAge, every time.Duration, log *slog.Logger) {
	clean(ctx, "compiled bots", "the compiled bots of the shared cache", q.ExpireArtifacts, maxAge, every, log)
}

// clean runs expire for what is older than maxAge, as cleanReplays says; what and whole name
// it in the log.
func clean(ctx context.Context, what, whole string, expire func(context.Context, time.Time, bool) (queue.Expired, error),
	maxAge, every time.Duration, log *slog.Logger) {
	if maxAge <= 0 {
		return
	}
	periodically(ctx, every, func() {
		// Bounded, so that a clean-up stuck on a server that does not answer gives way to
		// the next one.
		actx, cancel := context.WithTimeout(ctx, every/2)
		ex, err := expire(actx, time.Now().Add(-maxAge), false)
		cancel()
		switch {
		case ctx.Err() != nil:
		case err != nil:
			log.Warn("serve: expiring old "+what+" failed: trying again later", "err", err, "max_age", maxAge, "retry_in", every)
		case ex.Count > 0:
			log.Info("serve: expired "+whole, "count", ex.Count, "bytes", ex.Bytes, "max_age", maxAge)
		default:
			log.Debug("serve: nothing to expire: none of "+whole+" is older than its max age", "max_age", maxAge)
		}
	})
}

// trimBuilds keeps the build cache dir within limit bytes (build.TrimCache), at once and then
// each time every has passed, until ctx is done. A failure is logged and tried again.
func trimBuilds(ctx context.Context, dir string, limit int64, every time.Duration, log *slog.Logger) {
	periodically(ctx, every, func() {
		t, err := build.TrimCache(dir, limit, build.TrimKeep, time.Now())
		switch {
		case err != nil:
			log.Warn("serve: trimming the build cache failed: trying again later", "dir", dir, "err", err, "retry_in", every)
		case t.Removed > 0:
			log.Info("serve: trimmed the build cache to build.cache_limit", "dir", dir, "removed", t.Removed, "freed", t.Freed, "left", t.Left, "bytes", t.Bytes, "limit", limit)
		case t.Bytes > limit:
			log.Warn("serve: the build cache is over build.cache_limit, all of it used within the last hour", "dir", dir, "bytes", t.Bytes, "limit", limit)
		}
	})
}

// periodically runs f at once and then each time every has passed, until ctx is done.
func periodically(ctx context.Context, every time.Duration, f func()) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		f()
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// daemon makes the daemon of `judge serve` on q, with workers workers (0: one per core its
// bots may have, see workerCores),
// logging to log.
func (a *app) daemon(ctx context.Context, q *queue.Queue, workers int, log *slog.Logger) (*daemon.Daemon, *daemon.Metrics, error) {
	b, err := a.builder(ctx) // connects to the engine and sweeps dead judges' containers
	if err != nil {
		return nil, nil, err
	}
	r, err := a.runner(b)
	if err != nil {
		return nil, nil, err
	}
	if a.cfg.Images.Source == config.ImagesFromNATS {
		ib, err := a.imageBuilder(ctx)
		if err != nil {
			return nil, nil, err
		}
		if err := os.MkdirAll(a.cfg.DataDir, 0o755); err != nil {
			return nil, nil, err
		}
		if err := a.fetchImages(ctx, q, ib); err != nil {
			return nil, nil, err
		}
	}
	b.Remote, b.Log = q.Cache(queue.BucketArtifacts), log
	runners, workers, err := a.workerCores(r, workers, log)
	if err != nil {
		return nil, nil, err
	}
	// Each runner's bots are of kinds of their own (their cores are part of their limits):
	// the pool keeps each kind ready for the workers that share its runner.
	a.engine.Warm(a.cfg.Sandbox.Warm * ((workers + len(runners) - 1) / len(runners)))
	a.engine.WarmLimit(a.cfg.Sandbox.WarmLimit * workers)
	a.engine.Reuse(a.cfg.Sandbox.Reuse * workers)
	metrics := daemon.NewMetrics()
	metrics.WatchStores(func(ctx context.Context) ([]queue.Usage, error) { return q.Usage(ctx, false) })
	d, err := daemon.New(daemon.Options{
		Queue: q, Runners: runners, Jobs: a.jobRules(), Workers: workers,
		Grace:     a.cfg.Serve.Grace,
		Dirs:      []string{a.cfg.DataDir, os.TempDir()},
		Heartbeat: a.cfg.Serve.AckWait / 3,
		Metrics:   metrics, Log: log,
	})
	return d, metrics, err
}

// workerCores gives each worker a core of its own for its bots, from the cores the judge may
// use (hyper-thread siblings are one core; the judge's affinity and CPU quota bound them)
// that no other judge of the host holds (a lease in serve.core_lease); the judge itself, the
// engine and compilations float over every core. workers 0 means one per core leased. With
// sandbox.pin off, or no core left to lease, bots are not pinned, and workers 0 means one per
// usable core. It returns one runner per worker, or r alone when unpinned.
func (a *app) workerCores(r *match.Runner, workers int, log *slog.Logger) ([]daemon.Runner, int, error) {
	usable, err := (cores.Host{}).Usable()
	if err != nil {
		return nil, 0, err
	}
	if a.cfg.Sandbox.Pin {
		lease, err := cores.Take(a.cfg.Serve.CoreLease, usable, workers)
		if err != nil {
			return nil, 0, fmt.Errorf("serve.core_lease %s: %w (it must be a directory every judge of this host can write; or set sandbox.pin: false)",
				a.cfg.Serve.CoreLease, err)
		}
		if len(lease.Cores) > 0 {
			a.lease = lease
			if workers == 0 {
				workers = len(lease.Cores)
			}
			var runners []daemon.Runner
			var sets []string
			for i := range workers {
				pinned := *r
				pinned.Limits.CPUSet = lease.Cores[i%len(lease.Cores)].Set()
				runners = append(runners, &pinned)
				sets = append(sets, fmt.Sprintf("%d:%s", i+1, pinned.Limits.CPUSet))
			}
			log.Info("daemon: each worker's bots on a core of their own", "workers", workers, "cores", strings.Join(sets, " "),
				"lease", a.cfg.Serve.CoreLease)
			return runners, workers, nil
		}
		lease.Release()
		log.Warn("daemon: every core of this host is leased by other judges: bots are not pinned", "lease", a.cfg.Serve.CoreLease)
	}
	if workers == 0 {
		workers = len(usable)
	}
	if r.Limits.Runtime == sandbox.RuntimeGVisor {
		log.Warn("daemon: under gVisor, bots not pinned to a core of their own may be charged more CPU than their own clock reads (gVisor's kernel works for them on other cores; docs/rules.md)")
	}
	return []daemon.Runner{r}, workers, nil
}
