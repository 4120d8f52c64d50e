package amazes

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
)

// viewNow is m's View, checked for what the viewer relies on: it encodes, it leaves the
// match as it was, asking twice gives the same picture, and what it returned is the caller's
// (changing it changes no later View).
func viewNow(t *testing.T, m *match) (game.View, viewState) {
	t.Helper()
	before := *m
	v, st := gametest.View[viewState](t, m)
	if !reflect.DeepEqual(before, *m) {
		t.Fatal("View changed the match")
	}
	if len(st.Players) != 2 || len(v.Scores) != 2 {
		t.Fatalf("view %+v: want 2 players and 2 scores", v)
	}
	again := m.View()
	mine := again.State.(viewState)
	mine.Players[0].Map[0] = "changed"
	mine.Players[1].Points = -12345
	again.Scores[0] = -12345
	if third := m.View(); !reflect.DeepEqual(v, third) {
		t.Fatal("changing a returned view changed a later one: the view shares memory with the match")
	}
	return v, st
}

// squareOf decodes one square of a player's map.
func squareOf(t *testing.T, pv playerView, r, c int) int {
	t.Helper()
	if len(pv.Map) != size || len(pv.Map[r]) != size {
		t.Fatalf("a map of %d rows (row %d of %d squares), want %d by %d", len(pv.Map), r, len(pv.Map[r]), size, size)
	}
	v := strings.IndexByte(mapDigits, pv.Map[r][c])
	if v < 0 {
		t.Fatalf("square %d %d is %q, not a map digit", r, c, pv.Map[r][c])
	}
	return v
}

// checkMap checks a player's map against the jury's knowledge, square by square and edge
// by edge, and its discovered count.
func checkMap(t *testing.T, m *match, p int, pv playerView) {
	t.Helper()
	k := &m.know[p]
	found := 0
	for s := range numSquares {
		v := squareOf(t, pv, s/size, s%size)
		if v&mapDiscovered != 0 {
			found++
		}
		if v&mapDiscovered != 0 != k.disc[s] || v&mapDeadEnd != 0 != k.dead[s] {
			t.Fatalf("player %d, square %d: value %d, discovered %v, dead end %v", p, s, v, k.disc[s], k.dead[s])
		}
		for d := north; d <= west; d++ {
			if v&(mapKnownN<<d) != 0 != k.known[edgeOf(s, d)] {
				t.Fatalf("player %d, square %d, side %s: value %d, known %v", p, s, d, v, k.known[edgeOf(s, d)])
			}
		}
	}
	if found != pv.Found || found != k.count {
		t.Fatalf("player %d: %d squares marked, Found %d, the jury counts %d", p, found, pv.Found, k.count)
	}
}

// watched is a match played to its end with the View taken at every request (after the
// previous move and the asked player's look) and at the end.
type watched struct {
	m      *match
	states []viewState // at each request, then at the end
	scores [][]float64
}

func watch(t *testing.T, m *match, bots [2]bot) watched {
	t.Helper()
	w := watched{m: m}
	look := func() {
		v, st := viewNow(t, m)
		for p := range 2 {
			pv := st.Players[p]
			if pv.Row != m.at[p].sq/size || pv.Col != m.at[p].sq%size || pv.Dir != m.at[p].dir.String() ||
				pv.Points != m.points[p] || pv.Turns != m.played[p] || pv.Fault != (m.faults[p] != nil) {
				t.Fatalf("player %d shown as %+v; the match has it at %v with %d points, %d turns, fault %v",
					p, pv, m.at[p], m.points[p], m.played[p], m.faults[p])
			}
			checkMap(t, m, p, pv)
			if m.faults[p] != nil && v.Scores[p] != 0 {
				t.Fatalf("player %d has faulted but scores %v", p, v.Scores[p])
			}
		}
		w.states = append(w.states, st)
		w.scores = append(w.scores, v.Scores)
	}
	look() // before the first request: the starts
	gametest.Drive(t, m, func(req game.Request) game.Reply {
		look()
		return bots[req.Player](m, req)
	})
	look()
	if got, want := w.scores[len(w.scores)-1], m.Result().Scores; !reflect.DeepEqual(got, want) {
		t.Fatalf("final view scores %v, result %v", got, want)
	}
	return w
}

// final is the state at the end.
func (w watched) final() viewState { return w.states[len(w.states)-1] }

func wantPlace(t *testing.T, who string, pv playerView, p place) {
	t.Helper()
	if pv.Row != p.sq/size || pv.Col != p.sq%size || pv.Dir != p.dir.String() {
		t.Fatalf("%s at %d %d %s, want %d %d %s", who, pv.Row, pv.Col, pv.Dir, p.sq/size, p.sq%size, p.dir)
	}
}

func TestViewScripted(t *testing.T) {
	crash := func(*match, game.Request) game.Reply {
		return game.Reply{Fault: &game.Fault{Kind: game.Crash, Turn: 1, Detail: "exit status 1"}}
	}
	cases := []struct {
		name  string
		red   place
		blue  place
		turns string
		bots  [2]bot
		check func(t *testing.T, w watched)
	}{
		{"the start: nothing known yet", at(5, 5, east), at(20, 20, west), "1", [2]bot{answer("F"), answer("F")},
			func(t *testing.T, w watched) {
				st := w.states[0]
				wantPlace(t, "Red at the start", st.Players[0], at(5, 5, east))
				wantPlace(t, "Blue at the start", st.Players[1], at(20, 20, west))
				for p, pv := range st.Players {
					if pv.Found != 0 || pv.Points != 0 || pv.Map[5] != strings.Repeat("0", size) {
						t.Fatalf("player %d at the start: %+v", p, pv)
					}
				}
				if !reflect.DeepEqual(w.scores[0], []float64{0, 0}) {
					t.Fatalf("scores %v", w.scores[0])
				}
			}},
		{"a look and a step", at(5, 5, east), at(20, 20, west), "1", [2]bot{answer("F"), answer("F")},
			func(t *testing.T, w watched) {
				// At Blue's request: Red has seen its whole row and the two squares beside the
				// spine (27 squares, 2 points each) and stepped once.
				red := w.states[2].Players[0]
				wantPlace(t, "Red after F", red, at(5, 6, east))
				if red.Found != 27 || red.Points != 53 || red.Turns != 1 {
					t.Fatalf("Red after its first turn: %+v", red)
				}
				for c := range size {
					if squareOf(t, red, 5, c)&mapDiscovered == 0 {
						t.Fatalf("Red has not discovered square 5 %d of its row", c)
					}
				}
				// Its start square: seen with all four sides (walls north and south, the
				// corridor east and west); the spine above it, not the square beside that,
				// only the wall between them; nothing of row 0 but its outer walls (all 25
				// columns are known).
				if v := squareOf(t, red, 5, 5); v != mapDiscovered|0b1111*mapKnownN {
					t.Fatalf("Red's start square %b", v)
				}
				if squareOf(t, red, 4, 0)&mapDiscovered == 0 || squareOf(t, red, 4, 1) != mapKnownN<<south {
					t.Fatalf("Red knows row 4 as %q", red.Map[4])
				}
				if v, w := squareOf(t, red, 0, 0), squareOf(t, red, 0, 1); v != mapKnownN<<west || w != 0 {
					t.Fatalf("Red knows row 0 as %q", red.Map[0])
				}
				f := w.final()
				wantPlace(t, "Blue after F", f.Players[1], at(20, 19, west))
				if f.Players[1].Found != 27 || !reflect.DeepEqual(w.scores[len(w.scores)-1], []float64{53, 53}) {
					t.Fatalf("at the end: %+v, scores %v", f.Players[1], w.scores[len(w.scores)-1])
				}
			}},
		{"a wall stops the line", at(5, 5, east), at(20, 20, west), "1", [2]bot{answer("FFLFF"), answer("F")},
			func(t *testing.T, w watched) {
				wantPlace(t, "Red", w.final().Players[0], at(5, 7, east))
				if w.final().Players[0].Points != 54-5 {
					t.Fatalf("Red's points %d", w.final().Players[0].Points)
				}
			}},
		{"capture", at(5, 5, east), at(5, 7, west), "1", [2]bot{answer("FF"), answer("L")},
			func(t *testing.T, w watched) {
				red := w.states[2].Players[0]
				wantPlace(t, "Red on Blue", red, at(5, 7, east))
				if red.Points != 54-2+100 || w.scores[2][0] != 152 {
					t.Fatalf("Red's points %d, score %v", red.Points, w.scores[2][0])
				}
			}},
		{"points below 0 show until the end, then the score is 0", at(5, 5, east), at(20, 20, west), "2",
			[2]bot{answer(strings.Repeat("R", 256)), answer("F")},
			func(t *testing.T, w watched) {
				if s := w.scores[2][0]; s != 54-256 {
					t.Fatalf("Red's score after its first turn %v, want its points %d", s, 54-256)
				}
				if s := w.scores[len(w.scores)-1][0]; s != 0 {
					t.Fatalf("Red's final score %v, want 0", s)
				}
			}},
		{"a fault: score 0 at once, the jury's T", at(5, 5, east), at(20, 20, west), "3", [2]bot{crash, answer("F")},
			func(t *testing.T, w watched) {
				red := w.states[2].Players[0]
				wantPlace(t, "Red after the jury's T", red, at(5, 4, west))
				if !red.Fault || red.Points != 54 || w.scores[2][0] != 0 {
					t.Fatalf("Red after its fault: %+v, scores %v", red, w.scores[2])
				}
				if f := w.final(); !f.Players[0].Fault || f.Players[0].Turns != 3 || f.Players[1].Turns != 3 {
					t.Fatalf("at the end %+v", f)
				}
			}},
		{"sudden death", at(5, 5, east), at(5, 7, west), "", [2]bot{answer("FF"), answer("T")},
			func(t *testing.T, w watched) {
				if !reflect.DeepEqual(w.scores[len(w.scores)-1], []float64{596, 0}) {
					t.Fatalf("final scores %v", w.scores[len(w.scores)-1])
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := map[string]string{}
			if c.turns != "" {
				opts["turns"] = c.turns
			}
			m := onComb(t, c.red, c.blue, opts)
			if c.name == "sudden death" {
				allDiscovered(m, 0)
				m.points[0] = 300
			}
			c.check(t, watch(t, m, c.bots))
		})
	}
}

// Whole matches on generated mazes, with random answers (faults included) and with wall
// followers: every View is sound and the last one's scores are the result's.
func TestViewMatches(t *testing.T) {
	words := []string{"F", "L", "R", "T", "FF", "LFR", "TF"}
	for seed := uint64(1); seed <= 12; seed++ {
		m := start(t, seed, nil)
		random := gametest.RandomAnswers(words, seed)
		answer := func(_ *match, req game.Request) game.Reply { return random(req) }
		watch(t, m, [2]bot{answer, answer})
	}
	m := start(t, 7, nil)
	w := watch(t, m, [2]bot{wallFollower, wallFollower})
	// A film holds one state per step: keep it small.
	b, err := json.Marshal(w.final())
	if err != nil || len(b) > 2000 {
		t.Fatalf("a state of %d bytes (%v), want at most 2000", len(b), err)
	}
}
