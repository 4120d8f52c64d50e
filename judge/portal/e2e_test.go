package portal_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/view"
	"github.com/botjudge/judge/judge/view/browsertest"
)

// withStderr is a C++ bot's source that also writes line to stderr as it starts.
func withStderr(src []byte, line string) string {
	return string(src) + "\n#include <iostream>\nstatic int judge_test_stderr = (std::cerr << \"" + line + "\" << std::endl, 0);\n"
}

// realPortal is a portal on a real HTTP server, the embedded NATS server and a real daemon
// (Docker, the images), stopped at the end of t.
func realPortal(t testing.TB) (context.Context, *queue.Queue, *store.Store, *httptest.Server) {
	t.Helper()
	runner := matchtest.Runner(t) // Docker, the images
	quiet := slog.New(slog.DiscardHandler)
	ctx, cancel := context.WithCancel(context.Background())
	q, err := queue.Open(ctx, queue.Options{StoreDir: t.TempDir(), InProcess: true, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.New(daemon.Options{Queue: q, Runners: []daemon.Runner{runner},
		Jobs: job.Rules{Game: games.Lookup, Langs: images.LangNames(), MaxSource: 1 << 20}, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{}, 2)
	go func() { d.Run(ctx); done <- struct{}{} }()
	st, p := newPortal(t, q, quiet)
	go func() { p.Engine().Run(ctx); done <- struct{}{} }()
	srv := httptest.NewServer(p)
	t.Cleanup(func() { srv.Close(); cancel(); <-done; <-done; q.Close() })
	return ctx, q, st, srv
}

// waitFor polls the page until the expression is true, for up to 20 seconds.
func waitFor(b *browsertest.Browser, expr string) bool {
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(b.Ctx, 5*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && ok {
			return true
		}
	}
	return false
}

// TestContestantInChromium drives the whole path as a contestant, in Chromium, on a real
// portal with the embedded NATS server, a real daemon and Docker: the invite, an upload that
// does not compile and its log, the fix, validation, activation, a test match against the
// house bot, and the match in the viewer with the contestant's own stderr and not the house
// bot's.
func TestContestantInChromium(t *testing.T) {
	t.Parallel()
	b := browsertest.New(t)
	ctx, q, st, srv := realPortal(t)

	bot, err := os.ReadFile(filepath.Join("..", "..", "bots", "amazes", "cpp", "bot.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	house := []contest.HouseBot{{Name: "easy", Lang: "cpp", Files: map[string][]byte{"bot.cpp": []byte(withStderr(bot, "stderr of the house bot"))}}}
	if _, err := contest.New(contest.Config{Store: st, Queue: q, Games: games.Lookup}).NewContest(ctx, contest.HostActor(),
		store.Contest{Name: "spring", Game: "amazes", Options: map[string]string{"turns": "30"}, TestQuota: 5}, house); err != nil {
		t.Fatal(err)
	}
	nu, err := st.AddUser(ctx, "spring", "alice", false)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	broken, fixed := filepath.Join(dir, "broken", "bot.cpp"), filepath.Join(dir, "fixed", "bot.cpp")
	os.MkdirAll(filepath.Dir(broken), 0o755)
	os.MkdirAll(filepath.Dir(fixed), 0o755)
	os.WriteFile(broken, []byte("int main() { this is not C++ }\n"), 0o644)
	os.WriteFile(fixed, []byte(withStderr(bot, "stderr of alice")), 0o644)

	text := func(sel string) string { return browsertest.Get(t, b, chromedp.Text(chromedp.CSS(sel))) }
	// until reloads the page until the status is one of want (the page reloads itself too).
	until := func(want ...string) string {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		for {
			here := browsertest.Get(t, b, chromedp.Location())
			status := browsertest.Get(t, b, chromedp.Evaluate[string](`(document.querySelector("[data-testid=status]") || {}).textContent || ""`))
			for _, w := range want {
				if status == w {
					return status
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: status %q, want %v", here, status, want)
			}
			b.Do(t, chromedp.Sleep(500*time.Millisecond), chromedp.Navigate(here))
		}
	}
	upload := func(path string) {
		t.Helper()
		b.Do(t, chromedp.Navigate(srv.URL+"/c/spring/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=files]`)),
			chromedp.SetUploadFiles(chromedp.CSS(`[data-testid=files]`), []string{path}),
			chromedp.Click(chromedp.CSS(`[data-testid=upload]`)))
		if !waitFor(b, `!!document.querySelector("[data-testid=status]") && location.pathname.includes("/s/")`) {
			t.Fatalf("the upload did not go through: at %s:\n%s", browsertest.Get(t, b, chromedp.Location()),
				browsertest.Get(t, b, chromedp.Evaluate[string](`document.body.innerText`)))
		}
	}

	// The invite: a password, and the browser is logged in.
	b.Do(t, chromedp.Navigate(srv.URL+"/invite/"+nu.Invite),
		chromedp.SendKeys(chromedp.CSS(`input[name=password]`), "alice's good password"),
		chromedp.SendKeys(chromedp.CSS(`input[name=again]`), "alice's good password"),
		chromedp.Click(chromedp.CSS(`button`)))
	if !waitFor(b, `!!document.querySelector("[data-testid=me]")`) {
		t.Fatalf("not logged in after the invite: at %s:\n%s", browsertest.Get(t, b, chromedp.Location()),
			browsertest.Get(t, b, chromedp.Evaluate[string](`document.body.innerText`)))
	}
	if me := text(`[data-testid=me]`); me != "alice" {
		t.Fatalf("logged in as %q", me)
	}

	// A version that does not compile: its log.
	upload(broken)
	until("compile_error")
	if log := text(`[data-testid=build-log]`); !strings.Contains(log, "error") || !strings.Contains(log, "bot.cpp") {
		t.Errorf("the compile log: %q", log)
	}
	if why := text(`[data-testid=why-not-active]`); !strings.Contains(why, "does not compile") {
		t.Errorf("why it cannot be active: %q", why)
	}
	b.Screenshot(t, "portal-compile-error.png")

	// The fix: validated, then made active.
	upload(fixed)
	until("ready")
	b.Do(t, chromedp.Click(chromedp.CSS(`[data-testid=activate]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=flash]`)))
	until("active")
	b.Screenshot(t, "portal-version.png")

	// A test match against the house bot.
	b.Do(t, chromedp.Navigate(srv.URL+"/c/spring/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=ask-match]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=ask-match]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=status]`)))
	deadline := time.Now().Add(2 * time.Minute)
	for browsertest.Get(t, b, chromedp.Evaluate[bool](`!!document.querySelector("[data-testid=result]")`)) == false {
		if time.Now().After(deadline) {
			t.Fatal("the test match was not judged")
		}
		b.Do(t, chromedp.Sleep(500*time.Millisecond), chromedp.Reload())
	}
	page := browsertest.Get(t, b, chromedp.Evaluate[string](`document.body.innerText`))
	if !strings.Contains(page, "stderr of alice") || strings.Contains(page, "stderr of the house bot") {
		t.Errorf("the match page shows the house bot's stderr, or not alice's:\n%s", page)
	}
	if cmd := text(`[data-testid=reproduce]`); !strings.Contains(cmd, "judge play --game amazes --seed ") || !strings.Contains(cmd, "--opt turns=30") {
		t.Errorf("reproduce: %q", cmd)
	}
	// What the command needs, as the page shows it: alice's own files, and the house bot's,
	// which this contest does not publish, so that the command plays a match like this one.
	if needs := text(`[data-testid=reproduce-needs]`); !strings.Contains(needs, "alice/: your version's files") ||
		!strings.Contains(needs, "house/easy: the house bot easy's files, which this contest does not publish") {
		t.Errorf("what the reproduce command needs: %q", needs)
	}
	if !browsertest.Get(t, b, chromedp.Evaluate[bool](`!!document.querySelector("[data-testid=reproduce-inexact]")`)) {
		t.Error("the page does not say that the command plays a match like this one, not the same one")
	}
	b.Screenshot(t, "portal-match.png")
	matchPage := browsertest.Get(t, b, chromedp.Location())
	b.Do(t, chromedp.Navigate(srv.URL+"/c/spring/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=versions]`)))
	b.Screenshot(t, "portal-home.png")
	b.Do(t, chromedp.Navigate(matchPage), chromedp.WaitVisible(chromedp.CSS(`[data-testid=view]`)))

	// In the viewer: its own stderr, and not the house bot's anywhere in the page.
	b.Do(t, chromedp.Click(chromedp.CSS(`[data-testid=view]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=board] svg`)))
	whole := browsertest.Get(t, b, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
	if strings.Contains(whole, "stderr of the house bot") {
		t.Error("the viewer's page carries the house bot's stderr")
	}
	b.Do(t, chromedp.KeyEvent(kb.Home), chromedp.KeyEvent(kb.ArrowRight))
	if shown := browsertest.Get(t, b, chromedp.Evaluate[string](`document.body.innerText`)); !strings.Contains(shown, "stderr of alice") {
		t.Errorf("the viewer does not show alice's stderr at her first move:\n%s", shown)
	}
	b.CheckLocal(t)
}

// TestFourPlayerContestWithARealDaemon is a contest of a game of four (Lang Wars) on a real
// daemon with Docker, as a new organiser makes it: one house bot, two contestants. Each
// version is validated in a match of four (itself, the house bot, itself again), plays a
// test match against the house bot alone (the other seats filled the same way), the ladder
// rates both with the house bot in the seats left, and a test competition plays them with
// two copies of the house bot, and its export as a tournament plays again to its standings.
// The test match's page links its film and its replay, both of the four seats
// (TestContestantInChromium follows them for a game of two).
func TestFourPlayerContestWithARealDaemon(t *testing.T) {
	t.Parallel()
	ctx, q, st, srv := realPortal(t)
	bot, err := os.ReadFile(filepath.Join("..", "..", "bots", "langwars", "cpp", "bot.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	house := []contest.HouseBot{{Name: "easy", Lang: "cpp", Files: map[string][]byte{"bot.cpp": bot}}}
	if _, err := contest.New(contest.Config{Store: st, Queue: q, Games: games.Lookup}).NewContest(ctx, contest.HostActor(),
		store.Contest{Name: "cup", Game: "langwars", Options: map[string]string{"turns": "2"}, TestQuota: 5, Ladder: true,
			LadderSettings: ladder.Settings{InFlight: 1, DisableFaults: 2, DisableWindow: 4, MaxRate: 3600}}, house); err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, q: q, st: st, srv: srv}
	org := e.user("cup", "org", true)
	ann, bob := e.user("cup", "ann", false), e.user("cup", "bob", false)
	for _, c := range []*client{ann, bob} {
		code, out := c.upload("cup", map[string]string{"bot.cpp": string(bot) + "\n// " + c.login + "\n"})
		if code != 202 {
			t.Fatalf("upload: %d %v", code, out)
		}
		sub := c.waitStatusFor(out["id"].(string), 3*time.Minute, "ready", "rejected", "compile_error")
		if sub["status"] != "ready" {
			t.Fatalf("%s's version: %v", c.login, sub)
		}
		v := c.waitMatch(sub["validation"].(map[string]any)["match"].(string))
		if got := players(v); len(got) != 4 || got[1] != "house:easy" {
			t.Errorf("the validation match seats %v", got)
		}
		if code, out, _ := c.api("POST", "/api/v1/submissions/"+out["id"].(string)+"/activate", nil, ""); code != 200 {
			t.Fatalf("activate: %d %v", code, out)
		}
	}
	body, _ := json.Marshal(map[string]any{"opponents": []string{"house:easy"}})
	code, out, _ := ann.api("POST", "/api/v1/contests/cup/matches", bytes.NewReader(body), "application/json")
	if code != 202 {
		t.Fatalf("a test match: %d %v", code, out)
	}
	m := ann.waitMatchFor(out["id"].(string), 2*time.Minute)
	if res := m["result"].(map[string]any); res["status"] != "ok" || len(players(m)) != 4 {
		t.Errorf("the test match: %v %v", res["status"], res["error"])
	}
	matchLinks(t, e.login(t, "cup", "ann", "password of ann"), "cup", out["id"].(string), players(m))
	eventually(t, 3*time.Minute, func() error {
		rows := ann.leaderboard("cup")
		if len(rows) != 2 || rows[0]["matches"].(float64) < 1 || rows[1]["matches"].(float64) < 1 {
			return fmt.Errorf("the leaderboard: %v", rows)
		}
		return nil
	})
	org.api("PUT", "/api/v1/contests/cup/settings", strings.NewReader(`{"ladder": false}`), "application/json")
	body, _ = json.Marshal(map[string]any{"kind": "test"})
	code, out, _ = org.api("POST", "/api/v1/contests/cup/rounds", bytes.NewReader(body), "application/json")
	if code != 202 || len(out["entrants"].([]any)) != 4 {
		t.Fatalf("a test competition: %d %v", code, out)
	}
	r := ann.waitRoundFor(out["id"].(string), 3*time.Minute)
	if got := standingsOf(r); r["status"] != "done" || len(got) != 4 || !slices.Contains(got, "house:easy#2") {
		t.Errorf("the test competition: %v %v, standings %v", r["status"], r["error"], got)
	}
	// Its export, house bots and copies included, played again on this judge.
	runExport(t, org, srv.URL, "cup", r, q)
}

// matchLinks follows the links of match id's page in contest, as logged in to b: the film
// (the viewer's page) and the replay, each of every seat in seats; the page's reproduce
// command names every seat too, in its order.
func matchLinks(t *testing.T, b *browser, contest, id string, seats []string) {
	t.Helper()
	base := "/c/" + contest + "/m/" + id
	code, page := b.get(base)
	if code != 200 || !strings.Contains(page, `href="`+base+`/view"`) || !strings.Contains(page, `href="`+base+`/replay"`) {
		t.Fatalf("the match page: %d, no link to its film or its replay\n%s", code, page)
	}
	var dirs []string
	for _, s := range seats {
		if house, ok := strings.CutPrefix(s, "house:"); ok {
			dirs = append(dirs, "house/"+house)
		} else {
			dirs = append(dirs, s+"/")
		}
	}
	if want := " " + strings.Join(dirs, " ") + "</pre>"; !strings.Contains(page, want) {
		t.Errorf("the reproduce command does not end with the seats %q:\n%s", want, page)
	}
	code, page = b.get(base + "/view")
	const open = `<script type="application/json" id="film">`
	start := strings.Index(page, open)
	end := strings.Index(page[max(start, 0):], "</script>")
	var film view.Film
	if code != 200 || start < 0 || end < 0 || json.Unmarshal([]byte(page[start+len(open):start+end]), &film) != nil {
		t.Fatalf("the film's page: %d, no film in it\n%.500s", code, page)
	}
	var names []string
	for _, p := range film.Header.Players {
		names = append(names, p.Name)
	}
	if film.Header.Game == "" || !slices.Equal(names, seats) || film.Problem != "" || len(film.Mismatch) != 0 || len(film.Frames) < 2 {
		t.Errorf("the film of %s: game %q, seats %v (want %v), problem %q, mismatch %v, %d pictures",
			id, film.Header.Game, names, seats, film.Problem, film.Mismatch, len(film.Frames))
	}
	code, raw := b.get(base + "/replay")
	var header struct {
		Players []struct{ Name string }
	}
	first, _, _ := strings.Cut(raw, "\n")
	var got []string
	if json.Unmarshal([]byte(first), &header) == nil {
		for _, p := range header.Players {
			got = append(got, p.Name)
		}
	}
	if code != 200 || !slices.Equal(got, seats) {
		t.Errorf("the replay's download: %d, seats %v; want %v\n%.300s", code, got, seats, raw)
	}
}
