package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/botjudge/judge/sandbox/internal/unix"
)

// waitLook is how long a turn past its wall limit watches a bot that is ready to run.
const waitLook = 20 * time.Millisecond

// look watches the bot for waitLook. The kernel counts a wait for a CPU only once the waiting
// thread runs again, so a bot starved right now is not yet in its run_delay. A bot ready to run
// (state R) at both ends of the look that got no CPU at all (the counter has nanoseconds:
// even waking up costs some) waited for a CPU throughout: starved. One that was ready to run
// and got CPU is computing, not sleeping: its CPU limit will stop it. Neither is a sleeper.
func (p *Process) look() (starved, computing bool) {
	if !p.runnable() {
		return false, false
	}
	c := p.CPU()
	time.Sleep(waitLook)
	if !p.runnable() {
		return false, false
	}
	if p.CPU() == c {
		return true, false
	}
	return false, true
}

// Busy reports whether a thread of the bot is running, ready to run (state R) or waiting for
// the disk (state D, as a runtime loading its files) right now: a bot that uses little CPU
// and is busy is held up by the machine, not idle waiting for input.
func (p *Process) Busy() bool { return p.tasks.Busy() }

// runnable reports whether a thread of the bot is ready to run or running (state R).
func (p *Process) runnable() bool { return p.tasks.inState("R") }

// Waiting reports whether the bot is blocked reading its input (Threads.Waiting). Under
// gVisor the host sees the sandbox's kernel, not the bot's threads: never.
func (p *Process) Waiting() bool {
	if p.spec.Limits.Runtime == RuntimeGVisor {
		return false
	}
	return p.tasks.Waiting()
}

// Threads are a process's threads as Linux shows them, its /proc/PID/task directory; ""
// (or another OS) shows none. A bot in a container and one run as a plain process
// (judge/local) are looked at the same way.
type Threads string

// ThreadsOf are process pid's threads.
func ThreadsOf(pid int) Threads { return Threads(fmt.Sprintf("/proc/%d/task", pid)) }

// Busy reports whether a thread is running, ready to run or waiting for the disk: in state D,
// or asleep in a wait for a file system's daemon (fileWait).
func (t Threads) Busy() bool {
	busy := false
	t.each(func(tid string, state byte) bool {
		busy = state == 'R' || state == 'D' || (state == 'S' && t.fileWait(tid))
		return !busy
	})
	return busy
}

// fileWait reports whether thread tid sleeps waiting for a FUSE daemon to serve a file: the
// containers' files are fuse-overlayfs's where that is Docker's storage driver, and a runtime
// loading them (Mono its assemblies, on a loaded machine) waits there in state S, using no
// CPU, for as long as the daemon takes: neither idle nor waiting for input.
func (t Threads) fileWait(tid string) bool {
	var w [64]byte
	return bytes.Equal(t.wchan(tid, &w), fuseWait)
}

// fuseWait is the kernel function a thread waiting for a FUSE daemon sleeps in (its wchan).
var fuseWait = []byte("request_wait_answer")

// wchan is where thread tid sleeps (its /proc wchan), read into w.
func (t Threads) wchan(tid string, w *[64]byte) []byte {
	n, _ := readProc(string(t)+"/"+tid+"/wchan", w[:])
	return w[:n]
}

// inState reports whether a thread is in one of the states (/proc/PID/stat).
func (t Threads) inState(states string) bool {
	found := false
	t.each(func(_ string, state byte) bool {
		found = strings.IndexByte(states, state) >= 0
		return !found
	})
	return found
}

// Waiting reports whether the process is blocked reading its input: no thread of it is
// running, ready to run or waiting for the disk or its files (fileWait), and one sleeps in a
// pipe read of its stdin (its wchan and its system call).
func (t Threads) Waiting() bool {
	reading := false
	idle := t.each(func(tid string, state byte) bool {
		if state == 'R' || state == 'D' {
			return false
		}
		if state == 'S' {
			var w [64]byte
			wchan := t.wchan(tid, &w)
			if bytes.Equal(wchan, fuseWait) {
				return false // loading its files (fileWait)
			}
			reading = reading || bytes.HasSuffix(wchan, []byte("pipe_read")) && readsStdin(string(t)+"/"+tid) // anon_pipe_read since Linux 6.12
		}
		return true
	})
	return idle && reading
}

// each calls fn with each thread and its state (/proc/PID/task/TID/stat) until fn returns
// false; it reports whether fn never did. A process not found has no threads.
func (t Threads) each(fn func(tid string, state byte) bool) bool {
	if t == "" {
		return true
	}
	dir, err := os.Open(string(t))
	if err != nil {
		return true
	}
	names, _ := dir.Readdirnames(-1)
	dir.Close()
	var buf [512]byte
	for _, tid := range names {
		n, err := readProc(string(t)+"/"+tid+"/stat", buf[:])
		if err != nil {
			continue
		}
		// "pid (comm) S ...": the state follows the last ")", comm may hold anything.
		if i := bytes.LastIndexByte(buf[:n], ')'); i >= 0 && i+2 < n && !fn(tid, buf[i+2]) {
			return false
		}
	}
	return true
}

// readsStdin reports whether the thread at dir is in a read of its stdin, as its syscall file
// says ("0 0x0 ..." on amd64: read, fd 0), or true when that cannot be read. A runtime's own
// thread blocked on a pipe of its own (Node.js at its start) is not a bot waiting for input.
func readsStdin(dir string) bool {
	var b [256]byte
	n, err := readProc(dir+"/syscall", b[:])
	if err != nil {
		return true
	}
	f := strings.Fields(string(b[:n]))
	if len(f) < 2 {
		return true // "running" or "-1 ...": not in a system call now
	}
	return f[0] == strconv.Itoa(unix.SYS_READ) && f[1] == "0x0"
}
