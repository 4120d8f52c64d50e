package tournament

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/botjudge/judge/judge/tournament/standings"
)

// simulatedField is a field of n entrants of strengths drawn from a normal of 300 Elo, whose
// two-player matches are an ordered probit with draws (3, 1 and 0 points as scores), each
// match's draw fixed by its seed.
func simulatedField(n int, seed uint64) (names []string, model func(uint64, []string) []float64) {
	r := rand.New(rand.NewPCG(seed, 7))
	strength := map[string]float64{}
	for i := range n {
		name := fmt.Sprintf("e%03d", i)
		names = append(names, name)
		strength[name] = 300 * r.NormFloat64()
	}
	return names, func(matchSeed uint64, players []string) []float64 {
		mr := rand.New(rand.NewPCG(matchSeed, 11))
		z := (strength[players[0]]-strength[players[1]])/200 + mr.NormFloat64() + 0.1
		switch {
		case z > 0.4:
			return []float64{3, 0}
		case z < -0.4:
			return []float64{0, 3}
		}
		return []float64{1, 1}
	}
}

// separatedTop says whether the top three and the third's pair with the fourth are separated.
func separatedTop(o standings.Outcome) bool {
	for i := 0; i < 3; i++ {
		if a := o.Standings[i].AboveNext; a == nil || *a <= o.Confidence {
			return false
		}
	}
	return true
}

// BenchmarkUntilSeparated measures the matches a round robin of two-player matches needs to
// separate its top three at 95%: played until separated (the contenders only), and repeated
// whole, with new seeds, until the same holds (the baseline). Both may play up to maxRepeats
// times the round robin; a field that neither separates within it counts as that many. Fields
// of 8, 32 and 128 entrants; each figure the mean of fields drawn anew (BENCHMARKS.md).
func BenchmarkUntilSeparated(b *testing.B) {
	for _, tc := range []struct{ n, fields, maxRepeats int }{{8, 10, 20}, {32, 4, 8}, {128, 2, 4}} {
		b.Run(fmt.Sprint(tc.n), func(b *testing.B) {
			var playedOn, repeated, playedOnOK, repeatedOK float64
			for range b.N {
				for f := range tc.fields {
					names, model := simulatedField(tc.n, uint64(1000*tc.n+f))
					schedule := tc.n * (tc.n - 1)
					q := newMemQueue()
					q.model = model
					tr := tournamentOf(b, "amazes", Spec{UntilSeparated: true, Budget: (tc.maxRepeats - 1) * schedule}, names...)
					o, err := tr.Run(context.Background(), q)
					if err != nil {
						b.Fatal(err)
					}
					if len(o.Unseparated) == 0 {
						playedOn += float64(o.Matches)
						playedOnOK++
					} else {
						playedOn += float64(tc.maxRepeats * schedule)
					}
					// The baseline: the whole round robin again and again, each stored round kept.
					q = newMemQueue()
					q.model = model
					n := tc.maxRepeats
					for rounds := 1; rounds <= tc.maxRepeats; rounds++ {
						o, err := tournamentOf(b, "amazes", Spec{Rounds: rounds}, names...).Run(context.Background(), q)
						if err != nil {
							b.Fatal(err)
						}
						if separatedTop(o) {
							n = rounds
							repeatedOK++
							break
						}
					}
					repeated += float64(n * schedule)
				}
			}
			runs := float64(b.N * tc.fields)
			b.ReportMetric(playedOn/runs, "matches-until-separated")
			b.ReportMetric(repeated/runs, "matches-repeating")
			b.ReportMetric(repeated/playedOn, "ratio")
			b.ReportMetric(playedOnOK/runs, "separated-until-separated")
			b.ReportMetric(repeatedOK/runs, "separated-repeating")
		})
	}
}
