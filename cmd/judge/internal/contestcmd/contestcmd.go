// Package contestcmd is judge contest: the portal from a contestant's command line, a shell
// over the API's client (judge/api/client).
package contestcmd

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/api/client"
	"github.com/botjudge/judge/judge/result"
)

// The portal from a contestant's command line (docs/portal.md, "From the command line"):
// `judge contest login` stores the portal's address, the contest and an API token in the
// user's configuration directory (mode 0600); every other command uses them.

// contestLogin is what judge contest login stores.
type contestLogin struct {
	// URL is the portal's address (scheme, host and any path before /c/).
	URL     string `json:"url"`
	Contest string `json:"contest"`
	Token   string `json:"token"`
}

// contestPoll is how often a waiting command asks the portal again.
const contestPoll = 500 * time.Millisecond

// Cmd is judge contest; sourceLimit is build.source_limit, once the configuration is read.
func Cmd(sourceLimit func() int64) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "contest",
		Short: "The portal from the command line, as a contestant: log in once, then submit, play test matches, read results and replays",
		Long: `The portal's API from the command line, as a contestant. Log in once with the address of
your contest's page and an API token (made on the portal's account page):

  judge contest login https://portal.example/c/spring/ --token TOKEN

The address, the contest and the token are kept in your configuration directory
(` + "`judge/contest.json`" + ` under $XDG_CONFIG_HOME or ~/.config on Linux, ~/Library/Application Support on
macOS), readable by you alone. Every command then talks to that contest; each has --json.`,
	}
	cmd.AddCommand(contestLoginCmd(), contestSubmitCmd(sourceLimit), contestStatusCmd(), contestMatchCmd(),
		contestMatchesCmd(), contestReplayCmd(), contestDownloadCmd(), contestActivateCmd(), contestStarterCmd(), contestGameCmd(), contestLeaderboardCmd(), contestStatsCmd())
	return cmd
}

// contestLoginPath is where judge contest login keeps the login.
func contestLoginPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no configuration directory to keep the login in: %w", err)
	}
	return filepath.Join(dir, "judge", "contest.json"), nil
}

// parseContestURL reads the address of a contest's page: the portal's address and the
// contest's name.
func parseContestURL(raw string) (base, contest string, err error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	bad := func() (string, string, error) {
		return "", "", cli.Usage(fmt.Errorf("%q: want the address of your contest's page, as https://portal.example/c/NAME/", raw))
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return bad()
	}
	i := strings.Index(u.Path+"/", "/c/")
	if i < 0 {
		return bad()
	}
	contest, _, _ = strings.Cut(u.Path[i+len("/c/"):], "/")
	if contest == "" {
		return bad()
	}
	u.Path, u.RawQuery, u.Fragment = u.Path[:i], "", ""
	return strings.TrimSuffix(u.String(), "/"), contest, nil
}

func contestLoginCmd() *cobra.Command {
	var token string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "login URL [--token TOKEN]",
		Short: "Log in to a contest: its page's address and an API token (read from standard input without --token)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			base, contest, err := parseContestURL(args[0])
			if err != nil {
				return err
			}
			if token == "" {
				fmt.Fprint(cmd.ErrOrStderr(), "API token (from the portal's account page): ")
				line, err := bufio.NewReader(cmd.InOrStdin()).ReadString('\n')
				if err != nil && line == "" {
					return cli.Usage(errors.New("no token given: --token, or a line on standard input"))
				}
				token = line
			}
			l := contestLogin{URL: base, Contest: contest, Token: strings.TrimSpace(token)}
			if l.Token == "" {
				return cli.Usage(errors.New("the token is empty"))
			}
			ct, _, err := l.client().Contest(cmd.Context(), contest)
			if err != nil {
				return fmt.Errorf("logging in to %s: %w", args[0], err)
			}
			path, err := contestLoginPath()
			if err != nil {
				return err
			}
			if err := writePrivate(path, l); err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, map[string]string{"url": base, "contest": ct.Name, "game": ct.Game, "kept": path}, func(w io.Writer) {
				fmt.Fprintf(w, "logged in to contest %s (%s) at %s; kept in %s\n", ct.Name, ct.Game, base, path)
			})
		},
	}
	cmd.Flags().StringVar(&token, "token", "", "the API token (default: read from standard input)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the contest logged in to as JSON")
	return cmd
}

// writePrivate writes v as JSON to path, readable by its owner alone, replacing what was there.
func writePrivate(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".contest-*.json") // mode 0600
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// loggedIn is the stored login, or why there is none.
func loggedIn() (contestLogin, error) {
	var l contestLogin
	path, err := contestLoginPath()
	if err != nil {
		return l, err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return l, cli.Usage(errors.New("not logged in: judge contest login URL first"))
	}
	if err != nil {
		return l, err
	}
	if err := json.Unmarshal(data, &l); err != nil || l.URL == "" || l.Contest == "" || l.Token == "" {
		return l, cli.Usage(fmt.Errorf("%s is not a login judge contest login wrote: log in again", path))
	}
	return l, nil
}

// client is the portal's API with the login's token.
func (l contestLogin) client() *client.Client {
	return &client.Client{URL: l.URL, Token: l.Token}
}

// contestCommand is a contest command's run with the stored login.
func contestCommand(run func(cmd *cobra.Command, args []string, l contestLogin) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		l, err := loggedIn()
		if err != nil {
			return err
		}
		return run(cmd, args, l)
	}
}

func contestSubmitCmd(sourceLimit func() int64) *cobra.Command {
	var lang string
	var asJSON, activate, noWait bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "submit FILES|DIR [--lang L] [--activate] [--no-wait] [--json]",
		Short: "Upload a new version and wait for its compilation and validation (exit status 1 when it is not ready)",
		Long: `Upload a new version: the files or the directory given, read as judge compile reads a
submission (hidden files left out, its language from the extensions, a LANG: prefix or
--lang), sent as one archive so that its directories stay. Waits for the portal to compile
and validate it, prints the compiler's log when it does not compile and the validation
match's fault when it is rejected, and exits with status 1 then; --activate makes a version
that is ready your active one. --no-wait returns once the portal has the upload.`,
		Args: cobra.MinimumNArgs(1),
		RunE: contestCommand(func(cmd *cobra.Command, args []string, l contestLogin) error {
			if lang != "" {
				if err := cli.CheckLangs("--lang", lang); err != nil {
					return err
				}
			}
			src, err := cli.LoadSubmission(args, lang, sourceLimit())
			if err != nil {
				return err
			}
			archive, err := tarGz(src.Files)
			if err != nil {
				return err
			}
			up, raw, err := l.client().Upload(cmd.Context(), l.Contest, archive, src.Lang)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "version %d uploaded (%s)\n", up.Version, up.ID)
			if noWait {
				return finish(cmd, asJSON, api.Submission{ID: up.ID, Version: up.Version, Status: up.Status}, raw, nil)
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			sub, raw, err := waitSubmission(ctx, l, up.ID, func(status string) { fmt.Fprintf(cmd.ErrOrStderr(), "version %d: %s\n", up.Version, status) })
			if err != nil {
				return err
			}
			if activate && sub.Status == "ready" {
				if sub, raw, err = l.client().Activate(cmd.Context(), sub.ID); err != nil {
					return err
				}
			}
			var verdict error
			switch sub.Status {
			case "ready", "active":
			case "compile_error":
				verdict = fmt.Errorf("version %d does not compile", sub.Version)
			default:
				verdict = fmt.Errorf("version %d is %s", sub.Version, sub.Status)
			}
			return finish(cmd, asJSON, sub, raw, verdict)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&lang, "lang", "", "the language (default: the portal's guess from the file names)")
	f.BoolVar(&activate, "activate", false, "make the version your active one once it is ready")
	f.BoolVar(&noWait, "no-wait", false, "return once the upload is taken")
	f.BoolVar(&asJSON, "json", false, "print the version as the API shows it")
	f.DurationVar(&timeout, "timeout", 10*time.Minute, "how long to wait for the compilation and the validation")
	return cmd
}

// finish prints a version, as the API answered it (raw) or for a person, and returns verdict.
func finish(cmd *cobra.Command, asJSON bool, sub api.Submission, raw json.RawMessage, verdict error) error {
	if err := cli.PrintOut(cmd.OutOrStdout(), asJSON, raw, func(w io.Writer) {
		fmt.Fprintf(w, "version %d (%s, %s): %s\n", sub.Version, sub.ID, sub.Lang, sub.Status)
		if sub.Build != nil && !sub.Build.OK && sub.Build.Log != "" {
			fmt.Fprintf(w, "the compiler says:\n%s\n", strings.TrimRight(sub.Build.Log, "\n"))
		}
		if v := sub.Validation; v != nil {
			if v.Fault != nil {
				fmt.Fprintf(w, "its validation match %s: %v\n", v.Match, v.Fault)
			} else if v.Match != "" {
				fmt.Fprintf(w, "its validation match: %s\n", v.Match)
			}
		}
		if sub.Error != "" {
			fmt.Fprintf(w, "%s\n", sub.Error)
		}
	}); err != nil {
		return err
	}
	return verdict
}

// tarGz is files as a .tar.gz, by their names.
func tarGz(files map[string][]byte) ([]byte, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name]))}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(files[name]); err != nil {
			return nil, err
		}
	}
	if err := errors.Join(tw.Close(), gz.Close()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// waitSubmission polls a version until its status settles, telling each new status.
func waitSubmission(ctx context.Context, l contestLogin, id string, told func(string)) (api.Submission, json.RawMessage, error) {
	last := ""
	for {
		sub, raw, err := l.client().Submission(ctx, id)
		if err != nil {
			return sub, nil, err
		}
		if sub.Status != last {
			told(sub.Status)
			last = sub.Status
		}
		if api.Settled(sub.Status) {
			return sub, raw, nil
		}
		select {
		case <-ctx.Done():
			return sub, nil, fmt.Errorf("version %d is still %s: %w", sub.Version, sub.Status, ctx.Err())
		case <-time.After(contestPoll):
		}
	}
}

func contestStatusCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status [--json]",
		Short: "Your versions, the newest first, and which one is active",
		Args:  cobra.NoArgs,
		RunE: contestCommand(func(cmd *cobra.Command, _ []string, l contestLogin) error {
			page, raw, err := l.client().Submissions(cmd.Context(), l.Contest, "")
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, raw, func(w io.Writer) {
				tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
				fmt.Fprintf(tw, "contest %s at %s\nVERSION\tID\tLANG\tSTATUS\tCREATED\n", l.Contest, l.URL)
				var trials []string
				for _, s := range page.Submissions {
					fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", s.Version, s.ID, s.Lang, s.Status, s.Created)
					if t := s.Trial; t != nil {
						trials = append(trials, trialLine(s.Version, *t))
					}
					if s.Ladder != nil && s.Ladder.League != nil {
						trials = append(trials, leagueLine(s.Version, *s.Ladder.League))
					}
				}
				tw.Flush()
				for _, t := range trials {
					fmt.Fprintln(w, t)
				}
			})
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the versions as the API shows them")
	return cmd
}

// trialLine says how far a version's trial is.
func trialLine(version int, t api.Trial) string {
	verdict := "undecided"
	if t.Verdict != nil {
		verdict = map[string]string{api.Better: "better", api.NotBetter: "not better"}[*t.Verdict]
	}
	against := "the active version"
	if t.Against > 0 {
		against = fmt.Sprintf("version %d", t.Against)
	}
	return fmt.Sprintf("trial of version %d against %s: %s (log-likelihood ratio %.2f between %.2f and %.2f, %d matches)",
		version, against, verdict, t.LLR, t.Bounds[0], t.Bounds[1], t.Matches)
}

// leagueLine says a version's league and how far its test against the boss is.
func leagueLine(version int, l api.LeagueProgress) string {
	out := fmt.Sprintf("version %d is in league %s", version, l.Name)
	if l.Top {
		out += " (the top league)"
	}
	for _, p := range l.Promoted {
		out += fmt.Sprintf("; moved up to %s at %s after %d matches with the boss below", p.To, p.At.UTC().Format(time.RFC3339), p.Matches)
	}
	if l.Boss == "" {
		return out
	}
	verdict := "undecided"
	if l.Verdict != nil {
		verdict = map[string]string{api.Better: "better", api.NotBetter: "not better (a new version tries again)"}[*l.Verdict]
	}
	return out + fmt.Sprintf("; against its boss %s: %s (log-likelihood ratio %.2f between %.2f and %.2f, %d matches)",
		l.Boss, verdict, l.LLR, l.Bounds[0], l.Bounds[1], l.Matches)
}

func contestMatchCmd() *cobra.Command {
	var asJSON bool
	var out string
	var seed uint64
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "match OPPONENT... [--seed N] [-o REPLAY] [--json]",
		Short: "Play a test match of your active version against opponents (house:NAME, or a contestant's login), wait for it, and save its replay",
		Args:  cobra.MinimumNArgs(1),
		RunE: contestCommand(func(cmd *cobra.Command, args []string, l contestLogin) error {
			req := api.MatchRequest{Opponents: args}
			if cmd.Flags().Changed("seed") {
				req.Seed = &seed
			}
			asked, err := l.client().AskMatch(cmd.Context(), l.Contest, req)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "match %s asked for\n", asked.ID)
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			var m api.Match
			var raw json.RawMessage
			for {
				if m, raw, err = l.client().Match(ctx, asked.ID); err != nil {
					return err
				}
				if m.Result != nil {
					break
				}
				select {
				case <-ctx.Done():
					return fmt.Errorf("match %s is still %s: %w", asked.ID, m.Status, ctx.Err())
				case <-time.After(contestPoll):
				}
			}
			if m.Result.Status == result.StatusOK {
				if out == "" {
					out = m.ID + ".jsonl"
				}
				if err := saveReplay(cmd.Context(), l, m.ID, out); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "replay: %s\n", out)
			}
			if err := cli.PrintOut(cmd.OutOrStdout(), asJSON, raw, func(w io.Writer) { printMatch(w, m) }); err != nil {
				return err
			}
			if m.Result.Status != result.StatusOK {
				return fmt.Errorf("match %s was not judged: %s", m.ID, m.Result.Error)
			}
			return nil
		}),
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "the file to save the replay in (default: ID.jsonl)")
	f.BoolVar(&asJSON, "json", false, "print the match as the API shows it")
	f.DurationVar(&timeout, "timeout", 10*time.Minute, "how long to wait for the match")
	cmd.Flags().Uint64Var(&seed, "seed", 0, "the match's seed: another match's, to play it again with your active version and compare them (judge replay diff)")
	return cmd
}

// printMatch prints a judged match for a person: each seat's score, rank and fault.
func printMatch(w io.Writer, m api.Match) {
	res := m.Result
	fmt.Fprintf(w, "match %s (%s, seed %d): %s\n", m.ID, res.Game, m.Seed, res.Status)
	if res.Error != nil {
		fmt.Fprintf(w, "%s\n", res.Error)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tPLAYER\tSCORE\tRANK\tFAULT")
	for i, p := range res.Players {
		fault := "-"
		if p.Fault != nil {
			fault = p.Fault.Error()
		}
		fmt.Fprintf(tw, "%d\t%s\t%g\t%d\t%s\n", i, p.Name, p.Score, p.Rank, fault)
	}
	tw.Flush()
}

// saveReplay downloads match id's replay to path.
func saveReplay(ctx context.Context, l contestLogin, id, path string) error {
	body, err := l.client().Replay(ctx, id)
	if err != nil {
		return err
	}
	defer body.Close()
	f, err := os.Create(path)
	if err != nil {
		return cli.Usage(err)
	}
	if _, err := io.Copy(f, body); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("downloading the replay of %s: %w", id, err)
	}
	return f.Close()
}

func contestMatchesCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "matches [--json]",
		Short: "Your matches, the newest first: validations, test matches, the ladder's and the rounds'",
		Args:  cobra.NoArgs,
		RunE: contestCommand(func(cmd *cobra.Command, _ []string, l contestLogin) error {
			page, raw, err := l.client().Matches(cmd.Context(), l.Contest)
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, raw, func(w io.Writer) {
				tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tKIND\tSTATUS\tPLAYERS\tCREATED")
				for _, m := range page.Matches {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", m.ID, m.Kind, m.Status, strings.Join(m.Players, " "), m.Created)
				}
				tw.Flush()
			})
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the matches as the API shows them")
	return cmd
}

func contestReplayCmd() *cobra.Command {
	var out string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "replay ID [-o FILE]",
		Short: "Download a match's replay (other players' stderr removed), for judge view or judge replay",
		Args:  cobra.ExactArgs(1),
		RunE: contestCommand(func(cmd *cobra.Command, args []string, l contestLogin) error {
			if out == "" {
				out = args[0] + ".jsonl"
			}
			if err := saveReplay(cmd.Context(), l, args[0], out); err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, map[string]string{"match": args[0], "replay": out}, func(w io.Writer) {
				fmt.Fprintf(w, "replay of %s: %s\n", args[0], out)
			})
		}),
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the file to save it in (default: ID.jsonl)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print where the replay went as JSON")
	return cmd
}

func contestLeaderboardCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "leaderboard [--json]",
		Short: "The contest's ladder: each contestant's active version, rating and matches",
		Args:  cobra.NoArgs,
		RunE: contestCommand(func(cmd *cobra.Command, _ []string, l contestLogin) error {
			board, raw, err := l.client().Leaderboard(cmd.Context(), l.Contest)
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, raw, func(w io.Writer) { printBoard(w, board) })
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the leaderboard as the API shows it")
	return cmd
}

// printBoard prints the leaderboard as a table: a rank with its range, the league where the
// contest has leagues, and the leagues' bosses below.
func printBoard(w io.Writer, board api.Leaderboard) {
	if board.Message != "" {
		fmt.Fprintln(w, board.Message)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	league := ""
	if len(board.Leagues) > 0 {
		league = "LEAGUE\t"
	}
	fmt.Fprintln(tw, "RANK\t"+league+"LOGIN\tVERSION\tLANG\tRATING\tMATCHES\tABOVE NEXT\t")
	for _, r := range board.Rows {
		rank := strconv.Itoa(r.Rank)
		if lo, hi := r.RankRange[0], r.RankRange[1]; lo != hi {
			rank = fmt.Sprintf("%d (%d-%d)", r.Rank, lo, hi)
		}
		above := "-"
		if r.AboveNext != nil {
			above = fmt.Sprintf("%d%%", int(math.Floor(100**r.AboveNext)))
		}
		var notes []string
		if r.Provisional {
			notes = append(notes, "provisional")
		}
		if r.Disabled {
			notes = append(notes, "off the ladder")
		}
		if league != "" {
			rank += "\t" + r.League
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%.1f\t%d\t%s\t%s\n", rank, r.Login, r.Version, r.Lang, r.Rating, r.Matches, above, strings.Join(notes, ", "))
	}
	tw.Flush()
	for i := len(board.Leagues) - 1; i >= 0; i-- {
		l := board.Leagues[i]
		boss := "no boss"
		if l.Boss != "" {
			boss = "boss " + l.Boss
		}
		fmt.Fprintf(w, "league %s: %s, %d on the board\n", l.Name, boss, l.Versions)
	}
	fmt.Fprintln(w, "RANK (best-worst): the places each version could truly hold, at 95%; ABOVE NEXT: how sure the ladder is of the next row's place below.")
}

func contestStatsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "stats [--json]",
		Short: "Your statistics: your results by opponent, seat (its part, in a game of parts), match length, version (each against the one before) and the game's options, your faults and your closest CPU calls",
		Args:  cobra.NoArgs,
		RunE: contestCommand(func(cmd *cobra.Command, _ []string, l contestLogin) error {
			st, raw, err := l.client().Stats(cmd.Context(), l.Contest)
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, raw, func(w io.Writer) { printStats(w, st) })
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the statistics as the API shows them")
	return cmd
}

// printStats prints a contestant's statistics, a table a kind.
func printStats(w io.Writer, st api.Stats) {
	fmt.Fprintf(w, "%s: %d matches with a result; won, drawn and lost against each other player of a match\n", st.Login, st.Matches)
	for _, t := range []struct {
		head string
		rows []api.StatsRow
	}{{"OPPONENT", st.ByOpponent}, {"SEAT", st.BySeat}, {"MOVES", st.ByLength}, {"VERSION", st.ByVersion}, {"OPTIONS", st.ByOptions}} {
		if len(t.rows) == 0 {
			continue
		}
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "%s\tMATCHES\tWON\tDRAWN\tLOST\tSCORE\tWIN RATE\t\n", t.head)
		for _, r := range t.rows {
			change := ""
			if r.Change != nil {
				change = fmt.Sprintf("%+.0f points since the version before", 100**r.Change)
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.2f\t%.0f%%\t%s\n", r.Key, r.Matches, r.Won, r.Drawn, r.Lost, r.Score, 100*r.WinRate, change)
		}
		tw.Flush()
	}
	if len(st.ClosestCalls) > 0 {
		fmt.Fprintln(w, "\nclosest calls (your answers nearest their CPU limit):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "MATCH\tVERSION\tTURN\tCPU\tOF THE LIMIT\t\n")
		for _, c := range st.ClosestCalls {
			fmt.Fprintf(tw, "%s\tv%d\t%d\t%d µs of %d µs\t%s\t\n", c.Match, c.Version, c.Turn, c.CPUus, c.LimitUS, c.Percent())
		}
		tw.Flush()
	}
	for _, f := range st.Faults {
		var kinds []string
		for _, k := range slices.Sorted(maps.Keys(f.Kinds)) {
			kinds = append(kinds, fmt.Sprintf("%s %d", k, f.Kinds[k]))
		}
		fmt.Fprintf(w, "faults of version %d: %s\n", f.Version, strings.Join(kinds, ", "))
	}
}

// versionNumber is a version's number as given, "3" or "v3".
func versionNumber(arg string) (int, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(arg, "v"))
	if err != nil || n < 1 {
		return 0, cli.Usage(fmt.Errorf("version %q: want a version's number, as judge contest status lists them", arg))
	}
	return n, nil
}

// versionByNumber is the caller's version numbered arg ("3" or "v3").
func versionByNumber(ctx context.Context, l contestLogin, arg string) (api.Submission, error) {
	n, err := versionNumber(arg)
	if err != nil {
		return api.Submission{}, err
	}
	all, err := l.client().AllSubmissions(ctx, l.Contest)
	if err != nil {
		return api.Submission{}, err
	}
	i := slices.IndexFunc(all, func(s api.Submission) bool { return s.Version == n })
	if i < 0 {
		return api.Submission{}, cli.Usage(fmt.Errorf("you have no version %d (judge contest status lists yours)", n))
	}
	return all[i], nil
}

func contestActivateCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "activate VERSION [--json]",
		Short: "Make one of your versions (by its number, as judge contest status lists them) the active one: the one the ladder and the rounds play",
		Args:  cobra.ExactArgs(1),
		RunE: contestCommand(func(cmd *cobra.Command, args []string, l contestLogin) error {
			sub, err := versionByNumber(cmd.Context(), l, args[0])
			if err != nil {
				return err
			}
			got, raw, err := l.client().Activate(cmd.Context(), sub.ID)
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, raw, func(w io.Writer) {
				fmt.Fprintf(w, "version %d (%s) is %s\n", got.Version, got.ID, got.Status)
			})
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the version as the API answers")
	return cmd
}

func contestDownloadCmd() *cobra.Command {
	var out string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "download [VERSION] [-o DIR]",
		Short: "Your own sources back, as you uploaded them: a version (by its number; default the active one, else the newest) into a new directory",
		Args:  cobra.MaximumNArgs(1),
		RunE: contestCommand(func(cmd *cobra.Command, args []string, l contestLogin) error {
			want := 0
			if len(args) == 1 {
				n, err := versionNumber(args[0])
				if err != nil {
					return err
				}
				want = n
			}
			all, err := l.client().AllSubmissions(cmd.Context(), l.Contest)
			if err != nil {
				return err
			}
			i := slices.IndexFunc(all, func(s api.Submission) bool {
				return s.Version == want || (want == 0 && s.Status == "active")
			})
			if i < 0 && want == 0 && len(all) > 0 {
				i = 0 // none active: the newest
			}
			if i < 0 {
				if want == 0 {
					return errors.New("you have no version yet")
				}
				return cli.Usage(fmt.Errorf("you have no version %d (judge contest status lists yours)", want))
			}
			sub := all[i]
			if out == "" {
				out = fmt.Sprintf("v%d", sub.Version)
			}
			files, err := downloadFiles(out, func() (io.ReadCloser, error) { return l.client().Source(cmd.Context(), sub.ID) })
			if err != nil {
				return fmt.Errorf("the sources of version %d: %w", sub.Version, err)
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, map[string]any{"id": sub.ID, "version": sub.Version, "dir": out, "files": slices.Sorted(maps.Keys(files))}, func(w io.Writer) {
				fmt.Fprintf(w, "version %d (%s, %s): %d file(s) in %s\n", sub.Version, sub.ID, sub.Status, len(files), out)
			})
		}),
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the directory to make (default: vN)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was written as JSON")
	return cmd
}

// downloadFiles writes the .tar.gz of files that open gives into the new directory out (one
// that exists is refused: nothing of the contestant's is overwritten), and returns them.
func downloadFiles(out string, open func() (io.ReadCloser, error)) (map[string][]byte, error) {
	if _, err := os.Stat(out); err == nil {
		return nil, cli.Usage(fmt.Errorf("%s exists already: -o a directory that does not", out))
	}
	body, err := open()
	if err != nil {
		return nil, err
	}
	defer body.Close()
	files, err := untar(body)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, cli.Usage(err)
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		path := filepath.Join(out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// contestGame is the contest, for its game: its name, and whether it is an organiser's,
// played here from its directory (GAME.game, as judge contest game writes it).
type contestGame api.Contest

func (l contestLogin) game(ctx context.Context) (contestGame, error) {
	ct, _, err := l.client().Contest(ctx, l.Contest)
	g := contestGame(ct)
	if err != nil {
		return g, err
	}
	if !fs.ValidPath(g.Game) || strings.ContainsAny(g.Game, `/\`) {
		g.Game = "game" // not a game's name: no path of the portal's making
	}
	return g, nil
}

// arg is judge play's --game for it on this machine.
func (g contestGame) arg() string {
	if g.GameAdded {
		return g.Game + ".game"
	}
	return g.Game
}

// play is the judge play --local command of a match of the contest with bot in every seat.
func (g contestGame) play(bot string) string {
	args := []string{"judge", "play", "--local", "--game", g.arg()}
	for _, k := range slices.Sorted(maps.Keys(g.Options)) {
		args = append(args, "--opt", k+"="+g.Options[k])
	}
	for range max(g.Players, 2) {
		args = append(args, bot)
	}
	return strings.Join(args, " ")
}

func contestStarterCmd() *cobra.Command {
	var out string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "starter LANG [-o DIR] [--json]",
		Short: "A sample bot of the contest's game in LANG, to start from: into a new directory (default GAME-LANG)",
		Args:  cobra.ExactArgs(1),
		RunE: contestCommand(func(cmd *cobra.Command, args []string, l contestLogin) error {
			lang := args[0]
			if lang == "" {
				return cli.Usage(errors.New("LANG: the language of the starter bot, as the contest's judge page lists them"))
			}
			g, err := l.game(cmd.Context())
			if err != nil {
				return err
			}
			if out == "" {
				out = g.Game + "-" + lang
			}
			files, err := downloadFiles(out, func() (io.ReadCloser, error) { return l.client().Starter(cmd.Context(), l.Contest, lang) })
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, map[string]any{"game": g.Game, "lang": lang, "dir": out, "files": slices.Sorted(maps.Keys(files))}, func(w io.Writer) {
				fmt.Fprintf(w, "the sample bot of %s in %s: %d file(s) in %s\n", g.Game, lang, len(files), out)
				if g.GameAdded {
					fmt.Fprintf(w, "%s is the organisers' own game: judge contest game fetches its directory, %s\n", g.Game, g.arg())
				}
				fmt.Fprintf(w, "try it: %s\n", g.play(out))
			})
		}),
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the directory to make (default: GAME-LANG)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was written as JSON")
	return cmd
}

func contestGameCmd() *cobra.Command {
	var out string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "game [-o DIR] [--json]",
		Short: "The directory of the contest's game when it is the organisers' own (default GAME.game), which judge play takes as --game DIR",
		Args:  cobra.NoArgs,
		RunE: contestCommand(func(cmd *cobra.Command, _ []string, l contestLogin) error {
			g, err := l.game(cmd.Context())
			if err != nil {
				return err
			}
			if out == "" {
				out = g.arg()
			}
			files, err := downloadFiles(out, func() (io.ReadCloser, error) { return l.client().GameDir(cmd.Context(), l.Contest) })
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, map[string]any{"game": g.Game, "dir": out, "files": slices.Sorted(maps.Keys(files))}, func(w io.Writer) {
				fmt.Fprintf(w, "the game %s: %d file(s) in %s; judge play --game %s plays it here\n", g.Game, len(files), out, out)
			})
		}),
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the directory to make (default: GAME.game)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was written as JSON")
	return cmd
}

// untar reads the portal's .tar.gz of a version's files: regular files at relative paths that
// stay inside (no "..", no absolute path, no link), none twice, 64 MiB in all at most.
func untar(r io.Reader) (map[string][]byte, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a .tar.gz: %w", err)
	}
	tr := tar.NewReader(io.LimitReader(gz, 64<<20))
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		// A file at a path inside the directory, as the portal keeps a version's folders.
		name := h.Name
		if h.Typeflag != tar.TypeReg || !fs.ValidPath(name) || name == "." || strings.ContainsAny(name, "\\\x00") || files[name] != nil {
			return nil, fmt.Errorf("%q is not a file's path inside the version", name)
		}
		if files[name], err = io.ReadAll(tr); err != nil {
			return nil, err
		}
	}
}
