package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/similar"
	"github.com/botjudge/judge/judge/submission"
)

// maxSimilarBytes bounds what one submission of judge similar reads.
const maxSimilarBytes = 64 << 20

func similarCmd() *cobra.Command {
	var bases, replays []string
	var asJSON bool
	var minScore float64
	cmd := &cobra.Command{
		Use:   "similar [--base DIR]... [--replays DIR]... [--json] [--min SCORE] PATH...",
		Short: "Find submissions that are copies of each other: by their sources, and by how they play in replays",
		Long: `Compare submissions by their sources, every two, and rank the pairs: the share of the smaller's
fingerprints the other has (winnowing over each language's tokens, with identifiers, literals
and comments normalized away, so that renaming and reformatting change nothing), from 0 to 1,
with the passages in common. Each PATH is a submission, named as judge tournament names its
entrants: a file by its name without its extension, a directory by its name. --base DIR (as
often as needed) is code everyone was given - a starter bot, a game's library: what it holds
counts for no pair. A passage found in more than 10 submissions is left out as code everyone
writes. --replays DIR (replay files, searched for *.jsonl) compares how they play: over the
positions two submissions both met (the same request at the same turn and seat), how often
they answered the same ("behaviour"; the baseline is any two's). A file over 1 MiB, or not
text, is left out with a note. --min keeps the pairs whose score or behaviour reaches it.
--json prints {"pairs": [{"a", "b", "score", "behaviour", ...}], "behaviour_baseline",
"notes"}, highest score first, behaviour null where there are no replays to compare.
The report is for a person to read: a high score is a reason to look, not a verdict.`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if minScore < 0 || minScore > 1 {
				return cli.Usage(fmt.Errorf("--min %v: want a score from 0 to 1", minScore))
			}
			var vs []similar.Version
			seen := map[string]string{}
			for _, p := range args {
				files, err := readTree(p)
				if err != nil {
					return cli.Usage(err)
				}
				name := entrantName(p)
				if other, ok := seen[name]; ok {
					return cli.Usage(fmt.Errorf("%s and %s are both named %s: give submissions of different names", other, p, name))
				}
				seen[name] = p
				vs = append(vs, similar.Version{Owner: name, Name: name, Files: files})
			}
			var o similar.Options
			for _, b := range bases {
				files, err := readTree(b)
				if err != nil {
					return cli.Usage(fmt.Errorf("--base: %w", err))
				}
				o.Base = append(o.Base, files)
			}
			var plays *similar.Plays
			if len(replays) > 0 {
				plays = similar.NewPlays()
				n, err := addReplays(plays, replays, seen)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "judge similar: %d replays read\n", n)
			}
			found := similar.Find(vs, o, plays, minScore)
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, found, func(w io.Writer) { printSimilar(w, found) })
		},
	}
	cmd.Flags().StringArrayVar(&bases, "base", nil, "code everyone was given (a file or directory; repeatable)")
	cmd.Flags().StringArrayVar(&replays, "replays", nil, "replays to compare how the submissions play (a file or directory; repeatable)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the pairs as JSON")
	cmd.Flags().Float64Var(&minScore, "min", 0, "leave out the pairs whose score and behaviour are both below this")
	return cmd
}

// entrantName is a submission's name as judge tournament names an entrant: a file's name
// without its extension, a directory's name.
func entrantName(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	base := filepath.Base(abs)
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		base = strings.TrimSuffix(base, filepath.Ext(base))
	}
	return base
}

// readTree reads a submission's files (submission.ReadTree); a directory with none is refused.
func readTree(path string) (map[string][]byte, error) {
	files, err := submission.ReadTree(path, maxSimilarBytes)
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("%s: no file in it", path)
	}
	return files, err
}

// addReplays records the plays of the named submissions in the replays under paths (a
// player is taken by its name); it says how many replays it read.
func addReplays(plays *similar.Plays, paths []string, names map[string]string) (int, error) {
	n := 0
	for _, root := range paths {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
				return nil
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			rp, err := replay.Read(f)
			if errors.Is(err, replay.ErrNotReplay) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("--replays: %s: %w", p, err)
			}
			n++
			plays.AddReplay(rp, p, func(i int) (string, string, bool) {
				if i >= len(rp.Header.Players) {
					return "", "", false
				}
				name := rp.Header.Players[i].Name
				_, ok := names[name]
				return name, name, ok
			})
			return nil
		})
		if err != nil {
			return n, cli.Usage(err)
		}
	}
	return n, nil
}

// printSimilar prints the pairs, a line each, and their passages in common.
func printSimilar(w io.Writer, f similar.Findings) {
	if len(f.Pairs) == 0 {
		fmt.Fprintln(w, "no pair of submissions has a passage in common")
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if len(f.Pairs) > 0 {
		fmt.Fprintln(tw, "A\tB\tSCORE\tBEHAVIOUR\tPASSAGES\t")
	}
	for _, p := range f.Pairs {
		b := "-"
		if p.Behaviour != nil {
			b = fmt.Sprintf("%.2f of %d positions", *p.Behaviour, p.Compared)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.2f\t%s\t%d\t\n", p.A, p.B, p.Score, b, len(p.Regions))
	}
	tw.Flush()
	if f.Baseline != nil {
		fmt.Fprintf(w, "behaviour of any two: %.2f\n", *f.Baseline)
	}
	for i, p := range f.Pairs {
		if i == 5 || p.Score < 0.3 {
			break
		}
		fmt.Fprintf(w, "\n%s and %s (%.2f):\n", p.A, p.B, p.Score)
		for _, r := range p.Regions {
			fmt.Fprintf(w, "  %s:%d-%d  ~  %s:%d-%d\n", r.FileA, r.FromA, r.ToA, r.FileB, r.FromB, r.ToB)
		}
	}
	for _, n := range f.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}
