package langwars

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/game"
)

// stage is what the match is doing.
type stage int

const (
	readyStage    stage = iota // asking each player for READY
	settingsStage              // sending each player the settings
	turnStage                  // asking each player for its picks of the turn
	overStage
)

// match is one game. It walks the players in id order through each stage; player is the
// next one to ask. A request that expects an answer stays pending until Reply comes.
type match struct {
	setup     game.Setup
	attention [numLangs]int
	turns     int
	limit     time.Duration
	ready     time.Duration

	stage   stage
	turn    int // 0 before the first turn
	player  int
	pending game.Pending

	// revealed and real are the believers of language l gathered by player p: revealed
	// counts workday picks only, real all picks.
	revealed [numLangs][numPlayers]int
	real     [numLangs][numPlayers]int
	// holiday is how often each language was propagated by all players in the last
	// holiday turn (the P line).
	holiday [numLangs]int
	// picks are this turn's picks, filled as the players answer.
	picks [numPlayers][]int

	faults [numPlayers]*game.Fault
}

func newMatch(attention [numLangs]int, turns int, limit, ready time.Duration, setup game.Setup) *match {
	return &match{setup: setup, attention: attention, turns: turns, limit: limit, ready: ready}
}

// Setup returns the options, the memory limit and the attention degrees.
func (m *match) Setup() game.Setup {
	s := m.setup
	s.Options = maps.Clone(s.Options)
	s.World = World{Attention: slices.Clone(m.attention[:])}
	return s
}

// workday tells whether turn t is a workday: odd turns are.
func workday(t int) bool { return t%2 == 1 }

// picksOf is the number of picks in turn t.
func picksOf(t int) int {
	if workday(t) {
		return workdayPicks
	}
	return holidayPicks
}

// Next hands out the next request. A stopped player is skipped: it is sent nothing more, and
// its picks are language 0.
func (m *match) Next() (game.Request, bool) {
	if req, ok := m.pending.Held(); ok {
		return req, false
	}
	for {
		if m.stage == overStage {
			return game.Request{}, true
		}
		if m.player == numPlayers {
			m.endStage()
			continue
		}
		p := m.player
		switch m.stage {
		case readyStage:
			return m.ask(game.Request{Player: p, Ready: "READY", Limit: m.ready}), false
		case settingsStage:
			m.player++
			if m.faults[p] != nil {
				continue
			}
			// A notice needs no Reply: handing it out is sending it.
			return game.Request{Player: p, Send: m.settings()}, false
		case turnStage:
			if m.faults[p] != nil {
				m.picks[p] = make([]int, picksOf(m.turn))
				m.player++
				continue
			}
			return m.ask(game.Request{Player: p, Turn: m.turn, Send: m.view(p), Expect: 1, Limit: m.limit}), false
		}
	}
}

func (m *match) ask(req game.Request) game.Request {
	return m.pending.Ask(req)
}

// endStage moves on once every player had its part of the stage.
func (m *match) endStage() {
	m.player = 0
	switch m.stage {
	case readyStage:
		m.stage = settingsStage
	case settingsStage:
		m.stage, m.turn = turnStage, 1
	case turnStage:
		m.play()
		if m.turn == m.turns {
			m.stage = overStage
			return
		}
		m.turn++
	}
}

// Reply takes the pending request's answer. Picks are read leniently and never fault; a
// fault from the referee (time out, crash, ...) stops the player: its picks are language 0
// from this answer on.
func (m *match) Reply(r game.Reply) *game.Fault {
	req, ok := m.pending.Take()
	if !ok {
		return nil // nothing was asked, so there is nothing to judge
	}
	p := req.Player
	m.player++
	if r.Fault != nil {
		if m.faults[p] == nil {
			m.faults[p] = r.Fault
		}
		if m.stage == turnStage {
			m.picks[p] = make([]int, picksOf(m.turn))
		}
		return r.Fault
	}
	if m.stage == turnStage {
		line := ""
		if len(r.Lines) > 0 {
			line = r.Lines[0]
		}
		m.picks[p] = parsePicks(line, picksOf(m.turn))
	}
	return nil
}

// parsePicks reads a line of picks: the first n fields separated by runs of ASCII whitespace
// (game.Fields). A field that is not an integer 0..7 (one with a Unicode space such as U+00A0
// in it included), and a missing field, is language 0; fields after the n-th are ignored.
func parsePicks(line string, n int) []int {
	fields := game.Fields(line)
	picks := make([]int, n)
	for i := range picks {
		if i >= len(fields) {
			break
		}
		if l, err := strconv.Atoi(fields[i]); err == nil && l >= 0 && l < numLangs {
			picks[i] = l
		}
	}
	return picks
}

// play applies the turn's picks: one believer per pick, revealed only on a workday.
func (m *match) play() {
	var propagated [numLangs]int
	for p, picks := range m.picks {
		for _, l := range picks {
			m.real[l][p]++
			if workday(m.turn) {
				m.revealed[l][p]++
			}
			propagated[l]++
		}
		m.picks[p] = nil
	}
	if !workday(m.turn) {
		m.holiday = propagated
	}
}

// settings is the game's settings: `T P N` and the attention degrees.
func (m *match) settings() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %d %d\n", m.turns, numPlayers, numLangs)
	writeRow(&b, m.attention[:])
	return b.String()
}

// view is what player p is told at the start of the turn: the turn, the revealed believers
// (p's own in column 0, the others after it in ascending id), p's real believers, and on a
// workday the P line.
func (m *match) view(p int) string {
	var b strings.Builder
	d := "H"
	if workday(m.turn) {
		d = "W"
	}
	fmt.Fprintf(&b, "%d %s\n", m.turn, d)
	for l := range numLangs {
		row := []int{m.revealed[l][p]}
		for q := range numPlayers {
			if q != p {
				row = append(row, m.revealed[l][q])
			}
		}
		writeRow(&b, row)
	}
	own := make([]int, numLangs)
	for l := range own {
		own[l] = m.real[l][p]
	}
	writeRow(&b, own)
	if workday(m.turn) {
		writeRow(&b, m.holiday[:])
	}
	return b.String()
}

func writeRow(b *strings.Builder, row []int) {
	for i, v := range row {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(v))
	}
	b.WriteByte('\n')
}

// victoryPoints12 computes each player's victory points times 12 from the real believers:
// per language, the players with the most believers share its attention degree, and the
// players with the fewest share its loss.
func victoryPoints12(attention [numLangs]int, real [numLangs][numPlayers]int) [numPlayers]int {
	var vp [numPlayers]int
	for l, a := range attention {
		hi, lo := slices.Max(real[l][:]), slices.Min(real[l][:])
		var best, worst []int
		for p, n := range real[l] {
			if n == hi {
				best = append(best, p)
			}
			if n == lo {
				worst = append(worst, p)
			}
		}
		for _, p := range best {
			vp[p] += a * vpScale / len(best)
		}
		for _, p := range worst {
			vp[p] -= a * vpScale / len(worst)
		}
	}
	return vp
}

// Result is the victory points (as decimals), ranks by them and the unique top scorer.
func (m *match) Result() game.Result {
	vp := victoryPoints12(m.attention, m.real)
	scores := make([]float64, numPlayers)
	for p, v := range vp {
		scores[p] = float64(v) / vpScale
	}
	return game.Ranked(scores, m.faults[:])
}
