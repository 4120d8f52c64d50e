package portal_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/portal"
	"github.com/botjudge/judge/judge/portal/ladder"
	"github.com/botjudge/judge/judge/portal/store"
)

// everyGame is each game at its least and its default player count, as a contest sets it:
// the seats a validation, the ladder and a round fill (want), and a test match against one
// house bot (least).
var everyGame = []struct {
	game        string
	opts        map[string]string
	least, want int
}{
	{"amazes", nil, 2, 2},
	{"ontherun", nil, 2, 2},
	{"dropblock", nil, 4, 4},
	{"langwars", nil, 4, 4},
	{"snakecore", nil, 2, 4},
	{"snakecore", map[string]string{"players": "2"}, 2, 2},
	{"snakecore", map[string]string{"players": "6"}, 6, 6},
}

// TestEveryGame is the contestant's whole path in every game at its least and its default
// player count, with one house bot and two contestants: upload, compile, validation (every
// seat filled), activation, a test match against the house bot, the ladder rating both
// versions, and a test competition. The fake daemon refuses a job the real one would (the
// player count, the options). Every game is in the table, added ones too.
func TestEveryGame(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range everyGame {
		seen[c.game] = true
	}
	for _, g := range games.All() {
		if !seen[g.Name()] {
			t.Errorf("game %s is not in the table", g.Name())
		}
	}
	for _, c := range everyGame {
		name := c.game
		if p := c.opts["players"]; p != "" {
			name += "-" + p
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.contest("cup", func(ct *store.Contest) {
				ct.Game, ct.Options, ct.Ladder = c.game, c.opts, true
				ct.LadderSettings = ladder.Settings{InFlight: 2, DisableFaults: 2, DisableWindow: 4}
			})
			org := e.user("cup", "org", true)
			ann, bob := e.user("cup", "ann", false), e.user("cup", "bob", false)
			id := ann.activeVersion("cup", "int main() { /* strength 2 */ }")
			bob.activeVersion("cup", "int main() { /* strength 1 */ }")

			_, sub, _ := ann.api("GET", "/api/v1/submissions/"+id, nil, "")
			v := ann.waitMatch(sub["validation"].(map[string]any)["match"].(string))
			if got := players(v); len(got) != c.want || got[0] != "ann" || !slices.Contains(got, "house:easy") {
				t.Errorf("the validation match seats %v, want ann, the house bot and %d seats", got, c.want)
			}

			body, _ := json.Marshal(map[string]any{"opponents": []string{"house:easy"}})
			code, out, _ := ann.api("POST", "/api/v1/contests/cup/matches", bytes.NewReader(body), "application/json")
			if code != 202 {
				t.Fatalf("a test match: %d %v", code, out)
			}
			m := ann.waitMatch(out["id"].(string))
			if got := players(m); m["result"].(map[string]any)["status"] != "ok" || len(got) != c.least {
				t.Errorf("the test match: %v, seats %v, want %d", m["result"].(map[string]any)["error"], got, c.least)
			}

			eventually(t, 30*time.Second, func() error {
				rows := ann.leaderboard("cup")
				if len(rows) != 2 || rows[0]["login"] != "ann" || rows[1]["matches"].(float64) < 1 {
					return fmt.Errorf("the leaderboard: %v", rows)
				}
				return nil
			})

			body, _ = json.Marshal(map[string]any{"kind": "test"})
			code, out, _ = org.api("POST", "/api/v1/contests/cup/rounds", bytes.NewReader(body), "application/json")
			if code != 202 {
				t.Fatalf("a test competition: %d %v", code, out)
			}
			r := ann.waitRound(out["id"].(string))
			if r["status"] != "done" {
				t.Fatalf("the test competition: %v %v", r["status"], r["error"])
			}
			if got := standingsOf(r); got[0] != "ann" || !slices.Contains(got, "bob") {
				t.Errorf("the test competition's standings: %v", got)
			}

			// The active versions as a tournament file (the organisers' page) is one that
			// judge tournament runs: its house bots fill the seats the versions leave.
			tt := exported(t, org, e.srv.URL+"/c/cup/admin/tournament.tar.gz", "cup")
			if err := tt.Check(); err != nil {
				t.Fatalf("judge tournament refuses the contest's export: %v", err)
			}
			o, err := tt.Run(t.Context(), e.q)
			var names []string
			for _, row := range o.Standings {
				names = append(names, row.Name)
			}
			if err != nil || o.Matches == 0 || o.Judged != o.Matches || !slices.Contains(names, "ann") || !slices.Contains(names, "bob") {
				t.Errorf("judge tournament on the contest's export: %d of %d judged, standings %v, %v", o.Judged, o.Matches, names, err)
			}
		})
	}
}

// players are a match's players' names, in their seats.
func players(m map[string]any) []string {
	var out []string
	if res, ok := m["result"].(map[string]any); ok {
		ps, _ := res["players"].([]any)
		for _, p := range ps {
			out = append(out, p.(map[string]any)["name"].(string))
		}
	}
	return out
}

// A version whose validation the judge could not play is not the contestant's fault: it
// stays validating and says why; the judge failing again is played again later, and once
// the cause is gone (here: a portal started anew plays every one at once) it becomes ready.
func TestJudgeFailedValidationIsPlayedAgain(t *testing.T) {
	e := newEnv(t)
	e.contest("cup", nil)
	ann := e.user("cup", "ann", false)
	e.failing.Store(true)
	code, out := ann.upload("cup", map[string]string{"main.cpp": "int main() { /* judgefail */ }"})
	if code != 202 {
		t.Fatalf("upload: %d %v", code, out)
	}
	id := out["id"].(string)
	var sub map[string]any
	eventually(t, 20*time.Second, func() error {
		_, sub, _ = ann.api("GET", "/api/v1/submissions/"+id, nil, "")
		if sub["status"] != "validating" || !strings.Contains(fmt.Sprint(sub["error"]), "no fault of your bot's") {
			return fmt.Errorf("the version: %v", sub)
		}
		return nil
	})
	first := sub["validation"].(map[string]any)["match"]
	if sub["validation"].(map[string]any)["fault"] != nil {
		t.Errorf("a fault of the bot's: %v", sub["validation"])
	}
	e.failing.Store(false)
	e.stopFollow()
	_, p := newPortal(t, e.q, nil)
	go p.Follow(t.Context())
	sub = ann.waitStatus(id, "ready")
	if sub["validation"].(map[string]any)["match"] == first || sub["error"] != nil {
		t.Errorf("ready after %v: %v", first, sub)
	}
}

// A contest's options decide its player count: a SnakeCore contest of two or of six is made
// (its players option fixes the count, which is not the game's default of four), and options
// that no count can start are refused with the game's word.
func TestContestPlayerCounts(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		name string
		opts map[string]string
		bad  string
	}{
		{"two", map[string]string{"players": "2"}, ""},
		{"six", map[string]string{"players": "6"}, ""},
		{"nine", map[string]string{"players": "9"}, "players"},
		{"tiny", map[string]string{"size": "1"}, "size"},
	} {
		_, err := portal.NewContest(t.Context(), e.st, e.q, games.Lookup, images.LangNames(),
			store.Contest{Name: c.name, Game: "snakecore", Options: c.opts}, nil)
		if (err != nil) != (c.bad != "") || (err != nil && !strings.Contains(err.Error(), c.bad)) {
			t.Errorf("%v: %v, want an error naming %q", c.opts, err, c.bad)
		}
	}
}
