package local_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/local"
	"github.com/botjudge/judge/sandbox"
)

// start runs a Python bot (the script) as a plain process.
func start(t *testing.T, script string) *local.Process {
	t.Helper()
	if err := local.Check("python"); err != nil {
		t.Fatal(err)
	}
	e := &local.Engine{WorkDir: t.TempDir()}
	p, err := e.Start(context.Background(), sandbox.RunSpec{Cmd: []string{"python3", "-c", script}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	// As a match starts it (match's waitIdle): stopped once it waits for its input at two looks
	// in a row with no CPU used between, its start-up its own. One look is not enough: a
	// starting runtime can be seen in a pipe read for a moment.
	prev, was := p.CPU(), false
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
		now, waiting := p.CPU(), p.Waiting()
		if waiting && was && now == prev {
			break
		}
		prev, was = now, waiting
	}
	p.Freeze()
	return p
}

// burner answers each line after burning about as much CPU as the line says (ms), with its
// own clock's count of its CPU time so far (microseconds), read just before it answers.
const burner = `
import sys, time
for line in sys.stdin:
    t0 = time.process_time()
    while time.process_time() - t0 < int(line) / 1000:
        pass
    sys.stdout.write(str(int(time.process_time() * 1e6)) + "\n")
    sys.stdout.flush()
`

var wide = sandbox.TurnLimits{CPU: 5 * time.Second, Wall: 10 * time.Second}

// A turn's CPU time is the bot's own, as its clock counts it from one answer to the next,
// within the operating system's resolution and what the bot's writing of one answer costs
// against the last one's: a millisecond. (From reading the line to answering is no measure:
// reading and parsing the line are the bot's too, and on a loaded machine they alone can take
// a millisecond of CPU.)
func TestCPUPerTurnIsTheBots(t *testing.T) {
	p := start(t, burner)
	// A first turn takes what is left of the runtime's start, if the look at it came early.
	first, err := p.Exchange([]byte("0\n"), 1, wide)
	if err != nil {
		t.Fatal(err)
	}
	last, _ := strconv.Atoi(string(first.Lines[0]))
	for _, ms := range []int{5, 30, 80, 1, 120} {
		turn, err := p.Exchange([]byte(strconv.Itoa(ms)+"\n"), 1, wide)
		if err != nil {
			t.Fatal(err)
		}
		now, _ := strconv.Atoi(string(turn.Lines[0]))
		own := time.Duration(now-last) * time.Microsecond
		last = now
		if d := turn.CPU - own; d < -time.Millisecond || d > time.Millisecond || turn.CPU < time.Duration(ms)*time.Millisecond {
			t.Errorf("%d ms burnt: the judge counted %v, the bot's own clock %v", ms, turn.CPU, own)
		}
	}
}

// Between its turns the bot is stopped: what it would compute there, it cannot, and what
// it computed before it stopped is its next turn's.
func TestStoppedBetweenTurns(t *testing.T) {
	p := start(t, `
import sys, time
for line in sys.stdin:
    sys.stdout.write("ok\n")
    sys.stdout.flush()
    t0 = time.process_time()
    while time.process_time() - t0 < 0.2:
        pass
`)
	if _, err := p.Exchange([]byte("a\n"), 1, wide); err != nil {
		t.Fatal(err)
	}
	before := p.CPU()
	time.Sleep(300 * time.Millisecond)
	if used := p.CPU() - before; used > 10*time.Millisecond {
		t.Errorf("stopped, the bot used %v", used)
	}
	turn, err := p.Exchange([]byte("b\n"), 1, wide)
	if err != nil {
		t.Fatal(err)
	}
	if turn.CPU < 150*time.Millisecond {
		t.Errorf("the next turn counted %v; the bot computed 200 ms past its answer", turn.CPU)
	}
}

// Every way a turn fails is the sandbox's error for it, the answer read so far with it.
func TestTurnFailures(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script string
		lim    sandbox.TurnLimits
		want   error
	}{
		{"CPU", "import sys\nsys.stdin.readline()\nwhile True: pass", sandbox.TurnLimits{CPU: 100 * time.Millisecond, Wall: 5 * time.Second}, sandbox.ErrCPULimit},
		{"wall", "import sys, time\nsys.stdin.readline()\ntime.sleep(10)", sandbox.TurnLimits{CPU: time.Second, Wall: 300 * time.Millisecond}, sandbox.ErrWallLimit},
		{"exit", "import sys\nsys.stdin.readline()\nsys.exit(3)", wide, sandbox.ErrClosed},
		{"long line", "import sys\nsys.stdin.readline()\nsys.stdout.write('x' * (2 << 20))\nsys.stdout.flush()\nimport time\ntime.sleep(5)", wide, sandbox.ErrLineTooLong},
		{"too much", "import sys\nsys.stdin.readline()\nfor i in range(1 << 20): sys.stdout.write('yyyyyyyyyyyyyyyyyyyyyyyy\\n')\nsys.stdout.flush()\nimport time\ntime.sleep(5)", sandbox.TurnLimits{CPU: 5 * time.Second, Wall: 10 * time.Second}, sandbox.ErrOutputLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := start(t, tc.script)
			began := time.Now()
			lines := 1
			if tc.want == sandbox.ErrOutputLimit {
				lines = 1 << 21
			}
			turn, err := p.Exchange([]byte("go\n"), lines, tc.lim)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v; want %v", err, tc.want)
			}
			took := time.Since(began)
			switch tc.want {
			case sandbox.ErrCPULimit:
				if turn.CPU < tc.lim.CPU || took > tc.lim.CPU+time.Second {
					t.Errorf("stopped after %v CPU, %v wall; the limit is %v CPU", turn.CPU, took, tc.lim.CPU)
				}
			case sandbox.ErrWallLimit:
				if took < tc.lim.Wall || took > tc.lim.Wall+time.Second {
					t.Errorf("stopped after %v; the wall limit is %v", took, tc.lim.Wall)
				}
			case sandbox.ErrClosed:
				x, err := p.Wait(context.Background())
				if err != nil || x.Code != 3 {
					t.Errorf("exit %+v, %v; want status 3", x, err)
				}
			}
			// The error sticks: the next turn fails alike.
			if tc.want != sandbox.ErrCPULimit && tc.want != sandbox.ErrWallLimit {
				if _, err := p.Exchange([]byte("again\n"), 1, wide); !errors.Is(err, tc.want) {
					t.Errorf("the next turn: %v; want %v", err, tc.want)
				}
			}
		})
	}
}

// What the bot writes to stderr during a turn is taken after it, all of it.
func TestStderrByTurn(t *testing.T) {
	p := start(t, `
import sys
for line in sys.stdin:
    sys.stderr.write("thinking about " + line)
    sys.stderr.flush()
    sys.stdout.write("ok\n")
    sys.stdout.flush()
`)
	for _, w := range []string{"one", "two"} {
		if _, err := p.Exchange([]byte(w+"\n"), 1, wide); err != nil {
			t.Fatal(err)
		}
		if got := string(p.TakeStderr()); got != "thinking about "+w+"\n" {
			t.Errorf("after %s: stderr %q", w, got)
		}
	}
	p.Thaw()
	p.CloseStdin()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if !p.Ended(ctx) {
		t.Fatal("the bot did not end")
	}
	if got := string(p.Stderr()); got != "thinking about one\nthinking about two\n" {
		t.Errorf("all of stderr: %q", got)
	}
}

// Past its limit a bot's stderr is cut as the sandbox cuts it, with the sandbox's line saying
// where and how much more was not kept.
func TestStderrIsCutAsInTheSandbox(t *testing.T) {
	e := &local.Engine{WorkDir: t.TempDir()}
	p, err := e.Start(context.Background(), sandbox.RunSpec{Cmd: []string{"python3", "-c", `
import sys
for line in sys.stdin:
    sys.stderr.write("e" * 3000)
    sys.stderr.flush()
    sys.stdout.write("ok\n")
    sys.stdout.flush()
`}, Output: sandbox.Output{Stderr: 1024}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for i, want := range []string{
		strings.Repeat("e", 1024) + "\n[judge: stderr cut here: the bot's 1 KiB limit; 1976 more bytes were not kept]\n",
		"[judge: 3000 more bytes of stderr were not kept]\n",
	} {
		if _, err := p.Exchange([]byte("go\n"), 1, wide); err != nil {
			t.Fatal(err)
		}
		if got := string(p.TakeStderr()); got != want {
			t.Errorf("turn %d: stderr %q, want %q", i, got, want)
		}
	}
}

// A language whose tools the machine lacks is named with them and how to install them.
func TestCheckNamesWhatIsMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := local.Check("cpp")
	var m *local.MissingError
	if !errors.As(err, &m) || !strings.Contains(err.Error(), "cpp bots need g++, not found on this machine's PATH (Debian/Ubuntu: apt install g++") {
		t.Errorf("got %v", err)
	}
	if err := local.Check("cobol"); err == nil || !strings.Contains(err.Error(), `"cobol" is not one the judge knows`) {
		t.Errorf("an unknown language: %v", err)
	}
	// A compiler on the PATH that does not run, as rustup's rustc with no toolchain chosen.
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "rustc"), []byte("#!/bin/sh\necho 'error: rustup could not choose a version of rustc to run' >&2\nexit 1\n"), 0o755)
	t.Setenv("PATH", bin)
	err = local.Check("rust")
	if !errors.As(err, &m) || !strings.Contains(err.Error(), "rust bots need rustc, which is on this machine's PATH but does not run: `rustc --version`: exit status 1: error: rustup could not choose") {
		t.Errorf("a compiler that does not run: %v", err)
	}
}

// BenchmarkExchange is one line to a bot and one back: through a plain pipe between the
// judge and the program (os/exec, no stop between turns, no clock), and as judge play --local
// does it (local.Process.Exchange: the bot resumed, its CPU clock read, stopped again). The
// program is cat, on both sides the same.
func BenchmarkExchange(b *testing.B) {
	line := []byte("1 2 3 4\n")
	b.Run("pipe", func(b *testing.B) {
		cmd := exec.Command("cat")
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		defer cmd.Wait()
		defer in.Close()
		r := bufio.NewReader(out)
		for b.Loop() {
			in.Write(line)
			if _, err := r.ReadSlice('\n'); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("local", func(b *testing.B) {
		e := &local.Engine{WorkDir: b.TempDir()}
		p, err := e.Start(context.Background(), sandbox.RunSpec{Cmd: []string{"cat"}})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		p.Freeze()
		for b.Loop() {
			if _, err := p.Exchange(line, 1, wide); err != nil {
				b.Fatal(err)
			}
		}
	})
}
