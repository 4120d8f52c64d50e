package portal_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/view/browsertest"
)

// The ladder's pages in Chromium: the leaderboard in rating order, a contestant's rating
// history drawn as SVG with its head-to-head table, and a version taken off the ladder whose
// reason - which quotes what the bot printed - stays text.
func TestLadderInChromium(t *testing.T) {
	t.Parallel()
	b := browsertest.New(t)
	opened := b.WatchDialogs(t)
	e := newEnv(t)
	e.contest("spring", func(c *store.Contest) {
		c.Ladder = true
		c.LadderSettings = ladder.Settings{InFlight: 2, DisableFaults: 2, DisableWindow: 3, MaxRate: 3600}
	})
	var cs []*client
	for i, login := range []string{"ann", "bob", "cat"} {
		c := e.user("spring", login, false)
		c.activeVersion("spring", fmt.Sprintf("int main() { /* strength %d */ }", i))
		cs = append(cs, c)
	}
	eve := e.user("spring", "eve", false)
	bomb := eve.activeVersion("spring", "int main() { /* ladderbomb echo "+hostile[0]+hostile[1]+" */ }")
	eventually(t, 30*time.Second, func() error {
		rows := cs[0].leaderboard("spring")
		if len(rows) != 4 {
			return fmt.Errorf("the leaderboard: %v", rows)
		}
		for _, r := range rows {
			if r["login"] != "eve" && r["matches"].(float64) < 12 || r["login"] == "eve" && r["disabled"] != true {
				return fmt.Errorf("the leaderboard: %v", rows)
			}
		}
		return nil
	})

	b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/login"),
		chromedp.SendKeys(chromedp.CSS(`input[name=login]`), "eve"),
		chromedp.SendKeys(chromedp.CSS(`input[name=password]`), "password of eve"),
		chromedp.Submit(chromedp.CSS(`input[name=password]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=me]`)))

	b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/ladder"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=leaderboard]`)))
	order := browsertest.Get(t, b, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll("[data-testid=leaderboard] [data-testid=login]")].map((td) => td.innerText)`))
	if strings.Join(order[:3], " ") != "cat bob ann" || order[3] != "eve" {
		t.Errorf("the leaderboard's order: %v, want cat bob ann, then eve (off the ladder)", order)
	}
	// Each row says where it could truly be (its own place inside), how sure the ladder is of
	// the next row, and its band; eve, off the ladder, holds the last place.
	rows := browsertest.Get(t, b, chromedp.Evaluate[[][]string](
		`[...document.querySelectorAll("[data-testid=leaderboard] [data-testid=row]")].map((tr) => [tr.cells[0].innerText, tr.querySelector("[data-testid=rank-range]").innerText, tr.dataset.band, tr.querySelector("[data-testid=above-next]").innerText])`))
	band := 1
	for i, r := range rows {
		m := regexp.MustCompile(`^([1-4])(?:–([1-4]))?$`).FindStringSubmatch(r[1])
		if m == nil {
			t.Fatalf("row %d could truly be %q", i+1, r[1])
		}
		lo, hi := m[1], cmp.Or(m[2], m[1])
		if r[0] < lo || r[0] > hi {
			t.Errorf("row %d: rank %s outside its range %s", i+1, r[0], r[1])
		}
		if b, _ := strconv.Atoi(r[2]); b != band && b != band+1 {
			t.Errorf("row %d: band %s after band %d", i+1, r[2], band)
		} else {
			band = b
		}
		if last := i >= 2; last != (r[3] == "-") || !last && !strings.HasSuffix(r[3], "%") {
			t.Errorf("row %d: above the next %q", i+1, r[3])
		}
	}
	if len(rows) != 4 || rows[3][1] != "4" {
		t.Errorf("the rows: %v; want eve's, off the ladder, at 4 for sure", rows)
	}
	if text := browsertest.Get(t, b, chromedp.Evaluate[string](`document.body.innerText`)); !strings.Contains(text, "could truly hold, at 95% confidence") {
		t.Error("the leaderboard does not say what its ranges mean")
	}
	if text := browsertest.Get(t, b, chromedp.Evaluate[string](`document.querySelector("tr.disabled").innerText`)); !strings.Contains(text, "off the ladder") {
		t.Errorf("eve's row: %q", text)
	}
	b.Screenshot(t, "portal-leaderboard.png")

	b.Do(t, chromedp.Click(chromedp.CSS(`a[href="/c/spring/ladder/cat"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=rating-plot]`)))
	points := browsertest.Get(t, b, chromedp.Evaluate[int](`document.querySelector("[data-testid=plot-mu]").points.numberOfItems`))
	width := browsertest.Get(t, b, chromedp.Evaluate[float64](`document.querySelector("[data-testid=plot-rating]").getBoundingClientRect().width`))
	if points < 12 || width < 100 {
		t.Errorf("cat's rating plot: %d points, %.0f px wide", points, width)
	}
	versus := browsertest.Get(t, b, chromedp.Evaluate[string](`document.querySelector("[data-testid=versus]").innerText`))
	for _, o := range []string{"ann", "bob"} {
		if !strings.Contains(versus, o) {
			t.Errorf("cat's head to head has no %s: %q", o, versus)
		}
	}
	b.Screenshot(t, "portal-ladder.png")

	b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/s/"+bomb), chromedp.WaitVisible(chromedp.CSS(`[data-testid=disabled]`)))
	browsertest.CheckInert(t, b, 0, append([]string{"Off the ladder"}, hostile[:2]...)...)
	if n := browsertest.Get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=disabled-match]").length`)); n != 2 {
		t.Errorf("%d matches that counted are linked, want 2", n)
	}
	// A test competition's public standings.
	org := e.user("spring", "org", true)
	body, _ := json.Marshal(map[string]any{"kind": "test"})
	code, out, _ := org.api("POST", "/api/v1/contests/spring/rounds", bytes.NewReader(body), "application/json")
	if code != 202 {
		t.Fatalf("a test competition: %d %v", code, out)
	}
	org.waitRound(out["id"].(string))
	b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/rounds"), chromedp.Click(chromedp.CSS(`a[href="/c/spring/rounds/`+out["id"].(string)+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=standings]`)))
	order = browsertest.Get(t, b, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll("[data-testid=standings] [data-testid=entrant]")].map((td) => td.innerText)`))
	if strings.Join(order, " ") != "cat bob ann eve" {
		t.Errorf("the test competition's standings: %v, want cat bob ann eve (eve crashes only on the ladder, and ties with ann)", order)
	}
	ranges := browsertest.Get(t, b, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll("[data-testid=standings] [data-testid=rank-range]")].map((td) => td.innerText)`))
	for i, r := range ranges {
		if !regexp.MustCompile(`^[1-4](–[1-4])?$`).MatchString(r) {
			t.Errorf("row %d could truly be %q, want a place or a band of places within 1-4", i+1, r)
		}
	}
	if len(ranges) != 4 {
		t.Errorf("%d rank ranges shown, want 4", len(ranges))
	}
	if n := browsertest.Get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=round-matches] a").length`)); n != 12 {
		t.Errorf("%d matches listed, want the 12 of a round robin of 4", n)
	}
	browsertest.CheckInert(t, b, 0)
	b.Screenshot(t, "portal-standings.png")

	if n := opened(); n > 0 {
		t.Errorf("%d dialogs opened", n)
	}
	b.CheckLocal(t)
}

// Leagues and a trial in Chromium, for a game of two, one of four and an added one: the
// leaderboard by league (the top first, each saying its boss), a version's league and its
// test against the boss, and a staged version's trial with its meter and verdict.
func TestLeaguesAndTrialInChromium(t *testing.T) {
	t.Parallel()
	for _, game := range []string{"amazes", "langwars", "higher-four"} {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			leaguesAndTrialInChromium(t, game)
		})
	}
}

func leaguesAndTrialInChromium(t *testing.T, game string) {
	b := browsertest.New(t)
	opened := b.WatchDialogs(t)
	e := newEnv(t)
	e.leagueContest("spring", game)
	cs, ids := map[string]*client{}, map[string]string{}
	for login, strength := range map[string]int{"ann": 1, "bob": 5, "cat": 9} {
		cs[login] = e.user("spring", login, false)
		ids[login] = cs[login].activeVersion("spring", fmt.Sprintf("int main() { /* strength %d */ }", strength))
	}
	eventually(t, 60*time.Second, func() error {
		for login, want := range map[string]string{"cat": "Gold", "bob": "Silver"} {
			if l := cs[login].league(ids[login]); l == nil || l.Name != want {
				return fmt.Errorf("%s's league: %+v", login, l)
			}
		}
		if l := cs["ann"].league(ids["ann"]); l == nil || l.Verdict == nil {
			return fmt.Errorf("ann's test against Bronze's boss: %+v", l)
		}
		return nil
	})
	// ann stages a weaker version: its trial finds it not better.
	_, out := cs["ann"].upload("spring", map[string]string{"main.cpp": "int main() { /* strength 0 */ }"})
	weak := out["id"].(string)
	cs["ann"].waitStatus(weak, "ready")
	if code, out, _ := cs["ann"].api("POST", "/api/v1/submissions/"+weak+"/stage", nil, ""); code != 200 {
		t.Fatalf("stage: %d %v", code, out)
	}
	eventually(t, 60*time.Second, func() error {
		var sub map[string]any
		cs["ann"].apiJSON("/api/v1/submissions/"+weak, &sub)
		if tr, _ := sub["trial"].(map[string]any); tr == nil || tr["verdict"] == nil {
			return fmt.Errorf("the trial: %v", sub["trial"])
		}
		return nil
	})

	e.logIn(t, b, "ann")
	b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/ladder"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=league]`)))
	leagues := browsertest.Get(t, b, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll("[data-testid=league]")].map((h) => h.dataset.league + ": " + [...h.nextElementSibling.nextElementSibling.querySelectorAll("[data-testid=login]")].map((td) => td.innerText).join(" "))`))
	if strings.Join(leagues, "; ") != "Gold: cat; Silver: bob; Bronze: ann" {
		t.Errorf("the leaderboard by league: %v", leagues)
	}
	ranks := browsertest.Get(t, b, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-testid=row] td:first-child")].map((td) => td.innerText)`))
	if strings.Join(ranks, " ") != "1 2 3" {
		t.Errorf("the ranks across the leagues: %v", ranks)
	}
	if text := browsertest.Get(t, b, chromedp.Evaluate[string](`document.body.innerText`)); !strings.Contains(text, "Its boss: the house bot weak") || !strings.Contains(text, "Gold · the top league") {
		t.Errorf("the leaderboard does not say the leagues' bosses: %q", text)
	}
	b.Screenshot(t, "portal-leagues-"+game+".png")

	b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/s/"+ids["ann"]), chromedp.WaitVisible(chromedp.CSS(`[data-testid=league-test]`)))
	league := browsertest.Get(t, b, chromedp.Evaluate[string](`document.querySelector("[data-testid=league-test]").innerText`))
	if !strings.Contains(league, "League Bronze") || !strings.Contains(league, "not better than the boss") {
		t.Errorf("ann's version's league: %q", league)
	}
	if w := browsertest.Get(t, b, chromedp.Evaluate[float64](`document.querySelector("[data-testid=league-test] meter").getBoundingClientRect().width`)); w < 20 {
		t.Errorf("the league test's meter is %.0f px wide", w)
	}
	b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/s/"+weak), chromedp.WaitVisible(chromedp.CSS(`[data-testid=trial-test]`)))
	trial := browsertest.Get(t, b, chromedp.Evaluate[string](`document.querySelector("[data-testid=trial-test]").innerText`))
	if !strings.Contains(trial, "not better than your active version") || !strings.Contains(trial, "Log-likelihood ratio") {
		t.Errorf("the trial's page: %q", trial)
	}
	if w := browsertest.Get(t, b, chromedp.Evaluate[float64](`document.querySelector("[data-testid=trial-test] meter").getBoundingClientRect().width`)); w < 20 {
		t.Errorf("the trial's meter is %.0f px wide", w)
	}
	browsertest.CheckInert(t, b, 0)
	b.Screenshot(t, "portal-trial-"+game+".png")
	if n := opened(); n > 0 {
		t.Errorf("%d dialogs opened", n)
	}
	b.CheckLocal(t)
}
