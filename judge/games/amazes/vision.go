package amazes

import "strings"

// knowledge is what one player has discovered, kept by the jury in absolute
// coordinates. The player itself does not know where it is; the rules that depend on
// that (the outer edges) are phrased so that the absolute view gives the same answer.
// Every edge known is known truly, so a known edge is a wall or an opening as the maze
// says.
type knowledge struct {
	disc  [numSquares]bool
	dead  [numSquares]bool // discovered by the dead-end rules
	known [numEdges]bool
	count int // squares discovered
	// fresh are the squares discovered since the match last scored them.
	fresh []int
	// news is set when anything is learnt or discovered, and cleared at infer's fixpoint:
	// the rules read nothing else, so without news infer would find nothing.
	news bool
}

func (k *knowledge) discover(s int) {
	if !k.disc[s] {
		k.disc[s] = true
		k.count++
		k.fresh = append(k.fresh, s)
		k.news = true
	}
}

// learn marks edge e known and reports whether that is news.
func (k *knowledge) learn(e int) bool {
	if k.known[e] {
		return false
	}
	k.known[e] = true
	k.news = true
	return true
}

// look is the information stage's first half: what the player at p sees in its four
// corridors. It returns the four corridor lines (ahead, right, behind, left) and, when
// k is not nil, records what was seen.
func look(m *Maze, p place, k *knowledge) [4]string {
	if k != nil {
		k.discover(p.sq)
	}
	var lines [4]string
	for i := range lines {
		lines[i] = corridor(m, p.sq, (p.dir+dir(i))&3, k)
	}
	return lines
}

// corridor describes the view from s towards d, one letter per square beyond s, and
// records the squares, the side walls and openings, the squares behind side openings
// and the end wall.
func corridor(m *Maze, s int, d dir, k *knowledge) string {
	var b strings.Builder
	for {
		e := edgeOf(s, d)
		if m.wall[e] {
			if k != nil {
				k.learn(e)
			}
			b.WriteByte('W')
			return b.String()
		}
		s = neighbour(s, d)
		if k != nil {
			k.learn(e)
			k.discover(s)
		}
		var open [2]bool // left, right of the way the player looks
		for i, side := range [2]dir{d.left(), d.right()} {
			se := edgeOf(s, side)
			open[i] = !m.wall[se]
			if k != nil {
				k.learn(se)
				if open[i] {
					k.discover(neighbour(s, side))
				}
			}
		}
		switch open {
		case [2]bool{true, true}:
			b.WriteByte('B')
		case [2]bool{true, false}:
			b.WriteByte('L')
		case [2]bool{false, true}:
			b.WriteByte('R')
		default:
			b.WriteByte('N')
		}
	}
}

// infer is the information stage's second half: the page's rules applied until none
// adds anything (at once, when nothing is new since the last time). Each rule only adds knowledge, and the dead-end rules only look at
// squares not discovered otherwise, so the order of the rules does not matter.
func (k *knowledge) infer(m *Maze) {
	for k.news {
		k.news = false
		c := k.corners(m)
		d := k.deadEnds(m)
		o := k.outerEdges(m)
		if !c && !d && !o {
			return
		}
	}
}

// corners: every interior corner touches a wall, so three openings make the fourth
// edge a wall. A corner on the outer edge cannot have three openings, so the player
// need not know where the outer edge is.
func (k *knowledge) corners(m *Maze) bool {
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

// deadEnds applies the four dead-end rules, which the page states for squares "not yet
// discovered": three known walls, or walls and known openings to dead-end squares
// adding up to three, make a dead end whose remaining edge is the way out. Since every
// dead end has exactly one way out, the opening from a dead end to a square that is
// not one is that way out, and the count is sound.
func (k *knowledge) deadEnds(m *Maze) bool {
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

// exists reports whether the player knows square s is part of the maze: discovered, or
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

// outerEdges: squares known in all 25 columns (rows) fix where the maze's left and
// right (top and bottom) edges are; a known outer edge of 25 walls fixes the opposite
// one, 25 squares away.
func (k *knowledge) outerEdges(m *Maze) bool {
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

func (k *knowledge) learnLine(edge func(int) int) bool {
	changed := false
	for x := 0; x < size; x++ {
		changed = k.learn(edge(x)) || changed
	}
	return changed
}

func (k *knowledge) knowsLine(edge func(int) int) bool {
	for x := 0; x < size; x++ {
		if !k.known[edge(x)] {
			return false
		}
	}
	return true
}
