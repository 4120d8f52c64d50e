package match

import (
	"context"
	"testing"
	"time"
)

// A bot that takes long to start (a JVM under gVisor: half a second) is looked at once every
// startupLook after the quick looks, however long it takes: the looks' schedule once
// overflowed after about 65 of them and spun, reading /proc, for the rest of the start.
func TestWaitIdleLooksCalmlyAtASlowStart(t *testing.T) {
	const starting = 1500 * time.Millisecond
	p := &slowStart{until: time.Now().Add(starting)}
	start := time.Now()
	waitIdle(context.Background(), p)
	if took := time.Since(start); took < starting {
		t.Errorf("ready after %v, while the bot was still starting", took)
	}
	if most := startupQuickLooks + int((starting+2*startupIdle)/startupLook) + 10; p.looks > most {
		t.Errorf("%d looks in %v; want at most %d", p.looks, time.Since(start), most)
	}
}

// slowStart uses CPU and is busy until until, then waits without being seen to (as under
// gVisor); waitIdle asks nothing else of its Meter.
type slowStart struct {
	Meter
	until time.Time
	looks int
}

func (s *slowStart) CPU() time.Duration {
	s.looks++
	if now := time.Now(); now.Before(s.until) {
		return time.Duration(now.UnixNano())
	}
	return time.Duration(s.until.UnixNano())
}

func (s *slowStart) Busy() bool    { return time.Now().Before(s.until) }
func (s *slowStart) Waiting() bool { return false }

// A compiled bot waits for its input a millisecond or so after its go: the quick looks that
// see it are well under a millisecond apart (Go's own sleeps last one at least), so that a
// match does not wait milliseconds for bots long ready. The quickest of a few tries counts: a
// loaded machine may delay any one of them.
func TestWaitIdleSeesAReadyBotAtOnce(t *testing.T) {
	quickest := time.Hour
	for range 5 {
		p := &ready{}
		start := time.Now()
		waitIdle(context.Background(), p)
		quickest = min(quickest, time.Since(start))
		if p.looks != 2 {
			t.Fatalf("%d looks at a bot waiting from the start; want 2", p.looks)
		}
	}
	if quickest >= time.Millisecond {
		t.Errorf("two looks at a ready bot took %v at the quickest; want under a millisecond", quickest)
	}
}

// ready is a bot blocked reading its input from the start, using no CPU.
type ready struct {
	Meter
	looks int
}

func (r *ready) CPU() time.Duration { return 0 }
func (r *ready) Waiting() bool      { r.looks++; return true }
