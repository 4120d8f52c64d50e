package langwars

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
)

var _ game.Viewer = (*match)(nil)

// watched plays m as replay.Watch does and returns its picture before the first exchange and
// after each one, with the exchanges' requests. It checks that View leaves the match alone.
func watched(t *testing.T, m *match, answer func(game.Request) game.Reply) ([]viewState, []game.View, []game.Request) {
	t.Helper()
	look := func() (viewState, game.View) {
		before := *m
		v, s := gametest.View[viewState](t, m)
		if !reflect.DeepEqual(before, *m) {
			t.Fatal("View changed the match")
		}
		return s, v
	}
	s, v := look()
	states, views := []viewState{s}, []game.View{v}
	var reqs []game.Request
	for range gametest.MaxRequests {
		req, done := m.Next()
		if done {
			return states, views, reqs
		}
		if req.Expect != 0 || req.Ready != "" {
			m.Reply(answer(req))
		}
		reqs = append(reqs, req)
		s, v := look()
		states, views = append(states, s), append(views, v)
	}
	t.Fatal("the match did not end")
	return nil, nil, nil
}

// TestViewScores: whatever the answers, the picture never fails, its scores are the sum of its
// languages' victory points, and after the last exchange they are the result's.
func TestViewScores(t *testing.T) {
	words := []string{"0", "1", "2", "3", "4", "5", "6", "7", "0 1 2 3 4", "7 7", "x"}
	for _, c := range []struct {
		name   string
		seed   uint64
		opts   map[string]string
		answer func(game.Request) game.Reply
	}{
		{"constant", 7, nil, readyOr(constant)},
		{"random", 1, nil, gametest.RandomAnswers(words, 1)},
		{"random-3-turns", 2, map[string]string{"turns": "3"}, gametest.RandomAnswers(words, 2)},
		{"random-11-turns", 3, map[string]string{"turns": "11"}, gametest.RandomAnswers(words, 3)},
		{"last-player-stopped", 4, nil, readyOr(func(req game.Request) game.Reply {
			if req.Player == 3 && req.Turn == 6 {
				return game.Reply{Fault: &game.Fault{Kind: game.Crash, Turn: req.Turn, Detail: "test"}}
			}
			return constant(req)
		})},
		{"all-stopped-in-turn-4", 6, nil, readyOr(func(req game.Request) game.Reply {
			if req.Turn == 4 {
				return game.Reply{Fault: &game.Fault{Kind: game.Timeout, Turn: req.Turn, Detail: "test"}}
			}
			return lines("3 1 4 1 5")
		})},
		{"all-stopped-at-ready", 5, nil, func(req game.Request) game.Reply {
			return game.Reply{Fault: &game.Fault{Kind: game.Timeout, Turn: req.Turn, Detail: "test"}}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := gametest.Match[*match](t, New(), game.Config{Seed: c.seed, Options: c.opts})
			states, views, _ := watched(t, m, c.answer)
			for i, v := range views {
				s := states[i]
				var sum [numPlayers]int
				for l := range numLangs {
					for p := range numPlayers {
						sum[p] += s.VP[l][p]
						if s.Revealed[l][p] > s.Real[l][p] {
							t.Fatalf("step %d: language %d player %d: %d revealed of %d real", i, l, p, s.Revealed[l][p], s.Real[l][p])
						}
					}
				}
				for p := range numPlayers {
					if v.Scores[p] != float64(sum[p])/vpScale {
						t.Fatalf("step %d: scores %v, languages' points %v", i, v.Scores, sum)
					}
				}
			}
			final := views[len(views)-1]
			res := m.Result()
			if !slices.Equal(final.Scores, res.Scores) {
				t.Errorf("last picture's scores %v, result %v", final.Scores, res.Scores)
			}
			// The last picture already counts the last turn, so it shows the final believers.
			if last := states[len(states)-1]; !reflect.DeepEqual(last.Real, rows(m.real)) || !reflect.DeepEqual(last.Revealed, rows(m.revealed)) {
				t.Errorf("last picture's believers %v / %v, the match's %v / %v", last.Real, last.Revealed, m.real, m.revealed)
			}
			if got := m.View().Scores; !slices.Equal(got, res.Scores) {
				t.Errorf("picture after the end: scores %v, result %v", got, res.Scores)
			}
			// Through gametest.Drive too: the picture of a match driven to its end.
			m2 := gametest.Match[*match](t, New(), game.Config{Seed: c.seed, Options: c.opts})
			gametest.Drive(t, m2, func(req game.Request) game.Reply { m2.View(); return c.answer(req) })
			if got := m2.View().Scores; !slices.Equal(got, m2.Result().Scores) {
				t.Errorf("driven: scores %v, result %v", got, m2.Result().Scores)
			}
		})
	}
}

// TestViewMoments checks the picture at known moments of a scripted match: player p always
// picks language p, player 2 crashes in turn 4 and player 3 never answers READY.
func TestViewMoments(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 7})
	states, views, reqs := watched(t, m, func(req game.Request) game.Reply {
		switch {
		case req.Player == 3 && req.Ready != "":
			return game.Reply{Fault: &game.Fault{Kind: game.Timeout, Turn: 0, Detail: "no READY"}}
		case req.Player == 2 && req.Turn == 4:
			return game.Reply{Fault: &game.Fault{Kind: game.Crash, Turn: 4, Detail: "exit 1"}}
		case req.Ready != "":
			return lines("READY")
		}
		return constant(req)
	})
	a := m.attention
	// after finds the step right after player p's exchange in turn t.
	after := func(p, t int) int {
		for i, r := range reqs {
			if r.Player == p && r.Turn == t && r.Expect == 1 {
				return i + 1
			}
		}
		panic("no such exchange")
	}
	zero := make([][]int, numLangs)
	for l := range zero {
		zero[l] = make([]int, numPlayers)
	}
	for _, c := range []struct {
		name    string
		step    int
		turn    int
		stage   string
		counted bool
		picks   [][]int
		out     []bool
		real    map[[2]int]int // [language, player] -> believers; others as listed or 0
		seen    map[[2]int]int
		holiday []int
		vp      map[[2]int]int // [language, player] -> points (twelfths)
	}{
		{name: "start", step: 0, stage: "ready", picks: make([][]int, 4), out: []bool{false, false, false, false}, holiday: make([]int, 8)},
		{name: "player 3 misses READY", step: 4, stage: "ready", picks: make([][]int, 4), out: []bool{false, false, false, true}, holiday: make([]int, 8)},
		{name: "turn 1, player 0 picked", step: after(0, 1), turn: 1, stage: "turn",
			picks: [][]int{{0, 0, 0, 0, 0}, nil, nil, nil}, out: []bool{false, false, false, true}, holiday: make([]int, 8)},
		{name: "turn 1 counted once player 2 picked", step: after(2, 1), turn: 1, stage: "turn", counted: true,
			picks: [][]int{{0, 0, 0, 0, 0}, {1, 1, 1, 1, 1}, {2, 2, 2, 2, 2}, {0, 0, 0, 0, 0}}, out: []bool{false, false, false, true},
			real: map[[2]int]int{{0, 0}: 5, {1, 1}: 5, {2, 2}: 5, {0, 3}: 5}, seen: map[[2]int]int{{0, 0}: 5, {1, 1}: 5, {2, 2}: 5, {0, 3}: 5},
			holiday: make([]int, 8),
			vp: map[[2]int]int{
				{0, 0}: 6 * a[0], {0, 3}: 6 * a[0], {0, 1}: -6 * a[0], {0, 2}: -6 * a[0],
				{1, 1}: 12 * a[1], {1, 0}: -4 * a[1], {1, 2}: -4 * a[1], {1, 3}: -4 * a[1],
				{3, 0}: 0, {7, 3}: 0,
			}},
		{name: "turn 2, player 1 picked: not counted yet", step: after(1, 2), turn: 2, stage: "turn",
			picks: [][]int{{0, 0}, {1, 1}, nil, nil}, out: []bool{false, false, false, true},
			real: map[[2]int]int{{0, 0}: 5, {1, 1}: 5, {2, 2}: 5, {0, 3}: 5}, seen: map[[2]int]int{{0, 0}: 5, {1, 1}: 5, {2, 2}: 5, {0, 3}: 5},
			holiday: make([]int, 8)},
		{name: "the holiday counted: real only", step: after(2, 2), turn: 2, stage: "turn", counted: true,
			picks: [][]int{{0, 0}, {1, 1}, {2, 2}, {0, 0}}, out: []bool{false, false, false, true},
			real: map[[2]int]int{{0, 0}: 7, {1, 1}: 7, {2, 2}: 7, {0, 3}: 7}, seen: map[[2]int]int{{0, 0}: 5, {1, 1}: 5, {2, 2}: 5, {0, 3}: 5},
			holiday: []int{4, 2, 2, 0, 0, 0, 0, 0}},
		{name: "player 2 crashes in turn 4", step: after(2, 4), turn: 4, stage: "turn", counted: true,
			picks: [][]int{{0, 0}, {1, 1}, {0, 0}, {0, 0}}, out: []bool{false, false, true, true},
			real: map[[2]int]int{{0, 0}: 14, {1, 1}: 14, {2, 2}: 12, {0, 2}: 2, {0, 3}: 14}, seen: map[[2]int]int{{0, 0}: 10, {1, 1}: 10, {2, 2}: 10, {0, 3}: 10},
			holiday: []int{6, 2, 0, 0, 0, 0, 0, 0}},
		{name: "the end", step: len(states) - 1, turn: 10, stage: "turn", counted: true,
			picks: [][]int{{0, 0}, {1, 1}, {0, 0}, {0, 0}}, out: []bool{false, false, true, true},
			real: map[[2]int]int{{0, 0}: 35, {1, 1}: 35, {2, 2}: 12, {0, 2}: 23, {0, 3}: 35}, seen: map[[2]int]int{{0, 0}: 25, {1, 1}: 25, {2, 2}: 10, {0, 2}: 15, {0, 3}: 25},
			holiday: []int{6, 2, 0, 0, 0, 0, 0, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := states[c.step]
			if s.Turn != c.turn || s.Stage != c.stage || s.Counted != c.counted {
				t.Errorf("turn %d stage %q counted %v, want %d %q %v", s.Turn, s.Stage, s.Counted, c.turn, c.stage, c.counted)
			}
			if !reflect.DeepEqual(s.Picks, c.picks) {
				t.Errorf("picks %v, want %v", s.Picks, c.picks)
			}
			if !slices.Equal(s.Out, c.out) {
				t.Errorf("out %v, want %v", s.Out, c.out)
			}
			if !slices.Equal(s.Holiday, c.holiday) {
				t.Errorf("holiday %v, want %v", s.Holiday, c.holiday)
			}
			for l := range numLangs {
				for p := range numPlayers {
					if s.Real[l][p] != c.real[[2]int{l, p}] || s.Revealed[l][p] != c.seen[[2]int{l, p}] {
						t.Errorf("language %d player %d: %d real, %d revealed; want %d, %d", l, p, s.Real[l][p], s.Revealed[l][p], c.real[[2]int{l, p}], c.seen[[2]int{l, p}])
					}
				}
			}
			for k, want := range c.vp {
				if got := s.VP[k[0]][k[1]]; got != want {
					t.Errorf("language %d player %d: %d twelfths, want %d", k[0], k[1], got, want)
				}
			}
			if c.real == nil && !reflect.DeepEqual(s.VP, zero) {
				t.Errorf("points before any pick: %v", s.VP)
			}
			if c.real == nil && !slices.Equal(views[c.step].Scores, []float64{0, 0, 0, 0}) {
				t.Errorf("scores before any pick: %v", views[c.step].Scores)
			}
		})
	}
	if got, want := views[len(views)-1].Scores, m.Result().Scores; !slices.Equal(got, want) {
		t.Errorf("final scores %v, result %v", got, want)
	}
}

// TestViewSeenPoints: the points as the revealed believers give them ignore holiday picks.
func TestViewSeenPoints(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 3, Options: map[string]string{"turns": "2"}})
	states, _, _ := watched(t, m, readyOr(func(req game.Request) game.Reply {
		if req.Turn == 1 {
			return lines("5 5 5 5 5") // everyone equal on a workday
		}
		if req.Player == 1 {
			return lines("5 5") // player 1 pulls ahead on the holiday, unseen
		}
		return lines("6 6")
	}))
	s := states[len(states)-1]
	a := m.attention[5]
	if s.SeenVP[5][1] != 0 || s.VP[5][1] != 12*a {
		t.Errorf("language 5, player 1: %d seen, %d real, want 0 and %d", s.SeenVP[5][1], s.VP[5][1], 12*a)
	}
}

// TestViewCopies: what View returns is the caller's: changing it changes no later picture.
func TestViewCopies(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 9})
	gametest.Drive(t, m, readyOr(constant))
	v := m.View()
	want, _ := json.Marshal(v)
	s := v.State.(viewState)
	s.Real[0][0], s.Revealed[1][1], s.Holiday[0], s.VP[0][0], s.SeenVP[0][0] = -1, -1, -1, -1, -1
	v.Scores[0] = -1
	if got, _ := json.Marshal(m.View()); string(got) != string(want) {
		t.Errorf("a picture changed with the previous one:\n%s\n%s", got, want)
	}
	if len(want) > 1500 {
		t.Errorf("a picture of %d bytes", len(want))
	}
}
