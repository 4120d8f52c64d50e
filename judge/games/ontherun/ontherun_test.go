package ontherun

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
)

// The conformance suite, with the page's defaults: a map of 200 cities and 5 s of CPU time for
// the whole game.
func TestConformance(t *testing.T) {
	words := []string{"C", "T", "P", "1", "2", "3", "7", "12", "40", "199"}
	gametest.Conformance(t, New(), gametest.Case{Words: words, Defaults: "cities=200 time=5s memory=64 map="})
}

func FuzzAnswers(f *testing.F) { gametest.FuzzAnswers(f, New(), "1", "C 2", "T 3") }

func TestSetup(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 9})
	s := m.Setup()
	want := map[string]string{"cities": "200", "time": "5s", "memory": "64", "map": ""}
	if len(s.Options) != len(want) {
		t.Errorf("options %v", s.Options)
	}
	for k, v := range want {
		if s.Options[k] != v {
			t.Errorf("option %s = %q, want %q", k, s.Options[k], v)
		}
	}
	if s.Memory != 64<<20 {
		t.Errorf("memory %d", s.Memory)
	}
	if len(s.Files) != 2 {
		t.Fatalf("%d file sets", len(s.Files))
	}
	for p, files := range s.Files {
		if len(files) != 1 || string(files["connect.txt"]) != string(m.world.connectTxt()) {
			t.Errorf("player %d files %v", p, files)
		}
	}
	w, ok := s.World.(World)
	if !ok || w.Cities != 200 || len(w.Positions) != 200 || len(w.Connections) != len(m.world.conns) || w.Size != mapSize {
		t.Fatalf("world %T %+v", s.World, s.World)
	}
	if _, err := json.Marshal(s.World); err != nil {
		t.Error(err)
	}
	// The options recreate the match.
	again, err := New().New(game.Config{Seed: 9, Players: 2, Options: s.Options})
	if err != nil || string(again.Setup().Files[0]["connect.txt"]) != string(s.Files[0]["connect.txt"]) {
		t.Errorf("recreating from Setup.Options: %v", err)
	}

	// A supplied map: no coordinates, and the options keep the map.
	m = gametest.Match[*match](t, New(), game.Config{Seed: 9, Options: map[string]string{"map": exampleMap + "junk after END\n", "memory": "256", "time": "2s"}})
	s = m.Setup()
	if s.Memory != 256<<20 || s.Options["map"] != exampleMap+"junk after END\n" || s.Options["time"] != "2s" {
		t.Errorf("setup %+v", s)
	}
	if got := string(s.Files[1]["connect.txt"]); got != exampleMap {
		t.Errorf("connect.txt of a supplied map:\n%s", got)
	}
	w = s.World.(World)
	if w.Cities != 8 || w.Positions != nil || w.Size != 0 || w.Connections[13] != (Connection{Type: "P", A: 1, B: 4}) {
		t.Errorf("world %+v", w)
	}
	js, _ := json.Marshal(w)
	if strings.Contains(string(js), "positions") {
		t.Errorf("world JSON %s", js)
	}
}

func TestCitiesOption(t *testing.T) {
	for _, n := range []int{10, 57} {
		m := gametest.Match[*match](t, New(), game.Config{Seed: 3, Options: map[string]string{"cities": strconv.Itoa(n)}})
		if m.world.n != n {
			t.Errorf("cities=%d made %d cities", n, m.world.n)
		}
	}
}

func TestBadOptions(t *testing.T) {
	for _, c := range []struct {
		opts map[string]string
		want string
	}{
		{map[string]string{"colour": "red"}, `unknown option "colour"`},
		{map[string]string{"cities": "9"}, "cities"},
		{map[string]string{"cities": "201"}, "cities"},
		{map[string]string{"cities": "many"}, "cities"},
		{map[string]string{"time": "five"}, "time"},
		{map[string]string{"time": "0s"}, "time"},
		{map[string]string{"time": "-1s"}, "time"},
		{map[string]string{"memory": "8"}, "memory"},
		{map[string]string{"memory": "64MiB"}, "memory"},
		{map[string]string{"map": "garbage"}, "option map: line 1"},
		{map[string]string{"map": strings.Replace(exampleMap, "C 6-7\n", "", 1)}, "option map: city 7 has 1 car"},
		{map[string]string{"map": strings.TrimSuffix(exampleMap, "END\n")}, "option map: no END"},
	} {
		_, err := New().New(game.Config{Seed: 1, Players: 2, Options: c.opts})
		var oe *game.OptionError
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want an option error containing %q", c.opts, err, c.want)
		}
	}
}

// TestTimeBudget: each request's limit is what the player has left of its total.
func TestTimeBudget(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 1, Options: map[string]string{"map": exampleMap, "time": "2s"}})
	s := script{}
	var limits [2][]time.Duration
	spent := [2]time.Duration{}
	for k := 0; k < 14; k++ {
		req, done := m.Next()
		if done {
			t.Fatal("done early")
		}
		if want := max(2*time.Second-spent[req.Player], time.Nanosecond); req.Limit != want {
			t.Errorf("request %d (player %d): limit %v, want %v", k, req.Player, req.Limit, want)
		}
		limits[req.Player] = append(limits[req.Player], req.Limit)
		var r game.Reply
		if req.Expect > 0 {
			r = s.answer(req)
			// Player 1 spends 700ms a move: after three it has overspent.
			r.CPU = time.Duration(100*(req.Player*6+1)) * time.Millisecond
		}
		spent[req.Player] += r.CPU
		if f := m.Reply(r); f != nil {
			t.Fatal(f)
		}
	}
	if last := limits[detectives][len(limits[detectives])-1]; last != time.Nanosecond {
		t.Errorf("an overspent budget leaves %v", last)
	}
	if limits[fugitive][0] != 2*time.Second {
		t.Errorf("first limit %v", limits[fugitive][0])
	}
}

// TestRefereeOrder: a request expecting lines is repeated until its reply; a notice is passed
// whether or not the referee replies to it; stray replies are ignored.
func TestRefereeOrder(t *testing.T) {
	m := exampleMatch(t)
	first, _ := m.Next() // the Fugitive notice, never replied to
	second, _ := m.Next()
	again, _ := m.Next()
	if first.Send != "Fugitive\n" || second.Send != "Detectives\n" || again != second {
		t.Fatalf("requests %s", fmtReqs([]game.Request{first, second, again}))
	}
	if f := m.Reply(game.Reply{Lines: []string{"3", "4", "6", "7"}}); f != nil {
		t.Fatal(f)
	}
	if f := m.Reply(game.Reply{Lines: []string{"junk"}}); f != nil {
		t.Errorf("a reply with nothing asked was judged: %v", f)
	}
	if req, _ := m.Next(); req.Player != fugitive || req.Send != "3\n4\n6\n7\n" {
		t.Errorf("next %s", fmtReqs([]game.Request{req}))
	}
	if res := m.Result(); res.Scores[0] != 0 || res.Scores[1] != 0 {
		t.Errorf("a running game has points: %v", res.Scores)
	}
}

// TestNoticeFaults: a bot found dead when told something loses, unless the game is over.
func TestNoticeFaults(t *testing.T) {
	crash := &game.Fault{Kind: game.Crash, Detail: "gone"}

	m := exampleMatch(t)
	m.Next()
	if f := m.Reply(game.Reply{Fault: crash}); f != crash {
		t.Errorf("returned %v", f)
	}
	// Both are told Quit, the crashed Fugitive first (the referee drops a notice to a bot
	// that is gone), and the notice to the dead bot fails again without changing anything.
	for _, p := range []int{fugitive, detectives} {
		req, done := m.Next()
		if done || req.Player != p || req.Send != "Quit\n" || req.Expect != 0 {
			t.Errorf("after the fugitive's crash: %s", fmtReqs([]game.Request{req}))
		}
		r := game.Reply{}
		if p == fugitive {
			r.Fault = crash
		}
		m.Reply(r)
	}
	if _, done := m.Next(); !done {
		t.Error("not done")
	}
	if res := m.Result(); res.Faults[0] != crash || res.Scores[1] != 20 {
		t.Errorf("result %+v", res)
	}

	// The Quit after an arrest finds the bot gone: the arrest stands.
	m = exampleMatch(t)
	s := script{catchTurn: 3}
	for {
		req, done := m.Next()
		if done {
			break
		}
		r := game.Reply{}
		if req.Expect > 0 {
			r = s.answer(req)
		} else if req.Send == "Quit\n" {
			r.Fault = crash
		}
		if f := m.Reply(r); f != r.Fault {
			t.Errorf("returned %v", f)
		}
	}
	if res := m.Result(); res.Faults[0] != nil || res.Faults[1] != nil || res.Scores[1] != 20 {
		t.Errorf("result %+v", res)
	}
}

// TestTolerantLines: spaces around fields and a trailing \r are fine.
func TestTolerantLines(t *testing.T) {
	m := exampleMatch(t)
	pad := func(r game.Reply) game.Reply {
		for k, l := range r.Lines {
			r.Lines[k] = " \t" + strings.ReplaceAll(l, " ", "   ") + " \r"
		}
		return r
	}
	gametest.Drive(t, m, func(req game.Request) game.Reply { return pad(script{catchTurn: 12}.answer(req)) })
	if res := m.Result(); res.Faults[0] != nil || res.Faults[1] != nil || res.Scores[1] != 18 {
		t.Errorf("result %+v (%s)", res, m.ending)
	}
}
