package sandbox

// Limits bounds one container. Each restriction is one field; NewLimits gives the safe
// defaults, and a zero field means "none of this resource" only where it says so.
type Limits struct {
	// Memory is the memory limit in bytes. Swap is never allowed.
	Memory int64
	// CPUs is the CPU quota in cores (1.5 = one and a half cores).
	CPUs float64
	// CPUSet pins the container to these cores ("0", "1-2"); "" means any core.
	CPUSet string
	// Pids bounds processes and threads together; threads need room (a JVM wants ~30).
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
	// Seccomp, when true, applies the judge's profile, which kills a process that tries to
	// create another process (threads stay allowed). When false Docker's default applies.
	Seccomp bool
	// Runtime is the engine runtime: "runc", or RuntimeGVisor.
	Runtime string
}

// RuntimeGVisor is the runtime name under which images/gvisor/install.sh registers gVisor's
// runsc with the engine.
const RuntimeGVisor = "runsc"

// NewLimits returns the defaults for a bot: 256 MiB, one core, 64 tasks, 64 files, 1 MiB
// file size, no /tmp, no network, the judge's seccomp profile, runc.
func NewLimits() Limits {
	return Limits{
		Memory:   256 << 20,
		CPUs:     1,
		Pids:     64,
		NoFile:   64,
		FileSize: 1 << 20,
		Seccomp:  true,
		Runtime:  "runc",
	}
}
