package rating

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// A simulated field: entrants of known strength, a round robin of them, each match's points
// by a standing rule. The truth is the order of the strengths: in a complete round robin an
// entrant's expected total grows with its strength, and copies' are equal.

// field plays a round robin among entrants of the given strengths (Elo points) and returns
// its matches, each seat's points by the rule.
type field struct {
	strength []float64
	seats    int
	rounds   int
	// play gives a match's seats their points.
	play func(r *rand.Rand, strength []float64) []float64
}

// twoPlayer is a match of two with draws: a latent performance difference (400 Elo points a
// unit of 1/log10... an ordered probit), a draw when it is small; 3, 1 and 0 points, as the
// JavaChallenge scored a two-player match, so the points of a match are not constant.
func twoPlayer(r *rand.Rand, s []float64) []float64 {
	z := (s[0]-s[1])/200 + r.NormFloat64() + 0.1 // seat 0 moves first: a little ahead
	switch {
	case z > 0.4:
		return []float64{3, 0}
	case z < -0.4:
		return []float64{0, 3}
	}
	return []float64{1, 1}
}

// fourPlayer is a match of four by places: each seat's performance is its strength and a
// Gumbel draw (a Plackett-Luce race), places give 3, 2, 1 and 0 points.
func fourPlayer(r *rand.Rand, s []float64) []float64 {
	perf := make([]float64, len(s))
	for k := range s {
		perf[k] = s[k]/200 - math.Log(-math.Log(r.Float64()))
	}
	order := make([]int, len(s))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return cmpF(perf[b], perf[a]) })
	pts := make([]float64, len(s))
	for place, k := range order {
		pts[k] = float64(3 - place)
	}
	return pts
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// schedule is every group of f.seats entrants each round, seats rotated by the group's
// index and round (for two, both orders of every pair).
func (f field) schedule() [][]int {
	n := len(f.strength)
	var groups [][]int
	var rec func(start int, g []int)
	rec = func(start int, g []int) {
		if len(g) == f.seats {
			groups = append(groups, slices.Clone(g))
			return
		}
		for e := start; e < n; e++ {
			rec(e+1, append(g, e))
		}
	}
	rec(0, nil)
	var out [][]int
	for round := range f.rounds {
		for gi, g := range groups {
			if f.seats == 2 {
				out = append(out, []int{g[0], g[1]}, []int{g[1], g[0]})
				continue
			}
			rot := make([]int, len(g))
			for k := range g {
				rot[k] = g[(k+gi+round)%len(g)]
			}
			out = append(out, rot)
		}
	}
	return out
}

func (f field) run(r *rand.Rand, sched [][]int) [][]Play {
	ms := make([][]Play, len(sched))
	s := make([]float64, f.seats)
	for i, seats := range sched {
		for k, e := range seats {
			s[k] = f.strength[e]
		}
		pts := f.play(r, s)
		ms[i] = make([]Play, len(seats))
		for k, e := range seats {
			ms[i][k] = Play{Entrant: e, Points: pts[k]}
		}
	}
	return ms
}

// order is the entrants by total, best first (ties by index).
func order(s Separation, n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	slices.SortStableFunc(o, func(a, b int) int { return cmpF(s.Total(b), s.Total(a)) })
	return o
}

// rateBound is the most a rate measured over runs trials may exceed its promise p before the
// test calls it broken: three standard errors of the simulation.
func rateBound(p float64, runs int) float64 { return p + 3*math.Sqrt(p*(1-p)/float64(runs)) }

// simRuns are the simulated rounds of each calibration check: 2,000 in make test; under -short
// (the quick loop without Docker) 500, the bounds widening with the simulation's own error
// (rateBound), so that the check stays honest and takes a quarter of the time.
func simRuns() int {
	if testing.Short() {
		return 500
	}
	return 2000
}

var fields = []struct {
	name string
	f    field
}{
	{"two players, draws, 8", field{seats: 2, rounds: 1, play: twoPlayer}},
	{"two players, draws, 6, 3 rounds", field{seats: 2, rounds: 3, play: twoPlayer}},
	{"four players, places, 8", field{seats: 4, rounds: 1, play: fourPlayer}},
	{"four players, places, 6, 2 rounds", field{seats: 4, rounds: 2, play: fourPlayer}},
}

// Copies of one bot are shown as separated at most as often as the confidence allows: in a
// field of copies every pair the table shows side by side, and two copies in a field of
// others.
func TestCopiesAreNotSeparated(t *testing.T) {
	t.Parallel() // simulations of seconds each: the package runs them side by side
	const level = 0.95
	for _, tc := range fields {
		t.Run(tc.name, func(t *testing.T) {
			n := 8
			if tc.f.rounds > 1 {
				n = 6
			}
			r := rand.New(rand.NewPCG(1, uint64(len(tc.name))))
			copies := tc.f
			copies.strength = make([]float64, n)
			sched := copies.schedule()
			var pairs, separated int
			for range simRuns() {
				s := Separate(n, copies.run(r, sched))
				o := order(s, n)
				for k := 0; k+1 < n; k++ {
					pairs++
					if s.Confidence(o[k], o[k+1]) > level {
						separated++
					}
				}
			}
			rate := float64(separated) / float64(pairs)
			t.Logf("adjacent copies separated at %.0f%%: %.4f of %d pairs", 100*level, rate, pairs)
			if rate > rateBound(1-level, simRuns()) {
				t.Errorf("adjacent copies separated in %.4f of the pairs, more than %.2f allows", rate, 1-level)
			}

			// Two copies (0 and 1) among entrants of other strengths.
			mixed := tc.f
			mixed.strength = []float64{100, 100, 0, 250, -150, 40, 400, -300}[:n]
			sched = mixed.schedule()
			separated = 0
			for range simRuns() {
				s := Separate(n, mixed.run(r, sched))
				if max(s.Confidence(0, 1), s.Confidence(1, 0)) > level {
					separated++
				}
			}
			rate = float64(separated) / float64(simRuns())
			t.Logf("two copies in a mixed field separated: %.4f of %d rounds", rate, simRuns())
			if rate > rateBound(1-level, simRuns()) {
				t.Errorf("two copies separated in %.4f of the rounds, more than %.2f allows", rate, 1-level)
			}
		})
	}
}

// Entrants of clearly different strength are separated, and a bot that loses every match
// is separated from everyone.
func TestClearDifferencesAreSeparated(t *testing.T) {
	t.Parallel() // simulations of seconds each: the package runs them side by side
	const level = 0.95
	for _, tc := range fields {
		t.Run(tc.name, func(t *testing.T) {
			n := 8
			if tc.f.rounds > 1 {
				n = 6
			}
			// A ladder of strengths 250 Elo apart, played often enough to tell them apart: a
			// two-player round robin of eight meets each pair twice, and its neighbours
			// differ only there and against the others, which both mostly beat or lose to.
			f := tc.f
			f.rounds *= 3
			if f.seats == 2 && f.rounds == 3 {
				f.rounds = 8
			}
			f.strength = make([]float64, n)
			for i := range f.strength {
				f.strength[i] = float64(-250 * i)
			}
			r := rand.New(rand.NewPCG(2, uint64(len(tc.name))))
			sched := f.schedule()
			top := 0
			for range simRuns() / 4 {
				s := Separate(n, f.run(r, sched))
				if s.Confidence(0, 1) > level && s.Confidence(1, 2) > level {
					top++
				}
			}
			// A broken bot in a field of bots that each win and lose, in twice the round.
			f = tc.f
			f.rounds *= 2
			f.strength = make([]float64, n)
			for i := range f.strength {
				f.strength[i] = float64(40 * i)
			}
			f.strength[n-1] = -1e6
			sched = f.schedule()
			broken := 0
			for range simRuns() / 4 {
				s := Separate(n, f.run(r, sched))
				ok := s.RankRanges(level)[n-1] == [2]int{n, n}
				for e := 0; e < n-1; e++ {
					ok = ok && s.Confidence(e, n-1) > level
				}
				if ok {
					broken++
				}
			}
			t.Logf("the top three of a ladder 250 Elo apart separated in %d of %d; a broken bot from all, ranked [%d, %d], in %d", top, simRuns()/4, n, n, broken)
			if float64(top) < 0.9*float64(simRuns()/4) {
				t.Errorf("entrants 250 Elo apart separated in only %d of %d rounds", top, simRuns()/4)
			}
			if float64(broken) < 0.99*float64(simRuns()/4) {
				t.Errorf("a bot that never wins separated from every other in only %d of %d rounds", broken, simRuns()/4)
			}
		})
	}
}

// The rank intervals hold a place each entrant could truly hold at least as often as they
// say.
func TestRankRangesCoverTheTrueRank(t *testing.T) {
	t.Parallel() // simulations of seconds each: the package runs them side by side
	const level = 0.95
	for _, tc := range fields {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.f
			f.strength = []float64{0, 0, 60, 120, 120, 200, 400, 400}
			if f.rounds > 1 {
				f.strength = []float64{0, 40, 40, 100, 220, 220}
			}
			n := len(f.strength)
			r := rand.New(rand.NewPCG(3, uint64(len(tc.name))))
			sched := f.schedule()
			covered, width := make([]int, n), 0
			for range simRuns() {
				rr := Separate(n, f.run(r, sched)).RankRanges(level)
				for i := range n {
					best, worst := 1, n
					for j := range n {
						if f.strength[j] > f.strength[i] {
							best++
						} else if f.strength[j] < f.strength[i] {
							worst--
						}
					}
					if rr[i][0] <= worst && rr[i][1] >= best {
						covered[i]++
					}
					width += rr[i][1] - rr[i][0] + 1
				}
			}
			t.Logf("covered %v of %d; mean width %.2f places", covered, simRuns(), float64(width)/float64(simRuns()*n))
			for i, c := range covered {
				if miss := 1 - float64(c)/float64(simRuns()); miss > rateBound(1-level, simRuns()) {
					t.Errorf("entrant %d (strength %v): its interval missed its true place in %.4f of the rounds, more than %.2f", i, f.strength[i], miss, 1-level)
				}
			}
		})
	}
}

// Too little play says nothing: one match of four entrants ranks them as a band.
func TestOneMatchIsABand(t *testing.T) {
	s := Separate(4, [][]Play{{{0, 3}, {1, 2}, {2, 1}, {3, 0}}})
	for i, rr := range s.RankRanges(0.95) {
		if rr != [2]int{1, 4} {
			t.Errorf("entrant %d ranked %v after one match, want [1 4]", i, rr)
		}
	}
	if c := s.Confidence(0, 1); c != 0 {
		t.Errorf("one match: confidence %v that its winner stands above its second", c)
	}
}

// A bot last in every match of a round of four, the others sharing first place (Lang Wars'
// sample bots, with a broken one): the round knows that bot is last.
func TestALastInEveryMatchIsLast(t *testing.T) {
	f := field{seats: 4, rounds: 1, strength: make([]float64, 6)}
	var ms [][]Play
	for _, g := range f.schedule() {
		m := make([]Play, len(g))
		points := 1.5 // four share first: (3+2+1+0)/4
		if slices.Contains(g, 5) {
			points = 2 // three share first: (3+2+1)/3
		}
		for k, e := range g {
			m[k] = Play{Entrant: e, Points: points}
			if e == 5 {
				m[k].Points = 0
			}
		}
		ms = append(ms, m)
	}
	s := Separate(6, ms)
	rr := s.RankRanges(0.95)
	for e := range 5 {
		if rr[e] != [2]int{1, 5} || s.Confidence(e, 5) < 0.99 {
			t.Errorf("entrant %d: places %v, confidence %.4f above the last; want [1 5] and above 0.99", e, rr[e], s.Confidence(e, 5))
		}
	}
	if rr[5] != [2]int{6, 6} {
		t.Errorf("the last in every match could hold the places %v, want [6 6]", rr[5])
	}
}
