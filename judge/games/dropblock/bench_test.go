package dropblock

import (
	"strconv"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/game"
)

// simpleBot is the sample bots' strategy (bots/dropblock/*) in Go: it reads one turn's input
// and answers one action. Fallen or waiting: N. On a falling block: the quickest way off it
// onto a standing block. An enemy on a standing block in line within 3 blocks: attack when
// facing it, else turn to it. Otherwise: a step toward the centre onto a standing block, or N.
func simpleBot(input string) string {
	lines := strings.Split(input, "\n")
	if len(lines) < 13 {
		return "N"
	}
	id, _ := strconv.Atoi(lines[0])
	turn, _ := strconv.Atoi(lines[1])
	var b [blocks][blocks]int
	for r := range blocks {
		for c, f := range strings.Fields(lines[2+r]) {
			if c < blocks {
				b[r][c], _ = strconv.Atoi(f)
			}
		}
	}
	var ps [numPlayers]player
	for i := range ps {
		f := strings.Fields(lines[8+i])
		if len(f) != 4 {
			return "N"
		}
		ps[i].row, _ = strconv.Atoi(f[0])
		ps[i].col, _ = strconv.Atoi(f[1])
		ps[i].dir = strings.Index(dirLetters, f[2])
		ps[i].wait, _ = strconv.Atoi(f[3])
	}
	me := ps[id]
	if me.row < 0 || me.wait > 0 {
		return "N"
	}
	block := func(r, c int) int { return b[r/blockSide][c/blockSide] }
	legal := func(d int) bool {
		r, c := me.row+dRow[d], me.col+dCol[d]
		if !onBoard(r, c) || block(r, c) < 0 {
			return false
		}
		for j, q := range ps {
			if j != id && q.row >= 0 && dist(r, c, q.row, q.col) <= keepAway {
				return false
			}
		}
		return true
	}
	safe := func(d int) bool { return legal(d) && block(me.row+dRow[d], me.col+dCol[d]) == 0 }
	move := func(d int) string { return dirLetters[d : d+1] }
	br, bc := me.row/blockSide, me.col/blockSide

	if b[br][bc] > 0 {
		best, steps := -1, 0
		for d := range 4 {
			nr, nc := br+dRow[d], bc+dCol[d]
			if !legal(d) || nr < 0 || nr >= blocks || nc < 0 || nc >= blocks || b[nr][nc] != 0 {
				continue
			}
			// Squares to walk to leave the block that way.
			e := [4]int{me.row%blockSide + 1, blockSide - me.col%blockSide, blockSide - me.row%blockSide, me.col%blockSide + 1}[d]
			if best < 0 || e < steps {
				best, steps = d, e
			}
		}
		if best >= 0 {
			return move(best)
		}
	}
	for k := range 4 {
		d := (me.dir + k) % 4
		for j, q := range ps {
			if j == id || q.row < 0 {
				continue
			}
			qr, qc := q.row/blockSide, q.col/blockSide
			if b[qr][qc] != 0 {
				continue
			}
			n := (qr-br)*dRow[d] + (qc-bc)*dCol[d]
			inLine := (dRow[d] != 0 && qc == bc) || (dCol[d] != 0 && qr == br)
			if !inLine || n < 1 || n > 3 {
				continue
			}
			if k == 0 {
				return "A"
			}
			if safe(d) || !legal(d) { // a step onto a standing block, or a plain turn
				return move(d)
			}
		}
	}
	var want []int
	if me.row < size/2-1 {
		want = append(want, down)
	} else if me.row > size/2 {
		want = append(want, up)
	}
	if me.col < size/2-1 {
		want = append(want, right)
	} else if me.col > size/2 {
		want = append(want, left)
	}
	for k := range want {
		d := want[(k+turn/numPlayers)%len(want)]
		if safe(d) {
			return move(d)
		}
	}
	return "N"
}

// playGame plays a whole game of four bots answering with bot; it returns the turns played.
func playGame(tb testing.TB, seed uint64, bot func(string) string) int {
	m, err := New().New(game.Config{Seed: seed, Players: numPlayers})
	if err != nil {
		tb.Fatal(err)
	}
	lines := []string{""}
	for {
		req, done := m.Next()
		if done {
			break
		}
		if req.Ready != "" {
			lines[0] = ready
		} else {
			lines[0] = bot(req.Send)
		}
		if f := m.Reply(game.Reply{Lines: lines}); f != nil {
			tb.Fatal(f)
		}
	}
	return m.(*match).turn
}

// BenchmarkReferee plays whole games in process, with no sandbox: "sample-bots" with the
// sample bots' strategy (simpleBot, whose parsing is part of the time), "idle-bots" with
// bots that always answer N, so all 1000 turns are played and the time is the referee's.
func BenchmarkReferee(b *testing.B) {
	for _, bc := range []struct {
		name string
		bot  func(string) string
	}{
		{"sample-bots", simpleBot},
		{"idle-bots", func(string) string { return "N" }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			turns := 0
			for i := 0; i < b.N; i++ {
				turns += playGame(b, uint64(i), bc.bot)
			}
			b.ReportMetric(float64(turns)/float64(b.N), "turns/game")
		})
	}
}

// TestSampleStrategy: the sample strategy finishes games, often with falls, and never
// walks onto a block that is falling of its own accord.
func TestSampleStrategy(t *testing.T) {
	falls, short := 0, 0
	for seed := uint64(0); seed < 50; seed++ {
		m, _ := New().New(game.Config{Seed: seed, Players: numPlayers})
		mm := m.(*match)
		for {
			req, done := m.Next()
			if done {
				break
			}
			answer := ready
			if req.Ready == "" {
				answer = simpleBot(req.Send)
			}
			m.Reply(game.Reply{Lines: []string{answer}})
		}
		falls += numPlayers - mm.living()
		if mm.turn < mm.turns {
			short++
		}
	}
	t.Logf("50 games: %d falls, %d games ended before the turn limit", falls, short)
	if falls == 0 {
		t.Error("nobody ever fell: the sample strategy never attacks")
	}
}
