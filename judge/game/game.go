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
	// New starts a match. Invalid options are an error naming the option.
	New(c Config) (Match, error)
}

// Option documents one option of a game.
type Option struct {
	Name    string
	Default string
	Help    string
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

// Fault kinds (docs/rules.md).
const (
	CompileError = "compile_error"
	Timeout      = "timeout"
	Crash        = "crash"
	Memory       = "memory"
	Protocol     = "protocol"
	IllegalMove  = "illegal_move"
	OutputLimit  = "output_limit"
	Forbidden    = "forbidden"
)

// Fault is why a player stopped playing by the rules.
type Fault struct {
	Kind   string `json:"kind"`
	Turn   int    `json:"turn"`
	Detail string `json:"detail"`
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
// ("amazes takes 2 players, the job has 3"). Every place that takes a player count asks it.
func CheckPlayers(g Game, n int) error {
	min, max, _ := g.Players()
	if n >= min && n <= max {
		return nil
	}
	takes := fmt.Sprint(min)
	if max != min {
		takes = fmt.Sprintf("%d to %d", min, max)
	}
	return fmt.Errorf("%s takes %s players, the job has %d", g.Name(), takes, n)
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

// Options helps a game read its options: every value read is checked, and Done reports
// options the game does not know.
type Options struct {
	raw  map[string]string
	used map[string]bool
	errs []string
	// Values are all options with defaults applied, for Setup.Options.
	Values map[string]string
}

// NewOptions wraps a job's options.
func NewOptions(raw map[string]string) *Options {
	return &Options{raw: raw, used: map[string]bool{}, Values: map[string]string{}}
}

func (o *Options) get(name, def string) string {
	o.used[name] = true
	v, ok := o.raw[name]
	if !ok {
		v = def
	}
	o.Values[name] = v
	return v
}

// Int reads an integer option within [min, max].
func (o *Options) Int(name string, def, min, max int) int {
	s := o.get(name, fmt.Sprint(def))
	var v int
	if _, err := fmt.Sscanf(s, "%d", &v); err != nil || fmt.Sprint(v) != strings.TrimSpace(s) {
		o.errs = append(o.errs, fmt.Sprintf("option %s: %q is not an integer", name, s))
		return def
	}
	if v < min || v > max {
		o.errs = append(o.errs, fmt.Sprintf("option %s: %d is out of range %d..%d", name, v, min, max))
		return def
	}
	return v
}

// Duration reads a duration option ("30s", "1m") within [min, max].
func (o *Options) Duration(name string, def, min, max time.Duration) time.Duration {
	s := o.get(name, def.String())
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		o.errs = append(o.errs, fmt.Sprintf("option %s: %q is not a duration (e.g. 30s)", name, s))
		return def
	}
	if v < min || v > max {
		o.errs = append(o.errs, fmt.Sprintf("option %s: %v is out of range %v..%v", name, v, min, max))
		return def
	}
	return v
}

// String reads a string option (e.g. a maze or map given as text; "" when absent).
func (o *Options) String(name, def string) string { return o.get(name, def) }

// Fail records a problem with an option found by the game itself.
func (o *Options) Fail(name, format string, args ...any) {
	o.errs = append(o.errs, fmt.Sprintf("option %s: %s", name, fmt.Sprintf(format, args...)))
}

// Err reports bad values and unknown options, or nil.
func (o *Options) Err() error {
	errs := slices.Clone(o.errs)
	var unknown []string
	for k := range o.raw {
		if !o.used[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		known := make([]string, 0, len(o.used))
		for u := range o.used {
			known = append(known, u)
		}
		sort.Strings(known)
		errs = append(errs, fmt.Sprintf("unknown option %q (known: %s)", k, strings.Join(known, ", ")))
	}
	if len(errs) == 0 {
		return nil
	}
	return &OptionError{Problems: errs}
}

// OptionError is an invalid option; the referee reports it as bad_option.
type OptionError struct{ Problems []string }

func (e *OptionError) Error() string { return strings.Join(e.Problems, "; ") }

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

// The memory option is the same in every game: a bot's memory limit in MiB, within these
// bounds; only the default differs.
const (
	MinMemoryMiB = 16
	MaxMemoryMiB = 4096
)

// MemoryOption documents the memory option with a game's default (MiB).
func MemoryOption(defMiB int) Option {
	return Option{Name: "memory", Default: fmt.Sprint(defMiB),
		Help: fmt.Sprintf("memory per player in MiB, %d..%d", MinMemoryMiB, MaxMemoryMiB)}
}

// Memory reads the memory option (MiB, defMiB when absent) and returns it in bytes.
func (o *Options) Memory(defMiB int) int64 {
	return int64(o.Int("memory", defMiB, MinMemoryMiB, MaxMemoryMiB)) << 20
}
