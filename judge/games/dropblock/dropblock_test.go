package dropblock

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
)

// at is a player on square (r, c) facing d (one of U R D L).
func at(r, c int, d byte) player {
	return player{row: r, col: c, dir: strings.IndexByte(dirLetters, d), fell: -1}
}

// newTest is a match of the given length with the players placed by hand, every block standing.
func newTest(turns int, p0, p1, p2, p3 player) *match {
	return newMatch([numPlayers]player{p0, p1, p2, p3}, turns, time.Second, 2*time.Second, game.Setup{})
}

// script answers a player's turn: by turn number, N when the turn is not listed.
type script map[int]string

func (s script) act(_, turn int) string {
	if a, ok := s[turn]; ok {
		return a
	}
	return "N"
}

// drive answers every READY, then each turn with act, until turn stop is asked (the request
// stays pending; seen reads it) or the game ends. It reports whether the game ended.
func drive(t *testing.T, m *match, stop int, act func(p, turn int) string) bool {
	t.Helper()
	for {
		req, done := m.Next()
		if done {
			return true
		}
		if req.Ready != "" {
			if f := m.Reply(game.Reply{Lines: []string{"READY"}}); f != nil {
				t.Fatalf("READY judged %v", f)
			}
			continue
		}
		if req.Turn >= stop {
			return false
		}
		if req.Player != req.Turn%numPlayers || req.Expect != 1 {
			t.Fatalf("turn %d: request %+v", req.Turn, req)
		}
		if f := m.Reply(game.Reply{Lines: []string{act(req.Player, req.Turn)}}); f != nil {
			t.Fatalf("turn %d: an answer judged %v", req.Turn, f)
		}
	}
}

// seen plays up to turn T and returns the input its player gets, as lines: id, T, six block
// rows, four player lines, EOD.
func seen(t *testing.T, m *match, T int, act func(p, turn int) string) []string {
	t.Helper()
	if drive(t, m, T, act) {
		t.Fatalf("the game ended before turn %d", T)
	}
	req, _ := m.Next()
	if req.Turn != T {
		t.Fatalf("asked turn %d, want %d", req.Turn, T)
	}
	lines := strings.Split(strings.TrimSuffix(req.Send, "\n"), "\n")
	if len(lines) != 13 || lines[0] != fmt.Sprint(T%numPlayers) || lines[1] != fmt.Sprint(T) || lines[12] != "EOD" {
		t.Fatalf("turn %d: input %q", T, req.Send)
	}
	return lines
}

func blockRow(lines []string, r int) string   { return lines[2+r] }
func playerLine(lines []string, p int) string { return lines[8+p] }

// The conformance suite, with the defaults: 1000 global turns (250 per player), a second per
// action and to be READY.
func TestConformance(t *testing.T) {
	gametest.Conformance(t, New(), gametest.Case{Words: []string{"U", "R", "D", "L", "A", "N"}, Defaults: "turns=1000 time=1s ready=1s memory=256"})
}

func FuzzAnswers(f *testing.F) { gametest.FuzzAnswers(f, New(), "U", "A", "n") }

func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		opts map[string]string
		bad  string // the option an error must name; "" when valid
	}{
		{nil, ""},
		{map[string]string{"turns": "12", "time": "250ms", "ready": "3s", "memory": "64"}, ""},
		{map[string]string{"turns": "0"}, "turns"},
		{map[string]string{"turns": "1e3"}, "turns"},
		{map[string]string{"turns": "100001"}, "turns"},
		{map[string]string{"time": "0s"}, "time"},
		{map[string]string{"time": "1"}, "time"},
		{map[string]string{"ready": "2m"}, "ready"},
		{map[string]string{"memory": "8"}, "memory"},
		{map[string]string{"board": "6"}, "board"},
	} {
		m, err := New().New(game.Config{Seed: 1, Players: 4, Options: tc.opts})
		if tc.bad != "" {
			var oe *game.OptionError
			if !errors.As(err, &oe) || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("%v: error %v, want an option error naming %s", tc.opts, err, tc.bad)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tc.opts, err)
			continue
		}
		want := map[string]string{"turns": "1000", "time": "1s", "ready": "1s", "memory": "256"}
		for k, v := range tc.opts {
			want[k] = v
		}
		s := m.Setup()
		if !maps.Equal(s.Options, want) {
			t.Errorf("%v: setup options %v, want %v", tc.opts, s.Options, want)
		}
		// The options recreate the match.
		again, err := New().New(game.Config{Seed: 1, Players: 4, Options: s.Options})
		if err != nil || !maps.Equal(again.Setup().Options, want) || fmt.Sprint(again.Setup().World) != fmt.Sprint(s.World) {
			t.Errorf("%v: recreated from Setup.Options: %v", tc.opts, err)
		}
		mm := m.(*match)
		limit, _ := time.ParseDuration(want["time"])
		ready, _ := time.ParseDuration(want["ready"])
		if mm.limit != limit || mm.ready != ready || fmt.Sprint(mm.turns) != want["turns"] || fmt.Sprint(s.Memory>>20) != want["memory"] {
			t.Errorf("%v: turns %d limit %v ready %v memory %d", tc.opts, mm.turns, mm.limit, mm.ready, s.Memory)
		}
		// The limits reach the requests.
		for p := range numPlayers {
			req, _ := m.Next()
			if req.Player != p || req.Ready != "READY" || req.Limit != ready {
				t.Errorf("%v: request %+v", tc.opts, req)
			}
			m.Reply(game.Reply{Lines: []string{"READY"}})
		}
		if req, _ := m.Next(); req.Limit != limit || req.Expect != 1 {
			t.Errorf("%v: first turn %+v", tc.opts, req)
		}
	}
}

// TestStartPlaces: the places are on the board, more than 3 apart, every square possible for
// the first player, and the seed alone decides them.
func TestStartPlaces(t *testing.T) {
	first := map[[2]int]bool{}
	dirs := map[int]bool{}
	for seed := uint64(0); seed < 3000; seed++ {
		ps := place(game.NewRand(seed))
		for i, p := range ps {
			if !onBoard(p.row, p.col) || p.dir < 0 || p.dir > 3 || !p.alive() || p.wait != 0 {
				t.Fatalf("seed %d: player %d %+v", seed, i, p)
			}
			for _, q := range ps[:i] {
				if dist(p.row, p.col, q.row, q.col) <= keepAway {
					t.Fatalf("seed %d: players %+v and %+v are too close", seed, p, q)
				}
			}
			dirs[p.dir] = true
		}
		first[[2]int{ps[0].row, ps[0].col}] = true
	}
	if len(first) != size*size || len(dirs) != 4 {
		t.Errorf("player 0 started on %d squares, %d directions", len(first), len(dirs))
	}
}

func TestDeterministic(t *testing.T) {
	play := func(seed uint64) (World, string, game.Result) {
		m := gametest.Start(t, New(), game.Config{Seed: seed, Options: map[string]string{"turns": "400"}})
		var log strings.Builder
		gametest.Drive(t, m, func(req game.Request) game.Reply {
			log.WriteString(req.Send)
			if req.Ready != "" {
				return game.Reply{Lines: []string{"READY"}}
			}
			return game.Reply{Lines: []string{simpleBot(req.Send)}}
		})
		return m.Setup().World.(World), log.String(), m.Result()
	}
	wa, a, ra := play(7)
	wb, b, rb := play(7)
	if fmt.Sprint(wa) != fmt.Sprint(wb) || a != b || fmt.Sprint(ra.Scores, ra.Ranks) != fmt.Sprint(rb.Scores, rb.Ranks) {
		t.Error("the same seed played two different games")
	}
	wc, c, _ := play(8)
	if fmt.Sprint(wa) == fmt.Sprint(wc) || a == c {
		t.Error("seeds 7 and 8 played the same game")
	}
	if wa.Size != 18 || wa.Block != 3 || len(wa.Players) != 4 {
		t.Errorf("world %+v", wa)
	}
	if _, err := json.Marshal(wa); err != nil {
		t.Error(err)
	}
	// The world is the start of the game.
	first := strings.Split(a, "\n")[8:12]
	for i, p := range wa.Players {
		if want := fmt.Sprintf("%d %d %s 0", p.Row, p.Col, p.Dir); first[i] != want {
			t.Errorf("player %d starts %q, the world says %q", i, first[i], want)
		}
	}
}

func TestInputFormat(t *testing.T) {
	m := newTest(1000, at(1, 1, 'R'), at(5, 17, 'U'), at(17, 0, 'L'), at(10, 10, 'D'))
	m.blocks[2][3] = 5
	m.blocks[4][0] = -12
	m.players[3].wait = 2
	m.players[2].fell = 0
	want := "1\n0\n" +
		"0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 5 0 0\n0 0 0 0 0 0\n-12 0 0 0 0 0\n0 0 0 0 0 0\n" +
		"1 1 R 0\n5 17 U 0\n-1 -1 L 0\n10 10 D 2\nEOD\n"
	if got := m.input(1); got != want {
		t.Errorf("input\n%s\nwant\n%s", got, want)
	}
}

// TestAttackTiming: the neighbour block falls on the attacker's next turn (4 global turns),
// the next one on the turn after (8), taking the players on them; the wait shows 2, then 1.
func TestAttackTiming(t *testing.T) {
	m := newTest(1000, at(1, 1, 'R'), at(2, 5, 'U'), at(0, 8, 'D'), at(16, 16, 'L'))
	s := script{0: "A"}
	for _, tc := range []struct {
		turn          int
		row0          string
		p0, p1, p2    string
		fell1, fell2  int
		living, wait0 int
	}{
		{1, "0 3 7 11 15 19", "1 1 R 2", "2 5 U 0", "0 8 D 0", -1, -1, 4, 2},
		{3, "0 1 5 9 13 17", "1 1 R 2", "2 5 U 0", "0 8 D 0", -1, -1, 4, 2},
		{4, "0 -19 4 8 12 16", "1 1 R 2", "-1 -1 U 0", "0 8 D 0", 3, -1, 3, 2},
		{7, "0 -16 1 5 9 13", "1 1 R 1", "-1 -1 U 0", "0 8 D 0", 3, -1, 3, 1},
		{8, "0 -15 -19 4 8 12", "1 1 R 1", "-1 -1 U 0", "-1 -1 D 0", 3, 7, 2, 1},
	} {
		lines := seen(t, m, tc.turn, s.act)
		if got := blockRow(lines, 0); got != tc.row0 {
			t.Errorf("turn %d: block row 0 %q, want %q", tc.turn, got, tc.row0)
		}
		for p, want := range []string{tc.p0, tc.p1, tc.p2} {
			if got := playerLine(lines, p); got != want {
				t.Errorf("turn %d: player %d %q, want %q", tc.turn, p, got, want)
			}
		}
		if m.players[1].fell != tc.fell1 || m.players[2].fell != tc.fell2 || m.living() != tc.living {
			t.Errorf("turn %d: fell %d %d, %d living", tc.turn, m.players[1].fell, m.players[2].fell, m.living())
		}
	}
}

// TestForcedWait: after an attack the attacker's next two turns are N whatever it answers;
// the third is its own again.
func TestForcedWait(t *testing.T) {
	m := newTest(1000, at(9, 9, 'U'), at(0, 0, 'D'), at(17, 0, 'U'), at(17, 17, 'U'))
	s := script{0: "A", 4: "L", 8: "A", 12: "L"}
	for _, tc := range []struct {
		turn int
		p0   string
	}{
		{1, "9 9 U 2"},
		{4, "9 9 U 2"},
		{5, "9 9 U 1"},  // L at turn 4 was N
		{9, "9 9 U 0"},  // A at turn 8 was N: no new wait
		{13, "9 8 L 0"}, // L at turn 12 moved
	} {
		lines := seen(t, m, tc.turn, s.act)
		if got := playerLine(lines, 0); got != tc.p0 {
			t.Errorf("turn %d: player 0 %q, want %q", tc.turn, got, tc.p0)
		}
	}
	// Only the attack of turn 0 dropped blocks: column 3 above player 0.
	if m.blocks[0][3] >= 0 || m.blocks[1][3] >= 0 || m.blocks[2][3] >= 0 {
		t.Errorf("blocks %v", m.blocks)
	}
}

// TestRestore: a fallen block stays down 20 turns, refusing moves onto it, then takes them.
func TestRestore(t *testing.T) {
	m := newTest(1000, at(1, 0, 'R'), at(0, 5, 'D'), at(0, 8, 'D'), at(3, 3, 'L'))
	s := script{0: "A", 19: "U", 23: "U"}
	for _, tc := range []struct {
		turn int
		b01  string
		p3   string
	}{
		{4, "-19", "3 3 L 0"},
		{19, "-4", "3 3 L 0"},
		{20, "-3", "3 3 U 0"}, // turned, did not move
		{22, "-1", "3 3 U 0"},
		{23, "0", "3 3 U 0"}, // restored: 20 turns after it fell in turn 3
		{24, "0", "2 3 U 0"}, // walked on
	} {
		lines := seen(t, m, tc.turn, s.act)
		if got := strings.Fields(blockRow(lines, 0))[1]; got != tc.b01 {
			t.Errorf("turn %d: block (0,1) %s, want %s", tc.turn, got, tc.b01)
		}
		if got := playerLine(lines, 3); got != tc.p3 {
			t.Errorf("turn %d: player 3 %q, want %q", tc.turn, got, tc.p3)
		}
	}
}

// TestAttackAcrossFallenBlock: fallen and falling blocks keep their counters; the blocks
// beyond them get theirs.
func TestAttackAcrossFallenBlock(t *testing.T) {
	m := newTest(1000, at(1, 1, 'R'), at(16, 16, 'U'), at(16, 1, 'U'), at(10, 10, 'U'))
	m.blocks[0][2] = -10
	m.blocks[0][3] = 2
	lines := seen(t, m, 1, script{0: "A"}.act)
	if got := blockRow(lines, 0); got != "0 3 -9 1 15 19" {
		t.Errorf("block row 0 %q", got)
	}
	if got := blockRow(lines, 1); got != "0 0 0 0 0 0" {
		t.Errorf("block row 1 %q", got)
	}
}

// TestAttackDirections: every direction, from every block, marks exactly the blocks ahead.
func TestAttackDirections(t *testing.T) {
	for d := range 4 {
		for br := range blocks {
			for bc := range blocks {
				var s state
				s.players[0] = player{row: br*blockSide + 1, col: bc*blockSide + 2, dir: d, fell: -1}
				s.attack(0)
				for r := range blocks {
					for c := range blocks {
						want := 0
						n := max(abs(r-br), abs(c-bc))
						if (r-br)*dRow[d] > 0 && c == bc || (c-bc)*dCol[d] > 0 && r == br {
							want = fallDelay * n
						}
						if s.blocks[r][c] != want {
							t.Fatalf("dir %c from block (%d,%d): block (%d,%d) = %d, want %d", dirLetters[d], br, bc, r, c, s.blocks[r][c], want)
						}
					}
				}
				if s.players[0].wait != attackWait {
					t.Fatalf("wait %d", s.players[0].wait)
				}
			}
		}
	}
}

// TestMoves: a move always turns the player; it steps unless the square is off the board, on
// a fallen block or within 3 of a living player.
func TestMoves(t *testing.T) {
	for _, tc := range []struct {
		name     string
		from     player
		action   byte
		other    player // player 1; players 2 and 3 are far away
		otherOut bool   // player 1 has fallen
		block    int    // counter of the target square's block
		want     string // row col dir of player 0 afterwards
	}{
		{"plain step", at(9, 9, 'U'), 'R', at(0, 0, 'U'), false, 0, "9 10 R"},
		{"up", at(9, 9, 'R'), 'U', at(0, 17, 'U'), false, 0, "8 9 U"},
		{"down", at(9, 9, 'R'), 'D', at(0, 17, 'U'), false, 0, "10 9 D"},
		{"left", at(9, 9, 'R'), 'L', at(0, 17, 'U'), false, 0, "9 8 L"},
		{"top edge", at(0, 9, 'D'), 'U', at(17, 17, 'U'), false, 0, "0 9 U"},
		{"left edge", at(9, 0, 'D'), 'L', at(17, 17, 'U'), false, 0, "9 0 L"},
		{"right edge", at(9, 17, 'D'), 'R', at(0, 0, 'U'), false, 0, "9 17 R"},
		{"bottom edge", at(17, 9, 'L'), 'D', at(0, 0, 'U'), false, 0, "17 9 D"},
		{"fallen block", at(9, 8, 'U'), 'R', at(0, 0, 'U'), false, -5, "9 8 R"},
		{"falling block", at(9, 8, 'U'), 'R', at(0, 0, 'U'), false, 3, "9 9 R"},
		{"distance 3", at(9, 9, 'U'), 'R', at(9, 13, 'U'), false, 0, "9 9 R"},
		{"distance 3 diagonal", at(9, 9, 'U'), 'D', at(12, 10, 'U'), false, 0, "9 9 D"},
		{"distance 4", at(9, 9, 'U'), 'R', at(9, 14, 'U'), false, 0, "9 10 R"},
		{"near a fallen player", at(9, 9, 'U'), 'R', at(9, 11, 'U'), true, 0, "9 10 R"},
		{"attack turns nothing", at(9, 9, 'U'), 'A', at(0, 0, 'U'), false, 0, "9 9 U"},
		{"nothing", at(9, 9, 'L'), 'N', at(0, 0, 'U'), false, 0, "9 9 L"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s state
			s.players = [numPlayers]player{tc.from, tc.other, at(17, 0, 'U'), at(0, 17, 'U')}
			if tc.otherOut {
				s.players[1].fell = 0
			}
			d := strings.IndexByte(dirLetters, tc.action)
			if d >= 0 {
				r, c := tc.from.row+dRow[d], tc.from.col+dCol[d]
				if onBoard(r, c) {
					s.blocks[r/blockSide][c/blockSide] = tc.block
				}
			}
			s.act(0, tc.action)
			p := s.players[0]
			if got := fmt.Sprintf("%d %d %c", p.row, p.col, dirLetters[p.dir]); got != tc.want {
				t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
			}
		})
	}
}

// TestWalkOntoFallingBlock: a block about to fall can be walked on, and the player falls with it.
func TestWalkOntoFallingBlock(t *testing.T) {
	m := newTest(1000, at(9, 8, 'U'), at(0, 0, 'U'), at(17, 0, 'U'), at(0, 17, 'U'))
	m.blocks[3][3] = 1 // falls at the end of turn 0
	lines := seen(t, m, 1, script{0: "R"}.act)
	if got := playerLine(lines, 0); got != "-1 -1 R 0" || m.players[0].fell != 0 {
		t.Errorf("player 0 %q fell %d", got, m.players[0].fell)
	}
}

func TestUnknownActions(t *testing.T) {
	for _, tc := range []struct {
		line string
		want byte
	}{
		{"U", 'U'}, {"R", 'R'}, {"D", 'D'}, {"L", 'L'}, {"A", 'A'}, {"N", 'N'},
		{"  L \t", 'L'}, {"L\r", 'L'},
		{"", 'N'}, {"u", 'N'}, {"UP", 'N'}, {"U D", 'N'}, {"X", 'N'}, {"READY", 'N'}, {"\x00", 'N'}, {"Ü", 'N'},
	} {
		if got := parseAction(tc.line); got != tc.want {
			t.Errorf("%q: %c, want %c", tc.line, got, tc.want)
		}
	}
	// Through a match: no fault, and the player does nothing.
	m := newTest(1000, at(9, 9, 'U'), at(0, 0, 'U'), at(17, 0, 'U'), at(0, 17, 'U'))
	lines := seen(t, m, 1, script{0: "attack!"}.act)
	if got := playerLine(lines, 0); got != "9 9 U 0" || blockRow(lines, 0) != "0 0 0 0 0 0" {
		t.Errorf("player 0 %q, blocks %q", got, blockRow(lines, 0))
	}
	if m.faults[0] != nil {
		t.Errorf("fault %v", m.faults[0])
	}
	// No answer at all, or a reply to nothing, is no panic and no fault.
	m.Next()
	if f := m.Reply(game.Reply{}); f != nil {
		t.Errorf("an empty reply judged %v", f)
	}
	if f := newTest(10, at(9, 9, 'U'), at(0, 0, 'U'), at(17, 0, 'U'), at(0, 17, 'U')).Reply(game.Reply{Lines: []string{"A"}}); f != nil {
		t.Errorf("a reply to nothing judged %v", f)
	}
}

// TestReady: READY is asked of every player in id order, with the ready limit; a player
// that fails it is never asked again and stays on the board doing N.
func TestReady(t *testing.T) {
	m := newTest(20, at(9, 9, 'U'), at(0, 0, 'D'), at(17, 0, 'U'), at(0, 17, 'U'))
	fault := &game.Fault{Kind: game.Timeout, Turn: 0, Detail: "no answer after 2000 ms CPU"}
	for p := range numPlayers {
		req, done := m.Next()
		if done || req.Player != p || req.Ready != "READY" || req.Expect != 0 || req.Send != "" || req.Turn != 0 || req.Limit != 2*time.Second {
			t.Fatalf("request %d: %+v", p, req)
		}
		if again, _ := m.Next(); again != req {
			t.Fatalf("asked again: %+v", again)
		}
		r := game.Reply{Lines: []string{"READY"}}
		if p == 1 {
			r = game.Reply{Fault: fault}
		}
		if got := m.Reply(r); p == 1 && got != fault || p != 1 && got != nil {
			t.Fatalf("player %d: verdict %v", p, got)
		}
	}
	var asked []int
	for {
		req, done := m.Next()
		if done {
			break
		}
		asked = append(asked, req.Player)
		if req.Player == 0 && req.Turn < 8 {
			m.Reply(game.Reply{Lines: []string{"D"}})
		} else {
			m.Reply(game.Reply{Lines: []string{"N"}})
		}
	}
	if want := []int{0, 2, 3, 0, 2, 3, 0, 2, 3, 0, 2, 3, 0, 2, 3}; !slices.Equal(asked, want) {
		t.Errorf("asked %v, want %v", asked, want)
	}
	res := m.Result()
	if res.Faults[1] != fault || res.Faults[0] != nil || !m.players[1].alive() || m.players[1].row != 0 || m.players[1].col != 0 {
		t.Errorf("faults %v, player 1 %+v", res.Faults, m.players[1])
	}
	// Player 0 walked down at turns 0 and 4.
	if m.players[0].row != 11 {
		t.Errorf("player 0 at row %d", m.players[0].row)
	}
}

// TestFaultStaysOnBoard: after a time out or a crash the player is not asked again, does N,
// its wait still counts down, and it can still fall.
func TestFaultStaysOnBoard(t *testing.T) {
	for _, kind := range []game.FaultKind{game.Timeout, game.Crash, game.Memory, game.Protocol, game.OutputLimit} {
		t.Run(string(kind), func(t *testing.T) {
			// Player 2 attacks at turn 2 and faults at turn 6; player 0 drops player 2's block
			// (column 2 below it) with an attack at turn 12: it falls in turn 12+8-1.
			m := newTest(1000, at(1, 7, 'D'), at(17, 17, 'U'), at(7, 7, 'L'), at(17, 0, 'U'))
			fault := &game.Fault{Kind: kind, Turn: 6, Detail: "x"}
			if drive(t, m, 6, script{2: "A"}.act) {
				t.Fatal("ended")
			}
			if req, _ := m.Next(); req.Player != 2 || req.Turn != 6 {
				t.Fatalf("request %+v", req)
			}
			if got := m.Reply(game.Reply{Fault: fault}); got != fault {
				t.Fatalf("verdict %v", got)
			}
			var asked []int
			act := func(p, turn int) string {
				asked = append(asked, turn)
				if turn == 12 {
					return "A"
				}
				return "N"
			}
			lines := seen(t, m, 11, act)
			if got := playerLine(lines, 2); got != "7 7 L 0" {
				t.Errorf("player 2 at turn 11: %q (the wait counts down: 2, 1, 0)", got)
			}
			lines = seen(t, m, 21, act)
			if got := playerLine(lines, 2); got != "-1 -1 L 0" || m.players[2].fell != 19 {
				t.Errorf("player 2 at turn 21: %q, fell %d", got, m.players[2].fell)
			}
			for _, turn := range asked {
				if turn%numPlayers == 2 {
					t.Errorf("the stopped player was asked at turn %d", turn)
				}
			}
			if res := m.Result(); res.Faults[2] != fault || res.Faults[0] != nil {
				t.Errorf("faults %v", res.Faults)
			}
		})
	}
}

// TestFallenPlayersAreAsked: a fallen player's turns pass with its input; its answer is ignored.
func TestFallenPlayersAreAsked(t *testing.T) {
	m := newTest(1000, at(1, 1, 'R'), at(2, 5, 'U'), at(16, 16, 'U'), at(16, 1, 'U'))
	lines := seen(t, m, 5, script{0: "A", 1: "N"}.act)
	if playerLine(lines, 1) != "-1 -1 U 0" {
		t.Fatalf("player 1 %q", playerLine(lines, 1))
	}
	req, _ := m.Next()
	m.Reply(game.Reply{Lines: []string{"D"}})
	if req.Player != 1 || !strings.HasPrefix(req.Send, "1\n5\n") {
		t.Errorf("the fallen player's turn: %+v", req)
	}
	if p := m.players[1]; p.dir != up || p.alive() {
		t.Errorf("the fallen player acted: %+v", p)
	}
}

// TestEndOneSurvivor: the game ends in the turn the last but one player falls.
func TestEndOneSurvivor(t *testing.T) {
	m := newTest(1000, at(1, 1, 'R'), at(1, 5, 'U'), at(1, 8, 'U'), at(1, 11, 'U'))
	var last int
	if !drive(t, m, 1000, func(p, turn int) string {
		last = turn
		if turn == 0 {
			return "A"
		}
		return "N"
	}) {
		t.Fatal("the game did not end")
	}
	if last != 11 || m.turn != 12 {
		t.Errorf("last turn asked %d, turns played %d", last, m.turn)
	}
	res := m.Result()
	if want := []float64{3, 0, 1, 2}; !slices.Equal(res.Scores, want) {
		t.Errorf("scores %v, want %v", res.Scores, want)
	}
	if want := []int{1, 4, 3, 2}; !slices.Equal(res.Ranks, want) {
		t.Errorf("ranks %v, want %v", res.Ranks, want)
	}
	if res.Winner == nil || *res.Winner != 0 {
		t.Errorf("winner %v", res.Winner)
	}
	if _, done := m.Next(); !done {
		t.Error("asked after the end")
	}
}

// TestEndNobodyLeft: the last players falling together is a draw.
func TestEndNobodyLeft(t *testing.T) {
	m := newTest(1000, at(0, 0, 'U'), at(2, 2, 'U'), at(1, 7, 'L'), at(17, 17, 'U'))
	m.blocks[0][2] = 10 // player 2's block falls at the end of turn 9
	m.blocks[5][5] = 6  // player 3's at the end of turn 5
	if !drive(t, m, 1000, script{2: "A"}.act) {
		t.Fatal("the game did not end")
	}
	res := m.Result()
	if m.turn != 10 || !slices.Equal(res.Scores, []float64{1, 1, 1, 0}) || !slices.Equal(res.Ranks, []int{1, 1, 1, 4}) || res.Winner != nil {
		t.Errorf("turns %d, scores %v, ranks %v, winner %v", m.turn, res.Scores, res.Ranks, res.Winner)
	}
}

// TestEndTurnLimit: T runs 0..999; players still on the board share the first rank: a draw.
func TestEndTurnLimit(t *testing.T) {
	m, err := New().New(game.Config{Seed: 3, Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	var requests, last int
	for {
		req, done := m.Next()
		if done {
			break
		}
		requests++
		last = req.Turn
		m.Reply(game.Reply{Lines: []string{"READY"}}) // an unknown action: N
	}
	res := m.Result()
	if requests != 4+1000 || last != 999 || !slices.Equal(res.Ranks, []int{1, 1, 1, 1}) || res.Winner != nil {
		t.Errorf("%d requests, last turn %d, ranks %v, winner %v", requests, last, res.Ranks, res.Winner)
	}
}

func TestRanks(t *testing.T) {
	for _, tc := range []struct {
		fell   [numPlayers]int // -1: still on the board
		scores []float64
		ranks  []int
		winner int // -1: a draw
	}{
		{[4]int{-1, 3, 7, 11}, []float64{3, 0, 1, 2}, []int{1, 4, 3, 2}, 0},
		{[4]int{3, 3, -1, 11}, []float64{0, 0, 3, 2}, []int{3, 3, 1, 2}, 2},
		{[4]int{5, -1, 5, 5}, []float64{0, 3, 0, 0}, []int{2, 1, 2, 2}, 1},
		{[4]int{-1, -1, 3, 5}, []float64{2, 2, 0, 1}, []int{1, 1, 4, 3}, -1},
		{[4]int{-1, -1, -1, 9}, []float64{1, 1, 1, 0}, []int{1, 1, 1, 4}, -1},
		{[4]int{-1, -1, -1, -1}, []float64{0, 0, 0, 0}, []int{1, 1, 1, 1}, -1},
		{[4]int{9, 9, 3, 5}, []float64{2, 2, 0, 1}, []int{1, 1, 4, 3}, -1},
		{[4]int{9, 9, 9, 9}, []float64{0, 0, 0, 0}, []int{1, 1, 1, 1}, -1},
	} {
		m := newTest(1000, at(0, 0, 'U'), at(0, 17, 'U'), at(17, 0, 'U'), at(17, 17, 'U'))
		for i, f := range tc.fell {
			m.players[i].fell = f
		}
		res := m.Result()
		winner := -1
		if res.Winner != nil {
			winner = *res.Winner
		}
		if !slices.Equal(res.Scores, tc.scores) || !slices.Equal(res.Ranks, tc.ranks) || winner != tc.winner {
			t.Errorf("fell %v: scores %v ranks %v winner %d, want %v %v %d", tc.fell, res.Scores, res.Ranks, winner, tc.scores, tc.ranks, tc.winner)
		}
	}
}

// TestAnswerWhitespace: surrounding ASCII whitespace (spaces, tabs, "\r", "\v", "\f") around
// an action is ignored, as game.TrimLine says; a Unicode space such as U+00A0 or U+2003 is
// part of the answer, which then is an unknown action: N, never a fault.
func TestAnswerWhitespace(t *testing.T) {
	const moved, stayed = "9 8 L 0", "9 9 U 0"
	for _, tc := range gametest.Whitespace("L") {
		want := stayed
		if tc.Same {
			want = moved
		}
		t.Run(tc.Name, func(t *testing.T) {
			m := newTest(1000, at(9, 9, 'U'), at(0, 0, 'U'), at(17, 0, 'U'), at(0, 17, 'U'))
			lines := seen(t, m, 1, script{0: tc.Line}.act)
			if got := playerLine(lines, 0); got != want {
				t.Errorf("%q: player 0 %q, want %q", tc.Line, got, want)
			}
			if m.faults[0] != nil {
				t.Errorf("%q: fault %v", tc.Line, m.faults[0])
			}
		})
	}
}

// TestFallenPlayerKeepsWait: a fallen player's line is "-1 -1 D S" with D and S as they were
// when it fell, in every later input of every player, to the end of the game. The moment
// counts: in its own turn the player acts, its wait drops by one, and only then do the
// blocks step and fall, so a player falling in its own turn keeps the decremented wait.
func TestFallenPlayerKeepsWait(t *testing.T) {
	for _, tc := range []struct {
		name    string
		counter int    // player 0's block's counter at the start: it falls at the end of turn counter-1
		fell    int    // the global turn player 0 falls in
		want    string // player 0's line from then on
	}{
		// Player 0 attacks at turn 0: wait 3, 2 after its own turn.
		{"in its attack turn", 1, 0, "-1 -1 D 2"},
		{"in another player's turn, wait 2", 3, 2, "-1 -1 D 2"},
		// Turn 4 is its own (forced N): the wait drops to 1 before its block falls.
		{"in its own waiting turn", 5, 4, "-1 -1 D 1"},
		{"in another player's turn, wait 1", 7, 6, "-1 -1 D 1"},
		{"in its last waiting turn", 9, 8, "-1 -1 D 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Player 0 faces down and attacks the blocks below it; nobody stands there.
			m := newTest(60, at(1, 1, 'D'), at(16, 16, 'U'), at(16, 10, 'U'), at(10, 10, 'L'))
			m.blocks[0][0] = tc.counter
			checked := map[int]bool{}
			for {
				req, done := m.Next()
				if done {
					break
				}
				answer := "READY"
				if req.Ready == "" {
					lines := strings.Split(strings.TrimSuffix(req.Send, "\n"), "\n")
					got := playerLine(lines, 0)
					switch {
					case req.Turn == 4 && tc.fell >= 4:
						// Its next input after the attack shows the wait 2.
						if got != "1 1 D 2" {
							t.Errorf("turn 4: player 0 %q, want %q", got, "1 1 D 2")
						}
					case req.Turn > tc.fell:
						if got != tc.want {
							t.Errorf("turn %d (player %d's input): player 0 %q, want %q", req.Turn, req.Player, got, tc.want)
						}
						checked[req.Player] = true
					}
					switch {
					case req.Player == 0 && req.Turn == 0:
						answer = "A"
					case req.Player == 0:
						answer = "R" // ignored while waiting and after the fall: D stays
					default:
						answer = "N"
					}
				}
				if f := m.Reply(game.Reply{Lines: []string{answer}}); f != nil {
					t.Fatalf("turn %d: %v", req.Turn, f)
				}
			}
			if m.players[0].fell != tc.fell {
				t.Fatalf("player 0 fell in turn %d, want %d", m.players[0].fell, tc.fell)
			}
			if m.turn != 60 || len(checked) != numPlayers {
				t.Fatalf("%d turns played, players checked %v", m.turn, checked)
			}
		})
	}
}
