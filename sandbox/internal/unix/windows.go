//go:build windows

package unix

import (
	"syscall"
	"time"
)

// errNone is every call's answer: the sandbox needs Linux, and says so before it makes one.
const errNone = syscall.EWINDOWS

type (
	PollFd struct {
		Fd      int32
		Events  int16
		Revents int16
	}
	Timespec   struct{ Sec, Nsec int64 }
	Signal     = syscall.Signal
	Rlimit     struct{ Cur, Max uint64 }
	WaitStatus uint32
)

func (t Timespec) Nano() int64 { return t.Sec*int64(time.Second) + t.Nsec }

func (WaitStatus) Signaled() bool    { return false }
func (WaitStatus) Signal() Signal    { return 0 }
func (w WaitStatus) ExitStatus() int { return int(w) }

const (
	EAGAIN = syscall.EAGAIN
	EINTR  = syscall.EINTR
	ENODEV = syscall.ENODEV
	ENOENT = syscall.ENOENT
	ESRCH  = syscall.ESRCH

	O_CLOEXEC  = 0
	O_NONBLOCK = 0
	O_RDONLY   = 0
	O_WRONLY   = 1

	POLLIN        = 1
	RLIMIT_NOFILE = 7
	RLIM_INFINITY = ^uint64(0)
	SYS_READ      = 0

	SIGCONT = Signal(18)
	SIGKILL = syscall.SIGKILL
	SIGSTOP = Signal(19)

	LOCK_EX = 2
	LOCK_NB = 4
	LOCK_UN = 8
)

func Close(int) error                       { return errNone }
func Open(string, int, uint32) (int, error) { return -1, errNone }
func Read(int, []byte) (int, error)         { return 0, errNone }
func Write(int, []byte) (int, error)        { return 0, errNone }
func Pread(int, []byte, int64) (int, error) { return 0, errNone }
func Poll([]PollFd, int) (int, error)       { return 0, errNone }
func Mkfifo(string, uint32) error           { return errNone }
func Getrlimit(int, *Rlimit) error          { return errNone }
func Flock(int, int) error                  { return errNone }
func Kill(int, Signal) error                { return errNone }
func NsecToTimespec(nsec int64) Timespec    { return Timespec{nsec / 1e9, nsec % 1e9} }
