package sandbox_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// TestMain doubles as the crashing judge of TestOrphansAreSwept.
func TestMain(m *testing.M) {
	if os.Getenv("JUDGE_TEST_CRASH") == "1" {
		crashWithABot()
		return
	}
	os.Exit(m.Run())
}

// crashWithABot starts a bot with a warm pool, prints the IDs of its container and of the
// pool's, and dies without cleaning up.
func crashWithABot() {
	t := &testing.T{}
	e := sandboxtest.Engine(t)
	res := sandboxtest.Build(t, sandboxtest.Builder(t, e), "sandbox/testdata/probe")
	e.Warm(2)
	p, err := e.Start(context.Background(), sandboxtest.Spec(res))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	p.Freeze() // the orphan is even frozen, which must not stop its removal
	e.Settle() // the pool has prepared its containers
	fmt.Println("instance", e.Instance())
	for _, id := range append(e.Pooled(), p.ID()) {
		fmt.Println("container", id)
	}
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
}

// A judge that dies leaves its bots' containers and its pool's to the next judge's sweep.
func TestOrphansAreSwept(t *testing.T) {
	e := sandboxtest.Engine(t)
	sandboxtest.Build(t, sandboxtest.Builder(t, e), "sandbox/testdata/probe") // compile outside the child
	live := probe(t, nil)                                                     // a live judge's bot must survive the sweep

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "JUDGE_TEST_CRASH=1")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var orphans []string
	var crashed string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if id, ok := strings.CutPrefix(sc.Text(), "container "); ok {
			orphans = append(orphans, id)
		}
		if id, ok := strings.CutPrefix(sc.Text(), "instance "); ok {
			crashed = id
		}
	}
	err := cmd.Wait()
	if len(orphans) != 3 {
		t.Fatalf("the crashing judge left %d containers, not a bot and two warm ones (%v)", len(orphans), err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ids, _ := e.Containers(ctx, sandboxtest.DataDir())
	for _, orphan := range orphans {
		if !slices.Contains(ids, orphan) {
			t.Fatalf("the orphan %s is not there before the sweep", orphan[:12])
		}
	}
	// Counted by state directory: the judges of this one, none of another's.
	if other, _ := e.Containers(ctx, t.TempDir()); len(other) != 0 {
		t.Errorf("%d containers counted in an empty state directory", len(other))
	}
	if _, err := e.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	ids, _ = e.Containers(ctx)
	for _, orphan := range orphans {
		if slices.Contains(ids, orphan) {
			t.Errorf("the orphan %s is still there after the sweep", orphan[:12])
		}
	}
	if !slices.Contains(ids, live.ID()) {
		t.Errorf("the sweep removed a live judge's container")
	}
	runs, _ := os.ReadDir(filepath.Join(sandboxtest.DataDir(), "run"))
	for _, d := range runs {
		if d.Name() == crashed {
			t.Errorf("the dead judge's pipe directory run/%s is still there", crashed)
		}
	}
}

// An engine without the configured runtime is refused up front, naming it, rather than at the
// first container.
func TestHasRuntime(t *testing.T) {
	e := sandboxtest.Engine(t)
	ctx := context.Background()
	if err := e.HasRuntime(ctx, sandboxtest.Runtime()); err != nil {
		t.Errorf("the test runtime: %v", err)
	}
	if err := e.HasRuntime(ctx, "no-such-runtime"); err == nil || !strings.Contains(err.Error(), `"no-such-runtime"`) {
		t.Errorf("an unknown runtime: %v", err)
	}
}
