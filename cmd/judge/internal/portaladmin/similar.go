package portaladmin

import (
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/store"
)

func portalContestSimilarCmd(a *base.App) *cobra.Command {
	var asJSON bool
	var minScore float64
	cmd := &cobra.Command{
		Use:   "similar CONTEST [--json] [--min SCORE]",
		Short: "The contest's integrity check: the contestants whose versions are alike, by source and by how they play",
		Long: `The contest's integrity check, as its organisers' page shows it: every two contestants whose
versions are alike, by their sources (every version of each, the starter bots and the game's
library left out) and by how they play in the contest's replays (all read now), highest score
first, with the passages in common and the organisers' verdicts. --min keeps the pairs whose
score or behaviour reaches it. --json prints {"pairs": [{"a", "b", "score", "behaviour",
...}], "behaviour_baseline", ...}. A high score is a reason to look, not a verdict.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if minScore < 0 || minScore > 1 {
				return cli.Usage(fmt.Errorf("--min %v: want a score from 0 to 1", minScore))
			}
			st, q, err := a.PortalStore(cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			s, err := a.ContestEngine(st, q).Similar(cmd.Context(), contest.HostActor(), args[0], minScore, true)
			if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrInvalid) {
				return noContest("", args[0])
			}
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, s, func(w io.Writer) { printSimilarity(w, s) })
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the check as JSON")
	cmd.Flags().Float64Var(&minScore, "min", 0, "leave out the pairs whose score and behaviour are both below this")
	return cmd
}

// printSimilarity prints the pairs, a line each, and the passages of the first.
func printSimilarity(w io.Writer, s api.Similarity) {
	fmt.Fprintf(w, "%s: %d versions compared, %d replays read\n", s.Contest, s.Versions, s.Replays)
	if len(s.Pairs) == 0 {
		fmt.Fprintln(w, "no two contestants' versions have a passage in common")
	} else {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "A\tB\tVERSIONS\tSCORE\tBEHAVIOUR\tPASSAGES\tVERDICT\t")
		for _, p := range s.Pairs {
			b := "-"
			if p.Behaviour != nil {
				b = fmt.Sprintf("%.2f of %d positions", *p.Behaviour, p.Compared)
			}
			versions := ""
			if p.VersionA > 0 {
				versions = fmt.Sprintf("v%d v%d", p.VersionA, p.VersionB)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f\t%s\t%d\t%s\t\n", p.A, p.B, versions, p.Score, b, len(p.Regions), p.Verdict)
		}
		tw.Flush()
	}
	if s.Baseline != nil {
		fmt.Fprintf(w, "behaviour of any two: %.2f\n", *s.Baseline)
	}
	for _, l := range s.Excluded {
		fmt.Fprintf(w, "left out of the official round: %s\n", l)
	}
	for _, n := range s.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

func portalContestSetCmd(a *base.App) *cobra.Command {
	var deadline string
	var testRounds []string
	var quota, uploadQuota int
	var peer, publish, ladderOn bool
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "set CONTEST [--deadline RFC3339|\"\"] [--test-round RFC3339]... [--quota N] [--upload-quota N] [--peer-matches=BOOL] [--publish-house=BOOL] [--ladder=BOOL] [--json]",
		Short: "Change a contest's settings: its deadline, its test rounds' times, the quotas, peer matches, published house bots, the ladder",
		Long: `Change the settings given, as the organiser page and PUT /api/v1/contests/{contest}/settings do;
the others stay as they are. --deadline "" removes the deadline; --test-round (as often as
needed) sets the test competitions' times, --test-round "" none. Every change is written in
the organisers' log; a bad value is refused, naming it (exit 2).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var set contest.Settings
			f := cmd.Flags()
			if f.Changed("deadline") {
				set.Deadline = &deadline
			}
			if f.Changed("test-round") {
				rounds := []string{}
				for _, r := range testRounds {
					if r != "" {
						rounds = append(rounds, r)
					}
				}
				set.TestRounds = &rounds
			}
			if f.Changed("quota") {
				set.TestQuota = &quota
			}
			if f.Changed("upload-quota") {
				set.UploadQuota = &uploadQuota
			}
			if f.Changed("peer-matches") {
				set.PeerMatches = &peer
			}
			if f.Changed("publish-house") {
				set.PublishHouse = &publish
			}
			if f.Changed("ladder") {
				set.Ladder = &ladderOn
			}
			if set == (contest.Settings{}) {
				return cli.Usage(errors.New("no setting given: --deadline, --test-round, --quota, --upload-quota, --peer-matches, --publish-house or --ladder"))
			}
			st, q, err := a.PortalStore(cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			c, err := a.ContestEngine(st, q).ChangeSettings(cmd.Context(), contest.HostActor(), args[0], set)
			if errors.Is(err, store.ErrNotFound) {
				return noContest("", args[0])
			}
			var ae *api.Error
			if errors.As(err, &ae) && ae.Code == api.CodeBadRequest || errors.Is(err, store.ErrInvalid) {
				return cli.Usage(err)
			}
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, c, func(w io.Writer) {
				fmt.Fprintf(w, "contest %s: settings changed (judge portal contest show %s)\n", c.Name, c.Name)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&deadline, "deadline", "", `the end of submissions, RFC 3339 ("" removes it)`)
	f.StringArrayVar(&testRounds, "test-round", nil, "a test competition's time, RFC 3339 (repeatable; \"\" for none)")
	f.IntVar(&quota, "quota", 0, "test matches a contestant may ask for per hour")
	f.IntVar(&uploadQuota, "upload-quota", 0, "versions a contestant may upload per hour")
	f.BoolVar(&peer, "peer-matches", false, "test matches against other contestants' active versions")
	f.BoolVar(&publish, "publish-house", false, "contestants may download the house bots")
	f.BoolVar(&ladderOn, "ladder", false, "the ladder plays the active versions until submissions close")
	f.BoolVar(&asJSON, "json", false, "print the contest as JSON")
	return cmd
}
