package view_test

import (
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/view"
	"github.com/botjudge/judge/judge/view/browsertest"
)

// browser is browsertest's Chromium.
type browser = browsertest.Browser

func newBrowser(t *testing.T) *browser { return browsertest.New(t) }

func get[T any](t *testing.T, b *browser, a chromedp.Action[T]) T { return browsertest.Get(t, b, a) }

func shots(t *testing.T) string { return browsertest.Shots(t) }

// checkOptionChips checks the page's options: each option with a value shown as k=v; an
// empty one (a map generated from the seed) not shown as a bare "k=".
func checkOptionChips(t *testing.T, b *browser, rp *replay.Replay) {
	t.Helper()
	chips := get(t, b, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-testid=option]")].map((e) => e.textContent)`))
	want := 0
	for k, v := range rp.Header.Options {
		if v != "" {
			want++
		}
		for _, c := range chips {
			if c == k+"=" {
				t.Errorf("the empty option %s shows as %q", k, c)
			}
		}
	}
	if len(chips) != want {
		t.Errorf("the page shows the options %q; the replay has %d with a value", chips, want)
	}
}

func readReplay(t *testing.T, path string) *replay.Replay {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rp, err := replay.Read(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rp
}

// shownScores are the scores the page shows: the scoreboard of the current step and the
// result table.
func shownScores(t *testing.T, b *browser, n int) (live, final []float64) {
	t.Helper()
	for i := range n {
		a := get(t, b, chromedp.Text(chromedp.CSS(fmt.Sprintf(`[data-testid=score][data-player="%d"]`, i))))
		c := get(t, b, chromedp.Text(chromedp.CSS(fmt.Sprintf(`[data-testid=final-score][data-player="%d"]`, i))))
		live = append(live, parseScore(t, a))
		final = append(final, parseScore(t, c))
	}
	return live, final
}

func parseScore(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		t.Fatalf("the page shows the score %q", s)
	}
	return v
}

func scoresOf(r result.Result) []float64 {
	var s []float64
	for _, p := range r.Players {
		s = append(s, p.Score)
	}
	return s
}

func near(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if d := a[i] - b[i]; d > 0.006 || d < -0.006 { // the page rounds to 2 decimals
			return false
		}
	}
	return true
}

// stepAfter is the step shown once the page has taken the keys sent before: the keys'
// events are handled after the call that sends them returns, so it waits (up to 2 s) for
// the step to be want, and then returns whatever it is.
func stepAfter(t *testing.T, b *browser, want int) int {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if s := currentStep(t, b); s == want || time.Now().After(deadline) {
			return s
		}
	}
}

func currentStep(t *testing.T, b *browser) int {
	t.Helper()
	a := get(t, b, chromedp.AttributeValue(chromedp.CSS(`[data-testid=step]`), "data-step"))
	n, err := strconv.Atoi(a.Value)
	if err != nil || !a.Exists {
		t.Fatalf("the step shown is %q", a.Value)
	}
	return n
}

// film is the page of the replay at path. The query makes each a new page, not a jump
// within the last one, so that navigating to it waits for it to load.
func film(server, path string) string {
	return server + "/?" + url.QueryEscape(path) + "#/m/" + url.PathEscape(path)
}

func key(k string) chromedp.Action[chromedp.Void] { return chromedp.KeyEvent(k) }

// TestViewerShowsEveryGame opens a real replay of each game in `judge view`, plays it with
// the keys to its end, and checks that the page draws the game and shows the result's
// scores; it keeps a screenshot of each.
func TestViewerShowsEveryGame(t *testing.T) {
	b := newBrowser(t)
	srv := httptest.NewServer((&view.Server{Source: &view.Files{Paths: []string{"testdata"}}, Lookup: games.Lookup, Title: "Replays"}).Handler())
	defer srv.Close()
	dir := shots(t)

	b.Do(t, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=match]`)))
	if n := get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=match]").length`)); n < len(games.All()) {
		t.Fatalf("the list shows %d matches, want at least one per game (%d)", n, len(games.All()))
	}

	for _, g := range games.All() {
		t.Run(g.Name(), func(t *testing.T) {
			path := filepath.Join("testdata", g.Name()+".jsonl")
			rp := readReplay(t, path)
			n := len(rp.Exchanges)
			b.Do(t, chromedp.Navigate(film(srv.URL, path)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=board] svg`)), key(kb.Home))
			if s := stepAfter(t, b, 0); s != 0 {
				t.Fatalf("after Home the page is at step %d", s)
			}
			b.Do(t, key(kb.ArrowRight), key(kb.ArrowRight))
			if s := stepAfter(t, b, 2); s != 2 {
				t.Fatalf("after two right arrows the page is at step %d", s)
			}
			sent := get(t, b, chromedp.TextContent(chromedp.CSS(`[data-testid=sent]`)))
			if want := rp.Exchanges[1].Sent; want != "" && sent != want {
				t.Errorf("step 2 shows sent %q, the replay's exchange 2 sent %q", sent, want)
			}
			// Play: the step moves on by itself; then pause and go to the end.
			b.Do(t, key(" "), chromedp.Sleep(500*time.Millisecond), key(" "))
			if s := currentStep(t, b); s <= 2 {
				t.Errorf("after playing for 500 ms the page is at step %d", s)
			}
			b.Do(t, key(kb.End))
			if s := stepAfter(t, b, n); s != n {
				t.Fatalf("after End the page is at step %d of %d", s, n)
			}
			checkOptionChips(t, b, rp)
			// Drop the Block's board names the turn as the step label does (from 0).
			if g.Name() == "dropblock" {
				head := get(t, b, chromedp.Evaluate[string](`document.querySelector("[data-testid=board] svg text").textContent`))
				label := get(t, b, chromedp.Evaluate[string](`document.querySelector("[data-testid=step]").textContent`))
				last := rp.Exchanges[n-1].Turn
				if !strings.Contains(head, fmt.Sprintf("after global turn %d ", last)) || !strings.Contains(label, fmt.Sprintf("turn %d", last)) {
					t.Errorf("at the end the board says %q and the step label %q; the last exchange is of turn %d", head, label, last)
				}
			}
			live, final := shownScores(t, b, len(rp.Header.Players))
			if want := scoresOf(rp.Result); !near(live, want) || !near(final, want) {
				t.Errorf("at the end the page shows scores %v (board) and %v (result), the result is %v", live, final, want)
			}
			// The CPU each move took against its limit, and each player's closest call: the
			// replay's own highest share.
			calls := get(t, b, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-testid=closest-call]")].map((e) => e.dataset.player + " " + e.textContent)`))
			worst := map[int]float64{}
			for _, x := range rp.Exchanges {
				if (x.Expect > 0 || x.Ready != "") && x.LimitUS > 0 {
					worst[x.Player] = max(worst[x.Player], float64(x.CPUus)/float64(x.LimitUS))
				}
			}
			if len(calls) != len(worst) {
				t.Errorf("closest calls %q; want one for each of the %d players that moved", calls, len(worst))
			}
			for _, c := range calls {
				var p int
				fmt.Sscan(c, &p)
				if want := fmt.Sprintf("closest call %d%% of its limit", int(math.Round(100*worst[p]))); !strings.Contains(c, want) {
					t.Errorf("player %d's closest call %q; want %q", p, c, want)
				}
			}
			// A capture beyond the window keeps the sticky controls' offset and draws them over
			// the page below them; in the picture they stay where the page puts them.
			b.Do(t, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0); document.querySelector("[data-testid=dock]").style.position = "static"`))
			png := get(t, b, chromedp.FullScreenshot(100))
			out := filepath.Join(dir, g.Name()+".png")
			if err := os.WriteFile(out, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot: %s (%d KiB)", out, len(png)>>10)
		})
	}
	b.CheckLocal(t)
}

// TestViewerMarksFaults opens a match in which a bot broke the rules: the timeline marks the
// fault at its turn, and its mark leads to the exchange, which shows the fault.
func TestViewerMarksFaults(t *testing.T) {
	b := newBrowser(t)
	srv := httptest.NewServer((&view.Server{Source: &view.Files{Paths: []string{"testdata"}}, Lookup: games.Lookup}).Handler())
	defer srv.Close()
	path := filepath.Join("testdata", "broken.jsonl")
	rp := readReplay(t, path)
	player := -1
	for i, p := range rp.Result.Players {
		if p.Fault != nil {
			player = i
			break
		}
	}
	if player < 0 {
		t.Fatal("testdata/broken.jsonl has no fault")
	}
	fault := rp.Result.Players[player].Fault
	b.Do(t, chromedp.Navigate(film(srv.URL, path)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=fault-mark]`)))
	mark := get(t, b, chromedp.Attributes(chromedp.CSS(`[data-testid=fault-mark]`)))
	if mark["data-turn"] != fmt.Sprint(fault.Turn) || mark["data-player"] != fmt.Sprint(player) {
		t.Fatalf("the first fault mark is player %s at turn %s, the result has player %d at turn %d", mark["data-player"], mark["data-turn"], player, fault.Turn)
	}
	b.Do(t, chromedp.Click(chromedp.CSS(`[data-testid=fault-mark]`)))
	markStep, _ := strconv.Atoi(mark["data-step"])
	if s := stepAfter(t, b, markStep); fmt.Sprint(s) != mark["data-step"] {
		t.Errorf("the fault's mark led to step %d, not its step %s", s, mark["data-step"])
	}
	shown := get(t, b, chromedp.TextContent(chromedp.CSS(`[data-testid=exchange] [data-testid=fault]`)))
	if !strings.Contains(shown, fmt.Sprintf("%s at turn %d", fault.Kind, fault.Turn)) || !strings.Contains(shown, fault.Detail) {
		t.Errorf("the fault's exchange shows %q, want %s at turn %d: %q", shown, fault.Kind, fault.Turn, fault.Detail)
	}

	// What the other bot wrote to stderr is shown beside the exchange of the move it was
	// written in, and only there.
	wrote := 0
	for i, x := range rp.Exchanges {
		b.Do(t, key(kb.Home))
		for range i + 1 {
			b.Do(t, key(kb.ArrowRight))
		}
		got := get(t, b, chromedp.Evaluate[string](`(document.querySelector("[data-testid=stderr]") || {}).textContent || ""`))
		if got != x.Stderr {
			t.Errorf("step %d shows stderr %q; the replay has %q", i+1, got, x.Stderr)
		}
		if x.Stderr != "" {
			wrote++
		}
		if i > 8 {
			break
		}
	}
	if wrote < 2 {
		t.Errorf("the replay's first moves hold %d stderr texts: the test shows nothing", wrote)
	}
	b.CheckLocal(t)
}

// TestSelfContainedPage opens `judge replay html`'s page from disk: with no server, it plays
// the replay and shows its result, and makes no request but for itself.
func TestSelfContainedPage(t *testing.T) {
	b := newBrowser(t)
	for _, name := range []string{"snakecore", "ontherun"} {
		t.Run(name, func(t *testing.T) {
			rp := readReplay(t, filepath.Join("testdata", name+".jsonl"))
			out := filepath.Join(t.TempDir(), name+".html")
			f, err := os.Create(out)
			if err != nil {
				t.Fatal(err)
			}
			if err := view.WriteHTML(f, view.Make(rp, games.Lookup)); err != nil {
				t.Fatal(err)
			}
			f.Close()
			b.Do(t, chromedp.Navigate("file://"+out), chromedp.WaitVisible(chromedp.CSS(`[data-testid=board] svg`)))
			checkOptionChips(t, b, rp)
			live, final := shownScores(t, b, len(rp.Header.Players))
			if want := scoresOf(rp.Result); !near(live, want) || !near(final, want) {
				t.Errorf("the page shows %v and %v, the result is %v", live, final, want)
			}
			b.Do(t, key(kb.Home), key(kb.ArrowRight))
			if s := stepAfter(t, b, 1); s != 1 {
				t.Errorf("after Home and a right arrow the page is at step %d", s)
			}
		})
	}
	b.CheckLocal(t)
}

// TestBadReplaysSayWhy gives the page what is not a good replay: it says what is wrong, and
// never shows a blank page.
func TestBadReplaysSayWhy(t *testing.T) {
	b := newBrowser(t)
	good, err := os.ReadFile(filepath.Join("testdata", "amazes.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lines := strings.SplitAfter(string(good), "\n")
	cases := []struct{ name, content, want string }{
		{"not-json.jsonl", "hello, world\n", "not"},
		{"truncated.jsonl", strings.Join(lines[:len(lines)/2], ""), "no result"},
		{"newer.jsonl", strings.Replace(string(good), `"version":`, `"version":99,"old_version":`, 1), "newer"},
		{"empty.jsonl", "", "empty"},
	}
	for _, c := range cases {
		if err := os.WriteFile(filepath.Join(dir, c.name), []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer((&view.Server{Source: &view.Files{Paths: []string{dir}}, Lookup: games.Lookup}).Handler())
	defer srv.Close()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// From the server, and from the page's own "Open a replay": both must say why.
			b.Do(t, chromedp.Navigate(film(srv.URL, filepath.Join(dir, c.name))),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=error]`)))
			if msg := get(t, b, chromedp.TextContent(chromedp.CSS(`[data-testid=error]`))); !strings.Contains(strings.ToLower(msg), c.want) {
				t.Errorf("served: the page says %q, want it to mention %q", msg, c.want)
			}
			b.Do(t, chromedp.Navigate(srv.URL+"/?open="+c.name), chromedp.WaitReady(chromedp.ID("open")),
				chromedp.SetUploadFiles(chromedp.ID("open"), []string{filepath.Join(dir, c.name)}),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=error]`)))
			if msg := get(t, b, chromedp.TextContent(chromedp.CSS(`[data-testid=error]`))); !strings.Contains(strings.ToLower(msg), c.want) || !strings.Contains(msg, c.name) {
				t.Errorf("opened: the page says %q, want it to name the file and mention %q", msg, c.want)
			}
		})
	}
	// A good replay opened from the page is played, drawn by the judge.
	abs, _ := filepath.Abs(filepath.Join("testdata", "amazes.jsonl"))
	b.Do(t, chromedp.Navigate(srv.URL+"/?open"), chromedp.WaitReady(chromedp.ID("open")),
		chromedp.SetUploadFiles(chromedp.ID("open"), []string{abs}),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=board] svg`)))
	// The server answered the bad replays with errors, which the browser logs: expected here.
	b.DropErrors(func(e string) bool { return strings.Contains(e, "Failed to load resource") })
	b.CheckLocal(t)
}

// addedReplay is a directory holding a replay of "my-game", an added game of version: Lang
// Wars' replay under that name, so that its pictures are Lang Wars' and no renderer of the
// viewer's has its name.
func addedReplay(t *testing.T, version string) (dir, path string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "langwars.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	path = filepath.Join(dir, "added.jsonl")
	text := strings.Replace(string(data), `"game":"langwars"`, `"game":"my-game","game_version":"`+version+`"`, 1)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// An organiser's game with no renderer of its own is drawn by the generic view: the state of
// each picture its referee gives, legibly, beside the scores, the chart and the exchanges.
// (The pictures here are Lang Wars', under a name no renderer has.)
func TestGenericViewOfAnAddedGame(t *testing.T) {
	b := newBrowser(t)
	dir, path := addedReplay(t, strings.Repeat("ab", 32))
	langwars, _ := games.Lookup("langwars")
	lookup := func(key string) (game.Game, bool) { return langwars, key == "my-game@"+strings.Repeat("ab", 32) }
	srv := httptest.NewServer((&view.Server{Source: &view.Files{Paths: []string{dir}, Lookup: lookup}, Lookup: lookup}).Handler())
	defer srv.Close()
	rp := readReplay(t, path)
	b.Do(t, chromedp.Navigate(film(srv.URL, path)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=state]`)), key(kb.End))
	state := get(t, b, chromedp.TextContent(chromedp.CSS(`[data-testid=state]`)))
	if !strings.Contains(state, `"`) || !strings.Contains(state, "\n  ") {
		t.Errorf("the state is not shown as an indented outline: %q", state)
	}
	live, final := shownScores(t, b, len(rp.Header.Players))
	if want := scoresOf(rp.Result); !near(live, want) || !near(final, want) {
		t.Errorf("at the end the page shows scores %v and %v, the result is %v", live, final, want)
	}
	if n := get(t, b, chromedp.Evaluate[int](`document.querySelectorAll(".warning").length`)); n != 0 {
		t.Errorf("the page shows %d warnings", n)
	}
	// Without its referee (no store, no sandbox), the page says so and shows the exchanges.
	none := httptest.NewServer((&view.Server{Source: &view.Files{Paths: []string{dir}}, Lookup: games.Lookup}).Handler())
	defer none.Close()
	b.Do(t, chromedp.Navigate(film(none.URL, path)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=problem]`)))
	if p := get(t, b, chromedp.TextContent(chromedp.CSS(`[data-testid=problem]`))); !strings.Contains(p, "my-game is an added game") {
		t.Errorf("the problem says %q", p)
	}
	b.CheckLocal(t)
}

// rendered is a game with a renderer of its own, as an added game is.
type rendered struct {
	game.Game
	script string
}

func (g rendered) Renderer() []byte { return []byte(g.script) }

// An added game's own renderer draws its pictures in a sandboxed frame: it is given each step,
// and draws; it can read no cookie or storage of the page, reach nothing of the page, and load
// or send nothing - not to the viewer's API, not to the network (Chromium). A renderer that
// could end its element early is refused.
func TestRendererIsSandboxed(t *testing.T) {
	const hostile = `judge.draw = function (box, view) {
  const tried = {};
  const attempt = (name, f) => { try { tried[name] = "allowed: " + String(f()); } catch (e) { tried[name] = "denied: " + e.name; } };
  attempt("cookie", () => document.cookie);
  attempt("storage", () => window.localStorage.length);
  attempt("parent", () => window.parent.document.title);
  fetch("/api/list?from=renderer").then(() => window.parent.postMessage({leak: "fetch"}, "*"), () => {});
  fetch("http://127.0.0.1:9/x?from=renderer").then(() => window.parent.postMessage({leak: "network"}, "*"), () => {});
  const img = new Image(); img.src = "/leak.png?from=renderer";
  box.textContent = "step " + view.step + ": " + view.players.join(" v ");
  window.parent.postMessage({tried: tried}, "*");
};`
	b := newBrowser(t)
	version := strings.Repeat("cd", 32)
	dir, path := addedReplay(t, version)
	langwars, _ := games.Lookup("langwars")
	script := hostile
	lookup := func(key string) (game.Game, bool) { return rendered{langwars, script}, key == "my-game@"+version }
	var mu sync.Mutex
	var asked []string
	h := (&view.Server{Source: &view.Files{Paths: []string{dir}, Lookup: lookup}, Lookup: lookup}).Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.String())
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()

	b.Do(t, chromedp.Navigate(srv.URL+"/"), chromedp.Evaluate[chromedp.Void](`document.cookie = "session=secret; path=/"; localStorage.setItem("k", "v")`))
	b.Do(t, chromedp.Navigate(film(srv.URL, path)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=renderer]`)),
		chromedp.Evaluate[chromedp.Void](`window.__msgs = []; window.addEventListener("message", (e) => window.__msgs.push(e.data))`),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=board][data-drawn]`)), key(kb.Home), key(kb.ArrowRight),
		chromedp.Sleep(500*time.Millisecond))
	if drawn := get(t, b, chromedp.AttributeValue(chromedp.CSS(`[data-testid=board]`), "data-drawn")); drawn.Value != "1" {
		t.Errorf("the renderer drew step %q, want 1", drawn.Value)
	}
	msgs := get(t, b, chromedp.Evaluate[string](`JSON.stringify(window.__msgs)`))
	if !strings.Contains(msgs, `"tried"`) {
		t.Fatalf("the renderer did not run: %s", msgs)
	}
	for _, what := range []string{"cookie", "storage", "parent"} {
		if !strings.Contains(msgs, `"`+what+`":"denied: SecurityError"`) {
			t.Errorf("the renderer's %s was not denied: %s", what, msgs)
		}
	}
	if strings.Contains(msgs, "leak") || strings.Contains(msgs, "secret") {
		t.Errorf("the renderer reached something: %s", msgs)
	}
	mu.Lock()
	for _, u := range asked {
		if strings.Contains(u, "from=renderer") {
			t.Errorf("the renderer's request reached the server: %s", u)
		}
	}
	mu.Unlock()

	res, err := http.Get(srv.URL + "/frame/my-game@" + version)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if csp := res.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "sandbox allow-scripts; default-src 'none'") {
		t.Errorf("the frame's policy: %q", csp)
	}
	script = `judge.draw = () => {}; "</script><script>alert(1)</script>"`
	if res, err := http.Get(srv.URL + "/frame/my-game@" + version); err != nil || res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a renderer that ends its element: %v %v", err, res.Status)
	}
	if res, _ := http.Get(srv.URL + "/frame/langwars"); res.StatusCode != http.StatusNotFound {
		t.Errorf("a built-in game's frame: %s", res.Status)
	}
}

// withStderr is the replay at path with text as the stderr of its exchange at index ex, in a
// new file of dir.
func withStderr(t *testing.T, dir, path string, ex int, text string) string {
	t.Helper()
	rp := readReplay(t, path)
	rp.Exchanges[ex].Stderr = text
	var buf strings.Builder
	w := replay.NewWriter(&buf)
	w.Header(rp.Header)
	for _, x := range rp.Exchanges {
		w.Exchange(x)
	}
	w.Result(rp.Result)
	out := filepath.Join(dir, filepath.Base(path))
	if err := os.WriteFile(out, []byte(buf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// A bot's own drawings (stderr lines "@judge ..."): drawn over the board at the step of the
// move it wrote them in, on its own panel where the game has one per player, listed in words
// beside the exchange, toggled by layer; markup in a text stays text, a line the viewer
// cannot read is said, not drawn. For a game of two (Amazes), of four (Lang Wars, whose
// picture has no board: listed), a board game (SnakeCore) and an added game (listed).
func TestBotsDrawOnTheBoard(t *testing.T) {
	b := newBrowser(t)
	marks := "thinking\n@judge dot 1 2 color=red layer=plan\n@judge line 0 0 0 3 layer=plan\n@judge circle 2 2 1.5 color=#0a0\n" +
		"@judge text 0 1 layer=notes <img src=x onerror=\"window.__pwned=1\">go\n@judge note aiming for the exit\n@judge blob 1 2\n@judge dot 1 color=red\n"
	for _, c := range []struct {
		name    string
		drawn   int // marks drawn on the board (dot, line, circle, text)
		panel   bool
		added   bool
		replays string
	}{
		{"amazes", 4, true, false, "amazes.jsonl"},
		{"snakecore", 4, false, false, "snakecore.jsonl"},
		{"langwars", 0, false, false, "langwars.jsonl"},
		{"added", 0, false, true, "langwars.jsonl"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join("testdata", c.replays)
			lookup := games.Lookup
			if c.added {
				_, src = addedReplay(t, strings.Repeat("cd", 32))
				langwars, _ := games.Lookup("langwars")
				lookup = func(key string) (game.Game, bool) { return langwars, key == "my-game@"+strings.Repeat("cd", 32) }
			}
			rp := readReplay(t, src)
			ex := 2 // the third exchange: a move of a player's own
			path := withStderr(t, dir, src, ex, marks)
			srv := httptest.NewServer((&view.Server{Source: &view.Files{Paths: []string{dir}, Lookup: lookup}, Lookup: lookup}).Handler())
			defer srv.Close()
			b.Do(t, chromedp.Navigate(film(srv.URL, path)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=slider]`)), key(kb.Home))
			for range ex + 1 {
				b.Do(t, key(kb.ArrowRight))
			}
			if s := stepAfter(t, b, ex+1); s != ex+1 {
				t.Fatalf("at step %d", s)
			}
			b.Do(t, chromedp.WaitVisible(chromedp.CSS(`[data-testid=marks-list]`)))
			items := get(t, b, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-testid=mark-item]")].map((e) => e.textContent)`))
			if len(items) != 5 || !strings.Contains(strings.Join(items, "|"), "note: aiming for the exit") {
				t.Errorf("the marks listed: %q", items)
			}
			bad := get(t, b, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-testid=mark-bad]")].map((e) => e.textContent)`))
			if len(bad) != 2 || !strings.Contains(bad[0], `unknown mark "blob"`) || !strings.Contains(bad[1], "dot takes 2 numbers") {
				t.Errorf("the lines not drawn: %q", bad)
			}
			drawn := get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=board] [data-testid=mark]").length`))
			if drawn != c.drawn {
				t.Errorf("%d marks drawn on the board; want %d", drawn, c.drawn)
			}
			if c.panel {
				p := rp.Exchanges[ex].Player
				if n := get(t, b, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll('[data-testid=panel][data-player="%d"] [data-testid=mark]').length`, p))); n != c.drawn {
					t.Errorf("%d marks on the mover's panel (player %d); want all %d", n, p, c.drawn)
				}
			}
			browsertest.CheckInert(t, b, 1+len(games.All()), `<img src=x onerror="window.__pwned=1">go`) // app.js and a renderer per game
			b.Screenshot(t, "viewer-marks-"+c.name+".png")
			// Unticking the layer "plan" hides its two marks, drawn and listed.
			b.Do(t, chromedp.Click(chromedp.CSS(`[data-testid="layer-plan"]`)))
			if n := get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=mark-item][data-layer=plan]").length`)); n != 0 {
				t.Errorf("%d marks of the layer plan listed once it is off", n)
			}
			if c.drawn > 0 {
				if n := get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=board] [data-testid=mark]").length`)); n != c.drawn-2 {
					t.Errorf("%d marks drawn once the layer plan is off; want %d", n, c.drawn-2)
				}
			}
			// The next step, a move without marks, draws none.
			b.Do(t, chromedp.Click(chromedp.CSS(`[data-testid=forward]`)))
			stepAfter(t, b, ex+2)
			if n := get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=board] [data-testid=mark], [data-testid=mark-item]").length`)); n != 0 {
				t.Errorf("%d marks at the next step", n)
			}
		})
	}
	b.CheckLocal(t)
}
