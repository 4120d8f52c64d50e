package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/botjudge/judge/sandbox/internal/unix"
)

// connectTimeout bounds the launcher's start, up to its opening of the pipes.
const connectTimeout = 30 * time.Second

// makePipes creates the container's directory: the bot's three named pipes, mounted at
// /judge/io, and the empty bot and work directories mounted at /bot and /work; it
// opens the judge's end of "in". Opening it read-write never blocks and lets the launcher's
// open of its read end return at once.
func (e *Engine) makePipes() (string, *os.File, error) {
	dir, err := os.MkdirTemp(e.runDir, "io-")
	if err != nil {
		return "", nil, fmt.Errorf("sandbox: %w", err)
	}
	fail := func(err error) (string, *os.File, error) {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("sandbox: making the bot's pipes: %w", err)
	}
	if err := os.Chmod(dir, 0o711); err != nil {
		return fail(err)
	}
	for name, mode := range pipeModes {
		if err := unix.Mkfifo(filepath.Join(dir, name), mode); err != nil {
			return fail(err)
		}
	}
	if err := ownPipes(dir); err != nil {
		return fail(err)
	}
	// The bot's /bot and /work, empty until launch: readable by the bot through their mounts
	// (read-only), not through dir.
	for _, name := range []string{"bot", "work"} {
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			return fail(err)
		}
	}
	in, err := os.OpenFile(filepath.Join(dir, "in"), os.O_RDWR, 0)
	if err != nil {
		return fail(err)
	}
	return dir, in, nil
}

// pipeModes are the bot's pipes and the modes they give the bot's user.
var pipeModes = map[string]uint32{"in": 0o400, "out": 0o200, "err": 0o200}

// ownPipes gives the bot's pipes in dir to the bot's user with their modes: only that user
// may open its ends. A judge that may not chown (not root) falls back to a mode that lets
// it, in a directory nobody can list.
func ownPipes(dir string) error {
	for name, mode := range pipeModes {
		f := filepath.Join(dir, name)
		if err := os.Chown(f, 65534, 65534); err != nil {
			if err := os.Chmod(f, 0o666); err != nil {
				return err
			}
			continue
		}
		if err := os.Chmod(f, os.FileMode(mode)); err != nil {
			return err
		}
	}
	return nil
}

// connect waits for the launcher to open the bot's stdout, then finds its process.
func (p *Process) connect(ctx context.Context) error {
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	outPath := filepath.Join(p.ioDir, "out")
	go func() {
		f, err := os.OpenFile(outPath, os.O_RDONLY, 0) // blocks until the launcher opens it
		done <- opened{f, err}
	}()
	timer := time.NewTimer(connectTimeout)
	defer timer.Stop()
	select {
	case o := <-done:
		if o.err != nil {
			return fmt.Errorf("sandbox: opening the bot's stdout: %w", o.err)
		}
		p.out.f = o.f
	case <-p.box.done: // the container's first process ended: the engine ends the stream
	case <-ctx.Done():
	case <-timer.C:
	}
	if p.out.f == nil {
		// The launcher never connected: release the blocked open with a writer of our own;
		// the bot then reads as closed, and Wait tells why.
		if w, err := os.OpenFile(outPath, os.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		o := <-done
		if o.err != nil {
			return fmt.Errorf("sandbox: opening the bot's stdout: %w", o.err)
		}
		p.out.f = o.f
		return nil
	}
	return p.find(ctx)
}

// find finds the bot's process, once the launcher has connected: its pidfd, cgroup and
// threads.
func (p *Process) find(ctx context.Context) error {
	b := p.box
	if b.sup == 0 {
		pid, image, err := p.e.inspect(ctx, p.a.id)
		b.image = image
		if errors.Is(err, errNotRunning) {
			return nil // exited already: the first read reports it, Wait tells how
		}
		if err != nil {
			return err
		}
		b.sup = pid
	}
	pid := b.sup
	if serves(p.spec.Limits) {
		child, err := childOf(b.sup)
		if err != nil {
			if p.gone(ctx) {
				return nil
			}
			return err
		}
		pid = child
	}
	var err error
	// The pidfd holds the bot's PID against reuse and tells, from here on, whether it still
	// runs; with FreezeSignal it also carries the signals. A bot may end at any instant,
	// and its end is never the judge's error: the first read reports it.
	if p.pidfd, err = pidfdOpen(pid); err != nil {
		p.pidfd = -1
		if errors.Is(err, unix.ESRCH) {
			return nil
		}
		return fmt.Errorf("sandbox: pidfd_open: %w", err)
	}
	// Reading the cgroup after pidfd_open also proves the pidfd is the container's process
	// and not a reused PID: the cgroup path names the container.
	if p.cg, err = openCgroup(pid, p.a.id); err != nil {
		p.cg = nil
		if p.gone(ctx) {
			// Exited (or a reused PID): signals must not reach whatever holds the PID now.
			unix.Close(p.pidfd)
			p.pidfd = -1
			return nil
		}
		return err
	}
	if p.cg.memPeak != nil {
		p.memPeakPath = p.cg.memPeak.Name()
	}
	p.tasks = ThreadsOf(pid)
	p.sched.dir = string(p.tasks)
	if !serves(p.spec.Limits) {
		p.sched.procs = p.cg.procs
	}
	return nil
}

// gone reports whether the bot has exited, waiting up to a second for a bot on its way out:
// its cgroup may vanish a moment before the engine sees it stop.
func (p *Process) gone(ctx context.Context) bool {
	deadline := time.Now().Add(time.Second)
	for {
		if p.Exited() {
			return true
		}
		if _, err := p.e.pid(ctx, p.a.id); errors.Is(err, errNotRunning) {
			return true
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}
