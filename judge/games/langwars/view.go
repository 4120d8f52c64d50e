package langwars

import (
	"slices"

	"github.com/botjudge/judge/judge/game"
)

// viewState is the picture of a Lang Wars match for its renderer
// (judge/view/web/games/langwars.js). The attention degrees are in the replay header's world.
// Counts are indexed [language][player]; victory points are twelfths, as the judge keeps them.
type viewState struct {
	// Turn is the turn being played (0 before the first one), Stage what the match is doing:
	// "ready", "settings", "turn" or "over".
	Turn  int    `json:"t"`
	Stage string `json:"s"`
	// Counted tells whether the turn's picks are in the counts below: every player has
	// picked (or is stopped), so they take effect as soon as the judge moves on.
	Counted bool `json:"c,omitempty"`
	// Revealed and Real are the believers of each language per player: workday picks only,
	// and every pick.
	Revealed [][]int `json:"rv"`
	Real     [][]int `json:"rl"`
	// Holiday is the P line: how often each language was picked in the last holiday.
	Holiday []int `json:"h"`
	// Picks are this turn's picks per player, null for a player that has not picked yet.
	Picks [][]int `json:"pk"`
	// VP and SeenVP are each language's victory points per player (twelfths) from the real
	// believers, and as the revealed believers alone would give them (what players can see).
	VP     [][]int `json:"vp"`
	SeenVP [][]int `json:"sv"`
	// Out tells which players are stopped (a fault): their picks are language 0.
	Out []bool `json:"out"`
}

var stageNames = [...]string{readyStage: "ready", settingsStage: "settings", turnStage: "turn", overStage: "over"}

// View is the match now. When every player has picked in a turn, the picks are shown in
// effect although the match applies them only on its next step: they are settled, and after
// the last turn's last answer the scores are then the result's. Likewise, once every player
// is stopped the rest of the match is settled (every pick is language 0) and shown played.
func (m *match) View() game.View {
	st := viewState{Turn: m.turn, Stage: stageNames[m.stage], Picks: make([][]int, numPlayers), Out: make([]bool, numPlayers)}
	revealed, real, holiday := m.revealed, m.real, m.holiday
	apply := func(turn int, picks [][]int) {
		var propagated [numLangs]int
		for p, ls := range picks {
			for _, l := range ls {
				real[l][p]++
				if workday(turn) {
					revealed[l][p]++
				}
				propagated[l]++
			}
		}
		if !workday(turn) {
			holiday = propagated
		}
	}
	allOut := true
	for p, f := range m.faults {
		st.Out[p] = f != nil
		allOut = allOut && f != nil
	}
	next := 1 // the first turn not counted yet
	switch m.stage {
	case turnStage:
		next = m.turn
		for p, picks := range m.picks {
			if picks != nil {
				st.Picks[p] = slices.Clone(picks)
			}
		}
		st.Counted = true
		for p := m.player; p < numPlayers; p++ {
			if m.faults[p] == nil {
				st.Counted = false
			}
		}
		if st.Counted {
			for p := range st.Picks {
				if st.Picks[p] == nil { // a stopped player not asked yet: language 0
					st.Picks[p] = make([]int, picksOf(m.turn))
				}
			}
			apply(m.turn, st.Picks)
			next++
		}
	case overStage:
		next = m.turns + 1
	}
	if allOut && next <= m.turns {
		for t := next; t <= m.turns; t++ {
			zeros := make([][]int, numPlayers)
			for p := range zeros {
				zeros[p] = make([]int, picksOf(t))
			}
			apply(t, zeros)
		}
		st.Turn, st.Stage, st.Counted, st.Picks = m.turns, stageNames[overStage], true, make([][]int, numPlayers)
	}
	st.Revealed, st.Real, st.Holiday = rows(revealed), rows(real), slices.Clone(holiday[:])
	st.VP, st.SeenVP = langVP(m.attention, real), langVP(m.attention, revealed)
	total := victoryPoints12(m.attention, real)
	scores := make([]float64, numPlayers)
	for p, v := range total {
		scores[p] = float64(v) / vpScale
	}
	return game.View{Scores: scores, State: st}
}

// rows copies counts per language and player.
func rows(c [numLangs][numPlayers]int) [][]int {
	out := make([][]int, numLangs)
	for l := range c {
		out[l] = slices.Clone(c[l][:])
	}
	return out
}

// langVP is each language's victory points per player (twelfths) from the counts c: the
// game's own rule, applied to one language at a time.
func langVP(attention [numLangs]int, c [numLangs][numPlayers]int) [][]int {
	out := make([][]int, numLangs)
	for l, a := range attention {
		var one [numLangs]int
		one[l] = a
		vp := victoryPoints12(one, c)
		out[l] = slices.Clone(vp[:])
	}
	return out
}
