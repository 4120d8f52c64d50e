package rating

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// round128 is a round of 128 entrants and 20,000 two-player matches: a round robin's 16,256
// and the start of another.
func round128() [][]Play {
	r := rand.New(rand.NewPCG(1, 128))
	f := field{seats: 2, rounds: 1, play: twoPlayer, strength: make([]float64, 128)}
	for i := range f.strength {
		f.strength[i] = 50 * r.NormFloat64()
	}
	sched := f.schedule()
	for len(sched) < 20000 {
		sched = append(sched, sched[len(sched)%16256])
	}
	return f.run(r, sched[:20000])
}

// BenchmarkSeparate128 is the doubt of a round of 128 entrants and 20,000 two-player matches
// (a round robin's 16,256 and more), ranks and every pair: BENCHMARKS.md's "under a second".
func BenchmarkSeparate128(b *testing.B) {
	ms := round128()
	b.ResetTimer()
	for range b.N {
		Separate(128, ms).RankRanges(0.95)
	}
}

// BenchmarkSPRT is the mean games judge compare's test plays to a verdict at true differences
// of 0, elo1/2, elo1 and twice elo1 (its defaults: elo0 0, elo1 50, 5% each way), counting
// pairs of games with the seats swapped (pentanomial) and games one by one (trinomial), against
// the games a test of fixed size needs for the same error rates (BENCHMARKS.md).
func BenchmarkSPRT(b *testing.B) {
	test := DefaultSPRT
	for _, elo := range []float64{0, test.Elo1 / 2, test.Elo1, 2 * test.Elo1} {
		b.Run(fmt.Sprint(elo), func(b *testing.B) {
			r := rand.New(rand.NewPCG(8, uint64(elo)))
			c := comparison{elo: elo, favour: 0.3}
			const runs = 2000
			var paired, single, wrongPaired float64
			for range b.N {
				for range runs {
					v, n := c.run(r, test, true, 5000)
					paired += float64(n)
					if v == Better && elo <= test.Elo0 || v == NotBetter && elo >= test.Elo1 {
						wrongPaired++
					}
					_, n = c.run(r, test, false, 5000)
					single += float64(n)
				}
			}
			total := float64(b.N * runs)
			s := EloScore((test.Elo0 + test.Elo1) / 2)
			b.ReportMetric(paired/total, "games-pentanomial")
			b.ReportMetric(single/total, "games-trinomial")
			b.ReportMetric(test.FixedSample(s*(1-s)-0.2/4), "games-fixed")
			b.ReportMetric(wrongPaired/total, "wrong-verdicts")
		})
	}
}

// BenchmarkBradleyTerry128 is the Bradley-Terry fit of the same round: the standings'
// ratings, the baseline of BenchmarkSeparate128.
func BenchmarkBradleyTerry128(b *testing.B) {
	var results []Result
	for _, m := range round128() {
		switch {
		case m[0].Points > m[1].Points:
			results = append(results, Result{Winner: m[0].Entrant, Loser: m[1].Entrant})
		case m[1].Points > m[0].Points:
			results = append(results, Result{Winner: m[1].Entrant, Loser: m[0].Entrant})
		default:
			results = append(results, Result{Winner: m[0].Entrant, Loser: m[1].Entrant, Draw: true})
		}
	}
	b.ResetTimer()
	for range b.N {
		FitBradleyTerry(128, results)
	}
}
