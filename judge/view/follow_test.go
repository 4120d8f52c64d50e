package view_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/botjudge/judge/judge/games"
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
