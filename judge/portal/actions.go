package portal

import (
	"github.com/botjudge/judge/judge/contest"
)

// actor is the caller as the contest engine knows it: what it may read and do is the
// engine's to decide.
func (c caller) actor() contest.Actor {
	return contest.Actor{Contest: c.Contest, Login: c.Login, Organiser: c.Organiser}
}
