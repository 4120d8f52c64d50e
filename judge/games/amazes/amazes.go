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
func New() game.Game { return amazes{} }

type amazes struct{}

// Name is the game's identifier.
func (amazes) Name() string { return "amazes" }

// Players is always two: Red (players[0]) and Blue.
func (amazes) Players() (min, max, def int) { return 2, 2, 2 }

// The options, each declared once. The page fixes 150 turns; fewer make short test
// matches, more would break the page's promise.
var (
	turnsOpt  = game.IntOption{Name: "turns", Default: 150, Min: 1, Max: 150, Help: "turns per player"}
	timeOpt   = game.DurationOption{Name: "time", Default: 30 * time.Second, Min: time.Millisecond, Max: time.Hour, Help: "CPU time per player for the whole game"}
	memoryOpt = game.MemoryOption{DefaultMiB: 256}
	mazeOpt   = game.TextOption{Name: "maze", Help: "a maze in CodeCup's file layout (starts, then 51 lines of wall flags); empty: generated from the seed"}
)

// Options are turns, time, memory and maze.
func (amazes) Options() []game.Option { return game.Document(turnsOpt, timeOpt, memoryOpt, mazeOpt) }

// New starts a match on the maze option's maze, or on one generated from the seed.
func (amazes) New(c game.Config) (game.Match, error) {
	opts := game.NewOptions(c.Options)
	turns := turnsOpt.Read(opts)
	budget := timeOpt.Read(opts)
	memory := memoryOpt.Read(opts)
	text := mazeOpt.Read(opts)
	var maze *Maze
	if text != "" {
		var err error
		if maze, err = ParseMaze(text); err != nil {
			opts.Fail("maze", "%v", err)
		}
	}
	if err := opts.Err(); err != nil {
		return nil, err
	}
	if maze == nil {
		maze = generate(game.NewRand(c.Seed))
	}
	return newMatch(maze, turns, budget, game.Setup{
		Options: opts.Values,
		Memory:  memory,
		World:   worldOf(maze),
	}), nil
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
