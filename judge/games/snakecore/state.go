package snakecore

import (
	"math/rand/v2"
	"slices"
	"strconv"
)

// Cell characters of the field as the players see it.
const (
	chWall     = 'W'
	chReactor  = 'R'
	chOrdinary = 'b'
	chEnergy   = 'e'
	chHead     = 'p'
	chEmpty    = '.'
)

// The actions a player may answer.
const (
	actUp      = 'U'
	actLeft    = 'L'
	actDown    = 'D'
	actRight   = 'R'
	actNone    = 'N'
	actProtect = 'A'
)

// part is one block of a python's body: where it lies and its kind (chOrdinary or chEnergy).
type part struct {
	at   int
	kind byte
}

// python is one player's python. body[0] is the block right behind the head; the last
// block is the tail.
type python struct {
	head  int
	body  []part
	prot  int
	score int
}

// state is the field and the pythons. Cells are numbered y*n+x.
type state struct {
	n int
	// ground is chWall, chReactor or chEmpty per cell.
	ground []byte
	// block is the kind of the block on a cell (free or in a body), or 0.
	block []byte
	// owner is the python whose head or body is on a cell, or -1.
	owner   []int
	pythons []*python
	rng     *rand.Rand
	free    []int // respawn's list of free cells, kept between calls
}

// outcome says what a move did, for tests and debugging.
type outcome string

const (
	skipped   outcome = "skip"
	moved     outcome = "move"
	grew      outcome = "grow"
	attacked  outcome = "attack"
	delivered outcome = "deliver"
	protected outcome = "protect"
)

func (s *state) point(c int) Point { return Point{X: c % s.n, Y: c / s.n} }

// step is the cell next to c in direction d, or -1 off the field.
func (s *state) step(c int, d byte) int {
	x, y := c%s.n, c/s.n
	switch d {
	case actUp:
		y--
	case actDown:
		y++
	case actLeft:
		x--
	case actRight:
		x++
	default:
		return -1
	}
	if x < 0 || y < 0 || x >= s.n || y >= s.n {
		return -1
	}
	return y*s.n + x
}

// empty reports a cell with nothing on it: no wall, reactor, block or head.
func (s *state) empty(c int) bool {
	return s.ground[c] == chEmpty && s.block[c] == 0 && s.owner[c] < 0
}

// index is the position of cell c in python p's body, or -1.
func (p *python) index(c int) int {
	for i, b := range p.body {
		if b.at == c {
			return i
		}
	}
	return -1
}

// begin starts player p's move: its protection counter, if running, drops by one. The
// counter is the number of own moves, this one included, that the protection still covers:
// `A` adds 10, so the activating move and the next nine are protected, and the protection
// ends just before the eleventh (the page). A python is protected while its counter is
// above 0, which is what every request shows.
func (s *state) begin(p int) {
	if py := s.pythons[p]; py.prot > 0 {
		py.prot--
	}
}

// act is a whole move of player p: begin, then the action a.
func (s *state) act(p int, a byte) outcome {
	s.begin(p)
	return s.apply(p, a)
}

// apply performs player p's action a (its move has begun).
func (s *state) apply(p int, a byte) outcome {
	py := s.pythons[p]
	switch a {
	case actProtect:
		return s.protect(py)
	case actUp, actLeft, actDown, actRight:
	default:
		return skipped
	}
	t := s.step(py.head, a)
	if t < 0 {
		return skipped
	}
	switch {
	case s.ground[t] == chWall:
		return skipped
	case s.ground[t] == chReactor:
		return s.deliver(py)
	case s.owner[t] >= 0:
		q := s.pythons[s.owner[t]]
		i := q.index(t)
		switch {
		case i < 0: // a head: never entered
			return skipped
		case q == py && i == len(py.body)-1:
			// The page: the own tail runs away before it is attacked.
			s.move(py, t)
			return moved
		case i == len(q.body)-1 || q.prot > 0:
			return skipped
		}
		s.bite(py, q, i)
		return attacked
	case s.block[t] != 0:
		kind := s.block[t]
		s.block[t] = 0
		s.grow(py, t, kind)
		return grew
	}
	s.move(py, t)
	return moved
}

// move steps the head to t (empty, or the own tail's cell) and pulls the body after it.
func (s *state) move(py *python, t int) {
	id := s.owner[py.head]
	s.lift(py)
	prev := py.head
	py.head = t
	for i := range py.body {
		py.body[i].at, prev = prev, py.body[i].at
	}
	s.put(py, id)
}

// grow steps the head to t and puts a block of the kind on the head's old cell, right
// behind the head; the rest of the body stays.
func (s *state) grow(py *python, t int, kind byte) {
	old := py.head
	py.head = t
	py.body = append(py.body, part{})
	copy(py.body[1:], py.body)
	py.body[0] = part{at: old, kind: kind}
	s.owner[t] = s.owner[old]
	s.block[old] = kind
}

// bite is py's attack on block i of q's body (q may be py): the blocks after it become
// free where they lie, the attacked block joins py like a free block. An attack on another
// python scores the blocks q loses; a self-attack scores nothing (docs/games/snakecore.md).
func (s *state) bite(py, q *python, i int) {
	t := q.body[i].at
	kind := q.body[i].kind
	for _, b := range q.body[i+1:] {
		s.owner[b.at] = -1
	}
	if q != py {
		py.score += len(q.body) - i
	}
	q.body = q.body[:i:i] // a fresh array on the next append: the freed parts are not shared
	s.owner[t], s.block[t] = -1, 0
	s.grow(py, t, kind)
}

// deliver drops the whole body into a reactor for n(n+1)/2 points; the head stays. The
// blocks reappear on random empty cells, head end first.
func (s *state) deliver(py *python) outcome {
	n := len(py.body)
	if n == 0 {
		return skipped
	}
	py.score += n * (n + 1) / 2
	body := py.body
	py.body = nil
	for _, b := range body {
		s.owner[b.at], s.block[b.at] = -1, 0
	}
	for _, b := range body {
		s.respawn(b.kind)
	}
	return delivered
}

// protect spends the energy block nearest the head for 10 moves of protection: the blocks
// behind it close the gap, each moving to its predecessor's cell, and the energy block
// reappears on a random empty cell. With no energy block it is a skip.
func (s *state) protect(py *python) outcome {
	i := -1
	for k, b := range py.body {
		if b.kind == chEnergy {
			i = k
			break
		}
	}
	if i < 0 {
		return skipped
	}
	last := len(py.body) - 1
	for k := i; k < last; k++ {
		py.body[k].kind = py.body[k+1].kind
		s.block[py.body[k].at] = py.body[k].kind
	}
	end := py.body[last].at
	s.owner[end], s.block[end] = -1, 0
	py.body = py.body[:last]
	py.prot += protectPerUse
	s.respawn(chEnergy)
	return protected
}

// respawn puts a free block on a uniformly random empty cell. There always is one: the
// block came off the field this move and left its cell empty.
func (s *state) respawn(kind byte) {
	free := s.free[:0]
	for c := range s.ground {
		if s.empty(c) {
			free = append(free, c)
		}
	}
	s.free = free
	if len(free) == 0 {
		return // cannot happen (see above); losing a block beats a panic
	}
	s.block[free[s.rng.IntN(len(free))]] = kind
}

// lift takes a python's cells off the owner map; put marks them again for player id.
func (s *state) lift(py *python) {
	s.owner[py.head] = -1
	for _, b := range py.body {
		s.owner[b.at], s.block[b.at] = -1, 0
	}
}

func (s *state) put(py *python, id int) {
	s.owner[py.head] = id
	for _, b := range py.body {
		s.owner[b.at], s.block[b.at] = id, b.kind
	}
}

// rows is the field as a request shows it: one string per row, top first.
func (s *state) rows() []string {
	field := s.appendField(nil)
	rows := make([]string, s.n)
	for y := range rows {
		rows[y] = string(field[y*(s.n+1) : y*(s.n+1)+s.n])
	}
	return rows
}

// char is the character of cell c as a request shows it.
func (s *state) char(c int) byte {
	switch {
	case s.ground[c] != chEmpty:
		return s.ground[c]
	case s.owner[c] >= 0 && s.pythons[s.owner[c]].head == c:
		return chHead
	case s.block[c] != 0:
		return s.block[c]
	}
	return chEmpty
}

// appendField appends the field's n lines, each ended by "\n".
func (s *state) appendField(buf []byte) []byte {
	start, n := len(buf), s.n
	buf = slices.Grow(buf, n*(n+1))[:start+n*(n+1)]
	out := buf[start:]
	for y := range n {
		row := out[y*(n+1) : (y+1)*(n+1)]
		ground, block := s.ground[y*n:(y+1)*n], s.block[y*n:(y+1)*n]
		for x, g := range ground {
			if g == chEmpty && block[x] != 0 {
				g = block[x]
			}
			row[x] = g
		}
		row[n] = '\n'
	}
	for _, py := range s.pythons {
		out[py.head/n*(n+1)+py.head%n] = chHead
	}
	return buf
}

// request is the getAction request for player p: the field, then p's python, then the
// others in ascending id.
func (s *state) request(p int) string {
	buf := make([]byte, 0, 16+s.n*(s.n+1)+len(s.pythons)*(8+12*(numOrdinary+numEnergy)/4))
	buf = append(buf, reqAction...)
	buf = strconv.AppendInt(buf, int64(s.n), 10)
	buf = append(buf, '\n')
	buf = s.appendField(buf)
	buf = s.appendPython(buf, s.pythons[p])
	for q, py := range s.pythons {
		if q != p {
			buf = s.appendPython(buf, py)
		}
	}
	return string(buf)
}

// appendPython appends a python's line: protection, length, then x y from head to tail.
func (s *state) appendPython(buf []byte, py *python) []byte {
	buf = strconv.AppendInt(buf, int64(py.prot), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(len(py.body)+1), 10)
	buf = s.appendCell(buf, py.head)
	for _, b := range py.body {
		buf = s.appendCell(buf, b.at)
	}
	return append(buf, '\n')
}

func (s *state) appendCell(buf []byte, c int) []byte {
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(c%s.n), 10)
	buf = append(buf, ' ')
	return strconv.AppendInt(buf, int64(c/s.n), 10)
}

// blocks counts the blocks on the field, free and in bodies, by kind.
func (s *state) blocks() (ordinary, energy int) {
	for _, k := range s.block {
		switch k {
		case chOrdinary:
			ordinary++
		case chEnergy:
			energy++
		}
	}
	return
}
