package contest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/game"
)

// Sizes are the player counts a contest's matches can have: the game's, as the contest's
// options allow them (SnakeCore's players option fixes one). Want is what its validation,
// ladder and rounds play: the game's default when the options allow it, else the least.
type Sizes struct{ Least, Most, Want int }

// matchSizes finds a contest's sizes by starting a match of each count the game takes with
// the options; none started is the default's error.
func matchSizes(g game.Game, opts map[string]string) (Sizes, error) {
	lo, hi, def := g.Players()
	var ok []int
	var defErr error
	for n := lo; n <= hi; n++ {
		_, err := game.Start(g, game.Config{Seed: 1, Players: n, Options: opts})
		if err == nil {
			ok = append(ok, n)
		} else if n == def {
			defErr = err
		}
	}
	if len(ok) == 0 {
		return Sizes{}, defErr
	}
	sz := Sizes{Least: ok[0], Most: ok[len(ok)-1], Want: ok[0]}
	if slices.Contains(ok, def) {
		sz.Want = def
	}
	return sz, nil
}

// sizeCache keeps matchSizes by game and options: the ladder asks every few seconds, and
// starting a match makes its map. The game is its name, player counts and options: a new
// version of an added game may change them.
type sizeCache struct{ m sync.Map }

func (c *sizeCache) of(g game.Game, opts map[string]string) (Sizes, error) {
	var key strings.Builder
	lo, hi, def := g.Players()
	fmt.Fprintf(&key, "%s\x00%d-%d-%d\x00%v", g.Name(), lo, hi, def, g.Options())
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		fmt.Fprintf(&key, "\x00%s=%s", k, opts[k])
	}
	if sz, ok := c.m.Load(key.String()); ok {
		return sz.(Sizes), nil
	}
	sz, err := matchSizes(g, opts)
	if err == nil {
		c.m.Store(key.String(), sz)
	}
	return sz, err
}

// Sizes are a contest's match sizes, and its game.
func (e *Engine) Sizes(c store.Contest) (game.Game, Sizes, error) {
	g, ok := e.c.Games(c.Game)
	if !ok {
		return nil, Sizes{}, fmt.Errorf("contest: contest %s: unknown game %q", c.Name, c.Game)
	}
	sz, err := e.sizes.of(g, c.Options)
	if err != nil {
		return g, sz, fmt.Errorf("contest: contest %s: %w", c.Name, err)
	}
	return g, sz, nil
}

// fillSeats fills a match's seats up to n: the contest's house bots in turn, each once and
// not one seated already, then own (the version itself) in the seats left. A contest of a
// game of four thus validates and tests a version from its first house bot on, or none.
func FillSeats(seats []store.Seat, n int, house []store.House, own store.Seat) []store.Seat {
	for _, h := range house {
		if len(seats) >= n {
			break
		}
		if !slices.ContainsFunc(seats, func(s store.Seat) bool { return s.House == h.Name }) {
			seats = append(seats, store.Seat{House: h.Name})
		}
	}
	for len(seats) < n {
		seats = append(seats, own)
	}
	return seats
}
