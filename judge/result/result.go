// Package result is the judgement of one match as the outside sees it: the result JSON of
// docs/contract.md, and its human-readable table.
package result

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/botjudge/judge/judge/game"
)

// Version is the result format's version.
const Version = 1

// Status values.
const (
	StatusOK    = "ok"
	StatusError = "error"
)

// Code says why a match could not be judged: the result's error code. A Code is an error, so
// that errors.Is(err, result.BadOption) asks whether err is an *Error of that code.
type Code string

// The error codes (docs/contract.md). Every code but Infrastructure is final: judging the job
// again would give the same error. Infrastructure is the judge's own failure: the daemon
// retries it.
const (
	InvalidJob     Code = "invalid_job"
	UnknownGame    Code = "unknown_game"
	BadOption      Code = "bad_option"
	Infrastructure Code = "infrastructure"
	// Referee is an added game's referee program that broke the protocol (docs/referee.md):
	// the game's fault, never a bot's, and final: the same program would break it again.
	Referee Code = "referee"
)

func (c Code) Error() string { return string(c) }

// Result is one match's judgement.
type Result struct {
	Version int    `json:"version"`
	ID      string `json:"id"`
	Game    string `json:"game"`
	// GameVersion is an added game's version, as the replay's header has it.
	GameVersion string    `json:"game_version,omitempty"`
	Seed        uint64    `json:"seed"`
	Status      string    `json:"status"`
	Error       *Error    `json:"error"`
	Winner      *int      `json:"winner"`
	Players     []Player  `json:"players"`
	Replay      string    `json:"replay,omitempty"`
	Judge       JudgeInfo `json:"judge"`
}

// Error is a match that could not be judged: the one error type with which jobs are refused
// (job.Parse), matches fail (match.Runner.Play) and results report it (Result.Error), as
// jetstream's APIError is nats.go's. errors.Is matches it by its Code; errors.Is and
// errors.As also reach its cause.
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	// Err is the cause; it is not published (Message says it).
	Err error `json:"-"`
}

// Errorf is an error of the code whose message is formatted as fmt.Errorf does; a %w
// argument is its cause.
func Errorf(code Code, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	return &Error{Code: code, Message: err.Error(), Err: err}
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Unwrap is the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is e's Code.
func (e *Error) Is(target error) bool {
	c, ok := target.(Code)
	return ok && c == e.Code
}

// AsError is err as an *Error: err's own, or, for any other error, the judge's failure
// (Infrastructure) with err as its cause.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: Infrastructure, Message: err.Error(), Err: err}
}

// Player is one player's part of the result.
type Player struct {
	Name  string      `json:"name"`
	Lang  string      `json:"lang"`
	Build Build       `json:"build"`
	Score float64     `json:"score"`
	Rank  int         `json:"rank"`
	Fault *game.Fault `json:"fault"`
	// Moves counts the player's answers to move requests (not READY, not SnakeCore's getName).
	Moves int `json:"moves"`
	// CPUms is all the CPU charged against the game's limits: every answer, and the start-up
	// beyond the runtime's allowance. StartupCPUms is all the CPU used before the first
	// request, the allowance included.
	CPUms        int64 `json:"cpu_ms"`
	StartupCPUms int64 `json:"startup_cpu_ms"`
	WallMs       int64 `json:"wall_ms"`
	MaxRSSKiB    int64 `json:"max_rss_kib"`
	// Stderr is the end of what the bot wrote to stderr (StderrTail); the replay has all the
	// judge kept, move by move.
	Stderr string `json:"stderr,omitempty"`
	// Closest is the answer whose CPU came nearest its limit (the largest share; the first
	// of equals); nil for a player that answered nothing with a limit.
	Closest *CPUCall `json:"closest_call,omitempty"`
}

// CPUCall is one answer's CPU time against its limit: the player's closest call.
type CPUCall struct {
	Turn    int   `json:"turn"`
	CPUus   int64 `json:"cpu_us"`
	LimitUS int64 `json:"limit_us"`
}

// Share is the call's CPU as a share of its limit.
func (c CPUCall) Share() float64 {
	if c.LimitUS <= 0 {
		return 0
	}
	return float64(c.CPUus) / float64(c.LimitUS)
}

// Build is how a player's submission built (players[].build).
type Build struct {
	OK     bool   `json:"ok"`
	Cached bool   `json:"cached"`
	Image  string `json:"image"`
	// Toolchain names the compiler, as the compile image says (/judge/toolchain), so that
	// two rounds judged with different compilers can be told apart.
	Toolchain string       `json:"toolchain"`
	MS        int64        `json:"ms"`
	Log       string       `json:"log"`
	Failure   BuildFailure `json:"failure,omitempty"`
}

// BuildFailure says why a build that is not OK failed.
type BuildFailure string

// The build failures (docs/contract.md).
const (
	BuildCompileError     BuildFailure = "compile error" // the compiler refused the source
	BuildTimeout          BuildFailure = "timeout"
	BuildMemory           BuildFailure = "memory"
	BuildArtifactTooLarge BuildFailure = "artifact too large"
	BuildBadArtifact      BuildFailure = "bad artifact" // not what the language's run image can start
)

// The most of a bot's stderr a result holds: its last StderrLines lines, at most StderrBytes.
const (
	StderrLines = 20
	StderrBytes = 2 << 10
)

// StderrTail is the end of a bot's stderr as Player.Stderr holds it: its last StderrLines
// lines within StderrBytes, cut where a line starts (within the last line only when that one
// alone is longer), after a line saying how much was cut. A result is a small message, and
// the end is where a crash's message and stack trace are. A bot's drawings (lines "@judge ...",
// docs/viewer.md) are left out: they are drawn from the replay, and a bot that draws every
// move would otherwise fill the tail with them.
func StderrTail(s string) string {
	s = withoutMarks(s)
	cut := len(s)
	for lines := 0; cut > 0 && lines < StderrLines; lines++ {
		start := strings.LastIndexByte(s[:cut-1], '\n') + 1 // of the line that ends at cut
		if len(s)-start > StderrBytes {
			break
		}
		cut = start
	}
	if cut == len(s) && len(s) > StderrBytes {
		cut = len(s) - StderrBytes
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++
		}
	}
	if cut == 0 {
		return s
	}
	return fmt.Sprintf("[judge: %d earlier bytes of stderr not shown]\n", cut) + s[cut:]
}

// withoutMarks is stderr without its drawing lines.
func withoutMarks(s string) string {
	if !strings.Contains(s, "@judge ") {
		return s
	}
	var b strings.Builder
	for line := range strings.SplitAfterSeq(s, "\n") {
		if !strings.HasPrefix(line, "@judge ") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// JudgeInfo says who judged the match and when.
type JudgeInfo struct {
	Version  string    `json:"version"`
	Host     string    `json:"host"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	// Unsandboxed is a match whose bots ran as plain processes of the machine (judge play
	// --local), NoTimeLimits one played without time limits (--no-time-limits): neither is a
	// judgement a contest takes.
	Unsandboxed  bool `json:"unsandboxed,omitempty"`
	NoTimeLimits bool `json:"no_time_limits,omitempty"`
}

// Failed builds the result of a match that could not be judged.
func Failed(id, gameName string, seed uint64, err error) Result {
	return Result{Version: Version, ID: id, Game: gameName, Seed: seed, Status: StatusError, Error: AsError(err)}
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
	if r.Judge.Unsandboxed {
		fmt.Fprintln(w, "NOT SANDBOXED: the bots ran as plain processes of this machine, with its compilers (judge play --local)")
	}
	if r.Judge.NoTimeLimits {
		fmt.Fprintln(w, "NO TIME LIMITS: the bots had no time limits, and the game counted no time (--no-time-limits)")
	}
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
	writeBuildLogs(w, r.Players)
	if r.Replay != "" {
		_, err := fmt.Fprintf(w, "replay: %s\n", r.Replay)
		return err
	}
	return nil
}

// buildLogLines is how much of a compile log the table shows: its start, where the first
// error is; the JSON has all of it.
const buildLogLines = 30

// writeBuildLogs writes the compile log of each player whose build failed, once for the
// players of one bot (the same log).
func writeBuildLogs(w io.Writer, players []Player) {
	var logs []string
	seats := map[string][]string{}
	for i, p := range players {
		if p.Build.OK {
			continue
		}
		if _, ok := seats[p.Build.Log]; !ok {
			logs = append(logs, p.Build.Log)
		}
		seats[p.Build.Log] = append(seats[p.Build.Log], fmt.Sprintf("%d (%s)", i, p.Name))
	}
	for _, log := range logs {
		who := "player "
		if len(seats[log]) > 1 {
			who = "players "
		}
		fmt.Fprintf(w, "\n%s%s did not compile", who, strings.Join(seats[log], ", "))
		if strings.TrimSpace(log) == "" {
			fmt.Fprintln(w, ", with no compiler output")
			continue
		}
		fmt.Fprintln(w, ":")
		head, more := LogHead(log)
		for _, l := range head {
			fmt.Fprintln(w, "  "+l)
		}
		if more > 0 {
			fmt.Fprintf(w, "  ... %d more lines (--json has the whole log)\n", more)
		}
	}
}

// LogHead is the start of a compile log that a person is shown, its lines, and how many
// lines more it has.
func LogHead(log string) (head []string, more int) {
	lines := strings.Split(strings.TrimRight(log, "\n"), "\n")
	n := min(len(lines), buildLogLines)
	return lines[:n], len(lines) - n
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		s = s[:max] + "..."
	}
	return s
}
