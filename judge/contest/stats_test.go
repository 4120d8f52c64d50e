package contest

import (
	"fmt"
	"math"
	"testing"

	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/result"
)

// A contestant's statistics count each of its matches once, against each other player (in a
// game of four, three results a match), by opponent, seat, length and version, with its own
// faults; house bots are opponents like any, a match the judge could not give counts for
// nothing.
func TestStats(t *testing.T) {
	seat := func(name, sub string) store.Seat {
		if sub == "" {
			return store.Seat{House: name}
		}
		return store.Seat{Login: name, Submission: sub}
	}
	match := func(status string, seats []store.Seat, ranks []int, moves int, fault *game.Fault) store.Match {
		res := &result.Result{Status: status}
		for i, r := range ranks {
			p := result.Player{Rank: r, Score: float64(10 - r), Moves: moves}
			if i == 0 {
				p.Fault = fault
			}
			res.Players = append(res.Players, p)
		}
		return store.Match{Seats: seats, Result: res}
	}
	crash := &game.Fault{Kind: game.Crash, Turn: 3}
	ms := []store.Match{
		// v1 against the house bot: won, lost (crashed), drew.
		match("ok", []store.Seat{seat("ann", "s1"), seat("easy", "")}, []int{1, 2}, 5, nil),
		match("ok", []store.Seat{seat("ann", "s1"), seat("easy", "")}, []int{2, 1}, 50, crash),
		match("ok", []store.Seat{seat("easy", ""), seat("ann", "s1")}, []int{1, 1}, 50, nil),
		// v2 in a game of four, second: above two, below one.
		match("ok", []store.Seat{seat("bob", "b1"), seat("ann", "s2"), seat("cat", "c1"), seat("easy", "")}, []int{1, 2, 3, 4}, 200, nil),
		// the judge's failure: nothing.
		match("failed", []store.Seat{seat("ann", "s2"), seat("easy", "")}, []int{1, 2}, 5, nil),
	}
	// The options each was played with, and the CPU calls nearest the limit.
	ms[0].Options, ms[1].Options, ms[3].Options = map[string]string{"turns": "150", "maze": ""}, map[string]string{"turns": "150"}, map[string]string{"turns": "10"}
	call := func(m, seat, turn int, cpu, limit int64) {
		ms[m].Result.Players[seat].Closest = &result.CPUCall{Turn: turn, CPUus: cpu, LimitUS: limit}
	}
	call(0, 0, 4, 900, 1000)
	call(0, 1, 2, 990, 1000) // the house bot's: not ann's
	call(2, 1, 7, 300, 1000)
	call(3, 1, 9, 950, 1000)
	call(3, 0, 9, 999, 1000) // bob's
	st := statsOf("ann", map[string]int{"s1": 1, "s2": 2}, nil, ms)
	if st.Matches != 4 {
		t.Errorf("%d matches; want 4", st.Matches)
	}
	got := func(rows any) string { return fmt.Sprintf("%+v", rows) }
	for _, c := range []struct{ what, got, want string }{
		{"by opponent", got(st.ByOpponent), "[{Key:house:easy Matches:4 Won:2 Drawn:1 Lost:1 Score:8.5 WinRate:0.625 Change:<nil>} {Key:bob Matches:1 Won:0 Drawn:0 Lost:1 Score:8 WinRate:0 Change:<nil>} {Key:cat Matches:1 Won:1 Drawn:0 Lost:0 Score:8 WinRate:1 Change:<nil>}]"},
		{"by seat", got(st.BySeat), "[{Key:seat 0 Matches:2 Won:1 Drawn:0 Lost:1 Score:8.5 WinRate:0.5 Change:<nil>} {Key:seat 1 Matches:2 Won:2 Drawn:1 Lost:1 Score:8.5 WinRate:0.625 Change:<nil>}]"},
		{"by length", got(st.ByLength), "[{Key:0-9 moves Matches:1 Won:1 Drawn:0 Lost:0 Score:9 WinRate:1 Change:<nil>} {Key:40-79 moves Matches:2 Won:0 Drawn:1 Lost:1 Score:8.5 WinRate:0.25 Change:<nil>} {Key:160-319 moves Matches:1 Won:2 Drawn:0 Lost:1 Score:8 WinRate:0.6666666666666666 Change:<nil>}]"},
		{"faults", got(st.Faults), "[{Version:1 Kinds:map[crash:1]}]"},
		{"by options", got(st.ByOptions), "[{Key:turns=150 Matches:2 Won:1 Drawn:0 Lost:1 Score:8.5 WinRate:0.5 Change:<nil>} {Key:not recorded (the contest's options then) Matches:1 Won:0 Drawn:1 Lost:0 Score:9 WinRate:0.5 Change:<nil>} {Key:turns=10 Matches:1 Won:2 Drawn:0 Lost:1 Score:8 WinRate:0.6666666666666666 Change:<nil>}]"},
		{"closest calls", got(st.ClosestCalls), "[{Match: Kind: Version:2 Turn:9 CPUus:950 LimitUS:1000 Share:0.95} {Match: Kind: Version:1 Turn:4 CPUus:900 LimitUS:1000 Share:0.9} {Match: Kind: Version:1 Turn:7 CPUus:300 LimitUS:1000 Share:0.3}]"},
	} {
		if c.got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.what, c.got, c.want)
		}
	}
	if len(st.ByVersion) != 2 || st.ByVersion[0].Key != "v1" || st.ByVersion[0].WinRate != 0.5 || st.ByVersion[1].Change == nil || math.Abs(*st.ByVersion[1].Change-(2.0/3-0.5)) > 1e-12 {
		t.Errorf("by version: %+v", st.ByVersion)
	}
}

// In a game whose seats play parts (On The Run), the statistics by seat name the part.
func TestStatsByRole(t *testing.T) {
	ms := []store.Match{
		{Seats: []store.Seat{{Login: "ann", Submission: "s1"}, {House: "easy"}}, Result: &result.Result{Status: "ok", Players: []result.Player{{Rank: 1}, {Rank: 2}}}},
		{Seats: []store.Seat{{House: "easy"}, {Login: "ann", Submission: "s1"}}, Result: &result.Result{Status: "ok", Players: []result.Player{{Rank: 1}, {Rank: 2}}}},
	}
	st := statsOf("ann", map[string]int{"s1": 1}, []string{"Fugitive", "Detectives"}, ms)
	if len(st.BySeat) != 2 || st.BySeat[0].Key != "seat 0 (Fugitive)" || st.BySeat[0].Won != 1 || st.BySeat[1].Key != "seat 1 (Detectives)" || st.BySeat[1].Lost != 1 {
		t.Errorf("by seat: %+v", st.BySeat)
	}
}
