package amazes

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/botjudge/judge/judge/game"
)

// Scoring constants from the page.
const (
	maxLine     = 256
	captureGain = 100
	maxScore    = 1000
)

// match is one game of Amazes. Turns alternate Red, Blue, Red, ...; each turn is the
// information stage (done when the request is made, so the discoveries happen before
// the player answers) and the move (done when the answer arrives).
type match struct {
	maze   *Maze
	turns  int
	budget time.Duration
	setup  game.Setup

	know   [2]knowledge
	at     [2]place
	points [2]int
	played [2]int // turns completed
	cpu    [2]time.Duration
	faults [2]*game.Fault

	mover int
	// waiting is set while the mover's request is out; req is that request and from the
	// square the turn started on (for the jury's extra T).
	waiting bool
	req     game.Request
	from    int
	// quit is the player owed the Quit notice after a sudden death, or -1.
	quit int
	over bool
	// walked is the squares each player passed through in its last turn, its start first:
	// the path a viewer draws (View).
	walked [2][]int
}

func newMatch(m *Maze, turns int, budget time.Duration, setup game.Setup) *match {
	return &match{maze: m, turns: turns, budget: budget, setup: setup, at: m.starts, quit: -1}
}

// Setup is the options with defaults, the memory limit and the maze as the World.
func (m *match) Setup() game.Setup { return m.setup }

// Next plays the jury's turns for faulted players itself and asks the others. Asked
// again before the answer, it repeats the request: the information stage is done once.
func (m *match) Next() (game.Request, bool) {
	if m.waiting {
		return m.req, false
	}
	for {
		if p := m.quit; p >= 0 {
			m.quit = -1
			return game.Request{Player: p, Turn: m.played[p] + 1, Send: "Quit\n"}, false
		}
		if m.over {
			return game.Request{}, true
		}
		p := m.mover
		if m.played[p] >= m.turns {
			// Red moves first, so Red out of turns on its move means Blue is too.
			m.over = true
			continue
		}
		lines := m.begin(p)
		if m.faults[p] != nil {
			m.finish(p, "T", true)
			continue
		}
		var b strings.Builder
		if p == 0 && m.played[0] == 0 {
			b.WriteString("Start\n")
		}
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%d\n", dist2(m.at[0].sq, m.at[1].sq))
		m.req = game.Request{Player: p, Turn: m.played[p] + 1, Send: b.String(), Expect: 1, Limit: m.limit(p)}
		m.waiting = true
		return m.req, false
	}
}

// limit is what is left of the player's time for the game. It is never 0, which the
// referee would read as no limit: a player whose time is used up gets a nanosecond.
func (m *match) limit(p int) time.Duration {
	return max(m.budget-m.cpu[p], time.Nanosecond)
}

// Reply judges the mover's answer. With no request out (a notice has no answer) there
// is nothing to judge.
func (m *match) Reply(r game.Reply) *game.Fault {
	if !m.waiting {
		return nil
	}
	m.waiting = false
	p := m.req.Player
	m.cpu[p] += max(r.CPU, 0)
	f := r.Fault
	var line string
	if f == nil {
		line, f = parseMove(r.Lines, m.req.Turn)
	}
	if f != nil {
		// The page: the jury performs none of the player's moves and plays T for it from
		// this turn on; its score will be 0 whatever its points.
		if m.faults[p] == nil {
			m.faults[p] = f
		}
		m.finish(p, "T", true)
		return f
	}
	m.points[p] -= len(line)
	m.finish(p, line, false)
	return nil
}

// parseMove checks an answer: one line of 1..256 letters F T L R. Surrounding ASCII
// whitespace is ignored (game.TrimLine, docs/rules.md); anything else from the bot, a
// Unicode space such as U+00A0 included, is its fault.
func parseMove(lines []string, turn int) (string, *game.Fault) {
	if len(lines) == 0 {
		return "", &game.Fault{Kind: game.Protocol, Turn: turn, Detail: "no move line"}
	}
	line := game.TrimLine(lines[0])
	switch {
	case line == "":
		return "", &game.Fault{Kind: game.IllegalMove, Turn: turn, Detail: "empty move line: a move is 1 to 256 of F T L R"}
	case len(line) > maxLine:
		return "", &game.Fault{Kind: game.IllegalMove, Turn: turn, Detail: fmt.Sprintf("%d characters: at most %d steps per turn", len(line), maxLine)}
	}
	for i := 0; i < len(line); i++ {
		if !strings.ContainsRune("FTLR", rune(line[i])) {
			bad, _ := utf8.DecodeRuneInString(line[i:])
			return "", &game.Fault{Kind: game.Protocol, Turn: turn, Detail: fmt.Sprintf("character %q at position %d is not one of F T L R", bad, i+1)}
		}
	}
	return line, nil
}

// begin is the information stage of p's turn: look, infer, score the discoveries.
func (m *match) begin(p int) [4]string {
	m.from = m.at[p].sq
	lines := look(m.maze, m.at[p], &m.know[p])
	m.know[p].infer(m.maze)
	m.score(p)
	return lines
}

// score credits p for the squares it discovered since the last call: 1 each, and 1
// more when the opponent has not discovered the square.
func (m *match) score(p int) {
	k := &m.know[p]
	for _, s := range k.fresh {
		m.points[p]++
		if !m.know[1-p].disc[s] {
			m.points[p]++
		}
	}
	k.fresh = k.fresh[:0]
}

// finish performs p's moves and ends its turn. A jury turn (a faulted player's T) moves
// the player and discovers squares, so the opponent's "first" bonus stays fair, but
// neither captures nor causes a sudden death: a player out of the game must not take
// the opponent's points (decided here; the page is silent).
func (m *match) finish(p int, line string, jury bool) {
	m.walked[p] = append(m.walked[p][:0], m.at[p].sq)
	for i := 0; i < len(line); i++ {
		if !m.step(p, line[i]) {
			break
		}
	}
	if m.at[p].sq == m.from {
		m.step(p, 'T') // the jury's extra T: free, and it may hit a wall too
	}
	// Squares walked over are discovered at once; inference waits for the next
	// information stage, where the page places it.
	m.score(p)
	m.played[p]++
	m.mover = 1 - p
	o := 1 - p
	if jury || m.at[p].sq != m.at[o].sq {
		return
	}
	if m.know[p].count < numSquares {
		m.points[p] += captureGain
		return
	}
	m.points[p] *= 2
	m.points[o] = 0
	m.over = true
	if m.faults[o] == nil && m.played[o] < m.turns {
		m.quit = o
	}
}

// step performs one move letter. A wall stops it: the player neither moves nor turns.
func (m *match) step(p int, c byte) bool {
	at := m.at[p]
	d := at.dir
	switch c {
	case 'T':
		d = d.back()
	case 'L':
		d = d.left()
	case 'R':
		d = d.right()
	}
	if m.maze.wallAt(at.sq, d) {
		return false
	}
	m.at[p] = place{neighbour(at.sq, d), d}
	m.know[p].discover(m.at[p].sq)
	m.walked[p] = append(m.walked[p], m.at[p].sq)
	return true
}

// Result scores the points: 0 for a faulted player, otherwise clamped to 0..1000.
func (m *match) Result() game.Result {
	scores := make([]float64, 2)
	for p := range scores {
		if m.faults[p] == nil {
			scores[p] = float64(min(max(m.points[p], 0), maxScore))
		}
	}
	return game.Ranked(scores, m.faults[:])
}
