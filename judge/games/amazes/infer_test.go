package amazes

import (
	"math/rand/v2"
	"testing"
)

// infer applies each rule only where something it reads changed. The reference below applies
// every rule everywhere until nothing changes, as the page states them (and as infer did
// before it was made incremental): on random mazes and random walks, the two must know the
// same after every information stage.
func TestInferMatchesTheRulesAppliedEverywhere(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 7))
		m := generate(rng)
		var fast, ref knowledge
		p := m.starts[rng.IntN(2)]
		for turn := range 200 {
			look(m, p, &fast)
			look(m, p, &ref)
			fast.infer(m)
			refInfer(&ref, m)
			if fast.disc != ref.disc || fast.dead != ref.dead || fast.known != ref.known || fast.count != ref.count {
				t.Fatalf("seed %d, turn %d: infer and the rules applied everywhere disagree (%d and %d squares discovered)", seed, turn, fast.count, ref.count)
			}
			// A random move of a few steps, discovering the squares walked over, as a turn does.
			for range 1 + rng.IntN(6) {
				d := (p.dir + dir(rng.IntN(4))) & 3
				if !m.wallAt(p.sq, d) {
					p = place{neighbour(p.sq, d), d}
					fast.discover(p.sq)
					ref.discover(p.sq)
				}
			}
			// Now and then the player is somewhere else entirely (a capture's restart is not
			// a rule, but knowledge from far apart is what the outer-edge rules need).
			if rng.IntN(10) == 0 {
				p = place{rng.IntN(numSquares), dir(rng.IntN(4))}
			}
		}
	}
}

// refInfer is infer before it was incremental: every rule over the whole maze, until a round
// finds nothing.
func refInfer(k *knowledge, m *Maze) {
	for {
		c := refCorners(k, m)
		d := refDeadEnds(k, m)
		o := refOuterEdges(k, m)
		k.learnt = k.learnt[:0]
		if !c && !d && !o {
			return
		}
	}
}

func refCorners(k *knowledge, m *Maze) bool {
	changed := false
	for i := 1; i < size; i++ {
		for j := 1; j < size; j++ {
			open, unknown := 0, -1
			for _, e := range cornerEdges(i, j) {
				switch {
				case !k.known[e]:
					unknown = e
				case !m.wall[e]:
					open++
				}
			}
			if open == 3 && unknown >= 0 {
				changed = k.learn(unknown) || changed
			}
		}
	}
	return changed
}

func refDeadEnds(k *knowledge, m *Maze) bool {
	changed := false
	for s := 0; s < numSquares; s++ {
		if k.disc[s] {
			continue
		}
		n := 0
		for d := north; d <= west; d++ {
			e := edgeOf(s, d)
			if !k.known[e] {
				continue
			}
			if nb := neighbour(s, d); m.wall[e] || (nb >= 0 && k.dead[nb]) {
				n++
			}
		}
		if n < 3 {
			continue
		}
		k.discover(s)
		k.dead[s] = true
		for d := north; d <= west; d++ {
			k.learn(edgeOf(s, d))
		}
		changed = true
	}
	return changed
}

func refOuterEdges(k *knowledge, m *Maze) bool {
	changed := false
	var cols, rows [size]bool
	nc, nr := 0, 0
	for s := 0; s < numSquares; s++ {
		if r, c := s/size, s%size; (!rows[r] || !cols[c]) && k.exists(m, s) {
			if !rows[r] {
				rows[r] = true
				nr++
			}
			if !cols[c] {
				cols[c] = true
				nc++
			}
		}
	}
	left, right := func(x int) int { return vEdge(x, 0) }, func(x int) int { return vEdge(x, size) }
	top, bottom := func(x int) int { return hEdge(0, x) }, func(x int) int { return hEdge(size, x) }
	if nc == size {
		changed = k.learnLine(left) || changed
		changed = k.learnLine(right) || changed
	}
	if nr == size {
		changed = k.learnLine(top) || changed
		changed = k.learnLine(bottom) || changed
	}
	for _, pair := range [2][2]func(int) int{{left, right}, {top, bottom}} {
		for i := range 2 {
			if k.knowsLine(pair[i]) {
				changed = k.learnLine(pair[1-i]) || changed
			}
		}
	}
	return changed
}

// BenchmarkInfer is one player's information stages over a 300-turn random walk (a maze per
// iteration, made before the timer runs): the rules applied everywhere until nothing changes
// (the baseline, as before) against infer.
func BenchmarkInfer(b *testing.B) {
	for _, tc := range []struct {
		name  string
		infer func(*knowledge, *Maze)
	}{{"everywhere", refInfer}, {"incremental", (*knowledge).infer}} {
		b.Run(tc.name, func(b *testing.B) {
			var turns int
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				rng := rand.New(rand.NewPCG(uint64(i), 7))
				m := generate(rng)
				var k knowledge
				p := m.starts[0]
				b.StartTimer()
				for range 300 {
					look(m, p, &k)
					tc.infer(&k, m)
					for range 1 + rng.IntN(6) {
						if d := (p.dir + dir(rng.IntN(4))) & 3; !m.wallAt(p.sq, d) {
							p = place{neighbour(p.sq, d), d}
							k.discover(p.sq)
						}
					}
					turns++
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(turns), "us/turn")
		})
	}
}

// exists reports whether the player knows square s is part of the maze (what knowledge.exist
// records as it goes): discovered, or
// at the end of a known opening.
func (k *knowledge) exists(m *Maze, s int) bool {
	if k.disc[s] {
		return true
	}
	for d := north; d <= west; d++ {
		if e := edgeOf(s, d); k.known[e] && !m.wall[e] {
			return true
		}
	}
	return false
}
