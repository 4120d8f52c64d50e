package referee_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/conform"
	"github.com/botjudge/judge/judge/game/referee"
	"github.com/botjudge/judge/judge/games"
)

// BenchmarkProtocol is the protocol's own cost per exchange, with no process and no sandbox:
// each game played with random answers directly, and through referee.Serve and Match on
// in-memory pipes (both sides' JSON, the checks, the goroutine hand-offs). A referee program
// in its sandbox adds the pipes between processes, their wake-ups and the sandbox's
// bookkeeping (BENCHMARKS.md).
func BenchmarkProtocol(b *testing.B) {
	for _, g := range games.All() {
		for _, how := range []string{"direct", "protocol"} {
			b.Run(fmt.Sprintf("%s/%s", g.Name(), how), func(b *testing.B) {
				_, _, players := g.Players()
				exchanges := 0
				for i := range b.N {
					c := game.Config{Seed: uint64(i + 1), Players: players}
					var m game.Match
					var err error
					if how == "direct" {
						m, err = game.Start(g, c)
					} else {
						m, err = pipeMatch(b, g, c)
					}
					if err != nil {
						b.Fatal(err)
					}
					log, err := conform.Drive(m, conform.RandomAnswers(words[g.Name()], c.Seed))
					if err != nil {
						b.Fatal(err)
					}
					exchanges += len(log)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(exchanges)/1000, "us/exchange")
			})
		}
	}
}

// pipeMatch is g served as a referee program on in-memory pipes, and the Match over it.
func pipeMatch(b *testing.B, g game.Game, c game.Config) (game.Match, error) {
	toRef, fromJudge := io.Pipe()
	fromRef, toJudge := io.Pipe()
	go func() {
		err := referee.Serve(g, toRef, toJudge)
		toJudge.CloseWithError(fmt.Errorf("the referee ended: %v", err))
	}()
	b.Cleanup(func() { fromJudge.Close() })
	return referee.Start(referee.NewConn(fromRef, fromJudge), c)
}
