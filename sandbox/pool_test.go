package sandbox_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// A bot started from the pool gets its own artifact and input files, is charged all of its
// own CPU and none of the idle launcher's, and its container is removed like any other.
// The pool keeps its size, grows a kind to what a match took of it at once, refuses a prepared
// container that has ended, and Close removes everything it holds.
func TestWarmPool(t *testing.T) {
	sandboxtest.Alone(t, "it times a warm start against the wall clock")
	sandboxtest.MustHaveDocker(t)
	ctx := context.Background()
	// The pool sized as judge serve sizes it: when the engine is made.
	e, err := sandbox.New(ctx, sandbox.Options{Host: os.Getenv("JUDGE_DOCKER_HOST"), StateDir: sandboxtest.DataDir(), Pool: sandbox.Pool{Warm: 2}})
	if err != nil {
		if sandboxtest.Required() {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	defer e.Close()
	spec := sandboxtest.Spec(sandboxtest.Build(t, sandboxtest.Builder(t, e), "sandbox/testdata/lifecycle/cpp"))
	file := filepath.Join(t.TempDir(), "start.txt")
	if err := os.WriteFile(file, []byte("burn 300\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	spec.Files = map[string]string{"start.txt": file}

	cold, err := e.Start(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	cold.Close()
	e.Settle()
	pooled := e.Pooled()
	if len(pooled) != 2 {
		t.Fatalf("the pool holds %d containers after its kind's first start; want 2", len(pooled))
	}
	// The prepared containers wait: their launchers' time is not the bots'.
	time.Sleep(300 * time.Millisecond)
	p, err := e.Start(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(pooled, p.ID()) {
		t.Fatalf("the bot did not get a prepared container")
	}
	if got := mustAsk(t, p, "echo warm"); got != "echo warm" {
		t.Fatalf("answered %q", got)
	}
	// The bot burnt 300 ms from its start file before it read its input.
	if used := p.CPU() - p.StartCPU(); used < 280*time.Millisecond || used > 600*time.Millisecond {
		t.Errorf("the bot was charged %v for a 300 ms burn (start %v)", used, p.StartCPU())
	}
	if p.ImageID() == "" {
		t.Errorf("no image ID")
	}
	p.Close()
	e.Settle()
	if n := len(e.Pooled()); n != 2 {
		t.Errorf("the pool holds %d after a start; want 2 again", n)
	}

	// A match of four bots of the kind, started at once as a match starts them: the pool
	// grows to four for the next such match.
	four := make([]*sandbox.Process, 4)
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i := range four {
		wg.Go(func() { four[i], errs[i] = e.Start(ctx, spec) })
	}
	wg.Wait()
	for i, p := range four {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		p.Close()
	}
	e.Settle()
	if n := len(e.Pooled()); n != 4 {
		t.Errorf("the pool holds %d after a match of four of its kind; want 4", n)
	}

	// A prepared container that has ended is never handed out.
	dead := e.Pooled()
	for _, id := range dead {
		if out, err := exec.Command("docker", "kill", id).CombinedOutput(); err != nil {
			t.Fatalf("docker kill: %v: %s", err, out)
		}
	}
	p, err = e.Start(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(dead, p.ID()) {
		t.Fatalf("the bot got a container that had ended")
	}
	if got := mustAsk(t, p, "echo after"); got != "echo after" {
		t.Fatalf("answered %q", got)
	}
	p.Close()

	instance := e.Instance()
	e.Close()
	out, err := exec.Command("docker", "ps", "-aq", "--filter", "label="+sandbox.LabelInstance+"="+instance).CombinedOutput()
	if err != nil {
		t.Fatalf("docker ps: %v: %s", err, out)
	}
	if left := strings.Fields(string(out)); len(left) > 0 {
		t.Errorf("containers outlived the engine: %v", left)
	}
}

// The pool holds at most its limit in all kinds. A kind gets the places its starts free and
// the free ones; a full pool prepares nothing for a kind that has none rather than replace
// another kind's containers, until that kind has gone unstarted for a while.
func TestWarmPoolLimit(t *testing.T) {
	e := sandboxtest.Engine(t)
	ctx := context.Background()
	base := sandboxtest.Spec(sandboxtest.Build(t, sandboxtest.Builder(t, e), "sandbox/testdata/lifecycle/cpp"))
	// Kinds differ by their limits: three kinds of one bot.
	kinds := make([]sandbox.RunSpec, 3)
	for i := range kinds {
		kinds[i] = base
		kinds[i].Limits.Memory += 1 << (20 + i)
	}
	// Longer than the four starts before the third kind's take: under gVisor on a slow
	// machine they took more than 3 s, and the first kind then counted as unused.
	const idle = 10 * time.Second
	sandbox.SetWarmIdle(t, idle)
	e.Warm(2)
	e.WarmLimit(3)
	start := func(spec sandbox.RunSpec) string {
		t.Helper()
		p, err := e.Start(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		p.Close()
		e.Settle()
		return p.ID()
	}
	start(kinds[0])
	kindA := e.Pooled()
	if len(kindA) != 2 {
		t.Fatalf("the pool holds %d after a kind's first start; want 2", len(kindA))
	}
	start(kinds[1])
	pooled := e.Pooled()
	if len(pooled) != 3 {
		t.Fatalf("the pool holds %d after a second kind's start with a limit of 3; want 3 (the second kind gets the free place)", len(pooled))
	}
	kindB := slices.DeleteFunc(slices.Clone(pooled), func(id string) bool { return slices.Contains(kindA, id) })
	if len(kindB) != 1 {
		t.Fatalf("the second kind holds %d; want the one free place", len(kindB))
	}
	// The second kind's next start takes its own and makes another in the place it freed.
	if id := start(kinds[1]); id != kindB[0] {
		t.Fatalf("a start of the second kind did not get its prepared container")
	}
	if n := len(e.Pooled()); n != 3 {
		t.Fatalf("the pool holds %d; want 3", n)
	}
	// A third kind, while the others were started a moment ago: nothing is prepared for it.
	held := e.Pooled()
	start(kinds[2])
	if now := e.Pooled(); !slices.Equal(sorted(now), sorted(held)) {
		t.Errorf("the pool changed for a kind that had no place: %d then %d containers", len(held), len(now))
	}
	// Once the first kind has gone unstarted for a while, the third takes its places.
	time.Sleep(idle)
	start(kinds[1]) // the second kind stays in use
	start(kinds[2])
	pooled = e.Pooled()
	if len(pooled) > 3 {
		t.Errorf("the pool holds %d with a limit of 3", len(pooled))
	}
	for _, id := range pooled {
		if slices.Contains(kindA, id) {
			t.Errorf("the idle kind kept container %s while the third kind needed its place", id[:12])
		}
	}
	third := e.Pooled()
	if id := start(kinds[2]); !slices.Contains(third, id) {
		t.Errorf("the third kind's start after it got places was not warm")
	}
	// A lower limit gives back what exceeds it at once.
	e.WarmLimit(1)
	if n := len(e.Pooled()); n > 1 {
		t.Errorf("the pool holds %d after its limit went down to 1", n)
	}
}

func sorted(ids []string) []string {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	return ids
}
