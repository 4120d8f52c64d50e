package dropblock

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
)

// viewOf is m's picture, checked: it encodes, a second call gives the same, and taking it
// changed nothing in m.
func viewOf(t *testing.T, m *match) (game.View, viewState) {
	t.Helper()
	before := fmt.Sprintf("%+v %d %v %d", m.state, m.turn, m.waiting, m.readied)
	v, s := gametest.View[viewState](t, m)
	if after := fmt.Sprintf("%+v %d %v %d", m.state, m.turn, m.waiting, m.readied); after != before {
		t.Fatalf("View changed the match: %s, then %s", before, after)
	}
	if len(v.Scores) != numPlayers || len(s.Blocks) != blocks || len(s.Players) != numPlayers {
		t.Fatalf("view %+v", v)
	}
	return v, s
}

// TestViewRandom: random matches through gametest.Drive, viewed at every request. The views
// encode, do not change the match, do not change afterwards, and the last one's scores are
// the result's.
func TestViewRandom(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		m := gametest.Start(t, New(), game.Config{Seed: seed, Options: map[string]string{"turns": "400"}}).(*match)
		type kept struct {
			v    game.View
			json string
		}
		var views []kept
		keep := func() {
			v, _ := viewOf(t, m)
			b, _ := json.Marshal(v)
			views = append(views, kept{v, string(b)})
		}
		keep()
		random := gametest.RandomAnswers([]string{"U", "R", "D", "L", "A", "A", "N"}, seed)
		gametest.Drive(t, m, func(req game.Request) game.Reply {
			keep()
			return random(req)
		})
		v, s := viewOf(t, m)
		if res := m.Result(); !slices.Equal(v.Scores, res.Scores) {
			t.Errorf("seed %d: the last view scores %v, the result %v", seed, v.Scores, res.Scores)
		}
		if s.Turn != m.turn || !m.over() {
			t.Errorf("seed %d: the last view is at turn %d, the match at %d (over %v)", seed, s.Turn, m.turn, m.over())
		}
		// Scribbling on a view does not reach the match or the other views.
		s.Blocks[0][0], s.Players[0].Row, v.Scores[0] = 99, 99, 99
		for i, k := range views {
			if b, _ := json.Marshal(k.v); string(b) != k.json {
				t.Fatalf("seed %d: view %d changed after it was taken: %s, now %s", seed, i, k.json, b)
			}
		}
		if w, ws := viewOf(t, m); ws.Blocks[0][0] == 99 || ws.Players[0].Row == 99 || w.Scores[0] == 99 {
			t.Errorf("seed %d: a view shares memory with the match", seed)
		}
	}
}

// watch plays m to the end as replay.Watch does, answering READY to all but the players in
// stopped (they time out) and the turns with act, and calls see after each answer with the
// turn answered and the view at that moment.
func watch(t *testing.T, m *match, stopped []int, act func(turn int) string, see func(turn int, v game.View, s viewState)) {
	t.Helper()
	for n := 0; n < 100000; n++ {
		req, done := m.Next()
		if done {
			return
		}
		var r game.Reply
		switch {
		case req.Ready != "" && slices.Contains(stopped, req.Player):
			r.Fault = &game.Fault{Kind: game.Timeout, Turn: req.Turn, Detail: "no READY"}
		case req.Ready != "":
			r.Lines = []string{"READY"}
		default:
			r.Lines = []string{act(req.Turn)}
		}
		m.Reply(r)
		v, s := viewOf(t, m)
		if req.Ready == "" {
			see(req.Turn, v, s)
		}
	}
	t.Fatal("the match did not end")
}

func rowOf(s viewState, r int) string { return fmt.Sprint(s.Blocks[r]) }

func playerOf(s viewState, i int) string {
	p := s.Players[i]
	return fmt.Sprintf("%d %d %s %d fell %d", p.Row, p.Col, p.Dir, p.Wait, p.Fell)
}

// TestViewScripted: the views after scripted turns show the attack's counters, the wait, a
// move, a fall where it happened, and the scores as they stand.
func TestViewScripted(t *testing.T) {
	type want struct {
		next     int // the view's turn
		row4     string
		p0, p1   string
		p2       string
		scores   []float64
		stopped1 bool
	}
	for _, tc := range []struct {
		name    string
		stopped []int
		act     script
		after   map[int]want // by the turn answered
		final   []float64
	}{
		{
			name: "all play", act: script{0: "A", 2: "D", 4: "U"}, final: []float64{3, 0, 1, 2},
			after: map[int]want{
				0: {1, "[15 11 7 3 0 0]", "13 13 L 2 fell -1", "13 9 U 0 fell -1", "12 5 R 0 fell -1", []float64{0, 0, 0, 0}, false},
				2: {3, "[13 9 5 1 0 0]", "13 13 L 2 fell -1", "13 9 U 0 fell -1", "13 5 D 0 fell -1", []float64{0, 0, 0, 0}, false},
				// Block (4,3) fell at the end of turn 3 with player 1 on it.
				3: {4, "[12 8 4 -19 0 0]", "13 13 L 2 fell -1", "13 9 U 0 fell 3", "13 5 D 0 fell -1", []float64{1, 0, 1, 1}, false},
				// The wait made player 0's U an N.
				4: {5, "[11 7 3 -18 0 0]", "13 13 L 1 fell -1", "13 9 U 0 fell 3", "13 5 D 0 fell -1", []float64{1, 0, 1, 1}, false},
			},
		},
		{
			// Players 1, 2 and 3 are stopped at READY: their turns are played as N with no
			// exchange, and the view after player 0's answer already shows them.
			name: "stopped players", stopped: []int{1, 2, 3}, act: script{0: "A"}, final: []float64{3, 0, 1, 2},
			after: map[int]want{
				0: {4, "[12 8 4 -19 0 0]", "13 13 L 2 fell -1", "13 9 U 0 fell 3", "12 5 R 0 fell -1", []float64{1, 0, 1, 1}, true},
				// Block (4,1) fell at the end of turn 11 with player 2 on it.
				8: {12, "[4 -19 -15 -11 0 0]", "13 13 L 0 fell -1", "13 9 U 0 fell 3", "12 5 R 0 fell 11", []float64{2, 0, 1, 2}, true},
				// Player 3's block fell at the end of turn 15, in a turn played without an
				// exchange: the game is over, and the view shows it.
				12: {16, "[-19 -15 -11 -7 0 0]", "13 13 L 0 fell -1", "13 9 U 0 fell 3", "12 5 R 0 fell 11", []float64{3, 0, 1, 2}, true},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Player 0 attacks the blocks left of it at turn 0: players 1, 2 and 3 stand on
			// blocks (4,3), (4,1) and (4,0), which fall at the ends of turns 3, 11 and 15.
			m := newTest(1000, at(13, 13, 'L'), at(13, 9, 'U'), at(12, 5, 'R'), at(14, 1, 'D'))
			seen := map[int]bool{}
			watch(t, m, tc.stopped, func(turn int) string { return tc.act.act(turn%numPlayers, turn) },
				func(turn int, v game.View, s viewState) {
					w, ok := tc.after[turn]
					if !ok {
						return
					}
					seen[turn] = true
					got := want{s.Turn, rowOf(s, 4), playerOf(s, 0), playerOf(s, 1), playerOf(s, 2), v.Scores, s.Players[1].Stopped}
					if fmt.Sprint(got) != fmt.Sprint(w) {
						t.Errorf("after turn %d:\n got %v\nwant %v", turn, got, w)
					}
				})
			if len(seen) != len(tc.after) {
				t.Errorf("saw turns %v of %v", seen, tc.after)
			}
			v, _ := viewOf(t, m)
			if res := m.Result(); !slices.Equal(v.Scores, res.Scores) || !slices.Equal(v.Scores, tc.final) {
				t.Errorf("final view scores %v, result %v, want %v", v.Scores, res.Scores, tc.final)
			}
		})
	}
}
