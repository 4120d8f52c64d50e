package view_test

import (
	"bufio"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/view"
)

// judge view over the judge's queue lists the matches playing now and follows one live: its
// exchanges reach the page as they are written through the daemon's live tee (a real NATS
// server), its pictures drawn, until its result; for a game of two, a game of four and an
// added game. A
// match no judge plays is 409, said on the page.
func TestViewWatchesLive(t *testing.T) {
	q, err := queue.Open(t.Context(), queue.Options{StoreDir: t.TempDir(), InProcess: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	b := newBrowser(t)
	for _, c := range []struct {
		name  string
		added bool
		board string // what the board draws
	}{{"amazes", false, "svg"}, {"langwars", false, "svg"}, {"added", true, "[data-testid=state]"}} {
		name := c.name
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name+".jsonl")
			lookup := games.Lookup
			if c.added { // Lang Wars' match as an added game's: drawn by the generic view
				version := strings.Repeat("ef", 32)
				_, path = addedReplay(t, version)
				lw, _ := games.Lookup("langwars")
				lookup = func(key string) (game.Game, bool) { return lw, key == "my-game@"+version }
			}
			rp := readReplay(t, path)
			id := "live-" + name
			stop := make(chan struct{})
			defer close(stop)
			s := &view.Server{Source: &view.Stream{Store: q, Bucket: queue.BucketReplays}, Lookup: lookup,
				Live: q, Playing: func() []string { return []string{id} }, Stop: stop}
			srv := httptest.NewServer(s.Handler())
			defer srv.Close()

			tee, done := q.Live(id)
			defer done()
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(make([]byte, 1<<20), 1<<26)
			if !sc.Scan() { // the header first, then the page joins
				t.Fatal("no header")
			}
			fmt.Fprintf(tee, "%s\n", sc.Bytes())
			b.Do(t, chromedp.Navigate(srv.URL+"/?"+name+"#/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=playing-link]`)),
				chromedp.Click(chromedp.CSS(`[data-testid=playing-link]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=live-status][data-over="0"]`)))
			for sc.Scan() {
				fmt.Fprintf(tee, "%s\n", sc.Bytes())
				time.Sleep(2 * time.Millisecond)
			}
			b.Do(t, chromedp.WaitVisible(chromedp.CSS(`[data-testid=live-status][data-over="1"]`)))
			if s := stepAfter(t, b, len(rp.Exchanges)); s != len(rp.Exchanges) {
				t.Errorf("the page is at step %d once the match is over; it had %d exchanges", s, len(rp.Exchanges))
			}
			if n := get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=board] `+c.board+`").length`)); n == 0 {
				t.Errorf("the live match's board draws no %s", c.board)
			}
			live, final := shownScores(t, b, len(rp.Header.Players))
			if want := scoresOf(rp.Result); !near(live, want) || !near(final, want) {
				t.Errorf("the live page shows %v and %v; the result is %v", live, final, want)
			}
		})
	}
	// A match no judge plays: the page says so (the viewer asks again meanwhile).
	srv := httptest.NewServer((&view.Server{Source: &view.Stream{Store: q, Bucket: queue.BucketReplays}, Lookup: games.Lookup, Live: q}).Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL + "/api/live/nobody")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 409 {
		t.Errorf("a match no judge plays: %d", resp.StatusCode)
	}
	b.CheckLocal(t)
}
