// Package dropblock is the game Drop the Block (JavaChallenge 2015): four players walk an
// 18 x 18 board of 6 x 6 blocks, drop the blocks ahead of them and, with the blocks, the
// players standing on them. The last player on the board wins.
//
// The rules as enforced are docs/games/dropblock.md. Where the original page is silent,
// decided here:
//   - Turns: T runs 0, 1, ..., turns-1 (1000 global turns by default, 250 per player); the
//     game ends after global turn turns-1, or as soon as a global turn leaves at most one
//     player on the board.
//   - Every player is asked for READY (in id order, Request.Turn 0) before global turn 0;
//     there is no other message outside the turns, and none at the end (stdin is closed).
//   - A player whose turn it is always gets the turn's input and answers one line, even
//     while its wait S is positive or after it fell (docs/games/dropblock.md: fallen players still receive
//     input); such an answer is read and ignored.
//   - A fallen player's line is "-1 -1 D S" with D and S as they were when it fell (docs/games/dropblock.md,
//     as the original engine): D the direction it faced, S its wait at that moment, which in
//     its own turn is the wait after that turn's decrement. Neither changes again.
//   - An action is the line's one letter U R D L A N after trimming the surrounding ASCII
//     whitespace (game.TrimLine: spaces, tabs, "\r", "\v", "\f"); anything else (lower
//     case, empty, several letters, a Unicode space such as U+00A0 around the letter) is an
//     unknown action and counts as N: never a fault.
//   - Every fault the referee reports (time out, crash, memory, a line too long, too much
//     output, a READY not given in time) is treated as time outs and crashes are (docs/games/dropblock.md):
//     the program is stopped and the player stays on the board doing N (its wait still counts
//     down, and it can still fall). A fault costs nothing else: the ranking is by survival
//     alone. A fault in a fallen player's turn is reported the same way.
//   - An attack always sets the wait, even when no block changes (facing the board edge).
//   - Scores: each player scores the number of players it outlasted: a player still on the
//     board at the end scores the number of fallen players, a fallen player the number of
//     players that fell in an earlier turn. So a lone survivor scores 3 and the first to fall
//     0; players still standing at the end share rank 1 (and a draw), players that fell in the
//     same turn share a rank, and game.RankByScore gives the ranks of docs/rules.md.
package dropblock

import (
	"time"

	"github.com/botjudge/judge/judge/game"
)

// New returns the game Drop the Block.
func New() game.Game { return game.Define(spec) }

// spec declares Drop the Block: always four players.
var spec = game.Spec{
	Name: "dropblock", MinPlayers: numPlayers, MaxPlayers: numPlayers, DefaultPlayers: numPlayers,
	Options: []game.Declared{turnsOpt, timeOpt, readyOpt, memoryOpt},
	Start:   begin,
}

// The options: turns, time, ready and memory.
var (
	turnsOpt  = game.IntOption{Name: "turns", Default: 1000, Min: 1, Max: 100000, Help: "global turns (one player's move each)"}
	timeOpt   = game.DurationOption{Name: "time", Default: time.Second, Min: time.Millisecond, Max: time.Minute, Help: "CPU time per action"}
	readyOpt  = game.DurationOption{Name: "ready", Default: time.Second, Min: time.Millisecond, Max: time.Minute, Help: "CPU time to print READY at the start"}
	memoryOpt = game.MemoryOption{DefaultMiB: 256}
)

// begin starts a match; the start positions and directions come from the seed.
func begin(c game.Config, o *game.Options) (game.Match, error) {
	starts := place(game.NewRand(c.Seed))
	setup := game.Setup{Options: o.Values, Memory: memoryOpt.Read(o), World: worldOf(starts)}
	return newMatch(starts, turnsOpt.Read(o), timeOpt.Read(o), readyOpt.Read(o), setup), nil
}

// World is Setup.World: the board's size and the players' start places.
type World struct {
	// Size is the number of rows and of columns of squares (18).
	Size int `json:"size"`
	// Block is the side of a block in squares (3): the board has Size/Block blocks a side.
	Block int `json:"block"`
	// Players are the start places in player order.
	Players []Start `json:"players"`
}

// Start is a player's start: row and column from 0 (row 0 is the top), and the direction
// faced, one of U R D L.
type Start struct {
	Row int    `json:"row"`
	Col int    `json:"col"`
	Dir string `json:"dir"`
}

func worldOf(starts [numPlayers]player) World {
	w := World{Size: size, Block: blockSide}
	for _, p := range starts {
		w.Players = append(w.Players, Start{Row: p.row, Col: p.col, Dir: string(dirLetters[p.dir])})
	}
	return w
}
