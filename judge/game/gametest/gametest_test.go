package gametest_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
)

// guess is a tiny game: each round every player guesses a coin toss (H or T); a right guess
// scores a point, anything else is a protocol fault that ends the player's guessing. The
// flaws make it break one thing Check checks.
type guess struct{ flaw string }

var (
	roundsOpt = game.IntOption{Name: "rounds", Default: 5, Min: 1, Max: 50, Help: "rounds"}
	memoryOpt = game.MemoryOption{DefaultMiB: 64}
)

// drift makes the "random" flaw's matches differ from one start to the next.
var drift uint64

func (g guess) Name() string                 { return "guess" }
func (g guess) Players() (min, max, def int) { return 1, 3, 2 }
func (g guess) Options() []game.Option       { return game.Document(roundsOpt, memoryOpt) }
func (g guess) New(c game.Config) (game.Match, error) {
	opts := game.NewOptions(c.Options)
	rounds := roundsOpt.Read(opts)
	memory := memoryOpt.Read(opts)
	if err := opts.Err(); err != nil && g.flaw != "lenient" {
		return nil, err
	}
	seed := c.Seed
	if g.flaw == "random" {
		drift++
		seed += drift
	}
	return &guessMatch{flaw: g.flaw, n: c.Players, rounds: rounds, rng: game.NewRand(seed),
		setup:  game.Setup{Options: opts.Values, Memory: memory},
		scores: make([]float64, c.Players), faults: make([]*game.Fault, c.Players)}, nil
}

type guessMatch struct {
	flaw          string
	n, rounds     int
	rng           interface{ IntN(int) int }
	setup         game.Setup
	turn, player  int
	pending, over bool
	asked         int
	scores        []float64
	faults        []*game.Fault
}

func (m *guessMatch) Setup() game.Setup { return m.setup }

func (m *guessMatch) Next() (game.Request, bool) {
	if m.turn >= m.rounds {
		return game.Request{}, true
	}
	m.pending = true
	m.asked++
	turn := m.turn + 1
	if m.flaw == "restless" {
		turn = m.asked
	}
	return game.Request{Player: m.player, Turn: turn, Send: "toss\n", Expect: 1, Limit: time.Second}, false
}

func (m *guessMatch) Reply(r game.Reply) *game.Fault {
	if !m.pending {
		return nil
	}
	m.pending = false
	p := m.player
	if m.player++; m.player == m.n {
		m.player, m.turn = 0, m.turn+1
	}
	coin := "HT"[m.rng.IntN(2)]
	f := r.Fault
	if f == nil && m.faults[p] == nil {
		switch a := game.TrimLine(r.Lines[0]); {
		case a == string(coin):
			m.scores[p]++
		case a != "H" && a != "T":
			f = &game.Fault{Kind: game.Protocol, Turn: m.turn, Detail: fmt.Sprintf("%q is not H or T", a)}
		}
	}
	if f != nil && m.faults[p] == nil {
		m.faults[p] = f
	}
	return f
}

func (m *guessMatch) Result() game.Result {
	res := game.Ranked(m.scores, m.faults)
	if m.flaw == "short" {
		res.Ranks = res.Ranks[:len(res.Ranks)-1]
	}
	return res
}

// View shows the scores; its flaws: "shared" hands out the match's own slice (a picture
// that changes after it was taken), "nosy" moves the coin's random stream, "stale" shows
// last round's scores at the end.
func (m *guessMatch) View() game.View {
	switch m.flaw {
	case "shared":
		return game.View{Scores: m.scores}
	case "nosy":
		m.rng.IntN(2)
	case "stale":
		if m.turn >= m.rounds {
			return game.View{Scores: make([]float64, m.n)}
		}
	}
	return game.View{Scores: append([]float64(nil), m.scores...), State: map[string]int{"turn": m.turn}}
}

// Check passes a game that keeps the rules, and finds each flaw.
func TestCheck(t *testing.T) {
	c := gametest.Case{Words: []string{"H", "T"}, Seeds: 6}
	if err := gametest.Check(guess{}, c); err != nil {
		t.Fatalf("a game without flaws: %v", err)
	}
	for _, tc := range []struct{ flaw, want string }{
		{"random", "the same seed and answers gave another match: the result,\n    first:  {\"scores\":["},
		{"lenient", `want an *game.OptionError naming no-such-option`},
		{"restless", "Next changed while a request was pending"},
		{"short", "a result of 1 scores, 0 ranks"},
		{"shared", "changed after it was taken"},
		{"nosy", "taking pictures changed the match"},
		{"stale", "the last picture's scores are"},
	} {
		err := gametest.Check(guess{flaw: tc.flaw}, c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("the %s flaw: %v; want a problem saying %q", tc.flaw, err, tc.want)
		}
		// Said as the protocol's JSON, not as Go's structs and pointers.
		if err != nil && (strings.Contains(err.Error(), "{Player:") || strings.Contains(err.Error(), "Winner:0x")) {
			t.Errorf("the %s flaw is said in Go's words: %v", tc.flaw, err)
		}
	}
}

// Drive stops a player the game has judged, as the referee does: later requests to it get its
// fault without asking it.
func TestDriveStopsAJudgedPlayer(t *testing.T) {
	m := gametest.Start(t, guess{}, game.Config{Seed: 3, Options: map[string]string{"rounds": "4"}})
	asked := map[int]int{}
	log := gametest.Drive(t, m, func(req game.Request) game.Reply {
		asked[req.Player]++
		if req.Player == 1 {
			return game.Reply{Lines: []string{"X"}}
		}
		return game.Reply{Lines: []string{"H"}}
	})
	if len(log) != 8 || asked[0] != 4 || asked[1] != 1 {
		t.Fatalf("%d exchanges, player 0 asked %d times, player 1 %d; want 8, 4 and 1", len(log), asked[0], asked[1])
	}
	last := log[7]
	if last.Request.Player != 1 || last.Reply.Fault == nil || last.Reply.Fault.Kind != game.Protocol || last.Reply.Fault.Turn != last.Request.Turn {
		t.Errorf("the judged player's last request got %+v; want its protocol fault at that turn", last.Reply)
	}
}

func FuzzAnswers(f *testing.F) { gametest.FuzzAnswers(f, guess{}, "H", "T") }
