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
