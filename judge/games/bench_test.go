package games_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/replay"
)

// BenchmarkMatch plays a full match of every game, its default number of C++ sample bots,
// through real sandboxes per iteration, then re-judges its replay with no bots at all (the
// referee alone). It reports the match's wall time, the referee's time, and the judge's share of
// the match: the part of the wall time the bots were not answering (container start and
// removal, building from the cache, the referee, the pipes). Each game is played with the bots'
// containers started when the match needs them ("cold") and taken from a warm pool ("warm",
// the daemon's default), which is let refill between matches.
func BenchmarkMatch(b *testing.B) {
	for _, g := range games.All() {
		for _, warm := range []int{0, 2} {
			b.Run(fmt.Sprintf("%s/%s", g.Name(), map[int]string{0: "cold", 2: "warm"}[warm]), func(b *testing.B) {
				benchMatch(b, g, nil, warm)
			})
		}
	}
}

// BenchmarkOneMove is the wall time of an Amazes match of one turn each (two exchanges), from
// the job to the result, with the bots' containers started when needed and from a warm pool.
func BenchmarkOneMove(b *testing.B) {
	g, _ := games.Lookup("amazes")
	for _, warm := range []int{0, 2} {
		b.Run(map[int]string{0: "cold", 2: "warm"}[warm], func(b *testing.B) {
			benchMatch(b, g, map[string]string{"turns": "1"}, warm)
		})
	}
}

func benchMatch(b *testing.B, g game.Game, opts map[string]string, warm int) {
	r := matchtest.Runner(b)
	e := matchtest.Engine(r)
	e.Warm(warm)
	bot := matchtest.Load(b, "bots/"+g.Name()+"/cpp")
	_, _, players := g.Players()
	play := func(seed uint64) (time.Duration, time.Duration, int, *replay.Replay) {
		var buf bytes.Buffer
		j := match.Job{Game: g, Seed: seed, Options: opts, Replay: &buf}
		for k := 0; k < players; k++ {
			j.Players = append(j.Players, match.Entrant{Name: fmt.Sprint(k), Submission: bot})
		}
		start := time.Now()
		res, err := r.Play(context.Background(), j)
		if err != nil {
			b.Fatal(err)
		}
		wall := time.Since(start)
		var bots time.Duration
		moves := 0
		for _, p := range res.Players {
			bots += time.Duration(p.WallMs) * time.Millisecond
			moves += p.Moves
		}
		rp, err := replay.Read(&buf)
		if err != nil {
			b.Fatal(err)
		}
		return wall, bots, moves, rp
	}
	play(1000) // builds (cached) and, warm, fills the pool for the bots' kind
	e.Settle()
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
}
