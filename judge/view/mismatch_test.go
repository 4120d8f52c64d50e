package view_test

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/view"
)

// tampered writes copies of a real Amazes replay, each edited as a forger would, beside the
// untouched one: its recorded score, and one answer of a move.
func tampered(t *testing.T) (dir string, words map[string][]string) {
	t.Helper()
	good, err := os.ReadFile(filepath.Join("testdata", "amazes.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	edits := map[string][2]string{
		"result.jsonl": {`"score":170`, `"score":175`},
		"move.jsonl":   {`"received":["FFR"]`, `"received":["Q"]`},
	}
	words = map[string][]string{
		"result.jsonl": {`player 0 ("amazes/cpp") score`, "recorded 175, re-judged 170"},
		"move.jsonl":   {"verdict", "recorded the answer accepted", "re-judged protocol at turn 3"},
	}
	for name, e := range edits {
		s := strings.Replace(string(good), e[0], e[1], 1)
		if s == string(good) {
			t.Fatalf("%s: the edit %q found nothing to change", name, e[0])
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "good.jsonl"), good, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, words
}

// TestFilmOfATamperedReplay: the film names what differs, in words; the list marks it.
func TestFilmOfATamperedReplay(t *testing.T) {
	dir, words := tampered(t)
	files := &view.Files{Paths: []string{dir}, Lookup: games.Lookup}
	ms, err := files.Matches(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		name := filepath.Base(m.Key)
		if m.Mismatch != (name != "good.jsonl") {
			t.Errorf("%s: listed with mismatch %v", name, m.Mismatch)
		}
		f, err := os.Open(m.Key)
		if err != nil {
			t.Fatal(err)
		}
		film, err := view.Read(f, games.Lookup)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var said []string
		for _, d := range film.Mismatch {
			said = append(said, d.String())
		}
		text := strings.Join(said, "\n")
		if name == "good.jsonl" {
			if text != "" {
				t.Errorf("the untouched replay's film has differences: %s", text)
			}
			continue
		}
		for _, w := range words[name] {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the film's differences %q do not say %q", name, text, w)
			}
		}
		if strings.Contains(text, "<nil>") {
			t.Errorf("%s: %q", name, text)
		}
	}
}

// TestViewerSaysAReplayLies opens tampered replays in the served viewer and as the
// self-contained page: a banner at the top names each difference, and the list marks them.
func TestViewerSaysAReplayLies(t *testing.T) {
	b := newBrowser(t)
	dir, words := tampered(t)
	srv := httptest.NewServer((&view.Server{Source: &view.Files{Paths: []string{dir}, Lookup: games.Lookup}, Lookup: games.Lookup}).Handler())
	defer srv.Close()

	b.Do(t, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=match]`)))
	marked := get(t, b, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-testid=match]")].filter((r) => r.querySelector("[data-testid=mismatch-mark]")).map((r) => r.cells[0].textContent)`))
	if strings.Join(marked, ",") != "move.jsonl,result.jsonl" {
		t.Errorf("the list marks %v as not re-judging, want move.jsonl and result.jsonl", marked)
	}
	banner := func(t *testing.T, name string) {
		t.Helper()
		text := get(t, b, chromedp.TextContent(chromedp.CSS(`[data-testid=mismatch]`)))
		for _, w := range append(words[name], "does not re-judge") {
			if !strings.Contains(text, w) {
				t.Errorf("the banner says %q, want %q in it", text, w)
			}
		}
		if strings.Contains(text, "<nil>") || strings.Contains(text, "undefined") {
			t.Errorf("the banner says %q", text)
		}
		// Above everything else on the page.
		if top := get(t, b, chromedp.Evaluate[bool](`document.querySelector("[data-testid=mismatch]") === document.getElementById("app").firstElementChild`)); !top {
			t.Error("the banner is not the first thing on the page")
		}
	}
	for name := range words {
		t.Run(name, func(t *testing.T) {
			b.Do(t, chromedp.Navigate(film(srv.URL, filepath.Join(dir, name))), chromedp.WaitVisible(chromedp.CSS(`[data-testid=mismatch]`)))
			banner(t, name)
			out := filepath.Join(t.TempDir(), "page.html")
			f, err := os.Create(out)
			if err != nil {
				t.Fatal(err)
			}
			rp := readReplay(t, filepath.Join(dir, name))
			if err := view.WriteHTML(f, view.Make(rp, games.Lookup)); err != nil {
				t.Fatal(err)
			}
			f.Close()
			b.Do(t, chromedp.Navigate("file://"+out), chromedp.WaitVisible(chromedp.CSS(`[data-testid=mismatch]`)))
			banner(t, name)
		})
	}
	b.Do(t, chromedp.Navigate(film(srv.URL, filepath.Join(dir, "good.jsonl"))), chromedp.WaitVisible(chromedp.CSS(`[data-testid=board] svg`)))
	if n := get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=mismatch]").length`)); n != 0 {
		t.Error("the untouched replay has a banner")
	}
	b.CheckLocal(t)
}
