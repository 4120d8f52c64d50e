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

// seccompProfile is Docker's default profile with process creation turned into a kill:
// clone is allowed only for a thread (CLONE_THREAD set, no namespace flag), and a clone
// without CLONE_THREAD, fork and vfork kill the whole bot with SIGSYS, so that a banned
// action is seen as exactly that rather than as an error the bot may ignore. clone3 keeps
// Docker's ENOSYS, which makes glibc fall back to clone.
func seccompProfile() (string, error) {
	p := seccomp.DefaultProfile()
	banned := []string{"clone", "fork", "vfork"}
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
			Action: specs.ActKillProcess,
			Args: []specs.LinuxSeccompArg{{
				Index: 0, Value: unix.CLONE_THREAD, ValueTwo: 0, Op: specs.OpMaskedEqual,
			}},
		}, Comment: "a new process"},
		&seccomp.Syscall{LinuxSyscall: specs.LinuxSyscall{
			Names:  []string{"fork", "vfork"},
			Action: specs.ActKillProcess,
		}},
	)
	p.Syscalls = kept
	b, err := json.Marshal(p)
	if err != nil {
		return "", fmt.Errorf("sandbox: seccomp profile: %w", err)
	}
	return string(b), nil
}
