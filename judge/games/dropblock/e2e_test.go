package dropblock_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/match"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games/dropblock"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// TestEveryLanguage: the sample bots of every language, four at a table (the languages in
// their order). None faults, all answer, and every answer is the sample strategy's.
func TestEveryLanguage(t *testing.T) {
	sandboxtest.RuncOnly(t, "the seats are the game's rules; snakecore.TestEveryLanguage plays every language under gVisor")
	r := matchtest.Runner(t)
	langs := images.LangNames()
	for table := 0; table < len(langs); table += 4 {
		seats := slices.Clone(langs[table:min(table+4, len(langs))])
		for len(seats) < 4 {
			seats = append(seats, "cpp")
		}
		var bots []string
		for _, lang := range seats {
			bots = append(bots, "bots/dropblock/"+lang)
		}
		t.Run(strings.Join(seats, ","), func(t *testing.T) { playEveryLanguage(t, r, bots) })
	}
}

func playEveryLanguage(t *testing.T, r *match.Runner, bots []string) {
	res, rp := matchtest.Play(t, r, dropblock.New(), 2015, nil, bots...)
	for k, p := range res.Players {
		if p.Fault != nil {
			t.Errorf("player %d (%s) faulted: %+v", k, p.Name, *p.Fault)
		}
		if p.Moves < 2 {
			t.Errorf("player %d (%s) made %d moves", k, p.Name, p.Moves)
		}
		if !p.Build.OK {
			t.Errorf("player %d (%s) did not build: %s", k, p.Name, p.Build.Log)
		}
	}
	for _, x := range rp.Exchanges {
		want := dropblock.SimpleBot(x.Sent)
		if x.Ready != "" {
			want = "READY"
		}
		if len(x.Received) != 1 || x.Received[0] != want {
			t.Errorf("turn %d: player %d (%s) answered %q, the sample strategy %q", x.Turn, x.Player, bots[x.Player], x.Received, want)
		}
	}
	t.Logf("%d exchanges; scores %v %v %v %v, winner %v", len(rp.Exchanges),
		res.Players[0].Score, res.Players[1].Score, res.Players[2].Score, res.Players[3].Score, res.Winner)
}

// TestBrokenBot: the broken bot times out at its third turn (global turn 8 + its seat); it is
// never asked again while its player stays on the board, and the others finish cleanly.
func TestBrokenBot(t *testing.T) {
	sandboxtest.RuncOnly(t, "a broken bot's faults are the game's rules")
	r := matchtest.Runner(t)
	const seat = 1
	bots := []string{"bots/dropblock/cpp", "bots/dropblock/broken", "bots/dropblock/go", "bots/dropblock/pascal"}
	res, rp := matchtest.Play(t, r, dropblock.New(), 42, nil, bots...)
	broken := res.Players[seat]
	if broken.Fault == nil || broken.Fault.Kind != game.Timeout || broken.Fault.Turn != 8+seat {
		t.Fatalf("broken bot: fault %+v, want a timeout at turn %d", broken.Fault, 8+seat)
	}
	if broken.Moves != 2 {
		t.Errorf("broken bot: %d moves, want 2 (two turns; READY is not a move)", broken.Moves)
	}
	for k, p := range res.Players {
		if k != seat && p.Fault != nil {
			t.Errorf("player %d (%s) faulted: %+v", k, p.Name, *p.Fault)
		}
	}
	last := 0
	for _, x := range rp.Exchanges {
		if x.Player == seat && x.Turn > 8+seat {
			t.Errorf("the stopped bot was asked at turn %d", x.Turn)
		}
		last = max(last, x.Turn)
	}
	if last <= 8+seat {
		t.Errorf("the game stopped at turn %d", last)
	}
}
