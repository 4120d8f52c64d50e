package games_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// langs are every language: each game has a sample bot in each (bots/<game>/<lang>).
var langs = images.LangNames()

// playAndVerify plays a match of a registered game (its replay re-judged by matchtest.Play).
func playAndVerify(t *testing.T, r *match.Runner, name string, seed uint64, bots ...string) result.Result {
	t.Helper()
	g, ok := games.Lookup(name)
	if !ok {
		t.Fatalf("no game %s", name)
	}
	res, _ := matchtest.Play(t, r, g, seed, nil, bots...)
	return res
}

// TestEveryLanguageInEachSeat plays a full game of each two-player game for each language
// against the next one (the last against the first): every language's sample bot plays each
// seat of each game once, and none may fault; each draws on the board (docs/viewer.md), its
// marks kept in the replay with its move. Every pair of languages was played before; a
// pair adds nothing the ring does not check (each bot has its own sandbox and its own clock),
// and it cost 72 matches a runtime.
func TestEveryLanguageInEachSeat(t *testing.T) {
	sandboxtest.RuncOnly(t, "the seats are the game's rules; snakecore.TestEveryLanguage plays every language under gVisor")
	r := matchtest.Runner(t)
	for _, name := range []string{"amazes", "ontherun"} {
		for i, first := range langs {
			second := langs[(i+1)%len(langs)]
			t.Run(fmt.Sprintf("%s/%s-%s", name, first, second), func(t *testing.T) {
				g, _ := games.Lookup(name)
				res, rp := matchtest.Play(t, r, g, uint64(100+i), nil, "bots/"+name+"/"+first, "bots/"+name+"/"+second)
				marked := make([]int, len(res.Players))
				for _, x := range rp.Exchanges {
					for _, line := range strings.Split(x.Stderr, "\n") {
						if strings.HasPrefix(line, "@judge ") && strings.Contains(line, "layer=sample") {
							marked[x.Player]++
						}
					}
				}
				for k, p := range res.Players {
					if marked[k] == 0 {
						t.Errorf("player %d (%s) drew no mark in the replay", k, p.Name)
					}
					if p.Fault != nil {
						t.Errorf("player %d (%s) faulted: %+v", k, p.Name, *p.Fault)
					}
					if p.Moves == 0 {
						t.Errorf("player %d (%s) made no move", k, p.Name)
					}
				}
			})
		}
	}
}

// TestBrokenBotIsFaulted: the broken bot's fault is reported while the other bot finishes.
func TestBrokenBotIsFaulted(t *testing.T) {
	sandboxtest.RuncOnly(t, "a broken bot's faults are the game's rules")
	r := matchtest.Runner(t)
	for _, tc := range []struct {
		game, broken string
		kinds        []game.FaultKind
	}{
		{"amazes", "bots/amazes/broken", []game.FaultKind{game.Protocol, game.IllegalMove}},
		{"ontherun", "bots/ontherun/broken", []game.FaultKind{game.Protocol, game.IllegalMove, game.Timeout}},
	} {
		for _, order := range []string{"broken-first", "broken-second"} {
			t.Run(tc.game+"/"+order, func(t *testing.T) {
				bots := []string{tc.broken, "bots/" + tc.game + "/cpp"}
				if order == "broken-second" {
					bots[0], bots[1] = bots[1], bots[0]
				}
				res := playAndVerify(t, r, tc.game, 42, bots...)
				bi := 0
				if order == "broken-second" {
					bi = 1
				}
				broken, other := res.Players[bi], res.Players[1-bi]
				if broken.Fault == nil || !slices.Contains(tc.kinds, broken.Fault.Kind) {
					t.Errorf("broken bot: fault %+v, want one of %v", broken.Fault, tc.kinds)
				}
				if other.Fault != nil {
					t.Errorf("the other bot faulted: %+v", *other.Fault)
				}
				if broken.Score != 0 {
					t.Errorf("the broken bot scored %v", broken.Score)
				}
			})
		}
	}
}
