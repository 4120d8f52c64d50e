package sandbox

import (
	"errors"
	"fmt"
	"time"

	"github.com/botjudge/judge/sandbox/internal/unix"
)

// CPU is the CPU time the bot has used so far, all threads together.
func (p *Process) CPU() time.Duration {
	if p.cg != nil {
		if d, err := p.cg.CPU(); err == nil {
			p.cpuSeen = d
		}
	}
	return p.cpuSeen
}

// StartCPU is the CPU the container had used before the bot's program started: the container
// runtime's own start (runc's init, gVisor's kernel) and the launcher's, which are not the
// bot's. The launcher waits for the judge to read it before it becomes the bot.
func (p *Process) StartCPU() time.Duration { return p.startCPU }

// Freeze stops every thread of the bot until Thaw.
func (p *Process) Freeze() error {
	if p.frozen {
		return nil
	}
	if time.Since(p.sampled) >= sampleEvery {
		p.sample()
	}
	if err := p.hold(true); err != nil {
		return fmt.Errorf("sandbox: freezing: %w", err)
	}
	p.frozen = true
	return nil
}

// Thaw resumes a frozen bot.
func (p *Process) Thaw() error {
	if !p.frozen {
		return nil
	}
	if err := p.hold(false); err != nil {
		return fmt.Errorf("sandbox: thawing: %w", err)
	}
	p.frozen = false
	return nil
}

func (p *Process) hold(stop bool) error {
	switch {
	case p.spec.Freeze == FreezeSignal && p.pidfd >= 0:
		sig := unix.SIGCONT
		if stop {
			sig = unix.SIGSTOP
		}
		err := pidfdSignal(p.pidfd, sig)
		if errors.Is(err, unix.ESRCH) {
			return nil // exited: nothing left to hold
		}
		return err
	case p.spec.Freeze == FreezeCgroup && p.cg != nil:
		err := p.cg.Freeze(stop)
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENODEV) {
			return nil
		}
		return err
	}
	return nil
}

// sampleEvery is the least time between two readings of the memory figures when freezing: the
// peak is the kernel's high-water mark, which any later reading has, so only a peak reached
// just before the bot ended, its cgroup with it, can be missed (an OOM kill is known anyway:
// its peak is the limit).
const sampleEvery = 10 * time.Millisecond

// sample records the memory figures while the cgroup still exists.
func (p *Process) sample() {
	if p.cg == nil {
		return
	}
	p.sampled = time.Now()
	if m := p.cg.PeakMemory(); m > p.peakSeen {
		p.peakSeen = m
	}
	if p.cg.OOMKills() > p.oomBase {
		p.oomSeen = true
	}
}

// PeakMemory is the most memory the bot was seen to use, in bytes.
func (p *Process) PeakMemory() int64 {
	p.sample()
	return p.peakSeen
}
