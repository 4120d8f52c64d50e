package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/catalog"
	"github.com/botjudge/judge/judge/game/referee"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/view"
)

func (a *app) replayCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "replay", Short: "Work with replays"}
	var gameDir string
	verify := &cobra.Command{
		Use:   "verify FILE [--game DIR]",
		Short: "Re-run the referee on a replay's recorded answers (no bots) and confirm the same result",
		Long: `Re-run the referee on a replay's recorded answers (no bots) and confirm the same result.
A replay of an added game (docs/referee.md) is re-judged by the version of the game that
judged it: from --game DIR, whose version must be that one, else from the judge's store
(nats.url's, or the judge serving on nats.listen), its referee run in a sandbox as in the match.
Exit status: 0 when the replay re-judges to its recorded result, 1 when it does not (each
difference is named, with the recorded and the re-judged value), 2 when FILE cannot be read
or is not a replay, or its game cannot be found.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rp, err := readReplayFile(args[0])
			if err != nil {
				return err
			}
			g, err := a.replayGame(cmd.Context(), args[0], rp.Header, gameDir)
			if err != nil {
				return err
			}
			if _, added := g.(*referee.Game); added { // its referee runs in a sandbox
				r, err := a.PlayRunner(cmd.Context())
				if err != nil {
					return err
				}
				g = r.Bind(cmd.Context(), g)
			}
			diffs, err := rp.Check(g, nil)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			if len(diffs) > 0 {
				return cli.MismatchError(args[0], diffs)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "verified: %s: %s seed %d, re-judged to the recorded result\n", args[0], rp.Header.Game, rp.Header.Seed)
			return nil
		},
	}
	verify.Flags().StringVar(&gameDir, "game", "", "an added game's directory, of the version that judged the replay")
	cmd.AddCommand(verify)
	var out string
	var allowMismatch bool
	html := &cobra.Command{
		Use:   "html FILE -o OUT.html",
		Short: "Write one self-contained HTML page that plays the replay, with no server and no network",
		Long: `Write one self-contained HTML page that plays the replay: it opens from disk with no server
and no network. -o - writes the page to standard output.
A replay that does not re-judge to its recorded result (edited, or from a judge whose rules
differ) is refused with exit status 1, each difference named; with --allow-mismatch the page
is written all the same, with a banner at its top naming the differences.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return cli.Usage(errors.New("-o OUT.html is required (-o - writes to standard output)"))
			}
			if err := cli.CheckOutputFile("-o", out); err != nil {
				return err
			}
			rp, err := readReplayFile(args[0])
			if err != nil {
				return err
			}
			film := view.Make(rp, a.viewLookup(cmd.Context(), nil))
			if len(film.Mismatch) > 0 && !allowMismatch {
				return fmt.Errorf("%w\n(--allow-mismatch writes the page all the same, with these differences in a banner)", cli.MismatchError(args[0], film.Mismatch))
			}
			write := func(w io.Writer) error { return view.WriteHTML(w, film) }
			info := cmd.OutOrStdout()
			if out == "-" {
				info = cmd.ErrOrStderr() // standard output holds the page
				err = write(cmd.OutOrStdout())
			} else {
				err = writeFileAtomic(out, write)
			}
			if err != nil {
				return err
			}
			if film.Problem != "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", film.Problem)
			}
			if len(film.Mismatch) > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %s does not re-judge to its record; the page says so in a banner\n", args[0])
			}
			fmt.Fprintf(info, "wrote %s (%s seed %d, %d exchanges)\n", cmp.Or(out, "-"), film.Header.Game, film.Header.Seed, len(film.Exchanges))
			return nil
		},
	}
	html.Flags().StringVarP(&out, "output", "o", "", "the HTML file to write (- for standard output)")
	html.Flags().BoolVar(&allowMismatch, "allow-mismatch", false, "write the page of a replay that does not re-judge to its record, with a banner saying so")
	cmd.AddCommand(html, a.replayDiffCmd())
	return cmd
}

// replayDiffCmd compares two replays of one match, exchange for exchange.
func (a *app) replayDiffCmd() *cobra.Command {
	var asJSON bool
	var out string
	diff := &cobra.Command{
		Use:   "diff A B [--json] [--html OUT.html]",
		Short: "Where two replays of one match (game, seed, options) part: the first exchange that differs, and how each ended",
		Long: `Compare two replays of one match - one game, seed and options, such as a server match and
the same match played with your new version (judge play --against) - exchange for exchange:
the first exchange where they differ (its turn, its player and both answers) and each
player's final score in each.
Exit status: 0 when they are the same match exchange for exchange, 1 when they differ, 2 when
they cannot be compared (a file that is not a replay, or replays of different games, game
versions, seeds, options or numbers of players, each said). --json prints {"same", "first":
{"exchange", "turn", "player", "a", "b", "why"}, "scores": [A's, B's]}, first null when they
are the same. --html OUT.html also writes one self-contained page that plays both side by side,
synchronised by turn, the exchange where they part marked.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			var rps [2]*replay.Replay
			for i, path := range args {
				rp, err := readReplayFile(path)
				if err != nil {
					return err
				}
				rps[i] = rp
			}
			c, err := replay.Compare(rps[0], rps[1])
			if err != nil {
				return cli.Usage(fmt.Errorf("%s and %s: %w", args[0], args[1], err))
			}
			if out != "" {
				if err := cli.CheckOutputFile("--html", out); err != nil {
					return err
				}
				lookup := a.viewLookup(cmd.Context(), nil)
				pair := &view.Pair{Version: view.FilmVersion, A: view.Make(rps[0], lookup), B: view.Make(rps[1], lookup), Comparison: c,
					Names: [2]string{filepath.Base(args[0]), filepath.Base(args[1])}}
				if err := writeFileAtomic(out, func(w io.Writer) error { return view.WritePairHTML(w, pair, view.PageOptions{}) }); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s: both matches side by side\n", out)
			}
			if err := cli.PrintOut(cmd.OutOrStdout(), asJSON, c, func(w io.Writer) { printComparison(w, args, rps, c) }); err != nil {
				return err
			}
			if !c.Same {
				return fmt.Errorf("%s and %s differ from exchange %d", args[0], args[1], c.First.Exchange)
			}
			return nil
		},
	}
	diff.Flags().BoolVar(&asJSON, "json", false, "print the comparison as JSON")
	diff.Flags().StringVar(&out, "html", "", "also write a self-contained page playing both matches side by side")
	return diff
}

// printComparison says where two replays part, and how each ended.
func printComparison(w io.Writer, paths []string, rps [2]*replay.Replay, c replay.Comparison) {
	h := rps[0].Header
	name := func(side, i int) string {
		if ps := rps[side].Header.Players; i < len(ps) {
			return fmt.Sprintf("player %d (%s)", i, ps[i].Name)
		}
		return fmt.Sprintf("player %d", i)
	}
	fmt.Fprintf(w, "A: %s\nB: %s\n%s seed %d\n", paths[0], paths[1], h.Game, h.Seed)
	if c.Same {
		fmt.Fprintf(w, "the same match, exchange for exchange (%d exchanges)\n", len(rps[0].Exchanges))
	} else {
		d := c.First
		fmt.Fprintf(w, "they part at exchange %d (turn %d, %s in A, %s in B): %s\n", d.Exchange, d.Turn, name(0, d.Player), name(1, d.Player), d.Why)
		for side, a := range []*string{d.A, d.B} {
			what := "no exchange: its match was over"
			if a != nil {
				what = strconv.Quote(*a)
			}
			fmt.Fprintf(w, "  %s: %s\n", "AB"[side:side+1], what)
		}
	}
	for side := range 2 {
		var scores []string
		for i, s := range c.Scores[side] {
			scores = append(scores, fmt.Sprintf("%s %s", name(side, i), strconv.FormatFloat(s, 'g', -1, 64)))
		}
		fmt.Fprintf(w, "%s ended: %s\n", "AB"[side:side+1], strings.Join(scores, ", "))
	}
}

// readReplayFile reads a replay; a file that is missing or is not a replay is a usage error
// that names it.
func readReplayFile(path string) (*replay.Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, cli.Usage(err)
	}
	defer f.Close()
	rp, err := replay.Read(f)
	if err != nil {
		return nil, cli.Usage(fmt.Errorf("%s: %w", path, err))
	}
	return rp, nil
}

// writeFileAtomic writes name through a temporary file beside it, so that a reader never
// sees half a file and a failure leaves no file.
func writeFileAtomic(name string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return os.Rename(tmp.Name(), name)
}

// replayGame is the game that re-judges a replay with header h (of file path): a built-in
// game, or the version of an added game that h records - dir's, which must be that version,
// else the store's - not yet bound to a runner (match.Referee.Bind).
func (a *app) replayGame(ctx context.Context, path string, h replay.Header, dir string) (game.Game, error) {
	if h.GameVersion == "" {
		if dir != "" {
			return nil, cli.Usage(fmt.Errorf("--game %s: %s is a replay of %s, a game built into the judge", dir, path, h.Game))
		}
		g, ok := games.Lookup(h.Game)
		if !ok {
			return nil, cli.Usage(fmt.Errorf("%s: this judge does not know the game %q (known: %s)", path, h.Game, base.BuiltinNames()))
		}
		return g, nil
	}
	var g *referee.Game
	if dir != "" {
		var err error
		if g, err = a.AddedGame(ctx, dir); err != nil {
			return nil, err
		}
		if g.Manifest.Name != h.Game || g.Version != h.GameVersion {
			return nil, cli.Usage(fmt.Errorf("--game %s: %s was judged by %s version %.12s; the directory is %s version %.12s",
				dir, path, h.Game, h.GameVersion, g.Manifest.Name, g.Version))
		}
	} else {
		q, err := a.GamesStore(ctx)
		if err != nil {
			return nil, cli.Usage(fmt.Errorf("%s: a replay of %s, an added game (version %.12s): give its directory with --game DIR, or reach the judge's store: %w",
				path, h.Game, h.GameVersion, err))
		}
		defer q.Close()
		if err := a.UseCatalog(ctx, q); err != nil {
			return nil, err
		}
		g, err = a.Added.Version(ctx, h.GameVersion)
		if errors.Is(err, catalog.ErrNotFound) {
			return nil, cli.Usage(fmt.Errorf("%s: %s version %.12s is not in the judge's store: give its directory with --game DIR", path, h.Game, h.GameVersion))
		}
		if err != nil {
			return nil, err
		}
	}
	return g, nil
}
