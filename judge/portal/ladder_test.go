package portal_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/view/browsertest"
)

// activeVersion uploads src and makes it the client's active version.
func (c *client) activeVersion(contest, src string) string {
	c.e.t.Helper()
	code, out := c.upload(contest, map[string]string{"main.cpp": src})
	if code != 202 {
		c.e.t.Fatalf("upload: %d %v", code, out)
	}
	id := out["id"].(string)
	c.waitStatus(id, "ready")
	if code, out, _ := c.api("POST", "/api/v1/submissions/"+id+"/activate", nil, ""); code != 200 {
		c.e.t.Fatalf("activate: %d %v", code, out)
	}
	return id
}

func (c *client) leaderboard(contest string) []map[string]any {
	c.e.t.Helper()
	code, out, _ := c.api("GET", "/api/v1/contests/"+contest+"/leaderboard", nil, "")
	if code != 200 {
		c.e.t.Fatalf("leaderboard: %d %v", code, out)
	}
	var rows []map[string]any
	for _, r := range out["rows"].([]any) {
		rows = append(rows, r.(map[string]any))
	}
	return rows
}

// eventually polls f until it is nil.
func eventually(t testing.TB, d time.Duration, f func() error) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// The ladder through the API: active versions play each other on their own, the strongest
// leads, a version crashing in its ladder matches is taken off with its reason and matches,
// its owner (and only the players) can read them, and the organiser turns the ladder off.
func TestLadder(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("about 10 s of the ladder's ticks and of waiting for none; skipped under -short")
	}
	e := newEnv(t)
	e.contest("spring", func(c *store.Contest) {
		c.Ladder = true
		c.LadderSettings = ladder.Settings{InFlight: 2, DisableFaults: 2, DisableWindow: 4}
	})
	org := e.user("spring", "org", true)
	var cs []*client
	for i, login := range []string{"ann", "bob", "cat", "dan"} {
		c := e.user("spring", login, false)
		c.activeVersion("spring", fmt.Sprintf("int main() { /* strength %d */ }", i))
		cs = append(cs, c)
	}
	eventually(t, 30*time.Second, func() error {
		rows := cs[0].leaderboard("spring")
		for _, r := range rows {
			if r["matches"].(float64) < 15 {
				return fmt.Errorf("the leaderboard: %v", rows)
			}
		}
		if len(rows) != 4 {
			return fmt.Errorf("the leaderboard: %v", rows)
		}
		return nil
	})
	if rows := cs[0].leaderboard("spring"); rows[0]["login"] != "dan" || rows[0]["rank"] != 1.0 || rows[3]["login"] != "ann" {
		t.Errorf("want dan (the strongest) first and ann last: %v", rows)
	}

	// A version that crashes on the ladder (not in validation) is taken off it.
	bomb := e.user("spring", "eve", false)
	id := bomb.activeVersion("spring", "int main() { /* strength 9 ladderbomb */ }")
	var disabled map[string]any
	eventually(t, 30*time.Second, func() error {
		_, sub, _ := bomb.api("GET", "/api/v1/submissions/"+id, nil, "")
		d, _ := sub["disabled"].(map[string]any)
		if d == nil {
			return fmt.Errorf("eve's version is not disabled: %v", sub)
		}
		disabled = d
		return nil
	})
	counted := disabled["matches"].([]any)
	if len(counted) != 2 || !strings.Contains(disabled["reason"].(string), "crash at turn 1") {
		t.Errorf("disabled: %v", disabled)
	}
	m := bomb.waitMatch(counted[0].(string))
	if m["kind"] != "ladder" {
		t.Errorf("a counted match: %v", m)
	}
	_, page := bomb.get("/c/spring/s/" + id)
	if !strings.Contains(page, `data-testid="disabled"`) || !strings.Contains(page, counted[1].(string)) {
		t.Errorf("the version's page does not say it is off the ladder, and why")
	}
	for _, row := range bomb.leaderboard("spring") {
		if row["login"] == "eve" && row["disabled"] != true {
			t.Errorf("the leaderboard: %v", row)
		}
	}
	// Only its players (and organisers) read a ladder match.
	_, seatsOut, _ := org.api("GET", "/api/v1/matches/"+counted[0].(string), nil, "")
	for _, c := range cs {
		code, _, _ := c.api("GET", "/api/v1/matches/"+counted[0].(string), nil, "")
		played := false
		for _, p := range seatsOut["players"].([]any) {
			played = played || p == c.login
		}
		if want := map[bool]int{true: 200, false: 404}[played]; code != want {
			t.Errorf("%s reads ladder match %s (players %v): %d, want %d", c.login, counted[0], seatsOut["players"], code, want)
		}
	}
	// A new version of eve's plays again.
	fixed := bomb.activeVersion("spring", "int main() { /* strength 9 */ }")
	eventually(t, 30*time.Second, func() error {
		for _, row := range bomb.leaderboard("spring") {
			if row["login"] == "eve" && row["version"] == 2.0 && row["disabled"] == false && row["matches"].(float64) >= 3 {
				return nil
			}
		}
		return fmt.Errorf("eve's version 2 (%s) does not play", fixed)
	})

	// The organiser turns the ladder off: no new ladder match.
	body, _ := json.Marshal(map[string]any{"ladder": false})
	if code, out, _ := org.api("PUT", "/api/v1/contests/spring/settings", bytes.NewReader(body), "application/json"); code != 200 || out["ladder"] != false {
		t.Fatalf("settings: %d %v", code, out)
	}
	time.Sleep(500 * time.Millisecond) // the matches in flight end
	before, _ := e.st.Ladder(t.Context(), "spring")
	time.Sleep(3 * time.Second)
	after, _ := e.st.Ladder(t.Context(), "spring")
	if after.Rated != before.Rated || len(after.Pending) != 0 {
		t.Errorf("the ladder is off, and rated %d more; %d pending", after.Rated-before.Rated, len(after.Pending))
	}
	// Every ladder match was rated once: what the store holds agrees with the count.
	ms, _ := e.st.Matches(t.Context(), "spring", "*")
	n := 0
	for _, m := range ms {
		if m.Kind == store.KindLadder && m.Result != nil {
			n++
		}
	}
	if n != after.Rated+after.Skipped {
		t.Errorf("%d ladder matches played, %d rated and %d skipped", n, after.Rated, after.Skipped)
	}
	bad, _ := json.Marshal(map[string]any{"disable_faults": 9})
	if code, out, _ := org.api("PUT", "/api/v1/contests/spring/settings", bytes.NewReader(bad), "application/json"); code != 400 ||
		!strings.Contains(fmt.Sprint(out), "disable_faults 9") {
		t.Errorf("a bad setting: %d %v", code, out)
	}
}

// The leaderboard, a contestant's rating history plot and head-to-head table are pages.
func TestLadderPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", func(c *store.Contest) { c.Ladder = true })
	a, b := e.user("spring", "ann", false), e.user("spring", "bob", false)
	a.activeVersion("spring", "int main() { /* strength 1 */ }")
	b.activeVersion("spring", "int main() { /* strength 2 */ }")
	eventually(t, 30*time.Second, func() error {
		if rows := a.leaderboard("spring"); len(rows) != 2 || rows[0]["matches"].(float64) < 5 || rows[1]["matches"].(float64) < 5 {
			return fmt.Errorf("the leaderboard: %v", rows)
		}
		// The history is written just after the ladder's count: wait for it too.
		if h, _ := e.st.History(t.Context(), "spring", "bob"); len(h) < 5 {
			return fmt.Errorf("bob's history: %d points", len(h))
		}
		return nil
	})
	code, page := a.get("/c/spring/ladder")
	if code != 200 || !strings.Contains(page, `data-testid="leaderboard"`) || strings.Index(page, "ladder/bob") > strings.Index(page, "ladder/ann") {
		t.Errorf("the leaderboard page: %d\n%s", code, page)
	}
	code, page = a.get("/c/spring/ladder/bob")
	if code != 200 || !strings.Contains(page, `data-testid="rating-plot"`) || !strings.Contains(page, `data-testid="versus"`) {
		t.Errorf("bob's ladder page: %d\n%s", code, page)
	}
	if code, _ := a.get("/c/spring/ladder/nobody"); code != http.StatusNotFound {
		t.Errorf("a contestant the ladder does not know: %d", code)
	}
	h, _ := e.st.History(t.Context(), "spring", "bob")
	if len(h) < 5 || h[len(h)-1].Mu <= h[0].Mu-1 {
		t.Errorf("bob's history: %d points, mu %v", len(h), h)
	}
}

// A portal killed mid-season loses nothing: another portal on the same NATS picks the
// ladder up where it was, rates the results that came meanwhile, once each, and the queue
// holds the matches the first one picked.
func TestLadderSurvivesAPortal(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("about 7 s of ladder ticks, through two portals; skipped under -short")
	}
	e := newEnv(t)
	e.contest("spring", func(c *store.Contest) { c.Ladder = true })
	for i, login := range []string{"ann", "bob", "cat"} {
		e.user("spring", login, false).activeVersion("spring", fmt.Sprintf("int main() { /* strength %d */ }", i))
	}
	eventually(t, 30*time.Second, func() error {
		if st, _ := e.st.Ladder(t.Context(), "spring"); st.Rated < 10 {
			return fmt.Errorf("rated %d", st.Rated)
		}
		return nil
	})
	e.stopFollow()
	before, _ := e.st.Ladder(t.Context(), "spring")
	time.Sleep(300 * time.Millisecond) // the daemon judges what was queued; nobody rates it
	if mid, _ := e.st.Ladder(t.Context(), "spring"); mid.Rated != before.Rated {
		t.Fatalf("rated %d with no portal following", mid.Rated-before.Rated)
	}

	_, p2 := newPortal(t, e.q, slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	followed := make(chan struct{})
	go func() { p2.Engine().Run(ctx); close(followed) }()
	defer func() { cancel(); <-followed }()
	eventually(t, 30*time.Second, func() error {
		if st, _ := e.st.Ladder(t.Context(), "spring"); st.Rated < before.Rated+len(before.Pending)+10 {
			return fmt.Errorf("rated %d (%d before the portal stopped, %d pending)", st.Rated, before.Rated, len(before.Pending))
		}
		return nil
	})
	e.st.UpdateContest(t.Context(), "spring", func(c *store.Contest) error { c.Ladder = false; return nil })
	eventually(t, 30*time.Second, func() error {
		if st, _ := e.st.Ladder(t.Context(), "spring"); len(st.Pending) > 0 {
			return fmt.Errorf("%d pending", len(st.Pending))
		}
		return nil
	})
	after, _ := e.st.Ladder(t.Context(), "spring")
	ms, _ := e.st.Matches(t.Context(), "spring", "*")
	played := 0
	for _, m := range ms {
		if m.Kind == store.KindLadder {
			if m.Result == nil {
				t.Errorf("ladder match %s has no result", m.ID)
			}
			played++
		}
	}
	for id := range before.Pending {
		if m, err := e.st.Match(t.Context(), id); err != nil || m.Result == nil {
			t.Errorf("match %s, pending when the portal stopped, was lost: %v", id, err)
		}
	}
	if played != after.Rated+after.Skipped || after.Skipped != 0 {
		t.Errorf("%d ladder matches played, %d rated, %d skipped", played, after.Rated, after.Skipped)
	}
	total := 0
	for _, p := range after.Players {
		total += p.Matches
	}
	if total != 2*after.Rated {
		t.Errorf("the players count %d matches, for %d rated two-player matches", total, after.Rated)
	}
}

// A new version tried on the ladder first: unrated matches against the ladder and its own
// active version, its owner sees how it fares, then makes it active and it keeps its rating.
func TestStagedVersionOnTheLadder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", func(c *store.Contest) {
		c.Ladder = true
		c.LadderSettings = ladder.Defaults
		c.LadderSettings.MaxRate = 3600 // the three on the ladder must not use up their allowances before the trial comes
	})
	ann, bob := e.user("spring", "ann", false), e.user("spring", "bob", false)
	ann.activeVersion("spring", "int main() { /* strength 1 */ }")
	bob.activeVersion("spring", "int main() { /* strength 2 */ }")
	e.user("spring", "cat", false).activeVersion("spring", "int main() { /* strength 3 */ }")
	_, out := ann.upload("spring", map[string]string{"main.cpp": "int main() { /* strength 9 */ }"})
	v2 := out["id"].(string)
	ann.waitStatus(v2, "ready")
	if code, _, _ := bob.api("POST", "/api/v1/submissions/"+v2+"/stage", nil, ""); code != 404 {
		t.Errorf("bob stages ann's version: %d", code)
	}
	if code, out, _ := ann.api("POST", "/api/v1/submissions/"+v2+"/stage", nil, ""); code != 200 {
		t.Fatalf("stage: %d %v", code, out)
	}
	var trial map[string]any
	eventually(t, 30*time.Second, func() error {
		_, sub, _ := ann.api("GET", "/api/v1/submissions/"+v2, nil, "")
		l, _ := sub["ladder"].(map[string]any)
		if l == nil || l["staged"] != true || l["matches"].(float64) < 8 {
			return fmt.Errorf("the trial: %v", sub["ladder"])
		}
		trial = l
		return nil
	})
	if q, _ := trial["queue"].(map[string]any); q == nil || q["place"].(float64) < 1 || q["place"].(float64) > 4 {
		t.Errorf("the trial's place in the queue: %v", trial["queue"])
	}
	if vs := trial["versus"].(map[string]any); vs["ann"] == nil {
		t.Errorf("no record against ann's active version: %v", vs)
	}
	for _, r := range ann.leaderboard("spring") {
		if r["login"] == "ann" && r["version"] != 1.0 {
			t.Errorf("the leaderboard shows ann's version %v on trial", r["version"])
		}
	}
	if _, page := ann.get("/c/spring/s/" + v2); !strings.Contains(page, `data-testid="trial"`) || !strings.Contains(page, "against your active version: won") ||
		!strings.Contains(page, `data-testid="queue-place"`) {
		t.Errorf("the version's page does not show the trial")
	}
	if code, out, _ := ann.api("POST", "/api/v1/submissions/"+v2+"/activate", nil, ""); code != 200 {
		t.Fatalf("activate: %d %v", code, out)
	}
	eventually(t, 30*time.Second, func() error {
		for _, r := range ann.leaderboard("spring") {
			if r["login"] == "ann" && r["version"] == 2.0 && r["mu"].(float64) >= trial["mu"].(float64)-5 {
				return nil
			}
		}
		return fmt.Errorf("ann's version 2 is not on the leaderboard with its trial's rating %v", trial["mu"])
	})
	// No trial where no ladder runs.
	e.contest("autumn", nil)
	z := e.user("autumn", "zed", false)
	z.activeVersion("autumn", "int main() {}")
	_, out = z.upload("autumn", map[string]string{"main.cpp": "int main() { }"})
	z.waitStatus(out["id"].(string), "ready")
	if code, out, _ := z.api("POST", "/api/v1/submissions/"+out["id"].(string)+"/stage", nil, ""); code != 409 {
		t.Errorf("a trial without a ladder: %d %v", code, out)
	}
}

// A trial decides, through the portal, in a game of two and one of four: a much stronger
// version is found better and made active by itself (auto_promote, the audit log says so), a
// weaker one is found not better and plays no more; the API, the page and another
// contestant's view say what they may.
func TestTrialDecidesAndPromotes(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("plays six trials on the ladder, 9 s: make test runs it")
	}
	for _, game := range []string{"amazes", "langwars", "higher"} {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.contest("spring", func(c *store.Contest) {
				c.Game = game
				c.Ladder = true
				c.LadderSettings = ladder.Defaults
				c.LadderSettings.MaxRate = 3600
				c.LadderSettings.Trial = &ladder.TrialTest{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05}
				c.LadderSettings.AutoPromote = true
			})
			ann, bob := e.user("spring", "ann", false), e.user("spring", "bob", false)
			ann.activeVersion("spring", "int main() { /* strength 2 */ }")
			bob.activeVersion("spring", "int main() { /* strength 3 */ }")
			e.user("spring", "cat", false).activeVersion("spring", "int main() { /* strength 4 */ }")
			e.user("spring", "dan", false).activeVersion("spring", "int main() { /* strength 5 */ }")
			stage := func(src string) string {
				_, out := ann.upload("spring", map[string]string{"main.cpp": src})
				id := out["id"].(string)
				ann.waitStatus(id, "ready")
				if code, out, _ := ann.api("POST", "/api/v1/submissions/"+id+"/stage", nil, ""); code != 200 {
					t.Fatalf("stage: %d %v", code, out)
				}
				return id
			}
			trialOf := func(id string) map[string]any {
				_, sub, _ := ann.api("GET", "/api/v1/submissions/"+id, nil, "")
				tr, _ := sub["trial"].(map[string]any)
				return tr
			}
			weak := stage("int main() { /* strength 1 */ }")
			eventually(t, 60*time.Second, func() error {
				if tr := trialOf(weak); tr == nil || tr["verdict"] != api.NotBetter {
					return fmt.Errorf("the weaker version's trial: %v", tr)
				}
				return nil
			})
			tr := trialOf(weak)
			b := tr["bounds"].([]any)
			if tr["llr"].(float64) > b[0].(float64) || tr["matches"].(float64) < 2 {
				t.Errorf("a trial found not better: %v", tr)
			}
			if _, page := ann.get("/c/spring/s/" + weak); !strings.Contains(page, `data-testid="verdict">not better`) {
				t.Error("the version's page does not say its trial found it not better")
			}
			if code, _, _ := bob.api("GET", "/api/v1/submissions/"+weak, nil, ""); code != 404 {
				t.Errorf("bob reads ann's trial: %d", code)
			}
			// The trial's matches are its players': bob reads none he does not play in (in a game
			// of two, none; of four, he sits in them all, and sees his own stderr only, as in any).
			ms, err := e.st.MatchesWhere(t.Context(), "spring", "*", store.KindLadder, nil)
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, m := range ms {
				if !slices.ContainsFunc(m.Seats, func(s store.Seat) bool { return s.Submission == weak }) ||
					slices.ContainsFunc(m.Seats, func(s store.Seat) bool { return s.Login == "bob" }) {
					continue
				}
				checked++
				for _, path := range []string{"/api/v1/matches/" + m.ID, "/api/v1/matches/" + m.ID + "/replay"} {
					if code, _, _ := bob.api("GET", path, nil, ""); code != 404 {
						t.Errorf("bob reads %s of ann's trial: %d", path, code)
					}
				}
			}
			if checked == 0 && game != "langwars" {
				t.Error("no trial match without bob to check")
			}
			strong := stage("int main() { /* strength 9 */ }")
			eventually(t, 60*time.Second, func() error {
				_, me, _ := ann.api("GET", "/api/v1/submissions/"+strong, nil, "")
				if me["status"] != "active" {
					return fmt.Errorf("the stronger version is %v, its trial %v", me["status"], me["trial"])
				}
				return nil
			})
			if tr := trialOf(strong); tr == nil || tr["verdict"] != api.Better {
				t.Errorf("the promoted version's trial: %v", tr)
			}
			log, err := e.st.Actions(t.Context(), "spring", 100)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(fmt.Sprint(log), "its trial found it better than the active version (auto_promote)") {
				t.Errorf("the audit log does not say the version was promoted: %v", log)
			}
		})
	}
}

// The trial's settings through the API: refused clearly when wrong, kept and shown when right,
// and a contestant may not change them.
func TestTrialSettingsThroughTheAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", func(c *store.Contest) { c.Ladder = true })
	org, ann := e.user("spring", "org", true), e.user("spring", "ann", false)
	for _, c := range []struct{ body, says string }{
		{`{"auto_promote": true}`, "auto_promote: give the trial's test first"},
		{`{"trial": {"elo0": 0, "elo1": 50, "alpha": 0.7, "beta": 0.05}}`, "alpha 0.7"},
		{`{"trial": {"elo0": 0, "elo1": 50, "alpha": 0.05, "beta": 0}}`, "beta 0"},
		{`{"trial": {"elo0": 40, "elo1": 20, "alpha": 0.05, "beta": 0.05}}`, "elo1 20 is not above elo0 40"},
		{`{"trial": {"elo0": "<b>x</b>"}}`, ""},
	} {
		code, out, _ := org.api("PUT", "/api/v1/contests/spring/settings", strings.NewReader(c.body), "application/json")
		msg := fmt.Sprint(out["error"])
		if code != 400 || !strings.Contains(msg, c.says) {
			t.Errorf("%s: %d %s; want 400 saying %q", c.body, code, msg, c.says)
		}
	}
	good := `{"trial": {"elo0": 0, "elo1": 30, "alpha": 0.1, "beta": 0.1}, "auto_promote": true}`
	if code, out, _ := org.api("PUT", "/api/v1/contests/spring/settings", strings.NewReader(good), "application/json"); code != 200 ||
		out["auto_promote"] != true || fmt.Sprint(out["trial"]) != "map[alpha:0.1 beta:0.1 elo0:0 elo1:30]" {
		t.Errorf("good settings: %d %v", code, out)
	}
	if code, _, _ := ann.api("PUT", "/api/v1/contests/spring/settings", strings.NewReader(`{"auto_promote": false}`), "application/json"); code != 403 {
		t.Errorf("a contestant changes the trial's settings: %d", code)
	}
}

// A contestant's statistics through the API and on its page: its own matches only, by
// opponent, seat, length and version, with its faults; another's are not its to read.
func TestStatsThroughTheAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	ann, bob := e.user("spring", "ann", false), e.user("spring", "bob", false)
	ann.activeVersion("spring", "int main() { /* strength 3 */ }")
	bob.activeVersion("spring", "int main() { /* strength 1 */ }")
	for range 2 {
		ann.waitMatch(ann.askMatch(nil))
	}
	var st api.Stats
	ann.apiJSON("/api/v1/contests/spring/stats", &st)
	// Its validation and its two test matches, all won against the house bot (strength 0).
	if st.Login != "ann" || st.Matches != 3 || len(st.ByOpponent) != 1 || st.ByOpponent[0].Key != "house:easy" || st.ByOpponent[0].Won != 3 ||
		len(st.ByVersion) != 1 || st.ByVersion[0].WinRate != 1 || len(st.BySeat) == 0 || len(st.ByLength) == 0 {
		t.Errorf("ann's statistics: %+v", st)
	}
	// Each match's options, and ann's closest calls: one a match, the nearest first.
	if len(st.ByOptions) != 1 || st.ByOptions[0].Matches != 3 || st.ByOptions[0].Key != "the game's defaults" || len(st.ClosestCalls) != 3 || st.ClosestCalls[0].Share < st.ClosestCalls[2].Share || st.ClosestCalls[0].Match == "" {
		t.Errorf("ann's statistics by options %+v and closest calls %+v", st.ByOptions, st.ClosestCalls)
	}
	var other api.Stats
	bob.apiJSON("/api/v1/contests/spring/stats", &other)
	if other.Login != "bob" || other.Matches != 1 {
		t.Errorf("bob's statistics: %+v", other)
	}
	if code, page := ann.get("/c/spring/stats"); code != 200 || !strings.Contains(page, `data-testid="by-opponent"`) || !strings.Contains(page, "house:easy") || !strings.Contains(page, "100%") ||
		!strings.Contains(page, `data-testid="by-options"`) || strings.Count(page, `data-testid="closest-call"`) != 3 {
		t.Errorf("the statistics page: %d", code)
	}
	e.contest("autumn", nil)
	if code, _, _ := ann.api("GET", "/api/v1/contests/autumn/stats", nil, ""); code != 404 {
		t.Errorf("ann's statistics of another contest: %d", code)
	}
}

// A test match played again on another match's seed (the request's seed) is offered for
// comparison on the first's page, and the comparison says where they part: the same version
// plays the same match, another version answers otherwise at its first move.
func TestCompareMatchesOfOneSeed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	ann, bob := e.user("spring", "ann", false), e.user("spring", "bob", false)
	ann.activeVersion("spring", "int main() { /* strength 3 */ }")
	ask := func(seed *uint64) (string, float64) {
		t.Helper()
		id := ann.askMatch(seed)
		return id, ann.waitMatch(id)["seed"].(float64)
	}
	first, seed := ask(nil)
	s := uint64(seed)
	again, seed2 := ask(&s)
	if seed2 != seed {
		t.Fatalf("the match asked with seed %v has seed %v", seed, seed2)
	}
	_, page := ann.get("/c/spring/m/" + first)
	if !strings.Contains(page, `/c/spring/m/`+first+`/compare/`+again) {
		t.Error("the match page does not offer the match of the same seed to compare")
	}
	if code, page := ann.get("/c/spring/m/" + first + "/compare/" + again); code != 200 || !strings.Contains(page, `data-testid="same"`) {
		t.Errorf("the same version on one seed: %d", code)
	}
	ann.activeVersion("spring", "int main() { /* strength 4, another version */ }")
	other, _ := ask(&s)
	code, page := ann.get("/c/spring/m/" + first + "/compare/" + other)
	if code != 200 || !strings.Contains(page, `data-testid="exchange">0<`) || !strings.Contains(page, `data-testid="answer-a"`) || !strings.Contains(page, "the answers differ") {
		t.Errorf("another version on one seed: %d", code)
	}
	// The viewer plays both side by side.
	if !strings.Contains(page, `/c/spring/m/`+first+`/compare/`+other+`/view`) {
		t.Error("the comparison does not link the two side by side")
	}
	if code, page := ann.get("/c/spring/m/" + first + "/compare/" + other + "/view"); code != 200 || !strings.Contains(page, `id="pair"`) || !strings.Contains(page, `"first":{"exchange":0`) {
		t.Errorf("both side by side: %d", code)
	}
	// Another contestant's match is not to compare with; a match of another seed is refused.
	for _, path := range []string{"", "/view"} {
		if code, _ := bob.get("/c/spring/m/" + first + "/compare/" + other + path); code != 404 {
			t.Errorf("bob compares ann's matches (%q): %d", path, code)
		}
	}
	diff, _ := ask(nil)
	for _, path := range []string{"", "/view"} {
		if code, page := ann.get("/c/spring/m/" + first + "/compare/" + diff + path); code != 409 || !strings.Contains(page, "seeds") {
			t.Errorf("matches of two seeds (%q): %d", path, code)
		}
	}
}

// The statistics page in Chromium, for a game of two, a game of four (a contestant and the
// house bot's copies) and an added game of four: its tables, each win rate drawn as a bar
// beside its number, and the closest calls linked to their matches.
func TestStatsInChromium(t *testing.T) {
	t.Parallel()
	for _, game := range []string{"amazes", "langwars", "higher-four"} {
		t.Run(game, func(t *testing.T) {
			b := browsertest.New(t)
			e := newEnv(t)
			e.contest("spring", func(c *store.Contest) { c.Game = game })
			ann := e.user("spring", "ann", false)
			ann.activeVersion("spring", "int main() { /* strength 3 */ }")
			ann.waitMatch(ann.askMatch(nil))
			e.logIn(t, b, "ann")
			b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/stats"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=by-opponent]`)))
			for _, id := range []string{"by-opponent", "by-seat", "by-length", "by-version", "by-options"} {
				rows := browsertest.Get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=`+id+`] [data-testid=stats-row]").length`))
				bars := browsertest.Get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=`+id+`] [data-testid=stats-row] svg rect").length`))
				if rows == 0 || bars != 2*rows {
					t.Errorf("%s: %d rows, %d bars' rects", id, rows, bars)
				}
			}
			calls := browsertest.Get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=closest-call] a[href^='/c/spring/m/']").length`))
			if calls != 2 { // the validation and the test match
				t.Errorf("%d closest calls linked to their matches; want 2", calls)
			}
			b.Screenshot(t, "portal-stats-"+game+".png")
			b.CheckLocal(t)
		})
	}
}
