package sandbox_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// A referee held by FreezeIdle is not stopped between its answers, and still takes nothing
// from a bot: its container has the least CPU weight, so a thread it leaves spinning takes
// the core only when the bot does not want it; and what it spins is charged to its next
// answer, whose CPU limit it then meets. Under gVisor FreezeIdle is the cgroup freezer.
func TestIdleHoldTakesNothingFromTheBots(t *testing.T) {
	sandboxtest.Alone(t, "it times a bot beside a spinning program on one core")
	core := fmt.Sprint(sandboxtest.LastCore())
	pinned := func(f sandbox.Freeze) func(*sandbox.RunSpec) {
		return func(s *sandbox.RunSpec) { s.Limits.CPUSet, s.Freeze = core, f }
	}
	// The bot's burn alone on the core: what "slowed" is measured against (under gVisor the
	// cgroup's charge is not the bot's own clock, so wall over CPU would not do).
	burn := func() time.Duration {
		bot := probe(t, pinned(sandbox.FreezeSignal))
		mustAsk(t, bot, "echo warm")
		_, turn := burned(t, bot, "burn 300")
		return turn.Wall
	}
	alone := burn()
	for _, tc := range []struct {
		name   string
		freeze sandbox.Freeze
		fair   bool // the bot's burn is not slowed
	}{
		{"idle", sandbox.FreezeIdle, true},
		{"none (the protection off)", sandbox.FreezeNone, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			referee := probe(t, pinned(tc.freeze))
			mustAsk(t, referee, "spin") // a thread burns CPU from now on, between the answers too
			wall := burn()
			slowed := float64(wall) / float64(alone)
			t.Logf("a bot's burn took %v of wall beside the spinning program, %v alone (%.2fx)", wall, alone, slowed)
			if tc.fair && slowed > 1.3 {
				t.Errorf("the bot was slowed %.2fx by a program held idle", slowed)
			}
			// Under gVisor the bot's own clock counts the time its thread was meant to run, a
			// shared core included, so a burn by that clock is not slowed: only runc shows it.
			if !tc.fair && slowed < 1.5 && !sandboxtest.GVisor() {
				t.Errorf("the bot was slowed only %.2fx by a spinning program that is not held: the check cannot fail", slowed)
			}
			if tc.freeze != sandbox.FreezeIdle {
				return
			}
			// Its spinning between the answers counts against its next answer.
			_, next, err := ask(t, referee, "echo late", sandbox.TurnLimits{CPU: 50 * time.Millisecond, Wall: 5 * time.Second})
			if sandboxtest.GVisor() {
				if err != nil && !errors.Is(err, sandbox.ErrCPULimit) {
					t.Errorf("the next answer under gVisor: %v", err)
				}
				return
			}
			if !errors.Is(err, sandbox.ErrCPULimit) || next.CPU < 50*time.Millisecond {
				t.Errorf("the next answer of a program that spun between its answers: %v, charged %v; want its CPU limit met", err, next.CPU)
			}
		})
	}
}
