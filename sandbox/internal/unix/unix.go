//go:build unix

// Package unix is the part of golang.org/x/sys/unix the sandbox uses, so that the sandbox
// compiles where that package is empty (Windows): there the calls fail, and sandbox.New refuses
// before any is made.
package unix

import "golang.org/x/sys/unix"

type (
	PollFd     = unix.PollFd
	Timespec   = unix.Timespec
	Signal     = unix.Signal
	Rlimit     = unix.Rlimit
	WaitStatus = unix.WaitStatus
)

const (
	EAGAIN = unix.EAGAIN
	EINTR  = unix.EINTR
	ENODEV = unix.ENODEV
	ENOENT = unix.ENOENT
	ESRCH  = unix.ESRCH

	O_CLOEXEC  = unix.O_CLOEXEC
	O_NONBLOCK = unix.O_NONBLOCK
	O_RDONLY   = unix.O_RDONLY
	O_WRONLY   = unix.O_WRONLY

	POLLIN        = unix.POLLIN
	RLIMIT_NOFILE = unix.RLIMIT_NOFILE
	RLIM_INFINITY = unix.RLIM_INFINITY
	SYS_READ      = unix.SYS_READ

	SIGCONT = unix.SIGCONT
	SIGKILL = unix.SIGKILL
	SIGSTOP = unix.SIGSTOP

	LOCK_EX = unix.LOCK_EX
	LOCK_NB = unix.LOCK_NB
	LOCK_UN = unix.LOCK_UN
)

func Close(fd int) error                                   { return unix.Close(fd) }
func Open(path string, mode int, perm uint32) (int, error) { return unix.Open(path, mode, perm) }
func Read(fd int, p []byte) (int, error)                   { return unix.Read(fd, p) }
func Write(fd int, p []byte) (int, error)                  { return unix.Write(fd, p) }
func Pread(fd int, p []byte, off int64) (int, error)       { return unix.Pread(fd, p, off) }
func Poll(fds []PollFd, timeout int) (int, error)          { return unix.Poll(fds, timeout) }
func Mkfifo(path string, mode uint32) error                { return unix.Mkfifo(path, mode) }
func Getrlimit(resource int, rlim *Rlimit) error           { return unix.Getrlimit(resource, rlim) }
func Flock(fd int, how int) error                          { return unix.Flock(fd, how) }
func Kill(pid int, sig Signal) error                       { return unix.Kill(pid, sig) }
func NsecToTimespec(nsec int64) Timespec                   { return unix.NsecToTimespec(nsec) }
