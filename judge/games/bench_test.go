package games_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/replay"
)

// BenchmarkMatch plays a full match of every game, its default number of C++ sample bots,
// through real sandboxes per iteration, then re-judges its replay with no bots at all (the referee alone). It reports
// the match's wall time, the referee's time, and the judge's share of the match: the part of
// the wall time the bots were not answering (container start and removal, building from the
// cache, the referee, the pipes).
func BenchmarkMatch(b *testing.B) {
	for _, g := range games.All() {
		name := g.Name()
		b.Run(name, func(b *testing.B) {
			r := matchtest.Runner(b)
			bot := matchtest.Load(b, "bots/"+name+"/cpp")
			_, _, players := g.Players()
			var matchTime, botTime, refereeTime time.Duration
			var moves int
			for i := 0; i < b.N; i++ {
				var buf bytes.Buffer
				j := match.Job{Game: g, Seed: uint64(i + 1), Replay: replay.NewWriter(&buf)}
				for k := 0; k < players; k++ {
					j.Players = append(j.Players, match.Entrant{Name: fmt.Sprint(k), Submission: bot})
				}
				start := time.Now()
				res, err := r.Play(context.Background(), j)
				if err != nil {
					b.Fatal(err)
				}
				matchTime += time.Since(start)
				for _, p := range res.Players {
					botTime += time.Duration(p.WallMs) * time.Millisecond
					moves += p.Moves
				}
				rp, err := replay.Read(&buf)
				if err != nil {
					b.Fatal(err)
				}
				start = time.Now()
				if _, err := rp.Rejudge(g); err != nil {
					b.Fatal(err)
				}
				refereeTime += time.Since(start)
			}
			n := float64(b.N)
			b.ReportMetric(float64(matchTime.Milliseconds())/n, "match-ms")
			b.ReportMetric(float64(refereeTime.Microseconds())/n, "referee-us")
			b.ReportMetric(float64(moves)/n, "moves")
			b.ReportMetric(100*(1-float64(botTime)/float64(matchTime)), "judge-share-%")
		})
	}
}
