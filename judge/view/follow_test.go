package view_test

import (
	"bytes"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/view"
)

// A match followed exchange by exchange has the pictures its whole replay's film has, step
// for step: for every game (two players and four).
func TestFollowDrawsAsTheFilm(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name(), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", g.Name()+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			rp, err := replay.Read(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			film := view.Make(rp, games.Lookup)
			f, first, err := view.Follow(rp.Header, games.Lookup)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if !bytes.Equal(first, film.Frames[film.FrameOf[0]]) {
				t.Fatalf("step 0: %s; the film's %s", first, film.Frames[film.FrameOf[0]])
			}
			for i, x := range rp.Exchanges {
				b, ok := f.Add(x)
				if !ok {
					t.Fatalf("step %d: no picture", i+1)
				}
				if want := film.Frames[film.FrameOf[i+1]]; !bytes.Equal(b, want) {
					t.Fatalf("step %d: %.200s; the film's %.200s", i+1, b, want)
				}
			}
			if _, ok := f.Add(rp.Exchanges[0]); ok {
				t.Error("a picture after the match is over")
			}
		})
	}
}

// A match streamed with its pictures has one "frame" event after its header and one after each
// exchange; one whose game this viewer cannot draw (an added game's referee not at hand, a game
// it does not know) has instead one "problem" event, saying so, and its exchanges all the same.
func TestStreamEventsSayWhyNoPictures(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "langwars.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(bytes.TrimSpace(data), []byte("\n"))
	for _, tc := range []struct {
		name, header string // header: the recorded header's game replaced by this
		frames       int
		problem      string
	}{
		{"known", "", 43, ""},
		{"added", `"game":"mine","game_version":"0123456789abcdef"`, 0, "mine is an added game (version 0123456789ab)"},
		{"unknown", `"game":"mine"`, 0, `this judge does not know the game \"mine\"`}, // as JSON has it
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch := make(chan queue.LiveLine, len(lines))
			for i, l := range lines {
				if i == 0 && tc.header != "" {
					l = bytes.Replace(l, []byte(`"game":"langwars"`), []byte(tc.header), 1)
				}
				ch <- queue.LiveLine{N: i, Data: bytes.TrimSpace(l)}
			}
			close(ch)
			w := httptest.NewRecorder()
			view.StreamEvents(t.Context(), w, ch, view.EventOptions{Frames: true, Lookup: games.Lookup})
			out := w.Body.String()
			if n := strings.Count(out, "event: frame\n"); n != tc.frames {
				t.Errorf("%d frames; want %d", n, tc.frames)
			}
			if n := strings.Count(out, "event: move\n"); n != 42 {
				t.Errorf("%d moves streamed; want 42", n)
			}
			problems := strings.Count(out, "event: problem\n")
			if tc.problem == "" && problems != 0 || tc.problem != "" && (problems != 1 || !strings.Contains(out, tc.problem)) {
				t.Errorf("%d problems; want one saying %q in:\n%.600s", problems, tc.problem, out)
			}
		})
	}
}
