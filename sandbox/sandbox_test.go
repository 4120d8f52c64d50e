package sandbox_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

var normal = sandbox.TurnLimits{CPU: time.Second, Wall: 5 * time.Second}

// probe starts the probe bot with the default limits, changed by adjust.
func probe(t *testing.T, adjust func(*sandbox.RunSpec)) *sandbox.Process {
	t.Helper()
	e := sandboxtest.Engine(t)
	res := sandboxtest.Build(t, sandboxtest.Builder(t, e), "sandbox/testdata/probe")
	spec := sandboxtest.Spec(res)
	if adjust != nil {
		adjust(&spec)
	}
	// Every probe runs in a container the pool prepared ahead of its match, as the daemon's
	// bots do: the restrictions must hold there.
	return sandboxtest.StartWarm(t, e, spec)
}

// ask sends one command and returns the single answer line.
func ask(t *testing.T, p *sandbox.Process, cmd string, lim sandbox.TurnLimits) (string, sandbox.Turn, error) {
	t.Helper()
	turn, err := p.Exchange([]byte(cmd+"\n"), 1, lim)
	if len(turn.Lines) == 1 {
		return string(turn.Lines[0]), turn, err
	}
	return "", turn, err
}

func mustAsk(t *testing.T, p *sandbox.Process, cmd string) string {
	t.Helper()
	ans, _, err := ask(t, p, cmd, normal)
	if err != nil {
		t.Fatalf("%s: %v (stderr %q)", cmd, err, p.Stderr())
	}
	return ans
}

func waitExit(t *testing.T, p *sandbox.Process) sandbox.Exit {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	x, err := p.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestEchoAndThreads(t *testing.T) {
	p := probe(t, nil)
	if got := mustAsk(t, p, "echo hello world"); got != "echo hello world" {
		t.Errorf("echo: got %q", got)
	}
	if got := mustAsk(t, p, "thread"); got != "thread 42" {
		t.Errorf("threads must be allowed: got %q", got)
	}
}

func TestForkKillsTheBot(t *testing.T) {
	p := probe(t, nil)
	_, _, err := ask(t, p, "fork", normal)
	if !errors.Is(err, sandbox.ErrClosed) {
		t.Fatalf("fork: want the bot gone (stdout closed), got %v", err)
	}
	x := waitExit(t, p)
	if x.Signal != 31 { // SIGSYS: killed by the seccomp profile
		t.Errorf("fork: want death by SIGSYS (31), got %v", x)
	}
}

func TestExecKillsTheBot(t *testing.T) {
	// The run image holds the launcher and the bot: executing either again is running a
	// program all the same.
	for _, path := range []string{"/bot/bot", "/judge/init"} {
		t.Run(path, func(t *testing.T) {
			p := probe(t, nil)
			if _, _, err := ask(t, p, "exec "+path, normal); !errors.Is(err, sandbox.ErrClosed) {
				t.Fatalf("exec: want the bot gone (stdout closed), got %v", err)
			}
			if x := waitExit(t, p); x.Signal != 31 {
				t.Errorf("exec: want death by SIGSYS (31), got %v", x)
			}
		})
	}
}

func TestMemoryBombIsOOM(t *testing.T) {
	p := probe(t, func(s *sandbox.RunSpec) { s.Limits.Memory = 64 << 20 })
	_, _, err := ask(t, p, "alloc 512", normal)
	if !errors.Is(err, sandbox.ErrClosed) {
		t.Fatalf("alloc 512 MiB in 64 MiB: want the bot killed, got %v", err)
	}
	if x := waitExit(t, p); !x.OOM {
		t.Errorf("want OOM reported, got %v", x)
	}
}

func TestPeakMemory(t *testing.T) {
	p := probe(t, func(s *sandbox.RunSpec) { s.Limits.Memory = 128 << 20 })
	if got := mustAsk(t, p, "alloc 48"); got != "allocated 48" {
		t.Fatalf("alloc 48: got %q", got)
	}
	if peak := p.PeakMemory(); peak < 48<<20 || peak > 100<<20 {
		t.Errorf("peak memory %d MiB after touching 48 MiB", peak>>20)
	}
}

func TestNoNetwork(t *testing.T) {
	p := probe(t, nil)
	got := mustAsk(t, p, "net")
	if got != "net ifaces=[] connect="+sandboxtest.NoRoute() {
		t.Errorf("want no interface but lo and an unreachable network, got %q", got)
	}
}

func TestNoFiles(t *testing.T) {
	p := probe(t, nil)
	for _, path := range []string{"/work/x", "/tmp/x", "/bot/x", "/x", "/dev/shm/x"} {
		got := mustAsk(t, p, "write "+path)
		if strings.HasSuffix(got, "succeeded") {
			t.Errorf("%s: the bot could write a file: %q", path, got)
		}
	}
}

// burned asks p to burn (cmd answers "burned US", the bot's own clock) and returns the bot's
// figure and the turn as the judge measured it.
func burned(t *testing.T, p *sandbox.Process, cmd string) (time.Duration, sandbox.Turn) {
	t.Helper()
	ans, turn, err := ask(t, p, cmd, sandbox.TurnLimits{CPU: 2 * time.Second, Wall: 6 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	us, err := strconv.ParseInt(strings.TrimPrefix(ans, "burned "), 10, 64)
	if err != nil {
		t.Fatalf("answer %q", ans)
	}
	return time.Duration(us) * time.Microsecond, turn
}

func TestCPUTimeMatchesTheBotsOwnClock(t *testing.T) {
	sandboxtest.Alone(t, "it compares CPU time with the wall clock")
	ref, turn := burned(t, probe(t, nil), "burn 800")
	if sandboxtest.GVisor() {
		// The cgroup also holds gVisor's kernel, which serves the bot's system calls (the
		// burn loop reads its CPU clock thousands of times): the judge charges that work
		// too, so it measures about as much as the bot's own clock or more. Not quite never
		// less: the bot's clock is gVisor's count of the time its thread was meant to run
		// (SECURITY.md), which a CI run found 1% above the host's charge (804 ms charged, 810
		// by the bot's clock).
		if turn.CPU < ref*95/100 || turn.CPU > ref*2 {
			t.Errorf("judge measured %v, the bot %v: want between 0.95x and 2x under gVisor", turn.CPU, ref)
		}
		return
	}
	if diff := math.Abs(float64(turn.CPU-ref)) / float64(ref); diff > 0.05 {
		t.Errorf("judge measured %v, the bot %v: %.1f%% apart, want within 5%%", turn.CPU, ref, diff*100)
	}
}

func TestCPULimit(t *testing.T) {
	sandboxtest.Alone(t, "it times a CPU limit against the wall clock")
	p := probe(t, nil)
	start := time.Now()
	_, turn, err := ask(t, p, "burn 3000", sandbox.TurnLimits{CPU: 500 * time.Millisecond, Wall: 5 * time.Second})
	if !errors.Is(err, sandbox.ErrCPULimit) {
		t.Fatalf("want ErrCPULimit, got %v", err)
	}
	if turn.CPU < 500*time.Millisecond || time.Since(start) > 2*time.Second {
		t.Errorf("stopped after %v CPU, %v wall: want just past 500ms", turn.CPU, time.Since(start))
	}
}

func TestSleeperHitsWallCap(t *testing.T) {
	sandboxtest.Alone(t, "it times a wall-clock cap")
	p := probe(t, nil)
	start := time.Now()
	_, turn, err := ask(t, p, "sleep 10000", sandbox.TurnLimits{CPU: time.Second, Wall: 2 * time.Second})
	if !errors.Is(err, sandbox.ErrWallLimit) {
		t.Fatalf("want ErrWallLimit, got %v", err)
	}
	if w := time.Since(start); w < 2*time.Second || w > 3*time.Second {
		t.Errorf("wall cap of 2s took %v", w)
	}
	idle := 100 * time.Millisecond
	if sandboxtest.GVisor() {
		idle = 200 * time.Millisecond // gVisor's kernel keeps a few percent of a core busy
	}
	if turn.CPU > idle {
		t.Errorf("a sleeper used %v CPU", turn.CPU)
	}
}

func TestFrozenBotUsesNoCPU(t *testing.T) {
	sandboxtest.Alone(t, "it measures a frozen bot's CPU against the wall clock")
	for _, mode := range []sandbox.Freeze{sandbox.FreezeSignal, sandbox.FreezeCgroup} {
		t.Run(string(mode), func(t *testing.T) {
			p := probe(t, func(s *sandbox.RunSpec) { s.Freeze = mode })
			mustAsk(t, p, "spin") // a thread burns CPU from now on; Exchange freezes the bot after it
			time.Sleep(20 * time.Millisecond)
			before := p.CPU()
			time.Sleep(300 * time.Millisecond)
			if used := p.CPU() - before; used > 5*time.Millisecond {
				t.Errorf("frozen bot used %v CPU in 300ms", used)
			}
			if err := p.Thaw(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond)
			if used := p.CPU() - before; used < 100*time.Millisecond {
				t.Errorf("thawed spinning bot used only %v CPU in 300ms", used)
			}
			if got := mustAsk(t, p, "echo still alive"); got != "echo still alive" {
				t.Errorf("after freezing: %q", got)
			}
		})
	}
}

func TestInputFileIsReadOnlyInWorkingDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "connect.txt")
	os.WriteFile(file, []byte("1 2 C\nEND\n"), 0o644)
	p := probe(t, func(s *sandbox.RunSpec) { s.Files = map[string]string{"connect.txt": file} })
	if got := mustAsk(t, p, "cat connect.txt"); got != "cat 1 2 C" {
		t.Errorf("reading connect.txt from the working directory: %q", got)
	}
	if got := mustAsk(t, p, "write connect.txt"); strings.HasSuffix(got, "succeeded") {
		t.Errorf("the bot could write its input file: %q", got)
	}
	if data, _ := os.ReadFile(file); string(data) != "1 2 C\nEND\n" {
		t.Errorf("the input file changed: %q", data)
	}
}

func TestEarlyExitAndClosedStdout(t *testing.T) {
	p := probe(t, nil)
	if _, _, err := ask(t, p, "close", normal); !errors.Is(err, sandbox.ErrClosed) {
		t.Errorf("close(stdout): want ErrClosed at once, got %v", err)
	}
}

// A Python program's long line, written with one write, arrives whole under every runtime (under
// gVisor a line of 70,000 bytes stopped at the pipe's 64 KiB for good until the launcher's
// relay), and a line past the limit is refused as too long, and output past the limit as
// such, not taken for a bot that stopped answering.
func TestLongLinesOfPython(t *testing.T) {
	e := sandboxtest.Engine(t)
	res := sandboxtest.Build(t, sandboxtest.Builder(t, e), "sandbox/testdata/longline")
	spec := sandboxtest.Spec(res)
	spec.Output.Stdout = 4 << 20
	p := sandboxtest.Start(t, e, spec)
	for _, n := range []int{70_000, 200_000, 1_000_000} {
		turn, err := p.Exchange([]byte(fmt.Sprintf("line %d\n", n)), 1, normal)
		if err != nil || len(turn.Lines) != 1 || len(turn.Lines[0]) != n+1 {
			t.Fatalf("a line of %d bytes: %d lines, %v (stderr %q)", n+1, len(turn.Lines), err, p.Stderr())
		}
	}
	if _, err := p.Exchange([]byte("line 1500000\n"), 1, normal); !errors.Is(err, sandbox.ErrLineTooLong) {
		t.Errorf("a line of 1.5 MB, past the 1 MiB limit: %v; want ErrLineTooLong", err)
	}
	p = sandboxtest.Start(t, e, spec)
	if _, err := p.Exchange([]byte("lines 6000\n"), 6000, normal); !errors.Is(err, sandbox.ErrOutputLimit) {
		t.Errorf("6 MB of lines past the 4 MiB limit: %v; want ErrOutputLimit", err)
	}
}

func TestOutputFloodIsCapped(t *testing.T) {
	// The flood is 64 KiB lines without end.
	p := probe(t, func(s *sandbox.RunSpec) { s.Output.Line = 1000 })
	if _, _, err := ask(t, p, "flood", normal); !errors.Is(err, sandbox.ErrLineTooLong) {
		t.Errorf("flood with 1000 byte lines allowed: want ErrLineTooLong, got %v", err)
	}

	p = probe(t, func(s *sandbox.RunSpec) { s.Output.Stdout = 1 << 20 })
	if _, err := p.Exchange([]byte("flood\n"), 1000, normal); !errors.Is(err, sandbox.ErrOutputLimit) {
		t.Errorf("flood with 1 MiB of output allowed: want ErrOutputLimit, got %v", err)
	}

	p = probe(t, func(s *sandbox.RunSpec) { s.Output.Stderr = 1000 })
	if got := mustAsk(t, p, "errflood"); got != "done" {
		t.Errorf("errflood: got %q", got)
	}
	if n := len(p.Stderr()); n != 1000 {
		t.Errorf("stderr kept %d bytes, want the 1000 byte cap", n)
	}
}

func TestCrashAndExitAreReported(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want sandbox.Exit
	}{
		{"segv", sandbox.Exit{Code: 139, Signal: 11}},
		{"exit 3", sandbox.Exit{Code: 3}},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			p := probe(t, nil)
			if _, _, err := ask(t, p, tc.cmd, normal); !errors.Is(err, sandbox.ErrClosed) {
				t.Fatalf("want stdout closed, got %v", err)
			}
			if x := waitExit(t, p); x != tc.want {
				t.Errorf("got %+v, want %+v", x, tc.want)
			}
		})
	}
}

// What the judge charges against what the bot's own process clock measured, for a burn on
// one thread, a burn with helper threads beside it on the bot's one core, and time spent in
// system calls. The judge's figure is the container's cgroup: the CPU the host gave the bot's
// container. Under runc the two agree; under gVisor the bot's clock is gVisor's own accounting
// (see docs/rules.md): on one machine it read more than the charge (up to 3.3x), on this
// project's current one less (the charge up to 1.23x the bot's clock, for a loop of system
// calls). The bound under gVisor is that second machine's worst with a margin: a bot that
// budgets by its own clock there needs a margin too.
func TestChargedAgainstTheBotsOwnClock(t *testing.T) {
	sandboxtest.Alone(t, "it compares CPU time with the wall clock")
	core := fmt.Sprint(sandboxtest.LastCore())
	for _, tc := range []struct{ name, cmd string }{
		{"one thread", "burn 150"},
		{"a helper thread beside", "burnwith 150 1"},
		{"three helper threads beside", "burnwith 150 3"},
		{"system calls", "syscalls 150"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			own, turn := burned(t, probe(t, func(s *sandbox.RunSpec) { s.Limits.CPUSet = core }), tc.cmd)
			t.Logf("%s: the bot's clock %v, charged %v (%.2fx), wall %v", tc.cmd, own, turn.CPU, float64(turn.CPU)/float64(own), turn.Wall)
			if sandboxtest.GVisor() {
				if turn.CPU > own*135/100 {
					t.Errorf("charged %v, more than 1.35 times the bot's own clock's %v", turn.CPU, own)
				}
				return
			}
			if diff := math.Abs(float64(turn.CPU-own)) / float64(own); diff > 0.05 {
				t.Errorf("charged %v, the bot's clock %v: %.1f%% apart, want within 5%%", turn.CPU, own, diff*100)
			}
		})
	}
}
