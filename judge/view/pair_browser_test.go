package view_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
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

// pairPage is judge view's page of the replays at a and b side by side (a new page each time,
// as film's).
func pairPage(server, a, b string) string {
	return server + "/?" + url.QueryEscape(a+b) + "#/compare/?a=" + url.QueryEscape(a) + "&b=" + url.QueryEscape(b)
}

// sideSteps are the steps each side of the compare page shows.
func sideSteps(t *testing.T, b *browser) []string {
	t.Helper()
	return get(t, b, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-testid=side-step]")].map((e) => e.dataset.step)`))
}

// TestCompareSideBySide opens two real matches of one seed that part at one exchange, for a
// game of two, a game of four and an added game: both boards drawn at the same turn, the
// parting named, marked and opened at, one slider moving both, the ends and scores each its
// own; a player's name of markup stays text; the list offers the comparison; two matches of
// different games are refused, saying why; the self-contained page does the same from disk.
func TestCompareSideBySide(t *testing.T) {
	b := newBrowser(t)
	const hostile = `<img src=x onerror="window.__pwned=1">mod`
	for _, c := range []struct {
		name  string
		game  string
		added bool
		board string // what each side's board draws
	}{
		{"amazes", "amazes", false, "svg"},
		{"langwars", "langwars", false, "svg"},
		{"added", "langwars", true, "[data-testid=state]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			lookup := games.Lookup
			version := strings.Repeat("ab", 32)
			if c.added {
				lw, _ := games.Lookup("langwars")
				lookup = func(key string) (game.Game, bool) { return lw, key == "my-game@"+version }
			}
			var paths [2]string
			var rps [2]*replay.Replay
			for i, side := range []string{"a", "b"} {
				data, err := os.ReadFile(filepath.Join("testdata", "pair", c.game+"-"+side+".jsonl"))
				if err != nil {
					t.Fatal(err)
				}
				text := string(data)
				if c.added {
					text = strings.Replace(text, `"game":"langwars"`, `"game":"my-game","game_version":"`+version+`"`, 1)
					text = strings.Replace(text, `"result":{"version":1,"id":"","game":"langwars"`, `"result":{"version":1,"id":"","game":"my-game"`, 1)
				}
				if i == 1 { // B's changed bot is the last player: its name is markup
					text = strings.Replace(text, `"name":"pair/`+c.game+`-mod"`, `"name":`+string(must(json.Marshal(hostile))), 1)
				}
				paths[i] = filepath.Join(dir, side+".jsonl")
				if err := os.WriteFile(paths[i], []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				rps[i] = readReplay(t, paths[i])
			}
			cmp, err := replay.Compare(rps[0], rps[1])
			if err != nil || cmp.First == nil {
				t.Fatalf("the pair: %+v, %v", cmp, err)
			}
			first := cmp.First.Exchange
			srv := httptest.NewServer((&view.Server{Source: &view.Files{Paths: []string{dir}, Lookup: lookup}, Lookup: lookup}).Handler())
			defer srv.Close()

			b.Do(t, chromedp.Navigate(pairPage(srv.URL, paths[0], paths[1])), chromedp.WaitVisible(chromedp.CSS(`[data-testid=pair-summary]`)))
			summary := get(t, b, chromedp.Text(chromedp.CSS(`[data-testid=pair-summary]`)))
			if want := fmt.Sprintf("They part at exchange %d (step %d), turn %d", first, first+1, cmp.First.Turn); !strings.Contains(summary, want) || !strings.Contains(summary, "the answers differ") {
				t.Errorf("the summary says %q; want %q", summary, want)
			}
			// Opened where they part: each side at that exchange, outlined, with why.
			if got := sideSteps(t, b); len(got) != 2 || got[0] != fmt.Sprint(first+1) || got[1] != fmt.Sprint(first+1) {
				t.Errorf("opened with the sides at steps %q; want both at %d", got, first+1)
			}
			if n := get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=parted]").length`)); n != 2 {
				t.Errorf("%d sides outline the parting; want 2", n)
			}
			mark := get(t, b, chromedp.AttributeValue(chromedp.CSS(`[data-testid=first-difference]`), "data-step"))
			if !mark.Exists || mark.Value != fmt.Sprint(currentStep(t, b)) {
				t.Errorf("the timeline's mark is at %q, the page at %d", mark.Value, currentStep(t, b))
			}
			for side := range 2 {
				if n := get(t, b, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll('[data-testid=board][data-side="%d"] %s').length`, side, c.board))); n == 0 {
					t.Errorf("side %d's board draws no %s", side, c.board)
				}
			}
			b.Screenshot(t, "viewer-compare-"+c.name+".png")
			// One slider moves both: before they part, both at the same step.
			b.Do(t, key(kb.Home), key(kb.ArrowRight), key(kb.ArrowRight), key(kb.ArrowRight))
			stepAfter(t, b, 3)
			if got := sideSteps(t, b); got[0] != "3" || got[1] != "3" {
				t.Errorf("three steps in, the sides are at %q", got)
			}
			// At the end each side is at its own end, its scores its result's.
			b.Do(t, key(kb.End))
			for side, rp := range rps {
				want := fmt.Sprint(len(rp.Exchanges))
				if got := sideSteps(t, b); got[side] != want {
					t.Errorf("at the end side %d is at step %s; want %s", side, got[side], want)
				}
				for i, p := range rp.Result.Players {
					s := get(t, b, chromedp.Text(chromedp.CSS(fmt.Sprintf(`[data-testid=scoreboard][data-side="%d"] [data-testid=score][data-player="%d"]`, side, i))))
					if got := parseScore(t, s); !near([]float64{got}, []float64{p.Score}) {
						t.Errorf("side %d player %d shows %v at the end; its result is %v", side, i, got, p.Score)
					}
				}
			}
			// Clicking the mark goes back to the parting.
			b.Do(t, chromedp.Click(chromedp.CSS(`[data-testid=first-difference]`)))
			if got := sideSteps(t, b); got[0] != fmt.Sprint(first+1) {
				t.Errorf("the mark clicked: side A at step %s; want %d", got[0], first+1)
			}
			browsertest.CheckInert(t, b, 1+len(games.All()), hostile)

			// The list offers the two to compare.
			b.Do(t, chromedp.Navigate(srv.URL+"/?list"+c.name+"#/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=compare-link]`)),
				chromedp.Click(chromedp.CSS(`[data-testid=compare-link]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=pair-summary]`)))
			if n := get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=side]").length`)); n != 2 {
				t.Errorf("the list's comparison shows %d sides", n)
			}
		})
	}
	// Two matches of different games: refused, saying so.
	dir := t.TempDir()
	a, l := filepath.Join("testdata", "pair", "amazes-a.jsonl"), filepath.Join("testdata", "pair", "langwars-a.jsonl")
	abs := func(p string) string { s, _ := filepath.Abs(p); return s }
	srv2 := httptest.NewServer((&view.Server{Source: &view.Files{Paths: []string{abs(a), abs(l)}, Lookup: games.Lookup}, Lookup: games.Lookup}).Handler())
	defer srv2.Close()
	b.Do(t, chromedp.Navigate(pairPage(srv2.URL, abs(a), abs(l))), chromedp.WaitVisible(chromedp.CSS(`[data-testid=error]`)))
	b.DropErrors(func(m string) bool { return strings.Contains(m, "422 (Unprocessable Entity)") })
	if msg := get(t, b, chromedp.Text(chromedp.CSS(`[data-testid=error]`))); !strings.Contains(msg, "games amazes and langwars") {
		t.Errorf("two games compared: %q", msg)
	}
	// The self-contained page (judge replay diff --html) from disk.
	p, err := view.MakePair(readReplay(t, a), readReplay(t, filepath.Join("testdata", "pair", "amazes-b.jsonl")), [2]string{"a.jsonl", "b.jsonl"}, games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "both.html")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := view.WritePairHTML(f, p, view.PageOptions{}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	b.Do(t, chromedp.Navigate("file://"+out), chromedp.WaitVisible(chromedp.CSS(`[data-testid=board][data-side="1"] svg`)))
	if got := sideSteps(t, b); len(got) != 2 || got[0] != fmt.Sprint(p.Comparison.First.Exchange+1) {
		t.Errorf("the page on its own opened at %q", got)
	}
	b.CheckLocal(t)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A tournament's standings above the list show each entrant's rank (entrants level sharing
// one), not a count beside it.
func TestStandingsShowTheirRanks(t *testing.T) {
	b := newBrowser(t)
	rows := `[{"rank":1,"name":"a","points":9,"score":1},{"rank":1,"name":"b","points":9,"score":1},{"rank":3,"name":"c","points":4,"score":0}]`
	srv := httptest.NewServer((&view.Server{Source: &view.Files{Paths: []string{t.TempDir()}}, Lookup: games.Lookup, Standings: json.RawMessage(rows)}).Handler())
	defer srv.Close()
	b.Do(t, chromedp.Navigate(srv.URL+"/#/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=standings]`)))
	ranks := get(t, b, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-testid=standing-rank]")].map((e) => e.textContent)`))
	heads := get(t, b, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-testid=standings] th")].map((e) => e.textContent)`))
	if strings.Join(ranks, ",") != "1,1,3" || heads[0] != "rank" || slices.Contains(heads[1:], "rank") {
		t.Errorf("the standings' ranks %q under %q; want 1,1,3 in one rank column", ranks, heads)
	}
	b.CheckLocal(t)
}
