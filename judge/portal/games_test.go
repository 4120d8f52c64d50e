package portal_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/manifest"
	"github.com/botjudge/judge/judge/game/referee"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
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
	{"higher", nil, 2, 2},
	{"higher-four", nil, 2, 4},
}

// addedGames are organisers' games, as judge game add adds them: the test game of
// cmd/judge/testdata/games/higher (2 to 4 players, 2 by default), and the same game played by
// four by default.
var addedGames = func() map[string]game.Game {
	check := manifest.Check{Langs: images.LangNames()}
	two, err := referee.Load(os.DirFS(filepath.Join("..", "..", "cmd", "judge", "testdata", "games", "higher")), check)
	if err != nil {
		panic(err)
	}
	four := *two
	four.Manifest.Name, four.Manifest.Players.Default = "higher-four", 4
	// The same game with a rules page full of markup, and one with none.
	marked := *two
	marked.Manifest.Name, marked.Files = "higher-marked", maps.Clone(two.Files)
	marked.Files[marked.Manifest.Rules] = []byte("# Marked <script>alert('rules')</script>\n\n<img src=x onerror=alert(1)> [click](javascript:alert(2)) [the common rules](../rules.md) [home](https://example.org/)\n")
	bare := *two
	bare.Manifest.Name, bare.Manifest.Rules = "higher-bare", ""
	return map[string]game.Game{"higher": two, "higher-four": &four, "higher-marked": &marked, "higher-bare": &bare}
}()

// lookup finds the judge's games and the added ones, as the catalog does for the portal.
func lookup(name string) (game.Game, bool) {
	if g, ok := addedGames[name]; ok {
		return g, true
	}
	return games.Lookup(name)
}

// TestEveryGame is the contestant's whole path in every game at its least and its default
// player count, with one house bot and two contestants: upload, compile, validation (every
// seat filled), activation, a test match against the house bot, the ladder rating both
// versions, and a test competition. The fake daemon refuses a job the real one would (the
// player count, the options). Every game is in the table, and added ones, by two and by four.
func TestEveryGame(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, c := range everyGame {
		seen[c.game] = true
	}
	for _, g := range append(games.All(), addedGames["higher"], addedGames["higher-four"]) {
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
				ct.LadderSettings = ladder.Settings{InFlight: 2, DisableFaults: 2, DisableWindow: 4, MaxRate: 3600}
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
	t.Parallel()
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
		if sub["status"] != "validating" || !strings.Contains(fmt.Sprint(sub["error"]), "it is played again") {
			return fmt.Errorf("the version: %v", sub)
		}
		return nil
	})
	first := sub["validation"].(map[string]any)["match"]
	if code, page := ann.get("/c/cup/s/" + id); code != 200 || !strings.Contains(page, "plays its validation again by itself") || strings.Contains(page, "upload the same files") {
		t.Errorf("the version's page while the judge fails it: %d\n%s", code, page)
	}
	if sub["validation"].(map[string]any)["fault"] != nil {
		t.Errorf("a fault of the bot's: %v", sub["validation"])
	}
	e.failing.Store(false)
	e.stopFollow()
	_, p := newPortal(t, e.q, nil)
	go p.Engine().Run(t.Context())
	sub = ann.waitStatus(id, "ready")
	if sub["validation"].(map[string]any)["match"] == first || sub["error"] != nil {
		t.Errorf("ready after %v: %v", first, sub)
	}
}

// A contest's options decide its player count: a SnakeCore contest of two or of six is made
// (its players option fixes the count, which is not the game's default of four), and options
// that no count can start are refused with the game's word.
func TestContestPlayerCounts(t *testing.T) {
	t.Parallel()
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
		_, err := contest.New(contest.Config{Store: e.st, Queue: e.q, Games: games.Lookup}).NewContest(t.Context(), contest.HostActor(),
			store.Contest{Name: c.name, Game: "snakecore", Options: c.opts}, nil)
		if (err != nil) != (c.bad != "") || (err != nil && !strings.Contains(err.Error(), c.bad)) {
			t.Errorf("%v: %v, want an error naming %q", c.opts, err, c.bad)
		}
	}
}

// A match's reproduce command says what each directory it names holds and where the caller
// gets it: its own version's files, a house bot's download once the organiser publishes it,
// and never another contestant's code; when the caller cannot have every bot, the page says
// the command plays a match like it, not the same one.
func TestReproduceSaysWhatItNeeds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", func(c *store.Contest) { c.PeerMatches = true })
	ann, bob, org := e.user("spring", "ann", false), e.user("spring", "bob", false), e.user("spring", "org", true)
	ann.activeVersion("spring", "int main() { /* ann */ }")
	bob.activeVersion("spring", "int main() { /* bob */ }")
	ask := func(opponent string) string {
		body, _ := json.Marshal(map[string]any{"opponents": []string{opponent}})
		code, out, _ := ann.api("POST", "/api/v1/contests/spring/matches", bytes.NewReader(body), "application/json")
		if code != 202 {
			t.Fatalf("a match against %s: %d %v", opponent, code, out)
		}
		ann.waitMatch(out["id"].(string))
		return out["id"].(string)
	}
	peer, house := ask("bob"), ask("house:easy")
	for _, c := range []struct {
		who          *client
		match        string
		want, unwant []string
		exact        bool
		against      []string // the seats the caller may play again against the recording
	}{
		{ann, peer, []string{"your version", "bob's version, which is not yours"}, []string{"/house/"}, false, []string{"--seat 0 ann/"}},
		{ann, house, []string{"your version", "does not publish"}, []string{"/house/easy.tar.gz"}, false, []string{"--seat 0 ann/"}},
		{org, peer, []string{"ann's version", "bob's version's files"}, []string{"not yours"}, true, []string{"--seat 0 ann/", "--seat 1 bob/"}},
		{org, house, []string{"/house/easy.tar.gz"}, []string{"does not publish"}, true, []string{"--seat 0 ann/"}},
	} {
		code, page := c.who.get("/c/spring/m/" + c.match)
		var against []string
		for _, cmd := range regexp.MustCompile(`data-testid="against">([^<]*)<`).FindAllStringSubmatch(page, -1) {
			against = append(against, strings.TrimPrefix(cmd[1], "judge play --against "+c.match+".jsonl "))
		}
		if !slices.Equal(against, c.against) {
			t.Errorf("%s on %s: the commands against the recording end %q; want %q", c.who.login, c.match, against, c.against)
		}
		needs := page[strings.Index(page, `data-testid="reproduce-needs"`):]
		needs = html.UnescapeString(needs[:strings.Index(needs, "</ul>")])
		for _, w := range c.want {
			if !strings.Contains(needs, w) {
				t.Errorf("%s on %s: %d, the needs lack %q:\n%s", c.who.login, c.match, code, w, needs)
			}
		}
		for _, w := range c.unwant {
			if strings.Contains(needs, w) {
				t.Errorf("%s on %s: the needs say %q:\n%s", c.who.login, c.match, w, needs)
			}
		}
		if inexact := strings.Contains(page, `data-testid="reproduce-inexact"`); inexact == c.exact {
			t.Errorf("%s on %s: inexact %v", c.who.login, c.match, inexact)
		}
	}
	org.api("PUT", "/api/v1/contests/spring/settings", strings.NewReader(`{"publish_house": true}`), "application/json")
	if _, page := ann.get("/c/spring/m/" + house); !strings.Contains(page, "/c/spring/house/easy.tar.gz") || strings.Contains(page, `data-testid="reproduce-inexact"`) {
		t.Errorf("the house bot published: the page does not link it, or says the match differs")
	}
}

// A version a portal of before rejected because the judge could not play its validation (a
// Lang Wars contest once seated two players in a game of four) is the judge's failure: a
// portal of now validates it again at its start, and it becomes ready.
func TestJudgeRejectedOfBeforeIsValidatedAgain(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("cup", func(c *store.Contest) { c.Game = "langwars" })
	ann := e.user("cup", "ann", false)
	ctx := t.Context()
	sub, err := e.st.AddSubmission(ctx, store.Submission{Contest: "cup", Login: "ann", Lang: "cpp", Files: []string{"main.cpp"}})
	if err != nil {
		t.Fatal(err)
	}
	source := "portal/sources/" + sub.ID + ".json"
	if err := e.q.PutObject(ctx, queue.BucketSources, source, strings.NewReader(`{"main.cpp":"int main() {}"}`)); err != nil {
		t.Fatal(err)
	}
	failed := result.Failed(sub.ID+"v", "langwars", 1, result.Errorf(result.InvalidJob, "langwars takes 4 players, the match has 2"))
	own := store.Seat{Login: "ann", Submission: sub.ID}
	if _, err := e.st.AddMatch(ctx, store.Match{ID: sub.ID + "v", Contest: "cup", Kind: store.KindValidation, Owner: "ann",
		Seats: []store.Seat{own, {House: "easy"}}, Result: &failed}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.UpdateSubmission(ctx, sub.ID, func(x *store.Submission) error {
		x.Source, x.Status, x.Validation = source, store.Rejected, &store.Validation{Match: sub.ID + "v"}
		x.Error = "the judge could not play its validation match: langwars takes 4 players, the match has 2"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	e.stopFollow()
	// This store's portal marked it searched at its start; a store of before has no mark.
	kv, err := e.q.KeyValue(ctx, "portal")
	if err != nil {
		t.Fatal(err)
	}
	if err := kv.Purge(ctx, "migrated.judge-rejected"); err != nil {
		t.Fatal(err)
	}
	_, p := newPortal(t, e.q, nil)
	go p.Engine().Run(t.Context())
	got := ann.waitStatus(sub.ID, "ready")
	v := ann.waitMatch(got["validation"].(map[string]any)["match"].(string))
	if len(players(v)) != 4 {
		t.Errorf("validated again in a match of %v", players(v))
	}
}
