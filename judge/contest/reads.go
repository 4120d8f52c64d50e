package contest

import (
	"context"
	"errors"
	"slices"

	"github.com/botjudge/judge/judge/contest/store"
)

// What an actor may read. Every read of a contestant's thing checks that it is the actor's
// (or that the actor organises its contest); anything else is store.ErrNotFound, whether or
// not it exists.

// Match is a match the actor may read: its own (it asked for it, or played it on the
// ladder or in a validation), a round's (public in the contest), or any of its contest's for
// an organiser.
func (e *Engine) Match(ctx context.Context, a Actor, id string) (store.Match, error) {
	m, err := e.c.Store.Match(ctx, id)
	if err != nil {
		return m, err
	}
	if a.Host == "" && (a.Contest != m.Contest || !(a.Organiser || m.Kind == store.KindRound || slices.Contains(m.Readers(), a.Login))) {
		return store.Match{}, store.ErrNotFound
	}
	return m, nil
}

// Watchable is a match the actor may watch live: one it may read (Match), or a round's match a
// judge plays now, which has no record until its result (roundMatch): then a record of its id,
// contest and kind alone, whose players' stderr no contestant sees (Sees: it has no seats).
func (e *Engine) Watchable(ctx context.Context, a Actor, id string) (store.Match, error) {
	m, err := e.Match(ctx, a, id)
	if !errors.Is(err, store.ErrNotFound) || RoundOf(id) == "" {
		return m, err
	}
	r, rerr := e.Round(ctx, a, RoundOf(id))
	if rerr != nil {
		return store.Match{}, err
	}
	return store.Match{ID: id, Contest: r.Contest, Kind: store.KindRound}, nil
}

// Sees reports whether seat i of m is the actor's to see in full (its stderr, its
// compiler's log): its own bot's, or any for an organiser.
func (a Actor) Sees(m store.Match, i int) bool {
	return a.Organiser || (i < len(m.Seats) && m.Seats[i].House == "" && m.Seats[i].Login == a.Login)
}

// Lists is whose versions or matches the actor lists in its contest: its own, or, asked for
// all, everyone's ("*") - an organiser's to see only (ErrForbidden for anyone else).
func (a Actor) Lists(all bool) (string, error) {
	switch {
	case !all:
		return a.Login, nil
	case !a.Organiser:
		return "", ErrForbidden
	}
	return "*", nil
}

// Round is a round of the actor's contest, as the actor may see it (RoundFor).
func (e *Engine) Round(ctx context.Context, a Actor, id string) (store.Round, error) {
	r, err := e.c.Store.Round(ctx, id)
	if err != nil {
		return r, err
	}
	if a.Host == "" && r.Contest != a.Contest {
		return store.Round{}, store.ErrNotFound
	}
	return RoundFor(a, r), nil
}

// Rounds are the rounds of a contest the actor may see, as it may see them (RoundFor).
func (e *Engine) Rounds(ctx context.Context, a Actor, contest string) (store.Contest, []store.Round, error) {
	ct, err := e.Contest(ctx, a, contest)
	if err != nil {
		return ct, nil, err
	}
	rs, err := e.c.Store.Rounds(ctx, ct.Name)
	for i := range rs {
		rs[i] = RoundFor(a, rs[i])
	}
	return ct, rs, err
}

// RoundFor is a round as the actor may see it: a contestant sees the frozen versions'
// numbers, languages, hashes and toolchains, not the ids of other contestants' versions nor
// where their sources are kept; an organiser sees all.
func RoundFor(a Actor, r store.Round) store.Round {
	if a.Organiser {
		return r
	}
	r.Entrants = slices.Clone(r.Entrants)
	for i := range r.Entrants {
		r.Entrants[i].Sub, r.Entrants[i].Source = "", ""
	}
	return r
}
