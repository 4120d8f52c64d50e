package dropblock

import (
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/game"
)

// ready is the message every player prints when it is ready to start.
const ready = "READY"

// match is one game. First every player is asked for READY; then the global turns run, each
// one the turn of player T mod 4: it is asked for its action (unless its program was stopped
// after a fault: then it does N without being asked), the action is applied and the blocks
// step.
type match struct {
	state
	turns        int
	limit, ready time.Duration
	setup        game.Setup

	// turn is T, the global turn being played.
	turn int
	// readied is the number of players asked for READY so far.
	readied int
	faults  [numPlayers]*game.Fault

	// waiting is set while req is out.
	waiting bool
	req     game.Request
	buf     []byte
}

func newMatch(starts [numPlayers]player, turns int, limit, ready time.Duration, setup game.Setup) *match {
	m := &match{turns: turns, limit: limit, ready: ready, setup: setup}
	m.players = starts
	return m
}

// Setup is the options with defaults, the memory limit and the start places as the World.
func (m *match) Setup() game.Setup {
	s := m.setup
	s.Options = maps.Clone(s.Options)
	return s
}

// over is whether the game has ended: at most one player left, or all turns played.
func (m *match) over() bool { return m.turn >= m.turns || m.living() <= 1 }

// Next asks for READY, then for each turn's action. The turns of players whose program was
// stopped are played here, as N. Asked again before the answer, it repeats the request.
func (m *match) Next() (game.Request, bool) {
	if m.waiting {
		return m.req, false
	}
	if m.readied < numPlayers {
		p := m.readied
		m.readied++
		m.req = game.Request{Player: p, Turn: 0, Ready: ready, Limit: m.ready}
		m.waiting = true
		return m.req, false
	}
	for !m.over() {
		p := m.turn % numPlayers
		if m.faults[p] == nil {
			m.req = game.Request{Player: p, Turn: m.turn, Send: m.input(p), Expect: 1, Limit: m.limit}
			m.waiting = true
			return m.req, false
		}
		m.play(p, 'N')
	}
	return game.Request{}, true
}

// Reply applies the answer to the pending request. A fault stops the player's program for
// good; the player stays on the board doing N.
func (m *match) Reply(r game.Reply) *game.Fault {
	if !m.waiting {
		return nil // nothing was asked, so there is nothing to judge
	}
	m.waiting = false
	p := m.req.Player
	if r.Fault != nil {
		if m.faults[p] == nil {
			m.faults[p] = r.Fault
		}
		if m.req.Ready == "" {
			m.play(p, 'N')
		}
		return r.Fault
	}
	if m.req.Ready != "" {
		return nil
	}
	action := byte('N')
	if len(r.Lines) > 0 {
		action = parseAction(r.Lines[0])
	}
	m.play(p, action)
	return nil
}

// parseAction reads an action; anything but one of the six letters, after trimming the
// surrounding ASCII whitespace (game.TrimLine), is N: a Unicode space such as U+00A0 makes
// the action unknown.
func parseAction(line string) byte {
	s := game.TrimLine(line)
	if len(s) == 1 && strings.IndexByte("URDLAN", s[0]) >= 0 {
		return s[0]
	}
	return 'N'
}

// play is global turn T for player p: its action if it is on the board, then the blocks'
// step.
func (m *match) play(p int, action byte) {
	if m.players[p].alive() {
		m.act(p, action)
	}
	m.step(m.turn)
	m.turn++
}

// input is the page's turn information for player p: id, T, the blocks, the players, EOD.
func (m *match) input(p int) string {
	b := m.buf[:0]
	b = strconv.AppendInt(b, int64(p), 10)
	b = append(b, '\n')
	b = strconv.AppendInt(b, int64(m.turn), 10)
	b = append(b, '\n')
	for _, row := range m.blocks {
		for c, v := range row {
			if c > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, '\n')
	}
	for _, q := range m.players {
		if q.alive() {
			b = strconv.AppendInt(b, int64(q.row), 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(q.col), 10)
			b = append(b, ' ', dirLetters[q.dir], ' ')
			b = strconv.AppendInt(b, int64(q.wait), 10)
		} else {
			// D and S as they were when the player fell: nothing changes them afterwards.
			b = append(b, "-1 -1 "...)
			b = append(b, dirLetters[q.dir], ' ')
			b = strconv.AppendInt(b, int64(q.wait), 10)
		}
		b = append(b, '\n')
	}
	b = append(b, "EOD\n"...)
	m.buf = b
	return string(b)
}

// Result ranks the players by survival; the survivor, if there is exactly one, wins.
func (m *match) Result() game.Result {
	return game.Ranked(m.scores(), m.faults[:])
}
