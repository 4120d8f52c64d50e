//go:build linux

package sandbox

import (
	"runtime"

	"github.com/botjudge/judge/sandbox/cores"
	"golang.org/x/sys/unix"
)

// Beside keeps the calling goroutine, until the returned function is called, on an OS thread
// of its own that runs only on the cores of cpuset (Limits.CPUSet, "1" or "1-3,5"): the judge's
// side of a match pinned with its bots. A bot's answer then wakes the judge's thread on the
// bot's own core, as a plain pipe between two processes on one core does, where a wake-up from
// another core costs an interprocessor interrupt (in a virtual machine, an exit). Only the bot on move runs, and the judge only between moves, so they do
// not compete. An empty or unreadable cpuset changes nothing.
func Beside(cpuset string) (restore func()) {
	set, ok := parseCPUSet(cpuset)
	if !ok {
		return func() {}
	}
	runtime.LockOSThread()
	var old unix.CPUSet
	if unix.SchedGetaffinity(0, &old) != nil || unix.SchedSetaffinity(0, &set) != nil {
		runtime.UnlockOSThread()
		return func() {}
	}
	return func() {
		unix.SchedSetaffinity(0, &old)
		runtime.UnlockOSThread()
	}
}

// parseCPUSet reads a cpuset list: "1", "0-3", "1,3-5".
func parseCPUSet(s string) (unix.CPUSet, bool) {
	var set unix.CPUSet
	cpus, err := cores.ParseList(s)
	if err != nil {
		return set, false
	}
	for _, c := range cpus {
		if c < 1024 {
			set.Set(c)
		}
	}
	return set, set.Count() > 0
}
