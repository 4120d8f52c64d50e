package game

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestRankByScore(t *testing.T) {
	for _, tc := range []struct {
		scores []float64
		ranks  []int
		winner int // -1 for a draw
	}{
		{[]float64{3, 1, 2}, []int{1, 3, 2}, 0},
		{[]float64{5, 5, 1}, []int{1, 1, 3}, -1},
		{[]float64{0, 2, 2, 1}, []int{4, 1, 1, 3}, -1},
		{[]float64{1, 1, 1, 1}, []int{1, 1, 1, 1}, -1},
		{[]float64{-1, 0}, []int{2, 1}, 1},
	} {
		ranks := RankByScore(tc.scores)
		if !reflect.DeepEqual(ranks, tc.ranks) {
			t.Errorf("RankByScore(%v) = %v, want %v", tc.scores, ranks, tc.ranks)
		}
		w := UniqueWinner(ranks)
		if (w == nil) != (tc.winner < 0) || w != nil && *w != tc.winner {
			t.Errorf("UniqueWinner(%v) = %v, want %d", ranks, w, tc.winner)
		}
	}
}

// The declared options of a game like Amazes, for TestOptions.
var (
	turnsOpt  = IntOption{Name: "turns", Default: 150, Min: 1, Max: 150, Help: "turns per player"}
	timeOpt   = DurationOption{Name: "time", Default: time.Second, Min: time.Millisecond, Max: time.Minute, Help: "CPU time"}
	memoryOpt = MemoryOption{DefaultMiB: 256}
	mazeOpt   = TextOption{Name: "maze", Help: "a maze"}
)

func TestOptions(t *testing.T) {
	o := NewOptions(map[string]string{"turns": "12", "time": "2s", "memory": "64"})
	if v := turnsOpt.Read(o); v != 12 {
		t.Errorf("turns %d", v)
	}
	if v := timeOpt.Read(o); v != 2*time.Second {
		t.Errorf("time %v", v)
	}
	if v := memoryOpt.Read(o); v != 64<<20 {
		t.Errorf("memory %d", v)
	}
	if v := mazeOpt.Read(o); v != "" {
		t.Errorf("maze %q", v)
	}
	if err := o.Err(); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"turns": "12", "time": "2s", "memory": "64", "maze": ""}; !reflect.DeepEqual(o.Values, want) {
		t.Errorf("values %v, want %v", o.Values, want)
	}

	for _, tc := range []struct {
		raw     map[string]string
		mention string
	}{
		{map[string]string{"turns": "many"}, "option turns"},
		{map[string]string{"turns": "151"}, "out of range 1..150"},
		{map[string]string{"turns": "12x"}, "not an integer"},
		{map[string]string{"turns": "+12"}, "not an integer"},
		{map[string]string{"turns": "012"}, "not an integer"},
		{map[string]string{"time": "soon"}, "option time"},
		{map[string]string{"time": "2m"}, "out of range 1ms..1m"},
		{map[string]string{"memory": "8"}, "option memory"},
		{map[string]string{"colour": "red"}, `unknown option "colour" (known: memory, time, turns)`},
	} {
		o := NewOptions(tc.raw)
		turnsOpt.Read(o)
		timeOpt.Read(o)
		memoryOpt.Read(o)
		var oe *OptionError
		if err := o.Err(); !errors.As(err, &oe) || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("%v: got %v, want an OptionError mentioning %q", tc.raw, err, tc.mention)
		}
	}
}

// A declared option documents exactly what it reads: its default parses back to itself and
// its help gives the range it checks.
func TestDocument(t *testing.T) {
	got := Document(turnsOpt, timeOpt, memoryOpt, mazeOpt,
		DurationOption{Name: "total", Default: 90 * time.Second, Min: time.Second, Max: time.Hour, Help: "in all"})
	want := []Option{
		{"turns", "150", "turns per player, 1..150"},
		{"time", "1s", "CPU time, 1ms..1m"},
		{"memory", "256", fmt.Sprintf("memory per player in MiB, %d..%d", MinMemoryMiB, MaxMemoryMiB)},
		{"maze", "", "a maze"},
		{"total", "1m30s", "in all, 1s..1h"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Document:\n got %q\nwant %q", got, want)
	}
}

type libGame struct{ Game }

func (libGame) Library(lang string) map[string][]byte {
	if lang == "cpp" {
		return map[string][]byte{"Snake.h": []byte("lib")}
	}
	return nil
}

func TestWithLibrary(t *testing.T) {
	files := map[string][]byte{"bot.cpp": []byte("bot"), "Snake.h": []byte("own")}
	got := WithLibrary(libGame{}, "cpp", files)
	if string(got["Snake.h"]) != "lib" || string(got["bot.cpp"]) != "bot" || string(files["Snake.h"]) != "own" {
		t.Errorf("merged %q; the library must replace the submission's file without changing the submission", got)
	}
	if got := WithLibrary(libGame{}, "go", files); !reflect.DeepEqual(got, files) {
		t.Errorf("a language without a library changed the files: %q", got)
	}
}

func TestTrimLineAndFields(t *testing.T) {
	for _, c := range []struct {
		in     string
		trim   string
		fields []string
	}{
		{"F", "F", []string{"F"}},
		{" \tF\r", "F", []string{"F"}},
		{"L\t", "L", []string{"L"}},
		{"\v1 2\f", "1 2", []string{"1", "2"}},
		{"C\t 12\r", "C\t 12", []string{"C", "12"}},
		// Unicode spaces are part of the answer: the game refuses them.
		{"\u00a0F", "\u00a0F", []string{"\u00a0F"}},
		{"1\u20032", "1\u20032", []string{"1\u20032"}},
		{"\x85N", "\x85N", []string{"\x85N"}},
		{" \t\r", "", nil},
	} {
		if got := TrimLine(c.in); got != c.trim {
			t.Errorf("TrimLine(%q) = %q, want %q", c.in, got, c.trim)
		}
		if got := Fields(c.in); !slices.Equal(got, c.fields) {
			t.Errorf("Fields(%q) = %q, want %q", c.in, got, c.fields)
		}
	}
}

// fixed is a game with a player count, for CheckPlayers.
type fixed struct {
	Game
	min, max int
}

func (f fixed) Name() string             { return "g" }
func (f fixed) Players() (int, int, int) { return f.min, f.max, f.min }

func TestCheckPlayers(t *testing.T) {
	for _, c := range []struct {
		min, max, n int
		want        string
	}{
		{2, 2, 2, ""},
		{2, 2, 3, "g takes 2 players, the match has 3"},
		{2, 8, 8, ""},
		{2, 8, 1, "g takes 2 to 8 players, the match has 1"},
		{2, 8, 9, "g takes 2 to 8 players, the match has 9"},
	} {
		err := CheckPlayers(fixed{min: c.min, max: c.max}, c.n)
		if got := fmt.Sprint(err); (err == nil) != (c.want == "") || (err != nil && got != c.want) {
			t.Errorf("%d..%d, %d players: %v; want %q", c.min, c.max, c.n, err, c.want)
		}
	}
}
