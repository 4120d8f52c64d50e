package sandbox_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// lifecycle starts the C++ lifecycle bot, which runs the lines of start (if any) before it
// reads its input.
func lifecycle(t *testing.T, e *sandbox.Engine, spec sandbox.RunSpec, start string) (*sandbox.Process, error) {
	t.Helper()
	if start != "" {
		f := filepath.Join(t.TempDir(), "start.txt")
		if err := os.WriteFile(f, []byte(start+"\n"), 0o444); err != nil {
			t.Fatal(err)
		}
		spec.Files = map[string]string{"start.txt": f}
	}
	p, err := e.Start(context.Background(), spec)
	if err == nil {
		t.Cleanup(func() { p.Close() })
	}
	return p, err
}

// A bot that exits at once, at whatever instant of its container's start, has merely exited:
// Start succeeds, the first read finds its output closed, Wait gives its status. Never an
// error of the sandbox's (this raced: pidfd_open or the cgroup's files failed).
func TestExitAtOnceIsNeverTheSandboxsError(t *testing.T) {
	e := sandboxtest.Engine(t)
	spec := sandboxtest.Spec(sandboxtest.Build(t, sandboxtest.Builder(t, e), "sandbox/testdata/lifecycle/cpp"))
	for run := 0; run < 30; run++ {
		p, err := lifecycle(t, e, spec, "exit 3")
		if err != nil {
			t.Fatalf("run %d: starting a bot that exits at once: %v", run, err)
		}
		if _, _, err := ask(t, p, "echo a", normal); !errors.Is(err, sandbox.ErrClosed) {
			t.Fatalf("run %d: the first read: %v; want %v", run, err, sandbox.ErrClosed)
		}
		if x := waitExit(t, p); x.Code != 3 {
			t.Fatalf("run %d: exit %v; want status 3", run, x)
		}
		if !p.Exited() {
			t.Fatalf("run %d: Exited is false after Wait", run)
		}
		p.Close()
	}
}

// The launcher holds the bot until the judge has read the container's own start-up CPU, so a
// bot that burns from its first instruction is charged all of it, and the container's start
// none of it.
func TestStartCPUIsNotTheBots(t *testing.T) {
	sandboxtest.Alone(t, "it measures start-up CPU against the wall clock")
	e := sandboxtest.Engine(t)
	spec := sandboxtest.Spec(sandboxtest.Build(t, sandboxtest.Builder(t, e), "sandbox/testdata/lifecycle/cpp"))
	p, err := lifecycle(t, e, spec, "burn 300")
	if err != nil {
		t.Fatal(err)
	}
	if got := mustAsk(t, p, "echo a"); got != "echo a" {
		t.Fatalf("answered %q", got)
	}
	// The exchange above thawed nothing before the burn: it ran while the judge waited.
	bot := p.CPU() - p.StartCPU()
	// Under gVisor the cgroup charges a loop that reads its clock ~1.4 times its own count.
	most := 400 * time.Millisecond
	if sandboxtest.GVisor() {
		most = 600 * time.Millisecond
	}
	if bot < 295*time.Millisecond || bot > most {
		t.Errorf("the bot's own CPU is %v (container start %v); want the 300 ms burn and little more", bot, p.StartCPU())
	}
	if p.StartCPU() <= 0 {
		t.Errorf("the container's start cost %v: the judge read no figure before the bot ran", p.StartCPU())
	}
}

// A bot killed while frozen (by the kernel, an operator, anything) is found dead at its next
// turn: its output is closed, and it has exited.
func TestKilledWhileFrozen(t *testing.T) {
	if sandboxtest.GVisor() {
		// The engine's kill of a gVisor sandbox held by the cgroup freezer waits until it is
		// thawed (SECURITY.md): the judge thaws before it kills, an outside kill hangs.
		t.Skip("under gVisor the engine cannot kill a frozen sandbox; the judge thaws first")
	}
	p := probe(t, nil)
	mustAsk(t, p, "echo 1")
	if err := p.Freeze(); err != nil {
		t.Fatal(err)
	}
	// From outside the judge's control, without thawing it first.
	if out, err := exec.Command("docker", "kill", "--signal", "KILL", p.ID()).CombinedOutput(); err != nil {
		t.Fatalf("docker kill: %v: %s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := p.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ask(t, p, "echo 2", normal); !errors.Is(err, sandbox.ErrClosed) {
		t.Fatalf("the next turn: %v; want %v", err, sandbox.ErrClosed)
	}
	if !p.Exited() {
		t.Error("Exited is false for a killed bot")
	}
}
