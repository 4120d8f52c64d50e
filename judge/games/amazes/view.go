package amazes

import (
	"slices"
	"strings"

	"github.com/botjudge/judge/judge/game"
)

// The match's picture for the viewer (game.Viewer), drawn by judge/view/web/games/amazes.js.
// The real maze is in the replay header's world (World.Maze); each frame holds what changes:
// where the players are, their points and what each has discovered.

// viewState is the State of a View: one entry per player, Red first.
type viewState struct {
	Players []playerView `json:"p"`
}

// playerView is one player at one moment.
type playerView struct {
	// Row and Col are the player's square, from 0 (row 0 is the top); Dir the direction
	// it faces, one of N E S W.
	Row int    `json:"r"`
	Col int    `json:"c"`
	Dir string `json:"d"`
	// Points are the points as they stand (they may be negative: the score is clamped
	// only at the end).
	Points int `json:"pts"`
	// Found is the number of squares discovered, Turns the turns played.
	Found int `json:"n"`
	Turns int `json:"t"`
	// Fault is set once the player has faulted: the jury plays T for it from then on.
	Fault bool `json:"f,omitempty"`
	// Path is the squares (row*25+col) the player passed through in its last turn, its
	// start first.
	Path []int `json:"path,omitempty"`
	// Map is what the player knows, one string per row of the maze, one character per
	// square: the character at index v of mapDigits, where v has bit 1 for a discovered
	// square, 2 for a dead-end square (discovered by the dead-end rule), and 4, 8, 16, 32
	// for a known edge on its north, east, south and west side.
	Map []string `json:"map"`
}

// mapDigits encodes the 64 values of a square of playerView.Map: '0' is a square the player
// knows nothing about.
const mapDigits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/"

// Bits of a square's value in playerView.Map.
const (
	mapDiscovered = 1
	mapDeadEnd    = 2
	mapKnownN     = 4 // mapKnownN << d is the known edge on side d (north, east, south, west)
)

// View is the match now: the players' places, points and knowledge. Scores are the points as
// they stand, 0 for a faulted player, and, once no player has a turn left to play, the
// final scores (clamped to 0..1000) that Result gives.
func (m *match) View() game.View {
	st := viewState{Players: make([]playerView, 2)}
	scores := make([]float64, 2)
	done := m.over
	if !done {
		done = true
		for p := range 2 {
			if m.faults[p] == nil && m.played[p] < m.turns {
				done = false
			}
		}
	}
	for p := range 2 {
		at := m.at[p]
		st.Players[p] = playerView{Row: at.sq / size, Col: at.sq % size, Dir: at.dir.String(),
			Points: m.points[p], Found: m.know[p].count, Turns: m.played[p], Fault: m.faults[p] != nil,
			Map: knowledgeMap(&m.know[p]), Path: slices.Clone(m.walked[p])}
		switch {
		case m.faults[p] != nil:
		case done:
			scores[p] = float64(min(max(m.points[p], 0), maxScore))
		default:
			scores[p] = float64(m.points[p])
		}
	}
	return game.View{Scores: scores, State: st}
}

// knowledgeMap writes k as playerView.Map.
func knowledgeMap(k *knowledge) []string {
	rows := make([]string, size)
	var b strings.Builder
	for r := range size {
		b.Reset()
		for c := range size {
			s := square(r, c)
			v := 0
			if k.disc[s] {
				v |= mapDiscovered
			}
			if k.dead[s] {
				v |= mapDeadEnd
			}
			for d := north; d <= west; d++ {
				if k.known[edgeOf(s, d)] {
					v |= mapKnownN << d
				}
			}
			b.WriteByte(mapDigits[v])
		}
		rows[r] = b.String()
	}
	return rows
}
