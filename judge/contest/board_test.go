package contest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/result"
)

// The leaderboard says what the ladder is doing: off, stopped at the deadline, paused by a
// round, at its ceiling (and until when), or playing.
func TestLadderStatus(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	var idle, spent ladder.State
	vs := []ladder.Version{{Sub: "a", Login: "ann", Version: 1}, {Sub: "b", Login: "bob", Version: 1}}
	idle.Sync(vs, now)
	spent.Sync(vs, now)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range 10 { // the burst of a ceiling of 60, used
		if _, ok := spent.Pick(rng, fmt.Sprint("m", i), ladder.Seats{Least: 2, Want: 2}, ladder.Defaults, now); !ok {
			break
		}
		for id := range spent.Pending {
			spent.Apply(id, result.Result{Status: result.StatusOK, Players: []result.Player{{Rank: 1}, {Rank: 2}}}, ladder.Defaults, now)
		}
	}
	on := store.Contest{Ladder: true, LadderSettings: ladder.Defaults}
	late := on
	late.Deadline = now.Add(-time.Minute)
	closed := on
	closed.ClosedAt = now.Add(-2 * time.Minute)
	for _, c := range []struct {
		name   string
		ct     store.Contest
		st     *ladder.State
		busy   string
		status string
		says   string
	}{
		{"off", store.Contest{LadderSettings: ladder.Defaults}, &idle, "", api.LadderOff, "off"},
		{"after the deadline", late, &idle, "", api.LadderStopped, "stopped at the deadline, 2026-12-02T11:59:00Z"},
		{"closed by the organisers", closed, &idle, "", api.LadderStopped, "stopped when the organisers closed the contest, 2026-12-02T11:58:00Z"},
		{"a round running", on, &idle, "The official round is using the machines", api.LadderPaused, "official round"},
		{"at the ceiling", on, &spent, "", api.LadderCeiling, "next match starts about 12:01:00 UTC"},
		{"playing", on, &idle, "", api.LadderPlaying, ""},
	} {
		status, msg, next := ladderStatus(c.ct, c.st, c.busy, now)
		if status != c.status || !strings.Contains(msg, c.says) || (status == api.LadderCeiling) != !next.IsZero() {
			t.Errorf("%s: %s %q %v; want %s saying %q", c.name, status, msg, next, c.status, c.says)
		}
	}
}
