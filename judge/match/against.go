package match

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
)

// Recording plays a recorded match again with one seat live (judge play --against): the bot
// in seat Live plays, and every other seat answers what it answered in the replay, so that no
// opponent's code is needed. While the live bot answers as recorded, the match is the
// recorded one, exchange for exchange (the game asks the same and judges the same). At the
// first exchange that differs Play stops with a *DepartedError saying where; with GoOn it
// plays on, the other seats answering their recorded answers in order, for as long as they
// have one, and Departed says from where the match is no longer the recorded one.
//
// A Job with a Recording is played with the replay's game, seed, options and number of
// players: the caller takes them from the header (Job.Seed, Job.Options, len(Job.Players)).
type Recording struct {
	Replay *replay.Replay
	// Live is the seat played by a bot, from 0; the job's entrant there is the bot.
	Live int
	// GoOn plays past the first departure instead of stopping there.
	GoOn bool

	// Departed is set by Play: where the match stopped being the recorded one, nil when it
	// was the recorded match to the end. Followed is how many exchanges were as recorded.
	Departed *Departure
	Followed int

	asked    [][]int // by seat: the indices of the recorded exchanges it answered
	answered []int   // by seat: how many of its recorded answers it has given
}

// Departure is where a match played against its recording stopped being the recorded one.
type Departure struct {
	// Exchange is the exchange's index among the replay's exchanges, from 0.
	Exchange int `json:"exchange"`
	Turn     int `json:"turn"`
	Player   int `json:"player"`
	// What differs: "answer" (what the live bot answered, or its fault), "verdict" (the
	// game's judgement of the same answer: its time budget was spent differently),
	// "request" (what the game asked), or "end" (one of the two ended first).
	What     string `json:"what"`
	Recorded string `json:"recorded"`
	Played   string `json:"played"`
}

func (d Departure) String() string {
	switch d.What {
	case "answer":
		return fmt.Sprintf("exchange %d, turn %d: player %d answered %s; the recording has %s", d.Exchange, d.Turn, d.Player, d.Played, d.Recorded)
	case "verdict":
		return fmt.Sprintf("exchange %d, turn %d: the game judged player %d's answer %s; in the recording, %s", d.Exchange, d.Turn, d.Player, d.Played, d.Recorded)
	case "request":
		return fmt.Sprintf("exchange %d, turn %d: the game asked %s; the recording has %s", d.Exchange, d.Turn, d.Played, d.Recorded)
	}
	return fmt.Sprintf("exchange %d: %s; the recording has %s", d.Exchange, d.Played, d.Recorded)
}

// DepartedError is a match played against its recording that could not go on: it departed
// from the recording (Departure), and either stops there or, playing on (GoOn), reached a
// request that a recorded seat has no answer for (Stop says which).
type DepartedError struct {
	Departure Departure
	Stop      string
}

func (e *DepartedError) Error() string {
	if e.Stop == "" {
		return "the match departed from its recording at " + e.Departure.String()
	}
	return fmt.Sprintf("the match departed from its recording at %s, and stopped: %s", e.Departure, e.Stop)
}

// check is nil when the recording can be played with job j: the replay's game and number of
// players, and a live seat among them.
func (rec *Recording) check(j Job) error {
	h := rec.Replay.Header
	switch {
	case h.Game != j.Game.Name():
		return result.Errorf(result.InvalidJob, "the recording is a match of %s, not of %s", h.Game, j.Game.Name())
	case len(h.Players) != len(j.Players):
		return result.Errorf(result.InvalidJob, "the recording seats %d players, the match %d", len(h.Players), len(j.Players))
	case rec.Live < 0 || rec.Live >= len(h.Players):
		return result.Errorf(result.InvalidJob, "seat %d: the recording's seats are 0 to %d", rec.Live, len(h.Players)-1)
	}
	rec.Departed, rec.Followed = nil, 0
	rec.answered = make([]int, len(h.Players))
	rec.asked = make([][]int, len(h.Players))
	for i, x := range rec.Replay.Exchanges {
		if x.Player < 0 || x.Player >= len(h.Players) {
			return result.Errorf(result.InvalidJob, "the recording's exchange %d asks player %d of %d", i, x.Player, len(h.Players))
		}
		if x.Expect > 0 || x.Ready != "" {
			rec.asked[x.Player] = append(rec.asked[x.Player], i)
		}
	}
	return nil
}

// recorded is the seat's bot: no build, no process, the recorded player's images.
func (rec *Recording) recorded(seat int) *bot {
	p := rec.Replay.Header.Players[seat]
	b := build.Result{Build: result.Build{OK: true, Image: p.CompileImage, Toolchain: p.Toolchain}, RunImage: p.RunImage}
	return &bot{build: b, name: p.Name, lang: p.Lang, last: -1, recording: rec, seat: seat}
}

// answer is the seat's next recorded answer, as the game was given it.
func (rec *Recording) answer(seat int, req game.Request) (game.Reply, error) {
	if n := rec.answered[seat]; n < len(rec.asked[seat]) {
		x := rec.Replay.Exchanges[rec.asked[seat][n]]
		rec.answered[seat]++
		return game.Reply{Lines: x.Received, Fault: x.Fault, CPU: time.Duration(x.CPUus) * time.Microsecond}, nil
	}
	stop := fmt.Sprintf("at turn %d the game asks player %d, whose recording has no answer left (it answered %d times)", req.Turn, seat, rec.answered[seat])
	if rec.Departed == nil { // the game asks more than it asked when it was recorded
		rec.Departed = &Departure{Exchange: rec.Followed, Turn: req.Turn, Player: seat, What: "end", Recorded: "the end of the match", Played: "the game asks on"}
	}
	return game.Reply{}, &DepartedError{Departure: *rec.Departed, Stop: stop}
}

// follow compares exchange i as played with the recording's. A departure is noted; it stops
// the match (a *DepartedError) unless GoOn.
func (rec *Recording) follow(i int, x replay.Exchange) error {
	if rec.Departed != nil {
		return nil
	}
	if d := rec.differs(i, x); d != nil {
		rec.Departed = d
		if !rec.GoOn {
			return &DepartedError{Departure: *d}
		}
		return nil
	}
	rec.Followed = i + 1
	return nil
}

// end compares the match's end, after n exchanges, with the recording's.
func (rec *Recording) end(n int) error {
	if rec.Departed != nil || n >= len(rec.Replay.Exchanges) {
		return nil
	}
	x := rec.Replay.Exchanges[n]
	d := &Departure{Exchange: n, Turn: x.Turn, Player: x.Player, What: "end", Played: "the game ended",
		Recorded: fmt.Sprintf("a request to player %d at turn %d", x.Player, x.Turn)}
	rec.Departed = d
	if !rec.GoOn {
		return &DepartedError{Departure: *d}
	}
	return nil
}

// cpu is the recorded CPU time of exchange i, for the game when the live bot has no time
// limits (Referee.NoTimeLimits); ok is false once the match is no longer the recorded one.
func (rec *Recording) cpu(i int) (time.Duration, bool) {
	if rec.Departed != nil || i >= len(rec.Replay.Exchanges) {
		return 0, false
	}
	return time.Duration(rec.Replay.Exchanges[i].CPUus) * time.Microsecond, true
}

// differs says how exchange i as played departs from the recording's, nil when it does not.
// The live bot's CPU time is its own, so its time budget (the request's limit) is not
// compared; a verdict that differs from the same answer is (a timeout against the budget).
func (rec *Recording) differs(i int, x replay.Exchange) *Departure {
	if i >= len(rec.Replay.Exchanges) {
		return &Departure{Exchange: i, Turn: x.Turn, Player: x.Player, What: "end",
			Played: fmt.Sprintf("the game asks player %d at turn %d", x.Player, x.Turn), Recorded: "the end of the match"}
	}
	r := rec.Replay.Exchanges[i]
	at := Departure{Exchange: i, Turn: x.Turn, Player: x.Player}
	if r.Player != x.Player || r.Turn != x.Turn || r.Sent != x.Sent || r.Expect != x.Expect || r.Ready != x.Ready {
		at.What, at.Recorded, at.Played = "request", requestWords(r), requestWords(x)
		return &at
	}
	if answerWords(r) != answerWords(x) {
		at.What, at.Recorded, at.Played = "answer", answerWords(r), answerWords(x)
		return &at
	}
	if kind(r.Verdict) != kind(x.Verdict) {
		at.What, at.Recorded, at.Played = "verdict", verdictWords(r.Verdict), verdictWords(x.Verdict)
		return &at
	}
	return nil
}

func kind(f *game.Fault) game.FaultKind {
	if f == nil {
		return ""
	}
	return f.Kind
}

// requestWords is a request as a person reads it: to whom, at which turn, what.
func requestWords(x replay.Exchange) string {
	s := fmt.Sprintf("player %d at turn %d: %s", x.Player, x.Turn, clip(x.Sent))
	if x.Expect == 0 && x.Ready == "" {
		s += " (a notice)"
	} else if x.Ready != "" {
		s += fmt.Sprintf(" (lines until %q)", x.Ready)
	} else {
		s += fmt.Sprintf(" (%d lines asked for)", x.Expect)
	}
	return s
}

// answerWords is an answer as a person reads it: its lines, quoted, or its fault's kind (the
// detail names CPU times, which are the bot's own).
func answerWords(x replay.Exchange) string {
	if x.Fault != nil {
		return "no answer (" + string(x.Fault.Kind) + ")"
	}
	if x.Expect == 0 && x.Ready == "" {
		return "nothing (a notice)"
	}
	q := make([]string, len(x.Received))
	for i, l := range x.Received {
		q[i] = clip(l)
	}
	if len(q) == 0 {
		return "no line"
	}
	return strings.Join(q, " / ")
}

func verdictWords(f *game.Fault) string {
	if f == nil {
		return "accepted"
	}
	return string(f.Kind) + ": " + clip(f.Detail)
}

// clip quotes s, cut to 200 bytes: an answer can be a megabyte.
func clip(s string) string {
	const most = 200
	if len(s) <= most {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:most]) + fmt.Sprintf("... (%d bytes)", len(s))
}
