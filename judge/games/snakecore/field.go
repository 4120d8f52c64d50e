package snakecore

import (
	"errors"
	"math/rand/v2"
)

// wallCount is the number of walls of an n x n field with the given percentage, rounded.
func wallCount(n, percent int) int { return (n*n*percent + 50) / 100 }

// generate makes the field: walls (the open cells stay connected), reactors (obstacles that
// keep the open cells connected, each touching one), then 60 ordinary and 12 energy blocks
// and one head per player on random empty cells. The caller has checked that all fit.
func generate(rng *rand.Rand, n, wallPercent, players int) (*state, error) {
	s := &state{
		n:      n,
		ground: make([]byte, n*n),
		block:  make([]byte, n*n),
		owner:  make([]int, n*n),
		rng:    rng,
	}
	for c := range s.ground {
		s.ground[c] = chEmpty
		s.owner[c] = -1
	}
	if err := s.placeObstacles(chWall, wallCount(n, wallPercent)); err != nil {
		return nil, err
	}
	if err := s.placeObstacles(chReactor, numReactors); err != nil {
		return nil, err
	}
	free := s.emptyCells()
	rng.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	need := numOrdinary + numEnergy + players
	if len(free) < need {
		return nil, errors.New("snakecore: the field has no room for the blocks and pythons")
	}
	for i := range numOrdinary + numEnergy {
		kind := byte(chOrdinary)
		if i >= numOrdinary {
			kind = chEnergy
		}
		s.block[free[i]] = kind
	}
	for p := range players {
		c := free[numOrdinary+numEnergy+p]
		s.pythons = append(s.pythons, &python{head: c})
		s.owner[c] = p
	}
	return s, nil
}

// placeObstacles puts count cells of kind (wall or reactor) on random open cells. A cell is
// taken only when the open cells stay connected without it, and a reactor only next to an
// open cell, and never so that a reactor placed before is left without one. Candidates are
// tried once each, in a random order.
func (s *state) placeObstacles(kind byte, count int) error {
	cand := s.emptyCells()
	s.rng.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
	open := len(cand)
	for _, c := range cand {
		if count == 0 {
			return nil
		}
		if kind == chReactor && !s.touchesOpen(c) {
			continue
		}
		s.ground[c] = kind
		if !s.reactorsServed(c) || !s.locallyJoined(c) && !s.connected(open-1) {
			s.ground[c] = chEmpty
			continue
		}
		open--
		count--
	}
	if count > 0 {
		return errors.New("snakecore: cannot place the walls and reactors without cutting the field; use fewer walls")
	}
	return nil
}

// ring is the 8 cells around a cell, in order around it; the even ones are its 4-neighbours.
var ring = [8][2]int{{0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}}

// locallyJoined is a quick sufficient test that closing cell c keeps the open cells
// connected: its open 4-neighbours are joined to each other through open cells of the ring
// around it (all in one run of consecutive open ring cells). When it says no, the caller
// does the full flood fill.
func (s *state) locallyJoined(c int) bool {
	x, y := c%s.n, c/s.n
	openAt := func(k int) bool {
		nx, ny := x+ring[k%8][0], y+ring[k%8][1]
		return nx >= 0 && ny >= 0 && nx < s.n && ny < s.n && s.ground[ny*s.n+nx] == chEmpty
	}
	start := -1
	for k := range 8 {
		if !openAt(k) {
			start = k
			break
		}
	}
	if start < 0 {
		return true // all 8 open
	}
	runs := 0 // runs of open ring cells that hold a 4-neighbour
	counted := false
	for i := 1; i <= 8; i++ {
		k := (start + i) % 8
		if !openAt(k) {
			counted = false
			continue
		}
		if k%2 == 0 && !counted {
			runs++
			counted = true
		}
	}
	return runs <= 1
}

// reactorsServed reports whether every reactor next to c still touches an open cell.
func (s *state) reactorsServed(c int) bool {
	for _, d := range []byte{actUp, actLeft, actDown, actRight} {
		if t := s.step(c, d); t >= 0 && s.ground[t] == chReactor && !s.touchesOpen(t) {
			return false
		}
	}
	return true
}

func (s *state) touchesOpen(c int) bool {
	for _, d := range []byte{actUp, actLeft, actDown, actRight} {
		if t := s.step(c, d); t >= 0 && s.ground[t] == chEmpty {
			return true
		}
	}
	return false
}

// connected reports whether the open cells (neither wall nor reactor), of which there are
// open, form one 4-connected region.
func (s *state) connected(open int) bool {
	start := -1
	for c, g := range s.ground {
		if g == chEmpty {
			start = c
			break
		}
	}
	if start < 0 {
		return open == 0
	}
	seen := make([]bool, len(s.ground))
	seen[start] = true
	stack := []int{start}
	reached := 1
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range []byte{actUp, actLeft, actDown, actRight} {
			if t := s.step(c, d); t >= 0 && !seen[t] && s.ground[t] == chEmpty {
				seen[t] = true
				reached++
				stack = append(stack, t)
			}
		}
	}
	return reached == open
}

func (s *state) emptyCells() []int {
	var cells []int
	for c := range s.ground {
		if s.empty(c) {
			cells = append(cells, c)
		}
	}
	return cells
}
