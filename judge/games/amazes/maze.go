package amazes

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// The maze is a fixed 25 x 25 grid: the rules, the file layout and the outer-edge
// inference ("all 25 columns") all depend on that size.
const (
	size       = 25
	numSquares = size * size
	// Horizontal edges come first: 26 lines of 25 (line 0 is the top edge), then the
	// vertical edges: 25 rows of 26 (edge 0 of a row is its left edge). One array of
	// edges lets walls and a player's knowledge share an index.
	numHoriz = (size + 1) * size
	numEdges = numHoriz + size*(size+1)
	// minStartDist2 is the page's "at least √288" between the two starts, squared.
	minStartDist2 = 288
)

// dir is a compass direction; turning right adds 1.
type dir int

const (
	north dir = iota
	east
	south
	west
)

var (
	dirLetters = "NESW"
	dRow       = [4]int{-1, 0, 1, 0}
	dCol       = [4]int{0, 1, 0, -1}
)

func (d dir) right() dir     { return (d + 1) & 3 }
func (d dir) back() dir      { return (d + 2) & 3 }
func (d dir) left() dir      { return (d + 3) & 3 }
func (d dir) String() string { return dirLetters[d : d+1] }

// square returns the index of the square at row r, column c (0-based).
func square(r, c int) int { return r*size + c }

// hEdge is the horizontal edge on row line i (0 = top edge, 25 = bottom) at column c.
func hEdge(i, c int) int { return i*size + c }

// vEdge is the vertical edge in row r on column line j (0 = left edge, 25 = right).
func vEdge(r, j int) int { return numHoriz + r*(size+1) + j }

// edgeOf is the edge on side d of square s.
func edgeOf(s int, d dir) int {
	r, c := s/size, s%size
	switch d {
	case north:
		return hEdge(r, c)
	case south:
		return hEdge(r+1, c)
	case west:
		return vEdge(r, c)
	default:
		return vEdge(r, c+1)
	}
}

// neighbour is the square on side d of s, or -1 outside the maze.
func neighbour(s int, d dir) int {
	r, c := s/size+dRow[d], s%size+dCol[d]
	if r < 0 || r >= size || c < 0 || c >= size {
		return -1
	}
	return square(r, c)
}

// cornerEdges are the four edges meeting at the interior lattice corner (i, j),
// 1 <= i, j <= 24: up, down, left, right.
func cornerEdges(i, j int) [4]int {
	return [4]int{vEdge(i-1, j), vEdge(i, j), hEdge(i, j-1), hEdge(i, j)}
}

// place is a player's square and the direction it faces.
type place struct {
	sq  int
	dir dir
}

// Maze is an Amazes maze: the walls and the two start places (Red's, then Blue's).
type Maze struct {
	wall   [numEdges]bool
	starts [2]place
}

// wallAt reports a wall on side d of square s.
func (m *Maze) wallAt(s int, d dir) bool { return m.wall[edgeOf(s, d)] }

// String writes the maze in the layout of the maze option (CodeCup's maze files):
// the two starts as "row col dir" (1-based), then 51 lines of wall flags without
// separators, alternating 25 horizontal and 26 vertical flags.
func (m *Maze) String() string {
	var b strings.Builder
	for _, p := range m.starts {
		fmt.Fprintf(&b, "%d %d %s\n", p.sq/size+1, p.sq%size+1, p.dir)
	}
	flag := func(e int) {
		if m.wall[e] {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	for i := 0; i <= size; i++ {
		for c := 0; c < size; c++ {
			flag(hEdge(i, c))
		}
		b.WriteByte('\n')
		if i == size {
			break
		}
		for j := 0; j <= size; j++ {
			flag(vEdge(i, j))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// ParseMaze reads a maze in the layout String writes. Flags may be separated by
// spaces or not, blank lines are ignored, and the maze must be valid: outer edges
// walls, all squares connected, every interior corner touching a wall, two different
// starts with no wall directly behind them.
func ParseMaze(text string) (*Maze, error) {
	var lines []string
	var numbers []int // each kept line's number in the text, for messages
	for n, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
			numbers = append(numbers, n+1)
		}
	}
	const want = 2 + 2*size + 1
	if len(lines) != want {
		return nil, fmt.Errorf("a maze has %d non-blank lines (2 starts and 51 lines of walls), this one has %d", want, len(lines))
	}
	m := &Maze{}
	for p := 0; p < 2; p++ {
		f := strings.Fields(lines[p])
		if len(f) != 3 {
			return nil, fmt.Errorf("line %d: a start is \"row col dir\", got %q", numbers[p], lines[p])
		}
		r, err1 := strconv.Atoi(f[0])
		c, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil || r < 1 || r > size || c < 1 || c > size {
			return nil, fmt.Errorf("line %d: start row and column must be numbers 1..%d, got %q", numbers[p], size, lines[p])
		}
		d := strings.Index(dirLetters, strings.ToUpper(f[2]))
		if len(f[2]) != 1 || d < 0 {
			return nil, fmt.Errorf("line %d: start direction must be one of N E S W, got %q", numbers[p], f[2])
		}
		m.starts[p] = place{square(r-1, c-1), dir(d)}
	}
	for k := 0; k < 2*size+1; k++ {
		l := strings.Join(strings.Fields(lines[2+k]), "")
		n, kind := size, "horizontal"
		if k%2 == 1 {
			n, kind = size+1, "vertical"
		}
		if len(l) != n {
			return nil, fmt.Errorf("line %d: want %d %s wall flags, got %d", numbers[2+k], n, kind, len(l))
		}
		for x := 0; x < n; x++ {
			var e int
			if k%2 == 0 {
				e = hEdge(k/2, x)
			} else {
				e = vEdge(k/2, x)
			}
			switch l[x] {
			case '0':
			case '1':
				m.wall[e] = true
			default:
				return nil, fmt.Errorf("line %d: wall flags are 0 or 1, got %q", numbers[2+k], l[x])
			}
		}
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// validate checks what the players are promised about every maze, and the starts.
func (m *Maze) validate() error {
	for k := 0; k < size; k++ {
		if !m.wall[hEdge(0, k)] || !m.wall[hEdge(size, k)] || !m.wall[vEdge(k, 0)] || !m.wall[vEdge(k, size)] {
			return errors.New("the outer edges must all be walls")
		}
	}
	if n := m.reachable(0); n != numSquares {
		return fmt.Errorf("not all squares are connected: %d of %d reachable from the top left", n, numSquares)
	}
	for i := 1; i < size; i++ {
		for j := 1; j < size; j++ {
			if !m.cornerHasWall(i, j, -1) {
				return fmt.Errorf("the corner between rows %d and %d and columns %d and %d touches no wall", i, i+1, j, j+1)
			}
		}
	}
	for p, st := range m.starts {
		if m.wallAt(st.sq, st.dir.back()) {
			return fmt.Errorf("%s starts at %d %d %s with a wall directly behind it", playerName[p], st.sq/size+1, st.sq%size+1, st.dir)
		}
	}
	if m.starts[0].sq == m.starts[1].sq {
		return errors.New("the two players start on the same square")
	}
	return nil
}

var playerName = [2]string{"Red", "Blue"}

// reachable counts the squares connected to s.
func (m *Maze) reachable(s int) int {
	var seen [numSquares]bool
	seen[s] = true
	queue := []int{s}
	n := 1
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for d := north; d <= west; d++ {
			if nb := neighbour(q, d); nb >= 0 && !seen[nb] && !m.wallAt(q, d) {
				seen[nb] = true
				queue = append(queue, nb)
				n++
			}
		}
	}
	return n
}

// cornerHasWall reports whether the interior corner (i, j) touches a wall other than
// edge skip (-1: none).
func (m *Maze) cornerHasWall(i, j, skip int) bool {
	for _, e := range cornerEdges(i, j) {
		if e != skip && m.wall[e] {
			return true
		}
	}
	return false
}

// generate makes a random valid maze with loops and the two starts.
func generate(rng *rand.Rand) *Maze {
	m := &Maze{}
	for e := range m.wall {
		m.wall[e] = true
	}
	// A spanning tree by the growing-tree method: taking the newest cell half the time
	// gives long corridors (as depth-first search does), a random one the other half
	// gives branches and dead ends, which the discovery rules are about.
	var in [numSquares]bool
	start := rng.IntN(numSquares)
	in[start] = true
	active := []int{start}
	for len(active) > 0 {
		k := len(active) - 1
		if rng.IntN(2) == 0 {
			k = rng.IntN(len(active))
		}
		s := active[k]
		var free []dir
		for d := north; d <= west; d++ {
			if n := neighbour(s, d); n >= 0 && !in[n] {
				free = append(free, d)
			}
		}
		if len(free) == 0 {
			active = append(active[:k], active[k+1:]...)
			continue
		}
		d := free[rng.IntN(len(free))]
		n := neighbour(s, d)
		m.wall[edgeOf(s, d)] = false
		in[n] = true
		active = append(active, n)
	}
	// Loops: knock out interior walls whose two end corners keep another wall, so the
	// corner promise still holds. A tree never opens all four edges of a corner.
	var interior []int
	for i := 1; i < size; i++ {
		for c := 0; c < size; c++ {
			if e := hEdge(i, c); m.wall[e] {
				interior = append(interior, e)
			}
		}
	}
	for r := 0; r < size; r++ {
		for j := 1; j < size; j++ {
			if e := vEdge(r, j); m.wall[e] {
				interior = append(interior, e)
			}
		}
	}
	rng.Shuffle(len(interior), func(a, b int) { interior[a], interior[b] = interior[b], interior[a] })
	target := 30 + rng.IntN(41)
	for _, e := range interior {
		if target == 0 {
			break
		}
		if m.removable(e) {
			m.wall[e] = false
			target--
		}
	}
	// Starts: Red anywhere, Blue far enough away (from every square some square is at
	// least √288 away, the centre's corners exactly), each facing away from an opening.
	red := rng.IntN(numSquares)
	var far []int
	for s := 0; s < numSquares; s++ {
		if dist2(red, s) >= minStartDist2 {
			far = append(far, s)
		}
	}
	blue := far[rng.IntN(len(far))]
	for p, s := range [2]int{red, blue} {
		var ok []dir
		for d := north; d <= west; d++ {
			if !m.wallAt(s, d.back()) {
				ok = append(ok, d)
			}
		}
		m.starts[p] = place{s, ok[rng.IntN(len(ok))]}
	}
	return m
}

// removable reports whether interior wall e can go without leaving one of its two end
// corners without a wall. Corners on the outer edge always touch the outer walls.
func (m *Maze) removable(e int) bool {
	var ends [2][2]int // lattice corners (i, j)
	if e < numHoriz {
		i, c := e/size, e%size
		ends = [2][2]int{{i, c}, {i, c + 1}}
	} else {
		r, j := (e-numHoriz)/(size+1), (e-numHoriz)%(size+1)
		ends = [2][2]int{{r, j}, {r + 1, j}}
	}
	for _, p := range ends {
		if p[0] > 0 && p[0] < size && p[1] > 0 && p[1] < size && !m.cornerHasWall(p[0], p[1], e) {
			return false
		}
	}
	return true
}

// dist2 is the squared Euclidean distance between two squares.
func dist2(a, b int) int {
	dr, dc := a/size-b/size, a%size-b%size
	return dr*dr + dc*dc
}
