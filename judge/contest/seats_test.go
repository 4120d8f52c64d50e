package contest

import (
	"testing"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
)

// redefaulted is a game whose default player count is def: a new version of an added game
// can change it under the same name.
type redefaulted struct {
	game.Game
	def int
}

func (g redefaulted) Players() (int, int, int) {
	lo, hi, _ := g.Game.Players()
	return lo, hi, g.def
}

// The sizes kept for a game are its version's: a game of the same name whose default player
// count changed (an added game's new version) is sized again.
func TestSizesFollowTheGamesVersion(t *testing.T) {
	snake, _ := games.Lookup("snakecore")
	var c sizeCache
	for _, def := range []int{2, 4, 2} {
		sz, err := c.of(redefaulted{snake, def}, nil)
		if err != nil || sz.Want != def {
			t.Errorf("a game of default %d: %+v %v, want %d seats", def, sz, err, def)
		}
	}
}
