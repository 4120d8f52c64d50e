package ontherun

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
)

// viewOf is m's picture, checked to be a viewState that encodes, and to be the same when asked
// twice (View changes nothing).
func viewOf(t *testing.T, m *match) (game.View, viewState) {
	t.Helper()
	return gametest.View[viewState](t, m)
}

// watched drives m with answer and returns the picture at each request that expects an answer,
// keyed "player/turn" (the state just before that player answers), and at the end.
func watched(t *testing.T, m *match, answer func(game.Request) game.Reply) (map[string]viewState, viewState) {
	t.Helper()
	seen := map[string]viewState{}
	var first game.View
	var firstJSON []byte
	gametest.Drive(t, m, func(req game.Request) game.Reply {
		v, s := viewOf(t, m)
		if first.State == nil {
			first = v
			firstJSON, _ = json.Marshal(v)
		}
		seen[fmt.Sprintf("%d/%d", req.Player, req.Turn)] = s
		return answer(req)
	})
	// A picture taken earlier is not changed by the game going on.
	if b, _ := json.Marshal(first); string(b) != string(firstJSON) {
		t.Errorf("an early picture changed:\n%s\n%s", firstJSON, b)
	}
	v, s := viewOf(t, m)
	if res := m.Result(); !slices.Equal(v.Scores, res.Scores) {
		t.Errorf("final view scores %v, result %v", v.Scores, res.Scores)
	}
	if s.Next != "over" || s.Catch != nil {
		t.Errorf("final view: next %q, catch %v", s.Next, s.Catch)
	}
	return seen, s
}

// TestViewScripted follows the page's example map through the script of match_test.go: the
// Fugitive shuttles 1 <-> 2 by car, the detectives swap 3 <-> 4 and 6 <-> 7.
func TestViewScripted(t *testing.T) {
	for _, c := range []struct {
		name string
		s    script
		at   string    // the request before which want holds
		want viewState // compared in full
		end  viewState // the final picture, Next and Catch aside
	}{
		{
			name: "the detectives' first move",
			s:    script{catchTurn: 6},
			at:   "1/1",
			want: viewState{Turn: 1, Next: "detectives", Fugitive: 2, Detectives: [4]int{3, 4, 6, 7},
				Trail: []int{1, 2}, By: "C", Told: "C", Known: 1, Catch: []float64{0, 20}},
			end: viewState{Turn: 6, Fugitive: 1, Detectives: [4]int{1, 4, 6, 7}, Trail: []int{1, 2, 1, 2, 1, 2, 1},
				By: "CCCCCC", Told: "C", Known: 2, KnownTurn: 5, Heard: 1, Caught: true,
				End: "detective 1 caught the fugitive in city 1"},
		},
		{
			name: "the first announcement",
			s:    script{catchTurn: 6},
			at:   "1/5",
			want: viewState{Turn: 5, Next: "detectives", Fugitive: 2, Detectives: [4]int{3, 4, 6, 7},
				Trail: []int{1, 2, 1, 2, 1, 2}, By: "CCCCC", Told: "C 2", Known: 2, KnownTurn: 5, Heard: 1,
				Catch: []float64{1, 19}},
			end: viewState{Turn: 6, Fugitive: 1, Detectives: [4]int{1, 4, 6, 7}, Trail: []int{1, 2, 1, 2, 1, 2, 1},
				By: "CCCCCC", Told: "C", Known: 2, KnownTurn: 5, Heard: 1, Caught: true,
				End: "detective 1 caught the fugitive in city 1"},
		},
		{
			name: "the fugitive waits for the detectives' move",
			s:    script{catchTurn: 5, byFugitive: true},
			at:   "0/2",
			want: viewState{Turn: 2, Next: "fugitive", Fugitive: 2, Detectives: [4]int{4, 3, 7, 6},
				Trail: []int{1, 2}, By: "C", Told: "C", Known: 1, Catch: []float64{0, 20}},
			// Onto detective 2 by plane on the announcement turn: the Detectives never hear it.
			end: viewState{Turn: 5, Fugitive: 4, Detectives: [4]int{3, 4, 6, 7}, Trail: []int{1, 2, 1, 2, 1, 4},
				By: "CCCCP", Told: "C", Known: 1, Caught: true,
				End: "the fugitive moved onto detective 2 in city 4"},
		},
		{
			name: "placing the pieces",
			s:    script{},
			at:   "0/0",
			want: viewState{Next: "fugitive", Detectives: [4]int{3, 4, 6, 7}, Trail: []int{}, Catch: []float64{0, 20}},
			end: viewState{Turn: 50, Fugitive: 1, Detectives: [4]int{3, 4, 6, 7}, Trail: append([]int{1}, slices.Repeat([]int{2, 1}, 25)...),
				By: string(slices.Repeat([]byte("C"), 50)), Told: "C 1", Known: 1, KnownTurn: 50, Heard: 10,
				End: "the fugitive escaped after 50 turns"},
		},
		{
			name: "a fault",
			s:    script{override: map[string]game.Reply{"1/3": {Lines: []string{"4", "7", "7", "6"}}}},
			at:   "1/3",
			want: viewState{Turn: 3, Next: "detectives", Fugitive: 2, Detectives: [4]int{3, 4, 6, 7},
				Trail: []int{1, 2, 1, 2}, By: "CCC", Told: "C", Known: 1, Catch: []float64{0, 20}},
			end: viewState{Turn: 3, Fugitive: 2, Detectives: [4]int{3, 4, 6, 7}, Trail: []int{1, 2, 1, 2},
				By: "CCC", Told: "C", Known: 1,
				End: "player 1: illegal_move at turn 3: detectives 2 and 3 both move to city 7"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := exampleMatch(t)
			if _, s := viewOf(t, m); s.Next != "detectives" || s.Fugitive != 0 || s.Detectives != [4]int{} {
				t.Errorf("before the start: %+v", s)
			}
			seen, end := watched(t, m, c.s.answer)
			if got, ok := seen[c.at]; !ok || !reflect.DeepEqual(got, c.want) {
				t.Errorf("at %s:\n got %+v\nwant %+v", c.at, got, c.want)
			}
			end.Next = ""
			if !reflect.DeepEqual(end, c.end) {
				t.Errorf("at the end:\n got %+v\nwant %+v", end, c.end)
			}
		})
	}
}

// TestViewRandom: random answers, and random legal moves on generated maps, never break View;
// the trail follows the fugitive and the final picture's points are the result's.
func TestViewRandom(t *testing.T) {
	words := []string{"C", "T", "P", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}
	caught := 0
	for seed := uint64(1); seed <= 30; seed++ {
		m := gametest.Match[*match](t, New(), game.Config{Seed: seed, Options: map[string]string{"cities": "10"}})
		watched(t, m, gametest.RandomAnswers(words, seed))

		m = gametest.Match[*match](t, New(), game.Config{Seed: seed, Options: map[string]string{"cities": fmt.Sprint(10 + 6*seed)}})
		_, end := watched(t, m, legalPlayer(m, seed))
		if len(end.Trail) != len(end.By)+1 || end.Trail[len(end.Trail)-1] != end.Fugitive {
			t.Errorf("seed %d: trail %v for moves %q, fugitive in %d", seed, end.Trail, end.By, end.Fugitive)
		}
		if end.KnownTurn%turnsPerRound != 0 || end.Known != end.Trail[end.KnownTurn] {
			t.Errorf("seed %d: known %d in turn %d, trail %v", seed, end.Known, end.KnownTurn, end.Trail)
		}
		if end.Caught {
			caught++
		}
	}
	if caught == 0 {
		t.Errorf("no random game ended with an arrest")
	}
}

// legalPlayer plays both sides at random, within the rules.
func legalPlayer(m *match, seed uint64) func(game.Request) game.Reply {
	r := rand.New(rand.NewPCG(seed, 7))
	w := m.world
	return func(req game.Request) game.Reply {
		switch {
		case req.Player == detectives && req.Turn == 0:
			p := r.Perm(w.n)
			return game.Reply{Lines: []string{fmt.Sprint(p[0] + 1), fmt.Sprint(p[1] + 1), fmt.Sprint(p[2] + 1), fmt.Sprint(p[3] + 1)}}
		case req.Player == fugitive && req.Turn == 0:
			for {
				if c := r.IntN(w.n) + 1; m.detectiveIn(c) < 0 {
					return game.Reply{Lines: []string{fmt.Sprint(c)}}
				}
			}
		case req.Player == fugitive:
			for {
				t := transport(r.IntN(int(numTransports)))
				if to := w.nbrs[t][m.fugitive]; len(to) > 0 {
					return game.Reply{Lines: []string{t.letter() + " " + fmt.Sprint(to[r.IntN(len(to))])}}
				}
			}
		}
		// Each detective in turn takes a random free neighbour; a dead end starts over.
		for {
			var next []string
			used := map[int]bool{}
			for _, d := range m.detectives {
				var free []int
				for t := range numTransports {
					for _, c := range w.nbrs[t][d] {
						if !used[c] {
							free = append(free, c)
						}
					}
				}
				if len(free) == 0 {
					break
				}
				c := free[r.IntN(len(free))]
				used[c] = true
				next = append(next, fmt.Sprint(c))
			}
			if len(next) == numDetectives {
				return game.Reply{Lines: next}
			}
		}
	}
}
