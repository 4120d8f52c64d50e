// Package gamecmd is judge game: a game of the organisers' own, made from a skeleton,
// checked, added to the store, listed and removed.
package gamecmd

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/game/catalog"
	"github.com/botjudge/judge/judge/game/conform"
	"github.com/botjudge/judge/judge/game/skeleton"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/replay"
)

// gameCmd is `judge game`: the games an organiser adds (docs/referee.md).
// Cmd is judge game.
func Cmd(a *base.App) *cobra.Command {
	group := &cobra.Command{Use: "game", Short: "Add an organiser's own game (a referee program) to the judge, list and remove them"}
	var asJSON bool
	add := &cobra.Command{
		Use:   "add DIR [--json]",
		Short: "Check a game's directory, build its referee, and add it to the store: every judge on the store plays it from now on",
		Long: `Check a game's directory (its game.yaml and referee: docs/referee.md), build its referee in
the toolchain image of its language, and add it to the judge's store: every daemon on the
store plays it from then on, with no restart, and judge submit, tournament and the portal's
contests take its name as a built-in game's. Adding a changed directory makes a new version
current; each version is kept under its content hash, and results and replays name the one
that judged them. The store is nats.url's, else the judge serving on nats.listen, else the
data directory's.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			g, err := a.AddedGame(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			q, err := storeCatalog(a, cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			e, added, err := a.Added.Add(cmd.Context(), g)
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, e, func(w io.Writer) {
				switch {
				case !added:
					fmt.Fprintf(w, "%s: version %.12s is the current one already: nothing changed\n", e.Name, e.Version)
				case len(e.Earlier) > 0:
					fmt.Fprintf(w, "added %s (%s), version %.12s; it replaces version %.12s, which stays for its replays\n", e.Name, e.Title, e.Version, e.Earlier[0])
				default:
					fmt.Fprintf(w, "added %s (%s), version %.12s: every judge on this store plays it from now on\n", e.Name, e.Title, e.Version)
				}
			})
		},
	}
	add.Flags().BoolVar(&asJSON, "json", false, "print the game's entry as JSON")
	list := &cobra.Command{
		Use:   "list [--json]",
		Short: "List the games added to the store, with their current version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			q, err := storeCatalog(a, cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			entries, err := a.Added.List(cmd.Context())
			if err != nil {
				return err
			}
			if entries == nil {
				entries = []catalog.Entry{}
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, entries, func(w io.Writer) {
				if len(entries) == 0 {
					fmt.Fprintln(w, "no game added (judge game add DIR adds one; judge games lists the built-in ones)")
					return
				}
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "NAME\tTITLE\tPLAYERS\tREFEREE\tVERSION\tADDED\tEARLIER")
				for _, e := range entries {
					fmt.Fprintf(tw, "%s\t%s\t%d-%d\t%s\t%.12s\t%s\t%d\n", e.Name, e.Title, e.Players.Min, e.Players.Max, e.Lang,
						e.Version, e.Added.Format(time.DateTime), len(e.Earlier))
				}
				tw.Flush()
			})
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	remove := &cobra.Command{
		Use:   "remove NAME",
		Short: "Take an added game out of the store's games: no new match is played of it; its versions stay for its replays",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, builtin := games.Lookup(args[0]); builtin {
				return cli.Usage(fmt.Errorf("%s is built into the judge: only added games can be removed", args[0]))
			}
			q, err := storeCatalog(a, cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			e, err := a.Added.Remove(cmd.Context(), args[0])
			if errors.Is(err, catalog.ErrNotFound) {
				return cli.Usage(fmt.Errorf("%s: no such added game (judge game list lists them)", args[0]))
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "removed %s (version %.12s): no new match is played of it; its versions stay in the store for their replays\n", e.Name, e.Version)
			return nil
		},
	}
	group.AddCommand(gameNewCmd(a), gameCheckCmd(a), add, list, remove)
	return group
}

// storeCatalog opens the judge's store (StoreQueue) and its added games (a.Added).
func storeCatalog(a *base.App, ctx context.Context) (*queue.Queue, error) {
	q, err := a.StoreQueue(ctx)
	if err != nil {
		return nil, err
	}
	if err := a.UseCatalog(ctx, q); err != nil {
		q.Close()
		return nil, err
	}
	return q, nil
}

// gameCheckCmd is `judge game check DIR`.
func gameCheckCmd(a *base.App) *cobra.Command {
	var seeds int
	cmd := &cobra.Command{
		Use:   "check DIR [--seeds N]",
		Short: "Check a game's directory as the built-in games are checked: its manifest, its referee, random play, determinism, replays, its sample bots",
		Long: `Check a game's directory (docs/referee.md) as the built-in games are checked, each failure
named: its manifest; its referee builds; the conformance checks every game passes - player
counts, options and their bounds, random play with faults (random answers made of the
manifest's words), every match played twice with the same seed and answers to the same end
(the first difference named), each written as a replay that re-judges to its result, the
pictures - with the referee in its sandbox; then a match of its sample bots at the least and
the most players, whose replay must re-judge to its result.
Exit status: 0 when every check passes, 1 when one fails, 2 for a bad manifest or a referee
that does not compile.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if seeds < 1 {
				return cli.Usage(fmt.Errorf("--seeds %d: want 1 or more", seeds))
			}
			ctx, out := cmd.Context(), cmd.OutOrStdout()
			dir := args[0]
			g, err := a.AddedGame(ctx, dir)
			if err != nil {
				return err
			}
			m := g.Manifest
			fmt.Fprintf(out, "%s (%s), version %.12s: the manifest is good and the referee (%s) builds\n", m.Name, m.Title, g.Version, m.Referee.Lang)
			r, err := a.PlayRunner(ctx)
			if err != nil {
				return err
			}
			bound := r.Bind(ctx, g)
			fmt.Fprintf(out, "conformance: %d seeds of random play, each twice, with the options and player counts...\n", seeds)
			start := time.Now()
			if err := conform.Check(bound, conform.Case{Words: m.Words, Seeds: seeds}); err != nil {
				var b strings.Builder
				fmt.Fprintf(&b, "%s does not pass the conformance checks:", dir)
				for _, e := range unjoin(err) {
					b.WriteString("\n  " + e.Error())
				}
				return errors.New(b.String())
			}
			fmt.Fprintf(out, "conformance: ok (%s)\n", time.Since(start).Round(time.Second))
			if len(m.Samples) == 0 {
				fmt.Fprintln(out, "sample bots: none in the manifest (samples), so no match of bots was played")
				return nil
			}
			var samples []match.Entrant
			for _, lang := range slices.Sorted(maps.Keys(m.Samples)) {
				s, err := cli.LoadBot(lang+":"+filepath.Join(dir, filepath.FromSlash(m.Samples[lang])), int64(a.Cfg.Build.SourceLimit))
				if err != nil {
					return err
				}
				samples = append(samples, match.Entrant{Name: lang, Submission: s})
			}
			for _, n := range slices.Compact([]int{m.Players.Min, m.Players.Max}) {
				var players []match.Entrant
				for i := range n {
					players = append(players, samples[i%len(samples)])
				}
				var rep bytes.Buffer
				res, err := r.Play(ctx, match.Job{Game: g, Seed: 1, Players: players, Replay: &rep})
				if err != nil {
					return fmt.Errorf("sample bots, %d players: %w", n, err)
				}
				rp, err := replay.Read(&rep)
				if err != nil {
					return fmt.Errorf("sample bots, %d players: the replay: %w", n, err)
				}
				diffs, err := rp.Check(bound, nil)
				if err == nil && len(diffs) > 0 {
					err = cli.MismatchError("its replay", diffs)
				}
				if err != nil {
					return fmt.Errorf("sample bots, %d players: %w", n, err)
				}
				var scores []string
				for _, p := range res.Players {
					s := fmt.Sprintf("%s %v", p.Name, p.Score)
					if p.Fault != nil {
						s += " (" + string(p.Fault.Kind) + ")"
					}
					scores = append(scores, s)
				}
				fmt.Fprintf(out, "sample bots, %d players: ok, %d exchanges, its replay re-judges (%s)\n", n, len(rp.Exchanges), strings.Join(scores, ", "))
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&seeds, "seeds", 10, "how many seeds random play tries")
	return cmd
}

// unjoin is the errors errors.Join joined, or err alone.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// gameNewCmd is `judge game new NAME --lang L`.
func gameNewCmd(a *base.App) *cobra.Command {
	var lang, dir string
	cmd := &cobra.Command{
		Use:   "new NAME --lang L [--dir DIR]",
		Short: "Write a new game's directory: a working game to make your own (manifest, referee, sample bot, rules page)",
		Long: `Write a new game's directory, DIR (./NAME by default): game.yaml, a referee in language L
that plays a small number game, a sample bot, and rules.md - a working game, which passes
judge game check as written, to edit into your own (docs/referee.md). Nothing is written over:
DIR must not exist.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if err := a.ManifestCheck().Name(name); err != nil {
				return cli.Usage(fmt.Errorf("NAME: %w", err))
			}
			if lang == "" {
				return cli.Usage(fmt.Errorf("--lang: the referee's language, one of %s", strings.Join(skeleton.Langs(), ", ")))
			}
			files, err := skeleton.Files(name, lang)
			if err != nil {
				return cli.Usage(err)
			}
			dir = cmp.Or(dir, name)
			if _, err := os.Lstat(dir); err == nil {
				return cli.Usage(fmt.Errorf("%s exists: a new game is written into a directory of its own (--dir)", dir))
			}
			for _, p := range slices.Sorted(maps.Keys(files)) {
				f := filepath.Join(dir, filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(f, files[p], 0o644); err != nil {
					return err
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: game.yaml, its referee (%s), a sample bot and rules.md\nnext: judge game check %s; then judge game add %s\n", dir, lang, dir, dir)
			return nil
		},
	}
	cmd.Flags().StringVar(&lang, "lang", "", "the referee's language ("+strings.Join(skeleton.Langs(), ", ")+")")
	cmd.Flags().StringVar(&dir, "dir", "", "the directory to write (default: ./NAME)")
	return cmd
}
