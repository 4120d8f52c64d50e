package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/config"
	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/judge/tournament"
	"github.com/botjudge/judge/judge/tournament/standings"
)

// tournamentFlags are the flags of `judge tournament` and `judge tournament retry`; each set
// overrides the tournament file.
type tournamentFlags struct {
	spec              tournament.Spec
	opts              []string
	excludeBroken     bool
	asJSON, asCSV     bool
	embedded          bool
	workers           int
	noCompile, failed bool
}

// register declares the flags on cmd, for it and its retry command (persistent): defined once,
// and shown once.
func (f *tournamentFlags) register(cmd *cobra.Command) {
	fl := cmd.PersistentFlags()
	fl.StringVar(&f.spec.Game, "game", "", "the game (required with a directory of entrants)")
	fl.StringVar(&f.spec.Format, "format", "", "roundrobin (default) or swiss")
	fl.IntVar(&f.spec.Rounds, "rounds", 0, "round robin: times the schedule is played, with new seeds; swiss: rounds (default 1)")
	fl.Uint64Var(&f.spec.Seed, "seed", 0, "the tournament seed, from which every match's seed derives (default 1)")
	fl.IntVar(&f.spec.Seats, "seats", 0, "players per match (default: the game's, or the count its options fix)")
	fl.IntVar(&f.spec.Final, "final", 0, "the top K then play a double round robin")
	fl.IntVar(&f.spec.Retries, "retries", 0, "times a match the judge failed is published again (default 2)")
	fl.StringVar(&f.spec.Name, "name", "", "the prefix of the match ids (default: the file's or directory's name)")
	fl.StringArrayVar(&f.opts, "opt", nil, "a game option key=value (repeatable; @file reads the value from a file)")
	fl.BoolVar(&f.excludeBroken, "exclude-broken", false, "an entrant that does not compile plays no match (default: it plays, and never answers)")
	fl.BoolVar(&f.asJSON, "json", false, "print the outcome as one JSON document")
	fl.BoolVar(&f.asCSV, "csv", false, "print the standings as CSV")
	fl.BoolVar(&f.embedded, "embedded", false, "run the NATS server and a daemon in this process (the default when nats.url is not set and no judge serve is running)")
	fl.IntVar(&f.workers, "workers", 0, "matches at once of the embedded daemon (default: serve.workers)")
	fl.BoolVar(&f.noCompile, "no-compile", false, "do not compile the entrants first (the daemons still do)")
	fl.Float64Var(&f.spec.Confidence, "confidence", 0, "how sure the standings' rank ranges are, and --until-separated's pairs, above 0.5 and below 1 (default 0.95)")
	fl.BoolVar(&f.spec.UntilSeparated, "until-separated", false, "after the schedule, play on among the contenders until the top places are separated (docs/tournament.md)")
	fl.IntVar(&f.spec.Top, "top", 0, "with --until-separated: the places to separate (default 3)")
	fl.IntVar(&f.spec.Budget, "budget", 0, "with --until-separated: the matches it may play more (default: as many as the schedule)")
}

// apply lays the flags that were set over the spec from the file.
func (f *tournamentFlags) apply(cmd *cobra.Command, s *tournament.Spec) error {
	fl := cmd.Flags()
	set := func(name string, apply func()) {
		if fl.Changed(name) {
			apply()
		}
	}
	set("game", func() { s.Game = f.spec.Game })
	set("format", func() { s.Format = f.spec.Format })
	set("rounds", func() { s.Rounds = f.spec.Rounds })
	set("seed", func() { s.Seed = f.spec.Seed })
	set("seats", func() { s.Seats = f.spec.Seats })
	set("final", func() { s.Final = f.spec.Final })
	set("retries", func() { s.Retries = f.spec.Retries })
	set("name", func() { s.Name = f.spec.Name })
	set("confidence", func() { s.Confidence = f.spec.Confidence })
	set("until-separated", func() { s.UntilSeparated = f.spec.UntilSeparated })
	set("top", func() { s.Top = f.spec.Top })
	set("budget", func() { s.Budget = f.spec.Budget })
	if f.excludeBroken {
		s.Broken = "exclude"
	}
	opts, err := cli.ParseOptions(f.opts)
	if err != nil {
		return cli.Usage(err)
	}
	if len(opts) > 0 && s.Options == nil {
		s.Options = map[string]string{}
	}
	for k, v := range opts {
		s.Options[k] = v
	}
	return nil
}

func (a *app) tournamentCmd() *cobra.Command {
	var f tournamentFlags
	cmd := &cobra.Command{
		Use:   "tournament [--game G] [--format roundrobin|swiss] [--rounds N] [--seed N] [--opt k=v]... [--json|--csv] DIR|FILE",
		Short: "Run a competition round through the queue and print the standings",
		Long: "Compiles every entrant, schedules the matches (round robin or Swiss), puts them on the\n" +
			"work queue for the daemons, follows their results and prints the standings. DIR is a\n" +
			"directory of entrants (one file or sub-directory each; --game is required) or holds\n" +
			"tournament.yaml; FILE is a tournament file (docs/tournament.md). Run it again and it\n" +
			"resumes: only the matches without a result are published. Without nats.url it runs\n" +
			"the NATS server and a daemon in its own process, unless `judge serve` is running.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runTournament(cmd, &f, args[0])
		},
	}
	f.register(cmd)
	retry := &cobra.Command{
		Use:   "retry --failed [flags] DIR|FILE",
		Short: "Publish again the matches the judge failed on every attempt, and print the standings",
		Long: "Publish again the matches the judge failed on every attempt (the failed list of the\n" +
			"standings), and print the standings. It takes the flags of judge tournament, and needs\n" +
			"those the round was run with: they decide its matches.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !f.failed {
				return cli.Usage(fmt.Errorf("retry needs --failed (the only matches it retries)"))
			}
			return a.runTournament(cmd, &f, args[0])
		},
	}
	retry.Flags().BoolVar(&f.failed, "failed", false, "retry the matches the judge failed")
	// Its help shows its own flag, and points to the tournament's rather than repeating them.
	retry.SetUsageTemplate(strings.Replace(retry.UsageTemplate(), inheritedFlagsHelp,
		"\n\nThe flags of judge tournament apply too (judge tournament --help).", 1))
	cmd.AddCommand(retry)
	return cmd
}

// inheritedFlagsHelp is the part of cobra's usage template that lists a command's inherited
// flags.
const inheritedFlagsHelp = `{{if .HasAvailableInheritedFlags}}

Global Flags:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}`

func (a *app) runTournament(cmd *cobra.Command, f *tournamentFlags, path string) error {
	ctx := cmd.Context()
	if f.asJSON && f.asCSV {
		return cli.Usage(errors.New("--json and --csv: give one (the outcome is printed one way)"))
	}
	if f.workers < 0 {
		return cli.Usage(fmt.Errorf("--workers %d: want 0 (serve.workers) or more", f.workers))
	}
	spec, err := tournament.Load(path)
	if err != nil {
		return cli.Usage(err)
	}
	if err := f.apply(cmd, &spec); err != nil {
		return err
	}
	spec = spec.WithDefaults()
	if err := spec.Check(); err != nil {
		return cli.Usage(err)
	}
	// A built-in game is checked before anything starts; an added one is the store's.
	var q *queue.Queue
	g, ok := games.Lookup(spec.Game)
	if !ok {
		var stop func()
		// Looked for without waiting for a restarting server: a name no store knows is
		// refused at once.
		if q, stop, err = a.tournamentQueue(ctx, cmd.ErrOrStderr(), f, base.Look); err != nil {
			return base.UnreachableGame("tournament: game", spec.Game, err)
		}
		defer stop()
		if err := a.UseCatalog(ctx, q); err != nil {
			return err
		}
		if g, ok = a.Lookup(spec.Game); !ok {
			return cli.Usage(fmt.Errorf("tournament: game %q: unknown game; known: %s", spec.Game, a.GameNames()))
		}
	}
	t := &tournament.Tournament{Spec: spec, Game: g, Retry: f.failed}
	if err := t.Check(); err != nil {
		return cli.Usage(err)
	}
	for _, e := range spec.Entrants {
		sub, err := cli.LoadBot(e.Path, int64(a.Cfg.Build.SourceLimit))
		if err != nil {
			return cli.Usage(fmt.Errorf("entrant %s: %w", e.Name, err))
		}
		t.Entrants = append(t.Entrants, tournament.Entrant{Name: e.Name, Submission: sub})
	}

	if q == nil {
		var stop func()
		if q, stop, err = a.tournamentQueue(ctx, cmd.ErrOrStderr(), f, base.Work); err != nil {
			return err
		}
		defer stop()
	}
	if !f.noCompile {
		b, err := a.Builder(ctx)
		if err != nil {
			return fmt.Errorf("compiling the entrants first (--no-compile leaves it to the daemons): %w", err)
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "compiling %d entrants\n", len(t.Entrants))
		if err := t.Compile(ctx, reported(b)); err != nil {
			return err
		}
		for _, e := range t.Entrants {
			if !e.Build.OK {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s does not compile (%s): it %s\n", e.Name, e.Build.Failure, map[bool]string{true: "plays no match", false: "plays as a bot that never answers"}[spec.Broken == "exclude"])
			}
		}
	}
	t.Progress = tournament.Printer(cmd.ErrOrStderr())
	out, err := t.Run(ctx, q)
	if err != nil {
		return err
	}
	switch {
	case f.asJSON:
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case f.asCSV:
		return standings.WriteCSV(cmd.OutOrStdout(), out)
	}
	return standings.WriteTable(cmd.OutOrStdout(), out)
}

// tournamentQueue is the queue the tournament publishes to: nats.url's; else a `judge serve`
// running on nats.listen; else (or with --embedded) a NATS server and a daemon started here,
// which stop returns.
func (a *app) tournamentQueue(ctx context.Context, errOut io.Writer, f *tournamentFlags, use base.Use) (*queue.Queue, func(), error) {
	if a.Cfg.NATS.URL != "" && !f.embedded {
		q, err := a.Queue(ctx, use)
		if err != nil {
			return nil, nil, err
		}
		return q, func() { q.Close() }, nil
	}
	if !f.embedded {
		cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		q, err := a.Queue(cctx, base.Look)
		cancel()
		if err == nil {
			fmt.Fprintf(errOut, "publishing to the judge serving on %s\n", q.URL())
			return q, func() { q.Close() }, nil
		}
	}
	q, err := a.Queue(ctx, base.Serve)
	if err != nil {
		return nil, nil, err
	}
	workers := f.workers
	if workers == 0 {
		workers = a.Cfg.Serve.Workers
	}
	// The daemon's own log would drown the progress: only its warnings and errors.
	d, _, err := a.daemon(ctx, q, workers, newLogger(config.Log{Level: slog.LevelWarn, Format: a.Cfg.Log.Format}))
	if err != nil {
		q.Close()
		return nil, nil, err
	}
	dctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); d.Run(dctx) }()
	fmt.Fprintf(errOut, "judging here: an embedded NATS server and a daemon\n")
	return q, func() { cancel(); wg.Wait(); q.Close() }, nil
}

// reported is a builder as a tournament needs it: the build as the result reports it.
func reported(b interface {
	Build(context.Context, submission.Submission) (build.Result, error)
}) tournament.Builder {
	return func(ctx context.Context, s submission.Submission) (result.Build, error) {
		r, err := b.Build(ctx, s)
		return r.Build, err
	}
}
