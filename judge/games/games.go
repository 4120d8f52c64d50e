// Package games is the registry of the games the judge referees.
package games

import (
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games/amazes"
	"github.com/botjudge/judge/judge/games/dropblock"
	"github.com/botjudge/judge/judge/games/langwars"
	"github.com/botjudge/judge/judge/games/ontherun"
	"github.com/botjudge/judge/judge/games/snakecore"
)

var all = []game.Game{amazes.New(), ontherun.New(), dropblock.New(), langwars.New(), snakecore.New()}

// All returns every game, in a fixed order.
func All() []game.Game { return append([]game.Game(nil), all...) }

// Lookup finds a game by name.
func Lookup(name string) (game.Game, bool) {
	for _, g := range all {
		if g.Name() == name {
			return g, true
		}
	}
	return nil, false
}
