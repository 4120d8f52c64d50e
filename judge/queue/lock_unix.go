//go:build unix

package queue

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes f for this process without waiting: busy when another process holds it. The
// lock goes with the process, so a judge that dies leaves the store free.
func lockFile(f *os.File) (busy bool, err error) {
	err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	return errors.Is(err, unix.EWOULDBLOCK), err
}
