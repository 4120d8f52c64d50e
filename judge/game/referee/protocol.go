// Package referee is the referee protocol (docs/referee.md): a game's rules run as a program
// of their own, in any language, spoken to in lines of JSON. Match is a game.Match over such a
// program, so that the judge plays an organiser's game as it plays its own; Serve is the
// other side, any game.Game as such a program, which proves the protocol carries everything
// the built-in games do (TestEveryGameThroughTheProtocol).
//
// The protocol is one exchange per step: the judge writes one line, the referee answers one
// line. It starts with "start" (answered by "setup", or "error" for bad options) and goes on
// with "reply" (answered by "judged"), one for each answer a player gave or failed to give.
// Each answer the referee writes carries what comes next: the notices to deliver and the
// request whose answer it waits for, or the match's end.
package referee

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/botjudge/judge/judge/game"
)

// The messages' types.
const (
	typeStart  = "start"
	typeReply  = "reply"
	typeSetup  = "setup"
	typeJudged = "judged"
	typeError  = "error"
)

// start is the judge's first line: the match to play.
type start struct {
	Type    string            `json:"type"`
	Seed    uint64            `json:"seed"`
	Players int               `json:"players"`
	Options map[string]string `json:"options"`
}

// reply is what came of the request the referee waits for: the player's lines (a string
// each, without its "\n"; bytes that are not UTF-8 arrive as U+FFFD), or the fault the judge
// saw (timeout, crash, memory, output_limit, forbidden), and the CPU the answer took.
type reply struct {
	Type   string      `json:"type"`
	Player int         `json:"player"`
	Turn   int         `json:"turn"`
	Lines  []string    `json:"lines"`
	Fault  *game.Fault `json:"fault"`
	CPUus  int64       `json:"cpu_us"`
}

// answer is the referee's line: "setup" after start, "judged" after a reply, or "error" for
// options it refuses (after start only).
type answer struct {
	Type string `json:"type"`
	// Setup: every option with its default applied, each bot's memory limit in bytes, the
	// text files placed in each player's working directory (a list of player, each a map of
	// name to content), and the world for replays and renderers.
	Options map[string]string   `json:"options"`
	Memory  int64               `json:"memory"`
	Files   []map[string]string `json:"files"`
	World   json.RawMessage     `json:"world"`
	// Fault is a judged reply's verdict: null, or the rule the answer broke (protocol,
	// illegal_move, or timeout for a time bank the game keeps itself). Turn is not given: it
	// is the request's.
	Fault *verdict `json:"fault"`
	// View is the picture of the match after the reply (before the first request, in setup).
	View *view `json:"view"`
	// Next are the notices to deliver, in order, then the request whose answer the referee
	// waits for; or only notices, when Done ends the match after them.
	Next []request `json:"next"`
	Done *done     `json:"done"`
	// Problems are an error's: what is wrong with the options, each naming its option.
	Problems []string `json:"problems"`
}

type verdict struct {
	Kind   game.FaultKind `json:"kind"`
	Detail string         `json:"detail"`
}

type view struct {
	Scores []float64       `json:"scores"`
	State  json.RawMessage `json:"state"`
}

// request is game.Request: expect 0 with no ready line makes it a notice. A notice's view is
// the picture once it is delivered.
type request struct {
	Player  int    `json:"player"`
	Turn    int    `json:"turn"`
	Send    string `json:"send"`
	Expect  int    `json:"expect"`
	Ready   string `json:"ready,omitempty"`
	LimitUS int64  `json:"limit_us"`
	Intro   bool   `json:"intro,omitempty"`
	View    *view  `json:"view,omitempty"`
}

// done is the match's end: each player's score, and optionally each one's rank (1 the best;
// without them, by score, equal scores sharing a rank).
type done struct {
	Scores []float64 `json:"scores"`
	Ranks  []int     `json:"ranks"`
}

// Error is a referee that broke the protocol: it crashed, hung, wrote what is not the
// protocol, or contradicted itself (a request to a player that does not exist, a fault for
// a player already out, scores for the wrong number of players). The match is then the
// judge's error, never a bot's fault.
type Error struct {
	// Step is the referee's answer it happened at, counted from 1: 1 is its answer to the
	// start (the setup), n+1 its answer to the n-th reply; To says what that answer was to
	// ("the start", "player 1's reply at turn 3").
	Step int
	To   string
	Msg  string
	Err  error
	// NotStarted is a program the judge could not start (its engine, its image): the
	// judge's failure, not the program's.
	NotStarted bool
}

func (e *Error) Error() string {
	s := fmt.Sprintf("the referee, at its answer %d: %s", e.Step, e.Msg)
	switch {
	case e.Step == 0: // before any answer: its build, its start
		s = "the referee: " + e.Msg
	case e.To != "":
		s = fmt.Sprintf("the referee, at its answer %d (to %s): %s", e.Step, e.To, e.Msg)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// IsReferee reports whether err is a referee's failure (*Error).
func IsReferee(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
