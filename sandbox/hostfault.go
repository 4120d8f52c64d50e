package sandbox

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
)

// hostFaults are the errors of the judge's machine failing it - no room, no quota, an I/O
// error, no file descriptor or memory left - rather than anything a submission did.
var hostFaults = []syscall.Errno{syscall.ENOSPC, syscall.EDQUOT, syscall.EIO, syscall.EROFS,
	syscall.ENOMEM, syscall.EMFILE, syscall.ENFILE}

// hostFault reports whether err is the machine failing the judge (hostFaults): such a build
// or match is the judge's failure, never the bot's.
func hostFault(err error) bool {
	for _, errno := range hostFaults {
		if errors.Is(err, errno) {
			return true
		}
	}
	return false
}

// engineTexts are how the engine's answers name the machine's faults: its errors reach the
// judge as text, so this is where they become the errno they are, once, for every caller
// (errors.Is(err, syscall.ENOSPC)).
var engineTexts = []struct {
	text  string
	errno syscall.Errno
}{
	{"no space left on device", syscall.ENOSPC},
	{"disk quota exceeded", syscall.EDQUOT},
	{"too many open files", syscall.EMFILE},
	{"cannot allocate memory", syscall.ENOMEM},
}

// engineErr is the engine's err with the errno its text names, when it names one of the
// machine's faults; err as it is otherwise.
func engineErr(err error) error {
	if err == nil || hostFault(err) {
		return err
	}
	msg := strings.ToLower(err.Error())
	for _, t := range engineTexts {
		if strings.Contains(msg, t.text) {
			return fmt.Errorf("%w (%w)", err, t.errno)
		}
	}
	return err
}
