package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"bots"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/rating"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/tournament"
)

// compareFlags are judge compare's flags.
type compareFlags struct {
	gameName, opponents, name string
	opts                      []string
	test                      rating.SPRT
	max                       int
	seed                      uint64
	asJSON, local, embedded   bool
	workers                   int
}

func (a *app) compareCmd() *cobra.Command {
	var f compareFlags
	cmd := &cobra.Command{
		Use:   "compare --game G [--opponents BOT,...] [--elo0 E] [--elo1 E] [--alpha A] [--beta B] [--max N] [--seed N] [--json] [--local] NEW OLD",
		Short: "Decide whether NEW is better than OLD, by a sequential test over paired matches",
		Long: "Plays NEW against OLD in pairs of matches until a sequential probability ratio test\n" +
			"decides: better (NEW is --elo1 better), not better (no more than --elo0), or undecided\n" +
			"when --max matches are played. In a game of two a pair is one seed played twice with\n" +
			"the seats swapped; in a game of more, one seed and the same opponents (--opponents,\n" +
			"else copies of OLD) with NEW, then OLD, in the compared seat, which turns with each pair,\n" +
			"and the test compares their places. The errors are at most --alpha (better when it is\n" +
			"not) and --beta (not better when it is). Through the queue like judge tournament (without\n" +
			"nats.url a NATS server and a daemon run in this process), and resumable: run again, it\n" +
			"plays only what has no result. --local plays here with this machine's compilers, NOT\n" +
			"SANDBOXED, as judge play --local does (docs/tournament.md).",
		Example: "  judge compare --game amazes mybot-v2/ mybot-v1/\n" +
			"  judge compare --game langwars --opponents bots/langwars/cpp,bots/langwars/java --max 400 new/ old/",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return cli.Usage(fmt.Errorf("two bots, NEW and OLD, not %d", len(args)))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runCompare(cmd, &f, args[0], args[1])
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.gameName, "game", "", "the game ("+base.BuiltinNames()+"); with --local also a game's directory")
	fl.StringVar(&f.opponents, "opponents", "", "a game of more than two: the bots of the other seats, comma-separated (default: copies of OLD)")
	fl.StringArrayVar(&f.opts, "opt", nil, "a game option k=v (repeatable)")
	fl.Float64Var(&f.test.Elo0, "elo0", rating.DefaultSPRT.Elo0, "the difference (Elo) at which NEW is no better: H0")
	fl.Float64Var(&f.test.Elo1, "elo1", rating.DefaultSPRT.Elo1, "the difference (Elo) at which NEW is better: H1")
	fl.Float64Var(&f.test.Alpha, "alpha", rating.DefaultSPRT.Alpha, "the chance of saying better when NEW is elo0 better")
	fl.Float64Var(&f.test.Beta, "beta", rating.DefaultSPRT.Beta, "the chance of saying not better when NEW is elo1 better")
	fl.IntVar(&f.max, "max", 1000, "the matches at most (2 to 100000): then the verdict is undecided")
	fl.Uint64Var(&f.seed, "seed", 1, "the comparison's seed, from which every pair's derives")
	fl.StringVar(&f.name, "name", "", "the prefix of its match ids (default: compare- and a digest of everything it plays)")
	fl.BoolVar(&f.asJSON, "json", false, "print the outcome as one JSON document")
	fl.BoolVar(&f.local, "local", false, "play here as plain processes built with this machine's compilers, without Docker and NOT SANDBOXED")
	fl.BoolVar(&f.embedded, "embedded", false, "run the NATS server and a daemon in this process (the default when nats.url is not set and no judge serve is running)")
	fl.IntVar(&f.workers, "workers", 0, "matches at once of the embedded daemon (default: serve.workers)")
	return cmd
}

func (a *app) runCompare(cmd *cobra.Command, f *compareFlags, newArg, oldArg string) error {
	ctx := cmd.Context()
	a.Local = f.local
	if err := f.test.Check(); err != nil {
		return cli.Usage(fmt.Errorf("compare: %w", err))
	}
	if f.max < 2 || f.max > tournament.MaxCompare {
		return cli.Usage(fmt.Errorf("--max %d: want 2 matches (a pair) to %d", f.max, tournament.MaxCompare))
	}
	if samePath(newArg, oldArg) {
		return cli.Usage(fmt.Errorf("NEW and OLD are the same path, %s: give the two versions (a copy of one to compare it with itself)", newArg))
	}
	if f.gameName == "" {
		return cli.Usage(fmt.Errorf("--game: which game (%s)", base.BuiltinNames()))
	}
	options, err := cli.ParseOptions(f.opts)
	if err != nil {
		return cli.Usage(err)
	}
	newE, oldE, opps, err := compareEntrants(f, newArg, oldArg, int64(a.Cfg.Build.SourceLimit))
	if err != nil {
		return err
	}
	g, q, stop, err := a.compareGame(cmd, f)
	if err != nil {
		return err
	}
	defer stop()
	// A sample bot of another game is the commonest wrong argument: said before anything runs.
	for _, e := range append([]tournament.Entrant{newE, oldE}, opps...) {
		if of, ok := bots.GameOf(e.Submission.Files); ok && of != g.Name() {
			return cli.Usage(fmt.Errorf("%s is the sample bot of %s, not a bot of %s", e.Name, of, g.Name()))
		}
	}
	c := &tournament.Compare{Name: f.name, Game: g, Options: options, Seed: f.seed, New: newE, Old: oldE, Opponents: opps,
		Test: f.test, Max: f.max, Retries: 2}
	if err := c.Check(); err != nil {
		return cli.Usage(err)
	}
	if c.Name == "" {
		c.Name = compareName(c)
	}

	// --local checks every tool it needs before anything is built.
	var here player
	if f.local {
		j := match.Job{Game: g, Seed: f.seed, Options: options}
		for _, e := range append([]tournament.Entrant{c.New, c.Old}, c.Opponents...) {
			j.Players = append(j.Players, match.Entrant{Name: e.Name, Submission: e.Submission})
		}
		if here, err = a.matchPlayer(ctx, howToPlay{local: true}, j); err != nil {
			return err
		}
	}
	if err := a.compileCompared(cmd, f.local, g, c); err != nil {
		return err
	}

	c.Progress = tournament.ComparePrinter(cmd.ErrOrStderr(), difference)
	if f.local {
		c.Play = playHere(here, g, options)
	} else if q == nil {
		var stop func()
		if q, stop, err = a.tournamentQueue(ctx, cmd.ErrOrStderr(), &tournamentFlags{embedded: f.embedded, workers: f.workers}, base.Work); err != nil {
			return err
		}
		defer stop()
	}
	var out tournament.CompareOutcome
	if q != nil {
		out, err = c.Run(ctx, q)
	} else {
		out, err = c.Run(ctx, nil)
	}
	if err != nil {
		return err
	}
	if f.asJSON {
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return writeCompare(cmd.OutOrStdout(), out)
}

// compareEntrants reads NEW, OLD and --opponents, each as a usage error that names it; NEW
// and OLD of one name are told apart as new: and old:.
func compareEntrants(f *compareFlags, newArg, oldArg string, limit int64) (newE, oldE tournament.Entrant, opps []tournament.Entrant, err error) {
	load := func(what, arg string) (tournament.Entrant, error) {
		sub, err := cli.LoadBot(arg, limit)
		if err != nil {
			return tournament.Entrant{}, cli.Usage(fmt.Errorf("%s %s: %w", what, arg, err))
		}
		return tournament.Entrant{Name: botName(arg), Submission: sub}, nil
	}
	if newE, err = load("NEW", newArg); err != nil {
		return
	}
	if oldE, err = load("OLD", oldArg); err != nil {
		return
	}
	if newE.Name == oldE.Name {
		newE.Name, oldE.Name = "new:"+newE.Name, "old:"+oldE.Name
	}
	if f.opponents != "" {
		for _, arg := range strings.Split(f.opponents, ",") {
			e, err := load("opponent", strings.TrimSpace(arg))
			if err != nil {
				return newE, oldE, nil, err
			}
			opps = append(opps, e)
		}
	}
	return newE, oldE, opps, nil
}

// compareGame is --game's game: built in, a directory (--local), or the store's, which
// opens the queue (q, ended by stop) to find it; q is nil otherwise.
func (a *app) compareGame(cmd *cobra.Command, f *compareFlags) (g game.Game, q *queue.Queue, stop func(), err error) {
	ctx := cmd.Context()
	stop = func() {}
	if dir, ok := gameDir(f.gameName); ok {
		if !f.local {
			return nil, nil, stop, cli.Usage(fmt.Errorf("--game %s: a game's directory is played with --local; through the queue, add it first (judge game add) and name it", dir))
		}
		g, err = a.AddedGame(ctx, dir)
		return g, nil, stop, err
	} else if g, ok = games.Lookup(f.gameName); !ok {
		if f.local {
			return nil, nil, stop, cli.Usage(fmt.Errorf("--game: unknown game %q; known: %s, or a game's directory", f.gameName, base.BuiltinNames()))
		}
		if q, stop, err = a.tournamentQueue(ctx, cmd.ErrOrStderr(), &tournamentFlags{embedded: f.embedded, workers: f.workers}, base.Look); err != nil {
			return nil, nil, func() {}, base.UnreachableGame("--game", f.gameName, err)
		}
		if err := a.UseCatalog(ctx, q); err != nil {
			return nil, nil, stop, err
		}
		if g, ok = a.Lookup(f.gameName); !ok {
			return nil, nil, stop, cli.Usage(fmt.Errorf("--game: unknown game %q; known: %s", f.gameName, a.GameNames()))
		}
	}
	return g, q, stop, nil
}

// compileCompared compiles every bot of c first (with this machine's compilers when local):
// one that does not compile is said at once, with its log.
func (a *app) compileCompared(cmd *cobra.Command, local bool, g game.Game, c *tournament.Compare) error {
	ctx := cmd.Context()
	var b tournament.Builder
	if local {
		b = reported(a.LocalBuilder())
	} else if bb, err := a.Builder(ctx); err != nil {
		return fmt.Errorf("compiling NEW and OLD: %w", err)
	} else {
		b = reported(bb)
	}
	all := []*tournament.Entrant{&c.New, &c.Old}
	for i := range c.Opponents {
		all = append(all, &c.Opponents[i])
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "compiling %d bots\n", len(all))
	var broken []string
	for _, e := range all {
		sub := e.Submission
		sub.Files = game.WithLibrary(g, sub.Lang, sub.Files)
		res, err := b(ctx, sub)
		if err != nil {
			return fmt.Errorf("compiling %s: %w", e.Name, err)
		}
		if !res.OK {
			head, more := result.LogHead(res.Log)
			msg := fmt.Sprintf("%s does not compile (%s):\n  %s", e.Name, res.Failure, strings.Join(head, "\n  "))
			if more > 0 {
				msg += fmt.Sprintf("\n  ... %d more lines", more)
			}
			broken = append(broken, msg)
		}
	}
	if len(broken) > 0 {
		return errors.New(strings.Join(broken, "\n"))
	}

	return nil
}

// samePath reports whether two arguments name one file or directory.
func samePath(a, b string) bool {
	strip := func(s string) string {
		if l, rest, ok := strings.Cut(s, ":"); ok && !strings.ContainsAny(l, `/\.`) {
			return rest
		}
		return s
	}
	a, b = strip(a), strip(b)
	sa, ea := os.Stat(a)
	sb, eb := os.Stat(b)
	if ea == nil && eb == nil {
		return os.SameFile(sa, sb)
	}
	aa, _ := filepath.Abs(a)
	ab, _ := filepath.Abs(b)
	return aa == ab
}

// compareName is a comparison's default name: a digest of what decides its matches (the
// game, options, seed and every bot's files), so that running it again resumes it and a
// changed bot starts afresh.
func compareName(c *tournament.Compare) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", c.Game.Name(), c.Seed)
	for _, k := range slices.Sorted(maps.Keys(c.Options)) {
		fmt.Fprintf(h, "%s=%s\x00", k, c.Options[k])
	}
	for _, e := range append([]tournament.Entrant{c.New, c.Old}, c.Opponents...) {
		fmt.Fprintf(h, "%s\x00%s\x00", e.Name, e.Submission.Lang)
		for _, name := range slices.Sorted(maps.Keys(e.Submission.Files)) {
			fmt.Fprintf(h, "%s\x00%d\x00", name, len(e.Submission.Files[name]))
			h.Write(e.Submission.Files[name])
		}
	}
	return "compare-" + hex.EncodeToString(h.Sum(nil))[:12]
}

// playHere plays a comparison's match in this process with p (--local's).
func playHere(p player, g game.Game, options map[string]string) func(context.Context, uint64, []tournament.Entrant) (result.Result, error) {
	return func(ctx context.Context, seed uint64, seats []tournament.Entrant) (result.Result, error) {
		j := match.Job{Game: g, Seed: seed, Options: options}
		for _, e := range seats {
			j.Players = append(j.Players, match.Entrant{Name: e.Name, Submission: e.Submission})
		}
		return p.Play(ctx, j)
	}
}

// difference says the estimated difference and its interval.
func difference(o tournament.CompareOutcome) string {
	if o.Unit == tournament.UnitPlaces {
		return fmt.Sprintf("NEW %+.2f places against OLD (95%%: %+.2f to %+.2f)", o.Elo, o.EloInterval[0], o.EloInterval[1])
	}
	return fmt.Sprintf("%+.0f Elo (95%%: %+.0f to %+.0f)", o.Elo, o.EloInterval[0], o.EloInterval[1])
}

func writeCompare(w io.Writer, o tournament.CompareOutcome) error {
	words := map[string]string{rating.Better: "better", rating.NotBetter: "not better", rating.Undecided: "undecided"}
	fmt.Fprintf(w, "%s against %s in %s: %s\n", o.New, o.Old, o.Game, words[o.Verdict])
	how := fmt.Sprintf("after %d matches (%d pairs)", o.Matches, o.Pairs)
	switch o.Verdict {
	case rating.Better:
		how = fmt.Sprintf("the log-likelihood ratio %.2f reached %.2f %s", o.LLR, o.Bounds[1], how)
	case rating.NotBetter:
		how = fmt.Sprintf("the log-likelihood ratio %.2f reached %.2f %s", o.LLR, o.Bounds[0], how)
	default:
		how = fmt.Sprintf("the log-likelihood ratio %.2f is still between %.2f and %.2f %s (--max)", o.LLR, o.Bounds[0], o.Bounds[1], how)
	}
	fmt.Fprintln(w, how)
	d := difference(o)
	if o.Unit == tournament.UnitPlaces {
		d = fmt.Sprintf("%s: by how many places NEW finishes ahead of where OLD did", d)
	}
	fmt.Fprintf(w, "difference: %s\n", d)
	for _, who := range []string{"new", "old"} {
		if fs := o.Faults[who]; len(fs) > 0 {
			var kinds []string
			for _, k := range slices.Sorted(maps.Keys(fs)) {
				kinds = append(kinds, fmt.Sprintf("%s %d", k, fs[k]))
			}
			fmt.Fprintf(w, "faults of %s: %s\n", strings.ToUpper(who), strings.Join(kinds, ", "))
		}
	}
	if len(o.Failed) > 0 {
		fmt.Fprintf(w, "the judge failed %d matches on every attempt; their pairs count for nothing: %s\n", len(o.Failed), strings.Join(o.Failed, " "))
	}
	return nil
}
