// Package games is the registry of the games the judge referees.
package games

import (
	"bots"

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

// Starter is the sample bot of g in lang with g's helper library for it (WithLibrary): what a
// contestant starts from. An added game's comes from its directory (game.Samples), a built-in
// game's from the judge's own (package bots).
func Starter(g game.Game, lang string) (map[string][]byte, bool) {
	var files map[string][]byte
	if s, ok := g.(game.Samples); ok {
		files, _ = s.Sample(lang)
	} else if _, builtin := Lookup(g.Name()); builtin {
		files, _ = bots.Sample(g.Name(), lang)
	}
	if len(files) == 0 {
		return nil, false
	}
	return game.WithLibrary(g, lang, files), true
}
