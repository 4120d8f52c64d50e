package rating

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ladderField plays a ladder's schedule among entrants of the given strengths (Elo points):
// each match seats entrants drawn at random, the first of each match the entrant with the
// fewest matches so far, so that counts stay close but opponents differ; the results are
// kept by pair, as the ladder keeps them.
func ladderField(r *rand.Rand, strength []float64, seats, matches int, play func(*rand.Rand, []float64) []float64) []PairRecord {
	n := len(strength)
	played := make([]int, n)
	rec := map[[2]int]*PairRecord{}
	s := make([]float64, seats)
	for range matches {
		first := 0
		for i := range n {
			if played[i] < played[first] {
				first = i
			}
		}
		group := []int{first}
		for len(group) < seats {
			e := r.IntN(n)
			dup := false
			for _, g := range group {
				dup = dup || g == e
			}
			if !dup {
				group = append(group, e)
			}
		}
		r.Shuffle(len(group), func(a, b int) { group[a], group[b] = group[b], group[a] })
		for k, e := range group {
			s[k] = strength[e]
			played[e]++
		}
		pts := play(r, s)
		for a := range group {
			for b := a + 1; b < len(group); b++ {
				i, j, pa, pb := group[a], group[b], pts[a], pts[b]
				if i > j {
					i, j, pa, pb = j, i, pb, pa
				}
				p := rec[[2]int{i, j}]
				if p == nil {
					p = &PairRecord{I: i, J: j}
					rec[[2]int{i, j}] = p
				}
				switch {
				case pa > pb:
					p.Won++
				case pa < pb:
					p.Lost++
				default:
					p.Drawn++
				}
			}
		}
	}
	out := make([]PairRecord, 0, len(rec))
	for _, p := range rec {
		out = append(out, *p)
	}
	return out
}

var ladderFields = []struct {
	name       string
	seats, per int // matches of each entrant
	play       func(*rand.Rand, []float64) []float64
}{
	{"two players, draws, 15 each", 2, 15, twoPlayer},
	{"two players, draws, 60 each", 2, 60, twoPlayer},
	{"four players, places, 15 each", 4, 15, fourPlayer},
	{"four players, places, 60 each", 4, 60, fourPlayer},
}

// Copies of one bot on a ladder are told apart at most as often as the confidence allows:
// every pair of a field of twelve copies.
func TestPairFitCopiesAreNotSeparated(t *testing.T) {
	t.Parallel()
	const runs, n = 1000, 12
	for _, tc := range ladderFields {
		r := rand.New(rand.NewPCG(5, uint64(tc.per*tc.seats)))
		strength := make([]float64, n)
		sep, pairs := 0, 0
		for range runs {
			f := SeparatePairs(n, tc.seats, ladderField(r, strength, tc.seats, n*tc.per/tc.seats, tc.play))
			for i := range n {
				for j := i + 1; j < n; j++ {
					pairs++
					if max(f.Confidence(i, j), f.Confidence(j, i)) > 0.95 {
						sep++
					}
				}
			}
		}
		rate := float64(sep) / float64(pairs)
		t.Logf("%s: copies separated at 95%% in %.4f of %d pairs", tc.name, rate, pairs)
		// The pairs of one run are not independent: the bound is that of the runs.
		if rate > rateBound(0.05, runs) {
			t.Errorf("%s: copies separated at 95%% in %.4f of the pairs, more than 5%%", tc.name, rate)
		}
	}
}

// The rank ranges hold each entrant's true place at least 95% of the time, entrants far apart
// are told apart, and the standard errors are what the fits' own spread is.
func TestPairFitRanges(t *testing.T) {
	t.Parallel()
	const runs = 1000
	strength := []float64{0, 0, 60, 120, 120, 200, 400, 400, 600, 600}
	n := len(strength)
	for _, tc := range ladderFields {
		r := rand.New(rand.NewPCG(7, uint64(tc.per*tc.seats)))
		covered, width, apart := make([]int, n), 0, 0
		var d, d2, se float64 // the fitted gap between entrants 0 and 9, and its standard error
		for range runs {
			f := SeparatePairs(n, tc.seats, ladderField(r, strength, tc.seats, n*tc.per/tc.seats, tc.play))
			rr := f.RankRanges(0.95)
			for i := range n {
				best, worst := 1, n
				for j := range n {
					if strength[j] > strength[i] {
						best++
					} else if strength[j] < strength[i] {
						worst--
					}
				}
				if rr[i][0] <= worst && rr[i][1] >= best {
					covered[i]++
				}
				width += rr[i][1] - rr[i][0] + 1
			}
			if f.Confidence(9, 0) > 0.95 {
				apart++
			}
			g := f.Strength[9] - f.Strength[0]
			d, d2, se = d+g, d2+g*g, se+f.GapSE(9, 0)
		}
		sd := math.Sqrt((d2 - d*d/runs) / (runs - 1))
		t.Logf("%s: covered %v of %d, mean width %.2f; 600 Elo apart separated in %d; gap's sd %.3f, mean SE %.3f",
			tc.name, covered, runs, float64(width)/float64(runs*n), apart, sd, se/runs)
		for i, c := range covered {
			if miss := 1 - float64(c)/runs; miss > rateBound(0.05, runs) {
				t.Errorf("%s: entrant %d (strength %v): its interval missed its true place in %.4f of the runs", tc.name, i, strength[i], miss)
			}
		}
		if tc.per >= 60 && apart < runs*9/10 {
			t.Errorf("%s: entrants 600 Elo apart separated in %d of %d runs; want 90%%", tc.name, apart, runs)
		}
		// At 15 matches a gap of 600 Elo is sometimes a clean sweep, which the fit takes for more.
		if ratio := se / runs / sd; ratio < 0.75 || ratio > 1.6 {
			t.Errorf("%s: the mean standard error of the gap is %.2f of its true spread; want 0.75 to 1.6", tc.name, ratio)
		}
	}
}

// A few results that all went one way are no certainty: bots that play the same every time
// swept each other twice, and nothing is separated yet; twenty sweeps each are.
func TestPairFitFewSweeps(t *testing.T) {
	for _, c := range []struct {
		each int
		sure bool
	}{{2, false}, {20, true}} {
		f := SeparatePairs(3, 2, []PairRecord{{I: 0, J: 1, Won: c.each}, {I: 1, J: 2, Won: c.each}, {I: 0, J: 2, Won: c.each}})
		if got := f.Confidence(0, 1) > 0.95 && f.Confidence(1, 2) > 0.95; got != c.sure {
			t.Errorf("%d sweeps each: confidences %.3f %.3f; want separated %v", c.each, f.Confidence(0, 1), f.Confidence(1, 2), c.sure)
		}
	}
}
