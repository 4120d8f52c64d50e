// Package result is the judgement of one match as the outside sees it: the result JSON of
// docs/contract.md, and its human-readable table.
package result

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/game"
)

// Version is the result format's version.
const Version = 1

// Status values.
const (
	StatusOK    = "ok"
	StatusError = "error"
)

// Error codes of a match that could not be judged.
const (
	InvalidJob     = "invalid_job"
	UnknownGame    = "unknown_game"
	BadOption      = "bad_option"
	Infrastructure = "infrastructure"
)

// Result is one match's judgement.
type Result struct {
	Version int       `json:"version"`
	ID      string    `json:"id"`
	Game    string    `json:"game"`
	Seed    uint64    `json:"seed"`
	Status  string    `json:"status"`
	Error   *Error    `json:"error"`
	Winner  *int      `json:"winner"`
	Players []Player  `json:"players"`
	Replay  string    `json:"replay,omitempty"`
	Judge   JudgeInfo `json:"judge"`
}

// Error says why a match could not be judged.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Player is one player's part of the result.
type Player struct {
	Name  string       `json:"name"`
	Lang  string       `json:"lang"`
	Build build.Result `json:"build"`
	Score float64      `json:"score"`
	Rank  int          `json:"rank"`
	Fault *game.Fault  `json:"fault"`
	// Moves counts the player's answers to move requests (not READY, not SnakeCore's getName).
	Moves int `json:"moves"`
	// CPUms is all the CPU charged against the game's limits: every answer, and the start-up
	// beyond the runtime's allowance. StartupCPUms is all the CPU used before the first
	// request, the allowance included.
	CPUms        int64 `json:"cpu_ms"`
	StartupCPUms int64 `json:"startup_cpu_ms"`
	WallMs       int64 `json:"wall_ms"`
	MaxRSSKiB    int64 `json:"max_rss_kib"`
}

// JudgeInfo says who judged the match and when.
type JudgeInfo struct {
	Version  string    `json:"version"`
	Host     string    `json:"host"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
}

// Failed builds the result of a match that could not be judged.
func Failed(id, gameName string, seed uint64, code, message string) Result {
	return Result{Version: Version, ID: id, Game: gameName, Seed: seed, Status: StatusError,
		Error: &Error{Code: code, Message: message}}
}

// WriteTable prints the result for a person.
func (r Result) WriteTable(w io.Writer) error {
	if r.Status != StatusOK {
		msg := "unknown error"
		if r.Error != nil {
			msg = r.Error.Error()
		}
		_, err := fmt.Fprintf(w, "%s  seed %d  NOT JUDGED: %s\n", r.Game, r.Seed, msg)
		return err
	}
	winner := "draw"
	if r.Winner != nil && *r.Winner < len(r.Players) {
		winner = fmt.Sprintf("%s (player %d)", r.Players[*r.Winner].Name, *r.Winner)
	}
	fmt.Fprintf(w, "%s  seed %d  winner: %s\n", r.Game, r.Seed, winner)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tNAME\tLANG\tSCORE\tRANK\tMOVES\tCPU ms\tWALL ms\tMAX RSS KiB\tBUILD\tFAULT")
	for i, p := range r.Players {
		build := "ok"
		switch {
		case !p.Build.OK:
			build = "FAILED"
		case p.Build.Cached:
			build = "cached"
		}
		fault := "-"
		if p.Fault != nil {
			fault = fmt.Sprintf("%s at turn %d: %s", p.Fault.Kind, p.Fault.Turn, oneLine(p.Fault.Detail, 80))
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\n", i, p.Name, p.Lang,
			strconv.FormatFloat(p.Score, 'f', -1, 64), p.Rank, p.Moves, p.CPUms, p.WallMs, p.MaxRSSKiB, build, fault)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.Replay != "" {
		_, err := fmt.Fprintf(w, "replay: %s\n", r.Replay)
		return err
	}
	return nil
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		s = s[:max] + "..."
	}
	return s
}
