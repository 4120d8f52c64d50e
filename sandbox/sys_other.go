//go:build !linux

package sandbox

import (
	"errors"

	"golang.org/x/sys/unix"
)

// errNotLinux is the sandbox's answer off Linux: its containers need Linux's cgroups, pidfds
// and seccomp.
var errNotLinux = errors.New("sandbox: the sandbox runs on Linux only (cgroups, pidfds, seccomp): on this system the judge's client commands work (judge contest)")

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
