//go:build windows

package queue

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockFile takes f for this process without waiting: busy when another process holds it.
// Windows ends the lock with the process, as flock does.
func lockFile(f *os.File) (busy bool, err error) {
	var o windows.Overlapped
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &o)
	return errors.Is(err, windows.ERROR_LOCK_VIOLATION), err
}
