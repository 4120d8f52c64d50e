package sandbox_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// A bot waiting for its container's files is busy, not idle and not waiting for input: where
// Docker keeps containers on fuse-overlayfs, a thread opening a file waits for that daemon in
// state S with no CPU (a Mono bot loading its assemblies on a loaded machine was once taken for
// idle and its start-up split wrongly). The test holds the container's daemon with SIGSTOP while
// the bot opens a file, as a daemon too busy to answer would.
func TestWaitingForItsFilesIsBusy(t *testing.T) {
	sandboxtest.RuncOnly(t, "the host sees a runc bot's threads")
	p := probe(t, nil)
	if got := mustAsk(t, p, "echo ready"); got != "echo ready" {
		t.Fatalf("the probe: %q", got)
	}
	daemon := fuseDaemon(t, p.ID())
	if err := p.Thaw(); err != nil { // held since its answer
		t.Fatal(err)
	}
	for end := time.Now().Add(5 * time.Second); !p.Waiting() && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond) // until the probe is back in its read
	}
	if !p.Waiting() || p.Busy() {
		t.Fatalf("a bot reading its input: waiting %v, busy %v", p.Waiting(), p.Busy())
	}
	if err := syscall.Kill(daemon, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	resumed := false
	resume := func() {
		if !resumed {
			syscall.Kill(daemon, syscall.SIGCONT)
			resumed = true
		}
	}
	defer resume()
	answer := make(chan string, 1)
	go func() { // a name never looked up: the kernel asks the daemon
		got, _, _ := ask(t, p, fmt.Sprintf("cat /judge-filewait-%d", time.Now().UnixNano()), normal)
		answer <- got
	}()
	deadline := time.Now().Add(2 * time.Second)
	seen := false
	for time.Now().Before(deadline) && !seen {
		time.Sleep(20 * time.Millisecond)
		seen = p.Busy() && !p.Waiting()
	}
	resume()
	if got := <-answer; !strings.HasPrefix(got, "cat ") {
		t.Errorf("the probe's answer once its files came: %q", got)
	}
	if !seen {
		t.Errorf("a bot waiting for its files: never busy (or waiting for input) in 2 s")
	}
}

// fuseDaemon is the fuse-overlayfs process serving container id's files; a machine whose
// storage driver is another has no such wait, and skips.
func fuseDaemon(t *testing.T, id string) int {
	t.Helper()
	out, err := exec.Command("docker", "inspect", "-f", "{{.Driver}} {{.GraphDriver.Data.MergedDir}}", id).Output()
	if err != nil {
		t.Fatalf("docker inspect %s: %v", id, err)
	}
	driver, merged, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if driver != "fuse-overlayfs" {
		t.Skipf("the storage driver is %s: no FUSE daemon serves the containers' files", driver)
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range procs {
		cmd, err := os.ReadFile(f)
		if err != nil || !strings.HasPrefix(string(cmd), "fuse-overlayfs\x00") || !strings.HasSuffix(strings.TrimRight(string(cmd), "\x00"), merged) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		return pid
	}
	t.Fatalf("no fuse-overlayfs process serves %s", merged)
	return 0
}
