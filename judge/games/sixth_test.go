package games_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/match/matchtest"
)

// odd is a sixth game that exists only in this test, to show that a game needs nothing
// outside its own package and the registry's list: each round both players name a digit;
// an odd sum is a point for player 0, an even one for player 1. An answer that is not one
// digit is a protocol fault, and the faulted player's digits count as 0.
var odd = game.Define(game.Spec{
	Name: "odd", MinPlayers: 2, MaxPlayers: 2, DefaultPlayers: 2,
	Options: []game.Declared{oddRounds, oddMemory},
	Start: func(c game.Config, o *game.Options) (game.Match, error) {
		m := &oddMatch{rounds: oddRounds.Read(o)}
		m.setup = game.Setup{Options: o.Values, Memory: oddMemory.Read(o)}
		return m, nil
	},
})

var (
	oddRounds = game.IntOption{Name: "rounds", Default: 9, Min: 1, Max: 99, Help: "rounds"}
	oddMemory = game.MemoryOption{DefaultMiB: 32}
)

type oddMatch struct {
	setup          game.Setup
	rounds, asked  int
	digits, scores [2]float64
	faults         [2]*game.Fault
}

func (m *oddMatch) Setup() game.Setup { return m.setup }

func (m *oddMatch) Next() (game.Request, bool) {
	r := m.asked/2 + 1
	if r > m.rounds {
		return game.Request{}, true
	}
	return game.Request{Player: m.asked % 2, Turn: r, Send: fmt.Sprintf("round %d\n", r), Expect: 1, Limit: time.Second}, false
}

func (m *oddMatch) Reply(r game.Reply) *game.Fault {
	req, _ := m.Next()
	m.asked++
	p, f := req.Player, r.Fault
	if f == nil {
		a := game.TrimLine(r.Lines[0])
		if len(a) == 1 && a[0] >= '0' && a[0] <= '9' {
			m.digits[p] = float64(a[0] - '0')
		} else {
			f = &game.Fault{Kind: game.Protocol, Turn: req.Turn, Detail: fmt.Sprintf("%q is not a digit", a)}
		}
	}
	if f != nil {
		m.digits[p] = 0
		if m.faults[p] == nil {
			m.faults[p] = f
		}
	}
	if p == 1 {
		m.scores[int(m.digits[0]+m.digits[1]+1)%2]++
	}
	return f
}

func (m *oddMatch) Result() game.Result { return game.Ranked(m.scores[:], m.faults[:]) }

// The sixth game keeps what every game must (the conformance suite), a registry that lists
// it takes jobs for it, and it plays a real match of real bots, built and run in their
// containers, whose replay re-judges to the same result.
func TestASixthGameNeedsOnlyItsPackageAndTheRegistry(t *testing.T) {
	gametest.Conformance(t, odd, gametest.Case{Words: []string{"0", "1", "2", "7", "10", "x"}})

	registry := func(name string) (game.Game, bool) {
		if name == "odd" {
			return odd, true
		}
		return games.Lookup(name)
	}
	raw, _ := json.Marshal(job.Job{Version: job.Version, ID: "odd-1", Game: "odd", Options: map[string]any{"rounds": 5},
		Players: []job.Player{{Name: "a", Lang: "cpp", Files: map[string]string{"odd.cpp": "int main(){}"}}, {Name: "b", Lang: "cpp", Files: map[string]string{"odd.cpp": "int main(){}"}}}})
	if _, _, err := job.Parse(raw, job.Rules{Game: registry, Langs: images.LangNames(), MaxSource: 1 << 20}); err != nil {
		t.Fatalf("a job for the sixth game: %v", err)
	}

	r := matchtest.Runner(t)
	res, rp := matchtest.Play(t, r, odd, 1, map[string]string{"rounds": "12"}, "judge/games/testdata/odd/cpp", "judge/games/testdata/odd/cpp")
	// Both bots answer round R with R mod 10: the sum is even every round, 12 points to player 1.
	if a, b := res.Players[0], res.Players[1]; a.Fault != nil || b.Fault != nil || a.Score != 0 || b.Score != 12 || a.Moves != 12 || *res.Winner != 1 {
		t.Errorf("players %+v and %+v, winner %v; want 0 and 12 points in 12 moves each, no faults, player 1 the winner", a, b, res.Winner)
	}
	if len(rp.Exchanges) != 24 || rp.Exchanges[23].Sent != "round 12\n" || rp.Exchanges[23].Received[0] != "2" {
		t.Errorf("the replay has %d exchanges, the last %+v", len(rp.Exchanges), rp.Exchanges[len(rp.Exchanges)-1])
	}
}
