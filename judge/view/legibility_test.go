package view_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/view"
)

// The viewer at the sizes people use (#21, 6): what must be readable and in view on a laptop's
// 1400 x 900 and on a 1024-wide screen.

// sizes are the viewports checked: a laptop and a small screen.
var sizes = []struct{ w, h int64 }{{1400, 900}, {1024, 768}}

// legibilityServer serves testdata's replays and, when bad is set, a file that is not one.
func legibilityServer(t *testing.T, bad bool) *httptest.Server {
	t.Helper()
	paths := []string{"testdata"}
	if bad {
		p := filepath.Join(t.TempDir(), "garbage.jsonl")
		if err := os.WriteFile(p, []byte("hello, world\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	srv := httptest.NewServer((&view.Server{Source: &view.Files{Paths: paths}, Lookup: games.Lookup, Title: "Replays"}).Handler())
	t.Cleanup(srv.Close)
	return srv
}

// replays are the test replays shown: one per game, and the one with a fault.
func replays() []string {
	var out []string
	for _, g := range games.All() {
		out = append(out, g.Name())
	}
	return append(out, "broken")
}

// openAt opens the replay name at the given viewport, at its last step: a new page, even
// when it is the one shown (it would not be loaded again).
func openAt(t *testing.T, b *browser, srv string, name string, w, h int64) {
	t.Helper()
	b.Do(t, chromedp.Navigate("about:blank"), chromedp.EmulateViewport(w, h), chromedp.Navigate(film(srv, filepath.Join("testdata", name+".jsonl"))),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=board] svg`)))
}

// TestLegibleScreenshots keeps what a person sees, the viewport only (no scrolling), of every
// test replay and of the list at each size, in JUDGE_LEGIBILITY_SHOTS when it is set.
func TestLegibleScreenshots(t *testing.T) {
	dir := os.Getenv("JUDGE_LEGIBILITY_SHOTS")
	if dir == "" {
		t.Skip("set JUDGE_LEGIBILITY_SHOTS=DIR to keep screenshots of the viewer at 1400x900 and 1024x768")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	srv := legibilityServer(t, true)
	for _, sz := range sizes {
		b.Do(t, chromedp.EmulateViewport(sz.w, sz.h), chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=match]`)))
		save(t, dir, fmt.Sprintf("list-%dx%d.png", sz.w, sz.h), get(t, b, chromedp.CaptureScreenshot()))
		for _, name := range replays() {
			openAt(t, b, srv.URL, name, sz.w, sz.h)
			save(t, dir, fmt.Sprintf("%s-%dx%d.png", name, sz.w, sz.h), get(t, b, chromedp.CaptureScreenshot()))
		}
	}
}

// textOf is the text of the first element css selects, or "" when there is none (without
// waiting for it: the page is drawn).
func textOf(t *testing.T, b *browser, css string) string {
	t.Helper()
	return get(t, b, chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ""`, css)))
}

func save(t *testing.T, dir, name string, png []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// inView lists the play controls that are not wholly in the viewport, or hidden under
// something else, with the page scrolled to its top and to its middle.
const inView = `(() => {
  const out = [];
  for (const y of [0, document.documentElement.scrollHeight / 2]) {
    window.scrollTo(0, y);
    for (const s of ["slider", "back", "play", "forward", "speed", "step"]) {
      const e = document.querySelector("[data-testid=" + s + "]");
      if (!e) { out.push(s + " is missing"); continue; }
      const r = e.getBoundingClientRect();
      if (!r.width || r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
        out.push(s + " at scroll " + Math.round(y) + " is at " + Math.round(r.left) + "," + Math.round(r.top) + "-" + Math.round(r.right) + "," + Math.round(r.bottom) + " of " + innerWidth + "x" + innerHeight);
        continue;
      }
      const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
      if (top !== e && !e.contains(top)) out.push(s + " at scroll " + Math.round(y) + " is covered by " + (top ? top.tagName + "." + top.className : "nothing"));
    }
  }
  window.scrollTo(0, 0);
  return out.join("; ");
})()`

// TestControlsStayInView: the slider and the play buttons are in view whatever the page's
// scroll, at 1400 x 900 and 1024 x 768, for every game.
func TestControlsStayInView(t *testing.T) {
	b := newBrowser(t)
	srv := legibilityServer(t, false)
	for _, sz := range sizes {
		for _, name := range replays() {
			t.Run(fmt.Sprintf("%s-%dx%d", name, sz.w, sz.h), func(t *testing.T) {
				openAt(t, b, srv.URL, name, sz.w, sz.h)
				if bad := get(t, b, chromedp.Evaluate[string](inView)); bad != "" {
					t.Errorf("the controls are not in view: %s", bad)
				}
			})
		}
	}
	b.CheckLocal(t)
}

// TestOnTheRunNamesRoles: the result table and the scoreboard say who is the Fugitive and
// who the Detectives.
func TestOnTheRunNamesRoles(t *testing.T) {
	b := newBrowser(t)
	srv := legibilityServer(t, false)
	openAt(t, b, srv.URL, "ontherun", 1400, 900)
	for i, want := range []string{"Fugitive", "Detectives"} {
		got := textOf(t, b, fmt.Sprintf(`[data-testid=result-role][data-player="%d"]`, i))
		if strings.TrimSpace(got) != want {
			t.Errorf("the result table gives player %d the role %q, want %q", i, got, want)
		}
	}
	board := textOf(t, b, `[data-testid=scoreboard]`)
	if !strings.Contains(board, "Fugitive") || !strings.Contains(board, "Detectives") {
		t.Errorf("the scoreboard %q does not name the roles", board)
	}
	// A game without roles has no role column.
	openAt(t, b, srv.URL, "snakecore", 1400, 900)
	if n := get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=result-role]").length`)); n != 0 {
		t.Errorf("SnakeCore's result table has %d role cells", n)
	}
	b.CheckLocal(t)
}

// cityLabels is the smallest and the largest size, in screen pixels, of On The Run's city
// numbers, and how many there are.
const cityLabels = `(() => {
  const ts = [...document.querySelectorAll("[data-testid=city]")];
  let lo = Infinity, hi = 0;
  for (const t of ts) {
    const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
    lo = Math.min(lo, px); hi = Math.max(hi, px);
  }
  return [ts.length, lo, hi];
})()`

// TestOnTheRunCityNumbersReadable: the city numbers are at least 11 pixels high on the
// screen, at 1400 x 900, at 1024 x 768, and after the window is made smaller.
func TestOnTheRunCityNumbersReadable(t *testing.T) {
	b := newBrowser(t)
	srv := legibilityServer(t, false)
	cities := 200 // testdata/ontherun.jsonl's option cities
	check := func(t *testing.T, what string) {
		t.Helper()
		got := get(t, b, chromedp.Evaluate[[]float64](cityLabels))
		if int(got[0]) != cities {
			t.Fatalf("%s: %v city labels, want %d", what, got[0], cities)
		}
		if got[1] < 11 {
			t.Errorf("%s: the smallest city number is %.1f px on the screen, want at least 11", what, got[1])
		}
		t.Logf("%s: city numbers %.1f..%.1f px", what, got[1], got[2])
	}
	for _, sz := range sizes {
		openAt(t, b, srv.URL, "ontherun", sz.w, sz.h)
		check(t, fmt.Sprintf("%dx%d", sz.w, sz.h))
	}
	// Resized without a step: the labels follow.
	openAt(t, b, srv.URL, "ontherun", 1400, 900)
	b.Do(t, chromedp.EmulateViewport(900, 700), chromedp.Sleep(300*time.Millisecond))
	check(t, "resized to 900x700")
	b.CheckLocal(t)
}

// chartLines is, per player, the chart line's dash pattern, the end of its path, its end
// label's box and text.
const chartLines = `[...document.querySelectorAll("[data-testid=chart] [data-testid=series]")].map((p) => {
  const pl = p.getAttribute("data-player");
  const d = p.getAttribute("d"), m = d.match(/([-0-9.]+),([-0-9.]+)$/);
  const l = document.querySelector("[data-testid=chart] [data-testid=series-end][data-player='" + pl + "']");
  const r = l ? l.getBoundingClientRect() : null;
  return {player: +pl, dash: p.getAttribute("stroke-dasharray") || "", endY: m ? +m[2] : NaN,
    label: l ? l.textContent : "", box: r ? [r.left, r.top, r.right, r.bottom] : []};
})`

type chartLine struct {
	Player int       `json:"player"`
	Dash   string    `json:"dash"`
	EndY   float64   `json:"endY"`
	Label  string    `json:"label"`
	Box    []float64 `json:"box"`
}

// TestChartTellsTiesApart: in the score chart, the lines of players with the same scores are
// told apart (each its own dash pattern, and not drawn on the same spot), and each ends in
// its score, the labels not on each other. Lang Wars' testdata ends with three players at
// 5.67; Drop the Block's has lines over each other for most of the match.
func TestChartTellsTiesApart(t *testing.T) {
	b := newBrowser(t)
	srv := legibilityServer(t, false)
	for _, name := range []string{"langwars", "dropblock"} {
		t.Run(name, func(t *testing.T) {
			rp := readReplay(t, filepath.Join("testdata", name+".jsonl"))
			openAt(t, b, srv.URL, name, 1400, 900)
			lines := get(t, b, chromedp.Evaluate[[]chartLine](chartLines))
			if len(lines) != len(rp.Header.Players) {
				t.Fatalf("the chart has %d lines for %d players", len(lines), len(rp.Header.Players))
			}
			ties := 0
			for i, a := range lines {
				score := rp.Result.Players[a.Player].Score
				if a.Label == "" || parseScore(t, a.Label)-score > 0.006 || score-parseScore(t, a.Label) > 0.006 {
					t.Errorf("player %d's line ends in the label %q, its score is %v", a.Player, a.Label, score)
				}
				for _, c := range lines[i+1:] {
					if a.Dash == c.Dash {
						t.Errorf("players %d and %d have the same dash pattern %q", a.Player, c.Player, a.Dash)
					}
					if rp.Result.Players[c.Player].Score != score {
						continue
					}
					ties++
					if a.EndY == c.EndY {
						t.Errorf("players %d and %d, both at %v, end on the same spot", a.Player, c.Player, score)
					}
					if len(a.Box) == 4 && len(c.Box) == 4 && a.Box[0] < c.Box[2] && c.Box[0] < a.Box[2] && a.Box[1] < c.Box[3] && c.Box[1] < a.Box[3] {
						t.Errorf("the end labels of players %d and %d are on each other: %v and %v", a.Player, c.Player, a.Box, c.Box)
					}
				}
			}
			if name == "langwars" && ties < 3 {
				t.Errorf("langwars: %d pairs of tied players, the testdata has three players tied", ties)
			}
		})
	}
	b.CheckLocal(t)
}

// TestListExplainsItself: the list says what the star is and when each match started, and a
// file that is not a replay is listed as unreadable, with why, and no game or seed.
func TestListExplainsItself(t *testing.T) {
	b := newBrowser(t)
	srv := legibilityServer(t, true)
	b.Do(t, chromedp.EmulateViewport(1400, 900), chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=match]`)))
	legend := textOf(t, b, `[data-testid=list-legend]`)
	if !strings.Contains(legend, "\u2605 = winner (rank 1 without a fault") {
		t.Errorf("the list's legend is %q: it does not explain the star", legend)
	}
	// A faulty bot is no winner, even tied first (broken.jsonl: a protocol fault at 0-0).
	type starred struct {
		Text  string `json:"text"`
		Fault bool   `json:"fault"`
		Star  bool   `json:"star"`
	}
	stars := get(t, b, chromedp.Evaluate[[]starred](`[...document.querySelectorAll("[data-testid=match] .pl")].map((p) => ({text: p.textContent, fault: !!p.querySelector(".fault"), star: !!p.querySelector("[data-testid=star]")}))`))
	faulty := 0
	for _, p := range stars {
		if p.Fault {
			faulty++
			if p.Star {
				t.Errorf("the faulty player %q carries the winner's star", p.Text)
			}
		}
	}
	if faulty == 0 {
		t.Error("no faulty player in the list: the testdata's broken.jsonl has one")
	}
	head := textOf(t, b, `table.list thead`)
	if !strings.Contains(head, "Started") {
		t.Errorf("the list's columns are %q: no time", head)
	}
	type row struct {
		Cells []string `json:"cells"`
	}
	rows := get(t, b, chromedp.Evaluate[[]row](`[...document.querySelectorAll("[data-testid=match]")].map((r) => ({cells: [...r.cells].map((c) => c.textContent)}))`))
	timed, bad := 0, 0
	for _, r := range rows {
		// Match, Game, Seed, Started, Players, ...
		if len(r.Cells) < 5 {
			t.Fatalf("a row of the list has %d cells: %q", len(r.Cells), r.Cells)
		}
		if r.Cells[0] == "garbage.jsonl" {
			bad++
			if r.Cells[1] != "unreadable" || r.Cells[2] != "" || strings.Contains(r.Cells[4], "invalid_job") || !strings.Contains(r.Cells[4], "not a readable replay") {
				t.Errorf("the file that is not a replay is listed as %q: want unreadable, no seed, and why", r.Cells)
			}
			continue
		}
		if ok, _ := regexp.MatchString(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$`, r.Cells[3]); ok {
			timed++
		} else {
			t.Errorf("%s started %q", r.Cells[0], r.Cells[3])
		}
	}
	pairs, _ := filepath.Glob(filepath.Join("testdata", "pair", "*.jsonl")) // the list finds them too
	if want := len(replays()) + len(pairs); bad != 1 || timed != want {
		t.Errorf("the list has %d unreadable files and %d timed matches, want 1 and %d", bad, timed, want)
	}
	b.CheckLocal(t)
}

// amazesLines are the boxes of the panels' three lines of text, which must not overlap.
const amazesLines = `[...document.querySelectorAll("[data-testid=amazes] [data-testid=who], [data-testid=amazes] [data-testid=counts], [data-testid=amazes] [data-testid=points]")].map((t) => {
  const r = t.getBoundingClientRect();
  return {text: t.textContent, box: [r.left, r.top, r.right, r.bottom]};
})`

type textBox struct {
	Text string    `json:"text"`
	Box  []float64 `json:"box"`
}

// TestAmazesSaysWhyScoresDiffer: when a player's points are not its score (a fault scores 0,
// a score is clamped to 0..1000) the panel and the chart say so in words; and the panels'
// lines do not run into each other, at 1400 x 900 and 1024 x 768.
func TestAmazesSaysWhyScoresDiffer(t *testing.T) {
	b := newBrowser(t)
	srv := legibilityServer(t, false)
	cases := []struct {
		name     string
		player   int
		panel    []string // what the player's points line says
		chartSay string
	}{
		{"amazes", 1, []string{"final score 0", "clamped to 0..1000"}, "clamped to 0..1000"},
		{"broken", 0, []string{"final score 0", "faulted at turn 4"}, "faulted at turn 4"},
	}
	for _, c := range cases {
		for _, sz := range sizes {
			t.Run(fmt.Sprintf("%s-%dx%d", c.name, sz.w, sz.h), func(t *testing.T) {
				openAt(t, b, srv.URL, c.name, sz.w, sz.h)
				line := textOf(t, b, fmt.Sprintf(`[data-testid=amazes] [data-testid=points][data-player="%d"]`, c.player))
				for _, want := range c.panel {
					if !strings.Contains(line, want) {
						t.Errorf("the panel says %q, want it to say %q", line, want)
					}
				}
				notes := textOf(t, b, `[data-testid=score-notes]`)
				if !strings.Contains(notes, c.chartSay) {
					t.Errorf("under the chart: %q, want it to say %q", notes, c.chartSay)
				}
				boxes := get(t, b, chromedp.Evaluate[[]textBox](amazesLines))
				if len(boxes) != 6 {
					t.Fatalf("the panels have %d lines of text, want 6", len(boxes))
				}
				for i, a := range boxes {
					for _, o := range boxes[i+1:] {
						if a.Box[0] < o.Box[2]-0.5 && o.Box[0] < a.Box[2]-0.5 && a.Box[1] < o.Box[3]-0.5 && o.Box[1] < a.Box[3]-0.5 {
							t.Errorf("%q (%v) runs into %q (%v)", a.Text, a.Box, o.Text, o.Box)
						}
					}
				}
			})
		}
	}
	b.CheckLocal(t)
}

// legendInView is what of a game's page a person at 1400 x 900 must see without scrolling:
// what the game is, the link to its rules, and the legend of its marks.
const legendInView = `(() => {
  window.scrollTo(0, 0);
  const out = [];
  for (const s of ["about", "rules-link", "legend"]) {
    const e = document.querySelector("[data-testid=" + s + "]");
    if (!e) { out.push(s + " is missing"); continue; }
    const r = e.getBoundingClientRect();
    if (!r.width || r.top < 0 || r.bottom > innerHeight) out.push(s + " is at " + Math.round(r.top) + "-" + Math.round(r.bottom) + " of " + innerHeight);
  }
  const a = document.querySelector("[data-testid=rules-link]");
  if (a) out.push("href=" + a.getAttribute("href"));
  return out.join("; ");
})()`

// TestGamePageSaysWhatTheGameIs: every game's page says in a line what the game is, links
// its rules page (which the viewer serves), and shows the legend of its marks without
// scrolling at 1400 x 900.
func TestGamePageSaysWhatTheGameIs(t *testing.T) {
	b := newBrowser(t)
	srv := legibilityServer(t, false)
	for _, g := range games.All() {
		t.Run(g.Name(), func(t *testing.T) {
			openAt(t, b, srv.URL, g.Name(), 1400, 900)
			got := get(t, b, chromedp.Evaluate[string](legendInView))
			if got != "href=rules/"+g.Name() {
				t.Errorf("at 1400x900: %s; want the line, the link (rules/%s) and the legend in view", got, g.Name())
			}
			resp, err := http.Get(srv.URL + "/rules/" + g.Name())
			if err != nil {
				t.Fatal(err)
			}
			page, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(page), "Game identifier: <code>"+g.Name()+"</code>") || !strings.Contains(string(page), `href="common"`) {
				t.Errorf("the rules page of %s: %d\n%.400s", g.Name(), resp.StatusCode, page)
			}
		})
	}
	for _, path := range []string{"/rules/chess", "/rules/..%2Fportal", "/rules/README"} {
		if resp, err := http.Get(srv.URL + path); err != nil || resp.StatusCode != 404 {
			t.Errorf("%s: %v %v; want 404", path, resp.Status, err)
		}
	}
	if resp, err := http.Get(srv.URL + "/rules/common"); err != nil || resp.StatusCode != 200 {
		t.Errorf("the rules every game shares: %v %v", resp.Status, err)
	}
	b.CheckLocal(t)
}
