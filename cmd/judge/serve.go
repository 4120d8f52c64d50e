package main

import (
	"context"
	"log/slog"
	"os"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/config"
	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/queue"
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
			return d.Run(ctx)
		},
	}
}

// daemon makes the daemon of `judge serve` on q, with workers workers (0: one per two cores),
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
	if workers == 0 {
		workers = max(1, runtime.NumCPU()/2)
	}
	// Each worker's bots get a core of their own where the machine has cores to give: only
	// the bot on move runs.
	runners := []daemon.Runner{r}
	if cores := botCores(a.cfg.Sandbox.Pin, workers); len(cores) > 0 {
		runners = nil
		for i := range workers {
			pinned := *r
			pinned.Limits.CPUSet = cores[i%len(cores)]
			runners = append(runners, &pinned)
		}
	}
	// Each runner's bots are of kinds of their own (their cores are part of their limits):
	// the pool keeps each kind ready for the workers that share its runner.
	a.engine.Warm(a.cfg.Sandbox.Warm * ((workers + len(runners) - 1) / len(runners)))
	metrics := daemon.NewMetrics()
	d, err := daemon.New(daemon.Options{
		Queue: q, Runners: runners, Jobs: a.jobRules(), Workers: workers,
		Grace:     a.cfg.Serve.Grace,
		Heartbeat: a.cfg.Serve.AckWait / 3,
		Metrics:   metrics, Log: log,
	})
	return d, metrics, err
}
