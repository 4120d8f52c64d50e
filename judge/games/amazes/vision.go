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
	// learnt are the edges learnt since infer last ran: a rule can find something new only
	// next to them (or, for the outer edges, when a row or column is newly known to exist).
	learnt []int
	// rows and cols are those where the player knows a square exists (exists); nr and nc
	// count them.
	rows, cols [size]bool
	nr, nc     int
}

func (k *knowledge) discover(s int) {
	if !k.disc[s] {
		k.disc[s] = true
		k.count++
		k.fresh = append(k.fresh, s)
		k.exist(s)
	}
}

// exist records that square s is known to exist, in its row and column.
func (k *knowledge) exist(s int) {
	if r := s / size; !k.rows[r] {
		k.rows[r] = true
		k.nr++
	}
	if c := s % size; !k.cols[c] {
		k.cols[c] = true
		k.nc++
	}
}

// learn marks edge e known and reports whether that is news.
func (k *knowledge) learn(e int) bool {
	if k.known[e] {
		return false
	}
	k.known[e] = true
	k.learnt = append(k.learnt, e)
	return true
}

// edgeSquares are the squares on either side of each edge (-1 beyond the maze), and
// edgeCorners the interior corners each edge meets, as cornerEdges gives them.
var (
	edgeSquares [numEdges][2]int
	edgeCorners [numEdges][][4]int
)

func init() {
	for e := range edgeSquares {
		edgeSquares[e] = [2]int{-1, -1}
	}
	for s := 0; s < numSquares; s++ {
		for d := north; d <= west; d++ {
			e := edgeOf(s, d)
			edgeSquares[e][sideOf(d)] = s
		}
	}
	for i := 1; i < size; i++ {
		for j := 1; j < size; j++ {
			c := cornerEdges(i, j)
			for _, e := range c {
				edgeCorners[e] = append(edgeCorners[e], c)
			}
		}
	}
}

// sideOf is which of an edge's two squares sees it on side d: the square above or left
// of the edge first.
func sideOf(d dir) int {
	if d == north || d == west {
		return 1
	}
	return 0
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
// adds anything. Each rule only adds knowledge, and the dead-end rules only look at squares
// not discovered otherwise, so the order of the rules does not matter: each is applied where
// something it reads has changed since infer last ran, which finds what applying every rule
// everywhere until nothing changes would.
func (k *knowledge) infer(m *Maze) {
	for {
		for len(k.learnt) > 0 {
			e := k.learnt[len(k.learnt)-1]
			k.learnt = k.learnt[:len(k.learnt)-1]
			sq := edgeSquares[e]
			if !m.wall[e] {
				for _, s := range sq {
					if s >= 0 {
						k.exist(s)
					}
				}
			}
			for _, c := range edgeCorners[e] {
				k.corner(m, c)
			}
			for _, s := range sq {
				if s >= 0 {
					k.deadEnd(m, s)
				}
			}
		}
		if k.outerEdges(); len(k.learnt) == 0 {
			return
		}
	}
}

// corner: every interior corner touches a wall, so three openings make the fourth edge a
// wall. A corner on the outer edge cannot have three openings, so the player need not know
// where the outer edge is.
func (k *knowledge) corner(m *Maze, edges [4]int) {
	open, unknown := 0, -1
	for _, e := range edges {
		switch {
		case !k.known[e]:
			unknown = e
		case !m.wall[e]:
			open++
		}
	}
	if open == 3 && unknown >= 0 {
		k.learn(unknown)
	}
}

// deadEnd applies the four dead-end rules to s, which the page states for squares "not yet
// discovered": three known walls, or walls and known openings to dead-end squares adding up
// to three, make a dead end whose remaining edge is the way out. Since every dead end has
// exactly one way out, the opening from a dead end to a square that is not one is that way
// out, and the count is sound. A new dead end is a new reason for each of its neighbours.
func (k *knowledge) deadEnd(m *Maze, s int) {
	if k.disc[s] {
		return
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
		return
	}
	k.discover(s)
	k.dead[s] = true
	for d := north; d <= west; d++ {
		k.learn(edgeOf(s, d))
	}
	for d := north; d <= west; d++ {
		if nb := neighbour(s, d); nb >= 0 {
			k.deadEnd(m, nb)
		}
	}
}

// outerEdges: squares known to exist in all 25 columns (rows) fix where the maze's left and
// right (top and bottom) edges are; a known outer edge of 25 walls fixes the opposite one, 25
// squares away.
func (k *knowledge) outerEdges() {
	left, right := func(x int) int { return vEdge(x, 0) }, func(x int) int { return vEdge(x, size) }
	top, bottom := func(x int) int { return hEdge(0, x) }, func(x int) int { return hEdge(size, x) }
	if k.nc == size {
		k.learnLine(left)
		k.learnLine(right)
	}
	if k.nr == size {
		k.learnLine(top)
		k.learnLine(bottom)
	}
	for _, pair := range [2][2]func(int) int{{left, right}, {top, bottom}} {
		for i := range 2 {
			if k.knowsLine(pair[i]) {
				k.learnLine(pair[1-i])
			}
		}
	}
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
