package match_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// The lifecycle suite: however and whenever a bot ends, and whatever it does before its first
// request, the judge makes it that bot's fault or charge, exactly, never an infrastructure
// error, in every language. The bots are sandbox/testdata/lifecycle/<lang>.

var lifecycleLangs = images.LangNames()

func lifecycleBot(lang string) string { return "sandbox/testdata/lifecycle/" + lang }

// signalled is the crash detail of a lifecycle bot that sent itself signal sig. A bot is
// not the first process of its container (the launcher is, under runc; gVisor's kernel
// delivers such signals anyway), so every signal it sends itself is delivered. Go's runtime
// handles SIGABRT, SIGFPE and SIGSEGV and exits with status 2; the JVM exits with status
// 128 + the signal, which is reported as death by that signal.
func signalled(lang string, sig int) string {
	if lang == "go" && (sig == 6 || sig == 8 || sig == 11) {
		return "exited: exit status 2"
	}
	return fmt.Sprintf("exited: killed by signal %d", sig)
}

func TestEveryWayABotEndsIsItsCrash(t *testing.T) {
	r := matchtest.Runner(t)
	// The race of a bot that exits while its container starts needs many tries to show. It
	// is the sandbox's, whatever the language: the C++ bot, which exits soonest, tries each
	// way its runs (a third of them under gVisor); every other language tries each way once,
	// for its own crash detail (each language once tried each race 3 to 30 times: 400
	// matches a runtime).
	runs := func(lang string, n int) int {
		switch {
		case lang != "cpp":
			return 1
		case sandboxtest.GVisor():
			return max(n/3, 1)
		}
		return n
	}
	type way struct {
		name, start, cmds string
		turn              int
		detail            func(lang string) string
		runs              int
	}
	fixed := func(d string) func(string) string { return func(string) string { return d } }
	ways := []way{
		{name: "exits at once", start: "exit 3", cmds: "echo a,echo b,echo c", turn: 1, detail: fixed("exited: exit status 3"), runs: 30},
		{name: "exits after 50 ms", start: "sleep 50;exit 4", cmds: "echo a,echo b,echo c", turn: 1, detail: fixed("exited: exit status 4"), runs: 3},
		// What it prints before its first request is its first answer.
		{name: "exits after answering early", start: "echo a;exit 9", cmds: "echo a,echo b,echo c", turn: 2, detail: fixed("exited: exit status 9"), runs: 3},
		{name: "exits after READY", cmds: "ready:echo x,exit 5,echo c", turn: 2, detail: fixed("exited: exit status 5"), runs: 3},
		{name: "exits during a move", cmds: "echo a,exit 6,echo c", turn: 2, detail: fixed("exited: exit status 6"), runs: 3},
		{name: "exits with status 0", cmds: "echo a,exit 0,echo c", turn: 2, detail: fixed("exited: exit status 0"), runs: 1},
		{name: "closes its output and spins", cmds: "echo a,close,echo c", turn: 2, detail: fixed("closed its output and kept running"), runs: 1},
	}
	for _, sig := range []int{2, 6, 8, 9, 11, 15} {
		ways = append(ways, way{name: fmt.Sprintf("signal %d", sig), cmds: fmt.Sprintf("echo a,signal %d,echo c", sig), turn: 2,
			detail: func(lang string) string { return signalled(lang, sig) }, runs: 1})
	}
	for _, lang := range lifecycleLangs {
		for _, w := range ways {
			t.Run(lang+"/"+w.name, func(t *testing.T) {
				opts := map[string]string{"p0": honest, "p1": w.cmds, "limit": "2s"}
				if w.start != "" {
					opts["s1"] = w.start
				}
				for run := 0; run < runs(lang, w.runs); run++ {
					res, _ := matchtest.Play(t, r, script{}, uint64(run), opts, probeDir, lifecycleBot(lang))
					good, bad := res.Players[0], res.Players[1]
					if good.Fault != nil || good.Score != 3 {
						t.Fatalf("run %d: the other player scored %v with fault %v; want 3 and none", run, good.Score, good.Fault)
					}
					if w.detail(lang) == "" {
						if bad.Fault != nil || bad.Score != 3 {
							t.Fatalf("run %d: fault %v, score %v; want the bot to live on, no fault and 3", run, bad.Fault, bad.Score)
						}
						continue
					}
					want := &game.Fault{Kind: game.Crash, Turn: w.turn, Detail: w.detail(lang)}
					if f := bad.Fault; f == nil || f.Kind != want.Kind || f.Turn != want.Turn || !strings.HasPrefix(f.Detail, want.Detail) {
						t.Fatalf("run %d: fault %v; want %v", run, f, want)
					}
				}
			})
		}
	}
}

// allowance is the start-up CPU a bot of lang is not charged under the test runtime.
func allowance(t *testing.T, lang string) time.Duration {
	l, ok := images.LangByName(lang)
	if !ok {
		t.Fatalf("no language %s", lang)
	}
	return l.Startup(sandboxtest.Runtime())
}

// An empty bot's start-up is within its language's allowance: an honest bot pays nothing
// for its runtime's start, in every language.
func TestAnEmptyBotsStartIsFree(t *testing.T) {
	sandboxtest.Alone(t, "it measures start-up CPU against the wall clock")
	r := matchtest.Runner(t)
	for _, lang := range lifecycleLangs {
		for run := 0; run < 3; run++ {
			res, _ := matchtest.Play(t, r, script{}, 1, map[string]string{"p0": honest, "p1": honest}, probeDir, lifecycleBot(lang))
			p := res.Players[1]
			t.Logf("%s: start-up %d ms CPU, allowance %v", lang, p.StartupCPUms, allowance(t, lang))
			if time.Duration(p.StartupCPUms)*time.Millisecond > allowance(t, lang) {
				t.Errorf("%s: an empty bot used %d ms CPU starting up, more than its allowance %v", lang, p.StartupCPUms, allowance(t, lang))
			}
		}
	}
}

// CPU a bot burns before its first request is charged to that request: past the limit it is
// a timeout at that request, below it the result reports it and the replay's first exchange
// includes it.
func TestStartUpCPUIsCharged(t *testing.T) {
	sandboxtest.Alone(t, "it measures start-up CPU against its allowance")
	r := matchtest.Runner(t)
	for _, lang := range lifecycleLangs {
		t.Run(lang, func(t *testing.T) {
			// Over the limit, before READY and before a plain first answer: a burn of 800 ms
			// beyond the language's allowance, so that what is charged clears the 500 ms limit
			// by far under either runtime (the JVM's allowance under gVisor is 900 ms).
			burn := fmt.Sprintf("burn %d", 800+allowance(t, lang).Milliseconds())
			for _, cmds := range []string{"ready:echo x,echo a", "echo a,echo b"} {
				opts := map[string]string{"p0": honest, "p1": cmds, "s1": burn, "limit": "500ms"}
				res, _ := matchtest.Play(t, r, script{}, 1, opts, probeDir, lifecycleBot(lang))
				bad := res.Players[1]
				if f := bad.Fault; f == nil || f.Kind != game.Timeout || f.Turn != 1 || !strings.Contains(f.Detail, "500 ms CPU limit") || !strings.Contains(f.Detail, "starting up") {
					t.Errorf("%s: %s ms before a 500 ms first request: fault %v; want a timeout at turn 1 naming the start-up", cmds, burn, f)
				}
				// gVisor's kernel runs the bot's own clock ahead of the host's charge (as below):
				// 800 ms by the bot's clock was charged 776 ms once there.
				least := int64(790)
				if sandboxtest.GVisor() {
					least = 720
				}
				if bad.StartupCPUms < least || bad.CPUms < least-allowance(t, lang).Milliseconds() {
					t.Errorf("%s: start-up %d ms, charged %d ms; want at least %d ms and that less the allowance", cmds, bad.StartupCPUms, bad.CPUms, least)
				}
				if res.Players[0].Fault != nil || res.Players[0].Score != 3 {
					t.Errorf("the other player: %v, score %v", res.Players[0].Fault, res.Players[0].Score)
				}
			}
			// Under the limit: charged, not faulted. (The bot times its burn by its own CPU
			// clock, the judge by the cgroup's: they differ by a few milliseconds.)
			opts := map[string]string{"p0": honest, "p1": "ready:echo x,echo a", "s1": "burn 300", "limit": "2s"}
			res, rp := matchtest.Play(t, r, script{}, 1, opts, probeDir, lifecycleBot(lang))
			p := res.Players[1]
			if p.Fault != nil || p.Moves != 1 {
				t.Fatalf("burning 300 ms of a 2 s limit: fault %v, moves %d; want none and 1 move (READY is not a move)", p.Fault, p.Moves)
			}
			// gVisor's kernel runs the bot's own clock ahead of the host's charge (docs/rules.md,
			// "Your own clock"), so there 300 ms by the bot's clock is less by the cgroup's.
			least := int64(290)
			if sandboxtest.GVisor() {
				least = 150
			}
			charge := time.Duration(p.StartupCPUms)*time.Millisecond - allowance(t, lang)
			if p.StartupCPUms < least || time.Duration(p.CPUms)*time.Millisecond < charge {
				t.Errorf("start-up %d ms, charged %d ms in all; want at least %d ms and the start-up less the allowance (%v)", p.StartupCPUms, p.CPUms, least, charge)
			}
			for _, x := range rp.Exchanges {
				if x.Player == 1 {
					if got := time.Duration(x.CPUus) * time.Microsecond; got < charge-time.Millisecond {
						t.Errorf("the first exchange's CPU is %v; want the start-up charge %v included", got, charge)
					}
					break
				}
			}
		})
	}
}

// pinnedRunner is a runner whose bots run on the core where the starvation tests put their
// hogs. Those tests skip under gVisor: its kernel runs a bot's CPU clock on while the bot's
// thread waits for the host's CPU, so a burn timed by the bot's own clock ends after a fraction
// of its host CPU and is not starved this way; the sandbox's starvation tests cover gVisor.
func pinnedRunner(t *testing.T) (*match.Runner, int) {
	if sandboxtest.GVisor() {
		t.Skip("under gVisor a burn by the bot's own clock is not starved by host load")
	}
	r := matchtest.Runner(t)
	core := sandboxtest.LastCore()
	r.Limits.CPUSet = fmt.Sprint(core)
	return r, core
}

// A bot the machine starves while it starts up is still starting up: the judge waits until
// it is idle (little CPU and no thread ready to run), not merely until it gets little CPU, so
// its whole start-up is charged to its first request. Hogs leave its core about a thirteenth,
// less than the tenth of a core that counts as idle.
func TestStarvedStartUpIsCharged(t *testing.T) {
	sandboxtest.Alone(t, "it starves a bot's start-up on purpose")
	r, core := pinnedRunner(t)
	stop := sandboxtest.Hog(t, core, 2, 12*1024)
	// The hogs stop once the match asks its first question (player 0, the honest one, at turn 1).
	g := hooked{turn: 1, before: stop, after: func() {}}
	opts := map[string]string{"p0": honest, "p1": "echo a,echo b", "s1": "burn 400", "limit": "2s"}
	res, _ := matchtest.Play(t, r, g, 1, opts, probeDir, lifecycleBot("cpp"))
	p := res.Players[1]
	t.Logf("start-up %d ms CPU, %d ms charged", p.StartupCPUms, p.CPUms)
	if p.Fault != nil || p.StartupCPUms < 390 {
		t.Errorf("a bot burning 400 ms while starved: fault %v, start-up %d ms; want no fault and the whole burn as its start-up", p.Fault, p.StartupCPUms)
	}
}

// Lines a bot prints before READY are ignored by the game but kept in the replay, and the
// READY exchange is not a move.
func TestLinesBeforeReadyAreKept(t *testing.T) {
	r := matchtest.Runner(t)
	opts := map[string]string{"p0": "ready:echo one;echo two,echo a", "p1": honest}
	// The script game sends "echo one;echo two" as one line: the probe answers it as is.
	res, rp := matchtest.Play(t, r, script{}, 1, opts, probeDir, probeDir)
	if p := res.Players[0]; p.Fault != nil || p.Moves != 1 || p.Score != 2 {
		t.Fatalf("player 0: fault %v, moves %d, score %v; want none, 1 and 2", p.Fault, p.Moves, p.Score)
	}
	x := rp.Exchanges[0]
	if x.Player != 0 || len(x.Received) != 2 || x.Received[0] != "echo one;echo two" || x.Received[1] != "echo READY" {
		t.Errorf("the READY exchange recorded %q; want the line before READY and READY", x.Received)
	}
}

// hooked is the script game with a hook around one request: before runs when the game asks
// player 0 at turn turn, after when the answer is back (each once, not again when the replay
// is re-judged).
type hooked struct {
	script
	turn          int
	before, after func()
}

func (h hooked) New(c game.Config) (game.Match, error) {
	m, err := h.script.New(c)
	return &hookedMatch{Match: m, h: h}, err
}

type hookedMatch struct {
	game.Match
	h     hooked
	armed bool
}

func (m *hookedMatch) Next() (game.Request, bool) {
	req, done := m.Match.Next()
	if !done && req.Player == 0 && req.Turn == m.h.turn && m.h.before != nil {
		m.h.before()
		m.armed = true
	}
	return req, done
}

func (m *hookedMatch) Reply(r game.Reply) *game.Fault {
	if m.armed {
		m.armed = false
		m.h.after()
	}
	return m.Match.Reply(r)
}

// A bot the machine starves is not blamed: while it thinks, busy threads of a favoured
// scheduling group share its core, and a bot that needs 450 ms of CPU for a 500 ms move takes
// longer than the 2 s wall cap. The cap is extended by the time it waited for a CPU (or, if
// the machine starves it past five times the cap, the match is not judged: the judge's
// error, which the daemon retries). Either way the bot gets no fault.
func TestStarvedBotIsNotBlamed(t *testing.T) {
	sandboxtest.Alone(t, "it starves a bot on purpose")
	r, core := pinnedRunner(t)
	var stop func()
	once := false
	g := hooked{turn: 2,
		before: func() {
			if !once {
				stop = sandboxtest.Hog(t, core, 4, 5*1024) // the bot gets about a sixth of its core
			}
		},
		after: func() {
			if !once {
				once = true
				stop()
			}
		},
	}
	opts := map[string]string{"p0": "echo 1,burn 450,echo 3", "p1": honest, "limit": "500ms"}
	j := match.Job{ID: "starved", Game: g, Seed: 1, Options: opts, Players: []match.Entrant{
		{Name: "starved", Submission: matchtest.Load(t, probeDir)}, {Name: "other", Submission: matchtest.Load(t, probeDir)}}}
	res, err := r.Play(context.Background(), j)
	if !once && stop != nil {
		stop() // the match ended inside the hooked request
	}
	if err != nil {
		if !errors.Is(err, sandbox.ErrStarved) {
			t.Fatalf("the match: %v; want it judged, or an infrastructure error for the starved bot", err)
		}
		t.Logf("starved past the bound: %v", err)
		return
	}
	p := res.Players[0]
	if p.Fault != nil || p.Score != 3 {
		t.Fatalf("the starved bot: fault %v, score %v; want none and 3", p.Fault, p.Score)
	}
	t.Logf("the starved bot: %d ms CPU, %d ms wall", p.CPUms, p.WallMs)
	if p.WallMs <= 2000 {
		t.Fatalf("the bot took %d ms of wall time: the load did not starve it past the 2 s cap, so this proves nothing", p.WallMs)
	}
}

// BenchmarkStartupCPU measures what an empty bot of each language uses to start, before its
// first request, in real matches: the median and the largest over b.N matches, and the median
// as a share of the language's allowance (images.Lang.Startup) under the test runtime; and the
// memory it took, the container's peak (the median).
func BenchmarkStartupCPU(b *testing.B) {
	r := matchtest.Runner(b)
	for _, lang := range images.LangNames() {
		b.Run(lang, func(b *testing.B) {
			var ms, kib []float64
			for i := 0; i < b.N; i++ {
				j := match.Job{ID: "bench", Game: script{}, Seed: 1, Options: map[string]string{"p0": "echo 1", "p1": "echo 1"},
					Players: []match.Entrant{{Name: "a", Submission: matchtest.Load(b, lifecycleBot(lang))}, {Name: "b", Submission: matchtest.Load(b, lifecycleBot("cpp"))}}}
				res, err := r.Play(context.Background(), j)
				if err != nil {
					b.Fatal(err)
				}
				ms = append(ms, float64(res.Players[0].StartupCPUms))
				kib = append(kib, float64(res.Players[0].MaxRSSKiB))
			}
			slices.Sort(ms)
			slices.Sort(kib)
			l, _ := images.LangByName(lang)
			b.ReportMetric(ms[len(ms)/2], "startup-ms")
			b.ReportMetric(ms[len(ms)-1], "max-startup-ms")
			b.ReportMetric(ms[len(ms)/2]/float64(l.Startup(sandboxtest.Runtime()).Milliseconds()), "of-allowance")
			b.ReportMetric(kib[len(kib)/2], "peak-KiB")
		})
	}
}
