package portal_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/portal"
	"github.com/botjudge/judge/judge/view/browsertest"
)

// askMatch asks for a test match of the client's active version against opponents (house:easy
// when none), on seed when not nil, and returns its id.
func (c *client) askMatch(seed *uint64, opponents ...string) string {
	c.e.t.Helper()
	req := map[string]any{"opponents": append([]string{}, opponents...)}
	if len(opponents) == 0 {
		req["opponents"] = []string{"house:easy"}
	}
	if seed != nil {
		req["seed"] = *seed
	}
	body, _ := json.Marshal(req)
	code, out, _ := c.api("POST", "/api/v1/contests/spring/matches", bytes.NewReader(body), "application/json")
	if code != 202 {
		c.e.t.Fatalf("a test match: %d %v", code, out)
	}
	return out["id"].(string)
}

// logIn logs login (of contest spring, with the tests' password) in to the browser b.
func (e *env) logIn(t testing.TB, b *browsertest.Browser, login string) {
	t.Helper()
	b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/login"),
		chromedp.SendKeys(chromedp.CSS(`input[name=login]`), login),
		chromedp.SendKeys(chromedp.CSS(`input[name=password]`), "password of "+login),
		chromedp.Submit(chromedp.CSS(`input[name=password]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=me]`)))
}

// event is a server-sent event: its name and data.
type event struct{ name, data string }

// watch opens path's event stream with the client's token and passes its events until it
// ends (the channel closes); the status is the answer's.
func (c *client) watch(path string) (int, <-chan event, func()) {
	c.e.t.Helper()
	req, _ := http.NewRequest("GET", c.e.srv.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.e.t.Fatal(err)
	}
	out := make(chan event, 100)
	if resp.StatusCode != 200 {
		resp.Body.Close()
		close(out)
		return resp.StatusCode, out, func() {}
	}
	go func() {
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		var ev event
		for sc.Scan() {
			switch l := sc.Text(); {
			case strings.HasPrefix(l, "event: "):
				ev.name = l[7:]
			case strings.HasPrefix(l, "data: "):
				ev.data = l[6:]
			case l == "" && ev.name != "":
				out <- ev
				ev = event{}
			}
		}
	}()
	return resp.StatusCode, out, func() { resp.Body.Close() }
}

// A test match watched as it plays: its replay's lines reach the watcher as the daemon writes
// them, as server-sent events from the first, with the other player's stderr (its drawings
// too) left out; the stream ends with the result. A watcher that stops reading changes nothing
// of the match; another contestant cannot watch it; once it is over it streams its stored
// replay.
func TestWatchALiveMatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	ann, bob := e.user("spring", "ann", false), e.user("spring", "bob", false)
	ann.activeVersion("spring", "int main() { /* livematch */ }")
	id := ann.askMatch(nil)
	path := "/api/v1/matches/" + id + "/live"
	// The daemon writes the header once it plays the match; until then there is nothing live.
	e.liveNext <- struct{}{}
	var events <-chan event
	var stop func()
	eventually(t, 10*time.Second, func() error {
		code, ev, s := ann.watch(path)
		if code != 200 {
			return fmt.Errorf("watching: %d", code)
		}
		events, stop = ev, s
		return nil
	})
	defer stop()
	next := func(what string) event {
		t.Helper()
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatalf("%s: the stream ended", what)
			}
			return ev
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no event", what)
		}
		return event{}
	}
	if ev := next("the header"); ev.name != "header" || !strings.Contains(ev.data, `"type":"header"`) {
		t.Fatalf("the first event: %+v", ev)
	}
	if code, _, _ := bob.watch(path); code != 404 {
		t.Errorf("bob watches ann's test match: %d", code)
	}
	// A watcher that reads nothing.
	_, _, stall := ann.watch(path)
	defer stall()
	var got []event
	// Six moves played live, then the replay's own: ann's move and its two stderr lines, the
	// house bot's move and its two (left out), the result.
	for i := range 6 + 7 {
		e.liveNext <- struct{}{}
		if i != 6+4 && i != 6+5 {
			got = append(got, next("line"))
		}
	}
	var names []string
	for _, ev := range got {
		names = append(names, ev.name)
		if strings.Contains(ev.data, "of house:easy") {
			t.Errorf("the house bot's stderr reaches ann: %s", ev.data)
		}
	}
	if strings.Join(names, " ") != "move move move move move move move stderr stderr move result" {
		t.Errorf("the events: %v", names)
	}
	if !strings.Contains(got[8].data, "plan of ann") {
		t.Errorf("ann's own drawing is not streamed: %s", got[8].data)
	}
	if ev, ok := <-events; ok {
		t.Errorf("an event after the result: %+v", ev)
	}
	ann.waitMatch(id) // judged, the watcher that reads nothing notwithstanding
	// Over: the stored replay, streamed the same way.
	_, again, done := ann.watch(path)
	defer done()
	n := 0
	for ev := range again {
		n++
		if strings.Contains(ev.data, "of house:easy") {
			t.Errorf("the stored replay streams the house bot's stderr: %s", ev.data)
		}
	}
	if n < 2 {
		t.Errorf("the stored replay streamed %d events", n)
	}
	// With its pictures, as the watch page asks it (one opened as the match ended).
	_, again, done = ann.watch(path + "?frames=1")
	defer done()
	kinds := map[string]int{}
	for ev := range again {
		kinds[ev.name]++
	}
	if kinds["frame"] < 1 || kinds["move"] < 2 || kinds["result"] != 1 {
		t.Errorf("the stored replay with its pictures streamed %v", kinds)
	}
}

// A match watched live in Chromium: the viewer follows it as it is judged - the step and the
// picture move on by themselves - says it is live, and says so once it is over, at its last
// step, with the game's own picture; for a game of two and a game of four (a contestant and
// the house bots), and an added game of four, whose pictures its referee draws (the portal
// runs none): its exchanges, and the note that says so.
func TestWatchLiveInChromium(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		game, picture string
		exchanges     int
	}{{"amazes", "[data-testid=amazes]", 300}, {"langwars", "svg [data-testid=legend]", 42}, {"higher-four", "", 80}} {
		t.Run(c.game, func(t *testing.T) {
			b := browsertest.New(t)
			e := newEnv(t)
			e.contest("spring", func(ct *store.Contest) { ct.Game = c.game })
			ann := e.user("spring", "ann", false)
			ann.activeVersion("spring", "int main() { /* livereal */ }")
			id := ann.askMatch(nil)
			e.logIn(t, b, "ann")
			b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/m/"+id+"/watch"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=live-status]`)))
			step := func() int {
				return browsertest.Get(t, b, chromedp.Evaluate[int](`+document.querySelector("[data-testid=step]").dataset.step`))
			}
			first := step()
			var later int
			for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				if later = step(); later > first+5 {
					break
				}
			}
			if later <= first+5 {
				t.Errorf("the step went from %d to %d while the match was judged", first, later)
			}
			if status := browsertest.Get(t, b, chromedp.Evaluate[string](`document.querySelector("[data-testid=live-status]").textContent`)); !strings.Contains(status, "Live") && !strings.Contains(status, "over") {
				t.Errorf("the live status: %q", status)
			}
			b.Do(t, chromedp.WaitVisible(chromedp.CSS(`[data-testid=live-status][data-over="1"]`)))
			if c.picture == "" {
				if n := browsertest.Get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=board] :is(svg, canvas, iframe, [data-testid=state])").length`)); n != 0 {
					t.Errorf("an added game's board holds %d pictures; its referee draws them", n)
				}
				if p := browsertest.Get(t, b, chromedp.Evaluate[string](`(document.querySelector("[data-testid=problem]") || {}).textContent || ""`)); !strings.Contains(p, "added game") {
					t.Errorf("the note on an added game's pictures: %q", p)
				}
				if x := browsertest.Get(t, b, chromedp.Evaluate[string](`document.querySelector("[data-testid=received]").textContent`)); strings.TrimSpace(x) == "" {
					t.Error("the last exchange's answer is not shown")
				}
			} else if n := browsertest.Get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=board] `+c.picture+`").length`)); n != 1 {
				t.Errorf("%d %s pictures at the end", n, c.game)
			}
			if s := step(); s != c.exchanges {
				t.Errorf("at the end the viewer is at step %d; the match has %d", s, c.exchanges)
			}
			browsertest.CheckInert(t, b, 2+len(games.All())) // the film (JSON), the viewer's script and a renderer per game, inline
			b.Screenshot(t, "portal-live-"+c.game+".png")
			b.DropErrors(func(m string) bool { return strings.Contains(m, "409 (Conflict)") }) // opened before the judge played it: asked again
			b.CheckLocal(t)
		})
	}
}

// BenchmarkLiveDelay is the delay from an exchange written by the daemon (through the queue's
// live tee) to its step (or a later one) shown in a watching Chromium, over a recorded Amazes match of 300
// exchanges written 20 ms apart: the median and the 95th percentile, of the exchanges written
// after the page had joined. Run with -benchtime=1x.
func BenchmarkLiveDelay(b *testing.B) {
	br := browsertest.New(b)
	var delays []float64
	for b.Loop() {
		e := newEnv(b)
		e.contest("spring", nil)
		ann := e.user("spring", "ann", false)
		ann.activeVersion("spring", "int main() { /* livereal */ }")
		e.logIn(b, br, "ann")
		id := ann.askMatch(nil)
		br.Do(b, chromedp.Navigate(e.srv.URL+"/c/spring/m/"+id+"/watch"))
		br.Do(b, chromedp.WaitVisible(chromedp.CSS(`[data-testid=live-status]`)))
		joined := time.Now()
		// Each step's first sight, by the browser's clock (this machine's, as the daemon's).
		browsertest.Get(b, br, chromedp.Evaluate[bool](`(() => { window.__seen = {}; const look = () => { const s = document.querySelector("[data-testid=step]"); if (s && !(s.dataset.step in window.__seen)) window.__seen[s.dataset.step] = Date.now(); requestAnimationFrame(look); }; look(); return true; })()`))
		br.Do(b, chromedp.WaitVisible(chromedp.CSS(`[data-testid=live-status][data-over="1"]`)))
		seen := browsertest.Get(b, br, chromedp.Evaluate[map[string]float64](`window.__seen`))
		e.movesMu.Lock()
		// Step k is shown once the page shows it or any later one (a redraw may pass several).
		shown := map[int]float64{}
		for st, ms := range seen {
			var n int
			fmt.Sscan(st, &n)
			shown[n] = ms
		}
		for k, at := range e.movesWritten {
			if at.Before(joined) {
				continue
			}
			first := math.Inf(1)
			for n, ms := range shown {
				if n >= k+1 && ms < first {
					first = ms
				}
			}
			if !math.IsInf(first, 1) {
				delays = append(delays, first-float64(at.UnixNano())/1e6)
			}
		}
		e.movesMu.Unlock()
	}
	slices.Sort(delays)
	if len(delays) == 0 {
		b.Fatal("no step seen after the page joined")
	}
	b.ReportMetric(delays[len(delays)/2], "ms_median")
	b.ReportMetric(delays[len(delays)*95/100], "ms_p95")
	b.ReportMetric(float64(len(delays)), "steps")
}

// A portal shutting down ends its live streams at once: a watcher does not hold the shutdown
// for as long as its match lasts.
func TestShutdownEndsLiveStreams(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *portal.Options) { o.Listen = "127.0.0.1:0" })
	e.contest("spring", nil)
	ann := e.user("spring", "ann", false)
	ann.activeVersion("spring", "int main() { /* livematch */ }")
	id := ann.askMatch(nil)
	e.liveNext <- struct{}{} // the header: the match is under way
	ctx, cancel := context.WithCancel(t.Context())
	addr, served := make(chan string, 1), make(chan error, 1)
	go func() { served <- e.p.Serve(ctx, func(a string) { addr <- a }) }()
	base := "http://" + <-addr
	var resp *http.Response
	eventually(t, 10*time.Second, func() error {
		req, _ := http.NewRequest("GET", base+"/api/v1/matches/"+id+"/live", nil)
		req.Header.Set("Authorization", "Bearer "+ann.token)
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		if r.StatusCode != 200 {
			r.Body.Close()
			return fmt.Errorf("watching: %d", r.StatusCode)
		}
		resp = r
		return nil
	})
	defer resp.Body.Close()
	start := time.Now()
	cancel()
	select {
	case err := <-served:
		if err != nil || time.Since(start) > 5*time.Second {
			t.Errorf("the shutdown with a watcher: %v after %v", err, time.Since(start))
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the portal did not shut down with a watcher")
	}
	go func() { // let the fake judge finish the match
		for range 20 {
			select {
			case e.liveNext <- struct{}{}:
			case <-time.After(time.Second):
				return
			}
		}
	}()
}

// A round on the big screen, in Chromium: the projector follows the round's matches live, the
// next by itself once one is judged, and shows the standings beside: those so far while it
// plays, the round's once it is done; for a game of two, a game of four and an added game.
func TestProjectorInChromium(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		game, picture string
		rounds        int // of the round robin: two matches at least
		seats         int // ann, bob and the house bots' copies filling a match
	}{{"amazes", "[data-testid=amazes]", 1, 2}, {"langwars", "svg [data-testid=legend]", 2, 4}, {"higher-four", "", 2, 4}} {
		t.Run(c.game, func(t *testing.T) {
			t.Parallel()
			projectorInChromium(t, c.game, c.picture, c.rounds, c.seats)
		})
	}
}

func projectorInChromium(t *testing.T, game, picture string, rounds, seats int) {
	b := browsertest.New(t)
	e := newEnv(t)
	e.contest("spring", func(ct *store.Contest) { ct.Game = game })
	org := e.user("spring", "org", true)
	for _, login := range []string{"ann", "bob"} {
		e.user("spring", login, false).activeVersion("spring", "int main() { /* livereal "+login+" */ }")
	}
	code, out, _ := org.api("POST", "/api/v1/contests/spring/rounds", strings.NewReader(fmt.Sprintf(`{"kind": "test", "rounds": %d}`, rounds)), "application/json")
	if code != 202 {
		t.Fatalf("a test competition: %d %v", code, out)
	}
	id := out["id"].(string)
	e.logIn(t, b, "ann")
	b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/rounds/"+id+"/projector"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=projector-side][data-following]`)))
	first := browsertest.Get(t, b, chromedp.Evaluate[string](`document.querySelector("[data-testid=projector-side]").dataset.following`))
	b.Do(t, chromedp.WaitVisible(chromedp.CSS(`[data-testid=live-status]`)))
	var next string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if next = browsertest.Get(t, b, chromedp.Evaluate[string](`document.querySelector("[data-testid=projector-side]").dataset.following`)); next != first {
			break
		}
	}
	if next == first {
		_, round, _ := org.api("GET", "/api/v1/rounds/"+id, nil, "")
		t.Fatalf("the projector stayed on %s; the round: %v", first, round)
	}
	// While the next plays, the standings so far: the round's API and the page beside.
	code, round, _ := org.api("GET", "/api/v1/rounds/"+id, nil, "")
	if code != 200 {
		t.Fatalf("the round: %d", code)
	}
	if round["status"] == "running" {
		rows, _ := round["so_far"].([]any)
		played := 0.0
		for _, r := range rows {
			played += r.(map[string]any)["matches"].(float64)
		}
		if judged := round["judged"].(float64); len(rows) != seats || judged < 1 || played != float64(seats)*judged {
			t.Errorf("the standings so far after %v matches: %v", judged, rows)
		}
		b.Do(t, chromedp.WaitVisible(chromedp.CSS(`[data-testid=projector-so-far]`)))
		if rows := browsertest.Get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=projector-standings][data-final='0'] tr").length`)); rows != seats {
			t.Errorf("the standings so far beside have %d rows; want %d", rows, seats)
		}
	} else {
		t.Errorf("the round is %v as its next match began (each plays 6 s)", round["status"])
	}
	b.Do(t, chromedp.WaitVisible(chromedp.CSS(`[data-testid=projector-standings][data-final='1']`)))
	rows := browsertest.Get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=projector-standings] tr").length`))
	if rows != seats {
		t.Errorf("the standings beside have %d rows; want %d", rows, seats)
	}
	if picture == "" {
		if p := browsertest.Get(t, b, chromedp.Evaluate[string](`(document.querySelector("[data-testid=problem]") || {}).textContent || ""`)); !strings.Contains(p, "added game") {
			t.Errorf("the note on an added game's pictures: %q", p)
		}
	} else if n := browsertest.Get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=board] `+picture+`").length`)); n != 1 {
		t.Errorf("%d %s pictures on the projector", n, game)
	}
	b.Screenshot(t, "portal-projector-"+game+".png")
	b.DropErrors(func(m string) bool { return strings.Contains(m, "409 (Conflict)") })
	b.CheckLocal(t)
}
