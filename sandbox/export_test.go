package sandbox

import (
	"testing"
	"time"
)

// SetEngineTimeout shortens the bound of an engine call on a match's path for t, so that a
// test of a stalled engine need not wait out the default.
func SetEngineTimeout(t testing.TB, d time.Duration) {
	old := engineTimeout
	engineTimeout = d
	t.Cleanup(func() { engineTimeout = old })
}

// Pidfd is the number of p's pidfd, -1 when it has none.
func (p *Process) Pidfd() int { return p.pidfd }

// SetWarmIdle shortens, for t, how long a kind goes unstarted before a full pool gives its
// places to another.
func SetWarmIdle(t testing.TB, d time.Duration) {
	old := warmIdle
	warmIdle = d
	t.Cleanup(func() { warmIdle = old })
}
