package sandbox_test

import (
	"bufio"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// BenchmarkRoundTrip is one move (write a line, the bot echoes it) through the sandbox, the
// bot thawed before and frozen after as in a match, against the same static binary on a plain
// OS pipe outside Docker. The two alternate move by move so that both see the same machine;
// "added" is the median of the per-move differences. /nofreeze leaves the bot running. Both
// bots, and the thread talking to them, are on the last core, as judge serve pins a worker's
// bots and its side of the exchanges (sandbox.Beside).
func BenchmarkRoundTrip(b *testing.B) {
	e := sandboxtest.Engine(b)
	res := sandboxtest.Build(b, sandboxtest.Builder(b, e), "sandbox/testdata/probe")
	msg := []byte("echo 0123456789\n")
	core := fmt.Sprint(sandboxtest.LastCore())
	for _, freeze := range []sandbox.Freeze{sandbox.FreezeSignal, sandbox.FreezeCgroup, sandbox.FreezeNone} {
		b.Run("freeze="+string(freeze), func(b *testing.B) {
			defer sandbox.Beside(core)()
			cmd := exec.Command(filepath.Join(res.Artifact, "bot")) // started from the pinned thread: on its core
			in, _ := cmd.StdinPipe()
			outPipe, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			defer cmd.Process.Kill()
			out := bufio.NewReader(outPipe)

			spec := sandboxtest.Spec(res)
			spec.Freeze = freeze
			spec.Limits.CPUSet = core
			p, err := e.Start(context.Background(), spec)
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			lim := sandbox.TurnLimits{CPU: time.Second, Wall: 5 * time.Second}
			if _, err := p.Exchange(msg, 1, lim); err != nil { // warm up
				b.Fatal(err)
			}
			pipe := make([]time.Duration, 0, b.N)
			box := make([]time.Duration, 0, b.N)
			added := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				in.Write(msg)
				if _, err := out.ReadSlice('\n'); err != nil {
					b.Fatal(err)
				}
				mid := time.Now()
				if _, err := p.Exchange(msg, 1, lim); err != nil {
					b.Fatal(err)
				}
				end := time.Now()
				pipe = append(pipe, mid.Sub(start))
				box = append(box, end.Sub(mid))
				added = append(added, end.Sub(mid)-mid.Sub(start))
			}
			b.StopTimer()
			us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
			for _, x := range [][]time.Duration{pipe, box, added} {
				slices.Sort(x)
			}
			b.ReportMetric(us(pipe[len(pipe)/2]), "pipe-median-us")
			b.ReportMetric(us(pipe[len(pipe)*99/100]), "pipe-p99-us")
			b.ReportMetric(us(box[len(box)/2]), "sandbox-median-us")
			b.ReportMetric(us(box[len(box)*99/100]), "sandbox-p99-us")
			b.ReportMetric(us(added[len(added)/2]), "added-median-us")
			b.ReportMetric(float64(box[len(box)/2])/float64(pipe[len(pipe)/2]), "median-ratio")
		})
	}
}

// BenchmarkStartToFirstAnswer is a bot's start up to its first answer, per language: "cold",
// the container made when the bot is asked for (create, attach, start, cgroup); "warm", taken
// from the pool (sandbox.warm), made ahead. ms-in-background is the engine's work after the bot
// is closed, off the match's path: the container's removal and, warm, the pool's refill.
func BenchmarkStartToFirstAnswer(b *testing.B) {
	e := sandboxtest.Engine(b)
	builder := sandboxtest.Builder(b, e)
	// Baseline: the same static C++ binary started as a plain process.
	native := sandboxtest.Build(b, builder, "bots/hello/cpp")
	b.Run("process", func(b *testing.B) {
		var first time.Duration
		for i := 0; i < b.N; i++ {
			start := time.Now()
			cmd := exec.Command(filepath.Join(native.Artifact, "bot"))
			in, _ := cmd.StdinPipe()
			out, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			in.Write([]byte("hi\n"))
			if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
				b.Fatal(err)
			}
			first += time.Since(start)
			in.Close()
			cmd.Wait()
		}
		b.ReportMetric(float64(first.Microseconds())/1000/float64(b.N), "ms-to-first-answer")
	})
	for _, lang := range images.LangNames() {
		res := sandboxtest.Build(b, builder, filepath.Join("bots/hello", lang))
		for _, warm := range []int{0, 1} {
			b.Run(lang+"/"+map[int]string{0: "cold", 1: "warm"}[warm], func(b *testing.B) {
				e.Warm(warm)
				defer e.Warm(0)
				hello := func() (time.Duration, time.Duration) {
					start := time.Now()
					p, err := e.Start(context.Background(), sandboxtest.Spec(res))
					if err != nil {
						b.Fatal(err)
					}
					if _, err := p.Exchange([]byte("hi\n"), 1, sandbox.TurnLimits{CPU: 5 * time.Second, Wall: 20 * time.Second}); err != nil {
						b.Fatal(err)
					}
					first := time.Since(start)
					p.Close()
					t := time.Now()
					e.Settle()
					return first, time.Since(t)
				}
				hello() // warm: the kind's first start, which has the pool prepare it
				var first, background time.Duration
				for i := 0; i < b.N; i++ {
					f, bg := hello()
					first, background = first+f, background+bg
				}
				b.ReportMetric(float64(first.Microseconds())/1000/float64(b.N), "ms-to-first-answer")
				b.ReportMetric(float64(background.Microseconds())/1000/float64(b.N), "ms-in-background")
			})
		}
	}
}

// BenchmarkEchoPerLanguage is one move of each language's hello bot (write a line, the bot
// echoes it) through the sandbox, thawed before and frozen after as in a match, the bots on
// the last core as judge serve pins them: what each language's own reading and writing of a
// line adds to a move. Baseline: the C++ hello bot, measured in the same run.
func BenchmarkEchoPerLanguage(b *testing.B) {
	e := sandboxtest.Engine(b)
	builder := sandboxtest.Builder(b, e)
	core := fmt.Sprint(sandboxtest.LastCore())
	msg := []byte("echo 0123456789\n")
	for _, lang := range images.LangNames() {
		res := sandboxtest.Build(b, builder, filepath.Join("bots/hello", lang))
		b.Run(lang, func(b *testing.B) {
			defer sandbox.Beside(core)()
			spec := sandboxtest.Spec(res)
			spec.Limits.CPUSet = core
			p, err := e.Start(context.Background(), spec)
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			lim := sandbox.TurnLimits{CPU: 5 * time.Second, Wall: 20 * time.Second}
			for i := 0; i < 20; i++ { // the start, and a JIT's first compilations
				if _, err := p.Exchange(msg, 1, lim); err != nil {
					b.Fatal(err)
				}
			}
			moves := make([]time.Duration, 0, b.N)
			var cpu time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				turn, err := p.Exchange(msg, 1, lim)
				if err != nil {
					b.Fatal(err)
				}
				moves, cpu = append(moves, turn.Wall), cpu+turn.CPU
			}
			b.StopTimer()
			slices.Sort(moves)
			us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
			b.ReportMetric(us(moves[len(moves)/2]), "move-median-us")
			b.ReportMetric(us(moves[len(moves)*99/100]), "move-p99-us")
			b.ReportMetric(us(cpu)/float64(b.N), "cpu-us/move")
		})
	}
}
