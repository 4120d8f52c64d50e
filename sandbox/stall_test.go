package sandbox_test

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/enginetest"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// An engine that stalls at any one call of a bot's start (create, attach, start, inspect)
// fails the start within the bound of an engine call rather than hang the match, and once
// it answers again no container is left.
func TestStalledEngineFailsTheStart(t *testing.T) {
	sandboxtest.Alone(t, "it times the engine's start against its deadline")
	sandboxtest.MustHaveDocker(t)
	spec := sandboxtest.Spec(sandboxtest.Build(t, sandboxtest.Builder(t, sandboxtest.Engine(t)), "sandbox/testdata/lifecycle/cpp"))
	const bound = 2 * time.Second
	sandbox.SetEngineTimeout(t, bound)
	for _, at := range []string{"/containers/create", "/attach", "/start", "/json"} {
		t.Run(strings.TrimPrefix(at, "/"), func(t *testing.T) {
			proxy := enginetest.Start(t, "")
			e, err := sandbox.New(context.Background(), sandbox.Options{Host: proxy.Host(), StateDir: sandboxtest.DataDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			proxy.StallAt(at)
			type started struct {
				p   *sandbox.Process
				err error
			}
			done := make(chan started, 1)
			begin := time.Now()
			go func() {
				p, err := e.Start(context.Background(), spec)
				done <- started{p, err}
			}()
			select {
			case s := <-done:
				took := time.Since(begin)
				if s.err == nil {
					s.p.Close()
					t.Fatalf("the start succeeded through an engine stalled at %s", at)
				}
				// Each call is bounded; a start makes a few, and an inspect may be retried
				// for a second while a bot is on its way out.
				if took > 4*bound {
					t.Errorf("the start failed after %v; want within a few engine-call bounds (%v)", took, bound)
				}
				t.Logf("failed after %v: %v", took.Round(time.Millisecond), s.err)
			case <-time.After(30 * time.Second):
				proxy.Resume()
				t.Fatalf("the start hung for 30 s at a stalled %s", at)
			}
			proxy.Resume()
			e.Settle()
			label := "label=" + sandbox.LabelInstance + "=" + e.Instance()
			deadline := time.Now().Add(20 * time.Second)
			for {
				out, err := exec.Command("docker", "ps", "-aq", "--filter", label).CombinedOutput()
				if err != nil {
					t.Fatalf("docker ps: %v: %s", err, out)
				}
				left := strings.Fields(string(out))
				if len(left) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("containers left 20 s after the engine answered again: %v", left)
				}
				time.Sleep(200 * time.Millisecond)
			}
		})
	}
}

// A closed bot's signals reach no other process, even one whose pidfd now has the number the
// closed bot's had: Kill, Freeze and Thaw after Close do nothing.
func TestAClosedBotsSignalsReachNoOther(t *testing.T) {
	e := sandboxtest.Engine(t)
	spec := sandboxtest.Spec(sandboxtest.Build(t, sandboxtest.Builder(t, e), "sandbox/testdata/lifecycle/cpp"))
	// Another process, its pidfd at the closed bot's old number.
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer other.Process.Kill()
	var p *sandbox.Process
	n := -1
	for try := 0; n < 0; try++ {
		if try == 5 {
			t.Fatal("another file took the closed bot's pidfd number first, five times")
		}
		p = sandboxtest.Start(t, e, spec)
		mustAsk(t, p, "echo up")
		old := p.Pidfd()
		if old < 0 {
			t.Fatal("the bot has no pidfd")
		}
		p.Close()
		ok, err := pidfdAt(other.Process.Pid, old)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			n = old
		}
		e.Settle()
	}
	defer unix.Close(n)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p.Freeze()
	p.Thaw()
	p.Freeze()
	p.Kill(ctx)
	time.Sleep(100 * time.Millisecond)
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(other.Process.Pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if state := fields[0]; state != "S" {
		t.Errorf("the other process is in state %s after the closed bot's Freeze and Kill; want S (sleeping)", state)
	}
}

// pidfdAt opens pidfds of pid until one has the number n, and closes the others. It never puts
// a descriptor in place of another's (as dup3 would): one the engine's client had just opened
// at n would be closed, and its own close later would hit whatever had the number by then.
// ok is false when another file took n first.
func pidfdAt(pid, n int) (ok bool, err error) {
	var spare []int
	defer func() {
		for _, fd := range spare {
			unix.Close(fd)
		}
	}()
	for {
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			return false, err
		}
		if fd == n {
			return true, nil
		}
		spare = append(spare, fd)
		if fd > n {
			return false, nil
		}
	}
}
