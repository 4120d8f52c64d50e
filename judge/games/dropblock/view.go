package dropblock

import "github.com/botjudge/judge/judge/game"

// viewState is the picture of a match for the viewer (judge/view/web/games/dropblock.js). The
// board's size and the start places are in the replay header's world.
type viewState struct {
	// Turn is the global turn to be played next: the turns played so far.
	Turn int `json:"t"`
	// Blocks are the block counters, block row 0 first: 0 standing, k > 0 falling at the end
	// of the k-th global turn from now, -k fallen and standing again in k turns.
	Blocks [][]int `json:"b"`
	// Players are the four players, in player order.
	Players []viewPlayer `json:"p"`
}

// viewPlayer is one player. A fallen player keeps the square, direction and wait it had
// when it fell.
type viewPlayer struct {
	Row  int    `json:"r"`
	Col  int    `json:"c"`
	Dir  string `json:"d"`
	Wait int    `json:"s"`
	// Fell is the global turn the player fell in, -1 while it is on the board.
	Fell int `json:"f"`
	// Stopped is set once the judge stopped the player's program after a fault: it does N.
	Stopped bool `json:"x,omitempty"`
}

// View is the match as it stands. Once no answer is pending, the turns of players whose
// program was stopped (played as N, with no exchange) up to the next question or the end are
// played on a copy first, as the next Next would: so the last picture is the final board and
// its scores are the result's.
func (m *match) View() game.View {
	s, turn := m.state, m.turn
	if !m.waiting && m.readied == numPlayers {
		c := *m // the state is arrays: playing the copy leaves m as it is
		for !c.over() && c.faults[c.turn%numPlayers] != nil {
			c.play(c.turn%numPlayers, 'N')
		}
		s, turn = c.state, c.turn
	}
	v := viewState{Turn: turn, Blocks: make([][]int, blocks), Players: make([]viewPlayer, numPlayers)}
	for r := range s.blocks {
		v.Blocks[r] = append([]int(nil), s.blocks[r][:]...)
	}
	for i, p := range s.players {
		v.Players[i] = viewPlayer{Row: p.row, Col: p.col, Dir: string(dirLetters[p.dir]), Wait: p.wait,
			Fell: p.fell, Stopped: m.faults[i] != nil}
	}
	return game.View{Scores: s.scores(), State: v}
}
