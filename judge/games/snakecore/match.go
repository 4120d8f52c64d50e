package snakecore

import (
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/game"
)

// Requests of the page's protocol.
const (
	reqName   = "getName\n"
	reqAction = "getAction\n"
)

// match is one game of SnakeCore: every player is asked its name (turn 0), then each round
// (turns 1..moves) every player still in the game is asked for an action, in id order, and
// the action is performed at once, so the next player sees its result.
type match struct {
	st    *state
	cfg   config
	setup game.Setup

	cpu    []time.Duration
	faults []*game.Fault
	names  []string
	played []int // turns passed per player (skips and a disqualified player's turns included)

	named int // players asked for their name so far
	round int // the current round, 0 before the first
	next  int // the next player to move in the round
	// pending is the request out, waiting for its answer.
	pending game.Pending
	// last is what the last answered action did, for tests.
	last outcome
}

func newMatch(st *state, cfg config, setup game.Setup) *match {
	return &match{
		st: st, cfg: cfg, setup: setup,
		cpu:    make([]time.Duration, cfg.players),
		faults: make([]*game.Fault, cfg.players),
		names:  make([]string, cfg.players),
		played: make([]int, cfg.players),
	}
}

// Setup is the options with defaults, the memory limit and the field at the start.
func (m *match) Setup() game.Setup {
	s := m.setup
	s.Options = maps.Clone(s.Options)
	return s
}

// Next asks the names, then plays the rounds. A disqualified player's turn passes without a
// request (its python skips). Asked again before the answer, Next repeats the request.
func (m *match) Next() (game.Request, bool) {
	if req, ok := m.pending.Held(); ok {
		return req, false
	}
	for {
		if m.named < m.cfg.players {
			p := m.named
			m.named++
			return m.ask(game.Request{Player: p, Turn: 0, Send: reqName, Expect: 1, Limit: m.limit(p, m.cfg.first), Intro: true}), false
		}
		if m.round == 0 || m.next == m.cfg.players {
			if m.round == m.cfg.moves {
				return game.Request{}, true
			}
			m.round++
			m.next = 0
		}
		p := m.next
		m.next++
		m.played[p]++
		m.st.begin(p)
		if m.faults[p] != nil {
			m.st.apply(p, actNone)
			continue
		}
		return m.ask(game.Request{Player: p, Turn: m.round, Send: m.st.request(p), Expect: 1, Limit: m.limit(p, m.cfg.time)}), false
	}
}

func (m *match) ask(req game.Request) game.Request {
	return m.pending.Ask(req)
}

// limit is the time for one answer: the per-answer limit, or what is left of the player's
// total when that is less. It is never 0, which the referee would read as no limit: a
// player whose total is used up gets a nanosecond.
func (m *match) limit(p int, per time.Duration) time.Duration {
	return max(min(per, m.cfg.total-m.cpu[p]), time.Nanosecond)
}

// Reply judges the answer to the pending request and, for getAction, performs the action.
// A fault (the referee's, or the game's for a bad answer) disqualifies the player: its
// python stays where it is and skips this move and every later one.
func (m *match) Reply(r game.Reply) *game.Fault {
	req, ok := m.pending.Take()
	if !ok {
		return nil // nothing was asked, so there is nothing to judge
	}
	p := req.Player
	m.cpu[p] += max(r.CPU, 0)
	f := r.Fault
	var line string
	if f == nil {
		line, f = answerLine(r.Lines, req.Turn)
	}
	if f == nil {
		if req.Send == reqName {
			f = m.name(p, line, req.Turn)
		} else {
			f = m.action(p, line, req.Turn)
		}
	}
	if f != nil {
		if m.faults[p] == nil {
			m.faults[p] = f
		}
		if req.Send != reqName {
			m.st.apply(p, actNone)
		}
	}
	return f
}

// answerLine is the answer's one line without its surrounding ASCII whitespace
// (game.TrimLine, docs/rules.md); a Unicode space such as U+00A0 stays part of the answer.
func answerLine(lines []string, turn int) (string, *game.Fault) {
	if len(lines) != 1 {
		return "", &game.Fault{Kind: game.Protocol, Turn: turn, Detail: fmt.Sprintf("an answer of %d lines, 1 expected", len(lines))}
	}
	return game.TrimLine(lines[0]), nil
}

// name checks the answer to getName: at most 32 bytes, every character 0x20 or above.
func (m *match) name(p int, line string, turn int) *game.Fault {
	if len(line) > maxName {
		return &game.Fault{Kind: game.Protocol, Turn: turn, Detail: fmt.Sprintf("a name of %d bytes: at most %d", len(line), maxName)}
	}
	for i := 0; i < len(line); i++ {
		if line[i] < 0x20 {
			return &game.Fault{Kind: game.Protocol, Turn: turn, Detail: fmt.Sprintf("byte 0x%02x at position %d of the name: characters below 0x20 are not allowed", line[i], i+1)}
		}
	}
	m.names[p] = line
	return nil
}

// action checks the answer to getAction, one of U L D R N A, and performs it. A move the
// rules forbid is a skip, not a fault; an answer that is no action breaks the protocol.
func (m *match) action(p int, line string, turn int) *game.Fault {
	if len(line) != 1 || !strings.Contains("ULDRNA", line) {
		return &game.Fault{Kind: game.Protocol, Turn: turn, Detail: fmt.Sprintf("%q is not an action: one of U L D R N A", clip(line))}
	}
	m.last = m.st.apply(p, line[0])
	return nil
}

// Result ranks the players by score; ties share a rank, and a shared top is a draw.
func (m *match) Result() game.Result {
	scores := make([]float64, len(m.st.pythons))
	for p, py := range m.st.pythons {
		scores[p] = float64(py.score)
	}
	return game.Ranked(scores, m.faults)
}

// clip shortens a bot's answer for a fault's detail.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
