// Package snakecore is the game SnakeCore (2008): every player steers a python, a head
// dragging a chain of blocks, over a square field with walls, reactors and free blocks. A
// python grows by eating free blocks, bites other pythons' chains for points, spends energy
// blocks on protection and scores n(n+1)/2 for delivering a body of n blocks to a reactor.
//
// The rules as enforced are docs/games/snakecore.md (the original page is in Russian). Where
// the page is silent, this package decides (each is also noted where it is made):
//   - An attack scores the number of blocks the victim loses: the attacked block and every
//     block after it to the tail (the part "bitten off"; the attacked block joins the
//     attacker, the others become free where they lie).
//   - Delivering to a reactor with no body (a head alone) is a skipped move.
//   - Blocks that reappear (delivered ones, in order from the head to the tail, then a spent
//     energy block) each go to a uniformly random empty cell, drawn after the move has
//     emptied the cells it empties; a block keeps its kind.
//   - The protection counter counts own moves: `A` adds 10, and each move of the python
//     (whatever its action, a skip too) takes 1 off as it begins, before the request is
//     built. So the activating move and the next nine are protected, the protection ends
//     just before the eleventh, the python's next request shows 9, and a python is
//     protected exactly while its counter (as every request shows it) is above 0.
//   - A disqualified python stays on the field; its turns pass as skips (its protection
//     runs out), its blocks can be attacked, and it keeps the points it scored.
//   - Every player is sent `getName` (turn 0, in id order) before the first round; then
//     each round asks every player still in the game for an action, in id order.
//   - An answer is trimmed of surrounding ASCII whitespace (game.TrimLine: spaces, tabs,
//     "\r", "\v", "\f"; a Unicode space such as U+00A0 is part of the answer); anything
//     other than exactly one of U L D R N A, and a name longer than 32 bytes or holding a
//     character below 0x20, is a protocol fault (the player is disqualified).
//   - Each answer's CPU limit is the per-answer limit (`first` for getName, `time` for
//     each getAction) or what is left of `total`, whichever is less (at least 1 ns). The
//     game ends after `moves` rounds with no message: the bots see the end of their input.
//   - The field: walls are round(n*n*walls/100) random cells, then the 4 reactors random
//     cells, each placed only where the cells that are neither wall nor reactor stay
//     connected (a reactor is an obstacle) and every reactor keeps an open neighbour; then
//     the blocks and the heads go to uniformly random empty cells. The number of blocks is
//     60 + 12 whatever the size.
//   - The player count comes from the referee (the number of bots); a `players` option, if
//     given, must agree with it.
//
// The field as the players see it, the pythons and the moves are in state.go; the
// requests and answers are in match.go; the helper libraries for bots are in lib/.
package snakecore

import (
	"time"

	"github.com/botjudge/judge/judge/game"
)

// New returns the game SnakeCore.
func New() game.Game { return game.Define(spec) }

// spec declares SnakeCore: 2 to 8 players, 4 by default, and the helper library.
var spec = game.Spec{
	Name: "snakecore", MinPlayers: playersOpt.Min, MaxPlayers: playersOpt.Max, DefaultPlayers: playersOpt.Default,
	Options: []game.Declared{sizeOpt, wallsOpt, movesOpt, playersOpt, firstOpt, timeOpt, totalOpt, memoryOpt},
	Start:   begin, Library: library,
}

// The game's fixed numbers (docs/games/snakecore.md).
const (
	numReactors   = 4
	numOrdinary   = 60
	numEnergy     = 12
	protectPerUse = 10
	maxName       = 32
)

// The options: the field, the length of the game and the limits.
var (
	sizeOpt    = game.IntOption{Name: "size", Default: 30, Min: 10, Max: 100, Help: "side of the square field"}
	wallsOpt   = game.IntOption{Name: "walls", Default: 6, Min: 0, Max: 30, Help: "walls in percent of the cells"}
	movesOpt   = game.IntOption{Name: "moves", Default: 500, Min: 1, Max: 10000, Help: "moves per player"}
	playersOpt = game.IntOption{Name: "players", Default: 4, Min: 2, Max: 8, Help: "the number of players (the referee passes the number of bots; a value given must agree)"}
	firstOpt   = game.DurationOption{Name: "first", Default: 15 * time.Second, Min: time.Millisecond, Max: time.Hour, Help: "CPU time for a player's first answer (getName)"}
	timeOpt    = game.DurationOption{Name: "time", Default: time.Second, Min: time.Millisecond, Max: time.Hour, Help: "CPU time for each later answer"}
	totalOpt   = game.DurationOption{Name: "total", Default: 2 * time.Minute, Min: time.Millisecond, Max: time.Hour, Help: "CPU time per player for the whole game"}
	memoryOpt  = game.MemoryOption{DefaultMiB: 256}
)

// config is a match's options, read and checked.
type config struct {
	players, size, walls, moves int
	first, time, total          time.Duration
}

// begin starts a match on a field generated from the seed.
func begin(c game.Config, o *game.Options) (game.Match, error) {
	cfg := config{size: sizeOpt.Read(o), walls: wallsOpt.Read(o), moves: movesOpt.Read(o),
		first: firstOpt.Read(o), time: timeOpt.Read(o), total: totalOpt.Read(o)}
	memory := memoryOpt.Read(o)
	// The option only confirms the count the referee passes (game.Start).
	if cfg.players = o.Int(playersOpt.Name, c.Players, playersOpt.Min, playersOpt.Max); cfg.players != c.Players {
		o.Fail("players", "%d, but the match has %d players", cfg.players, c.Players)
	}
	if need := wallCount(cfg.size, cfg.walls) + numReactors + numOrdinary + numEnergy + c.Players; need > cfg.size*cfg.size {
		o.Fail("size", "a %dx%d field has no room for %d walls, %d reactors, %d blocks and %d pythons",
			cfg.size, cfg.size, wallCount(cfg.size, cfg.walls), numReactors, numOrdinary+numEnergy, c.Players)
		return nil, nil
	}
	st, err := generate(game.NewRand(c.Seed), cfg.size, cfg.walls, c.Players)
	if err != nil {
		return nil, err
	}
	return newMatch(st, cfg, game.Setup{Options: o.Values, Memory: memory, World: st.world()}), nil
}

// World is Setup.World: the field at the start, as the first getAction shows it.
type World struct {
	// Size is the side of the field.
	Size int `json:"size"`
	// Rows are the field's rows from the top, one character per cell (see the package doc).
	Rows []string `json:"rows"`
	// Starts are the pythons' heads at the start, by player id.
	Starts []Point `json:"starts"`
}

// Point is a cell: X is the column, Y the row, both from 0 at the top left.
type Point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

func (s *state) world() World {
	w := World{Size: s.n, Rows: s.rows()}
	for _, p := range s.pythons {
		w.Starts = append(w.Starts, s.point(p.head))
	}
	return w
}
