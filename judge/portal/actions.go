package portal

import (
	"context"
	"slices"

	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/store"
)

// What a caller may read, shared by the pages and the API: what it may do is the contest
// engine's to decide (contest.Actor). Every read of a contestant's thing checks that it is
// the caller's (or that the caller organises its contest); anything else is "not found",
// whether or not it exists.

// actor serves the caller as the contest engine knows it.
func (c caller) actor() contest.Actor {
	return contest.Actor{Contest: c.Contest, Login: c.Login, Organiser: c.Organiser}
}

// mayRead reports whether c may see what login owns in contest.
func mayRead(c caller, contest, login string) bool {
	return c.Contest == contest && (c.Login == login || c.Organiser)
}

// match is a match the caller may read: its own (it asked for it, or played it on the
// ladder), or any of its contest's for an organiser.
func (s *Server) match(ctx context.Context, c caller, id string) (store.Match, error) {
	m, err := s.c.Store.Match(ctx, id)
	if err != nil {
		return m, err
	}
	if c.Contest != m.Contest || !(c.Organiser || m.Kind == store.KindRound || slices.Contains(m.Readers(), c.Login)) {
		return store.Match{}, errNotFound
	}
	return m, nil
}

// mine reports whether seat i of m is the caller's to see in full (its stderr): its own
// bot's, or any for an organiser.
func mine(c caller, m store.Match, i int) bool {
	return c.Organiser || (i < len(m.Seats) && m.Seats[i].House == "" && m.Seats[i].Login == c.Login)
}
