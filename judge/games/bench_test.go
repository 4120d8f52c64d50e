package games_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/cores"
)

// BenchmarkMatch plays a full match of every game, its default number of C++ sample bots,
// through real sandboxes per iteration, then re-judges its replay with no bots at all (the
// referee alone). It reports the match's wall time, the referee's time, and the judge's share of
// the match: the part of the wall time the bots were not answering (container start and
// removal, building from the cache, the referee, the pipes), and the requests the judge made
// of the engine per match. Each game is played with the bots'
// containers started when the match needs them ("cold"), taken from a warm pool ("warm"),
// which is let refill between matches, or the bots' own containers of their last match, reset
// ("reused", the daemon's default under runc). The bots and the judge's side of the exchanges
// are on the last usable core, as judge serve's worker and judge match place them (sandbox.pin),
// but in "reused-unpinned", where the kernel places them. "reused-unfrozen" does not hold the
// bots between their turns (sandbox.FreezeNone, which the rules do not allow): what the hold
// costs.
func BenchmarkMatch(b *testing.B) {
	for _, g := range games.All() {
		for _, containers := range []string{"cold", "warm", "reused", "reused-unpinned", "reused-unfrozen"} {
			b.Run(fmt.Sprintf("%s/%s", g.Name(), containers), func(b *testing.B) {
				benchMatch(b, g, nil, containers)
			})
		}
	}
}

// BenchmarkOneMove is the wall time of an Amazes match of one turn each (two exchanges), from
// the job to the result, with the bots' containers started when needed, from a warm pool and
// used again.
func BenchmarkOneMove(b *testing.B) {
	g, _ := games.Lookup("amazes")
	for _, containers := range []string{"cold", "warm", "reused"} {
		b.Run(containers, func(b *testing.B) {
			benchMatch(b, g, map[string]string{"turns": "1"}, containers)
		})
	}
}

func benchMatch(b *testing.B, g game.Game, opts map[string]string, containers string) {
	r := matchtest.Runner(b)
	e := matchtest.Engine(r)
	containers, variant, _ := strings.Cut(containers, "-")
	if usable, err := (cores.Host{}).Usable(); err == nil && len(usable) > 1 && variant != "unpinned" {
		r.Limits.CPUSet = usable[len(usable)-1].Set()
	}
	if variant == "unfrozen" {
		r.Freeze = sandbox.FreezeNone
	}
	if containers != "cold" {
		e.Warm(sandbox.DefaultWarm)
	}
	if containers == "reused" {
		e.Reuse(sandbox.DefaultReuse)
	}
	// The bots' time is their exchanges' wall time to the nanosecond (the result's wall_ms
	// is whole milliseconds per bot), as the referee counts it.
	te := &timedEngine{Engine: e}
	ref := &match.Referee[*timedBot]{Sandbox: te, Builder: r.Builder, Limits: r.Limits, Freeze: r.Freeze, WorkDir: r.WorkDir}
	bot := matchtest.Load(b, "bots/"+g.Name()+"/cpp")
	_, _, players := g.Players()
	play := func(seed uint64) (time.Duration, time.Duration, int, *replay.Replay) {
		var buf bytes.Buffer
		j := match.Job{Game: g, Seed: seed, Options: opts, Replay: &buf}
		for k := 0; k < players; k++ {
			j.Players = append(j.Players, match.Entrant{Name: fmt.Sprint(k), Submission: bot})
		}
		te.wall = 0
		start := time.Now()
		res, err := ref.Play(context.Background(), j)
		if err != nil {
			b.Fatal(err)
		}
		wall := time.Since(start)
		moves := 0
		for _, p := range res.Players {
			moves += p.Moves
		}
		rp, err := replay.Read(&buf)
		if err != nil {
			b.Fatal(err)
		}
		return wall, te.wall, moves, rp
	}
	play(1000) // builds (cached) and, warm, fills the pool for the bots' kind
	e.Settle()
	calls := e.APICalls()
	b.ResetTimer()
	var matchTime, botTime, refereeTime time.Duration
	var moves int
	for i := 0; i < b.N; i++ {
		wall, bots, n, rp := play(uint64(i + 1))
		matchTime, botTime, moves = matchTime+wall, botTime+bots, moves+n
		start := time.Now()
		if _, err := rp.Rejudge(g); err != nil {
			b.Fatal(err)
		}
		refereeTime += time.Since(start)
		b.StopTimer()
		e.Settle() // the containers' removal, and the pool's refill, happen between matches
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(float64(matchTime.Microseconds())/1e3/n, "match-ms")
	b.ReportMetric(float64(refereeTime.Microseconds())/n, "referee-us")
	b.ReportMetric(float64(moves)/n, "moves")
	b.ReportMetric(100*(1-float64(botTime)/float64(matchTime)), "judge-share-%")
	// The engine's requests, those made in the background (removals, the pool's refill)
	// included.
	b.ReportMetric(float64(e.APICalls()-calls)/n, "engine-calls/match")
}

// timedEngine starts bots whose exchanges' wall time it adds up.
type timedEngine struct {
	*sandbox.Engine
	wall time.Duration
}

func (e *timedEngine) Start(ctx context.Context, spec sandbox.RunSpec) (*timedBot, error) {
	p, err := e.Engine.Start(ctx, spec)
	if err != nil {
		return nil, err
	}
	return &timedBot{Process: p, wall: &e.wall}, nil
}

type timedBot struct {
	*sandbox.Process
	wall *time.Duration
}

func (t *timedBot) Exchange(request []byte, lines int, lim sandbox.TurnLimits) (sandbox.Turn, error) {
	turn, err := t.Process.Exchange(request, lines, lim)
	*t.wall += turn.Wall
	return turn, err
}
