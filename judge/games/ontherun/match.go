package ontherun

import (
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/game"
)

// The page's numbers: 4 detectives, 10 rounds of 5 turns, the last turn of each round an
// announcement; 20 points per game, the Detectives' catch worth 10 plus each announcement
// they had not yet heard.
const (
	numDetectives = 4
	turnsPerRound = 5
	rounds        = 10
	numTurns      = rounds * turnsPerRound
	totalPoints   = 20
	catchPoints   = 10
)

// Player indices.
const (
	fugitive   = 0
	detectives = 1
)

// phase is the answer the match waits for.
type phase int

const (
	detStart phase = iota // the Detectives' 4 start cities
	fugStart              // the Fugitive's start city
	fugMove               // the Fugitive's move of the turn
	detMove               // the Detectives' 4 moves of the turn
	over
)

// match is one game. Requests wait in queue until Next hands them out; at most one of them
// expects an answer, and it is always the last, so the phase always belongs to it.
type match struct {
	world  *worldMap
	setup  game.Setup
	budget time.Duration
	cpu    [2]time.Duration

	queue   []game.Request
	pending *game.Request
	phase   phase
	turn    int

	fugitive   int
	detectives [numDetectives]int

	// For the viewer (view.go): trail is the fugitive's cities, its start first, and by the
	// transport letters of its moves (by[k] took it to trail[k+1]); told is the last line the
	// Detectives were told of it, and known the city they last heard, in turn knownTurn.
	trail            []int
	by               string
	told             string
	known, knownTurn int

	scores [2]float64
	faults [2]*game.Fault
	// caught is set by an arrest: the Detectives win whatever the points, 10-10 included.
	caught bool
	// ending says how the game ended, for tests and debugging.
	ending string
}

func newMatch(w *worldMap, setup game.Setup, budget time.Duration) *match {
	connect := w.connectTxt()
	setup.Files = []map[string][]byte{
		{"connect.txt": connect},
		{"connect.txt": append([]byte(nil), connect...)},
	}
	setup.World = w.world()
	m := &match{world: w, setup: setup, budget: budget, phase: detStart}
	m.notice(fugitive, "Fugitive\n")
	m.ask(detectives, "Detectives\n", numDetectives)
	return m
}

// Setup returns the options, memory limit, each player's connect.txt and the map.
func (m *match) Setup() game.Setup {
	s := m.setup
	s.Options = maps.Clone(s.Options)
	s.Files = make([]map[string][]byte, len(m.setup.Files))
	for p, files := range m.setup.Files {
		s.Files[p] = maps.Clone(files)
	}
	return s
}

func (m *match) notice(player int, send string) { m.ask(player, send, 0) }

func (m *match) ask(player int, send string, expect int) {
	m.queue = append(m.queue, game.Request{Player: player, Turn: m.turn, Send: send, Expect: expect})
}

// Next hands out the queued requests in order. A request that expects an answer is repeated
// until Reply comes; a notice needs none, so asking again moves past it.
func (m *match) Next() (game.Request, bool) {
	if m.pending != nil {
		if m.pending.Expect > 0 {
			return *m.pending, false
		}
		m.pending = nil
	}
	if len(m.queue) == 0 {
		return game.Request{}, true
	}
	req := m.queue[0]
	m.queue = m.queue[1:]
	req.Limit = m.remaining(req.Player)
	m.pending = &req
	return req, false
}

// remaining is the player's unused CPU budget. It never reaches zero, which a referee could
// take for "no limit": a spent budget leaves a nanosecond, so any thinking is a timeout.
func (m *match) remaining(player int) time.Duration {
	return max(m.budget-m.cpu[player], time.Nanosecond)
}

// Reply judges the answer to the pending request.
func (m *match) Reply(r game.Reply) *game.Fault {
	req := m.pending
	if req == nil {
		return nil // nothing was asked, so there is nothing to judge
	}
	m.pending = nil
	m.cpu[req.Player] += max(r.CPU, 0)
	if r.Fault != nil {
		// After the end (a Quit that found the bot gone) a fault changes nothing.
		if m.phase != over {
			m.forfeit(req.Player, r.Fault)
		}
		return r.Fault
	}
	if req.Expect == 0 {
		return nil
	}
	f := m.judge(*req, r.Lines)
	if f != nil {
		m.forfeit(req.Player, f)
	}
	return f
}

// Result is the 20 points split; a game still running reports no points. An arrest makes the
// Detectives the winner even when it leaves the points at 10-10 (after the tenth
// announcement): the page says that if the detectives catch the fugitive, they win.
func (m *match) Result() game.Result {
	scores := []float64{m.scores[0], m.scores[1]}
	if m.caught {
		return game.Ranks(scores, []int{fugitive: 2, detectives: 1}, m.faults[:])
	}
	return game.Ranked(scores, m.faults[:])
}

func (m *match) judge(req game.Request, lines []string) *game.Fault {
	if len(lines) != req.Expect {
		return m.fault(game.Protocol, "an answer of %d lines, %d expected", len(lines), req.Expect)
	}
	switch m.phase {
	case detStart:
		return m.detectivesStart(lines)
	case fugStart:
		return m.fugitiveStart(lines[0])
	case fugMove:
		return m.fugitiveMove(lines[0])
	case detMove:
		return m.detectivesMove(lines)
	}
	return nil
}

func (m *match) detectivesStart(lines []string) *game.Fault {
	for k, l := range lines {
		c, f := m.readCity(l, fmt.Sprintf("detective %d", k+1))
		if f != nil {
			return f
		}
		for j := range k {
			if m.detectives[j] == c {
				return m.fault(game.IllegalMove, "detectives %d and %d both start in city %d", j+1, k+1, c)
			}
		}
		m.detectives[k] = c
	}
	m.phase = fugStart
	m.ask(fugitive, m.detectiveLines(), 1)
	return nil
}

func (m *match) fugitiveStart(line string) *game.Fault {
	c, f := m.readCity(line, "start city")
	if f != nil {
		return f
	}
	if k := m.detectiveIn(c); k >= 0 {
		return m.fault(game.IllegalMove, "start city %d is detective %d's", c, k+1)
	}
	m.fugitive = c
	m.trail, m.told, m.known = append(m.trail, c), strconv.Itoa(c), c
	m.notice(detectives, m.told+"\n")
	m.phase, m.turn = fugMove, 1
	m.ask(fugitive, "", 1)
	return nil
}

func (m *match) fugitiveMove(line string) *game.Fault {
	fields := game.Fields(line)
	if len(fields) != 2 || len(fields[0]) != 1 {
		return m.fault(game.Protocol, "%q is not a move like \"C 12\"", clip(line))
	}
	kind, ok := transportOf(fields[0])
	if !ok {
		return m.fault(game.IllegalMove, "%q: the transport is one of C, T, P", clip(line))
	}
	c, f := m.readCity(fields[1], "destination")
	if f != nil {
		return f
	}
	if c == m.fugitive {
		return m.fault(game.IllegalMove, "the fugitive must move, not stay in city %d", c)
	}
	if !m.world.linked(kind, m.fugitive, c) {
		return m.fault(game.IllegalMove, "no %s connection from city %d to city %d", kind.letter(), m.fugitive, c)
	}
	m.fugitive = c
	m.trail, m.by = append(m.trail, c), m.by+kind.letter()
	if k := m.detectiveIn(c); k >= 0 {
		// The Detectives were not told this turn's city, so an announcement now is unused.
		m.arrest(fmt.Sprintf("the fugitive moved onto detective %d in city %d", k+1, c), (m.turn-1)/turnsPerRound)
		return nil
	}
	told := kind.letter()
	if m.turn%turnsPerRound == 0 {
		told = fmt.Sprintf("%s %d", told, c)
		m.known, m.knownTurn = c, m.turn
	}
	m.told = told
	m.phase = detMove
	m.ask(detectives, told+"\n", numDetectives)
	return nil
}

func (m *match) detectivesMove(lines []string) *game.Fault {
	var next [numDetectives]int
	for k, l := range lines {
		what := fmt.Sprintf("detective %d", k+1)
		c, f := m.readCity(l, what)
		if f != nil {
			return f
		}
		from := m.detectives[k]
		if c == from {
			return m.fault(game.IllegalMove, "%s must move, not stay in city %d", what, c)
		}
		if !m.world.adjacent(from, c) {
			return m.fault(game.IllegalMove, "no connection from city %d to city %d for %s", from, c, what)
		}
		for j := range k {
			if next[j] == c {
				return m.fault(game.IllegalMove, "detectives %d and %d both move to city %d", j+1, k+1, c)
			}
		}
		next[k] = c
	}
	m.detectives = next
	if k := m.detectiveIn(m.fugitive); k >= 0 {
		m.arrest(fmt.Sprintf("detective %d caught the fugitive in city %d", k+1, m.fugitive), m.turn/turnsPerRound)
		return nil
	}
	if m.turn == numTurns {
		// The page: after their last move both players stop by themselves, without Quit.
		m.end(fmt.Sprintf("the fugitive escaped after %d turns", numTurns), totalPoints)
		return nil
	}
	m.phase, m.turn = fugMove, m.turn+1
	m.ask(fugitive, m.detectiveLines(), 1)
	return nil
}

// arrest ends the game with the Detectives' win, worth 10 plus the announcements they had not
// been told when it happened; both players are told Quit.
func (m *match) arrest(how string, told int) {
	m.end(how, totalPoints-(catchPoints+rounds-told))
	m.caught = true
	m.notice(fugitive, "Quit\n")
	m.notice(detectives, "Quit\n")
}

// forfeit ends the game with an irregular loss of the faulty player, 20-0 for the other. Both
// are told Quit, the offender first, as the page says ("if your program, or the program of
// your opponent has made an invalid move ... you will read 'Quit'"). The referee delivers
// the offender's Quit when its fault is a verdict of the game (the bot still runs), and drops
// it when the bot crashed or timed out, so the game issues both in every case and stays
// deterministic for a replay.
func (m *match) forfeit(player int, f *game.Fault) {
	if m.faults[player] == nil {
		m.faults[player] = f
	}
	fugitivePoints := 0
	if player == detectives {
		fugitivePoints = totalPoints
	}
	m.end(fmt.Sprintf("player %d: %v", player, f), fugitivePoints)
	m.queue = nil
	m.notice(player, "Quit\n")
	m.notice(1-player, "Quit\n")
}

func (m *match) end(how string, fugitivePoints int) {
	m.phase, m.ending = over, how
	m.scores = [2]float64{float64(fugitivePoints), float64(totalPoints - fugitivePoints)}
}

// readCity reads a bare city number. A line that is no number is a protocol fault; a number
// that names no city is an illegal move.
func (m *match) readCity(line, what string) (int, *game.Fault) {
	s := game.TrimLine(line)
	c, err := strconv.Atoi(s)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, m.fault(game.Protocol, "%s: %q is not a city number", what, clip(s))
	}
	if err != nil || !m.world.city(c) {
		return 0, m.fault(game.IllegalMove, "%s: %s is not a city (1..%d)", what, clip(s), m.world.n)
	}
	return c, nil
}

func (m *match) detectiveIn(c int) int {
	for k, d := range m.detectives {
		if d == c {
			return k
		}
	}
	return -1
}

func (m *match) detectiveLines() string {
	var b strings.Builder
	for _, d := range m.detectives {
		fmt.Fprintf(&b, "%d\n", d)
	}
	return b.String()
}

func (m *match) fault(kind game.FaultKind, format string, args ...any) *game.Fault {
	return &game.Fault{Kind: kind, Turn: m.turn, Detail: fmt.Sprintf(format, args...)}
}
