package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/setting"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// leftover starts the reset's red-team bot for bot, in a container kept for it if the engine
// has one, with a writable /tmp and the input files given.
func leftover(t *testing.T, e *sandbox.Engine, bot string, files map[string]string) *sandbox.Process {
	t.Helper()
	res := sandboxtest.Build(t, sandboxtest.Builder(t, e), "sandbox/testdata/leftover")
	spec := sandboxtest.Spec(res)
	spec.Limits.Tmpfs = setting.Bytes(1 << 20)
	spec.Reuse = bot
	spec.Files = files
	return sandboxtest.Start(t, e, spec)
}

// ended closes p after its match and waits until the engine has reset its container and
// kept it, or removed it; it reports whether the container was kept.
func ended(t *testing.T, e *sandbox.Engine, p *sandbox.Process) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p.Kill(ctx)
	if _, err := p.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	p.Close()
	e.Settle()
	return slices.Contains(e.Spares(), p.ID())
}

// A container serves its bot again only reset: whatever the bot left in one match - files
// in every place it may write, System V IPC objects, a POSIX message queue, a process, open
// files, a timer, its environment, its pipes' modes - the next match finds none of it, and
// it inherits what the first did. Under gVisor each container is used once.
func TestReuseLeavesNothingBehind(t *testing.T) {
	e := sandboxtest.Engine(t)
	e.Reuse(4)
	p := leftover(t, e, "alice", nil)
	if got := mustAsk(t, p, "look"); got != "clean" {
		t.Fatalf("a new container: %s", got)
	}
	state := mustAsk(t, p, "state")
	left := mustAsk(t, p, "leave")
	t.Logf("the bot %s", left)
	for _, want := range []string{"/tmp/file", "/tmp/dir", "shm", "msg", "sem", "environment", "pipe-mode"} {
		if !strings.Contains(left, " "+want) {
			t.Errorf("the bot could not leave %s behind, so the test does not show it goes: %s", want, left)
		}
	}
	if strings.Contains(left, "mqueue") {
		t.Errorf("a POSIX message queue was made, which nothing can list to remove: %s", left)
	}
	ask(t, p, "fork", normal) // its last try: the filter kills it
	kept := ended(t, e, p)
	if sandboxtest.GVisor() {
		if kept {
			t.Fatal("a gVisor container was kept for reuse")
		}
	} else if !kept {
		t.Fatal("the container was not kept for the bot's next match")
	}
	// The next match has an input file: it, and only it, is in /work.
	input := filepath.Join(t.TempDir(), "map")
	if err := os.WriteFile(input, []byte("map\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	q := leftover(t, e, "alice", map[string]string{"map.txt": input})
	if q.ID() == p.ID() == sandboxtest.GVisor() {
		t.Fatalf("the next match's container %.12s, the first's %.12s (gVisor %v)", q.ID(), p.ID(), sandboxtest.GVisor())
	}
	if got := mustAsk(t, q, "look"); got != "found /work/map.txt" {
		t.Errorf("the next match: %s; want its input file alone", got)
	}
	if got := mustAsk(t, q, "state"); got != state {
		t.Errorf("the next match inherits\n%s\nnot\n%s", got, state)
	}
	// Never another bot's: bob gets a container of his own.
	ended(t, e, q)
	r := leftover(t, e, "bob", nil)
	if r.ID() == q.ID() {
		t.Fatal("bob's match runs in alice's container")
	}
}

// What a bot could change of the launcher and the launcher cannot undo - a limit lowered, a
// priority dropped - ends the container: the next match starts in a new one, as it was.
func TestTamperedContainerIsNotReused(t *testing.T) {
	if sandboxtest.GVisor() {
		t.Skip("under gVisor containers are used once (TestReuseLeavesNothingBehind)")
	}
	e := sandboxtest.Engine(t)
	e.Reuse(4)
	p := leftover(t, e, "mallory", nil)
	state := mustAsk(t, p, "state")
	got := mustAsk(t, p, "tamper")
	t.Logf("the bot %s", got)
	for _, refused := range []string{"ptrace", "mem", "fd", "environ"} {
		if strings.Contains(got, " "+refused) {
			t.Errorf("the bot reached the launcher by %s: %s", refused, got)
		}
	}
	if !strings.Contains(got, "prlimit") {
		t.Fatalf("the bot could not lower the launcher's limits, so the test shows nothing: %s", got)
	}
	if ended(t, e, p) {
		t.Fatal("a container whose launcher the bot changed was kept")
	}
	q := leftover(t, e, "mallory", nil)
	if q.ID() == p.ID() {
		t.Fatal("the tampered container served again")
	}
	if got := mustAsk(t, q, "state"); got != state {
		t.Errorf("the next match inherits\n%s\nnot\n%s", got, state)
	}
}
