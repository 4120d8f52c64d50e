// Package sandboxtest connects tests to the real Docker engine and builds the bots they use.
// When JUDGE_REQUIRE_DOCKER=1 (as in CI) a missing engine or image fails the test instead
// of skipping it.
package sandboxtest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/client"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox"
)

// Required reports whether Docker tests must run (JUDGE_REQUIRE_DOCKER=1).
func Required() bool { return os.Getenv("JUDGE_REQUIRE_DOCKER") == "1" }

// DataDir is the data directory tests share, so that bots compile once per machine.
func DataDir() string {
	if d := os.Getenv("JUDGE_TEST_DATA_DIR"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "judge-test-data")
}

// MustHaveDocker is the gate of every test that starts containers, like the standard
// library's internal/testenv: under -short it skips; without a reachable engine it skips, or
// fails when Required.
func MustHaveDocker(t testing.TB) {
	t.Helper()
	if short() {
		t.Skip("starts containers; skipped under -short")
	}
	cli, err := dockerClient()
	if err == nil {
		defer cli.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_, err = cli.Ping(ctx)
	}
	if err != nil {
		noEngine(t, err)
	}
}

func noEngine(t testing.TB, err error) {
	t.Helper()
	if Required() {
		t.Fatalf("JUDGE_REQUIRE_DOCKER=1 but: %v", err)
	}
	t.Skipf("no Docker engine (set JUDGE_REQUIRE_DOCKER=1 to fail instead): %v", err)
}

func dockerClient() (*client.Client, error) {
	opts := []client.Opt{client.FromEnv, client.WithAPIVersionNegotiation()}
	if h := os.Getenv("JUDGE_DOCKER_HOST"); h != "" {
		opts = append(opts, client.WithHost(h))
	}
	return client.NewClientWithOpts(opts...)
}

// short is testing.Short, false before the flags are parsed: sandbox's TestMain calls Engine
// in its crashing child, where testing.Short would panic.
func short() bool { return flag.Parsed() && testing.Short() }

// Engine connects to the engine, or skips as MustHaveDocker does.
func Engine(t testing.TB) *sandbox.Engine {
	t.Helper()
	if short() {
		t.Skip("starts containers; skipped under -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	e, err := sandbox.New(ctx, sandbox.Options{Host: os.Getenv("JUDGE_DOCKER_HOST"), StateDir: DataDir()})
	if err != nil {
		noEngine(t, err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// Builder returns a builder with the default limits and the shared cache.
func Builder(t testing.TB, e *sandbox.Engine) *build.Builder {
	t.Helper()
	cat, err := images.Load("")
	if err != nil {
		t.Fatal(err)
	}
	l := build.DefaultLimits()
	l.Runtime = Runtime()
	return &build.Builder{
		Sandbox: e, Catalog: cat, Prefix: "judge", Dir: filepath.Join(DataDir(), "artifacts"), Limits: l,
	}
}

// Root is the repository's root directory.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Build compiles the bot at path (relative to the repository root) and fails the test unless
// it builds.
func Build(t testing.TB, b *build.Builder, path string) build.Result {
	t.Helper()
	sub, err := submission.Load(filepath.Join(Root(), path), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := b.Build(ctx, sub)
	if err != nil {
		t.Fatalf("building %s: %v", path, err)
	}
	if !res.OK {
		t.Fatalf("building %s failed:\n%s", path, res.Log)
	}
	return res
}

// AloneMark starts the message of a test that Alone skipped: tools/testtime finds by it the
// tests a run left to the phase alone, and fails make test if one of them never ran there.
const AloneMark = "[alone]"

// Alone marks a test that must not share the machine: it times bots against the wall clock,
// starves them on purpose, or changes what every judge on the engine sees (its images).
// make test runs the packages side by side with JUDGE_TEST_PHASE=shared, where such a test
// skips, then runs each of them by itself with JUDGE_TEST_PHASE=alone (tools/testtime alone
// lists them by this call). Without JUDGE_TEST_PHASE, as a plain go test, it runs.
func Alone(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("JUDGE_TEST_PHASE") == "shared" {
		t.Skipf("%s %s: runs in make test's phase alone", AloneMark, why)
	}
}

// Runtime is the engine runtime bots run under in tests: JUDGE_TEST_RUNTIME (e.g. runsc for
// gVisor), else runc.
func Runtime() string {
	if r := os.Getenv("JUDGE_TEST_RUNTIME"); r != "" {
		return r
	}
	return "runc"
}

// GVisor reports whether the tests run under gVisor, where some refusals read differently.
func GVisor() bool { return Runtime() == sandbox.RuntimeGVisor }

// RuncOnly skips, under gVisor, a test of the judge's own logic that real bots happen to
// drive (a game's seats and rules, a broken bot's faults, the names a compiler is given): it
// runs under runc. Under gVisor what the runtime changes is checked: every test of the
// sandbox's boundary, the compilers, and each language's runtime in its sandbox.
func RuncOnly(t testing.TB, why string) {
	t.Helper()
	if GVisor() {
		t.Skipf("%s: checked under runc; gVisor changes nothing of it", why)
	}
}

// ReadOnly is how writing to a read-only mount fails under the test runtime: gVisor checks
// permissions first, so it says "Permission denied" where Linux says "Read-only file system".
func ReadOnly() string {
	if GVisor() {
		return "Permission denied"
	}
	return "Read-only file system"
}

// NoRoute is how connecting to an address without a route fails under the test runtime:
// gVisor's network stack says EHOSTUNREACH where Linux says ENETUNREACH.
func NoRoute() string {
	if GVisor() {
		return "No route to host"
	}
	return "Network is unreachable"
}

// Limits are the default bot limits under the test runtime.
func Limits() sandbox.Limits {
	l := sandbox.DefaultLimits()
	l.Runtime = Runtime()
	return l
}

// Spec is a RunSpec for a built bot with the default bot limits.
func Spec(res build.Result) sandbox.RunSpec {
	return sandbox.RunSpec{
		Image: res.RunImage, Cmd: res.Run, Artifact: res.Artifact, Limits: Limits(),
	}
}

// Start runs a built bot and removes it when the test ends.
func Start(t testing.TB, e *sandbox.Engine, spec sandbox.RunSpec) *sandbox.Process {
	t.Helper()
	p, err := e.Start(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("removing the bot's container: %v", err)
		}
	})
	return p
}

// StartWarm runs a built bot, as Start does, in a container the engine's pool prepared before
// the bot was asked for (it turns the pool on, for one container per kind), and fails the test
// unless it was one.
func StartWarm(t testing.TB, e *sandbox.Engine, spec sandbox.RunSpec) *sandbox.Process {
	t.Helper()
	e.Warm(1)
	if p, err := e.Start(context.Background(), spec); err == nil {
		p.Close() // the kind's first start, cold: the pool now prepares one
	}
	e.Settle()
	pooled := e.Pooled()
	p := Start(t, e, spec)
	if !slices.Contains(pooled, p.ID()) {
		t.Fatalf("the bot's container %.12s was not one the pool had ready (%d)", p.ID(), len(pooled))
	}
	return p
}

// LastCore is the core the starvation tests pin bots and hogs to.
func LastCore() int { return runtime.NumCPU() - 1 }

// Hog keeps n threads busy on core until the returned stop is called, so that a bot pinned
// there waits for a CPU. The threads run in a container of their own with the given CPU
// shares (0 for the engine's default, 1024): it is the bot's sibling in the engine's cgroups,
// so the share the bot gets does not depend on how the test process is scheduled (its session's
// autogroup, its cgroup, or neither, as for a process of the init session, which CI may be).
// With shares s, a bot of the default 1024 shares gets about 1024/(1024+s) of the core.
func Hog(t testing.TB, core, n int, shares int64) (stop func()) {
	t.Helper()
	cat, err := images.Load("")
	if err != nil {
		t.Fatal(err)
	}
	cli, err := dockerClient()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	loop := fmt.Sprintf("i=0; while [ $i -lt %d ]; do (while :; do :; done) & i=$((i+1)); done; wait", n)
	c, err := cli.ContainerCreate(ctx, &container.Config{Image: cat.Base.Ref("judge"), Cmd: []string{"/bin/sh", "-c", loop}},
		&container.HostConfig{NetworkMode: "none", Resources: container.Resources{CpusetCpus: fmt.Sprint(core), CPUShares: shares}},
		nil, nil, "")
	if err != nil {
		cli.Close()
		t.Fatalf("creating the hogs: %v", err)
	}
	remove := func() error {
		defer cli.Close()
		return cli.ContainerRemove(context.Background(), c.ID, container.RemoveOptions{Force: true})
	}
	if err := cli.ContainerStart(ctx, c.ID, container.StartOptions{}); err != nil {
		remove()
		t.Fatalf("starting the hogs: %v", err)
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			if err := remove(); err != nil {
				t.Errorf("removing the hogs: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// HostHas32BitCalls reports whether the host's kernel takes system calls through the 32-bit
// ABI (int 0x80) at all: the probe (a build of sandbox/testdata/probe) makes one as a plain
// process. A kernel without that ABI (some virtual machines' disable it) faults the call
// before any filter sees it, and the bot dies of SIGSEGV instead of SIGSYS: held all the same.
func HostHas32BitCalls(t testing.TB, probe build.Result) bool {
	t.Helper()
	cmd := exec.Command(filepath.Join(probe.Artifact, "bot"))
	cmd.Stdin = strings.NewReader("int80\n")
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGSEGV {
			return false
		}
	}
	if err != nil || !strings.HasPrefix(string(out), "int80 ") {
		t.Fatalf("the probe's 32-bit call on the host: %v, %q", err, out)
	}
	return true
}
