//go:build linux

package sandbox

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/moby/profiles/seccomp"
	specs "github.com/opencontainers/runtime-spec/specs-go"
	"golang.org/x/sys/unix"
)

// Namespace flags a clone may never carry (as in Docker's default profile).
const cloneNamespaces = unix.CLONE_NEWNS | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC | unix.CLONE_NEWUSER |
	unix.CLONE_NEWPID | unix.CLONE_NEWNET | unix.CLONE_NEWCGROUP

// traceCalls reach into another process: tracing it, reading or writing its memory.
var traceCalls = []string{"ptrace", "process_vm_readv", "process_vm_writev"}

// profiles are the seccomp profiles the engine passes; Docker's default under runc needs none.
func profiles() (map[profileKey]string, error) {
	out := map[profileKey]string{}
	for _, k := range []profileKey{{true, false}, {true, true}, {false, true}} {
		p, err := profileJSON(k.judge, k.gvisor)
		if err != nil {
			return nil, err
		}
		out[k] = p
	}
	return out, nil
}

// profileJSON is Docker's default profile, made the judge's (judge), fit for runsc (gvisor).
func profileJSON(judge, gvisor bool) (string, error) {
	p := seccomp.DefaultProfile()
	if judge {
		banProcesses(p)
	}
	if gvisor {
		fitGVisor(p)
	}
	b, err := json.Marshal(p)
	if err != nil {
		return "", fmt.Errorf("sandbox: seccomp profile: %w", err)
	}
	return string(b), nil
}

// fitGVisor adapts a profile to runsc, which refuses SCMP_ACT_KILL_PROCESS and whose
// SCMP_ACT_KILL ends the calling thread only (and would outrank the launcher's trap): kills
// become traps, SIGSYS, whose default action ends the process. And runsc ignores an errno
// rule's errnoRet: Docker's ENOSYS for clone3 became EPERM, so glibc never fell back to
// clone and no thread could start (javac failed to start its VM); clone3 is left to gVisor's
// kernel, which gives no capability to create namespaces.
func fitGVisor(p *seccomp.Seccomp) {
	for _, s := range p.Syscalls {
		if s.Action == specs.ActKillProcess {
			s.Action = specs.ActTrap
		}
		if s.Action == specs.ActErrno {
			s.Names = slices.DeleteFunc(s.Names, func(n string) bool { return n == "clone3" })
		}
	}
	p.Syscalls = slices.DeleteFunc(p.Syscalls, func(s *seccomp.Syscall) bool { return len(s.Names) == 0 })
	p.Syscalls = append(p.Syscalls, &seccomp.Syscall{LinuxSyscall: specs.LinuxSyscall{
		Names: []string{"clone3"}, Action: specs.ActAllow,
	}, Comment: "gVisor's own clone3"})
}

// banProcesses turns Docker's default profile into the judge's: clone only for a thread
// (CLONE_THREAD, no namespace flag); any other clone, fork and vfork kill the bot with SIGSYS,
// so a banned action shows as that, not as an error the bot may ignore. clone3 keeps Docker's
// ENOSYS (glibc falls back to clone). One form of clone makes a process: CLONE_PARENT_SETTID
// without CLONE_THREAD, which no libc's fork uses, for the serving launcher's child (see
// reuse.go); the bot's own filter, which the launcher installs, kills it for any clone that
// is not a thread's.
//
// The trace calls, which Docker allows, fail with EPERM: PTRACE_TRACEME would make the
// engine's shim the bot's tracer, and at the first SIGSTOP the engine would see the container
// exited while the process outlived its removal. An error, not a kill: a runtime may probe
// for a debugger that way and carry on.
func banProcesses(p *seccomp.Seccomp) {
	eperm := uint(unix.EPERM)
	banned := append([]string{"clone", "fork", "vfork"}, traceCalls...)
	var kept []*seccomp.Syscall
	for _, s := range p.Syscalls {
		s.Names = slices.DeleteFunc(s.Names, func(n string) bool { return slices.Contains(banned, n) })
		if len(s.Names) > 0 {
			kept = append(kept, s)
		}
	}
	kept = append(kept,
		&seccomp.Syscall{LinuxSyscall: specs.LinuxSyscall{
			Names:  []string{"clone"},
			Action: specs.ActAllow,
			Args: []specs.LinuxSeccompArg{{
				Index: 0, Value: unix.CLONE_THREAD | cloneNamespaces, ValueTwo: unix.CLONE_THREAD, Op: specs.OpMaskedEqual,
			}},
		}, Comment: "threads only"},
		&seccomp.Syscall{LinuxSyscall: specs.LinuxSyscall{
			Names:  []string{"clone"},
			Action: specs.ActAllow,
			Args: []specs.LinuxSeccompArg{{
				Index: 0, Value: unix.CLONE_THREAD | cloneNamespaces | unix.CLONE_PARENT_SETTID, ValueTwo: unix.CLONE_PARENT_SETTID,
				Op: specs.OpMaskedEqual,
			}},
		}, Comment: "the serving launcher's child"},
		&seccomp.Syscall{LinuxSyscall: specs.LinuxSyscall{
			Names:  []string{"clone"},
			Action: specs.ActKillProcess,
			Args: []specs.LinuxSeccompArg{{
				Index: 0, Value: unix.CLONE_THREAD | unix.CLONE_PARENT_SETTID, ValueTwo: 0, Op: specs.OpMaskedEqual,
			}},
		}, Comment: "a new process"},
		&seccomp.Syscall{LinuxSyscall: specs.LinuxSyscall{
			Names:  []string{"fork", "vfork"},
			Action: specs.ActKillProcess,
		}},
		&seccomp.Syscall{LinuxSyscall: specs.LinuxSyscall{
			Names:    traceCalls,
			Action:   specs.ActErrno,
			ErrnoRet: &eperm,
		}, Comment: "no tracing"},
	)
	p.Syscalls = kept
}
