package games_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/replay"
)

// BenchmarkPerMove is the judge's cost per exchange inside a real match, against a plain OS
// pipe to the same bot with the same bytes, in the same run. Each iteration plays a short and
// a long match of two C++ sample bots with the same seed: the difference of their wall times
// over the difference of their exchanges is what one more exchange costs in a real match
// (the match's fixed costs, containers and builds, cancel out). The floor runs the same
// compiled bot as a plain process and sends it exactly what the long match sent player 0,
// timing each request to its answer. Reported: marginal-us (the judge, per exchange),
// pipe-us (the floor's median, per exchange), and their ratio.
func BenchmarkPerMove(b *testing.B) {
	for _, tc := range []struct {
		game        string
		option      string
		short, long string
	}{
		{"snakecore", "moves", "100", "2100"},
		{"amazes", "turns", "10", "150"},
	} {
		b.Run(tc.game, func(b *testing.B) {
			g, _ := games.Lookup(tc.game)
			r := matchtest.Runner(b)
			bot := matchtest.Load(b, "bots/"+tc.game+"/cpp")
			sub := bot
			sub.Files = game.WithLibrary(g, sub.Lang, sub.Files) // as the runner builds it
			built, err := r.Builder.Build(context.Background(), sub)
			if err != nil || !built.OK {
				b.Fatalf("building the bot: %v", err)
			}
			play := func(value string, seed uint64) (time.Duration, *replay.Replay) {
				var buf bytes.Buffer
				j := match.Job{Game: g, Seed: seed, Options: map[string]string{tc.option: value, "players": "2"}, Replay: replay.NewWriter(&buf)}
				if tc.game != "snakecore" {
					delete(j.Options, "players")
				}
				for k := range 2 {
					j.Players = append(j.Players, match.Entrant{Name: fmt.Sprint(k), Submission: bot})
				}
				start := time.Now()
				if _, err := r.Play(context.Background(), j); err != nil {
					b.Fatal(err)
				}
				wall := time.Since(start)
				rp, err := replay.Read(&buf)
				if err != nil {
					b.Fatal(err)
				}
				return wall, rp
			}
			var marginal, pipe []time.Duration
			for i := 0; i < b.N; i++ {
				seed := uint64(i + 1)
				ws, short := play(tc.short, seed)
				wl, long := play(tc.long, seed)
				if n := len(long.Exchanges) - len(short.Exchanges); n > 0 {
					marginal = append(marginal, (wl-ws)/time.Duration(n))
				}
				pipe = append(pipe, plainPipe(b, filepath.Join(built.Artifact, "bot"), long, 0)...)
			}
			slices.Sort(marginal)
			slices.Sort(pipe)
			m, p := marginal[len(marginal)/2], pipe[len(pipe)/2]
			b.ReportMetric(float64(m.Nanoseconds())/1e3, "marginal-us")
			b.ReportMetric(float64(p.Nanoseconds())/1e3, "pipe-us")
			b.ReportMetric(float64(m)/float64(p), "judge/pipe")
		})
	}
}

// plainPipe runs the bot as a plain process on OS pipes and sends it what the replay sent
// player, in order; it returns the time from each request that asks for an answer to the
// answer's last line.
func plainPipe(b *testing.B, bin string, rp *replay.Replay, player int) []time.Duration {
	cmd := exec.Command(bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { in.Close(); cmd.Process.Kill(); cmd.Wait() }()
	out := bufio.NewReaderSize(outPipe, 1<<20)
	var times []time.Duration
	for _, x := range rp.Exchanges {
		if x.Player != player {
			continue
		}
		if x.Verdict != nil || x.Fault != nil {
			break // the bot is stopped here in the match too
		}
		start := time.Now()
		if _, err := io.WriteString(in, x.Sent); err != nil {
			b.Fatal(err)
		}
		if x.Expect == 0 && x.Ready == "" {
			continue
		}
		for read := 0; ; {
			line, err := out.ReadString('\n')
			if err != nil {
				b.Fatalf("the plain bot: %v", err)
			}
			read++
			if x.Ready != "" && strings.EqualFold(game.TrimLine(line), x.Ready) || x.Ready == "" && read == x.Expect {
				break
			}
		}
		times = append(times, time.Since(start))
	}
	return times
}
