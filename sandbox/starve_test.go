package sandbox_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// A bot the machine does not give a CPU is not blamed: with its core shared with four busy
// threads (the engine's cgroups give the bot about half of it), a bot that needs well over a
// second of CPU takes longer than its 1 s wall cap, and still answers, because the time it
// waited for a CPU extends the cap.
func TestStarvedBotIsNotTimedOut(t *testing.T) {
	sandboxtest.Alone(t, "it starves a bot on purpose")
	core := sandboxtest.LastCore()
	p := probe(t, func(s *sandbox.RunSpec) { s.Limits.CPUSet = fmt.Sprint(core) })
	mustAsk(t, p, "echo warm")
	stop := sandboxtest.Hog(t, core, 4, 0)
	defer stop()
	// 1600 ms by the bot's own clock: under gVisor the cgroup sees less of it, but still more
	// than the wall limit can hold at half a core.
	lim := sandbox.TurnLimits{CPU: 3 * time.Second, Wall: time.Second}
	ans, turn, err := ask(t, p, "burn 1600", lim)
	stop()
	if err != nil {
		t.Fatalf("a starved bot got %v after %v wall, %v CPU, %v waiting for a CPU; want its answer", err, turn.Wall, turn.CPU, turn.Waited)
	}
	if ans == "" || turn.Wall <= lim.Wall || turn.Waited <= 0 {
		t.Fatalf("answer %q in %v wall (%v waiting, %v CPU); want the wall cap of %v exceeded and extended by the wait", ans, turn.Wall, turn.Waited, turn.CPU, lim.Wall)
	}
	t.Logf("answered after %v wall: %v CPU, %v waiting for a CPU", turn.Wall, turn.CPU, turn.Waited)
}

// A bot that sleeps through the same load is still timed out by the wall clock: sleeping is
// not waiting for a CPU.
func TestSleepingBotUnderLoadIsTimedOut(t *testing.T) {
	sandboxtest.Alone(t, "it loads the cores on purpose")
	core := sandboxtest.LastCore()
	p := probe(t, func(s *sandbox.RunSpec) { s.Limits.CPUSet = fmt.Sprint(core) })
	mustAsk(t, p, "echo warm")
	stop := sandboxtest.Hog(t, core, 4, 0)
	defer stop()
	lim := sandbox.TurnLimits{CPU: time.Second, Wall: 2 * time.Second}
	_, turn, err := ask(t, p, "sleep 60000", lim)
	if !errors.Is(err, sandbox.ErrWallLimit) {
		t.Fatalf("a sleeping bot: got %v; want %v", err, sandbox.ErrWallLimit)
	}
	if turn.Wall > lim.Wall+time.Second || turn.Waited > 500*time.Millisecond {
		t.Errorf("a sleeping bot took %v wall and %v waiting; want about the cap (%v) and little waiting", turn.Wall, turn.Waited, lim.Wall)
	}
}

// A bot whose own threads queue behind each other is not starved by the machine: eight
// threads busy on its one core wait for each other, but each uses the CPU the others wait for.
// The wait that counts is the longest of one thread, not their sum, so this is never the
// judge's error (ErrStarved).
func TestOwnThreadsQueuingIsNotStarvation(t *testing.T) {
	sandboxtest.Alone(t, "it measures queuing against the wall clock")
	core := sandboxtest.LastCore()
	p := probe(t, func(s *sandbox.RunSpec) { s.Limits.CPUSet = fmt.Sprint(core) })
	mustAsk(t, p, "echo warm")
	lim := sandbox.TurnLimits{CPU: 20 * time.Second, Wall: time.Second}
	_, turn, err := ask(t, p, "burnmt 8 2500", lim)
	if errors.Is(err, sandbox.ErrStarved) {
		t.Fatalf("eight busy threads of the bot's own were taken for starvation: %v (waited %v, CPU %v, wall %v)", err, turn.Waited, turn.CPU, turn.Wall)
	}
	if turn.Waited > turn.CPU {
		t.Errorf("the wall limit was extended by %v, more than the %v of CPU the bot used", turn.Waited, turn.CPU)
	}
	t.Logf("%v wall, %v CPU, %v waited: %v", turn.Wall, turn.CPU, turn.Waited, err)
}
