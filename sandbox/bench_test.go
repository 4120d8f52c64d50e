package sandbox_test

import (
	"bufio"
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// reportLatency adds the median and 99th percentile of the per-move times.
func reportLatency(b *testing.B, times []time.Duration) {
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds())/1e3, "median-us")
	b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds())/1e3, "p99-us")
}

// BenchmarkRoundTrip compares one move (write a line, the bot echoes it) through the
// sandbox with the same static binary on a plain OS pipe outside Docker.
func BenchmarkRoundTrip(b *testing.B) {
	e := sandboxtest.Engine(b)
	res := sandboxtest.Build(b, sandboxtest.Builder(b, e), "sandbox/testdata/probe")
	msg := []byte("echo 0123456789\n")

	b.Run("pipe", func(b *testing.B) {
		cmd := exec.Command(filepath.Join(res.Artifact, "bot"))
		in, _ := cmd.StdinPipe()
		outPipe, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		defer cmd.Process.Kill()
		out := bufio.NewReader(outPipe)
		times := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			start := time.Now()
			in.Write(msg)
			if _, err := out.ReadSlice('\n'); err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(start))
		}
		reportLatency(b, times)
	})

	for _, freeze := range []bool{false, true} {
		name := "sandbox"
		if freeze {
			name = "sandbox-freeze"
		}
		b.Run(name, func(b *testing.B) {
			p, err := e.Start(context.Background(), sandboxtest.Spec(res))
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			lim := sandbox.TurnLimits{CPU: time.Second, Wall: 5 * time.Second}
			if _, err := p.Exchange(msg, 1, lim); err != nil { // warm up
				b.Fatal(err)
			}
			if !freeze {
				p.Thaw()
			}
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				if freeze {
					_, err = p.Exchange(msg, 1, lim)
				} else {
					p.Send(msg, start.Add(lim.Wall))
					_, err = p.ReadLine(start.Add(lim.Wall))
				}
				if err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
			}
			reportLatency(b, times)
		})
	}
}

// BenchmarkStartToFirstAnswer is a container's start (create, attach, start, cgroup) up to
// the bot's first answer, and its removal, per language.
func BenchmarkStartToFirstAnswer(b *testing.B) {
	e := sandboxtest.Engine(b)
	builder := sandboxtest.Builder(b, e)
	for _, lang := range []string{"cpp", "pascal", "java", "go"} {
		res := sandboxtest.Build(b, builder, filepath.Join("bots/hello", lang))
		b.Run(lang, func(b *testing.B) {
			var first, remove time.Duration
			for i := 0; i < b.N; i++ {
				start := time.Now()
				p, err := e.Start(context.Background(), sandboxtest.Spec(res))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := p.Exchange([]byte("hi\n"), 1, sandbox.TurnLimits{CPU: 5 * time.Second, Wall: 20 * time.Second}); err != nil {
					b.Fatal(err)
				}
				first += time.Since(start)
				t := time.Now()
				p.Close()
				remove += time.Since(t)
			}
			b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms-to-first-answer")
			b.ReportMetric(float64(remove.Milliseconds())/float64(b.N), "ms-to-remove")
		})
	}
}
