package view_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/view"
	"github.com/botjudge/judge/judge/view/browsertest"
)

// hostile are strings that run code wherever a page writes them as markup: each sets the
// canary window.__pwned or opens a dialog. A replay carries them in every string it has.
var hostile = []string{
	`</script><script>window.__pwned=1</script>`,
	`</title><script>window.__pwned=2</script>`,
	`"><img src=x onerror="window.__pwned=3">`,
	`javascript:window.__pwned=4`,
	`<svg onload="window.__pwned=5"></svg>`,
	`'><script>alert(6)</script>`,
	`<iframe srcdoc="<script>parent.__pwned=7</script>"></iframe>`,
}

// poison is the i-th hostile string, tagged so that the page's text can be searched for it.
func poison(i int) string { return fmt.Sprintf("X%d%s", i, hostile[i%len(hostile)]) }

// hostileReplays writes two replays made from a real Amazes replay, markup in every string:
// one of Amazes (names, languages, toolchains, images, result id, build logs, fault details,
// stderr, and the last exchange's answer, so that it departs from the game at its end), and
// one whose game and options are markup (a game this judge does not know). It returns the
// directory, which also holds a file that is not a replay, named with markup.
func hostileReplays(t *testing.T) (dir string, names []string) {
	t.Helper()
	rp := readReplay(t, filepath.Join("testdata", "amazes.jsonl"))
	n := 0
	next := func() string { n++; return poison(n) }
	h := &rp.Header
	for i := range h.Players {
		p := &h.Players[i]
		p.Name, p.Lang, p.Toolchain, p.CompileImage, p.RunImage = next(), next(), next(), next(), next()
	}
	res := &rp.Result
	res.ID = next()
	for i := range res.Players {
		p := &res.Players[i]
		p.Name, p.Lang, p.Stderr = h.Players[i].Name, h.Players[i].Lang, next()
		p.Build.OK, p.Build.Log, p.Build.Toolchain = i == 0, next(), next()
		p.Build.Failure = "compile error"
	}
	res.Players[1].Fault = &game.Fault{Kind: game.Crash, Turn: 3, Detail: next()}
	res.Judge.Host, res.Judge.Version = next(), next()
	for i := range rp.Exchanges {
		if i%17 == 0 {
			rp.Exchanges[i].Stderr = next()
		}
	}
	last := &rp.Exchanges[len(rp.Exchanges)-1]
	last.Received = []string{next(), next()}
	last.Fault = &game.Fault{Kind: game.Protocol, Turn: last.Turn, Detail: next()}

	dir = t.TempDir()
	write := func(name string, rp *replay.Replay) {
		var buf bytes.Buffer
		w := replay.NewWriter(&buf)
		w.Header(rp.Header)
		for i, x := range rp.Exchanges {
			stderr := x.Stderr
			x.Stderr = ""
			w.Exchange(x)
			if stderr != "" {
				w.Stderr(x.Player, i, stderr)
			}
		}
		w.Result(rp.Result)
		if err := w.Err(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	write("amazes.jsonl", rp)

	// The same, of a game that is markup, with markup options and what was sent.
	h.Game = "G" + hostile[1] // the page's title is made of it
	h.Options = map[string]string{next(): next(), "turns": next()}
	for i := range rp.Exchanges[:20] {
		rp.Exchanges[i].Sent = next()
		rp.Exchanges[i].Verdict = &game.Fault{Kind: game.IllegalMove, Turn: 1, Detail: next()}
	}
	res.Game = h.Game
	write("unknown.jsonl", rp)

	if err := os.WriteFile(filepath.Join(dir, poison(100)+".jsonl"), []byte("not a replay\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, names
}

func checkInert(t *testing.T, b *browser, scripts int, want ...string) {
	t.Helper()
	browsertest.CheckInert(t, b, scripts, want...)
}

// TestPlantedMarkupStaysText opens replays with markup in every string they carry - in the
// served viewer (list, film), on a tournament's page, and as the self-contained page - and
// checks that nothing planted runs and that the strings are shown as text.
func TestPlantedMarkupStaysText(t *testing.T) {
	b := newBrowser(t)
	opened := b.WatchDialogs(t)
	dir, names := hostileReplays(t)
	rp := readReplay(t, filepath.Join(dir, "amazes.jsonl"))
	other := readReplay(t, filepath.Join(dir, "unknown.jsonl"))
	served := 1 + len(games.All()) // app.js and a renderer per game

	standings, _ := json.Marshal([]map[string]any{{"name": poison(50), "points": 3, "rank_range": []int{1, 2}, "above_next": 0.516},
		{"name": poison(51), "points": 1, "rank_range": []int{1, 2}, "above_next": nil}})
	srv := httptest.NewServer((&view.Server{Source: &view.Files{Paths: []string{dir}, Lookup: games.Lookup}, Lookup: games.Lookup,
		Title: "Tournament " + poison(52), Standings: standings}).Handler())
	defer srv.Close()

	t.Run("list", func(t *testing.T) {
		b.Do(t, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=match]`)))
		checkInert(t, b, served, poison(50), poison(51), poison(52), rp.Result.ID, rp.Header.Players[0].Name, poison(100), "1\u20132", "51%", "could truly be")
	})
	for _, c := range []struct {
		name string
		rp   *replay.Replay
		wait string
	}{{"amazes.jsonl", rp, `[data-testid=board] svg`}, {"unknown.jsonl", other, `[data-testid=exchange]`}} {
		path := filepath.Join(dir, c.name)
		// What the page shows at the first step and at the last, where the edited answer is.
		want := []string{c.rp.Header.Players[0].Name, c.rp.Header.Players[1].Lang, c.rp.Result.ID,
			c.rp.Result.Players[1].Build.Log, c.rp.Result.Players[1].Fault.Detail, c.rp.Header.Game}
		for k, v := range c.rp.Header.Options {
			want = append(want, k, v) // a long value is cut, and whole in its tooltip
		}
		x := c.rp.Exchanges[len(c.rp.Exchanges)-1]
		wantEnd := slices.Concat(want, x.Received)
		t.Run("served "+c.name, func(t *testing.T) {
			b.Do(t, chromedp.Navigate(film(srv.URL, path)), chromedp.WaitVisible(chromedp.CSS(c.wait)))
			checkInert(t, b, served, wantEnd...)
			b.Do(t, key(kb.Home), key(kb.ArrowRight))
			checkInert(t, b, served, slices.Concat(want, []string{c.rp.Exchanges[0].Stderr, c.rp.Exchanges[0].Sent})...)
		})
		t.Run("self-contained "+c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "page.html")
			f, err := os.Create(out)
			if err != nil {
				t.Fatal(err)
			}
			if err := view.WriteHTML(f, view.Make(c.rp, games.Lookup)); err != nil {
				t.Fatal(err)
			}
			f.Close()
			b.Do(t, chromedp.Navigate("file://"+out), chromedp.WaitVisible(chromedp.CSS(c.wait)))
			checkInert(t, b, served+1, wantEnd...) // and the film's JSON
			if title := get(t, b, chromedp.Evaluate[string](`document.title`)); !strings.HasPrefix(title, c.rp.Header.Game) {
				t.Errorf("the page's title is %q, want it to start with the game's name as text, %q", title, c.rp.Header.Game)
			}
		})
	}
	if n := opened(); n > 0 {
		t.Errorf("%d dialogs opened", n)
	}
	if len(names) != 2 {
		t.Fatalf("wrote %v", names)
	}
	b.CheckLocal(t)
}

// TestCSPStopsASmuggledScript plants a script in the pages themselves, past the escaping, as
// a bug in it would: the content security policy must stop it, and the app still run.
func TestCSPStopsASmuggledScript(t *testing.T) {
	b := newBrowser(t)
	const smuggled = `<script>window.__pwned="inline"</script><img src=x onerror="window.__pwned='handler'">`
	plant := func(page []byte) []byte {
		return bytes.Replace(page, []byte("</body>"), []byte(smuggled+"</body>"), 1)
	}

	// Served: the index page as the handler writes it, with the plant, and its header.
	h := (&view.Server{Source: &view.Files{Paths: []string{"testdata"}}, Lookup: games.Lookup}).Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(plant(rec.Body.Bytes()))
	}))
	defer srv.Close()
	b.Do(t, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=match]`)))
	if v := get(t, b, chromedp.Evaluate[string](`String(window.__pwned)`)); v != "undefined" {
		t.Errorf("served page: a smuggled script ran (%s)", v)
	}

	// Self-contained: the page's own policy, in its meta tag.
	var page bytes.Buffer
	if err := view.WriteHTML(&page, view.Make(readReplay(t, filepath.Join("testdata", "snakecore.jsonl")), games.Lookup)); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(out, plant(page.Bytes()), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Do(t, chromedp.Navigate("file://"+out), chromedp.WaitVisible(chromedp.CSS(`[data-testid=board] svg`)))
	if v := get(t, b, chromedp.Evaluate[string](`String(window.__pwned)`)); v != "undefined" {
		t.Errorf("self-contained page: a smuggled script ran (%s)", v)
	}
	// The refused script is reported by the browser: expected here.
	b.DropErrors(func(string) bool { return true })
	b.CheckLocal(t)
}
