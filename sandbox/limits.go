package sandbox

import "cmp"

// Limits bounds one container. Each restriction is one field, and the zero value of every
// field is safe: it means the default of DefaultLimits (a bot's), never "no limit", except
// where a field says what its zero means.
type Limits struct {
	// Memory is the memory limit in bytes. Swap is never allowed.
	Memory int64
	// CPUs is the CPU quota in cores (1.5 = one and a half cores).
	CPUs float64
	// CPUSet pins the container to these cores ("0", "1-2"); "" means any core.
	CPUSet string
	// Pids bounds processes and threads together; threads need room (a JVM starts dozens).
	Pids int64
	// NoFile bounds open file descriptors (RLIMIT_NOFILE).
	NoFile int64
	// FileSize bounds the size of any file written (RLIMIT_FSIZE), in bytes.
	FileSize int64
	// Tmpfs is the size of a writable, noexec /tmp; 0 means no writable /tmp at all.
	Tmpfs int64
	// Network, when false (the default), leaves the container with no network interface
	// but loopback.
	Network bool
	// Seccomp is the system-call filter.
	Seccomp Seccomp
	// Runtime is the engine runtime: "runc" (""), or RuntimeGVisor.
	Runtime string
}

// Seccomp names a system-call filter.
type Seccomp string

const (
	// SeccompJudge is the judge's profile (the default): Docker's, with the creation of a
	// process killed (threads stay allowed) and ptrace refused.
	SeccompJudge Seccomp = ""
	// SeccompDocker is Docker's default profile, for compilers, which start processes.
	SeccompDocker Seccomp = "docker"
)

// RuntimeGVisor is the runtime name under which images/gvisor/install.sh registers gVisor's
// runsc with the engine.
const RuntimeGVisor = "runsc"

// DefaultLimits are a bot's: 256 MiB, one core, 64 tasks, 64 files, 1 MiB file size, no /tmp,
// no network, the judge's seccomp profile, runc. They are the judge's defaults: the
// configuration starts from them.
func DefaultLimits() Limits {
	return Limits{
		Memory:   256 << 20,
		CPUs:     1,
		Pids:     64,
		NoFile:   64,
		FileSize: 1 << 20,
		Seccomp:  SeccompJudge,
		Runtime:  "runc",
	}
}

// orDefaults is l with every zero field that has a default given it.
func (l Limits) orDefaults() Limits {
	d := DefaultLimits()
	l.Memory = cmp.Or(l.Memory, d.Memory)
	l.CPUs = cmp.Or(l.CPUs, d.CPUs)
	l.Pids = cmp.Or(l.Pids, d.Pids)
	l.NoFile = cmp.Or(l.NoFile, d.NoFile)
	l.FileSize = cmp.Or(l.FileSize, d.FileSize)
	l.Runtime = cmp.Or(l.Runtime, d.Runtime)
	return l
}

// Output bounds what a bot writes. A zero field is its DefaultOutput.
type Output struct {
	// Stdout bounds everything the bot may write to stdout; past it, reads fail with
	// ErrOutputLimit.
	Stdout int64
	// Stderr bounds what is kept of stderr over the bot's life (the rest is discarded, and
	// TakeStderr marks where).
	Stderr int64
	// Line bounds one line of stdout; a longer one is ErrLineTooLong.
	Line int64
}

// DefaultOutput is 16 MiB of output, 64 KiB of stderr kept, lines of up to 1 MiB.
func DefaultOutput() Output { return Output{Stdout: 16 << 20, Stderr: 64 << 10, Line: 1 << 20} }

// OrDefaults is o with every zero field its default: the limits a bot started with o has.
func (o Output) OrDefaults() Output {
	d := DefaultOutput()
	return Output{Stdout: cmp.Or(o.Stdout, d.Stdout), Stderr: cmp.Or(o.Stderr, d.Stderr), Line: cmp.Or(o.Line, d.Line)}
}
