package daemon

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
)

// A job becomes the match it asks for, every seat in its order: a two-player game's and a
// four-player game's.
func TestMatchJob(t *testing.T) {
	for _, tc := range []struct {
		game string
		opts map[string]string
		n    int
	}{
		{"amazes", map[string]string{"turns": "150"}, 2},
		{"langwars", map[string]string{"turns": "10"}, 4},
	} {
		t.Run(tc.game, func(t *testing.T) {
			seed := uint64(3)
			langs := []string{"cpp", "go", "java", "pascal"}
			var players []job.Player
			for i := range tc.n {
				name := fmt.Sprintf("p%d", i)
				players = append(players, job.NewPlayer(name, langs[i], map[string][]byte{name + ".src": []byte(name)}))
			}
			j := job.New("m1", tc.game, &seed, tc.opts, players)
			g, _ := games.Lookup(tc.game)
			m, err := matchJob(j, g, 99)
			if err != nil || m.ID != "m1" || m.Game.Name() != tc.game || m.Seed != 3 || !maps.Equal(m.Options, tc.opts) || len(m.Players) != tc.n {
				t.Fatalf("match job %+v, %v", m, err)
			}
			for i, p := range m.Players {
				name := fmt.Sprintf("p%d", i)
				if p.Name != name || p.Submission.Lang != langs[i] || string(p.Submission.Files[name+".src"]) != name {
					t.Errorf("seat %d: %s in %s with %v; want %s in %s", i, p.Name, p.Submission.Lang, p.Submission.Files, name, langs[i])
				}
			}
			j.Seed = nil
			if m, err := matchJob(j, g, 99); err != nil || m.Seed != 99 {
				t.Errorf("without a seed: seed %d, %v; want 99", m.Seed, err)
			}
		})
	}
}

// A back-off ends when the daemon stops, not when its time is up.
func TestSleepEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	start := time.Now()
	if sleep(ctx, time.Hour) || time.Since(start) > time.Second {
		t.Errorf("sleep on a cancelled context: reported the time passed, or took %v", time.Since(start))
	}
	if !sleep(t.Context(), time.Millisecond) {
		t.Error("a short sleep did not report its time passed")
	}
}
