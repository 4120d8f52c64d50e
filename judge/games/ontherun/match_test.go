package ontherun

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
)

func exampleMatch(t *testing.T) *match {
	return gametest.Match[*match](t, New(), game.Config{Seed: 1, Options: map[string]string{"map": exampleMap}})
}

// script plays the example map. Detectives start in 3, 4, 6, 7 and the Fugitive in 1; every
// turn the Fugitive shuttles between 1 and 2 by car and the detectives swap 3<->4 and 6<->7,
// so nobody meets unless a case says so: catchTurn > 0 makes the Detectives (byFugitive false)
// or the Fugitive (byFugitive true) cause the arrest in that turn. override replaces an
// answer, keyed "player/turn".
type script struct {
	catchTurn  int
	byFugitive bool
	override   map[string]game.Reply
}

func (s script) answer(req game.Request) game.Reply {
	if r, ok := s.override[fmt.Sprintf("%d/%d", req.Player, req.Turn)]; ok {
		return r
	}
	lines := func(l ...string) game.Reply { return game.Reply{Lines: l, CPU: time.Millisecond} }
	t := req.Turn
	odd := t%2 == 1
	switch {
	case req.Player == detectives && t == 0:
		return lines("3", "4", "6", "7")
	case req.Player == fugitive && t == 0:
		return lines("1")
	case req.Player == fugitive && t == s.catchTurn && s.byFugitive:
		// From 1 (odd turns) detective 2 is in 4, one plane away; from 2 it is in 3, one train.
		if odd {
			return lines("P 4")
		}
		return lines("T 3")
	case req.Player == fugitive && odd:
		return lines("C 2")
	case req.Player == fugitive:
		return lines("C 1")
	case t == s.catchTurn && !s.byFugitive && odd:
		// The Fugitive is in 2: detective 1 takes the train there from 3.
		return lines("2", "3", "7", "6")
	case t == s.catchTurn && !s.byFugitive:
		// The Fugitive is in 1: detective 1 flies there from 4.
		return lines("1", "4", "6", "7")
	case odd:
		return lines("4", "3", "7", "6")
	}
	return lines("3", "4", "6", "7")
}

func TestTranscript(t *testing.T) {
	log := gametest.Drive(t, exampleMatch(t), script{catchTurn: 6, byFugitive: false}.answer)
	want := []game.Request{
		{Player: fugitive, Turn: 0, Send: "Fugitive\n"},
		{Player: detectives, Turn: 0, Send: "Detectives\n", Expect: 4},
		{Player: fugitive, Turn: 0, Send: "3\n4\n6\n7\n", Expect: 1},
		{Player: detectives, Turn: 0, Send: "1\n"},
		{Player: fugitive, Turn: 1, Send: "", Expect: 1},
		{Player: detectives, Turn: 1, Send: "C\n", Expect: 4},
		{Player: fugitive, Turn: 2, Send: "4\n3\n7\n6\n", Expect: 1},
		{Player: detectives, Turn: 2, Send: "C\n", Expect: 4},
		{Player: fugitive, Turn: 3, Send: "3\n4\n6\n7\n", Expect: 1},
		{Player: detectives, Turn: 3, Send: "C\n", Expect: 4},
		{Player: fugitive, Turn: 4, Send: "4\n3\n7\n6\n", Expect: 1},
		{Player: detectives, Turn: 4, Send: "C\n", Expect: 4},
		{Player: fugitive, Turn: 5, Send: "3\n4\n6\n7\n", Expect: 1},
		{Player: detectives, Turn: 5, Send: "C 2\n", Expect: 4}, // the announcement
		{Player: fugitive, Turn: 6, Send: "4\n3\n7\n6\n", Expect: 1},
		{Player: detectives, Turn: 6, Send: "C\n", Expect: 4},
		{Player: fugitive, Turn: 6, Send: "Quit\n"},
		{Player: detectives, Turn: 6, Send: "Quit\n"},
	}
	var got []game.Request
	for _, x := range log {
		if x.Verdict != nil {
			t.Errorf("fault %v", x.Verdict)
		}
		x.Request.Limit = 0
		got = append(got, x.Request)
	}
	if !slices.Equal(got, want) {
		t.Errorf("transcript:\n%s\nwant:\n%s", fmtReqs(got), fmtReqs(want))
	}
}

func fmtReqs(rs []game.Request) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "  player %d turn %d expect %d send %q\n", r.Player, r.Turn, r.Expect, r.Send)
	}
	return b.String()
}

// TestScoring plays arrests at many points of the game: the Detectives get 10 plus the
// announcements they had not yet been told.
func TestScoring(t *testing.T) {
	for _, c := range []struct {
		name       string
		turn       int
		byFugitive bool
		fug, det   float64
	}{
		{"detectives catch in turn 1", 1, false, 0, 20},
		{"fugitive walks into a detective in turn 1", 1, true, 0, 20},
		{"detectives catch in turn 4", 4, false, 0, 20},
		{"fugitive walks into a detective on the first announcement turn", 5, true, 0, 20},
		{"detectives catch after the first announcement", 5, false, 1, 19},
		{"fugitive walks into a detective after the first announcement", 6, true, 1, 19},
		{"detectives catch in turn 9", 9, false, 1, 19},
		{"fugitive walks into a detective on the second announcement turn", 10, true, 1, 19},
		{"detectives catch after the second announcement", 10, false, 2, 18},
		{"fugitive walks into a detective in turn 11", 11, true, 2, 18},
		{"detectives catch in turn 27", 27, false, 5, 15},
		{"detectives catch in turn 49", 49, false, 9, 11},
		{"fugitive walks into a detective on the last turn", 50, true, 9, 11},
		{"detectives catch after the tenth announcement", 50, false, 10, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := exampleMatch(t)
			log := gametest.Drive(t, m, script{catchTurn: c.turn, byFugitive: c.byFugitive}.answer)
			res := m.Result()
			if !slices.Equal(res.Scores, []float64{c.fug, c.det}) {
				t.Errorf("scores %v, want %v-%v (%s)", res.Scores, c.fug, c.det, m.ending)
			}
			if res.Faults[0] != nil || res.Faults[1] != nil {
				t.Errorf("faults %v %v", res.Faults[0], res.Faults[1])
			}
			// An arrest is the Detectives' win, 10-10 included.
			if !slices.Equal(res.Ranks, []int{2, 1}) {
				t.Errorf("ranks %v", res.Ranks)
			}
			if res.Winner == nil || *res.Winner != detectives {
				t.Errorf("winner %v", res.Winner)
			}
			// Both players are told Quit, and nothing happens after the arrest.
			n := len(log)
			last := []game.Request{log[n-2].Request, log[n-1].Request}
			for p, r := range last {
				if r.Player != p || r.Send != "Quit\n" || r.Expect != 0 || r.Turn != c.turn {
					t.Errorf("after the arrest: %s", fmtReqs(last))
				}
			}
			prev := log[n-3].Request
			wantPrev := detectives
			if c.byFugitive {
				wantPrev = fugitive
			}
			if prev.Player != wantPrev || prev.Turn != c.turn {
				t.Errorf("the arrest was not judged at the right request: %s", fmtReqs([]game.Request{prev}))
			}
		})
	}
}

// TestEscape: 50 turns without an arrest; the Fugitive gets no input after turn 50 and nobody
// is told Quit.
func TestEscape(t *testing.T) {
	m := exampleMatch(t)
	log := gametest.Drive(t, m, script{}.answer)
	res := m.Result()
	if !slices.Equal(res.Scores, []float64{20, 0}) || *res.Winner != fugitive || res.Faults[0] != nil || res.Faults[1] != nil {
		t.Errorf("result %+v", res)
	}
	last := log[len(log)-1].Request
	if last.Player != detectives || last.Turn != numTurns || last.Send != "C 1\n" || last.Expect != 4 {
		t.Errorf("last request %s", fmtReqs([]game.Request{last}))
	}
	fugitiveTurns := 0
	for _, x := range log {
		if x.Request.Player == fugitive && x.Request.Turn > 0 {
			fugitiveTurns++
		}
		if strings.Contains(x.Request.Send, "Quit") {
			t.Errorf("Quit after a normal end: %s", fmtReqs([]game.Request{x.Request}))
		}
	}
	if fugitiveTurns != numTurns {
		t.Errorf("%d fugitive requests in turns 1..50", fugitiveTurns)
	}
	if req, done := m.Next(); !done {
		t.Errorf("not done after turn 50: %+v", req)
	}
}

// TestFaults: every broken answer ends the game, 20-0 for the other player; both are told
// Quit, the offender first.
func TestFaults(t *testing.T) {
	F, D := fugitive, detectives
	lines := func(l ...string) game.Reply { return game.Reply{Lines: l} }
	timeout := &game.Fault{Kind: game.Timeout, Turn: 3, Detail: "no answer"}
	crash := &game.Fault{Kind: game.Crash, Turn: 7, Detail: "exit status 1"}
	for _, c := range []struct {
		name   string
		key    string // "player/turn" answered wrongly
		reply  game.Reply
		player int
		kind   game.FaultKind
		detail string
	}{
		// Start cities.
		{"duplicate detective starts", "1/0", lines("3", "4", "3", "7"), D, game.IllegalMove, "both start in city 3"},
		{"detective start zero", "1/0", lines("0", "4", "6", "7"), D, game.IllegalMove, "not a city"},
		{"detective start too big", "1/0", lines("3", "4", "6", "9"), D, game.IllegalMove, "detective 4: 9 is not a city"},
		{"detective start huge", "1/0", lines("99999999999999999999999", "4", "6", "7"), D, game.IllegalMove, "not a city"},
		{"detective start junk", "1/0", lines("3", "four", "6", "7"), D, game.Protocol, "detective 2"},
		{"detective start two numbers", "1/0", lines("3 5", "4", "6", "7"), D, game.Protocol, "not a city number"},
		{"detective start empty line", "1/0", lines("3", "4", "", "7"), D, game.Protocol, "not a city number"},
		{"too few lines", "1/0", lines("3", "4", "6"), D, game.Protocol, "3 lines, 4 expected"},
		{"fugitive starts on a detective", "0/0", lines("6"), F, game.IllegalMove, "detective 3"},
		{"fugitive start out of range", "0/0", lines("9"), F, game.IllegalMove, "not a city"},
		{"fugitive start with a transport", "0/0", lines("C 1"), F, game.Protocol, "not a city number"},
		{"fugitive start junk", "0/0", lines("\x00\xff"), F, game.Protocol, "not a city number"},
		// Fugitive moves (from city 1 on odd turns).
		{"no car connection", "0/1", lines("C 8"), F, game.IllegalMove, "no C connection from city 1 to city 8"},
		{"no connection at all", "0/3", lines("T 3"), F, game.IllegalMove, "no T connection"},
		{"wrong type for the connection", "0/1", lines("P 2"), F, game.IllegalMove, "no P connection"},
		{"fugitive stays", "0/1", lines("C 1"), F, game.IllegalMove, "must move"},
		{"unknown transport", "0/1", lines("X 2"), F, game.IllegalMove, "one of C, T, P"},
		{"lowercase transport", "0/1", lines("c 2"), F, game.IllegalMove, "one of C, T, P"},
		{"destination out of range", "0/1", lines("C 0"), F, game.IllegalMove, "not a city"},
		{"negative destination", "0/1", lines("C -2"), F, game.IllegalMove, "not a city"},
		{"transport only", "0/1", lines("C"), F, game.Protocol, "not a move"},
		{"city only", "0/1", lines("2"), F, game.Protocol, "not a move"},
		{"three fields", "0/1", lines("C 2 5"), F, game.Protocol, "not a move"},
		{"glued", "0/1", lines("C2"), F, game.Protocol, "not a move"},
		{"word for a transport", "0/1", lines("Car 2"), F, game.Protocol, "not a move"},
		{"word for a city", "0/1", lines("C two"), F, game.Protocol, "not a city number"},
		{"empty move", "0/2", lines(""), F, game.Protocol, "not a move"},
		{"two lines", "0/2", lines("C 1", "C 2"), F, game.Protocol, "2 lines, 1 expected"},
		// Detective moves (from 3, 4, 6, 7 on odd turns).
		{"two detectives in one city", "1/1", lines("4", "7", "7", "6"), D, game.IllegalMove, "detectives 2 and 3 both move to city 7"},
		{"detective stays", "1/1", lines("4", "3", "6", "6"), D, game.IllegalMove, "detective 3 must move"},
		{"detective without a connection", "1/1", lines("5", "3", "7", "6"), D, game.IllegalMove, "no connection from city 3 to city 5"},
		{"detective out of range", "1/1", lines("4", "3", "7", "201"), D, game.IllegalMove, "not a city"},
		{"detective junk", "1/1", lines("4", "3", "7", "C 6"), D, game.Protocol, "detective 4"},
		// Faults the referee found.
		{"detectives time out", "1/3", game.Reply{Fault: timeout}, D, game.Timeout, "no answer"},
		{"fugitive crashes", "0/7", game.Reply{Fault: crash}, F, game.Crash, "exit status"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := exampleMatch(t)
			log := gametest.Drive(t, m, script{override: map[string]game.Reply{c.key: c.reply}}.answer)
			res := m.Result()
			f := res.Faults[c.player]
			if f == nil || f.Kind != c.kind || !strings.Contains(f.Detail, c.detail) || res.Faults[1-c.player] != nil {
				t.Fatalf("faults %v / %v, want %s containing %q for player %d", res.Faults[0], res.Faults[1], c.kind, c.detail, c.player)
			}
			wantScores := []float64{0, 0}
			wantScores[1-c.player] = 20
			if !slices.Equal(res.Scores, wantScores) || res.Winner == nil || *res.Winner != 1-c.player {
				t.Errorf("scores %v winner %v", res.Scores, res.Winner)
			}
			// The fault is what Reply returned, and its turn is the request's.
			n := len(log)
			bad := log[n-3]
			if bad.Verdict != f || bad.Request.Player != c.player || fmt.Sprintf("%d/%d", bad.Request.Player, bad.Request.Turn) != c.key {
				t.Errorf("fault %v returned for %s", bad.Verdict, fmtReqs([]game.Request{bad.Request}))
			}
			if f.Turn != bad.Request.Turn {
				t.Errorf("fault turn %d, request turn %d", f.Turn, bad.Request.Turn)
			}
			quits := []game.Request{log[n-2].Request, log[n-1].Request}
			for k, p := range []int{c.player, 1 - c.player} {
				if q := quits[k]; q.Player != p || q.Send != "Quit\n" || q.Expect != 0 || q.Turn != bad.Request.Turn {
					t.Errorf("after the fault: %s", fmtReqs(quits))
				}
			}
		})
	}
}
