package match

import (
	"time"

	"golang.org/x/sys/unix"
)

// nap sleeps d in the kernel, on this thread: Go's own sleeps are rounded up to whole
// milliseconds.
func nap(d time.Duration) {
	ts := unix.NsecToTimespec(d.Nanoseconds())
	unix.Nanosleep(&ts, nil)
}
