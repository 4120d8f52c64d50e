package snakecore

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
)

// The conformance suite, with the page's numbers: a 30 x 30 field, 500 moves, 15 s for getName
// and 1 s for each move.
func TestConformance(t *testing.T) {
	words := []string{"getName", "N", "E", "S", "W", "U", "D", "L", "R", "1", "2", "-1", "python"}
	gametest.Conformance(t, New(), gametest.Case{Words: words, Seeds: 14, Defaults: "size=30 walls=6 moves=500 players=4 first=15s time=1s total=2m memory=256"})
}

func FuzzAnswers(f *testing.F) { gametest.FuzzAnswers(f, New(), "bot", "N", "E 1") }

// TestProtocol plays a short game and checks every request: getName first for every
// player, then getAction in id order, each showing the field and the pythons (the asking
// player's first) exactly as the state has them, with the page's time limits.
func TestProtocol(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 5, Players: 3, Options: map[string]string{"moves": "4"}})
	var log []string
	var prev string
	gametest.Drive(t, m, func(req game.Request) game.Reply {
		log = append(log, fmt.Sprintf("%d/%d", req.Player, req.Turn))
		if req.Expect != 1 || req.Ready != "" {
			t.Fatalf("request %+v", req)
		}
		if req.Turn == 0 {
			if req.Send != "getName\n" || req.Limit != 15*time.Second {
				t.Fatalf("first request %q, limit %v", req.Send, req.Limit)
			}
			return game.Reply{Lines: []string{fmt.Sprintf(" bot %d ", req.Player)}}
		}
		if req.Limit != time.Second {
			t.Fatalf("getAction limit %v", req.Limit)
		}
		a := parse(t, req.Send)
		if a.Size != 30 || len(a.Pythons) != 3 {
			t.Fatalf("size %d, %d pythons", a.Size, len(a.Pythons))
		}
		// The request is the state: rows, and the pythons in the order asker, then ids.
		if !slices.Equal(a.Rows, m.st.rows()) {
			t.Fatal("rows differ from the state")
		}
		order := []int{req.Player}
		for q := range 3 {
			if q != req.Player {
				order = append(order, q)
			}
		}
		for k, q := range order {
			if got, want := pythonString(a.Pythons[k].Protection, a.Pythons[k].Parts), pythonOf(m.st, q); got != want {
				t.Fatalf("python line %d: %s, want python %d %s", k, got, q, want)
			}
		}
		if req.Send == prev {
			t.Fatal("the same request twice: moves are not applied in turn")
		}
		prev = req.Send
		return game.Reply{Lines: []string{"R"}}
	})
	want := []string{"0/0", "1/0", "2/0"}
	for r := 1; r <= 4; r++ {
		for p := range 3 {
			want = append(want, fmt.Sprintf("%d/%d", p, r))
		}
	}
	if !slices.Equal(log, want) {
		t.Fatalf("requests %v, want %v", log, want)
	}
	if !slices.Equal(m.names, []string{"bot 0", "bot 1", "bot 2"}) {
		t.Fatalf("names %q", m.names)
	}
}

func pythonString(prot int, parts any) string { return fmt.Sprint(prot, parts) }

func pythonOf(s *state, q int) string {
	type pt = struct{ X, Y int }
	py := s.pythons[q]
	parts := []pt{{py.head % s.n, py.head / s.n}}
	for _, b := range py.body {
		parts = append(parts, pt{b.at % s.n, b.at / s.n})
	}
	return fmt.Sprint(py.prot, parts)
}

func TestRequestText(t *testing.T) {
	s := pic(t, []string{
		"Rpbe",
		"W...",
		"..p.",
		"....",
	}, "1,0 2,0 3,0", "2,2")
	s.pythons[0].prot = 7
	want := "getAction\n4\nRpbe\nW...\n..p.\n....\n7 3 1 0 2 0 3 0\n0 1 2 2\n"
	if got := s.request(0); got != want {
		t.Fatalf("request for 0:\n%s\nwant\n%s", got, want)
	}
	want = "getAction\n4\nRpbe\nW...\n..p.\n....\n0 1 2 2\n7 3 1 0 2 0 3 0\n"
	if got := s.request(1); got != want {
		t.Fatalf("request for 1:\n%s\nwant\n%s", got, want)
	}
}

// TestTimeLimits: the first answer may take 15 s, later ones 1 s, all together 2 min; each
// limit is the smaller of the per-answer limit and what is left of the total.
func TestTimeLimits(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 1, Players: 2, Options: map[string]string{"moves": "5", "total": "3s", "first": "15s", "time": "1s"}})
	cpu := map[string]time.Duration{"0/0": 2500 * time.Millisecond, "0/1": 300 * time.Millisecond, "0/2": 200 * time.Millisecond}
	var limits []string
	gametest.Drive(t, m, func(req game.Request) game.Reply {
		if req.Player == 0 {
			limits = append(limits, req.Limit.String())
		}
		line := "N"
		if req.Turn == 0 {
			line = "x"
		}
		return game.Reply{Lines: []string{line}, CPU: cpu[fmt.Sprintf("%d/%d", req.Player, req.Turn)]}
	})
	want := []string{"3s", "500ms", "200ms", "1ns", "1ns", "1ns"}
	if !slices.Equal(limits, want) {
		t.Fatalf("limits %v, want %v", limits, want)
	}
	// Defaults.
	m = gametest.Match[*match](t, New(), game.Config{Seed: 1, Players: 2})
	req, _ := m.Next()
	if req.Limit != 15*time.Second {
		t.Fatalf("first limit %v", req.Limit)
	}
	m.Reply(game.Reply{Lines: []string{"a"}, CPU: 14 * time.Second})
	m.Next()
	m.Reply(game.Reply{Lines: []string{"b"}})
	if req, _ = m.Next(); req.Limit != time.Second {
		t.Fatalf("later limit %v", req.Limit)
	}
	if m.cfg.total != 2*time.Minute {
		t.Fatalf("total %v", m.cfg.total)
	}
}

// TestFaults: whatever goes wrong disqualifies the player; its python stays where it is and
// is never asked again, the others play on, and it keeps its score.
func TestFaults(t *testing.T) {
	timeout := &game.Fault{Kind: game.Timeout, Turn: 3, Detail: "no answer after 1000 ms CPU"}
	for _, c := range []struct {
		name  string
		turn  int
		reply game.Reply
		kind  game.FaultKind
	}{
		{"a name too long", 0, game.Reply{Lines: []string{strings.Repeat("n", 33)}}, game.Protocol},
		{"a control character in the name", 0, game.Reply{Lines: []string{"a\tb"}}, game.Protocol},
		{"the referee's fault on getName", 0, game.Reply{Fault: &game.Fault{Kind: game.CompileError, Detail: "x"}}, game.CompileError},
		{"no action", 3, game.Reply{Lines: []string{""}}, game.Protocol},
		{"two letters", 3, game.Reply{Lines: []string{"UU"}}, game.Protocol},
		{"a lowercase action", 3, game.Reply{Lines: []string{"u"}}, game.Protocol},
		{"garbage", 3, game.Reply{Lines: []string{"move up"}}, game.Protocol},
		{"no line", 3, game.Reply{}, game.Protocol},
		{"a timeout", 3, game.Reply{Fault: timeout}, game.Timeout},
		{"a crash", 3, game.Reply{Fault: &game.Fault{Kind: game.Crash, Turn: 3, Detail: "exited"}}, game.Crash},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := gametest.Match[*match](t, New(), game.Config{Seed: 3, Players: 4, Options: map[string]string{"moves": "30"}})
			var frozen int
			asked := 0
			log := gametest.Drive(t, m, func(req game.Request) game.Reply {
				if req.Player == 1 {
					asked++
					if req.Turn == c.turn {
						frozen = m.st.pythons[1].head
						return c.reply
					}
					if req.Turn > c.turn {
						t.Fatalf("the disqualified player is asked at turn %d", req.Turn)
					}
				}
				return answerAll(t)(req)
			})
			res := m.Result()
			f := res.Faults[1]
			if f == nil || f.Kind != c.kind || f.Turn != c.turn {
				t.Fatalf("fault %+v, want %s at turn %d", f, c.kind, c.turn)
			}
			for p, f := range res.Faults {
				if p != 1 && f != nil {
					t.Fatalf("player %d faulted: %v", p, f)
				}
			}
			// It may be bitten, but its head never moves again.
			if m.st.pythons[1].head != frozen {
				t.Fatalf("the disqualified python moved from cell %d to %d", frozen, m.st.pythons[1].head)
			}
			if asked != c.turn+1 {
				t.Fatalf("player 1 asked %d times", asked)
			}
			for _, x := range log {
				if x.Request.Player == 1 && x.Request.Turn == c.turn && !reflect.DeepEqual(x.Verdict, f) {
					t.Fatalf("verdict %v, result fault %v", x.Verdict, f)
				}
			}
			for p := range 4 {
				if m.played[p] != 30 {
					t.Fatalf("player %d had %d turns, want 30", p, m.played[p])
				}
			}
		})
	}
}

// TestDisqualifiedPythonStays: a python disqualified while protected and carrying blocks
// stays on the field, its turns pass (its protection runs out) and others can bite it.
func TestDisqualifiedPythonStays(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 1, Players: 2, Options: map[string]string{"moves": "40"}})
	s := pic(t, []string{
		"......",
		"..p...",
		".bbbbp",
		"......",
		"......",
		"R.....",
	}, "2,1", "5,2 4,2 3,2 2,2 1,2")
	s.pythons[1].prot = 3
	s.rng = m.st.rng
	m.st = s
	var prot []int
	var heads []string
	gametest.Drive(t, m, func(req game.Request) game.Reply {
		if req.Turn == 0 {
			return game.Reply{Lines: []string{"n"}}
		}
		if req.Player == 1 {
			return game.Reply{Fault: &game.Fault{Kind: game.Timeout, Turn: req.Turn}}
		}
		a := parse(t, req.Send)
		if req.Turn <= 5 {
			prot = append(prot, a.Pythons[1].Protection)
			heads = append(heads, fmt.Sprint(a.Pythons[0].Parts[0]))
		}
		if a.Pythons[1].Parts[0].X != 5 || a.Pythons[1].Parts[0].Y != 2 {
			t.Fatalf("python 1's head moved: %v", a.Pythons[1].Parts)
		}
		if req.Turn <= 4 {
			return game.Reply{Lines: []string{"D"}}
		}
		return game.Reply{Lines: []string{"N"}}
	})
	// Protected with 3, 2, 1 moves left as its turns pass: the bites are skips; then the
	// bite at turn 4 takes its last two blocks.
	if want := []int{3, 2, 1, 0, 0}; !slices.Equal(prot, want) {
		t.Fatalf("protection seen %v, want %v", prot, want)
	}
	if want := []string{"{2 1}", "{2 1}", "{2 1}", "{2 1}", "{2 2}"}; !slices.Equal(heads, want) {
		t.Fatalf("python 0's head %v, want %v", heads, want)
	}
	if got := cells(s, 1); got != "5,2 4,2 3,2" {
		t.Fatalf("python 1 is %s after the bite, want 5,2 4,2 3,2", got)
	}
	if s.pythons[0].score != 2 {
		t.Fatalf("the bite scored %d, want 2", s.pythons[0].score)
	}
	if res := m.Result(); res.Faults[1] == nil || res.Winner == nil || *res.Winner != 0 {
		t.Fatalf("result %+v", res)
	}
}

func TestRanks(t *testing.T) {
	for _, c := range []struct {
		scores []int
		ranks  []int
		winner int // -1: a draw
	}{
		{[]int{5, 5, 3}, []int{1, 1, 3}, -1},
		{[]int{1, 7, 3, 7}, []int{4, 1, 3, 1}, -1},
		{[]int{1, 7, 3, 0}, []int{3, 1, 2, 4}, 1},
		{[]int{0, 0}, []int{1, 1}, -1},
		{[]int{21, 0, 0, 0, 0, 0, 0, 3}, []int{1, 3, 3, 3, 3, 3, 3, 2}, 0},
	} {
		m := gametest.Match[*match](t, New(), game.Config{Seed: 1, Players: len(c.scores)})
		for p, v := range c.scores {
			m.st.pythons[p].score = v
		}
		res := m.Result()
		if !slices.Equal(res.Ranks, c.ranks) {
			t.Errorf("scores %v: ranks %v, want %v", c.scores, res.Ranks, c.ranks)
		}
		if (res.Winner == nil) != (c.winner < 0) || res.Winner != nil && *res.Winner != c.winner {
			t.Errorf("scores %v: winner %v, want %d", c.scores, res.Winner, c.winner)
		}
	}
}

// TestDeterminism: the same seed and answers give the same game; another seed another.
func TestDeterminism(t *testing.T) {
	play := func(seed uint64) ([]string, game.Result) {
		m := gametest.Match[*match](t, New(), game.Config{Seed: seed, Players: 4, Options: map[string]string{"moves": "300"}})
		var sent []string
		gametest.Drive(t, m, func(req game.Request) game.Reply {
			sent = append(sent, req.Send)
			return answerAll(t)(req)
		})
		return sent, m.Result()
	}
	a, ra := play(11)
	b, rb := play(11)
	c, _ := play(12)
	if !slices.Equal(a, b) || !reflect.DeepEqual(ra, rb) {
		t.Fatal("the same seed played two games")
	}
	if slices.Equal(a, c) {
		t.Fatal("two seeds played the same game")
	}
	total := 0.0
	for _, s := range ra.Scores {
		total += s
	}
	if total == 0 {
		t.Fatal("300 moves of greedy bots scored nothing")
	}
}

// TestFullGame plays the default game with greedy bots: all answer, the blocks are
// conserved, the greedy bots grow, bite, protect and deliver.
func TestFullGame(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 77, Players: 4})
	seen := map[outcome]int{}
	answer := answerAll(t)
	requests := 0
	for {
		req, done := m.Next()
		if done {
			break
		}
		requests++
		if f := m.Reply(answer(req)); f != nil {
			t.Fatalf("fault %v", f)
		}
		if req.Turn > 0 {
			seen[m.last]++
		}
	}
	if requests != 4+4*500 {
		t.Fatalf("%d requests, want %d", requests, 4+4*500)
	}
	for _, o := range []outcome{moved, grew, attacked, delivered, protected} {
		if seen[o] == 0 {
			t.Errorf("no %s in a game of greedy bots: %v", o, seen)
		}
	}
	check(t, m.st)
	if o, e := m.st.blocks(); o != numOrdinary || e != numEnergy {
		t.Fatalf("blocks %d+%d", o, e)
	}
	res := m.Result()
	t.Logf("scores %v ranks %v; moves %v", res.Scores, res.Ranks, seen)
}

func TestOptions(t *testing.T) {
	g := New()
	m, err := g.New(game.Config{Seed: 1, Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	s := m.Setup()
	want := map[string]string{"size": "30", "walls": "6", "moves": "500", "players": "4", "first": "15s", "time": "1s", "total": "2m", "memory": "256"}
	if !reflect.DeepEqual(s.Options, want) {
		t.Fatalf("options %v, want %v", s.Options, want)
	}
	if s.Memory != 256<<20 {
		t.Fatalf("memory %d", s.Memory)
	}
	w := s.World.(World)
	if w.Size != 30 || len(w.Rows) != 30 || len(w.Starts) != 4 {
		t.Fatalf("world %+v", w)
	}
	// The options recreate the match.
	again, err := g.New(game.Config{Seed: 1, Players: 4, Options: s.Options})
	if err != nil || !reflect.DeepEqual(again.Setup().World, s.World) {
		t.Fatalf("options do not recreate the match: %v", err)
	}

	m, err = g.New(game.Config{Seed: 1, Players: 3, Options: map[string]string{
		"size": "12", "walls": "0", "moves": "7", "players": "3", "first": "2s", "time": "50ms", "total": "5s", "memory": "64"}})
	if err != nil {
		t.Fatal(err)
	}
	mm := m.(*match)
	if mm.cfg != (config{players: 3, size: 12, walls: 0, moves: 7, first: 2 * time.Second, time: 50 * time.Millisecond, total: 5 * time.Second}) || mm.Setup().Memory != 64<<20 {
		t.Fatalf("config %+v", mm.cfg)
	}
	if got := strings.Count(strings.Join(mm.st.rows(), ""), "W"); got != 0 {
		t.Fatalf("%d walls with walls=0", got)
	}
	// The option confirms the referee's count.
	if m, err := g.New(game.Config{Seed: 1, Players: 6, Options: map[string]string{"players": "6"}}); err != nil || len(m.(*match).st.pythons) != 6 {
		t.Fatalf("players option: %v", err)
	}

	for _, c := range []struct {
		players int
		opts    map[string]string
		option  string
	}{
		{4, map[string]string{"size": "9"}, "size"},
		{4, map[string]string{"size": "101"}, "size"},
		{4, map[string]string{"size": "x"}, "size"},
		{4, map[string]string{"walls": "31"}, "walls"},
		{4, map[string]string{"walls": "-1"}, "walls"},
		{4, map[string]string{"moves": "0"}, "moves"},
		{4, map[string]string{"first": "soon"}, "first"},
		{4, map[string]string{"time": "0s"}, "time"},
		{4, map[string]string{"total": "2h"}, "total"},
		{4, map[string]string{"memory": "8"}, "memory"},
		{4, map[string]string{"players": "3"}, "players"},
		{4, map[string]string{"players": "9"}, "players"},
		{8, map[string]string{"size": "10", "walls": "25"}, "size"},
		{4, map[string]string{"colour": "red"}, "colour"},
	} {
		_, err := g.New(game.Config{Seed: 1, Players: c.players, Options: c.opts})
		var oe *game.OptionError
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), c.option) {
			t.Errorf("%v: error %v, want an option error naming %s", c.opts, err, c.option)
		}
	}
	for _, n := range []int{1, 9} {
		if _, err := g.New(game.Config{Seed: 1, Players: n}); err == nil {
			t.Errorf("%d players accepted", n)
		}
	}
}

// TestNoPanicOnHostileAnswers feeds odd answers; the game never panics and never asks a
// disqualified player again.
func TestNoPanicOnHostileAnswers(t *testing.T) {
	answers := []string{"", " ", "U", " D ", "A\r", "ULDR", "\x00", "é", strings.Repeat("x", 5000), "N N", "R"}
	m := gametest.Match[*match](t, New(), game.Config{Seed: 9, Players: 8, Options: map[string]string{"moves": "60", "size": "10"}})
	k := 0
	out := map[int]bool{}
	gametest.Drive(t, m, func(req game.Request) game.Reply {
		if out[req.Player] {
			t.Fatalf("player %d asked after its fault", req.Player)
		}
		k++
		r := game.Reply{Lines: []string{answers[k%len(answers)]}}
		if k%13 == 0 {
			r.Lines = append(r.Lines, "extra")
		}
		return r
	})
	res := m.Result()
	if len(res.Scores) != 8 {
		t.Fatal(res)
	}
	check(t, m.st)
}

// TestAnswerWhitespace: surrounding ASCII whitespace (spaces, tabs, "\r", "\v", "\f") around
// an action is ignored, as game.TrimLine says; a Unicode space such as U+00A0 or U+2003 is
// part of the answer, which then is no action: a protocol fault, and the player is
// disqualified (its python stays and skips every later move).
func TestAnswerWhitespace(t *testing.T) {
	for _, c := range gametest.Whitespace("R") {
		t.Run(c.Name, func(t *testing.T) {
			m := gametest.Match[*match](t, New(), game.Config{Seed: 1, Players: 2, Options: map[string]string{"moves": "3"}})
			s := pic(t, []string{
				"......",
				".p....",
				"......",
				"......",
				"....p.",
				"R.....",
			}, "1,1", "4,4")
			s.rng = m.st.rng
			m.st = s
			var heads []string
			log := gametest.Drive(t, m, func(req game.Request) game.Reply {
				switch {
				case req.Turn == 0:
					return game.Reply{Lines: []string{"bot"}}
				case req.Player == 1:
					return game.Reply{Lines: []string{"N"}}
				case req.Turn == 1:
					return game.Reply{Lines: []string{c.Line}}
				}
				heads = append(heads, cells(m.st, 0))
				return game.Reply{Lines: []string{"N"}}
			})
			var f *game.Fault
			for _, x := range log {
				if x.Request.Player == 0 && x.Request.Turn == 1 {
					f = x.Verdict
				}
			}
			if c.Same {
				if f != nil || m.Result().Faults[0] != nil {
					t.Fatalf("%q judged %v", c.Line, f)
				}
				if got := cells(m.st, 0); got != "2,1" || len(heads) != 2 {
					t.Fatalf("%q: python 0 at %s, asked %d more times; want it moved right to 2,1", c.Line, got, len(heads))
				}
				return
			}
			if f == nil || f.Kind != game.Protocol || f.Turn != 1 || !strings.Contains(f.Detail, "is not an action") {
				t.Fatalf("%q: fault %+v, want a protocol fault at turn 1", c.Line, f)
			}
			if res := m.Result(); res.Faults[0] != f {
				t.Fatalf("%q: result faults %v", c.Line, res.Faults)
			}
			if got := cells(m.st, 0); got != "1,1" || len(heads) != 0 {
				t.Fatalf("%q: python 0 at %s, asked %d more times; want it disqualified at 1,1", c.Line, got, len(heads))
			}
		})
	}
}
