package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/result"
)

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
			if timeout <= 0 {
				return cli.Usage(fmt.Errorf("--timeout %v: want a duration above 0", timeout))
			}
			var seedp *uint64
			if cmd.Flags().Changed("seed") {
				seedp = &seed
			} else {
				seed = 1 // the options are checked with some seed; the daemon draws the match's
			}
			_, options, entrants, err := a.matchArgs(gameName, seed, opts, args)
			if err != nil {
				return err
			}
			if id == "" {
				id = newID()
			}
			if err := job.ValidID(id); err != nil {
				return cli.Usage(fmt.Errorf("--id: %w", err))
			}
			players := make([]job.Player, len(entrants))
			for i, e := range entrants {
				players[i] = job.NewPlayer(e.Name, e.Submission.Lang, e.Submission.Files)
			}
			data, err := json.Marshal(job.New(id, gameName, seedp, options, players))
			if err != nil {
				return err
			}
			// What the daemon checks of a job before it judges it (file names, source sizes),
			// checked here: it would refuse the job, not a try later.
			if _, _, err := job.Parse(data, a.JobRules()); err != nil {
				var re *result.Error
				if errors.As(err, &re) {
					err = errors.New(re.Message)
				}
				return cli.Usage(err)
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			q, err := a.Queue(ctx, base.Work)
			if err != nil {
				return err
			}
			defer q.Close()
			dup, err := q.Submit(ctx, id, data)
			if err != nil {
				return err
			}
			if dup {
				fmt.Fprintf(cmd.ErrOrStderr(), "job %s was already submitted: not queued again\n", id)
			} else if !asJSON || !wait {
				fmt.Fprintf(cmd.ErrOrStderr(), "submitted job %s\n", id)
			}
			if !wait {
				if asJSON {
					return json.NewEncoder(cmd.OutOrStdout()).Encode(map[string]string{"id": id})
				}
				fmt.Fprintln(cmd.OutOrStdout(), id)
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
			return printResult(cmd.OutOrStdout(), res, asJSON)
		},
	}
	f := cmd.Flags()
	f.StringVar(&gameName, "game", "", "the game ("+base.BuiltinNames()+", or one added with judge game add)")
	f.Uint64Var(&seed, "seed", 0, "the match's seed (default: the daemon draws one)")
	f.StringArrayVar(&opts, "opt", nil, "a game option k=v (repeatable); @FILE reads the value from a file")
	f.StringVar(&id, "id", "", "the job's id (default: a new one); the same id is judged once")
	f.BoolVar(&wait, "wait", false, "wait for the result and print it")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	f.DurationVar(&timeout, "timeout", 30*time.Minute, "give up waiting after this long")
	return cmd
}

var errStop = errors.New("stop")

func newID() string {
	b := make([]byte, 4)
	rand.Read(b)
	return time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b)
}
