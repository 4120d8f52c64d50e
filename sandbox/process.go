package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/botjudge/judge/sandbox/internal/unix"
	"github.com/docker/docker/pkg/stdcopy"
)

// RunSpec describes a bot to run.
type RunSpec struct {
	// Image must hold the launcher at /judge/init (every judge run image does).
	Image string
	Cmd   []string
	Env   []string
	// Artifact is a host directory mounted read-only at /bot.
	Artifact string
	// Files are host files placed read-only in the working directory /work, by name.
	Files  map[string]string
	Limits Limits
	// Freeze is how the bot is held between turns; "" means FreezeSignal.
	Freeze Freeze
	// Output bounds what the bot writes; a zero field is its default.
	Output Output
	// Reuse names the bot: the submission it runs. When set, the bot's container may serve
	// it, and only it, again in a later match (Engine.Reuse), reset in between. "" uses the
	// container once.
	Reuse string
}

// Process is a running bot. The bot's stdin, stdout and stderr are named pipes between the
// judge and the launcher in the container, so a line costs what a pipe costs. Methods are not
// safe for concurrent use, except Kill, Stderr and TakeStderr.
type Process struct {
	e     *Engine
	a     *attached
	box   *box
	cg    *cgroup
	pidfd int
	spec  RunSpec
	ioDir string
	in    *os.File // write end of the bot's stdin
	inRaw syscall.RawConn
	// trySend's argument and result, kept here so that a send allocates nothing
	sendFn  func(uintptr) bool
	sending []byte
	sent    int
	out     lineReader
	// errBuf keeps stderr: the bot's, from its own pipe (errPipe), and the launcher's
	// complaints before it connected that pipe, from the engine's attach stream.
	errBuf  Capped
	errPipe *errPipe
	frozen  bool

	// artifact is the artifact placed in /bot; keep whether Close may keep the container
	// for the bot's next match; reaped whether Wait had the launcher's report of its end.
	artifact string
	keep     bool
	reaped   bool
	exit     Exit
	// oomBase is the cgroup's count of OOM kills when the bot started (earlier matches');
	// memPeakPath the cgroup file of its memory high-water mark, which a reuse resets.
	oomBase     int64
	memPeakPath string

	// tasks are the bot's process's threads; "" when it was not found.
	tasks Threads
	sched schedStats

	startCPU time.Duration // see StartCPU
	cpuSeen  time.Duration // last CPU reading, kept after the cgroup is gone
	peakSeen int64
	oomSeen  bool
	sampled  time.Time // the memory figures' last reading

	closeOnce sync.Once
}

// Start runs a bot. It runs unfrozen until the first Freeze or Exchange.
//
// A bot's container is made in two steps. Prepared, it runs the launcher, connected to its
// pipes and waiting for the judge's go; /bot and /work are empty directories of its own.
// Launched, it has its artifact and input files in those directories, and the launcher,
// given the go, becomes the bot. With a warm pool (Warm) the first step was taken before the
// match asked: the bot's clock starts at the go, not at the engine's create.
func (e *Engine) Start(ctx context.Context, spec RunSpec) (*Process, error) {
	spec = spec.withDefaults()
	for name, src := range spec.Files {
		if name == "" || strings.ContainsAny(name, "/\x00") || name == "." || name == ".." {
			return nil, fmt.Errorf("sandbox: bad input file name %q", name)
		}
		if st, err := os.Stat(src); err != nil || !st.Mode().IsRegular() {
			return nil, fmt.Errorf("sandbox: input file %s is not a regular file", src)
		}
	}
	e.pokeLeftovers()
	p := e.takeSpare(spec)
	if p == nil {
		p = e.takeWarm(spec)
	}
	if p == nil {
		var err error
		if p, err = e.prepare(ctx, spec); err != nil {
			return nil, err
		}
	}
	if err := p.launch(spec); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// withDefaults fills in the zero fields.
func (spec RunSpec) withDefaults() RunSpec {
	spec.Limits, spec.Output = spec.Limits.orDefaults(), spec.Output.OrDefaults()
	if spec.Freeze == "" {
		spec.Freeze = FreezeSignal
	}
	if spec.Limits.Runtime == RuntimeGVisor && (spec.Freeze == FreezeSignal || spec.Freeze == FreezeIdle) {
		// Under gVisor the bot's code runs in stub processes beside the sandbox's kernel,
		// and a thread that makes no system call keeps running while that kernel is
		// stopped: only the cgroup freezer holds them all.
		spec.Freeze = FreezeCgroup
	}
	return spec
}

// prepare makes a container of spec's kind (everything but its artifact and files) up to the
// launcher waiting for its go. A container that did not get that far is returned all the
// same: the bot then reads as closed, and Wait tells why.
func (e *Engine) prepare(ctx context.Context, spec RunSpec) (*Process, error) {
	p := &Process{e: e, spec: spec, pidfd: -1}
	p.errBuf.limit = int64(spec.Output.Stderr)
	p.out.limit, p.out.max = int64(spec.Output.Stdout), int(spec.Output.Line)
	var err error
	if p.ioDir, p.in, err = e.makePipes(); err != nil {
		return nil, err
	}
	if p.errPipe, err = openErrPipe(filepath.Join(p.ioDir, "err"), &p.errBuf); err != nil {
		p.in.Close()
		os.RemoveAll(p.ioDir)
		return nil, fmt.Errorf("sandbox: opening the bot's stderr: %w", err)
	}
	limits := spec.Limits
	if serves(limits) {
		limits.Pids++ // the launcher's, beside the bot's own
	}
	p.a, err = e.create(ctx, containerSpec{
		image: spec.Image, cmd: append(launcher(spec.Limits.Runtime), spec.Cmd...), env: spec.Env,
		workDir: "/work", limits: limits, noStdin: !serves(limits),
		binds: map[string]string{"/bot": filepath.Join(p.ioDir, "bot"), "/work": filepath.Join(p.ioDir, "work")},
		pipes: map[string]string{"/judge/io/in": filepath.Join(p.ioDir, "in"), "/judge/io/out": filepath.Join(p.ioDir, "out"),
			"/judge/io/err": filepath.Join(p.ioDir, "err")},
	})
	if err != nil {
		p.errPipe.close()
		p.in.Close()
		os.RemoveAll(p.ioDir)
		return nil, err
	}
	p.box = newBox(p.a, &p.errBuf)
	go func() {
		defer close(p.box.done)
		var out io.Writer = io.Discard
		if serves(spec.Limits) {
			out = p.box
		}
		stdcopy.StdCopy(out, boxErr{p.box}, p.a.hj.Reader)
	}()
	err = p.connect(ctx)
	p.errPipe.release() // the launcher opened its end of "err" before "out", or never will
	if err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// ready reports whether a prepared container still waits for its go.
func (p *Process) ready() bool { return p.cg != nil && !p.Exited() }

// launch puts spec's artifact and files in the container's /bot and /work and gives the
// launcher its go.
func (p *Process) launch(spec RunSpec) error {
	p.spec = spec
	if spec.Artifact != "" && p.artifact != spec.Artifact {
		if err := linkTree(filepath.Join(p.ioDir, "bot"), spec.Artifact); err != nil {
			return fmt.Errorf("sandbox: placing the bot's artifact: %w", err)
		}
		p.artifact = spec.Artifact
	}
	for name, src := range spec.Files {
		if err := linkFile(filepath.Join(p.ioDir, "work", name), src, 0o444); err != nil {
			return fmt.Errorf("sandbox: placing input file %s: %w", name, err)
		}
	}
	if p.cg == nil {
		return nil // the launcher never got as far: the first read reports it
	}
	if spec.Freeze == FreezeIdle && p.cg.lowest() != nil {
		p.spec.Freeze = FreezeSignal // a judge that may not lower the weight holds it so
	}
	p.startCPU = p.CPU()
	p.oomBase = p.cg.OOMKills()
	// A container whose weight was lowered serves no other program after this one.
	p.keep = spec.Reuse != "" && serves(spec.Limits) && spec.Freeze != FreezeIdle
	// The launcher waits for this byte before it becomes the bot.
	if _, err := p.in.Write([]byte{0}); err != nil {
		return fmt.Errorf("sandbox: starting the bot: %w", err)
	}
	return nil
}

// ID is the container's ID.
func (p *Process) ID() string { return p.a.id }

// ImageID is the ID of the image the bot runs in ("" when its container ended before the
// judge saw it run): the image itself, where a tag may since name another.
func (p *Process) ImageID() string { return p.box.image }

// Exited reports, without waiting, whether the bot's process has ended (or never ran).
func (p *Process) Exited() bool {
	if p.pidfd < 0 {
		return true
	}
	fds := []unix.PollFd{{Fd: int32(p.pidfd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n > 0
}

// Wait blocks until the bot has exited and reports how. Stderr then holds all the bot wrote
// (Wait gives its pipe and the engine up to stderrDrain to pass the last of it on).
func (p *Process) Wait(ctx context.Context) (Exit, error) {
	p.Thaw()
	x, err := p.waitExit(ctx)
	if err == nil {
		// The stderr pipe ends once every process holding it has exited, and the engine ends
		// the attach stream once it has copied the last of it: what the bot wrote before it
		// ended (a stack trace) is then all in Stderr. A serving launcher outlives the bot,
		// and with it the stream: what it said of the bot came before its report.
		timer := time.NewTimer(stderrDrain)
		defer timer.Stop()
		waits := []chan struct{}{p.errPipe.done, p.box.done}
		if p.reaped {
			waits = waits[:1]
		}
	drain:
		for _, done := range waits {
			select {
			case <-done:
			case <-timer.C:
				break drain
			}
		}
	}
	if p.oomSeen {
		x.OOM = true
	}
	if x.OOM && p.peakSeen < int64(p.spec.Limits.Memory) {
		// The cgroup is gone with its figures, but an OOM kill means usage reached the limit.
		p.peakSeen = int64(p.spec.Limits.Memory)
	}
	return x, err
}

// waitExit waits for the bot's end: the serving launcher's report of it, or the container's.
func (p *Process) waitExit(ctx context.Context) (Exit, error) {
	if p.reaped {
		return p.exit, nil
	}
	if !serves(p.spec.Limits) {
		return p.e.wait(ctx, p.a.id)
	}
	select {
	case ws := <-p.box.status:
		p.reaped, p.exit = true, exitOf(ws)
		if p.cg != nil && p.cg.OOMKills() > p.oomBase {
			p.exit.OOM = true
		}
		return p.exit, nil
	case <-p.box.done: // the launcher itself ended: the container's end is the bot's
		// The container has ended when the engine is asked: its answer comes at once, or
		// the engine has stalled.
		ctx, cancel := context.WithTimeout(ctx, engineTimeout)
		defer cancel()
		return p.e.wait(ctx, p.a.id)
	case <-ctx.Done():
		return Exit{}, fmt.Errorf("sandbox: waiting for the bot: %w", ctx.Err())
	}
}

// stderrDrain bounds Wait's wait for the end of stderr after the bot has exited.
const stderrDrain = 200 * time.Millisecond

// Ended waits, until ctx ends, for the bot to exit and the last of its stderr to be in, and
// reports whether it has exited. Unlike Wait, it asks the engine nothing (not how the bot
// ended): it watches the bot's process.
func (p *Process) Ended(ctx context.Context) bool {
	if p.pidfd < 0 {
		_, err := p.Wait(ctx)
		return err == nil
	}
	p.Thaw()
	for !p.Exited() {
		wait := 100 * time.Millisecond
		if d, ok := ctx.Deadline(); ok {
			wait = min(wait, time.Until(d))
		}
		if ctx.Err() != nil || wait <= 0 {
			return false
		}
		fds := []unix.PollFd{{Fd: int32(p.pidfd), Events: unix.POLLIN}}
		unix.Poll(fds, int(wait.Milliseconds())+1)
	}
	select {
	case <-p.errPipe.done:
	case <-time.After(stderrDrain):
	}
	return true
}

// killTimeout bounds Kill's wait for a hung engine, whatever its context allows.
const killTimeout = 10 * time.Second

// Kill stops the bot at once. Safe to call from any goroutine.
func (p *Process) Kill(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, killTimeout)
	defer cancel()
	p.hold(false) // see Close
	if serves(p.spec.Limits) && p.pidfd >= 0 {
		// The bot, not its container: the launcher lives on to report its end.
		err := pidfdSignal(p.pidfd, unix.SIGKILL)
		if err == nil || errors.Is(err, unix.ESRCH) {
			return nil
		}
	}
	return p.e.api().ContainerKill(ctx, p.a.id, "KILL")
}

// Close kills the bot if it still runs and removes its container and directory, or, for a
// bot that may play again there (RunSpec.Reuse), has the container reset and kept for it
// (Engine.Reuse). Either goes on in the background, off the match's path: Engine.Settle
// waits for it and Engine.Close does, and a judge that dies before it ends leaves the
// container to Sweep. It is always safe to call, more than once.
func (p *Process) Close() error {
	p.closeOnce.Do(func() {
		p.sample()
		p.closeEnds()
		if p.keep {
			p.e.reuse.resetStarts(spareKey(p.spec))
			p.e.background(func() { p.e.recycle(p) })
			return
		}
		p.removeContainer()
	})
	return nil
}

// closeEnds kills the bot if it still runs and closes the judge's ends of it: its pipes, its
// pidfd and its cgroup's files.
func (p *Process) closeEnds() {
	// The bot dies now, not when the engine gets round to its container: nothing of it may
	// run into the next match. A frozen bot must run again to die (p.frozen is left alone:
	// Kill may run on any goroutine): a task frozen by the cgroup would not, and under gVisor
	// a stopped sandbox kernel leaves the runtime nothing to talk to, so removal hangs.
	if p.pidfd >= 0 {
		pidfdSignal(p.pidfd, unix.SIGKILL)
	}
	p.hold(false)
	if p.cg != nil {
		p.cg.close()
	}
	p.sched.close()
	if p.pidfd >= 0 {
		// Its number is another's once closed: a later signal through it (Kill, Thaw after
		// Close) could reach another bot.
		unix.Close(p.pidfd)
		p.pidfd = -1
	}
	if p.in != nil {
		p.in.Close()
	}
	if p.out.f != nil {
		p.out.f.Close()
	}
	if p.errPipe != nil {
		p.errPipe.close()
	}
}

// launcher is the command that starts every bot: images.Launcher, which connects the bot to
// its pipes and installs the exec-once filter; under runc it serves the bot match after match
// (see reuse.go). Under gVisor the filter traps instead of killing, and the bot's stdout
// reaches the judge through a relay, since gVisor's writes into a full host pipe are never
// woken (see images/recipes/launcher/init.c).
func launcher(runtime string) []string {
	if runtime == RuntimeGVisor {
		return []string{"/judge/init", "--trap", "--relay"}
	}
	return []string{"/judge/init", "--serve"}
}
