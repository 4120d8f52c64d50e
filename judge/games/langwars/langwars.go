// Package langwars is the game Lang Wars (JavaChallenge 2014): four programmers propagate
// eight programming languages for ten turns; whoever gathered the most believers of a
// language gains its attention degree in victory points, whoever gathered the fewest loses it.
//
// The rules as enforced, with every decision the original page left open, are
// docs/games/langwars.md:
//   - Each player first prints READY within the ready time (5 s CPU; case-insensitive, lines
//     before it are ignored). Then it is sent the settings `T P N` (`10 4 8` with the default
//     turns) and the eight attention degrees, uniform in 3..6 from the match's seed.
//   - Every turn each player in id order is sent `T D`, 8 rows of the revealed (workday)
//     believers, column 0 its own and then the others in ascending id, its own real
//     believers, and on workday turns the P line: how often each language was propagated by
//     all players in the previous holiday turn (zeros on turn 1). It answers with one line
//     of picks (5 on a workday, 2 on a holiday) within the time limit (1 s CPU).
//   - A pick that is not an integer 0..7, and a missing pick, counts as language 0; extra
//     picks are ignored. None of this is a fault.
//   - A player that times out or crashes (or never printed READY) is stopped and picks
//     language 0 on every later pick, and on the turn it failed.
//   - Victory points are exact: kept as integers times 12 (every share a/1..a/4 of an
//     attention degree a is a multiple of 1/12); the result's scores are those divided by 12.
//     The winner is the unique top scorer, otherwise the game is a draw.
//
// Where both are silent (decided here):
//   - The page writes the picks on one line, so the answer is exactly one line; picks are
//     separated by runs of ASCII whitespace (game.Fields: a Unicode space is part of a pick,
//     which then is no integer and counts as language 0). A bot that writes them on several lines has its first
//     line read (missing picks are language 0) and the rest read as its later answers.
//   - The settings are a notice right after every player printed READY (all four READYs
//     are asked for first, in id order); a stopped player is sent nothing more.
//   - After the last turn the bots are sent nothing more; their input is closed.
package langwars

import (
	"time"

	"github.com/botjudge/judge/judge/game"
)

// New returns the game Lang Wars.
func New() game.Game { return game.Define(spec) }

// spec declares Lang Wars: exactly four players.
var spec = game.Spec{
	Name: "langwars", MinPlayers: numPlayers, MaxPlayers: numPlayers, DefaultPlayers: numPlayers,
	Options: []game.Declared{turnsOpt, timeOpt, readyOpt, memoryOpt},
	Start:   begin,
}

// The page's numbers: 4 players, 8 languages, 10 turns, 5 picks on a workday and 2 on a
// holiday, attention degrees 3..6.
const (
	numPlayers   = 4
	numLangs     = 8
	workdayPicks = 5
	holidayPicks = 2
	minAttention = 3
	maxAttention = 6
	// vpScale: victory points are kept as integers times this (the least common multiple
	// of the possible sharer counts 1..4).
	vpScale = 12
)

// The options: turns (the page always plays 10), the time per answer, the time to READY
// and the memory.
var (
	turnsOpt  = game.IntOption{Name: "turns", Default: 10, Min: 1, Max: 100, Help: "turns of the game (the page: always 10; odd turns are workdays)"}
	timeOpt   = game.DurationOption{Name: "time", Default: time.Second, Min: 10 * time.Millisecond, Max: time.Minute, Help: "CPU time for each answer"}
	readyOpt  = game.DurationOption{Name: "ready", Default: 5 * time.Second, Min: 10 * time.Millisecond, Max: time.Minute, Help: "CPU time to print READY"}
	memoryOpt = game.MemoryOption{DefaultMiB: 256}
)

// begin starts a match with attention degrees drawn from the seed.
func begin(c game.Config, o *game.Options) (game.Match, error) {
	r := game.NewRand(c.Seed)
	var attention [numLangs]int
	for l := range attention {
		attention[l] = minAttention + r.IntN(maxAttention-minAttention+1)
	}
	setup := game.Setup{Options: o.Values, Memory: memoryOpt.Read(o), World: World{Attention: attention[:]}}
	return newMatch(attention, turnsOpt.Read(o), timeOpt.Read(o), readyOpt.Read(o), setup), nil
}

// World is Setup.World: the attention degree of each language, 0..7.
type World struct {
	Attention []int `json:"attention"`
}
