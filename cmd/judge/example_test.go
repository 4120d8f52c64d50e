package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/conform"
	"github.com/botjudge/judge/judge/game/manifest"
	"github.com/botjudge/judge/judge/game/referee"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/cores"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// exampleGame is docs/examples/on-the-run: On The Run's rules written again as a Python
// referee.
func exampleGame(t testing.TB) *referee.Game {
	t.Helper()
	g, err := referee.Load(os.DirFS(filepath.Join(sandboxtest.Root(), "docs", "examples", "on-the-run")), manifest.Check{
		Builtin: func(name string) bool { _, ok := games.Lookup(name); return ok }, Langs: images.LangNames()})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// builtinMap is the map the built-in On The Run generates for seed, in connect.txt format: the
// map option both referees are given, so that they need not share a map generator.
func builtinMap(t testing.TB, g game.Game, seed uint64, cities int) string {
	t.Helper()
	m, err := game.Start(g, game.Config{Seed: seed, Players: 2, Options: map[string]string{"cities": fmt.Sprint(cities)}})
	if err != nil {
		t.Fatal(err)
	}
	return string(m.Setup().Files[0]["connect.txt"])
}

// The protocol is enough for the richest of the five games: On The Run written again as a
// Python referee (docs/examples/on-the-run: a map file for each player, two roles, four-line
// answers, announcements, a 5-second whole-game budget) reaches the built-in referee's
// result, exchange for exchange - the same requests with the same time limits, the same
// verdicts, the same result - on 100 matches of real bots (the sample bots of four languages
// and the broken one, which times out as the Fugitive and breaks the protocol as the
// Detectives), each played live with the Python referee in its sandbox and re-judged by the
// built-in one; and on 50 matches of random answers (junk, illegal moves, crashes, timeouts),
// played by both.
func TestTheExampleRefereeIsTheBuiltInGame(t *testing.T) {
	r := matchtest.Runner(t)
	// Containers started ahead and used again, as judge serve's are: 100 matches of three
	// containers each would otherwise spend most of their time starting them.
	e := matchtest.Engine(r)
	e.Warm(sandbox.DefaultWarm)
	e.Reuse(sandbox.DefaultReuse)
	ctx := context.Background()
	py := exampleGame(t)
	builtin, _ := games.Lookup("ontherun")
	bound := r.Bind(ctx, py)

	bots := map[string]match.Entrant{}
	for _, lang := range []string{"cpp", "go", "rust", "pascal", "broken"} {
		bots[lang] = match.Entrant{Name: lang, Submission: matchtest.Load(t, filepath.Join("bots", "ontherun", lang))}
	}
	pairs := [][2]string{}
	for _, f := range []string{"cpp", "go", "rust", "pascal"} {
		for _, d := range []string{"cpp", "go", "rust", "pascal", "broken"} {
			pairs = append(pairs, [2]string{f, d})
		}
	}
	seen := map[string]int{}
	start := time.Now()
	for i := range 100 {
		seed := uint64(i + 1)
		p := pairs[i%len(pairs)]
		if i%33 == 32 {
			p[0] = "broken" // the Fugitive that never answers: it waits out the wall clock
		}
		opts := map[string]string{"map": builtinMap(t, builtin, seed, 10+int(seed*37%191)), "time": "5s"}
		var buf bytes.Buffer
		res, err := r.Play(ctx, match.Job{ID: fmt.Sprint("example-", seed), Game: py, Seed: seed, Options: opts,
			Players: []match.Entrant{bots[p[0]], bots[p[1]]}, Replay: &buf})
		if err != nil {
			t.Fatalf("seed %d, %s against %s: %v", seed, p[0], p[1], err)
		}
		rp, err := replay.Read(&buf)
		if err != nil {
			t.Fatal(err)
		}
		diffs, err := rp.Check(builtin, nil)
		if err != nil || len(diffs) > 0 {
			t.Fatalf("seed %d, %s against %s: the built-in referee parts from the Python one: %v %v", seed, p[0], p[1], err, diffs)
		}
		for _, pl := range res.Players {
			if pl.Fault != nil {
				seen[string(pl.Fault.Kind)]++
			}
		}
		seen[fmt.Sprint("winner ", *res.Winner)]++
		seen["exchanges"] += len(rp.Exchanges)
	}
	t.Logf("100 matches in %v: %v", time.Since(start).Round(time.Second), seen)
	if seen["timeout"] == 0 || seen["protocol"] == 0 || seen["winner 0"] == 0 || seen["winner 1"] == 0 {
		t.Errorf("the matches did not reach every ending: %v", seen)
	}

	// Random answers (junk, illegal moves, crashes, timeouts), and random legal play, which
	// reaches the announcements, the time bank's arithmetic over 50 turns and the escape.
	words := []string{"C", "T", "P", "1", "2", "3", "7", "12", "40", "C 2", "T 3", "P 7", "+3", "0"}
	escapes := 0
	for i := range 50 {
		seed := uint64(1000 + i)
		text := builtinMap(t, builtin, seed, 10+3*i)
		opts := map[string]string{"map": text, "time": "1s"}
		c := game.Config{Seed: seed, Players: 2, Options: opts}
		answers := func() func(game.Request) game.Reply { return conform.RandomAnswers(words, seed) }
		if i%2 == 1 {
			answers = func() func(game.Request) game.Reply { return legalAnswers(t, text, seed) }
		}
		want, err := playRandom(builtin, c, answers())
		if err != nil {
			t.Fatal(err)
		}
		got, err := playRandom(bound, c, answers())
		if err != nil {
			t.Fatalf("seed %d, the Python referee: %v", seed, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: the Python referee parts from the built-in one:\n%+v\n%+v", seed, got, want)
		}
		if last := want.Requests[len(want.Requests)-1]; last.Turn == 50 {
			escapes++
		}
	}
	if escapes == 0 {
		t.Error("no match of random legal play went the 50 turns")
	}
}

// legalAnswers plays both roles of On The Run on the map text with random legal moves, and
// now and then a move the rules forbid; each answer takes a random part of its time limit.
func legalAnswers(t testing.TB, text string, seed uint64) func(game.Request) game.Reply {
	links := map[string]map[int][]int{"C": {}, "T": {}, "P": {}}
	lines := strings.Split(text, "\n")
	for _, l := range lines[1:] {
		var kind string
		var a, b int
		if _, err := fmt.Sscanf(l, "%s %d-%d", &kind, &a, &b); err != nil {
			break // END
		}
		links[kind][a] = append(links[kind][a], b)
		links[kind][b] = append(links[kind][b], a)
	}
	n, _ := strconv.Atoi(lines[0])
	r := rand.New(rand.NewPCG(seed, 7))
	var fugitive int
	var dets []int
	return func(req game.Request) game.Reply {
		cpu := time.Duration(r.Int64N(int64(req.Limit/10) + 1)).Truncate(time.Microsecond)
		reply := func(ls ...string) game.Reply { return game.Reply{Lines: ls, CPU: cpu} }
		if r.IntN(200) == 0 {
			return reply(slices.Repeat([]string{"99999"}, req.Expect)...) // not a city: the end
		}
		in := strings.Fields(req.Send)
		switch {
		case req.Player == 1 && len(in) == 1 && in[0] == "Detectives":
			dets = r.Perm(n)[:4]
			var out []string
			for k := range dets {
				dets[k]++
				out = append(out, strconv.Itoa(dets[k]))
			}
			return reply(out...)
		case req.Player == 1: // the Detectives' moves: each to a random neighbour, all apart
			var out []string
			taken := map[int]bool{}
			for k, d := range dets {
				var near []int
				for _, kind := range []string{"C", "T", "P"} {
					for _, e := range links[kind][d] {
						if !taken[e] {
							near = append(near, e)
						}
					}
				}
				if len(near) > 0 {
					dets[k] = near[r.IntN(len(near))]
				}
				taken[dets[k]] = true
				out = append(out, strconv.Itoa(dets[k]))
			}
			return reply(out...)
		case fugitive == 0: // the Fugitive's start: a city of no detective's
			for {
				if c := r.IntN(n) + 1; !slices.Contains(in, strconv.Itoa(c)) {
					fugitive = c
					return reply(strconv.Itoa(c))
				}
			}
		default: // the Fugitive's move: a random one, away from the detectives when it can
			near := map[string]bool{}
			for _, d := range in {
				near[d] = true
				c, _ := strconv.Atoi(d)
				for _, kind := range []string{"C", "T", "P"} {
					for _, e := range links[kind][c] {
						near[strconv.Itoa(e)] = true
					}
				}
			}
			var safe, any []string
			for _, kind := range []string{"C", "T", "P"} {
				for _, e := range links[kind][fugitive] {
					move := fmt.Sprintf("%s %d", kind, e)
					any = append(any, move)
					if !near[strconv.Itoa(e)] {
						safe = append(safe, move)
					}
				}
			}
			if len(safe) > 0 {
				any = safe
			}
			move := any[r.IntN(len(any))]
			fmt.Sscanf(move[2:], "%d", &fugitive)
			return reply(move)
		}
	}
}

// randomPlay is what the judge sees of a match played by answer: each request, each verdict's
// kind and turn, and the result.
type randomPlay struct {
	Requests []game.Request
	Verdicts []string
	Result   game.Result
}

func playRandom(g game.Game, c game.Config, answer func(game.Request) game.Reply) (randomPlay, error) {
	m, err := game.Start(g, c)
	if err != nil {
		return randomPlay{}, err
	}
	log, err := conform.Drive(m, answer)
	if err != nil {
		return randomPlay{}, err
	}
	var p randomPlay
	for _, x := range log {
		req := x.Request
		req.Limit = req.Limit.Truncate(time.Microsecond) // the protocol's unit
		p.Requests = append(p.Requests, req)
		if x.Verdict != nil {
			p.Verdicts = append(p.Verdicts, fmt.Sprint(x.Verdict.Kind, "@", x.Verdict.Turn))
		}
	}
	p.Result = m.Result()
	for i, f := range p.Result.Faults {
		if f != nil {
			p.Result.Faults[i] = &game.Fault{Kind: f.Kind, Turn: f.Turn} // the detail is for people
		}
	}
	return p, nil
}

// meteredGame is g whose referee programs' CPU is measured: the CPU of each program at the
// end of its match's setup is added to setup, what it uses after to play.
func meteredGame(g game.Game, setup, play *time.Duration, asks *int, inAsks, closing *time.Duration) game.Game {
	rg, ok := g.(*referee.Game)
	if !ok {
		return g
	}
	m := *rg
	m.Start = func() (referee.Conn, io.Closer, error) {
		conn, closer, err := rg.Start()
		if err != nil {
			return nil, nil, err
		}
		p := closer.(interface{ CPU() time.Duration })
		var atSetup time.Duration
		first := true
		return connFunc(func(line []byte) ([]byte, error) {
				t0 := time.Now()
				out, err := conn.Exchange(line)
				if first {
					first, atSetup = false, p.CPU()
					*setup += atSetup
				} else {
					*asks++
					*inAsks += time.Since(t0)
				}
				return out, err
			}), closerFunc(func() error {
				*play += p.CPU() - atSetup
				t0 := time.Now()
				defer func() { *closing += time.Since(t0) }()
				return closer.Close()
			}), nil
	}
	return &m
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }

type connFunc func([]byte) ([]byte, error)

func (f connFunc) Exchange(line []byte) ([]byte, error) { return f(line) }

// BenchmarkRefereeExchange is the cost of On The Run's referee as a program of its own
// (docs/examples/on-the-run, Python, in its sandbox) against the built-in one, on the same
// matches: random legal play through each (no bots), 20 matches of a 200-city map an
// iteration. It reports a match's start (to its setup: the program started and its first
// answer) and then each exchange's wall time, to the match's last answer; for the program
// also its own CPU (its computation: reading the map, judging the moves), what is left of
// the wall time (the judge's side: the pipes, the JSON, the hold between answers), its
// answers per match and their wall time, and its end (the container stopped) apart.
// "program-unheld" is the program not held between its answers (sandbox.FreezeNone).
func BenchmarkRefereeExchange(b *testing.B) {
	r := matchtest.Runner(b)
	ctx := context.Background()
	// The referee program and the judge's side of its exchanges on the last core, as judge
	// serve pins a worker's bots and its side of theirs (sandbox.Beside).
	if usable, err := (cores.Host{}).Usable(); err == nil && len(usable) > 1 {
		r.Limits.CPUSet = usable[len(usable)-1].Set()
	}
	builtin, _ := games.Lookup("ontherun")
	type match struct {
		c    game.Config
		text string
	}
	var matches []match
	for i := range 20 {
		seed := uint64(2000 + i)
		text := builtinMap(b, builtin, seed, 200)
		matches = append(matches, match{game.Config{Seed: seed, Players: 2, Options: map[string]string{"map": text, "time": "1s"}}, text})
	}
	for _, name := range []string{"builtin", "program", "program-unheld"} {
		b.Run(name, func(b *testing.B) {
			defer sandbox.Beside(r.Limits.CPUSet)() // on the goroutine that plays: b.Run's own
			var setupCPU, playCPU, start, playing, inAsks, closing time.Duration
			asks := 0
			g := builtin
			if name != "builtin" {
				rr := *r
				if name == "program-unheld" {
					rr.Freeze = sandbox.FreezeNone // what the hold costs
				}
				g = meteredGame(rr.Bind(ctx, exampleGame(b)), &setupCPU, &playCPU, &asks, &inAsks, &closing)
			}
			exchanges := 0
			for range b.N {
				for _, mt := range matches {
					t0 := time.Now()
					m, err := game.Start(g, mt.c)
					if err != nil {
						b.Fatal(err)
					}
					m.Setup()
					t1 := time.Now()
					log, err := conform.Drive(m, legalAnswers(b, mt.text, mt.c.Seed))
					if err != nil {
						b.Fatal(err)
					}
					start, playing = start+t1.Sub(t0), playing+time.Since(t1)
					exchanges += len(log)
				}
			}
			n := float64(b.N * len(matches))
			// The referee's end (its container stopped) is the match's end, not an exchange's.
			playing -= closing
			per := float64(playing.Nanoseconds()) / float64(exchanges)
			b.ReportMetric(float64(start.Microseconds())/n/1000, "start-ms")
			b.ReportMetric(per/1000, "us/exchange")
			if name != "builtin" {
				b.ReportMetric(float64(setupCPU.Microseconds())/n/1000, "referee-start-cpu-ms")
				own := float64(playCPU.Nanoseconds()) / float64(exchanges)
				b.ReportMetric(own/1000, "referee-cpu-us/exchange")
				b.ReportMetric((per-own)/1000, "judge-us/exchange")
				b.ReportMetric(float64(asks)/n, "asks/match")
				b.ReportMetric(float64(closing.Microseconds())/n/1000, "end-ms")
				b.ReportMetric(float64(inAsks.Nanoseconds())/float64(asks)/1000, "us/ask")
			}
			b.ReportMetric(float64(exchanges)/n, "exchanges/match")
		})
	}
}

// BenchmarkMatchStart is the wall time of an On The Run match that ends at its third answer
// (the Detectives' start cities, then a Fugitive that starts on a detective: an illegal move)
// with its referee built in and as a program of its own (Python, in its sandbox), the bots'
// containers and the program's taken from a warm pool as the daemon's are.
func BenchmarkMatchStart(b *testing.B) {
	r := matchtest.Runner(b)
	e := matchtest.Engine(r)
	e.Warm(sandbox.DefaultWarm)
	ctx := context.Background()
	builtin, _ := games.Lookup("ontherun")
	dir := b.TempDir()
	for role, src := range map[string]string{
		"fugitive":   "import sys\nfor l in sys.stdin:\n    if l.strip().isdigit(): print(1, flush=True)\n",
		"detectives": "import sys\nsys.stdin.readline()\nprint('1\\n2\\n3\\n4', flush=True)\nfor l in sys.stdin: pass\n",
	} {
		os.MkdirAll(filepath.Join(dir, role), 0o755)
		os.WriteFile(filepath.Join(dir, role, "main.py"), []byte(src), 0o644)
	}
	players := []match.Entrant{{Name: "f", Submission: matchtest.Load(b, filepath.Join(dir, "fugitive"))},
		{Name: "d", Submission: matchtest.Load(b, filepath.Join(dir, "detectives"))}}
	opts := map[string]string{"map": builtinMap(b, builtin, 1, 200)}
	for _, name := range []string{"builtin", "program"} {
		b.Run(name, func(b *testing.B) {
			g := builtin
			if name == "program" {
				g = exampleGame(b)
			}
			play := func() {
				res, err := r.Play(ctx, match.Job{ID: "start", Game: g, Seed: 1, Options: opts, Players: players})
				if err != nil || res.Players[0].Fault == nil || res.Players[0].Fault.Kind != game.IllegalMove {
					b.Fatalf("%v %+v", err, res)
				}
			}
			play() // builds, and fills the pool
			e.Settle()
			b.ResetTimer()
			for range b.N {
				play()
				b.StopTimer()
				e.Settle() // the pool refills between matches, as between a daemon's jobs
				b.StartTimer()
			}
		})
	}
}
