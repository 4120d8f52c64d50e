// Package game defines what a game is to the referee: a pure, deterministic state machine.
//
// A game never does I/O, reads no clock and starts no goroutine. The referee asks the match
// what to do next (Next), does it with the real bots, and hands back what came of it
// (Reply). All randomness comes from the seed given to New. Replaying the recorded replies
// against a new match with the same seed and options reaches the same result: that is how
// `judge replay verify` proves a judgement.
package game

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"
)

// Game is one game's rules.
type Game interface {
	// Name is the game's identifier, e.g. "amazes".
	Name() string
	// Players is the allowed number of players, and the default.
	Players() (min, max, def int)
	// Options documents the game's options with their defaults.
	Options() []Option
	// New starts a match. Invalid options are an error naming the option (*OptionError).
	// c.Players is always a count the game takes: matches are started through Start.
	New(c Config) (Match, error)
}

// Config is what a match is started from.
type Config struct {
	Seed    uint64
	Players int
	// Options are the job's options as given (k=v); the game applies its defaults.
	Options map[string]string
}

// Match is one game being played.
type Match interface {
	// Setup is what the players need before the match starts.
	Setup() Setup
	// Next returns the referee's next request, or done when the game is over.
	Next() (req Request, done bool)
	// Reply delivers what came of the last request. The game judges the answer: it returns
	// a fault when the answer breaks the rules (the referee then stops that bot), or nil.
	// When r.Fault is set (the bot timed out, crashed, ...) the game applies its rule for
	// that fault and returns r.Fault.
	Reply(r Reply) *Fault
	// Result is the outcome, once Next has reported done.
	Result() Result
}

// Setup describes a match to the referee.
type Setup struct {
	// Options are all options with defaults applied, as strings: they recreate the match.
	Options map[string]string
	// Memory is each bot's memory limit in bytes.
	Memory int64
	// Files are read-only files placed in each player's working directory, by name.
	Files []map[string][]byte
	// World describes the generated world (maze, map, board) for replays and renderers.
	World any
}

// Request is one thing the referee does with one player.
type Request struct {
	Player int
	// Turn is the game's turn number, used in faults and the replay.
	Turn int
	// Send is written to the player's stdin (complete lines); it may be empty.
	Send string
	// Expect is the number of lines to read back; 0 makes the request a notice.
	Expect int
	// Ready, when set, makes the answer the first line equal to it (case-insensitive,
	// surrounding ASCII whitespace ignored, see TrimLine); lines before it are skipped.
	Ready string
	// Limit is the CPU time the answer may take; the wall-clock cap is 3x that, at least 2s.
	// A player's first request is also charged the CPU it used starting up (see
	// docs/rules.md), so Limit is what the rules give from the program's start to its answer.
	Limit time.Duration
	// Intro marks a request that is not a move (SnakeCore's getName): its answer is not
	// counted in the player's moves. A Ready request is never a move.
	Intro bool
}

// Reply is what came of a request.
type Reply struct {
	// Lines are the answer's lines exactly as written, without their "\n". A game reads them
	// through TrimLine and Fields, so that every game ignores the same whitespace. For a
	// Ready request they are every line the player wrote, the ready line last.
	Lines []string
	// Fault is set when there is no complete answer.
	Fault *Fault
	// CPU is the CPU time the player used for the answer; for its first request, the CPU it
	// used starting up is included (less the language runtime's allowance).
	CPU time.Duration
}

// asciiSpace is the whitespace a referee ignores: around an answer line and between its
// fields. Only ASCII: a no-break space or any other Unicode space is part of the answer, so a
// bot cannot pass as legal an answer the original engines would have refused.
const asciiSpace = " \t\r\n\v\f"

// TrimLine is an answer line without its surrounding ASCII whitespace (spaces, tabs, "\r",
// vertical tabs and form feeds). Every game reads its answers through TrimLine or Fields.
func TrimLine(line string) string { return strings.Trim(line, asciiSpace) }

// Fields splits an answer line at runs of ASCII whitespace, as TrimLine trims it.
func Fields(line string) []string {
	return strings.FieldsFunc(line, func(r rune) bool { return r < 0x80 && strings.ContainsRune(asciiSpace, r) })
}

// FaultKind says how a player broke the rules or stopped playing (docs/rules.md).
type FaultKind string

// The fault kinds.
const (
	CompileError FaultKind = "compile_error"
	Timeout                = "timeout"
	Crash                  = "crash"
	Memory                 = "memory"
	Protocol               = "protocol"
	IllegalMove            = "illegal_move"
	OutputLimit            = "output_limit"
	Forbidden              = "forbidden"
)

// Fault is why a player stopped playing by the rules.
type Fault struct {
	Kind   FaultKind `json:"kind"`
	Turn   int       `json:"turn"`
	Detail string    `json:"detail"`
}

func (f *Fault) Error() string { return fmt.Sprintf("%s at turn %d: %s", f.Kind, f.Turn, f.Detail) }

// Result is a match's outcome.
type Result struct {
	Scores []float64
	// Ranks are 1 for the best; equal scores share a rank.
	Ranks []int
	// Winner is a player index, or nil for a draw.
	Winner *int
	// Faults holds each player's fault (the first one), or nil.
	Faults []*Fault
}

// CheckPlayers is nil when n players may play g, else an error saying how many it takes
// ("amazes takes 2 players, the match has 3"). Every place that takes a player count asks it.
func CheckPlayers(g Game, n int) error {
	min, max, _ := g.Players()
	if n >= min && n <= max {
		return nil
	}
	takes := fmt.Sprint(min)
	if max != min {
		takes = fmt.Sprintf("%d to %d", min, max)
	}
	return fmt.Errorf("%s takes %s players, the match has %d", g.Name(), takes, n)
}

// Start starts a match of g: the one place where a player count is checked (CheckPlayers),
// so that a game's New is only ever given a count it takes. Every referee starts its matches
// here.
func Start(g Game, c Config) (Match, error) {
	if err := CheckPlayers(g, c.Players); err != nil {
		return nil, err
	}
	return g.New(c)
}

// Ranked is the result of a game ranked by score (RankByScore) with its unique top scorer as
// the winner.
func Ranked(scores []float64, faults []*Fault) Result {
	return Ranks(scores, RankByScore(scores), faults)
}

// Ranks is the result of a game that ranks its players itself; the player ranked 1 alone wins.
func Ranks(scores []float64, ranks []int, faults []*Fault) Result {
	return Result{Scores: scores, Ranks: ranks, Winner: UniqueWinner(ranks), Faults: slices.Clone(faults)}
}

// RankByScore ranks players by score, highest first; equal scores share a rank (1, 1, 3).
func RankByScore(scores []float64) []int {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	ranks := make([]int, len(scores))
	for pos, i := range idx {
		if pos > 0 && scores[i] == scores[idx[pos-1]] {
			ranks[i] = ranks[idx[pos-1]]
		} else {
			ranks[i] = pos + 1
		}
	}
	return ranks
}

// UniqueWinner is the player ranked 1 alone, or nil when several share the top.
func UniqueWinner(ranks []int) *int {
	winner := -1
	for i, r := range ranks {
		if r == 1 {
			if winner >= 0 {
				return nil
			}
			winner = i
		}
	}
	if winner < 0 {
		return nil
	}
	return &winner
}

// NewRand is the match's only source of randomness: a PCG generator seeded from the seed.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// Library is implemented by a game that supplies helper code to its bots at compile time
// (SnakeCore's parsers). Its files are added to every submission in that language before it
// is built, replacing a submission's files of the same path; a bot may also ignore them.
type Library interface {
	// Library returns the files for a language (relative paths), or none.
	Library(lang string) map[string][]byte
}

// Roles is implemented by a game whose seats play different parts (On The Run's Fugitive and
// Detectives): each seat's, by seat, or none when every seat plays alike.
type Roles interface {
	Roles() []string
}

// RolesOf is g's seats' parts, or nil.
func RolesOf(g Game) []string {
	if r, ok := g.(Roles); ok {
		return r.Roles()
	}
	return nil
}

// Directory is implemented by a game that is a directory of files (an added game: its
// manifest, referee, samples and rules): what plays it on a contestant's machine (judge play
// --game DIR).
type Directory interface {
	// Directory returns the files by path in the directory.
	Directory() map[string][]byte
}

// RulesPage is implemented by a game that carries its own rules page (an added game: its
// manifest's rules, Markdown); a built-in game's is the judge's (docs/games).
type RulesPage interface {
	// RulesPage returns the page's Markdown, or nil when the game has none.
	RulesPage() []byte
}

// Samples is implemented by a game that carries its own sample bots (an added game: its
// manifest's samples); a built-in game's are the judge's (package bots).
type Samples interface {
	// Sample returns the sample bot in lang, by path in its directory, or false.
	Sample(lang string) (map[string][]byte, bool)
}

// WithLibrary returns files plus g's library for lang, when g has one.
func WithLibrary(g Game, lang string, files map[string][]byte) map[string][]byte {
	lib, ok := g.(Library)
	if !ok {
		return files
	}
	extra := lib.Library(lang)
	if len(extra) == 0 {
		return files
	}
	out := make(map[string][]byte, len(files)+len(extra))
	for k, v := range files {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// Pending holds the request a match has asked and waits on. The referee relies on a match
// repeating that request from Next until Reply takes it; Pending does both halves. The zero
// value holds none.
type Pending struct {
	req  Request
	held bool
}

// Ask holds req and returns it, for Next.
func (p *Pending) Ask(req Request) Request {
	p.req, p.held = req, true
	return req
}

// Held is the request held, for Next to repeat; ok is false when none is.
func (p *Pending) Held() (req Request, ok bool) { return p.req, p.held }

// Take takes the request held, for Reply; ok is false when nothing was asked (a Reply then
// has nothing to judge).
func (p *Pending) Take() (req Request, ok bool) {
	req, ok = p.req, p.held
	p.req, p.held = Request{}, false
	return req, ok
}
