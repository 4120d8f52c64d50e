package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"
	"golang.org/x/sys/unix"
)

// Freeze is how a bot is stopped while it is not on move.
type Freeze string

const (
	// FreezeSignal stops the bot with SIGSTOP and resumes it with SIGCONT, through a pidfd.
	// It stops everything because a bot is one process: the seccomp profile kills any
	// attempt at a second. A transition costs microseconds. Under gVisor FreezeCgroup is
	// used instead (see Engine.Start).
	FreezeSignal Freeze = "signal"
	// FreezeCgroup uses the cgroup freezer, which also holds processes the bot could not
	// have created; on cgroup v1 a transition costs ~130us.
	FreezeCgroup Freeze = "cgroup"
	// FreezeNone never stops the bot.
	FreezeNone Freeze = "none"
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
}

// Errors of a Process's line I/O.
var (
	ErrCPULimit    = errors.New("CPU time limit exceeded")
	ErrWallLimit   = errors.New("wall time limit exceeded")
	ErrLineTooLong = errors.New("line too long")
	ErrOutputLimit = errors.New("output limit exceeded")
	ErrClosed      = errors.New("stdout closed")
	// ErrStarved is a turn whose wall limit, extended by the time its bot waited for a CPU,
	// reached MaxStarve times the limit, the bot having waited longer than the limit itself:
	// the machine is overloaded, and the match must be judged again, not the bot.
	ErrStarved = errors.New("the bot was not given a CPU")
)

// MaxStarve bounds how far a turn's wall limit is extended for the time its bot waited for
// a CPU: past MaxStarve times the wall limit, Exchange gives up with ErrStarved.
const MaxStarve = 5

// Process is a running bot. The bot's stdin, stdout and stderr are named pipes between the
// judge and the launcher in the container, so a line costs what a pipe costs. Methods are not
// safe for concurrent use, except Kill, Stderr and TakeStderr.
type Process struct {
	e     *Engine
	a     *attached
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
	errBuf  capped
	errPipe *errPipe
	// errDone is closed when the attach stream has ended.
	errDone chan struct{}
	frozen  bool

	imageID string // the ID of the image the container runs
	// tasks is /proc/PID/task of the bot's process; "" when it was not found.
	tasks string
	sched schedStats

	startCPU time.Duration // see StartCPU
	cpuSeen  time.Duration // last CPU reading, kept after the cgroup is gone
	peakSeen int64
	oomSeen  bool
	sampled  time.Time // the memory figures' last reading

	closeOnce sync.Once
}

// connectTimeout bounds the launcher's start, up to its opening of the pipes.
const connectTimeout = 30 * time.Second

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
	p := e.takeWarm(spec)
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
	if spec.Limits.Runtime == RuntimeGVisor && spec.Freeze == FreezeSignal {
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
	p.errBuf.limit = spec.Output.Stderr
	p.out.limit, p.out.max = spec.Output.Stdout, int(spec.Output.Line)
	var err error
	if p.ioDir, p.in, err = e.makePipes(); err != nil {
		return nil, err
	}
	if p.errPipe, err = openErrPipe(filepath.Join(p.ioDir, "err"), &p.errBuf); err != nil {
		p.in.Close()
		os.RemoveAll(p.ioDir)
		return nil, fmt.Errorf("sandbox: opening the bot's stderr: %w", err)
	}
	p.a, err = e.create(ctx, containerSpec{
		image: spec.Image, cmd: append(launcher(spec.Limits.Runtime), spec.Cmd...), env: spec.Env,
		workDir: "/work", limits: spec.Limits, noStdin: true,
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
	p.errDone = make(chan struct{})
	go func() {
		defer close(p.errDone)
		stdcopy.StdCopy(io.Discard, &p.errBuf, p.a.hj.Reader)
	}()
	if err := p.connect(ctx); err != nil {
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
	if spec.Artifact != "" {
		if err := linkTree(filepath.Join(p.ioDir, "bot"), spec.Artifact); err != nil {
			return fmt.Errorf("sandbox: placing the bot's artifact: %w", err)
		}
	}
	for name, src := range spec.Files {
		if err := linkFile(filepath.Join(p.ioDir, "work", name), src, 0o444); err != nil {
			return fmt.Errorf("sandbox: placing input file %s: %w", name, err)
		}
	}
	if p.cg == nil {
		return nil // the launcher never got as far: the first read reports it
	}
	p.startCPU = p.CPU()
	// The launcher waits for this byte before it becomes the bot.
	if _, err := p.in.Write([]byte{0}); err != nil {
		return fmt.Errorf("sandbox: starting the bot: %w", err)
	}
	return nil
}

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
	for name, mode := range map[string]uint32{"in": 0o400, "out": 0o200, "err": 0o200} {
		f := filepath.Join(dir, name)
		if err := unix.Mkfifo(f, mode); err != nil {
			return fail(err)
		}
		// Only the bot's user may open its ends; a judge that may not chown (not root)
		// falls back to a mode that lets it, in a directory nobody can list.
		if err := os.Chown(f, 65534, 65534); err != nil {
			if err := os.Chmod(f, 0o666); err != nil {
				return fail(err)
			}
		}
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
	exited, errC := p.e.cli.ContainerWait(ctx, p.a.id, container.WaitConditionNotRunning)
	timer := time.NewTimer(connectTimeout)
	defer timer.Stop()
	select {
	case o := <-done:
		if o.err != nil {
			return fmt.Errorf("sandbox: opening the bot's stdout: %w", o.err)
		}
		p.out.f = o.f
	case <-exited:
	case <-errC:
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
	pid, image, err := p.e.inspect(ctx, p.a.id)
	p.imageID = image
	if errors.Is(err, errNotRunning) {
		return nil // exited already: the first read reports it, Wait tells how
	}
	if err != nil {
		return err
	}
	// The pidfd holds the bot's PID against reuse and tells, from here on, whether it still
	// runs; with FreezeSignal it also carries the signals. A bot may end at any instant,
	// and its end is never the judge's error: the first read reports it.
	if p.pidfd, err = unix.PidfdOpen(pid, 0); err != nil {
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
	p.tasks = fmt.Sprintf("/proc/%d/task", pid)
	p.sched.dir = p.tasks
	return nil
}

// StartCPU is the CPU the container had used before the bot's program started: the container
// runtime's own start (runc's init, gVisor's kernel) and the launcher's, which are not the
// bot's. The launcher waits for the judge to read it before it becomes the bot.
func (p *Process) StartCPU() time.Duration { return p.startCPU }

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

// Exited reports, without waiting, whether the bot's process has ended (or never ran).
func (p *Process) Exited() bool {
	if p.pidfd < 0 {
		return true
	}
	fds := []unix.PollFd{{Fd: int32(p.pidfd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n > 0
}

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
func (p *Process) Busy() bool { return p.inState("RD") }

// runnable reports whether a thread of the bot is ready to run or running (state R).
func (p *Process) runnable() bool { return p.inState("R") }

// inState reports whether a thread of the bot is in one of the states (/proc/PID/stat).
func (p *Process) inState(states string) bool {
	found := false
	p.eachThread(func(_ string, state byte) bool {
		found = strings.IndexByte(states, state) >= 0
		return !found
	})
	return found
}

// Waiting reports whether the bot is blocked reading its input: no thread of it is running,
// ready to run or waiting for the disk, and one sleeps in a pipe read (its wchan). Under gVisor
// the host sees the sandbox's kernel, not the bot's threads: never.
func (p *Process) Waiting() bool {
	if p.spec.Limits.Runtime == RuntimeGVisor {
		return false
	}
	reading := false
	idle := p.eachThread(func(tid string, state byte) bool {
		if state == 'R' || state == 'D' {
			return false
		}
		if !reading && state == 'S' {
			w, _ := os.ReadFile(p.tasks + "/" + tid + "/wchan")
			reading = bytes.HasSuffix(w, []byte("pipe_read")) // anon_pipe_read since Linux 6.12
		}
		return true
	})
	return idle && reading
}

// eachThread calls fn with each thread of the bot and its state (/proc/PID/task/TID/stat)
// until fn returns false; it reports whether fn never did. A bot not found has no threads.
func (p *Process) eachThread(fn func(tid string, state byte) bool) bool {
	if p.tasks == "" {
		return true
	}
	dir, err := os.Open(p.tasks)
	if err != nil {
		return true
	}
	names, _ := dir.Readdirnames(-1)
	dir.Close()
	buf := make([]byte, 512)
	for _, tid := range names {
		f, err := os.Open(p.tasks + "/" + tid + "/stat")
		if err != nil {
			continue
		}
		n, _ := f.Read(buf)
		f.Close()
		// "pid (comm) S ...": the state follows the last ")", comm may hold anything.
		if i := bytes.LastIndexByte(buf[:n], ')'); i >= 0 && i+2 < n && !fn(tid, buf[i+2]) {
			return false
		}
	}
	return true
}

// schedStats reads the scheduler's run_delay of the bot's threads: how long each has been
// ready to run but waiting for a CPU. A frozen bot does not wait: only a bot the machine did
// not give a CPU does. The files are held open, so the reading every turn takes (mark) costs a
// pread per thread; the threads are listed at the first reading (a runtime starts its threads
// while it starts up) and whenever a wall limit is reached (since). 0 when the kernel does not
// keep the figure.
type schedStats struct {
	dir   string              // /proc/PID/task; "" when the bot was not found
	files map[string]*os.File // thread ID -> its schedstat
	base  map[string]int64    // each thread's figure at the last mark
	buf   [128]byte
	// unmarked is the wall time of the turns since the last mark. A turn marks only once it
	// reaches markEvery: since then counts what the bot waited in those turns too, at most
	// markEvery, which is nothing beside a wall limit (seconds).
	unmarked time.Duration
}

// markEvery is how much turn time passes between the run-queue figures' marks (schedStats):
// a fast bot's turns take microseconds, and a mark costs a read per thread.
const markEvery = time.Millisecond

// each calls fn with each known thread's run_delay (ns), after looking for threads started
// since the last look when relist is set. A thread that has ended takes its figure with it.
func (s *schedStats) each(relist bool, fn func(tid string, delay int64)) {
	if s.dir == "" {
		return
	}
	if relist || s.files == nil {
		s.relist()
	}
	for tid, f := range s.files {
		n, _ := f.ReadAt(s.buf[:], 0)
		// "time on CPU (ns) run_delay (ns) timeslices"
		_, rest, _ := bytes.Cut(s.buf[:n], []byte(" "))
		delay, _, _ := bytes.Cut(rest, []byte(" "))
		if v, err := strconv.ParseInt(string(delay), 10, 64); err == nil {
			fn(tid, v)
		}
	}
}

// mark records every thread's figure as the base since measures from (a turn's start), and
// sets unmarked to 0.
func (s *schedStats) mark() {
	if s.base == nil {
		s.base = map[string]int64{}
	}
	clear(s.base)
	s.each(false, func(tid string, v int64) { s.base[tid] = v })
	s.unmarked = 0
}

// since is the longest any one thread has waited since the mark (a thread started since
// counts all of its figure): the longest, not the sum, so that a bot whose threads queue
// behind each other (using its CPU) cannot pass that off as waiting for the machine.
func (s *schedStats) since() time.Duration {
	var most int64
	s.each(true, func(tid string, v int64) { most = max(most, v-s.base[tid]) })
	return time.Duration(most)
}

func (s *schedStats) relist() {
	if s.files == nil {
		s.files = map[string]*os.File{}
	}
	dir, err := os.Open(s.dir)
	if err != nil {
		return // the bot is gone: what is held still reads its last figures, or nothing
	}
	names, _ := dir.Readdirnames(-1)
	dir.Close()
	live := make(map[string]bool, len(names))
	for _, tid := range names {
		live[tid] = true
		if s.files[tid] == nil {
			if f, err := os.Open(s.dir + "/" + tid + "/schedstat"); err == nil {
				s.files[tid] = f
			}
		}
	}
	for tid, f := range s.files {
		if !live[tid] {
			f.Close()
			delete(s.files, tid)
		}
	}
}

func (s *schedStats) close() {
	for _, f := range s.files {
		f.Close()
	}
	s.files = nil
}

// ID is the container's ID.
func (p *Process) ID() string { return p.a.id }

// ImageID is the ID of the image the bot runs in ("" when its container ended before the
// judge saw it run): the image itself, where a tag may since name another.
func (p *Process) ImageID() string { return p.imageID }

// Send writes data to the bot's stdin. It fails when the bot does not read it in time.
func (p *Process) Send(data []byte, deadline time.Time) error {
	p.in.SetWriteDeadline(deadline)
	_, err := p.in.Write(data)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return ErrWallLimit
	}
	return err
}

// trySend writes what of data the bot's stdin pipe takes at once (all of a request that fits in
// its buffer), never waiting, and returns how much.
func (p *Process) trySend(data []byte) int {
	if len(data) == 0 {
		return 0
	}
	if p.inRaw == nil {
		rc, err := p.in.SyscallConn()
		if err != nil {
			return 0
		}
		p.inRaw, p.sendFn = rc, p.sendFd // one method value, not a closure per send
	}
	p.sending, p.sent = data, 0
	p.inRaw.Write(p.sendFn)
	p.sending = nil
	return p.sent
}

// sendFd is trySend's one write: done, whatever it wrote (Send waits for the rest).
func (p *Process) sendFd(fd uintptr) bool {
	if n, err := unix.Write(int(fd), p.sending); err == nil {
		p.sent = n
	}
	return true
}

// CloseStdin closes the bot's stdin: it reads end of file.
func (p *Process) CloseStdin() error { return p.in.Close() }

// ReadLine returns the next line of stdout without its "\n", waiting until deadline.
func (p *Process) ReadLine(deadline time.Time) ([]byte, error) {
	line, err := p.out.readLine(deadline)
	if err == errTimeout {
		return nil, ErrWallLimit
	}
	return line, err
}

// CPU is the CPU time the bot has used so far, all threads together.
func (p *Process) CPU() time.Duration {
	if p.cg != nil {
		if d, err := p.cg.CPU(); err == nil {
			p.cpuSeen = d
		}
	}
	return p.cpuSeen
}

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
		err := unix.PidfdSendSignal(p.pidfd, sig, nil, 0)
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
	if p.cg.OOMKills() > 0 {
		p.oomSeen = true
	}
}

// PeakMemory is the most memory the bot was seen to use, in bytes.
func (p *Process) PeakMemory() int64 {
	p.sample()
	return p.peakSeen
}

// Stderr is what the bot wrote to stderr, up to its Output.Stderr bytes.
func (p *Process) Stderr() []byte { return p.errBuf.bytes() }

// TakeStderr is what the bot wrote to stderr since the previous TakeStderr, of what Stderr
// keeps, and, when its Output.Stderr limit dropped bytes since then, a line saying so: the
// first time "[judge: stderr cut here: ...]" where the text was cut, later how many more bytes
// were dropped. Stderr has a pipe of its own, drained before TakeStderr answers: of a frozen
// or exited bot it is exactly what the bot wrote. Safe to call from any goroutine.
func (p *Process) TakeStderr() []byte { return p.errPipe.take() }

// TurnLimits bound one turn. The wall limit keeps a sleeping bot from hanging the match.
type TurnLimits struct {
	CPU  time.Duration
	Wall time.Duration
}

// Turn is what one exchange cost and returned.
type Turn struct {
	Lines [][]byte
	CPU   time.Duration
	Wall  time.Duration
	// Waited is the time the bot was ready to run but waiting for a CPU, as the kernel counts
	// it, plus the looks that found it ready to run past the wall limit (see Exchange); it is
	// measured only when the wall limit was reached (and then added to it) or the turn failed.
	Waited time.Duration
}

// Exchange is one turn of a line protocol: thaw the bot, send request (if any), read lines
// answer lines, freeze the bot again. CPU is the bot's CPU time over the exchange (of a bot
// frozen before it, since the judge last read its CPU: what it used before the freeze held
// it is charged here); the turn fails with ErrCPULimit or ErrWallLimit when it runs out. The
// wall limit is there for a bot that sleeps: time the bot spent ready to run but waiting for
// a CPU (an overloaded machine) extends it, up to MaxStarve times, then the turn fails with
// ErrStarved. The answer read so far is returned with any error.
func (p *Process) Exchange(request []byte, lines int, lim TurnLimits) (Turn, error) {
	start := time.Now()
	wallEnd := start.Add(lim.Wall)
	// A held bot's CPU has not moved since the judge last read it (the previous turn's end, or
	// CPU) but for what it used before the hold took, which is its own too: the turn starts
	// from that reading. The request goes into the pipe before the bot is let go, so that it
	// wakes once and finds it, rather than waking to sleep in its read again.
	held := p.frozen && p.spec.Freeze != FreezeNone
	cpu0, sent := p.cpuSeen, 0
	if held {
		sent = p.trySend(request)
	} else {
		cpu0 = p.CPU()
	}
	if err := p.Thaw(); err != nil {
		return Turn{}, err
	}
	defer p.Freeze()
	if p.sched.unmarked >= markEvery || p.sched.base == nil {
		p.sched.mark()
	}
	var looked, computed time.Duration // see look
	t := Turn{}
	finish := func(err error) (Turn, error) {
		t.Wall = time.Since(start)
		t.CPU = p.CPU() - cpu0
		if err == nil && lim.CPU > 0 && t.CPU > lim.CPU {
			err = ErrCPULimit
		}
		p.sched.unmarked += t.Wall
		if err != nil {
			t.Waited = max(t.Waited, p.sched.since()+looked+computed)
			p.sched.unmarked = markEvery
		}
		return t, err
	}
	if len(request) > sent {
		if err := p.Send(request[sent:], wallEnd); err != nil {
			return finish(err)
		}
	}
	// CPU time cannot grow faster than the quota allows, so there is no need to look at it
	// before the wall clock says the budget could have been spent.
	quota := p.spec.Limits.CPUs
	if quota <= 0 {
		quota = 1
	}
	// used is the CPU time spent so far as last read. It is read again only when a check is
	// due (a wake-up at the CPU deadline, or more lines to wait for), not on every move.
	var used time.Duration
	for len(t.Lines) < lines {
		check := wallEnd
		if lim.CPU > 0 {
			left := lim.CPU - used
			if left <= 0 {
				return finish(ErrCPULimit)
			}
			if c := time.Now().Add(time.Duration(float64(left)/quota) + time.Millisecond); c.Before(check) {
				check = c
			}
		}
		line, err := p.out.readLine(check)
		if err == errTimeout {
			if time.Now().Before(wallEnd) {
				used = p.CPU() - cpu0
				continue
			}
			// The wall limit is for a bot that sleeps, not for one the machine starved: the
			// time it waited for a CPU moves the limit. Past MaxStarve times the limit, a bot
			// that waited longer than the limit itself for a CPU is the machine's problem
			// (ErrStarved); one that merely kept computing is the bot's.
			switch starved, computing := p.look(); {
			case starved:
				looked += waitLook
			case computing:
				computed += waitLook
			}
			waited := p.sched.since() + looked
			if ext := waited + computed; ext > t.Waited {
				switch {
				case ext <= MaxStarve*lim.Wall:
					wallEnd = wallEnd.Add(ext - t.Waited)
					t.Waited = ext
					used = p.CPU() - cpu0
					continue
				case waited > lim.Wall:
					t.Waited = ext
					return finish(ErrStarved)
				}
			}
			// The answer may have come while the judge looked: what is in the pipe counts.
			if line, err = p.out.readLine(time.Now().Add(time.Millisecond)); err == errTimeout {
				return finish(ErrWallLimit)
			}
		}
		if err != nil {
			return finish(err)
		}
		t.Lines = append(t.Lines, line)
		if len(t.Lines) < lines {
			used = p.CPU() - cpu0
		}
	}
	return finish(nil)
}

// Wait blocks until the bot has exited and reports how. Stderr then holds all the bot wrote
// (Wait gives its pipe and the engine up to stderrDrain to pass the last of it on).
func (p *Process) Wait(ctx context.Context) (Exit, error) {
	p.Thaw()
	x, err := p.e.wait(ctx, p.a.id)
	if err == nil {
		// The stderr pipe ends once every process holding it has exited, and the engine ends
		// the attach stream once it has copied the last of it: what the bot wrote before it
		// ended (a stack trace) is then all in Stderr.
		timer := time.NewTimer(stderrDrain)
		defer timer.Stop()
	drain:
		for _, done := range []chan struct{}{p.errPipe.done, p.errDone} {
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
	if x.OOM && p.peakSeen < p.spec.Limits.Memory {
		// The cgroup is gone with its figures, but an OOM kill means usage reached the limit.
		p.peakSeen = p.spec.Limits.Memory
	}
	return x, err
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

// Kill stops the bot at once. Safe to call from any goroutine.
func (p *Process) Kill() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p.hold(false) // see Close
	return p.e.cli.ContainerKill(ctx, p.a.id, "KILL")
}

// Close kills the bot if it still runs and removes its container and directory. The
// removal goes on in the background, off the match's path: Engine.Settle waits for it and
// Engine.Close does, and a judge that dies before it ends leaves the container to Sweep.
// It is always safe to call, more than once.
func (p *Process) Close() error {
	p.closeOnce.Do(func() {
		p.sample()
		// The bot dies now, not when the engine gets round to its container: nothing of it
		// may run into the next match. A frozen bot must run again to die (p.frozen is left
		// alone: Kill may run on any goroutine): a task frozen by the cgroup would not, and
		// under gVisor a stopped sandbox kernel leaves the runtime nothing to talk to, so
		// removal hangs.
		if p.pidfd >= 0 {
			unix.PidfdSendSignal(p.pidfd, unix.SIGKILL, nil, 0)
		}
		p.hold(false)
		if p.cg != nil {
			p.cg.close()
		}
		p.sched.close()
		if p.pidfd >= 0 {
			unix.Close(p.pidfd)
		}
		p.in.Close()
		if p.out.f != nil {
			p.out.f.Close()
		}
		p.errPipe.close()
		p.e.background(func() {
			p.e.remove(p.a.id)
			p.a.hj.Close()
			os.RemoveAll(p.ioDir)
		})
	})
	return nil
}

var errTimeout = errors.New("timeout")

// lineReader reads a bot's stdout line by line, straight from the pipe with a deadline.
type lineReader struct {
	f     *os.File
	buf   []byte // read but not yet returned
	total int64  // bytes read from the pipe
	limit int64  // at most this many bytes in all
	max   int    // at most this many bytes in a line
	err   error  // sticky: end of file or the output limit
	raw   syscall.RawConn
	poll  [1]unix.PollFd
	// read's arguments and results, kept here so that a read allocates nothing
	readFn    func(uintptr) bool
	rb        []byte
	rdeadline time.Time
	rn        int
	rerr      error
}

func (r *lineReader) readLine(deadline time.Time) ([]byte, error) {
	scanned := 0
	for {
		if i := bytes.IndexByte(r.buf[scanned:], '\n'); i >= 0 && scanned+i <= r.max {
			i += scanned
			line := append([]byte(nil), r.buf[:i]...)
			r.buf = r.buf[i+1:]
			return line, nil
		}
		scanned = len(r.buf)
		if len(r.buf) > r.max {
			return nil, ErrLineTooLong
		}
		if r.err != nil {
			return nil, r.err
		}
		if r.total > r.limit {
			r.err = ErrOutputLimit
			return nil, r.err
		}
		// Read no further than the line limit needs and one byte past the output limit.
		want := r.max + 1 - len(r.buf)
		if left := r.limit - r.total + 1; int64(want) > left {
			want = int(left)
		}
		if want > 64<<10 {
			want = 64 << 10
		}
		if cap(r.buf)-len(r.buf) < want {
			nb := make([]byte, len(r.buf), len(r.buf)+want+4096)
			copy(nb, r.buf)
			r.buf = nb
		}
		n, err := r.read(r.buf[len(r.buf):len(r.buf)+want], deadline)
		r.buf = r.buf[:len(r.buf)+n]
		r.total += int64(n)
		switch {
		case err == errTimeout:
			return nil, errTimeout
		case err == io.EOF:
			r.err = ErrClosed
		case err != nil:
			r.err = fmt.Errorf("%w: %w", ErrClosed, err)
		}
	}
}

// read reads what the pipe has, waiting for it until deadline. It waits in ppoll on its own
// thread rather than in Go's network poller: the bot's answer then wakes the judge's thread
// itself, not a poller that hands the goroutine on to another (a wake-up more per move).
func (r *lineReader) read(b []byte, deadline time.Time) (int, error) {
	if r.raw == nil {
		raw, err := r.f.SyscallConn()
		if err != nil {
			return 0, err
		}
		r.raw, r.readFn = raw, r.readFd // one method value, not a closure per read
	}
	r.rb, r.rdeadline = b, deadline
	if err := r.raw.Read(r.readFn); err != nil {
		return 0, err
	}
	r.rb = nil
	return r.rn, r.rerr
}

// readFd is read's work on the pipe's descriptor: rb in, rn and rerr out.
func (r *lineReader) readFd(fd uintptr) bool {
	for {
		n, err := unix.Read(int(fd), r.rb)
		switch {
		case err == nil && n == 0:
			r.rn, r.rerr = 0, io.EOF
			return true
		case err == nil:
			r.rn, r.rerr = n, nil
			return true
		case err != unix.EAGAIN && err != unix.EINTR:
			r.rn, r.rerr = 0, err
			return true
		}
		left := time.Until(r.rdeadline)
		if left <= 0 {
			r.rn, r.rerr = 0, errTimeout
			return true
		}
		ts := unix.NsecToTimespec(left.Nanoseconds())
		r.poll[0] = unix.PollFd{Fd: int32(fd), Events: unix.POLLIN}
		unix.Ppoll(r.poll[:], &ts, nil)
	}
}

// launcher is the command that starts every bot: images.Launcher, which connects the bot to
// its pipes and installs the exec-once filter. Under gVisor the filter traps instead of
// killing (see images/recipes/launcher/init.c).
func launcher(runtime string) []string {
	if runtime == RuntimeGVisor {
		return []string{"/judge/init", "--trap"}
	}
	return []string{"/judge/init"}
}
