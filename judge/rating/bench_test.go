package rating

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkSeparate128 is the doubt of a round of 128 entrants and 20,000 two-player matches
// (a round robin's 16,256 and more), ranks and every pair: BENCHMARKS.md's "under a second".
func BenchmarkSeparate128(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 128))
	f := field{seats: 2, rounds: 1, play: twoPlayer, strength: make([]float64, 128)}
	for i := range f.strength {
		f.strength[i] = 50 * r.NormFloat64()
	}
	sched := f.schedule()
	for len(sched) < 20000 {
		sched = append(sched, sched[len(sched)%16256])
	}
	ms := f.run(r, sched[:20000])
	b.ResetTimer()
	for range b.N {
		Separate(128, ms).RankRanges(0.95)
	}
}
