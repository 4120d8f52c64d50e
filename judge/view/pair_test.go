package view_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/view"
)

// The pairs in testdata/pair are real matches on seed 7 with a sample bot, and with that bot
// changed at one turn (a Python bot that turns back at its 21st turn in Amazes; one that puts
// all its picks on language 0 on its fourth day in Lang Wars).
func TestMakePair(t *testing.T) {
	for _, c := range []struct {
		game         string
		first, turn  int
		player       int
		answerB      string
		playersCount int
	}{
		{"amazes", 41, 21, 1, "T", 2},
		{"langwars", 23, 4, 3, "0 0", 4},
	} {
		t.Run(c.game, func(t *testing.T) {
			a := readReplay(t, filepath.Join("testdata", "pair", c.game+"-a.jsonl"))
			b := readReplay(t, filepath.Join("testdata", "pair", c.game+"-b.jsonl"))
			p, err := view.MakePair(a, b, [2]string{"a", "b"}, games.Lookup)
			if err != nil {
				t.Fatal(err)
			}
			d := p.Comparison.First
			if p.Comparison.Same || d == nil || d.Exchange != c.first || d.Turn != c.turn || d.Player != c.player || d.B == nil || *d.B != c.answerB {
				t.Fatalf("the comparison: %+v", p.Comparison)
			}
			for i, f := range []*view.Film{p.A, p.B} {
				if f.Problem != "" || len(f.Mismatch) > 0 || len(f.Frames) == 0 || len(f.Header.Players) != c.playersCount {
					t.Errorf("film %d: problem %q, %d mismatches, %d frames", i, f.Problem, len(f.Mismatch), len(f.Frames))
				}
			}
		})
	}
	// Replays of two matches are refused, naming what differs.
	a := readReplay(t, filepath.Join("testdata", "pair", "amazes-a.jsonl"))
	b := readReplay(t, filepath.Join("testdata", "pair", "langwars-a.jsonl"))
	if _, err := view.MakePair(a, b, [2]string{"a", "b"}, games.Lookup); !errors.Is(err, replay.ErrIncomparable) {
		t.Errorf("amazes beside langwars: %v", err)
	}
}
