//go:build unix

package cores

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// tryLock takes f's lock without waiting: busy when another judge holds it.
func tryLock(f *os.File) (busy bool, err error) {
	err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	return errors.Is(err, unix.EWOULDBLOCK), err
}
