package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
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

// queue connects to nats.url; with none, serve embeds a server and the clients look for the
// embedded one on nats.listen.
func (a *app) queue(ctx context.Context, serve bool) (*queue.Queue, error) {
	o := queue.Options{URL: a.cfg.NATS.URL, Listen: a.cfg.NATS.Listen, Logger: a.log,
		AckWait: a.cfg.Serve.AckWait, MaxDeliver: a.cfg.Serve.MaxDeliver}
	if o.URL == "" {
		if serve {
			o.StoreDir = filepath.Join(a.cfg.DataDir, "nats")
		} else {
			o.URL = "nats://" + a.cfg.NATS.Listen
		}
	}
	q, err := queue.Open(ctx, o)
	if err != nil && !serve {
		return nil, fmt.Errorf("%w (is `judge serve` running? set nats.url to use another server)", err)
	}
	return q, err
}

func (a *app) submitCmd() *cobra.Command {
	var gameName, id string
	var seed uint64
	var opts []string
	var wait, asJSON bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "submit --game G [--seed N] [--opt k=v]... [--id ID] [--wait] [--json] BOT...",
		Short: "Put a match job built from local files on the queue; with --wait, print its result",
		RunE: func(cmd *cobra.Command, args []string) error {
			_, options, entrants, err := a.matchArgs(gameName, opts, args)
			if err != nil {
				return err
			}
			if id == "" {
				id = newID()
			}
			if err := queue.ValidID(id); err != nil {
				return usageError{err}
			}
			var seedp *uint64
			if cmd.Flags().Changed("seed") {
				seedp = &seed
			}
			data, err := json.Marshal(job.FromEntrants(id, gameName, seedp, options, entrants))
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			q, err := a.queue(ctx, false)
			if err != nil {
				return err
			}
			defer q.Close()
			dup, err := q.Submit(ctx, id, data)
			if err != nil {
				return err
			}
			if dup {
				fmt.Fprintf(os.Stderr, "job %s was already submitted: not queued again\n", id)
			} else if !asJSON || !wait {
				fmt.Fprintf(os.Stderr, "submitted job %s\n", id)
			}
			if !wait {
				if asJSON {
					return json.NewEncoder(os.Stdout).Encode(map[string]string{"id": id})
				}
				fmt.Println(id)
				return nil
			}
			var res result.Result
			err = q.Results(ctx, id, true, func(_ string, data []byte) error {
				if err := json.Unmarshal(data, &res); err != nil {
					return err
				}
				return errStop
			})
			if !errors.Is(err, errStop) {
				return fmt.Errorf("waiting for the result of %s: %w", id, err)
			}
			return printResult(res, asJSON)
		},
	}
	f := cmd.Flags()
	f.StringVar(&gameName, "game", "", "the game ("+gameNames()+")")
	f.Uint64Var(&seed, "seed", 0, "the match's seed (default: the daemon draws one)")
	f.StringArrayVar(&opts, "opt", nil, "a game option k=v (repeatable); @FILE reads the value from a file")
	f.StringVar(&id, "id", "", "the job's id (default: a new one); the same id is judged once")
	f.BoolVar(&wait, "wait", false, "wait for the result and print it")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	f.DurationVar(&timeout, "timeout", 30*time.Minute, "give up waiting after this long")
	cmd.MarkFlagRequired("game")
	return cmd
}

var errStop = errors.New("stop")

func (a *app) resultsCmd() *cobra.Command {
	var follow, asJSON bool
	cmd := &cobra.Command{
		Use:   "results [--follow] [--json] [ID]",
		Short: "Read results from the results stream (all, or one match's)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := ""
			if len(args) == 1 {
				id = args[0]
				if err := queue.ValidID(id); err != nil {
					return usageError{err}
				}
			}
			q, err := a.queue(cmd.Context(), false)
			if err != nil {
				return err
			}
			defer q.Close()
			n := 0
			err = q.Results(cmd.Context(), id, follow, func(_ string, data []byte) error {
				n++
				var res result.Result
				if err := json.Unmarshal(data, &res); err != nil {
					return err
				}
				if !asJSON {
					fmt.Printf("== %s\n", res.ID)
				}
				return printResult(res, asJSON)
			})
			if follow && errors.Is(err, context.Canceled) {
				return nil
			}
			if err == nil && n == 0 && id != "" {
				return fmt.Errorf("no result for %s (yet)", id)
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&follow, "follow", false, "keep printing new results as they come")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print each result as one line of JSON")
	return cmd
}

func printResult(res result.Result, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(os.Stdout).Encode(res)
	}
	return res.WriteTable(os.Stdout)
}

func newID() string {
	b := make([]byte, 4)
	rand.Read(b)
	return time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b)
}

// botCores gives each worker a core of its own for its bots, keeping core 0 for the judge and
// the engine, when the machine has enough cores; otherwise bots are not pinned.
func botCores(pin bool, workers int) []string {
	n := runtime.NumCPU()
	if !pin || n < 2 {
		return nil
	}
	var sets []string
	for i := 0; i < workers && i < n-1; i++ {
		sets = append(sets, fmt.Sprint(n-1-i))
	}
	return sets
}
