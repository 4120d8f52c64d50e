package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/submission"
)

// rebuilt is one submission's line of the rebuild report.
type rebuilt struct {
	Name string `json:"name"`
	Lang string `json:"lang"`
	// Before is how its last recorded build went: "ok", "error", or "unknown" (none recorded).
	Before       string `json:"before"`
	Now          string `json:"now"`
	OldToolchain string `json:"old_toolchain,omitempty"`
	NewToolchain string `json:"new_toolchain"`
	// Change is "new", "unchanged", "binary changed", "ok -> error" or "error -> ok".
	Change string `json:"change"`
	// Log is the compiler's output when it does not compile now.
	Log string `json:"log,omitempty"`
	// Smoke is the fault of its smoke match ("ok" when none), with --smoke.
	Smoke string `json:"smoke,omitempty"`
}

// named is a submission with the name the report gives it: read from Path, or sub.
type named struct {
	Name string `json:"name"`
	Path string `json:"path"`
	sub  submission.Submission
}

func (a *app) rebuildCmd() *cobra.Command {
	var o rebuildOpts
	cmd := &cobra.Command{
		Use:   "rebuild [--lang L]... [--game G] [--json] [--smoke GAME] DIR|MANIFEST|--known",
		Short: "Rebuild every submission against the current images and report what changed",
		Long: "Rebuild every submission against the current toolchain images, not from the cache, and\n" +
			"report for each its old and new toolchain, whether it compiled before and compiles now, and\n" +
			"what changed: ok -> error (with the log), error -> ok, binary changed. Run it after a\n" +
			"toolchain change, before the next round. DIR holds one submission per entry (a source file\n" +
			"or a directory, named by the entry); MANIFEST is a JSON list of {\"name\", \"path\"} (paths\n" +
			"relative to it); --known rebuilds every submission this judge has built or holds a build of\n" +
			"(sources are kept with each build), --from-store also those of the shared object store;\n" +
			"with --smoke or --game, only those played in that game here. A rebuilt bot may still\n" +
			"behave differently: --smoke GAME plays each one a short match against an opponent\n" +
			"(--opponent, default the game's C++ sample bot) and reports its fault.",
		Args: cobra.RangeArgs(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error { return a.rebuild(cmd, o, args) },
	}
	f := cmd.Flags()
	f.StringSliceVar(&o.langs, "lang", nil, "only the submissions in these languages")
	f.StringVar(&o.gameName, "game", "", "add this game's helper library to each submission (SnakeCore)")
	f.BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	f.StringVar(&o.smoke, "smoke", "", "play each rebuilt bot a short match of this game")
	f.StringVar(&o.opponent, "opponent", "", "the --smoke opponent (default the game's C++ sample bot, as the judge carries it)")
	f.BoolVar(&o.known, "known", false, "rebuild every submission this judge has built or holds a build of (kept with its build history and cache)")
	f.BoolVar(&o.fromStore, "from-store", false, "with --known: also every build in the shared object store (NATS)")
	return cmd
}

// rebuildOpts are judge rebuild's flags.
type rebuildOpts struct {
	langs                     []string
	asJSON                    bool
	gameName, smoke, opponent string
	known, fromStore          bool
}

// rebuildPlan is what judge rebuild's arguments name, read before the engine is asked for
// anything: a bad path is the arguments' fault, said at once.
type rebuildPlan struct {
	g, smokeGame game.Game
	other        submission.Submission // the smoke match's opponent
	subs         []named               // the submissions given (none with --known)
}

func (a *app) rebuildPlan(o *rebuildOpts, args []string) (p rebuildPlan, err error) {
	if o.known == (len(args) == 1) {
		return p, cli.Usage(errors.New("give a directory or manifest of submissions, or --known"))
	}
	if o.fromStore && !o.known {
		return p, cli.Usage(errors.New("--from-store goes with --known (it adds the store's builds to those known here)"))
	}
	if o.opponent != "" && o.smoke == "" {
		return p, cli.Usage(errors.New("--opponent goes with --smoke GAME (it is the smoke match's opponent)"))
	}
	if err := cli.CheckLangs("--lang", o.langs...); err != nil {
		return p, err
	}
	if o.gameName != "" {
		if p.g, err = a.LookupGame("--game", o.gameName); err != nil {
			return p, err
		}
	}
	if o.smoke != "" {
		if p.smokeGame, err = a.LookupGame("--smoke", o.smoke); err != nil {
			return p, err
		}
		if o.opponent == "" {
			// The game's own C++ sample, as the judge carries it: no checkout of its sources
			// needed, wherever the command runs.
			files, ok := games.Starter(p.smokeGame, "cpp")
			if !ok {
				return p, cli.Usage(fmt.Errorf("--smoke %s: the game has no C++ sample bot to play against: name one with --opponent", o.smoke))
			}
			o.opponent = o.smoke + "-cpp"
			p.other = submission.Submission{Lang: "cpp", Files: files}
		} else if p.other, err = cli.LoadBot(o.opponent, int64(a.Cfg.Build.SourceLimit)); err != nil {
			return p, cli.Usage(fmt.Errorf("--opponent: %w", err))
		}
	}
	if !o.known {
		if p.subs, err = submissions(args[0]); err != nil {
			return p, cli.Usage(err)
		}
		for i, n := range p.subs {
			if p.subs[i].sub, err = cli.LoadBot(n.Path, int64(a.Cfg.Build.SourceLimit)); err != nil {
				return p, cli.Usage(fmt.Errorf("%s: %w", n.Name, err))
			}
		}
	}
	return p, nil
}

func (a *app) rebuild(cmd *cobra.Command, o rebuildOpts, args []string) error {
	p, err := a.rebuildPlan(&o, args)
	if err != nil {
		return err
	}
	b, err := a.Builder(cmd.Context())
	if err != nil {
		return err
	}
	var runner *match.Runner
	if p.smokeGame != nil {
		if runner, err = a.Runner(b); err != nil {
			return err
		}
	}
	if o.known {
		if o.fromStore {
			q, err := a.Queue(cmd.Context(), base.Work)
			if err != nil {
				return err
			}
			defer q.Close()
			b.Remote = q.Cache(queue.BucketArtifacts)
		}
		entries := p.smokeGame // the game whose entries are taken: --smoke's, else --game's
		if entries == nil {
			entries = p.g
		}
		var left int
		if p.subs, left, err = knownSubmissions(cmd.Context(), b, o.fromStore, entries); err != nil {
			return err
		}
		if left > 0 {
			fmt.Fprintf(cmd.ErrOrStderr(), "%d known submission(s) never played in %s here are left out (without --smoke and --game, --known takes every one)\n", left, entries.Name())
		}
	}
	var rows []rebuilt
	for i, n := range p.subs {
		sub := n.sub
		if len(o.langs) > 0 && !slices.Contains(o.langs, sub.Lang) {
			continue
		}
		if p.g != nil {
			sub.Files = game.WithLibrary(p.g, sub.Lang, sub.Files)
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "[%d/%d] %s (%s)\n", i+1, len(p.subs), n.Name, sub.Lang)
		row, err := rebuildOne(cmd.Context(), b, n.Name, sub)
		if err != nil {
			return fmt.Errorf("%s: %w", n.Name, err)
		}
		if runner != nil && row.Now == "ok" {
			row.Smoke = smokeMatch(cmd.Context(), runner, p.smokeGame, n.Name, sub, filepath.Base(o.opponent), p.other)
		}
		rows = append(rows, row)
	}
	if o.asJSON {
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	return writeRebuilt(cmd.OutOrStdout(), rows)
}

// knownSubmissions are the submissions this judge has built or holds a build of (and, with
// fromStore, those of b's remote store), named by their files and build id; with a game, only
// those played in it here, left counting the others.
func knownSubmissions(ctx context.Context, b *build.Builder, fromStore bool, g game.Game) (subs []named, left int, err error) {
	ks, err := b.Known(ctx, fromStore)
	if err != nil {
		return nil, 0, err
	}
	for id, k := range ks {
		if g != nil && !slices.Contains(k.Games, g.Name()) {
			left++
			continue
		}
		names := slices.Sorted(maps.Keys(k.Files))
		subs = append(subs, named{Name: strings.Join(names, ",") + "@" + id[:12], sub: k.Submission})
	}
	sort.Slice(subs, func(i, j int) bool { return subs[i].Name < subs[j].Name })
	return subs, left, nil
}

// rebuildOne rebuilds a submission and compares it with its last recorded build.
func rebuildOne(ctx context.Context, b *build.Builder, name string, sub submission.Submission) (rebuilt, error) {
	hist, err := b.History(sub)
	if err != nil {
		return rebuilt{}, err
	}
	res, err := b.Rebuild(ctx, sub)
	if err != nil {
		return rebuilt{}, err
	}
	after, err := b.History(sub)
	if err != nil {
		return rebuilt{}, fmt.Errorf("reading the rebuild's record: %w", err)
	}
	if len(after) == 0 {
		return rebuilt{}, errors.New("the rebuild was not recorded")
	}
	now := after[len(after)-1]
	row := rebuilt{Name: name, Lang: sub.Lang, Before: "unknown", Now: okOrError(res.OK), NewToolchain: res.Toolchain}
	if !res.OK {
		row.Log = res.Log
	}
	if len(hist) == 0 {
		row.Change = "new"
		return row, nil
	}
	prev := hist[len(hist)-1]
	row.Before, row.OldToolchain = okOrError(prev.OK), prev.Toolchain
	switch {
	case prev.OK && !res.OK:
		row.Change = "ok -> error"
	case !prev.OK && res.OK:
		row.Change = "error -> ok"
	case res.OK && prev.Binary != now.Binary:
		row.Change = "binary changed"
	default:
		row.Change = "unchanged"
	}
	return row, nil
}

func okOrError(ok bool) string {
	if ok {
		return "ok"
	}
	return "error"
}

// smokeMatch plays the rebuilt bot as player 0 against opponent in g with its defaults (a
// game for more players fills the other seats with the opponent), and says its fault.
func smokeMatch(ctx context.Context, r *match.Runner, g game.Game, name string, sub submission.Submission, opponent string, other submission.Submission) string {
	_, _, def := g.Players()
	j := match.Job{ID: "smoke-" + name, Game: g, Seed: 1, Players: []match.Entrant{{Name: name, Submission: sub}}}
	for i := 1; i < def; i++ {
		j.Players = append(j.Players, match.Entrant{Name: opponent, Submission: other})
	}
	res, err := r.Play(ctx, j)
	switch {
	case err != nil:
		return "not played: " + err.Error()
	case res.Players[0].Fault != nil:
		f := res.Players[0].Fault
		return fmt.Sprintf("%s at turn %d: %s", f.Kind, f.Turn, f.Detail)
	}
	return "ok"
}

// submissions lists the submissions of a directory (one per entry) or a manifest.
func submissions(arg string) ([]named, error) {
	st, err := os.Stat(arg)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such file or directory (want a directory of submissions or a manifest)", arg)
	}
	if err != nil {
		return nil, err
	}
	var out []named
	if st.IsDir() {
		entries, err := os.ReadDir(arg)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			out = append(out, named{Name: e.Name(), Path: filepath.Join(arg, e.Name())})
		}
	} else {
		data, err := os.ReadFile(arg)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(data, &out); err != nil {
			where := ""
			var syntax *json.SyntaxError
			if errors.As(err, &syntax) {
				where = fmt.Sprintf(" (not JSON at byte %d)", syntax.Offset)
			}
			return nil, fmt.Errorf("manifest %s: want a JSON list of {\"name\", \"path\"}%s", arg, where)
		}
		for i := range out {
			if out[i].Name == "" || out[i].Path == "" {
				return nil, fmt.Errorf("manifest %s: entry %d needs a name and a path", arg, i)
			}
			if !filepath.IsAbs(out[i].Path) {
				out[i].Path = filepath.Join(filepath.Dir(arg), out[i].Path)
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New(arg + ": no submissions")
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func writeRebuilt(w io.Writer, rows []rebuilt) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tLANG\tBEFORE\tNOW\tCHANGE\tOLD TOOLCHAIN\tNEW TOOLCHAIN\tSMOKE")
	count := map[string]int{}
	for _, r := range rows {
		count[r.Change]++
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, r.Lang, r.Before, r.Now, r.Change,
			cmp.Or(r.OldToolchain, "-"), r.NewToolchain, cmp.Or(r.Smoke, "-"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		if r.Now == "error" {
			fmt.Fprintf(w, "\n%s does not compile now:\n%s\n", r.Name, strings.TrimSpace(r.Log))
		}
	}
	fmt.Fprintf(w, "\n%d submissions rebuilt at %s: %d new, %d unchanged, %d binary changed, %d ok -> error, %d error -> ok\n",
		len(rows), time.Now().UTC().Format(time.RFC3339), count["new"], count["unchanged"], count["binary changed"],
		count["ok -> error"], count["error -> ok"])
	return nil
}
