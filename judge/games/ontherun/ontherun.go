// Package ontherun is the referee's rules of On The Run (CodeCup 2007): a Fugitive travels a
// map of cities by car, train and plane while four Detectives, told only the Fugitive's
// transport (and every fifth turn its city), try to catch it within 50 turns.
//
// players[0] plays the Fugitive, players[1] the Detectives. The rules as enforced are
// docs/games/ontherun.md; where the original page is silent, decided here:
//   - The Detectives receive the Fugitive's start city as a notice right after the Fugitive
//     chose it, so their stream is exactly the page's: role, (their 4 lines), start city,
//     then one transport line per turn.
//   - A line that is not in the expected shape at all (not a number, wrong number of fields)
//     is a protocol fault; a well-formed move the rules forbid is an illegal move.
//
// An arrest always makes the Detectives the winner, 10-10 (an arrest after the tenth
// announcement) included. An invalid answer, a crash or a timeout loses 20-0, and both
// players are then told Quit, the offender first (the referee drops a notice to a bot that is
// no longer running). Answers are read through game.TrimLine and game.Fields: surrounding
// ASCII whitespace is ignored and fields are split at runs of it; any other character, a
// Unicode space included, is part of the answer. A map supplied with the option map is
// checked for every property the page promises, each connection type's planarity included
// (planar.go); a generated map has them by construction. docs/games/ontherun.md gives the
// rules as a contestant needs them.
package ontherun

import (
	"time"

	"github.com/botjudge/judge/judge/game"
)

// New returns the game On The Run.
func New() game.Game { return game.Define(spec) }

// spec declares On The Run: exactly two players, the Fugitive and the Detectives.
var spec = game.Spec{
	Name: "ontherun", MinPlayers: 2, MaxPlayers: 2, DefaultPlayers: 2,
	Options: []game.Declared{citiesOpt, timeOpt, memoryOpt, mapOpt},
	Start:   begin,
	Roles:   []string{"Fugitive", "Detectives"},
}

// The options: the map, the time budget and the memory limit.
var (
	citiesOpt = game.IntOption{Name: "cities", Default: 200, Min: 10, Max: maxCities, Help: "cities of a generated map (ignored when map is given)"}
	timeOpt   = game.DurationOption{Name: "time", Default: 5 * time.Second, Min: 10 * time.Millisecond, Max: time.Hour, Help: "CPU time per player for the whole game"}
	memoryOpt = game.MemoryOption{DefaultMiB: 64}
	mapOpt    = game.TextOption{Name: "map", Help: "a map in connect.txt format (text after END is ignored), checked for all the page promises, each type's planarity included; empty: generated from the seed"}
)

// begin starts a match on the supplied map, or on one generated from the seed.
func begin(c game.Config, o *game.Options) (game.Match, error) {
	cities, budget, memory := citiesOpt.Read(o), timeOpt.Read(o), memoryOpt.Read(o)
	m, err := game.ParseOr(o, mapOpt, parseMap, func() (*worldMap, error) { return generateMap(game.NewRand(c.Seed), cities) })
	if err != nil {
		return nil, err
	}
	return newMatch(m, game.Setup{Options: o.Values, Memory: memory}, budget), nil
}

// World is the map as replays and renderers see it (Setup.World).
type World struct {
	// Cities is the number of cities, labelled 1..Cities.
	Cities int `json:"cities"`
	// Size is the side of the square the coordinates lie in; 0 for a supplied map.
	Size int `json:"size,omitempty"`
	// Positions are the generated cities' coordinates; absent for a supplied map, whose
	// geometry is unknown.
	Positions []City `json:"positions,omitempty"`
	// Connections are the map's connections in connect.txt order.
	Connections []Connection `json:"connections"`
}

// City is a generated city's place, x to the right and y downwards.
type City struct {
	ID int `json:"id"`
	X  int `json:"x"`
	Y  int `json:"y"`
}

// Connection is one undirected connection; Type is C (car), T (train) or P (plane).
type Connection struct {
	Type string `json:"type"`
	A    int    `json:"a"`
	B    int    `json:"b"`
}

func (m *worldMap) world() World {
	w := World{Cities: m.n, Connections: make([]Connection, len(m.conns))}
	for k, c := range m.conns {
		w.Connections[k] = Connection{Type: c.kind.letter(), A: c.a, B: c.b}
	}
	if m.xy != nil {
		w.Size = mapSize
		for k, p := range m.xy {
			w.Positions = append(w.Positions, City{ID: k + 1, X: p[0], Y: p[1]})
		}
	}
	return w
}
