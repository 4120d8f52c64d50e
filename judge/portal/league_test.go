package portal_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/queue"
)

// leagueContest is contest name of game with the ladder on and three leagues: Bronze (its
// boss the house bot weak, strength 3), Silver (mid, 6) and Gold (no boss); the trial's test
// looks for 200 Elo at 10% each way, so that the fake judge's sure results decide in six
// matches with the boss.
func (e *env) leagueContest(name, game string) {
	e.t.Helper()
	e.contest(name, func(c *store.Contest) {
		c.Game, c.Ladder = game, true
		c.LadderSettings = ladder.Defaults
		c.LadderSettings.MaxRate = 3600
		c.LadderSettings.Trial = &ladder.TrialTest{Elo0: 0, Elo1: 200, Alpha: 0.1, Beta: 0.1}
		c.LadderSettings.Leagues = []ladder.League{{Name: "Bronze", Boss: "weak"}, {Name: "Silver", Boss: "mid"}, {Name: "Gold"}}
		for _, h := range []struct {
			name     string
			strength int
		}{{"weak", 3}, {"mid", 6}} {
			key := "portal/house/" + name + "/" + h.name + ".json"
			src, _ := json.Marshal(map[string]string{"main.cpp": fmt.Sprintf("int main() { /* strength %d */ }", h.strength)})
			if err := e.q.PutObject(e.t.Context(), queue.BucketSources, key, bytes.NewReader(src)); err != nil {
				e.t.Fatal(err)
			}
			c.House = append(c.House, store.House{Name: h.name, Lang: "cpp", Source: key})
		}
	})
}

// Versions start in the lowest league, play within it and its boss, and move up by beating
// the boss, never down; the leaderboard (API and page) shows each league, a version's page
// and the API its progress against the boss, and the official round may take the top league
// alone: for a game of two, a game of four and an added game of four.
func TestLeaguesPromote(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("plays each game's ladder until four versions find their leagues, 15 s: make test runs it")
	}
	for _, game := range []string{"amazes", "langwars", "higher-four"} {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.leagueContest("spring", game)
			org := e.user("spring", "org", true)
			want := map[string]string{"ann": "Bronze", "bob": "Silver", "cat": "Gold", "dan": "Gold"}
			cs, ids := map[string]*client{}, map[string]string{}
			for login, strength := range map[string]int{"ann": 1, "bob": 5, "cat": 9, "dan": 8} {
				cs[login] = e.user("spring", login, false)
				ids[login] = cs[login].activeVersion("spring", fmt.Sprintf("int main() { /* strength %d */ }", strength))
			}
			board := func() api.Leaderboard {
				var b api.Leaderboard
				cs["ann"].apiJSON("/api/v1/contests/spring/leaderboard", &b)
				return b
			}
			eventually(t, 90*time.Second, func() error {
				got := map[string]string{}
				for _, r := range board().Rows {
					got[r.Login] = r.League
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					st, _ := e.st.Ladder(t.Context(), "spring")
					var tests []string
					for _, p := range st.Players {
						tests = append(tests, fmt.Sprintf("%s %+v", p.Login, p.Boss))
					}
					return fmt.Errorf("the leagues %v; want %v (the tests against the bosses: %v)", got, want, tests)
				}
				// ann stays in Bronze once its test says it is not better than the boss.
				if l := cs["ann"].league(ids["ann"]); l == nil || l.Verdict == nil || *l.Verdict != api.NotBetter {
					return fmt.Errorf("ann's test against Bronze's boss: %+v", l)
				}
				return nil
			})
			b := board()
			if fmt.Sprint(b.Leagues) != "[{Bronze weak 1} {Silver mid 1} {Gold  2}]" {
				t.Errorf("the leaderboard's leagues %v", b.Leagues)
			}
			var order []string
			for i, r := range b.Rows {
				order = append(order, r.League)
				if r.Rank != i+1 {
					t.Errorf("row %d: rank %d", i, r.Rank)
				}
			}
			if fmt.Sprint(order) != "[Gold Gold Silver Bronze]" {
				t.Errorf("the rows' leagues in the order %v; want the top first", order)
			}
			// cat moved up twice, each time by beating the boss below.
			l := cs["cat"].league(ids["cat"])
			if l == nil || l.Name != "Gold" || !l.Top || l.Boss != "" || len(l.Promoted) != 2 || l.Promoted[0].To != "Silver" || l.Promoted[1].To != "Gold" {
				t.Errorf("cat's league: %+v", l)
			}
			if l := cs["ann"].league(ids["ann"]); l.Boss != "weak" || l.Matches < 2 || l.LLR > l.Bounds[0] {
				t.Errorf("ann's league: %+v", l)
			}
			// From then on, every match seats the versions of one league (the house bots aside).
			settled := time.Now()
			eventually(t, 30*time.Second, func() error {
				ms, err := e.st.MatchesWhere(t.Context(), "spring", "*", store.KindLadder, nil)
				if err != nil {
					return err
				}
				n := 0
				for _, m := range ms {
					if m.Created.Before(settled) || m.Result == nil {
						continue
					}
					n++
					leagues := map[string]bool{}
					for _, s := range m.Seats {
						if s.Login != "" {
							leagues[want[s.Login]] = true
						}
					}
					if len(leagues) > 1 {
						return fmt.Errorf("match %s seats %v: versions of leagues %v", m.ID, m.Seats, leagues)
					}
				}
				if n < 10 {
					return fmt.Errorf("%d ladder matches since the leagues settled", n)
				}
				return nil
			})
			// The pages: the leaderboard by league, a version's page its progress.
			_, page := cs["ann"].get("/c/spring/ladder")
			for _, s := range []string{`data-league="Gold"`, `data-league="Silver"`, `data-league="Bronze"`, "Its boss: the house bot weak", "Every contestant starts here."} {
				if !strings.Contains(page, s) {
					t.Errorf("the leaderboard page does not say %q", s)
				}
			}
			if strings.Index(page, `data-league="Gold"`) > strings.Index(page, `data-league="Bronze"`) {
				t.Error("the leaderboard page lists Bronze above Gold")
			}
			_, page = cs["ann"].get("/c/spring/s/" + ids["ann"])
			if !strings.Contains(page, `data-testid="league-name">Bronze`) || !strings.Contains(page, `data-testid="league-verdict">not better than the boss`) {
				t.Error("ann's version page does not say its league and its test's verdict")
			}
			_, page = cs["cat"].get("/c/spring/s/" + ids["cat"])
			if !strings.Contains(page, "Moved up to Gold") || !strings.Contains(page, "the top league") {
				t.Error("cat's version page does not say it moved up to the top league")
			}
			// Another contestant's progress stays theirs.
			if code, _, _ := cs["bob"].api("GET", "/api/v1/submissions/"+ids["ann"], nil, ""); code != 404 {
				t.Errorf("bob reads ann's version and its test: %d", code)
			}
			// The official round of the top league only.
			body, _ := json.Marshal(map[string]any{"deadline": time.Now().Add(-time.Second).Format(time.RFC3339)})
			if code, out, _ := org.api("PUT", "/api/v1/contests/spring/settings", bytes.NewReader(body), "application/json"); code != 200 {
				t.Fatalf("the deadline: %d %v", code, out)
			}
			code, out, _ := org.api("POST", "/api/v1/contests/spring/rounds", strings.NewReader(`{"kind": "official", "leagues": "top"}`), "application/json")
			if code != 202 || out["leagues"] != api.LeaguesTop {
				t.Fatalf("the official round of the top league: %d %v", code, out)
			}
			var entrants []string
			for _, en := range out["entrants"].([]any) {
				if l := en.(map[string]any)["login"].(string); !strings.HasPrefix(l, "house:") {
					entrants = append(entrants, l)
				}
			}
			if slices.Sort(entrants); fmt.Sprint(entrants) != "[cat dan]" {
				t.Errorf("the top league's official round entered %v; want cat and dan", entrants)
			}
		})
	}
}

// league is a version's league and its test, as the API shows it to its owner.
func (c *client) league(id string) *api.LeagueProgress {
	var sub api.Submission
	if c.apiJSON("/api/v1/submissions/"+id, &sub); sub.Ladder == nil {
		return nil
	}
	return sub.Ladder.League
}

// apiJSON reads path of the API into v, as the API's own types.
func (c *client) apiJSON(path string, v any) {
	c.e.t.Helper()
	code, out, _ := c.api("GET", path, nil, "")
	b, _ := json.Marshal(out)
	if err := json.Unmarshal(b, v); code != 200 || err != nil {
		c.e.t.Fatalf("%s: %d %v %v", path, code, err, out)
	}
}

// The leagues' settings through the API and the organiser page: refused with their own
// words, kept and shown; not a contestant's to change; another contest's leagues are not
// found; a round of the top league needs leagues.
func TestLeagueSettings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", func(c *store.Contest) { c.Ladder = true })
	e.leagueContest("autumn", "langwars")
	org, ann := e.user("spring", "org", true), e.user("spring", "ann", false)
	for _, c := range []struct{ body, says string }{
		{`{"leagues": [{"name": "Bronze", "boss": "nobody"}, {"name": "Gold"}]}`, `boss "nobody" is not a house bot of the contest (it has easy)`},
		{`{"leagues": [{"name": "Bronze", "boss": "easy"}, {"name": "bronze", "boss": "easy"}, {"name": "Gold"}]}`, `"bronze" is the name of two leagues`},
		{`{"leagues": [{"name": "Bronze"}, {"name": "Gold"}]}`, `leagues[0] "Bronze": give its boss`},
		{`{"leagues": [{"name": "<script>", "boss": "easy"}, {"name": "Gold"}]}`, `name "<script>"`},
		{`{"leagues": [{"name": "Gold", "boss": "easy", "colour": "red"}]}`, `unknown field "colour"`},
	} {
		code, out, _ := org.api("PUT", "/api/v1/contests/spring/settings", strings.NewReader(c.body), "application/json")
		if msg := fmt.Sprint(out["error"]); code != 400 || !strings.Contains(msg, c.says) {
			t.Errorf("%s: %d %s; want 400 saying %q", c.body, code, msg, c.says)
		}
	}
	code, out, _ := org.api("PUT", "/api/v1/contests/spring/settings", strings.NewReader(`{"leagues": [{"name": "Wood", "boss": "easy"}, {"name": "Legend"}]}`), "application/json")
	if code != 200 || fmt.Sprint(out["leagues"]) != "[map[boss:easy name:Wood] map[boss: name:Legend]]" {
		t.Errorf("good leagues: %d %v", code, out["leagues"])
	}
	if code, _, _ := ann.api("PUT", "/api/v1/contests/spring/settings", strings.NewReader(`{"leagues": []}`), "application/json"); code != 403 {
		t.Errorf("a contestant changes the leagues: %d", code)
	}
	// The organiser page: the leagues as lines, a bad one refused in words.
	_, page := org.get("/c/spring/admin")
	if !strings.Contains(page, "Wood=easy\nLegend\n</textarea>") {
		t.Error("the organiser page does not show the leagues")
	}
	if code, page := org.post("/c/spring/admin/settings", url.Values{"leagues": {"Wood=easy\nSilver=\nLegend"}, "ladder": {"on"}}, true); code != 400 || !strings.Contains(page, `league &#34;Silver=&#34;: want NAME=HOUSEBOT`) {
		t.Errorf("a league without its boss from the page: %d", code)
	}
	if code, _ := org.post("/c/spring/admin/settings", url.Values{"leagues": {""}, "ladder": {"on"}}, true); code >= 400 {
		t.Errorf("no leagues from the page: %d", code)
	}
	if ct, _ := e.st.Contest(t.Context(), "spring"); len(ct.LadderSettings.Leagues) != 0 {
		t.Errorf("the leagues after clearing them: %v", ct.LadderSettings.Leagues)
	}
	// Another contest's leaderboard and leagues are not found.
	for _, path := range []string{"/api/v1/contests/autumn/leaderboard", "/api/v1/contests/autumn"} {
		if code, _, _ := ann.api("GET", path, nil, ""); code != 404 {
			t.Errorf("ann reads %s: %d", path, code)
		}
	}
	if code, _ := ann.get("/c/autumn/ladder"); code != 404 {
		t.Errorf("ann reads autumn's leaderboard page: %d", code)
	}
	// A round of the top league, in a contest without leagues.
	code, out, _ = org.api("POST", "/api/v1/contests/spring/rounds", strings.NewReader(`{"kind": "test", "leagues": "top"}`), "application/json")
	if msg := fmt.Sprint(out["error"]); code != 400 || !strings.Contains(msg, "the contest has no leagues") {
		t.Errorf("a round of the top league without leagues: %d %s", code, msg)
	}
	code, out, _ = org.api("POST", "/api/v1/contests/spring/rounds", strings.NewReader(`{"kind": "test", "leagues": "best"}`), "application/json")
	if msg := fmt.Sprint(out["error"]); code != 400 || !strings.Contains(msg, `leagues "best": want "all" or "top"`) {
		t.Errorf("a round of leagues best: %d %s", code, msg)
	}
}
