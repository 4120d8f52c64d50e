package sandbox

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/botjudge/judge/judge/setting"
)

// Limits bounds one container. Each restriction is one field, and the zero value of every
// field is safe: it means the default of DefaultLimits (a bot's), never "no limit", except
// where a field says what its zero means. The tags are the keys of the configuration's
// sandbox section, which is this struct.
type Limits struct {
	// Runtime is the engine runtime: "runc" (""), or RuntimeGVisor.
	Runtime string `mapstructure:"runtime"`
	// Memory is the memory limit. Swap is never allowed.
	Memory setting.Bytes `mapstructure:"memory"`
	// CPUs is the CPU quota in cores (1.5 = one and a half cores).
	CPUs float64 `mapstructure:"cpus"`
	// CPUSet pins the container to these cores ("0", "1-2"); "" means any core. The judge
	// sets it (sandbox.pin), so it is not a key.
	CPUSet string `mapstructure:"-"`
	// Pids bounds processes and threads together; threads need room (a JVM starts dozens).
	Pids int64 `mapstructure:"pids"`
	// NoFile bounds open file descriptors (RLIMIT_NOFILE).
	NoFile int64 `mapstructure:"nofile"`
	// FileSize bounds the size of any file written (RLIMIT_FSIZE).
	FileSize setting.Bytes `mapstructure:"fsize"`
	// Tmpfs is the size of a writable, noexec /tmp; 0 means no writable /tmp at all.
	Tmpfs setting.Bytes `mapstructure:"tmpfs"`
	// Network, when false (the default), leaves the container with no network interface
	// but loopback.
	Network bool `mapstructure:"network"`
	// Seccomp is the system-call filter.
	Seccomp Seccomp `mapstructure:"seccomp"`
}

// Seccomp names a system-call filter. In configuration it is a boolean: true is the
// judge's profile, false Docker's.
type Seccomp string

const (
	// SeccompJudge is the judge's profile (the default): Docker's, with the creation of a
	// process killed (threads stay allowed) and ptrace refused.
	SeccompJudge Seccomp = ""
	// SeccompDocker is Docker's default profile, for compilers, which start processes.
	SeccompDocker Seccomp = "docker"
)

// MarshalText writes s as configuration does: true for the judge's profile.
func (s Seccomp) MarshalText() ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s == SeccompJudge {
		return []byte("true"), nil
	}
	return []byte("false"), nil
}

// UnmarshalText reads true or false (or the profile's name, judge or docker).
func (s *Seccomp) UnmarshalText(text []byte) error {
	switch string(text) {
	case "true", "judge":
		*s = SeccompJudge
	case "false", "docker":
		*s = SeccompDocker
	default:
		return fmt.Errorf("must be true (the judge's profile) or false (Docker's) (got %q)", text)
	}
	return nil
}

// Validate says whether s is a profile.
func (s Seccomp) Validate() error {
	if s != SeccompJudge && s != SeccompDocker {
		return fmt.Errorf("unknown seccomp profile %q", string(s))
	}
	return nil
}

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

// Validate checks l as configured, where every value is written out: a zero that would
// mean the default is refused, so that "0" never silently means 256 MiB. Errors name the
// field by its key (setting.KeyError).
func (l Limits) Validate() error {
	var errs []error
	if l.Runtime == "" {
		errs = append(errs, setting.Invalid("runtime", "must name an engine runtime such as runc or %s", RuntimeGVisor))
	}
	return errors.Join(append(errs,
		setting.Named("seccomp", l.Seccomp.Validate()),
		setting.Positive("memory", l.Memory),
		setting.Positive("cpus", l.CPUs),
		setting.Positive("pids", l.Pids),
		setting.Positive("nofile", l.NoFile),
		setting.NotNegative("fsize", l.FileSize),
		setting.NotNegative("tmpfs", l.Tmpfs),
	)...)
}

// Output bounds what a bot writes. A zero field is its DefaultOutput. The tags are keys of
// the configuration's sandbox section.
type Output struct {
	// Stdout bounds everything the bot may write to stdout; past it, reads fail with
	// ErrOutputLimit.
	Stdout setting.Bytes `mapstructure:"stdout_limit"`
	// Stderr bounds what is kept of stderr over the bot's life (the rest is discarded, and
	// TakeStderr marks where).
	Stderr setting.Bytes `mapstructure:"stderr_limit"`
	// Line bounds one line of stdout; a longer one is ErrLineTooLong.
	Line setting.Bytes `mapstructure:"line_limit"`
}

// DefaultOutput is 16 MiB of output, 64 KiB of stderr kept, lines of up to 1 MiB.
func DefaultOutput() Output { return Output{Stdout: 16 << 20, Stderr: 64 << 10, Line: 1 << 20} }

// OrDefaults is o with every zero field its default: the limits a bot started with o has.
func (o Output) OrDefaults() Output {
	d := DefaultOutput()
	return Output{Stdout: cmp.Or(o.Stdout, d.Stdout), Stderr: cmp.Or(o.Stderr, d.Stderr), Line: cmp.Or(o.Line, d.Line)}
}

// Validate checks o as configured: every limit written out and positive.
func (o Output) Validate() error {
	return errors.Join(
		setting.Positive("stdout_limit", o.Stdout),
		setting.Positive("stderr_limit", o.Stderr),
		setting.Positive("line_limit", o.Line),
	)
}

// Freeze is how a bot is stopped while it is not on move.
type Freeze string

const (
	// FreezeSignal stops the bot with SIGSTOP and resumes it with SIGCONT, through a pidfd.
	// That holds all of it because a bot is one process (the seccomp profile kills a second).
	// Under gVisor FreezeCgroup is used instead (see RunSpec.withDefaults).
	FreezeSignal Freeze = "signal"
	// FreezeCgroup uses the cgroup freezer, which also holds processes the bot could not
	// have created; it costs more per move (BENCHMARKS.md).
	FreezeCgroup Freeze = "cgroup"
	// FreezeNone never stops the bot.
	FreezeNone Freeze = "none"
	// FreezeIdle is for an added game's referee, never a bot (configuration refuses it): the
	// program is not stopped, but its container's CPU weight is the least there is (cgroup
	// cpu.shares 2, or cpu.weight 1), which nothing inside it can change: between its answers
	// it takes a core only when nothing else wants it, and what it uses then is charged to its
	// next answer. It costs no signal per answer. Under gVisor, or where the judge may not set
	// the weight, FreezeCgroup and FreezeSignal are used instead.
	FreezeIdle Freeze = "idle"
)

// Validate says whether f is one of the ways ("" is FreezeSignal).
func (f Freeze) Validate() error {
	switch f {
	case "", FreezeSignal, FreezeCgroup, FreezeNone:
		return nil
	}
	return fmt.Errorf("must be %s, %s or %s (got %q)", FreezeSignal, FreezeCgroup, FreezeNone, string(f))
}

// UnmarshalText reads signal, cgroup or none.
func (f *Freeze) UnmarshalText(text []byte) error {
	if err := Freeze(text).Validate(); err != nil {
		return err
	}
	*f = Freeze(text)
	return nil
}
