package sandbox

import (
	"os"

	"github.com/botjudge/judge/sandbox/internal/unix"
)

// The judge reads kernel files (the cgroups', /proc's) on every move and at every look at a
// starting bot, so each read is the fewest system calls that do it: os.File.ReadAt reads again
// to find the end of the file, and os.Open tries (and fails) to add the file to Go's poller.

// preadOnce reads what the kernel file f has at offset 0, in one pread.
func preadOnce(f *os.File, buf []byte) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var n int
	var rerr error
	if err := rc.Read(func(fd uintptr) bool {
		n, rerr = unix.Pread(int(fd), buf, 0)
		return true
	}); err != nil {
		return 0, err
	}
	return max(n, 0), rerr
}

// readProc reads the start of the kernel file at path (a /proc file: what fits in buf).
func readProc(path string, buf []byte) (int, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	defer unix.Close(fd)
	n, err := unix.Read(fd, buf)
	return max(n, 0), err
}
