package snakecore

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
)

// viewOf is m's view with its state, failing t when it is not the game's own.
func viewOf(t *testing.T, m *match) (game.View, viewState) {
	t.Helper()
	return gametest.View[viewState](t, m)
}

// checkView checks a view against the match it shows: the scores, the field and every
// python's cells, kinds, counter and fault.
func checkView(t *testing.T, m *match) {
	t.Helper()
	v, st := viewOf(t, m)
	if _, err := json.Marshal(v); err != nil {
		t.Fatalf("the view does not encode: %v", err)
	}
	s := m.st
	if !slices.Equal(st.Rows, s.rows()) || st.Round != m.round || len(st.Pythons) != len(s.pythons) || len(v.Scores) != len(s.pythons) {
		t.Fatalf("view %+v of a match at round %d", st, m.round)
	}
	for p, py := range s.pythons {
		vp := st.Pythons[p]
		if v.Scores[p] != float64(py.score) || vp.Prot != py.prot || vp.Name != m.names[p] || (vp.Out != "") != (m.faults[p] != nil) {
			t.Fatalf("python %d: view %+v score %v, state %+v", p, vp, v.Scores[p], py)
		}
		if got, want := viewCells(vp), cells(s, p); got != want {
			t.Fatalf("python %d: cells %s, want %s", p, got, want)
		}
		if vp.Kinds != kinds(s, p) {
			t.Fatalf("python %d: kinds %q, want %q", p, vp.Kinds, kinds(s, p))
		}
		if x, y := vp.At[0], vp.At[1]; st.Rows[y][x] != chHead {
			t.Fatalf("python %d: head %d,%d is %q in the rows", p, x, y, st.Rows[y][x])
		}
	}
}

// viewCells is a viewed python's cells as "x,y" from the head, as cells gives them.
func viewCells(vp viewPython) string {
	out := ""
	for i := 0; i+1 < len(vp.At); i += 2 {
		if i > 0 {
			out += " "
		}
		out += fmt.Sprintf("%d,%d", vp.At[i], vp.At[i+1])
	}
	return out
}

// TestViewWholeMatch plays whole matches, well-behaved and random, checking the view before
// every request and at the end, where its scores must be the result's.
func TestViewWholeMatch(t *testing.T) {
	words := []string{"U", "D", "L", "R", "N", "A", "bot"}
	cases := []struct {
		name    string
		seed    uint64
		players int
		opts    map[string]string
		answer  func(game.Request) game.Reply
		scored  bool // some python must score
	}{
		{"greedy", 7, 4, map[string]string{"moves": "150"}, answerAll(t), true},
		{"greedy-small", 3, 2, map[string]string{"moves": "80", "size": "12"}, answerAll(t), true},
		{"random", 5, 3, map[string]string{"moves": "60"}, gametest.RandomAnswers(words, 5), false},
		{"random-8", 9, 8, map[string]string{"moves": "40", "walls": "20"}, gametest.RandomAnswers(words, 9), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := gametest.Match[*match](t, New(), game.Config{Seed: c.seed, Players: c.players, Options: c.opts})
			checkView(t, m)
			// A view taken early (at the start, or before the 30th request if there is
			// one) must not change as the match goes on.
			kept := m.View()
			early, _ := json.Marshal(kept)
			n := 0
			gametest.Drive(t, m, func(req game.Request) game.Reply {
				checkView(t, m)
				if n++; n == 30 {
					kept = m.View()
					early, _ = json.Marshal(kept)
				}
				return c.answer(req)
			})
			checkView(t, m)
			if now, _ := json.Marshal(kept); string(now) != string(early) {
				t.Fatal("a view changed after it was taken")
			}
			v := m.View()
			res := m.Result()
			if !slices.Equal(v.Scores, res.Scores) {
				t.Fatalf("final view scores %v, result %v", v.Scores, res.Scores)
			}
			if c.scored && slices.Max(v.Scores) == 0 {
				t.Fatalf("no python scored: %v", v.Scores)
			}
		})
	}
}

// TestViewScript plays a scripted match on a small field and checks what the view shows
// after each move: the head, the body, the protection counter, the fault and the scores.
func TestViewScript(t *testing.T) {
	st := pic(t, []string{
		"......",
		".pbb..",
		"......",
		"W...R.",
		"..peb.",
		"......",
	}, "1,1 2,1 3,1", "2,4 3,4 4,4")
	m := newMatch(st, config{players: 2, size: 6, moves: 5, first: time.Second, time: time.Second, total: time.Minute}, game.Setup{})
	type step struct {
		player, turn int
		answer       string
		// what the view shows after the answer
		cells  string // python `player`'s cells
		kinds  string
		prot   int
		out    string
		scores []float64
	}
	script := []step{
		{0, 0, "alpha", "1,1 2,1 3,1", "bb", 0, "", []float64{0, 0}},
		{1, 0, "beta", "2,4 3,4 4,4", "eb", 0, "", []float64{0, 0}},
		{0, 1, "D", "1,2 1,1 2,1", "bb", 0, "", []float64{0, 0}},
		// The energy block is spent: the ordinary one closes the gap, the tail's cell frees.
		{1, 1, "A", "2,4 3,4", "b", 10, "", []float64{0, 0}},
		{0, 2, "R", "2,2 1,2 1,1", "bb", 0, "", []float64{0, 0}},
		{1, 2, "N", "2,4 3,4", "b", 9, "", []float64{0, 0}},
		{0, 3, "D", "2,3 2,2 1,2", "bb", 0, "", []float64{0, 0}},
		// A bad answer disqualifies: the python stays, its counter goes on dropping.
		{1, 3, "xx", "2,4 3,4", "b", 8, "protocol", []float64{0, 0}},
		{0, 4, "R", "3,3 2,3 2,2", "bb", 0, "", []float64{0, 0}},
		// The reactor takes the body of 2: 3 points; the head stays.
		{0, 5, "R", "3,3", "", 0, "", []float64{3, 0}},
	}
	checkView(t, m)
	for i, s := range script {
		req, done := m.Next()
		if done || req.Player != s.player || req.Turn != s.turn {
			t.Fatalf("step %d: request %+v (done %v), want player %d turn %d", i, req, done, s.player, s.turn)
		}
		m.Reply(game.Reply{Lines: []string{s.answer}})
		checkView(t, m)
		v, vs := viewOf(t, m)
		vp := vs.Pythons[s.player]
		if got := viewCells(vp); got != s.cells || vp.Kinds != s.kinds || vp.Prot != s.prot || vp.Out != s.out || !slices.Equal(v.Scores, s.scores) {
			t.Fatalf("step %d (%d answers %q): python %s %q prot %d out %q scores %v, want %s %q prot %d out %q scores %v",
				i, s.player, s.answer, got, vp.Kinds, vp.Prot, vp.Out, v.Scores, s.cells, s.kinds, s.prot, s.out, s.scores)
		}
	}
	if _, done := m.Next(); !done {
		t.Fatal("the match goes on after the script")
	}
	_, vs := viewOf(t, m)
	if got := []string{vs.Pythons[0].Name, vs.Pythons[1].Name}; !slices.Equal(got, []string{"alpha", "beta"}) {
		t.Fatalf("names %q", got)
	}
	if v, res := m.View(), m.Result(); !slices.Equal(v.Scores, res.Scores) {
		t.Fatalf("final view scores %v, result %v", v.Scores, res.Scores)
	}
}
