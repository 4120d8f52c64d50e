package sandbox

import (
	"os"

	"github.com/botjudge/judge/sandbox/internal/unix"
)

// filesPerContainer is about what the judge holds open for one bot's container: its pipes,
// the attach stream, its pidfd, its cgroup and schedstat files.
const filesPerContainer = 12

// FilesPerMatch is what one more match may need of the judge's open files: up to eight bots'
// containers, its replay, a build. The warm pool prepares nothing that would leave less.
const FilesPerMatch = 8*filesPerContainer + 32

// OpenFiles is how many files the judge's process has open, and its limit (0: none).
func OpenFiles() (open, limit uint64, err error) {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		return 0, 0, err
	}
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0, 0, err
	}
	if lim.Cur == unix.RLIM_INFINITY {
		lim.Cur = 0
	}
	return uint64(len(entries)), lim.Cur, nil
}

// FilesLeft reports whether the judge may open n more files and stay within its limit (true
// when its figures cannot be read: the open itself then tells).
func FilesLeft(n int) bool {
	open, limit, err := OpenFiles()
	return err != nil || limit == 0 || open+uint64(n) <= limit
}
