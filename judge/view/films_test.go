package view_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/view"
)

// A film is made once while kept (an added game's is a container and a whole match): asked
// again, or by many at once, its game is looked up once; the least recently watched go
// beyond the bound; a film with a problem (its game out of reach) is made again.
func TestFilmsAreMadeOnce(t *testing.T) {
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join("testdata", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	amazes, snake, ontherun := read("amazes"), read("snakecore"), read("ontherun")
	// What a film holds: its replay and its pictures.
	size := func(data []byte) int64 {
		f, err := view.Read(bytes.NewReader(data), games.Lookup)
		if err != nil {
			t.Fatal(err)
		}
		n := int64(len(data))
		for _, fr := range f.Frames {
			n += int64(len(fr))
		}
		return n
	}
	three := size(amazes) + size(snake) + size(ontherun)
	var looked atomic.Int32
	reachable := atomic.Bool{}
	reachable.Store(true)
	lookup := func(key string) (game.Game, bool) {
		looked.Add(1)
		if !reachable.Load() {
			return nil, false
		}
		return games.Lookup(key)
	}
	for _, tc := range []struct {
		name      string
		max       int64
		reach     bool
		reads     [][]byte
		wantLooks int32
	}{
		{"the same replay twice", 0, true, [][]byte{amazes, amazes}, 1},
		{"two replays, each twice", 0, true, [][]byte{amazes, snake, amazes, snake}, 2},
		{"beyond the bound the oldest goes", three - 1, true, [][]byte{amazes, snake, ontherun, amazes}, 4},
		{"the newest watched stays", three - 1, true, [][]byte{amazes, snake, amazes, ontherun, amazes}, 3},
		{"larger than the bound: never kept", 100, true, [][]byte{amazes, amazes}, 2},
		{"a film with a problem is made again", 0, false, [][]byte{amazes, amazes}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			looked.Store(0)
			reachable.Store(tc.reach)
			films := &view.Films{Lookup: lookup, MaxBytes: tc.max}
			for i, data := range tc.reads {
				f, err := films.Read(data)
				if err != nil || (tc.reach && (f.Problem != "" || len(f.Frames) == 0)) {
					t.Fatalf("read %d: %v %+v", i, err, f.Problem)
				}
			}
			if got := looked.Load(); got != tc.wantLooks {
				t.Errorf("the game was looked up %d times, want %d", got, tc.wantLooks)
			}
		})
	}

	looked.Store(0)
	reachable.Store(true)
	films := &view.Films{Lookup: lookup}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if f, err := films.Read(snake); err != nil || f.Problem != "" {
				t.Errorf("read at once: %v %v", err, f)
			}
		})
	}
	wg.Wait()
	if got := looked.Load(); got != 1 {
		t.Errorf("8 at once: the game was looked up %d times, want 1", got)
	}
	if _, err := films.Read([]byte("not a replay\n")); err == nil {
		t.Error("a file that is not a replay: no error")
	}
}
