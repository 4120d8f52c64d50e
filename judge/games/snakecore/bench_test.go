package snakecore

import (
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
)

// BenchmarkReferee plays a full default game (4 players, 30x30, 500 moves each) per
// iteration, with in-process bots and no Docker. "random" bots answer a random action
// without reading the request, so the time is the referee's: generating the field,
// building every request and performing every move. "greedy" bots read each request with
// the Go helper library and search the field, as a simple real bot does; their thinking is
// measured apart and subtracted in referee-ms.
func BenchmarkReferee(b *testing.B) {
	for _, bots := range []string{"random", "greedy"} {
		b.Run(bots, func(b *testing.B) {
			var botTime time.Duration
			requests := 0
			for i := 0; i < b.N; i++ {
				g, err := New().New(game.Config{Seed: uint64(i + 1), Players: 4})
				if err != nil {
					b.Fatal(err)
				}
				rng := game.NewRand(uint64(i))
				greedyBot := answerAll(b)
				for {
					req, done := g.Next()
					if done {
						break
					}
					requests++
					var r game.Reply
					if bots == "random" {
						r = game.Reply{Lines: []string{string("ULDRULDRNA"[rng.IntN(10)])}}
					} else {
						start := time.Now()
						r = greedyBot(req)
						botTime += time.Since(start)
					}
					if f := g.Reply(r); f != nil {
						b.Fatal(f)
					}
				}
				g.Result()
			}
			n := float64(b.N)
			elapsed := b.Elapsed()
			b.ReportMetric(float64((elapsed-botTime).Microseconds())/1000/n, "referee-ms/game")
			b.ReportMetric(float64((elapsed-botTime).Nanoseconds())/float64(requests)/1000, "referee-us/request")
			b.ReportMetric(float64(requests)/n, "requests/game")
		})
	}
}
