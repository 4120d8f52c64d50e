package games_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
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
	"github.com/botjudge/judge/judge/submission"
)

// BenchmarkMarks is what a bot's drawings on the board (docs/viewer.md) cost the judge: each
// iteration plays three 150-turn Amazes matches of two C++ bots on one seed, the sample with
// its one mark a move replaced by none, by ten and by a hundred (ten times the stderr limits
// allow, to see the replay at its cap). Reported per count: the median gap between exchanges
// as the replay receives them (move-p50-us-N) and its ratio to the bots drawing none in the
// same iteration (move-N/0), the bots' own CPU time a move as the judge charged it
// (bot-cpu-p50-us-N: writing the lines is the bot's work), and the replay's size
// (replay-KiB-N).
func BenchmarkMarks(b *testing.B) {
	g, _ := games.Lookup("amazes")
	r := matchtest.Runner(b)
	r.Limits.CPUSet = fmt.Sprint(runtime.NumCPU() - 1)
	sample := matchtest.Load(b, "bots/amazes/cpp")
	const one = `std::cerr << "@judge dot 0 0 layer=sample" << std::endl;`
	if !strings.Contains(string(sample.Files["bot.cpp"]), one) {
		b.Fatal("the C++ sample no longer draws its mark as this benchmark expects")
	}
	counts := []int{0, 10, 100}
	bots := map[int]submission.Submission{}
	for _, n := range counts {
		draw := fmt.Sprintf(`for (int k = 0; k < %d; k++) std::cerr << "@judge line 0 0 " << k << " 1 color=#c62828 layer=plan\n"; std::cerr << std::flush;`, n)
		s := submission.Submission{Lang: sample.Lang, Files: map[string][]byte{"bot.cpp": []byte(strings.Replace(string(sample.Files["bot.cpp"]), one, draw, 1))}}
		bots[n] = s
		sub := s
		sub.Files = game.WithLibrary(g, sub.Lang, sub.Files)
		if built, err := r.Builder.Build(context.Background(), sub); err != nil || !built.OK {
			b.Fatalf("building the bot drawing %d marks: %v", n, err)
		}
	}
	play := func(n int, seed uint64) (gaps, cpu []time.Duration, size int64) {
		f, err := os.CreateTemp(b.TempDir(), "replay-*.jsonl")
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		buf := bufio.NewWriterSize(f, 64<<10)
		var stamps []time.Time
		j := match.Job{Game: g, Seed: seed, Options: map[string]string{"turns": "150"}, Replay: &stamped{w: buf, at: &stamps}}
		for k := range 2 {
			j.Players = append(j.Players, match.Entrant{Name: fmt.Sprint(k), Submission: bots[n]})
		}
		if _, err := r.Play(context.Background(), j); err != nil {
			b.Fatal(err)
		}
		if err := buf.Flush(); err != nil {
			b.Fatal(err)
		}
		st, err := f.Stat()
		if err != nil {
			b.Fatal(err)
		}
		for k := 1; k < len(stamps); k++ {
			gaps = append(gaps, stamps[k].Sub(stamps[k-1]))
		}
		f.Seek(0, io.SeekStart)
		rp, err := replay.Read(f)
		if err != nil {
			b.Fatal(err)
		}
		for _, x := range rp.Exchanges {
			cpu = append(cpu, time.Duration(x.CPUus)*time.Microsecond)
		}
		return gaps, cpu, st.Size()
	}
	median := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Nanoseconds()) / 1e3
	}
	gaps, cpus := map[int][]time.Duration{}, map[int][]time.Duration{}
	sizes := map[int][]int64{}
	var ratios = map[int][]float64{}
	for i := 0; i < b.N; i++ {
		base := 0.0
		for _, n := range counts {
			g, cpu, size := play(n, uint64(i+1))
			matchtest.Engine(r).Settle()
			m := median(g)
			if n == 0 {
				base = m
			}
			gaps[n] = append(gaps[n], g...)
			cpus[n] = append(cpus[n], cpu...)
			sizes[n] = append(sizes[n], size)
			ratios[n] = append(ratios[n], m/base)
		}
	}
	for _, n := range counts {
		b.ReportMetric(median(gaps[n]), fmt.Sprintf("move-p50-us-%d", n))
		b.ReportMetric(median(cpus[n]), fmt.Sprintf("bot-cpu-p50-us-%d", n))
		slices.Sort(ratios[n])
		if n > 0 {
			b.ReportMetric(ratios[n][len(ratios[n])/2], fmt.Sprintf("move-%d/0", n))
		}
		slices.Sort(sizes[n])
		b.ReportMetric(float64(sizes[n][len(sizes[n])/2])/1024, fmt.Sprintf("replay-KiB-%d", n))
	}
}
