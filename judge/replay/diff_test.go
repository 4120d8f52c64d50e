package replay

import (
	"errors"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/result"
)

// match is a replay of amazes seed 7 whose player 1 answered the given lines, one a turn.
func match(answers ...string) *Replay {
	rp := &Replay{Header: Header{Type: "header", Version: Version, Game: "amazes", Seed: 7, Options: map[string]string{"turns": "20"},
		Players: []Player{{Name: "a"}, {Name: "b"}}}}
	for t, a := range answers {
		rp.Exchanges = append(rp.Exchanges,
			Exchange{Type: "move", Turn: t + 1, Player: 0, Sent: "turn", Received: []string{"UP"}},
			Exchange{Type: "move", Turn: t + 1, Player: 1, Sent: "turn", Received: []string{a}})
	}
	rp.Result = result.Result{Status: result.StatusOK, Players: []result.Player{{Score: 1}, {Score: float64(len(answers))}}}
	return rp
}

func TestCompare(t *testing.T) {
	str := func(s string) *string { return &s }
	faulted := match("UP", "LEFT")
	faulted.Exchanges[3].Fault = &game.Fault{Kind: game.Timeout, Turn: 2, Detail: "no answer"}
	for _, c := range []struct {
		name  string
		a, b  *Replay
		first *Divergence
	}{
		{"the same", match("UP", "LEFT"), match("UP", "LEFT"), nil},
		{"an answer", match("UP", "LEFT", "UP"), match("UP", "DOWN", "UP"), &Divergence{Exchange: 3, Turn: 2, Player: 1, A: str("LEFT"), B: str("DOWN"), Why: "the answers differ"}},
		{"one ended first", match("UP"), match("UP", "LEFT"), &Divergence{Exchange: 2, Turn: 2, Player: 0, A: nil, B: str("UP"), Why: "A's match ended here, B's went on"}},
		{"a fault", faulted, match("UP", "LEFT"), &Divergence{Exchange: 3, Turn: 2, Player: 1, A: str("LEFT"), B: str("LEFT"), Why: "faults differ: timeout at turn 2 (no answer) and none"}},
	} {
		got, err := Compare(c.a, c.b)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got.Same != (c.first == nil) || (got.First == nil) != (c.first == nil) {
			t.Errorf("%s: same %v, first %+v; want first %+v", c.name, got.Same, got.First, c.first)
			continue
		}
		if c.first != nil {
			g, w := *got.First, *c.first
			if g.Exchange != w.Exchange || g.Turn != w.Turn || g.Player != w.Player || deref(g.A) != deref(w.A) || deref(g.B) != deref(w.B) ||
				(g.A == nil) != (w.A == nil) || (g.B == nil) != (w.B == nil) || !strings.HasPrefix(g.Why, w.Why[:10]) {
				t.Errorf("%s: first %+v (a %v, b %v); want %+v", c.name, g, deref(g.A), deref(g.B), w)
			}
		}
	}
	// Replays of different matches are not compared, and each difference is said.
	other := match("UP")
	other.Header.Game, other.Header.Seed, other.Header.Options = "dropblock", 8, map[string]string{"turns": "30"}
	other.Header.Players = append(other.Header.Players, Player{Name: "c"})
	_, err := Compare(match("UP"), other)
	if !errors.Is(err, ErrIncomparable) {
		t.Fatalf("different matches: %v", err)
	}
	for _, want := range []string{"games amazes and dropblock", "seeds 7 and 8", "options turns=20 and turns=30", "2 players and 3"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v: does not say %q", err, want)
		}
	}
	v1, v2 := match("UP"), match("UP")
	v1.Header.GameVersion, v2.Header.GameVersion = "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"
	if _, err := Compare(v1, v2); !errors.Is(err, ErrIncomparable) || !strings.Contains(err.Error(), "version aaaaaaaaaaaa and by version bbbbbbbbbbbb") {
		t.Errorf("two versions of an added game: %v", err)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
