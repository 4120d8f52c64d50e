package snakecore

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/game"
)

// pic builds a state from a picture: rows of W R . b e p (a head), and the pythons as
// lists of cells from the head to the tail ("x,y"); a body cell's kind is its character.
func pic(t *testing.T, rows []string, pythons ...string) *state {
	t.Helper()
	n := len(rows)
	s := &state{n: n, ground: make([]byte, n*n), block: make([]byte, n*n), owner: make([]int, n*n), rng: game.NewRand(7)}
	for y, r := range rows {
		if len(r) != n {
			t.Fatalf("row %d has %d cells, want %d", y, len(r), n)
		}
		for x := range n {
			c := y*n + x
			s.owner[c] = -1
			s.ground[c] = chEmpty
			switch r[x] {
			case chWall, chReactor:
				s.ground[c] = r[x]
			case chOrdinary, chEnergy:
				s.block[c] = r[x]
			}
		}
	}
	for id, spec := range pythons {
		py := &python{}
		for i, f := range strings.Fields(spec) {
			var x, y int
			if _, err := fmt.Sscanf(f, "%d,%d", &x, &y); err != nil {
				t.Fatalf("python %d: %q", id, f)
			}
			c := y*n + x
			if s.owner[c] >= 0 {
				t.Fatalf("python %d: cell %s taken", id, f)
			}
			s.owner[c] = id
			if i == 0 {
				if rows[y][x] != chHead {
					t.Fatalf("python %d: head %s is %q in the picture", id, f, rows[y][x])
				}
				py.head = c
				continue
			}
			if s.block[c] == 0 {
				t.Fatalf("python %d: body cell %s has no block in the picture", id, f)
			}
			py.body = append(py.body, part{at: c, kind: s.block[c]})
		}
		s.pythons = append(s.pythons, py)
	}
	check(t, s)
	return s
}

// cells lists a python's cells from the head as "x,y".
func cells(s *state, p int) string {
	py := s.pythons[p]
	out := []string{fmt.Sprintf("%d,%d", py.head%s.n, py.head/s.n)}
	for _, b := range py.body {
		out = append(out, fmt.Sprintf("%d,%d", b.at%s.n, b.at/s.n))
	}
	return strings.Join(out, " ")
}

// kinds lists a python's body kinds.
func kinds(s *state, p int) string {
	var b []byte
	for _, q := range s.pythons[p].body {
		b = append(b, q.kind)
	}
	return string(b)
}

// check verifies the state's invariants: the owner and block maps agree with the pythons,
// every python is a chain of neighbouring cells, no cell is used twice.
func check(t *testing.T, s *state) {
	t.Helper()
	owner := make([]int, len(s.owner))
	for c := range owner {
		owner[c] = -1
	}
	for id, py := range s.pythons {
		prev := py.head
		if owner[py.head] >= 0 || s.ground[py.head] != chEmpty || s.block[py.head] != 0 {
			t.Fatalf("python %d: head on a taken cell %d", id, py.head)
		}
		owner[py.head] = id
		for i, b := range py.body {
			if owner[b.at] >= 0 || s.ground[b.at] != chEmpty {
				t.Fatalf("python %d: block %d on a taken cell", id, i)
			}
			owner[b.at] = id
			if s.block[b.at] != b.kind {
				t.Fatalf("python %d: block %d is %q, the field shows %q", id, i, b.kind, s.block[b.at])
			}
			if d := abs(b.at%s.n-prev%s.n) + abs(b.at/s.n-prev/s.n); d != 1 {
				t.Fatalf("python %d: block %d is not next to its predecessor (%s)", id, i, cells(s, id))
			}
			prev = b.at
		}
		if py.prot < 0 {
			t.Fatalf("python %d: protection %d", id, py.prot)
		}
	}
	if !slices.Equal(owner, s.owner) {
		t.Fatal("the owner map does not match the pythons")
	}
	for c, k := range s.block {
		if k != 0 && (k != chOrdinary && k != chEnergy || s.ground[c] != chEmpty) {
			t.Fatalf("cell %d: block %q on %q", c, k, s.ground[c])
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// ruleCase is a position, moves ("0U": player 0 moves up) and what must come of them.
type ruleCase struct {
	name  string
	rows  []string
	pys   []string
	prot  []int // initial protection per python (optional)
	moves []string
	want  []outcome // per move
	// after the moves (optional): each python's cells and body kinds, the scores, and
	// cells ("x,y") that must hold a free block
	cells  []string
	kinds  []string
	scores []int
	free   []string
}

func (c ruleCase) run(t *testing.T) *state {
	t.Helper()
	s := pic(t, c.rows, c.pys...)
	for p, v := range c.prot {
		s.pythons[p].prot = v
	}
	o0, e0 := s.blocks()
	for i, mv := range c.moves {
		got := s.act(int(mv[0]-'0'), mv[1])
		check(t, s)
		if o, e := s.blocks(); o != o0 || e != e0 {
			t.Fatalf("move %d (%s): %d+%d blocks, %d+%d before", i+1, mv, o, e, o0, e0)
		}
		if i < len(c.want) && got != c.want[i] {
			t.Errorf("move %d (%s): %s, want %s", i+1, mv, got, c.want[i])
		}
	}
	for p, want := range c.cells {
		if got := cells(s, p); got != want {
			t.Errorf("python %d: %s, want %s", p, got, want)
		}
	}
	for p, want := range c.kinds {
		if got := kinds(s, p); got != want {
			t.Errorf("python %d kinds: %q, want %q", p, got, want)
		}
	}
	for p, want := range c.scores {
		if got := s.pythons[p].score; got != want {
			t.Errorf("python %d: score %d, want %d", p, got, want)
		}
	}
	for _, f := range c.free {
		var x, y int
		fmt.Sscanf(f, "%d,%d", &x, &y)
		if c := y*s.n + x; s.block[c] == 0 || s.owner[c] >= 0 {
			t.Errorf("cell %s: no free block", f)
		}
	}
	return s
}

// The position of the single-move cases: python 0 is a head with two blocks, python 1 a
// head with one, python 2 a head alone.
var fieldA = []string{
	"......",
	".pbb..",
	"....p.",
	"..W.b.",
	"R.p...",
	"......",
}
var pythonsA = []string{"1,1 2,1 3,1", "4,2 4,3", "2,4"}

func TestSequentialMovesAndSkips(t *testing.T) {
	for _, c := range []ruleCase{
		{name: "up: the body follows the head", moves: []string{"0U"}, want: []outcome{moved}, cells: []string{"1,0 1,1 2,1"}},
		{name: "left", moves: []string{"0L"}, want: []outcome{moved}, cells: []string{"0,1 1,1 2,1"}},
		{name: "down", moves: []string{"0D"}, want: []outcome{moved}, cells: []string{"1,2 1,1 2,1"}},
		{name: "moves in turn, each from where the last left it", moves: []string{"0U", "1L", "2R", "0L", "1U", "2U"},
			want:  []outcome{moved, moved, moved, moved, moved, moved},
			cells: []string{"0,0 1,0 1,1", "3,1 3,2", "3,3"}},
		{name: "N is a skip", moves: []string{"0N"}, want: []outcome{skipped}, cells: []string{"1,1 2,1 3,1"}},
		{name: "an unknown order is a skip", moves: []string{"0X"}, want: []outcome{skipped}, cells: []string{"1,1 2,1 3,1"}},
		{name: "A without an energy block is a skip", moves: []string{"0A"}, want: []outcome{skipped}, cells: []string{"1,1 2,1 3,1"}},
		{name: "a wall is a skip", moves: []string{"2U"}, want: []outcome{skipped}, cells: []string{"", "", "2,4"}},
		{name: "the field edge is a skip", moves: []string{"2D", "2D"}, want: []outcome{moved, skipped}, cells: []string{"", "", "2,5"}},
		{name: "a reactor with no body is a skip", moves: []string{"2L", "2L"}, want: []outcome{moved, skipped}, cells: []string{"", "", "1,4"}},
		{name: "another python's tail is a skip", moves: []string{"2R", "2R", "2U"}, want: []outcome{moved, moved, skipped},
			cells: []string{"", "", "4,4"}},
		{name: "another python's head is a skip", moves: []string{"0R", "0R", "0R", "0D"}, want: []outcome{attacked, grew, moved, skipped},
			cells: []string{"4,1 3,1 2,1"}},
	} {
		c.rows, c.pys = fieldA, pythonsA
		for p := range c.cells {
			if c.cells[p] == "" {
				c.cells[p] = pythonsA[p]
			}
		}
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

func TestGrowth(t *testing.T) {
	for _, c := range []ruleCase{
		{name: "a head alone eats a block", rows: []string{"pb..", "....", "....", "...."}, pys: []string{"0,0"},
			moves: []string{"0R"}, want: []outcome{grew}, cells: []string{"1,0 0,0"}, kinds: []string{"b"}},
		{name: "an energy block keeps its kind", rows: []string{"pe..", "....", "....", "...."}, pys: []string{"0,0"},
			moves: []string{"0R", "0R"}, want: []outcome{grew, moved}, cells: []string{"2,0 1,0"}, kinds: []string{"e"}},
		{name: "the new block goes right behind the head, the rest stays", rows: []string{"bbpe.", ".....", ".....", ".....", "....."},
			pys: []string{"2,0 1,0 0,0"}, moves: []string{"0R"}, want: []outcome{grew},
			cells: []string{"3,0 2,0 1,0 0,0"}, kinds: []string{"ebb"}},
		{name: "then the whole body follows", rows: []string{"bbpe.", ".....", ".....", ".....", "....."},
			pys: []string{"2,0 1,0 0,0"}, moves: []string{"0R", "0D", "0L"}, want: []outcome{grew, moved, moved},
			cells: []string{"2,1 3,1 3,0 2,0"}, kinds: []string{"ebb"}},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

// fieldB: python 1 lies along row 2 with its head at (5,2); python 0's head is above it.
func fieldB(x0 int) ([]string, []string) {
	rows := []string{
		"......",
		"......",
		"bbbebp",
		"......",
		"......",
		"......",
	}
	r := []byte(rows[1])
	r[x0] = 'p'
	rows[1] = string(r)
	return rows, []string{fmt.Sprintf("%d,1", x0), "5,2 4,2 3,2 2,2 1,2 0,2"}
}

func TestAttacks(t *testing.T) {
	at := func(x0 int, c ruleCase) ruleCase {
		c.rows, c.pys = fieldB(x0)
		return c
	}
	for _, c := range []ruleCase{
		at(2, ruleCase{name: "the chain breaks: the attacker scores the blocks bitten off", moves: []string{"0D"}, want: []outcome{attacked},
			cells: []string{"2,2 2,1", "5,2 4,2 3,2"}, kinds: []string{"b", "be"}, scores: []int{3, 0}, free: []string{"1,2", "0,2"}}),
		at(3, ruleCase{name: "the attacked block keeps its kind", moves: []string{"0D"}, want: []outcome{attacked},
			cells: []string{"3,2 3,1", "5,2 4,2"}, kinds: []string{"e", "b"}, scores: []int{4, 0}, free: []string{"2,2", "1,2", "0,2"}}),
		at(4, ruleCase{name: "a bite at the second block takes the whole body", moves: []string{"0D"}, want: []outcome{attacked},
			cells: []string{"4,2 4,1", "5,2"}, scores: []int{5, 0}, free: []string{"3,2", "2,2", "1,2", "0,2"}}),
		at(1, ruleCase{name: "a bite just before the tail", moves: []string{"0D"}, want: []outcome{attacked},
			cells: []string{"1,2 1,1", "5,2 4,2 3,2 2,2"}, scores: []int{2, 0}, free: []string{"0,2"}}),
		at(0, ruleCase{name: "the tail cannot be attacked", moves: []string{"0D"}, want: []outcome{skipped},
			cells: []string{"0,1", "5,2 4,2 3,2 2,2 1,2 0,2"}, scores: []int{0, 0}}),
		at(5, ruleCase{name: "the head cannot be attacked", moves: []string{"0D"}, want: []outcome{skipped},
			cells: []string{"5,1", "5,2 4,2 3,2 2,2 1,2 0,2"}, scores: []int{0, 0}}),
		at(2, ruleCase{name: "a protected body cannot be attacked", prot: []int{0, 3}, moves: []string{"0D"}, want: []outcome{skipped},
			cells: []string{"2,1", "5,2 4,2 3,2 2,2 1,2 0,2"}, scores: []int{0, 0}}),
		at(2, ruleCase{name: "the attacker's protection does not matter", prot: []int{5, 0}, moves: []string{"0D"}, want: []outcome{attacked},
			scores: []int{3, 0}}),
		at(2, ruleCase{name: "bitten off blocks are free blocks: anyone may eat them", moves: []string{"0D", "0L", "0L"},
			want:  []outcome{attacked, grew, grew},
			cells: []string{"0,2 1,2 2,2 2,1"}, kinds: []string{"bbb"}, scores: []int{3, 0}}),
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

func TestSelfAttacksAndTheOwnTail(t *testing.T) {
	loop := []string{ // python 0: head (1,1), then (1,0) (0,0) (0,1) (0,2) (1,2): its tail is below the head
		"bb....",
		"bpb...",
		"bb....",
		"......",
		"......",
		"......",
	}
	for _, c := range []ruleCase{
		{name: "a self-attack cuts the own chain and scores nothing", rows: loop, pys: []string{"1,1 1,0 0,0 0,1 0,2 1,2"},
			moves: []string{"0L"}, want: []outcome{attacked}, cells: []string{"0,1 1,1 1,0 0,0"}, scores: []int{0},
			free: []string{"0,2", "1,2", "2,1"}},
		{name: "the own tail runs away: a plain move", rows: loop, pys: []string{"1,1 1,0 0,0 0,1 0,2 1,2"},
			moves: []string{"0D"}, want: []outcome{moved}, cells: []string{"1,2 1,1 1,0 0,0 0,1 0,2"}, scores: []int{0}},
		{name: "the own tail runs away even when protected", rows: loop, pys: []string{"1,1 1,0 0,0 0,1 0,2 1,2"}, prot: []int{4},
			moves: []string{"0D"}, want: []outcome{moved}, cells: []string{"1,2 1,1 1,0 0,0 0,1 0,2"}},
		{name: "a protected body cannot be attacked, not even by itself", rows: loop, pys: []string{"1,1 1,0 0,0 0,1 0,2 1,2"}, prot: []int{4},
			moves: []string{"0L", "0U"}, want: []outcome{skipped, skipped}, cells: []string{"1,1 1,0 0,0 0,1 0,2 1,2"}},
		{name: "a head and its tail swap", rows: []string{"pb..", "....", "....", "...."}, pys: []string{"0,0 1,0"},
			moves: []string{"0R", "0L"}, want: []outcome{moved, moved}, cells: []string{"0,0 1,0"}},
		{name: "a self-attack on the first block", rows: []string{"pbb.", "....", "....", "...."}, pys: []string{"0,0 1,0 2,0"},
			moves: []string{"0R"}, want: []outcome{attacked}, cells: []string{"1,0 0,0"}, free: []string{"2,0"}},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

func TestProtection(t *testing.T) {
	rows := []string{
		"pebe.",
		".....",
		".....",
		"....p",
		".....",
	}
	c := ruleCase{name: "A", rows: rows, pys: []string{"0,0 1,0 2,0 3,0", "4,3"},
		moves: []string{"0A"}, want: []outcome{protected},
		// the energy block nearest the head is spent; the blocks behind close the gap
		cells: []string{"0,0 1,0 2,0"}, kinds: []string{"be"}}
	s := c.run(t)
	if got := s.pythons[0].prot; got != 10 {
		t.Fatalf("after A: protection %d, want 10", got)
	}
	// The activating move and the next nine are protected; it ends before the eleventh.
	for k := 2; k <= 10; k++ {
		s.begin(0)
		if s.pythons[0].prot != 11-k {
			t.Fatalf("move %d: protection %d, want %d", k, s.pythons[0].prot, 11-k)
		}
		s.apply(0, actNone)
	}
	s.begin(0)
	if s.pythons[0].prot != 0 {
		t.Fatalf("move 11: protection %d, want 0", s.pythons[0].prot)
	}
	s.apply(0, actNone)

	// Cumulative: A twice in a row protects 20 moves.
	s = pic(t, rows, "0,0 1,0 2,0 3,0", "4,3")
	want := []int{10, 19}
	for k := 1; k <= 21; k++ {
		a := byte(actNone)
		if k <= 2 {
			a = actProtect
		}
		o := s.act(0, a)
		check(t, s)
		if k <= 2 {
			if o != protected || s.pythons[0].prot != want[k-1] {
				t.Fatalf("move %d: %s, protection %d; want protect, %d", k, o, s.pythons[0].prot, want[k-1])
			}
			continue
		}
		if wantProt := 21 - k; s.pythons[0].prot != wantProt {
			t.Fatalf("move %d: protection %d, want %d", k, s.pythons[0].prot, wantProt)
		}
	}
	if kinds(s, 0) != "b" || cells(s, 0) != "0,0 1,0" {
		t.Fatalf("after two A: %s [%s], want 0,0 1,0 [b]", cells(s, 0), kinds(s, 0))
	}
	if o, e := s.blocks(); e != 2 || o != 1 {
		t.Fatalf("blocks %d+%d: the spent energy blocks must reappear", o, e)
	}
	if s.act(0, actProtect) != skipped {
		t.Fatal("A with no energy block left is not a skip")
	}
}

func TestProtectionAgainstAnAttack(t *testing.T) {
	// Python 1 (head (5,2)) protects itself; python 0 above its body tries to bite every
	// round: the bite fails while the protection lasts and succeeds once it is over.
	rows, pys := fieldB(2)
	rows[2] = "bbbbep" // python 1's first block is the energy block
	s := pic(t, rows, pys...)
	if s.act(1, actProtect) != protected {
		t.Fatal("no protection")
	}
	for k := 1; k <= 9; k++ {
		if o := s.act(0, actDown); o != skipped {
			t.Fatalf("attack %d during the protection: %s", k, o)
		}
		s.act(1, actNone)
	}
	// Python 1 made its 10th protected move; until its 11th begins it is still protected.
	if o := s.act(0, actDown); o != skipped {
		t.Fatalf("attack after the 10th protected move: %s", o)
	}
	s.begin(1) // its 11th move begins: the protection is over
	s.apply(1, actNone)
	if o := s.act(0, actDown); o != attacked {
		t.Fatalf("attack after the protection: %s", o)
	}
	check(t, s)
}

func TestReactor(t *testing.T) {
	rows := []string{
		"Rpbbe",
		".....",
		"....b",
		".....",
		".....",
	}
	c := ruleCase{name: "deliver", rows: rows, pys: []string{"1,0 2,0 3,0 4,0"},
		moves: []string{"0L"}, want: []outcome{delivered}, cells: []string{"1,0"}, scores: []int{6}}
	s := c.run(t)
	if o, e := s.blocks(); o != 3 || e != 1 {
		t.Fatalf("blocks %d+%d after delivering: want 3+1 (they reappear)", o, e)
	}
	// A head alone delivers nothing.
	if got := s.act(0, actLeft); got != skipped || s.pythons[0].score != 6 {
		t.Fatalf("delivering no body: %s, score %d", got, s.pythons[0].score)
	}
	// n(n+1)/2 for n = 1..20.
	for n := 1; n <= 20; n++ {
		row := "Rp" + strings.Repeat("b", n) + strings.Repeat(".", 21-n)
		rows := make([]string, 23)
		rows[0] = row
		for y := 1; y < 23; y++ {
			rows[y] = strings.Repeat(".", 23)
		}
		spec := "1,0"
		for i := range n {
			spec += fmt.Sprintf(" %d,0", i+2)
		}
		s := pic(t, rows, spec)
		if s.act(0, actLeft) != delivered || s.pythons[0].score != n*(n+1)/2 || len(s.pythons[0].body) != 0 {
			t.Fatalf("n=%d: score %d, want %d", n, s.pythons[0].score, n*(n+1)/2)
		}
		check(t, s)
	}
}

// TestConservation plays long random games: after every move the number of blocks of each
// kind is what the field started with, and the state is consistent.
func TestConservation(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		rng := game.NewRand(seed + 100)
		players := 2 + int(seed)*2
		s, err := generate(game.NewRand(seed), 12, 6, players)
		if err != nil {
			t.Fatal(err)
		}
		kinds := map[outcome]int{}
		for k := range 6000 {
			p := k % players
			a := "ULDRRRDDLLUUNA"[rng.IntN(14)]
			kinds[s.act(p, a)]++
			check(t, s)
			if o, e := s.blocks(); o != numOrdinary || e != numEnergy {
				t.Fatalf("seed %d move %d: %d ordinary and %d energy blocks", seed, k, o, e)
			}
		}
		for _, o := range []outcome{moved, grew, attacked, delivered, protected, skipped} {
			if kinds[o] == 0 {
				t.Errorf("seed %d: no %s in 6000 random moves (%v)", seed, o, kinds)
			}
		}
	}
}
