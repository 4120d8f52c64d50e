package snakecore

import "github.com/botjudge/judge/judge/game"

// viewState is the picture of a match for the viewer (judge/view/web/games/snakecore.js):
// the field as the requests show it and every python, head first. The field at the start is
// Setup.World; the walls and the reactors never change, but the rows repeat them so that a
// frame stands alone.
type viewState struct {
	// Round is the round being played (0 while the names are asked).
	Round int `json:"round"`
	// Rows are the field's rows from the top, one character per cell, as a getAction
	// request shows them: W wall, R reactor, b ordinary block, e energy block (free or in a
	// body), p a head, . empty.
	Rows []string `json:"rows"`
	// Pythons are the pythons by player id.
	Pythons []viewPython `json:"py"`
}

// viewPython is one python as the viewer draws it.
type viewPython struct {
	// Name is the name the bot gave (getName); empty before it answers or when it did not.
	Name string `json:"name,omitempty"`
	// Prot is the protection counter as it stands, as the python's last request showed it
	// (10 more after an activation): the python is protected while it is above 0, and it
	// drops by 1 as each of the python's own moves begins.
	Prot int `json:"prot"`
	// At is the python's cells as x, y pairs, head first and tail last.
	At []int `json:"at"`
	// Kinds are the body blocks' kinds, from the block behind the head to the tail: b
	// ordinary, e energy.
	Kinds string `json:"kinds"`
	// Out is the kind of the fault that disqualified the player (its python no longer
	// moves), or empty.
	Out string `json:"out,omitempty"`
}

// View is the match now: the scores as they stand (at the end, Result's) and the field
// with every python. It copies everything, so later moves do not change it.
func (m *match) View() game.View {
	s := m.st
	v := viewState{Round: m.round, Rows: s.rows(), Pythons: make([]viewPython, len(s.pythons))}
	scores := make([]float64, len(s.pythons))
	for p, py := range s.pythons {
		scores[p] = float64(py.score)
		at := make([]int, 0, 2*(len(py.body)+1))
		at = append(at, py.head%s.n, py.head/s.n)
		kinds := make([]byte, len(py.body))
		for i, b := range py.body {
			at = append(at, b.at%s.n, b.at/s.n)
			kinds[i] = b.kind
		}
		vp := viewPython{Name: m.names[p], Prot: py.prot, At: at, Kinds: string(kinds)}
		if f := m.faults[p]; f != nil {
			vp.Out = string(f.Kind)
		}
		v.Pythons[p] = vp
	}
	return game.View{Scores: scores, State: v}
}
