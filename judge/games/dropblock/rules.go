package dropblock

import "math/rand/v2"

// The page's numbers.
const (
	numPlayers = 4
	size       = 18 // squares a side
	blockSide  = 3  // squares a block side
	blocks     = size / blockSide
	// fallDelay is the turns per block of distance before an attacked block falls.
	fallDelay = 4
	// downTurns is how long a fallen block stays down.
	downTurns = 20
	// attackWait is the wait an attack sets; the attacker's own turn takes 1 off at once.
	attackWait = 3
	// keepAway: a move may not end within this Manhattan distance of a living player, and
	// the start places are farther apart than this.
	keepAway = 3
)

// Directions, in the page's order.
const (
	up = iota
	right
	down
	left
)

const dirLetters = "URDL"

var (
	dRow = [4]int{-1, 0, 1, 0}
	dCol = [4]int{0, 1, 0, -1}
)

// player is one player on (or off) the board.
type player struct {
	row, col, dir int
	// wait is S: the player's own turns left before it may act again.
	wait int
	// fell is the global turn the player fell in, or -1 while it is on the board.
	fell int
}

func (p *player) alive() bool { return p.fell < 0 }

// state is the board: the blocks' counters and the players. A counter is 0 for a standing
// block, positive for a block that falls when it counts down to 0, negative for a fallen
// block that is restored when it counts up to 0.
type state struct {
	blocks  [blocks][blocks]int
	players [numPlayers]player
}

// place puts the players on the board in id order, each uniformly among the squares farther
// than keepAway from those placed before, facing a random direction.
func place(rng *rand.Rand) [numPlayers]player {
	var ps [numPlayers]player
	free := make([]int, 0, size*size)
	for i := range ps {
		free = free[:0]
		for sq := 0; sq < size*size; sq++ {
			r, c := sq/size, sq%size
			ok := true
			for _, q := range ps[:i] {
				if dist(r, c, q.row, q.col) <= keepAway {
					ok = false
					break
				}
			}
			if ok {
				free = append(free, sq)
			}
		}
		sq := free[rng.IntN(len(free))]
		ps[i] = player{row: sq / size, col: sq % size, dir: rng.IntN(4), fell: -1}
	}
	return ps
}

func dist(r1, c1, r2, c2 int) int { return abs(r1-r2) + abs(c1-c2) }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func onBoard(r, c int) bool { return r >= 0 && r < size && c >= 0 && c < size }

// act applies player i's action (one of U R D L A N): an action while the wait is positive
// is N. The wait then drops by one.
func (s *state) act(i int, action byte) {
	p := &s.players[i]
	if p.wait > 0 {
		action = 'N'
	}
	switch action {
	case 'U':
		s.move(i, up)
	case 'R':
		s.move(i, right)
	case 'D':
		s.move(i, down)
	case 'L':
		s.move(i, left)
	case 'A':
		s.attack(i)
	}
	if p.wait > 0 {
		p.wait--
	}
}

// move turns player i to d and steps it there unless the square is off the board, on a
// fallen block, or within keepAway of a living player. A block that is about to fall can be
// walked on.
func (s *state) move(i, d int) {
	p := &s.players[i]
	p.dir = d
	r, c := p.row+dRow[d], p.col+dCol[d]
	if !onBoard(r, c) || s.blocks[r/blockSide][c/blockSide] < 0 {
		return
	}
	for j := range s.players {
		q := &s.players[j]
		if j != i && q.alive() && dist(r, c, q.row, q.col) <= keepAway {
			return
		}
	}
	p.row, p.col = r, c
}

// attack sets every standing block straight ahead of player i's block to fall 4n turns
// later, n its distance in blocks; blocks already falling or fallen keep their counters.
func (s *state) attack(i int) {
	p := &s.players[i]
	d := p.dir
	for n := 1; ; n++ {
		br, bc := p.row/blockSide+n*dRow[d], p.col/blockSide+n*dCol[d]
		if br < 0 || br >= blocks || bc < 0 || bc >= blocks {
			break
		}
		if s.blocks[br][bc] == 0 {
			s.blocks[br][bc] = fallDelay * n
		}
	}
	p.wait = attackWait
}

// step ends global turn t for the blocks: a falling block counts down and at 0 falls, with
// the players on it, and counts its first turn down; a fallen block counts up to 0.
func (s *state) step(t int) {
	for br := range s.blocks {
		for bc := range s.blocks[br] {
			b := &s.blocks[br][bc]
			switch {
			case *b > 0:
				*b--
				if *b == 0 {
					*b = -downTurns + 1
					s.drop(br, bc, t)
				}
			case *b < 0:
				*b++
			}
		}
	}
}

// drop makes the players on block (br, bc) fall in turn t.
func (s *state) drop(br, bc, t int) {
	for j := range s.players {
		q := &s.players[j]
		if q.alive() && q.row/blockSide == br && q.col/blockSide == bc {
			q.fell = t
		}
	}
}

// living is the number of players on the board.
func (s *state) living() int {
	n := 0
	for j := range s.players {
		if s.players[j].alive() {
			n++
		}
	}
	return n
}

// scores gives each player the number of players it outlasted (see the package comment).
func (s *state) scores() []float64 {
	out := make([]float64, numPlayers)
	for i, p := range s.players {
		for j, q := range s.players {
			if j != i && !q.alive() && (p.alive() || q.fell < p.fell) {
				out[i]++
			}
		}
	}
	return out
}
