package ontherun

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
	"github.com/botjudge/judge/judge/replay"
)

// TestScoreArrestIsDetectivesWin: an arrest is the Detectives' win whatever the points, 10-10
// after the tenth announcement included; an escape is the Fugitive's 20-0.
func TestScoreArrestIsDetectivesWin(t *testing.T) {
	for _, c := range []struct {
		name          string
		s             script
		scores        []float64
		ranks         []int
		winner        int
		endingContain string
	}{
		{"caught after the tenth announcement", script{catchTurn: 50}, []float64{10, 10}, []int{2, 1}, detectives, "caught"},
		{"walked into a detective in turn 50", script{catchTurn: 50, byFugitive: true}, []float64{9, 11}, []int{2, 1}, detectives, "moved onto"},
		{"caught in turn 1", script{catchTurn: 1}, []float64{0, 20}, []int{2, 1}, detectives, "caught"},
		{"escaped", script{}, []float64{20, 0}, []int{1, 2}, fugitive, "escaped"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := exampleMatch(t)
			gametest.Drive(t, m, c.s.answer)
			res := m.Result()
			if !slices.Equal(res.Scores, c.scores) || !slices.Equal(res.Ranks, c.ranks) ||
				res.Winner == nil || *res.Winner != c.winner || !strings.Contains(m.ending, c.endingContain) {
				t.Errorf("scores %v ranks %v winner %v (%s), want %v %v %d", res.Scores, res.Ranks, res.Winner, m.ending, c.scores, c.ranks, c.winner)
			}
			if res.Faults[0] != nil || res.Faults[1] != nil {
				t.Errorf("faults %v", res.Faults)
			}
		})
	}
	// A game still running has no winner.
	if res := exampleMatch(t).Result(); res.Winner != nil || !slices.Equal(res.Ranks, []int{1, 1}) {
		t.Errorf("running game: %+v", res)
	}
}

// TestQuitAfterFault: whatever ends a game irregularly, both players are told Quit, the
// offender first, at the turn of the fault; then the game is over. A Quit that finds a bot
// gone changes nothing.
func TestQuitAfterFault(t *testing.T) {
	lines := func(l ...string) game.Reply { return game.Reply{Lines: l} }
	for _, c := range []struct {
		name    string
		key     string
		reply   game.Reply
		player  int
		kind    game.FaultKind
		atStart bool // the fault is on the very first notice ("Fugitive")
	}{
		{"fugitive's illegal move", "0/3", lines("C 8"), fugitive, game.IllegalMove, false},
		{"fugitive's protocol fault", "0/1", lines("C2"), fugitive, game.Protocol, false},
		{"detectives' illegal start", "1/0", lines("3", "3", "6", "7"), detectives, game.IllegalMove, false},
		{"detectives' illegal move on an announcement turn", "1/5", lines("4", "4", "7", "6"), detectives, game.IllegalMove, false},
		{"detectives' protocol fault", "1/2", lines("3", "4"), detectives, game.Protocol, false},
		{"detectives time out", "1/7", game.Reply{Fault: &game.Fault{Kind: game.Timeout, Turn: 7}}, detectives, game.Timeout, false},
		{"fugitive crashes", "0/12", game.Reply{Fault: &game.Fault{Kind: game.Crash, Turn: 12}}, fugitive, game.Crash, false},
		{"fugitive gone at its role notice", "", game.Reply{Fault: &game.Fault{Kind: game.Crash}}, fugitive, game.Crash, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := exampleMatch(t)
			s := script{override: map[string]game.Reply{c.key: c.reply}}
			var log []game.Request
			faultAt := -1
			for range 1000 {
				req, done := m.Next()
				if done {
					break
				}
				log = append(log, req)
				var r game.Reply
				switch {
				case c.atStart && len(log) == 1:
					r = c.reply
				case req.Expect > 0:
					r = s.answer(req)
				case faultAt >= 0 && req.Player == c.player && (c.kind == game.Crash || c.kind == game.Timeout):
					// The referee drops a notice to a bot that is gone; if it tried, the bot
					// would be found gone again.
					r = game.Reply{Fault: &game.Fault{Kind: game.Crash, Detail: "gone"}}
				}
				f := m.Reply(r)
				if f != nil && faultAt < 0 {
					faultAt = len(log) - 1
				}
			}
			res := m.Result()
			if f := res.Faults[c.player]; f == nil || f.Kind != c.kind || res.Faults[1-c.player] != nil {
				t.Fatalf("faults %v %v", res.Faults[0], res.Faults[1])
			}
			want := []float64{0, 0}
			want[1-c.player] = totalPoints
			if !slices.Equal(res.Scores, want) || res.Winner == nil || *res.Winner != 1-c.player {
				t.Errorf("scores %v winner %v", res.Scores, res.Winner)
			}
			after := log[faultAt+1:]
			turn := log[faultAt].Turn
			wantAfter := []game.Request{
				{Player: c.player, Turn: turn, Send: "Quit\n"},
				{Player: 1 - c.player, Turn: turn, Send: "Quit\n"},
			}
			for k := range after {
				after[k].Limit = 0
			}
			if !slices.Equal(after, wantAfter) {
				t.Errorf("after the fault:\n%swant:\n%s", fmtReqs(after), fmtReqs(wantAfter))
			}
		})
	}
}

// TestQuitReplay records a game that ends in a fault as the referee would and re-judges it
// with the replay package: the two Quit notices are asked again, in the same order.
func TestQuitReplay(t *testing.T) {
	for _, c := range []struct {
		name  string
		key   string
		reply game.Reply
	}{
		{"illegal move", "0/4", game.Reply{Lines: []string{"P 4"}, CPU: time.Millisecond}},
		{"timeout", "1/9", game.Reply{Fault: &game.Fault{Kind: game.Timeout, Turn: 9, Detail: "5s"}, CPU: 3 * time.Millisecond}},
		{"arrest", "", game.Reply{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := exampleMatch(t)
			s := script{catchTurn: 17, override: map[string]game.Reply{c.key: c.reply}}
			rp := &replay.Replay{Header: replay.Header{Game: "ontherun", Seed: 1, Options: m.Setup().Options,
				Players: []replay.Player{{Name: "a"}, {Name: "b"}}}}
			for _, x := range gametest.Drive(t, m, s.answer) {
				req, r := x.Request, x.Reply
				rp.Exchanges = append(rp.Exchanges, replay.Exchange{Type: "move", Turn: req.Turn, Player: req.Player,
					Sent: req.Send, Expect: req.Expect, LimitUS: req.Limit.Microseconds(), Received: r.Lines,
					CPUus: r.CPU.Microseconds(), Fault: r.Fault, Verdict: x.Verdict})
			}
			quits := 0
			for _, x := range rp.Exchanges {
				if x.Sent == "Quit\n" {
					quits++
				}
			}
			if quits != 2 {
				t.Errorf("%d Quit notices", quits)
			}
			got, err := rp.Rejudge(New())
			if err != nil {
				t.Fatal(err)
			}
			res := m.Result()
			if !slices.Equal(got.Scores, res.Scores) || !slices.Equal(got.Ranks, res.Ranks) || fmt.Sprint(got.Faults) != fmt.Sprint(res.Faults) {
				t.Errorf("re-judged %+v, played %+v", got, res)
			}
		})
	}
}

// ringMap is a car ring 1-2-...-12-1: enough cities for two-digit answers.
func ringMap() string {
	var b strings.Builder
	b.WriteString("12\n")
	for c := 1; c <= 12; c++ {
		fmt.Fprintf(&b, "C %d-%d\n", c, c%12+1)
	}
	b.WriteString("END\n")
	return b.String()
}

// TestWhitespace: answers are read with surrounding ASCII whitespace ignored and fields split
// at runs of it (game.TrimLine, game.Fields); a Unicode space is part of the answer.
//
// On the ring, the Detectives start in 2..5 and the Fugitive in 11; in turn 1 it goes to 12
// and the detectives each step down one city, in turn 2 it goes back to 11 and detective 1
// steps on to 12 while the others step down again.
func TestWhitespace(t *testing.T) {
	plain := [][]string{
		{"2", "3", "4", "5"},  // detectives' start
		{"11"},                // fugitive's start
		{"C 12"},              // turn 1
		{"1", "2", "3", "4"},  // detectives, turn 1
		{"C 11"},              // turn 2
		{"12", "1", "2", "3"}, // detectives, turn 2
		{"C 10"},              // turn 3
	}
	for _, c := range []struct {
		name    string
		answer  int // which answer, index into plain
		line    int
		text    string
		kind    game.FaultKind // "" when accepted
		player  int
		wantPos int // the Fugitive's city or detective 1's after the answer, when accepted
	}{
		{"detective start with tab and CR", 0, 0, "\t2\r", "", 0, 0},
		{"detective line with tab and CR", 5, 0, "\t12\r", "", detectives, 12},
		{"detective line with vertical tab and form feed", 5, 0, "\v\f12 \t", "", detectives, 12},
		{"fugitive start with CR", 1, 0, "11\r", "", fugitive, 11},
		{"fugitive move split by a tab", 2, 0, "C\t12", "", fugitive, 12},
		{"fugitive move with runs of whitespace", 2, 0, " \tC \t\v 12\r", "", fugitive, 12},
		{"detective line with a no-break space", 5, 0, "12\u00a0", game.Protocol, detectives, 0},
		{"detective line led by a no-break space", 5, 0, "\u00a012", game.Protocol, detectives, 0},
		{"fugitive start with an ideographic space", 1, 0, "11\u3000", game.Protocol, fugitive, 0},
		{"fugitive move split by a no-break space", 2, 0, "C\u00a012", game.Protocol, fugitive, 0},
		{"fugitive move ending in a no-break space", 2, 0, "C 12\u00a0", game.Protocol, fugitive, 0},
		{"fugitive move split by a next-line", 2, 0, "C\u008512", game.Protocol, fugitive, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := gametest.Match[*match](t, New(), game.Config{Seed: 1, Options: map[string]string{"map": ringMap()}})
			k := 0
			var last *game.Fault
			for range 1000 {
				req, done := m.Next()
				if done {
					break
				}
				var r game.Reply
				if req.Expect > 0 {
					if k == len(plain) {
						break
					}
					r.Lines = slices.Clone(plain[k])
					if k == c.answer {
						r.Lines[c.line] = c.text
					}
					k++
				}
				if f := m.Reply(r); f != nil {
					last = f
				}
				if k == c.answer+1 && req.Expect > 0 && c.kind == "" {
					pos := m.fugitive
					if c.player == detectives {
						pos = m.detectives[0]
					}
					if c.wantPos != 0 && pos != c.wantPos {
						t.Errorf("read as city %d, want %d", pos, c.wantPos)
					}
				}
			}
			if c.kind == "" {
				if last != nil || m.phase == over || k != len(plain) {
					t.Errorf("fault %v after %d answers (%s)", last, k, m.ending)
				}
				return
			}
			if last == nil || last.Kind != c.kind || m.Result().Faults[c.player] != last {
				t.Errorf("fault %v, want %s for player %d", last, c.kind, c.player)
			}
		})
	}
}
