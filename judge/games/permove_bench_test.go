package games_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/sandbox"
)

// BenchmarkPerMove is the judge's cost per exchange inside a real match, against a plain OS
// pipe to the same bot with the same bytes, in the same run. Each iteration plays a short and
// a long match of two C++ sample bots with the same seed: the difference of their wall times
// over the difference of their exchanges is what one more exchange costs in a real match
// (the match's fixed costs, containers and builds, cancel out). The floor runs the same
// compiled bot as a plain process and sends it exactly what the long match sent player 0,
// timing each request to its answer. Reported: marginal-us (the judge, per exchange),
// pipe-us (the floor's median, per exchange), and their ratio; the gaps between the long
// match's exchanges as the replay receives them (move-p50-us, move-p99-us: what each took,
// whole) against the floor's (added-*-us: the differences of the quantiles); and the bytes the
// judge allocates per exchange beyond the short match's (alloc-B/exchange: the same in a long
// match as in a short one when nothing grows with its length; the replay's reading excluded).
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
			// Pinned as judge serve pins a worker's bots (sandbox.pin): the last core. The floor
			// runs there too, and so does the thread talking to it.
			core := runtime.NumCPU() - 1
			r.Limits.CPUSet = fmt.Sprint(core)
			bot := matchtest.Load(b, "bots/"+tc.game+"/cpp")
			sub := bot
			sub.Files = game.WithLibrary(g, sub.Lang, sub.Files) // as the runner builds it
			built, err := r.Builder.Build(context.Background(), sub)
			if err != nil || !built.OK {
				b.Fatalf("building the bot: %v", err)
			}
			var ms runtime.MemStats
			bytesAllocated := func() uint64 { runtime.ReadMemStats(&ms); return ms.TotalAlloc }
			play := func(value string, seed uint64, stamps *[]time.Time) (time.Duration, uint64, *replay.Replay) {
				// The replay goes where the daemon's goes: a file, through a fixed buffer.
				f, err := os.CreateTemp(b.TempDir(), "replay-*.jsonl")
				if err != nil {
					b.Fatal(err)
				}
				defer f.Close()
				buf := bufio.NewWriterSize(f, 64<<10)
				j := match.Job{Game: g, Seed: seed, Options: map[string]string{tc.option: value, "players": "2"},
					Replay: &stamped{w: buf, at: stamps}}
				if tc.game != "snakecore" {
					delete(j.Options, "players")
				}
				for k := range 2 {
					j.Players = append(j.Players, match.Entrant{Name: fmt.Sprint(k), Submission: bot})
				}
				a := bytesAllocated()
				start := time.Now()
				if _, err := r.Play(context.Background(), j); err != nil {
					b.Fatal(err)
				}
				wall := time.Since(start)
				a = bytesAllocated() - a
				if err := buf.Flush(); err != nil {
					b.Fatal(err)
				}
				f.Seek(0, io.SeekStart)
				rp, err := replay.Read(f)
				if err != nil {
					b.Fatal(err)
				}
				return wall, a, rp
			}
			var marginal, pipe, move []time.Duration
			var allocs []float64
			stamps := make([]time.Time, 0, 1<<14)
			for i := 0; i < b.N; i++ {
				seed := uint64(i + 1)
				// Each match's containers are removed before the next starts (the engine's
				// work in the background would otherwise fall in the next one's time).
				ws, as, short := play(tc.short, seed, nil)
				matchtest.Engine(r).Settle()
				stamps = stamps[:0]
				wl, al, long := play(tc.long, seed, &stamps)
				matchtest.Engine(r).Settle()
				if n := len(long.Exchanges) - len(short.Exchanges); n > 0 {
					marginal = append(marginal, (wl-ws)/time.Duration(n))
					allocs = append(allocs, (float64(al)-float64(as))/float64(n))
				}
				for k := 1; k < len(stamps); k++ {
					move = append(move, stamps[k].Sub(stamps[k-1]))
				}
				pipe = append(pipe, plainPipe(b, filepath.Join(built.Artifact, "bot"), long, 0, r.Limits.CPUSet)...)
			}
			for _, d := range [][]time.Duration{marginal, pipe, move} {
				slices.Sort(d)
			}
			q := func(d []time.Duration, f float64) float64 {
				return float64(d[int(f*float64(len(d)-1))].Nanoseconds()) / 1e3
			}
			m, p := marginal[len(marginal)/2], pipe[len(pipe)/2]
			b.ReportMetric(float64(m.Nanoseconds())/1e3, "marginal-us")
			b.ReportMetric(float64(p.Nanoseconds())/1e3, "pipe-us")
			b.ReportMetric(float64(m)/float64(p), "judge/pipe")
			slices.Sort(allocs)
			b.ReportMetric(allocs[len(allocs)/2], "alloc-B/exchange")
			b.ReportMetric(q(move, 0.5), "move-p50-us")
			b.ReportMetric(q(move, 0.99), "move-p99-us")
			b.ReportMetric(q(pipe, 0.99), "pipe-p99-us")
			b.ReportMetric(q(move, 0.5)-q(pipe, 0.5), "added-p50-us")
			b.ReportMetric(q(move, 0.99)-q(pipe, 0.99), "added-p99-us")
		})
	}
}

// stamped notes the time of each replay line of an exchange as it is written: the judge
// writes one per exchange, so the gaps between them are what each exchange took, whole.
type stamped struct {
	w  io.Writer
	at *[]time.Time
}

func (s *stamped) Write(p []byte) (int, error) {
	if s.at != nil && bytes.HasPrefix(p, []byte(`{"type":"move"`)) {
		*s.at = append(*s.at, time.Now())
	}
	return s.w.Write(p)
}

// plainPipe runs the bot as a plain process on OS pipes and sends it what the replay sent
// player, in order; it returns the time from each request that asks for an answer to the
// answer's last line.
func plainPipe(b *testing.B, bin string, rp *replay.Replay, player int, cpuset string) []time.Duration {
	defer sandbox.Beside(cpuset)()
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
	if err := cmd.Start(); err != nil { // started from the pinned thread: the bot inherits its cores
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
