// Package amazes is the game Amazes (CodeCup 2010): two players explore an unknown
// 25 x 25 maze, scoring for the squares they discover and paying for every step.
//
// The rules, as this package enforces them with every decision the original page left open,
// are docs/games/amazes.md. The jury keeps each player's knowledge of the maze and applies the
// page's discovery and inference rules for it; see vision.go. The choices are also documented
// where they are made (vision.go, match.go).
package amazes

import (
	"time"

	"github.com/botjudge/judge/judge/game"
)

// New returns the game Amazes.
func New() game.Game { return game.Define(spec) }

// spec declares Amazes: always two players, Red (players[0]) and Blue.
var spec = game.Spec{
	Name: "amazes", MinPlayers: 2, MaxPlayers: 2, DefaultPlayers: 2,
	Options: []game.Declared{turnsOpt, timeOpt, memoryOpt, mazeOpt},
	Start:   begin,
}

// The options. The page fixes 150 turns; fewer make short test matches, more would break
// the page's promise.
var (
	turnsOpt  = game.IntOption{Name: "turns", Default: 150, Min: 1, Max: 150, Help: "turns per player"}
	timeOpt   = game.DurationOption{Name: "time", Default: 30 * time.Second, Min: time.Millisecond, Max: time.Hour, Help: "CPU time per player for the whole game"}
	memoryOpt = game.MemoryOption{DefaultMiB: 256}
	mazeOpt   = game.TextOption{Name: "maze", Help: "a maze in CodeCup's file layout (starts, then 51 lines of wall flags); empty: generated from the seed"}
)

// begin starts a match on the maze option's maze, or on one generated from the seed.
func begin(c game.Config, o *game.Options) (game.Match, error) {
	turns, budget, memory := turnsOpt.Read(o), timeOpt.Read(o), memoryOpt.Read(o)
	maze, err := game.ParseOr(o, mazeOpt, ParseMaze, func() (*Maze, error) { return generate(game.NewRand(c.Seed)), nil })
	if err != nil {
		return nil, err
	}
	return newMatch(maze, turns, budget, game.Setup{Options: o.Values, Memory: memory, World: worldOf(maze)}), nil
}

// World is Setup.World: the maze as the maze option writes it, and the starts spelled
// out for renderers.
type World struct {
	// Size is the number of rows and of columns.
	Size int `json:"size"`
	// Maze is the maze in the maze option's layout, starts included.
	Maze string `json:"maze"`
	// Starts are Red's and Blue's start places.
	Starts []Start `json:"starts"`
}

// Start is a start place: row and column from 1 (row 1 is the top), and the
// direction faced, one of N E S W.
type Start struct {
	Row int    `json:"row"`
	Col int    `json:"col"`
	Dir string `json:"dir"`
}

func worldOf(m *Maze) World {
	w := World{Size: size, Maze: m.String()}
	for _, p := range m.starts {
		w.Starts = append(w.Starts, Start{Row: p.sq/size + 1, Col: p.sq%size + 1, Dir: p.dir.String()})
	}
	return w
}
