package contest

import (
	"context"
	"fmt"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
)

// Board is a contest's leaderboard and what its ladder is doing.
type Board struct {
	Contest store.Contest
	State   ladder.State
	Rows    []ladder.Row
	// Status is api.LadderPlaying, LadderCeiling, LadderPaused, LadderStopped or LadderOff;
	// Message says it in words; Next is about when the next match starts, at the ceiling.
	Status  string
	Message string
	Next    time.Time
	// Busy is the round that uses the machines ("" when none).
	Busy string
}

// Board is the contest's leaderboard as the actor may read it (a contestant's own contest,
// any for the host).
func (e *Engine) Board(ctx context.Context, a Actor, contest string) (Board, error) {
	ct, err := e.Contest(ctx, a, contest)
	if err != nil {
		return Board{}, err
	}
	st, err := e.c.Store.Ladder(ctx, ct.Name)
	if err != nil {
		return Board{}, err
	}
	busy, err := e.Busy(ctx, ct.Name)
	if err != nil {
		return Board{}, err
	}
	b := Board{Contest: ct, State: st, Rows: st.Leaderboard(ct.LadderSettings.Leagues), Busy: busy}
	b.Status, b.Message, b.Next = ladderStatus(ct, &st, busy, time.Now())
	return b, nil
}

// ladderStatus is what the ladder is doing at now, in a word and in a sentence.
func ladderStatus(ct store.Contest, st *ladder.State, busy string, now time.Time) (string, string, time.Time) {
	switch {
	case !ct.Ladder:
		return api.LadderOff, "The ladder is off in this contest.", time.Time{}
	case !laddering(ct, now):
		what := "at the deadline"
		if ct.Ended() != ct.Deadline {
			what = "when the organisers closed the contest"
		}
		return api.LadderStopped, fmt.Sprintf("The ladder stopped %s, %s: no new matches are played.", what, ct.Ended().UTC().Format(time.RFC3339)), time.Time{}
	case busy != "":
		return api.LadderPaused, busy, time.Time{}
	}
	if next, ok := st.NextStart(ct.LadderSettings, now); ok && next.After(now) {
		return api.LadderCeiling, fmt.Sprintf("The ladder is at its ceiling (each version plays at most %d matches an hour, spread over the hour): the next match starts about %s.",
			ct.LadderSettings.Ceiling(), next.UTC().Format("15:04:05 MST")), next
	}
	return api.LadderPlaying, "", time.Time{}
}

// Busy is a notice when a round of the contest is using the machines, which the ladder's
// matches wait for; "" when none is running.
func (e *Engine) Busy(ctx context.Context, contest string) (string, error) {
	rs, err := e.c.Store.Rounds(ctx, contest)
	if err != nil {
		return "", err
	}
	for _, r := range rs {
		if r.Status != store.RoundRunning {
			continue
		}
		if r.Kind == store.RoundOfficial {
			return "The official round is using the machines: ladder matches wait until it is done.", nil
		}
		return "A test competition (" + r.ID + ") is using the machines: ladder matches wait until it is done.", nil
	}
	return "", nil
}
