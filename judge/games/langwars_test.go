package games_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// playLangWars plays a Lang Wars match through real sandboxes, re-judges its replay and
// returns the result with the replay.
func playLangWars(t *testing.T, r *match.Runner, seed uint64, bots ...string) (result.Result, *replay.Replay) {
	t.Helper()
	g, _ := games.Lookup("langwars")
	res, rp := matchtest.Play(t, r, g, seed, nil, bots...)
	var sum float64
	for _, p := range res.Players {
		sum += p.Score
	}
	if sum > 1e-9 || sum < -1e-9 {
		t.Errorf("victory points sum to %v, not 0", sum)
	}
	return res, rp
}

// answers are the lines each player answered per turn (READY is turn 0).
func answers(rp *replay.Replay) map[[2]int]string {
	out := map[[2]int]string{}
	for _, x := range rp.Exchanges {
		if len(x.Received) > 0 {
			out[[2]int{x.Player, x.Turn}] = strings.Join(x.Received, "\n")
		}
	}
	return out
}

// TestLangWarsEveryLanguage plays the sample bots (one per language), four at a time, each
// language in every seat. They play the same deterministic strategy on symmetric
// information, so each turn all four must answer the same picks (a check that the
// implementations agree), nobody faults, and the game is an all-zero draw.
func TestLangWarsEveryLanguage(t *testing.T) {
	sandboxtest.RuncOnly(t, "the seats are the game's rules; snakecore.TestEveryLanguage plays every language under gVisor")
	r := matchtest.Runner(t)
	for rot := range langs {
		var bots []string
		for k := 0; k < 4; k++ {
			bots = append(bots, "bots/langwars/"+langs[(rot+k)%len(langs)])
		}
		t.Run(strings.Join(bots, ","), func(t *testing.T) {
			res, rp := playLangWars(t, r, uint64(300+rot), bots...)
			for k, p := range res.Players {
				if p.Fault != nil {
					t.Errorf("player %d (%s) faulted: %+v", k, p.Name, *p.Fault)
				}
				if p.Moves != 10 {
					t.Errorf("player %d (%s) made %d moves, want 10 (READY is not a move)", k, p.Name, p.Moves)
				}
				if p.Score != 0 || p.Rank != 1 {
					t.Errorf("player %d (%s): score %v rank %d", k, p.Name, p.Score, p.Rank)
				}
			}
			if res.Winner != nil {
				t.Errorf("winner %d, want a draw", *res.Winner)
			}
			a := answers(rp)
			for turn := 1; turn <= 10; turn++ {
				want := a[[2]int{0, turn}]
				if n := len(strings.Fields(want)); (turn%2 == 1 && n != 5) || (turn%2 == 0 && n != 2) {
					t.Errorf("turn %d: %q", turn, want)
				}
				for p := 1; p < 4; p++ {
					if got := a[[2]int{p, turn}]; got != want {
						t.Errorf("turn %d: player %d (%s) picked %q, player 0 (%s) %q", turn, p, bots[p], got, bots[0], want)
					}
				}
			}
			// The settings each player was sent are the world's attention degrees.
			w, _ := rp.Header.World.(map[string]any)
			att := fmt.Sprint(w["attention"])
			for _, x := range rp.Exchanges {
				if x.Turn == 0 && x.Expect == 0 && x.Ready == "" {
					lines := strings.Split(strings.TrimSuffix(x.Sent, "\n"), "\n")
					if len(lines) != 2 || lines[0] != "10 4 8" || "["+lines[1]+"]" != att {
						t.Errorf("settings to player %d: %q, world %s", x.Player, x.Sent, att)
					}
				}
			}
		})
	}
}

// TestLangWarsBrokenBot: the broken bot's ready message (after a junk line, in lower case)
// is accepted, its sloppy picks count as language 0 without a fault, and it is stopped for
// spinning on turn 4; from then on it picks language 0 while the others play on.
func TestLangWarsBrokenBot(t *testing.T) {
	sandboxtest.RuncOnly(t, "a broken bot's faults are the game's rules")
	r := matchtest.Runner(t)
	for _, seat := range []int{0, 3} {
		t.Run(fmt.Sprintf("seat-%d", seat), func(t *testing.T) {
			bots := []string{"bots/langwars/cpp", "bots/langwars/go", "bots/langwars/pascal"}
			bots = append(bots[:seat], append([]string{"bots/langwars/broken"}, bots[seat:]...)...)
			res, rp := playLangWars(t, r, 42, bots...)
			for k, p := range res.Players {
				switch {
				case k == seat:
					if p.Fault == nil || p.Fault.Kind != game.Timeout || p.Fault.Turn != 4 {
						t.Errorf("broken bot: fault %+v, want a timeout at turn 4", p.Fault)
					}
					if p.Moves != 3 {
						t.Errorf("broken bot made %d moves, want 3 turns (READY is not a move)", p.Moves)
					}
				case p.Fault != nil:
					t.Errorf("player %d (%s) faulted: %+v", k, p.Name, *p.Fault)
				case p.Moves != 10:
					t.Errorf("player %d (%s) answered %d times", k, p.Name, p.Moves)
				}
			}
			a := answers(rp)
			// The replay keeps every line, those before READY too, exactly as written.
			if got := a[[2]int{seat, 0}]; got != "hello, judge\n  ready  " {
				t.Errorf("broken bot's ready: %q", got)
			}
			if got := a[[2]int{seat, 1}]; got != "0 1 x 9" {
				t.Errorf("broken bot's turn 1: %q", got)
			}
			// Another player's view at turn 9: the broken bot's revealed believers (its
			// column) are its workday picks read leniently: 0 1 0 0 0 at turn 1, 6 5 0 0 0 at
			// turn 3, then language 0 five times at turns 5 and 7. Its holiday 7s are hidden.
			viewer := (seat + 1) % 4
			col := seat + 1
			if seat > viewer {
				col = seat
			}
			want := []int{4 + 3 + 5 + 5, 1, 0, 0, 0, 1, 1, 0}
			for _, x := range rp.Exchanges {
				if x.Player != viewer || x.Turn != 9 || x.Expect != 1 {
					continue
				}
				rows := strings.Split(x.Sent, "\n")
				for l, n := range want {
					if f := strings.Fields(rows[1+l]); len(f) != 4 || f[col] != fmt.Sprint(n) {
						t.Errorf("player %d sees language %d as %q at turn 9; the broken bot (column %d) should have %d", viewer, l, rows[1+l], col, n)
					}
				}
			}
		})
	}
}
