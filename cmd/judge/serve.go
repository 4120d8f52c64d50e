package main

import (
	"context"
	"os"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/games"
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
			r, err := a.runner(cmd) // connects to the engine and sweeps dead judges' containers
			if err != nil {
				return err
			}
			if a.cfg.Images.Source == "nats" {
				b, err := a.imageBuilder(ctx)
				if err != nil {
					return err
				}
				if err := os.MkdirAll(a.cfg.DataDir, 0o755); err != nil {
					return err
				}
				if err := a.fetchImages(ctx, q, b); err != nil {
					return err
				}
			}
			r.Builder.Remote, r.Builder.Log = q.Cache(queue.BucketArtifacts), a.log
			workers := a.cfg.Serve.Workers
			if workers == 0 {
				workers = max(1, runtime.NumCPU()/2)
			}
			metrics := daemon.NewMetrics()
			d, err := daemon.New(daemon.Options{
				Queue: q, Runner: r, Games: games.Lookup, Workers: workers, CPUSets: botCores(a.cfg.Sandbox.Pin, workers),
				Grace:     a.cfg.Serve.Grace,
				Heartbeat: a.cfg.Serve.AckWait / 3, MaxSource: int64(a.cfg.Build.SourceLimit),
				Metrics: metrics, Log: a.log,
			})
			if err != nil {
				return err
			}
			if a.cfg.Serve.HTTP != "" {
				go func() {
					healthy := func(ctx context.Context) error {
						if _, err := a.engine.ImageID(ctx, "judge-healthz"); err != nil {
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
