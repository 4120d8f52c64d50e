//go:build !linux

package sandbox

import (
	"errors"
	"runtime"

	"github.com/botjudge/judge/sandbox/internal/unix"
)

// errNotLinux is the sandbox's answer off Linux: its containers need Linux's cgroups, pidfds
// and seccomp. It says what does work there.
var errNotLinux = errors.New("sandbox: the sandbox runs on Linux only (cgroups, pidfds, seccomp): " + map[string]string{
	"darwin":  "here judge play --local plays bots as plain processes, and judge contest, replay and view work",
	"windows": "here judge contest, replay and view work; to play, run the Linux judge under WSL 2 (docs/contestant.md)",
}[runtime.GOOS])

// linuxOnly is the sandbox's refusal, before it looks for an engine.
func linuxOnly() error { return errNotLinux }

func pidfdOpen(int) (int, error) { return -1, errNotLinux }

func pidfdSignal(int, unix.Signal) error { return errNotLinux }

func ppoll(fds []unix.PollFd, timeout *unix.Timespec) {
	unix.Poll(fds, int(timeout.Nano()/1e6))
}

func eventfd() (int, error) { return -1, errNotLinux }

// profiles are none: no container is made here.
func profiles() (map[profileKey]string, error) { return nil, errNotLinux }

// Beside changes nothing here.
func Beside(string) (restore func()) { return func() {} }
