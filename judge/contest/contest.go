package contest

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/job"
)

// HouseBot is a house bot's sources, for NewContest.
type HouseBot struct {
	Name  string
	Lang  string
	Files map[string][]byte
}

// NewContest checks a contest against the judge's games and languages (the options by
// starting a match of the game with them), stores its house bots' sources and then the
// contest. Its maker a is the host's command line, or an organiser of another contest, who
// organises the new one too (with the same password).
func (e *Engine) NewContest(ctx context.Context, a Actor, c store.Contest, house []HouseBot) (store.Contest, error) {
	if a.Host == "" {
		if _, err := e.Organised(ctx, a, a.Contest); err != nil {
			return store.Contest{}, err
		}
	}
	langs := e.langs()
	g, ok := e.c.Games(c.Game)
	if !ok {
		return c, fmt.Errorf("%w: unknown game %q", store.ErrInvalid, c.Game)
	}
	if _, err := matchSizes(g, c.Options); err != nil {
		return c, fmt.Errorf("%w: %v", store.ErrInvalid, err)
	}
	for _, l := range c.Langs {
		if !slices.Contains(langs, l) {
			return c, fmt.Errorf("%w: unknown language %q (known: %s)", store.ErrInvalid, l, strings.Join(langs, ", "))
		}
	}
	if c.TestQuota < 0 {
		return c, fmt.Errorf("%w: a test-match quota is not negative", store.ErrInvalid)
	}
	if err := store.ValidName("contest", c.Name); err != nil {
		return c, err
	}
	withHouse := c
	for _, h := range house {
		if err := store.ValidName("house bot", h.Name); err != nil {
			return c, err
		}
		if _, dup := withHouse.HouseBot(h.Name); dup {
			return c, fmt.Errorf("%w: house bot %q twice", store.ErrInvalid, h.Name)
		}
		withHouse.House = append(withHouse.House, store.House{Name: h.Name})
	}
	if !c.LadderSettings.Unset() {
		if err := validLadder(withHouse); err != nil {
			return c, fmt.Errorf("%w: %v", store.ErrInvalid, err)
		}
	}
	for _, h := range house {
		key := HouseKey(c.Name, h.Name)
		if err := e.PutSources(ctx, key, job.NewPlayer(h.Name, h.Lang, game.WithLibrary(g, h.Lang, h.Files)).Files); err != nil {
			return c, err
		}
		c.House = append(c.House, store.House{Name: h.Name, Lang: h.Lang, Source: key})
	}
	c, err := e.c.Store.CreateContest(ctx, c)
	if err != nil {
		return c, err
	}
	if a.Host != "" {
		e.record(ctx, a, c.Name, "created the contest (%s)", c.Game)
		return c, nil
	}
	e.record(ctx, a, c.Name, "created the contest (%s), from contest %s", c.Game, a.Contest)
	me, err := e.c.Store.User(ctx, a.Contest, a.Login)
	if err != nil {
		return c, err
	}
	return c, e.c.Store.AddOrganiser(ctx, c.Name, me)
}
