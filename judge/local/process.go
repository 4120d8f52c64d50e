//go:build unix

// Package local runs bots as plain processes of this machine, built with its own compilers:
// judge play --local, a judge without Docker for a contestant's own machine. Nothing is
// sandboxed: no container, no memory limit, no seccomp; the referee, the replay and the result
// are the judge's own, each turn's CPU time is the operating system's count for the bot's
// process, and the bot is stopped (SIGSTOP) between its turns as in the sandbox.
package local

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/botjudge/judge/sandbox"
)

// ErrNoCPUClock is an operating system that does not give the judge a process's CPU time.
var ErrNoCPUClock = errors.New("this operating system does not give the judge a process's CPU time")

// Engine starts bots as plain processes. It is a match.Sandbox[*Process].
type Engine struct {
	// WorkDir holds each bot's working directory (its input files) while it runs.
	WorkDir string
	// Unmetered lets bots run where their CPU time cannot be read (ErrNoCPUClock): it reads
	// 0, so only for matches without time limits.
	Unmetered bool
}

// ImageID is "": a plain process has no image.
func (e *Engine) ImageID(context.Context, string) (string, error) { return "", nil }

// line is one line of a bot's stdout, or why there is none.
type line struct {
	b   []byte
	err error
}

// Process is a bot running as a plain process, in a process group of its own.
type Process struct {
	cmd    *exec.Cmd
	pid    int
	dir    string
	in     *os.File
	lines  chan line
	timer  *time.Timer
	metred bool
	frozen bool
	// outErr is why the bot's stdout ended (sandbox.ErrClosed, ErrLineTooLong, ...): every
	// later turn fails with it.
	outErr error
	// last is the CPU read at the end of the last turn: what the bot used after it is the
	// next turn's. sampled is when its peak memory was last read.
	last    time.Duration
	sampled time.Time

	done    chan struct{}   // closed once the process has exited and been reaped
	errDone chan struct{}   // closed once its stderr has ended
	errPipe syscall.RawConn // its stderr, read under mu (drainStderr)
	errBuf  []byte
	mu      sync.Mutex
	exit    sandbox.Exit
	usage   *syscall.Rusage
	stderr  *sandbox.Capped // as the sandbox keeps it, cut where the sandbox cuts it
	peak    int64
}

// Start runs spec.Cmd with the input files in a working directory of its own. The bot runs
// until its first Freeze or Exchange.
func (e *Engine) Start(ctx context.Context, spec sandbox.RunSpec) (*Process, error) {
	if len(spec.Cmd) == 0 {
		return nil, errors.New("local: no command to run")
	}
	if _, err := processCPU(os.Getpid()); err != nil && !e.Unmetered {
		return nil, fmt.Errorf("local: reading a process's CPU time: %w", err)
	}
	dir, err := os.MkdirTemp(e.WorkDir, "bot-")
	if err != nil {
		return nil, err
	}
	for name, src := range spec.Files {
		if err := copyFile(src, filepath.Join(dir, name)); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	out := spec.Output.OrDefaults()
	inR, inW, err := os.Pipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	cmd := exec.Command(spec.Cmd[0], spec.Cmd[1:]...)
	cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr = dir, inR, outW, errW
	cmd.Env = append(os.Environ(), spec.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("local: starting %s: %w", spec.Cmd[0], err)
	}
	p := &Process{cmd: cmd, pid: cmd.Process.Pid, dir: dir, in: inW, lines: make(chan line, 64),
		metred: !e.Unmetered, done: make(chan struct{}), errDone: make(chan struct{}), stderr: sandbox.NewCapped(int64(out.Stderr))}
	p.errPipe, _ = errR.SyscallConn() // an open file's: no error
	p.errBuf = make([]byte, 32<<10)
	p.timer = time.NewTimer(time.Hour)
	p.timer.Stop()
	go p.readLines(outR, int(out.Line), int64(out.Stdout))
	go p.readStderr(errR)
	go func() {
		err := cmd.Wait()
		p.mu.Lock()
		if st := cmd.ProcessState; st != nil {
			p.exit = exitOf(st)
			p.usage, _ = st.SysUsage().(*syscall.Rusage)
		} else if err != nil {
			p.exit = sandbox.Exit{Code: -1}
		}
		p.mu.Unlock()
		close(p.done)
	}()
	return p, nil
}

// exitOf is how a process ended, as the sandbox reports it.
func exitOf(st *os.ProcessState) sandbox.Exit {
	ws, ok := st.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		return sandbox.Exit{Code: 128 + int(ws.Signal()), Signal: int(ws.Signal())}
	}
	return sandbox.Exit{Code: st.ExitCode()}
}

// readLines reads the bot's stdout into p.lines, each line without its end, lines of at most
// max bytes and limit bytes in all; then the reason it stopped, and closes p.lines.
func (p *Process) readLines(r *os.File, max int, limit int64) {
	defer close(p.lines)
	defer r.Close()
	br := bufio.NewReaderSize(r, max+1)
	var total int64
	for {
		b, err := br.ReadSlice('\n')
		total += int64(len(b))
		switch {
		case total > limit:
			p.lines <- line{err: sandbox.ErrOutputLimit}
			return
		case errors.Is(err, bufio.ErrBufferFull):
			p.lines <- line{err: sandbox.ErrLineTooLong}
			return
		case err != nil: // the end of its output, maybe with a last line unfinished
			p.lines <- line{err: sandbox.ErrClosed}
			return
		}
		p.lines <- line{b: bytes.Clone(b[:len(b)-1])}
	}
}

// readStderr keeps the bot's stderr in p.stderr, up to its limit. It reads as TakeStderr
// does, under p.mu (drainStderr): what has left the pipe is in p.stderr, so that a take after the bot's answer misses nothing it wrote before it.
func (p *Process) readStderr(r *os.File) {
	defer close(p.errDone)
	defer r.Close()
	// The pipe is non-blocking: Read waits for it to be readable whenever the function
	// returns false, and returns once it returns true, at the pipe's end.
	p.errPipe.Read(func(fd uintptr) bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.drainStderr(int(fd))
	})
}

// drainStderr reads what the stderr pipe holds, with p.mu held, and reports whether the pipe
// has ended (the bot and every process it started closed it, or it failed).
func (p *Process) drainStderr(fd int) bool {
	for {
		n, err := unix.Read(fd, p.errBuf)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return false
		case err != nil || n <= 0:
			return true
		}
		p.stderr.Write(p.errBuf[:n])
	}
}

// Exchange is one turn, as sandbox.Process.Exchange: thaw the bot, send request, read lines
// answer lines, stop the bot again. The turn fails with sandbox.ErrCPULimit when the bot's CPU
// time since the last turn's end reaches lim.CPU, sandbox.ErrWallLimit at lim.Wall. The answer
// read so far comes with any error.
func (p *Process) Exchange(request []byte, lines int, lim sandbox.TurnLimits) (sandbox.Turn, error) {
	start := time.Now()
	p.Thaw()
	var t sandbox.Turn
	err := p.outErr
	if err == nil {
		err = p.Send(request, start.Add(lim.Wall))
	}
	if err == nil && lines > 0 {
		// The first look at the CPU is at lim.CPU: the bot cannot have used more before.
		p.timer.Reset(min(lim.CPU, lim.Wall))
	wait:
		for len(t.Lines) < lines {
			select {
			case l, ok := <-p.lines:
				if !ok {
					l.err = sandbox.ErrClosed
				}
				if l.err != nil {
					err, p.outErr = l.err, l.err
					break wait
				}
				t.Lines = append(t.Lines, l.b)
			case <-p.timer.C:
				used, gone := p.CPU()-p.last, time.Since(start)
				switch {
				case used >= lim.CPU:
					err = sandbox.ErrCPULimit
					break wait
				case gone >= lim.Wall:
					err = sandbox.ErrWallLimit
					break wait
				}
				p.timer.Reset(min(lim.CPU-used, lim.Wall-gone))
			}
		}
		p.timer.Stop()
	}
	base := p.last
	p.Freeze()
	t.CPU, t.Wall = p.last-base, time.Since(start)
	return t, err
}

// Send writes data to the bot's stdin; it fails with sandbox.ErrWallLimit when the bot does
// not read it by deadline, sandbox.ErrClosed when it has closed its stdin.
func (p *Process) Send(data []byte, deadline time.Time) error {
	if len(data) == 0 {
		return nil
	}
	p.in.SetWriteDeadline(deadline)
	_, err := p.in.Write(data)
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return sandbox.ErrWallLimit
	case err != nil:
		return fmt.Errorf("%w: %w", sandbox.ErrClosed, err)
	}
	return nil
}

// CloseStdin closes the bot's stdin: it reads end of file.
func (p *Process) CloseStdin() error { return p.in.Close() }

// Freeze stops the bot's process group, and reads its CPU time: what it uses after, before
// it has stopped, is its next turn's.
func (p *Process) Freeze() error {
	if p.frozen || p.Exited() {
		p.last = p.CPU()
		return nil
	}
	p.frozen = true
	err := syscall.Kill(-p.pid, syscall.SIGSTOP)
	p.last = p.CPU()
	if now := time.Now(); now.Sub(p.sampled) >= sampleEvery {
		// Its high-water mark, looked at now and then: a bot may exit at its last turn.
		p.sampled = now
		p.PeakMemory()
	}
	return err
}

// sampleEvery is how often a bot's peak memory is read between its turns.
const sampleEvery = 5 * time.Millisecond

// Thaw lets it run again.
func (p *Process) Thaw() error {
	if !p.frozen {
		return nil
	}
	p.frozen = false
	return syscall.Kill(-p.pid, syscall.SIGCONT)
}

// Exited reports whether the bot has exited.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Wait waits for the bot to exit and says how it did.
func (p *Process) Wait(ctx context.Context) (sandbox.Exit, error) {
	select {
	case <-p.done:
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.exit, nil
	case <-ctx.Done():
		return sandbox.Exit{}, ctx.Err()
	}
}

// Ended waits for the bot's exit and the end of its stderr.
func (p *Process) Ended(ctx context.Context) bool {
	if _, err := p.Wait(ctx); err != nil {
		return false
	}
	select {
	case <-p.errDone:
		return true
	case <-ctx.Done():
		return false
	}
}

// Kill kills the bot's process group.
func (p *Process) Kill(context.Context) error {
	if p.Exited() {
		return nil
	}
	err := syscall.Kill(-p.pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// Close kills the bot, waits for it and removes its working directory.
func (p *Process) Close() error {
	p.Kill(context.Background())
	p.in.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	p.Ended(ctx)
	return os.RemoveAll(p.dir)
}

// Lost is false: a plain process has no container to lose.
func (p *Process) Lost() bool { return false }

// CPU is the bot's process's CPU time so far (0 where it cannot be read: Engine.Unmetered).
func (p *Process) CPU() time.Duration {
	if !p.metred {
		return 0
	}
	if d, err := processCPU(p.pid); err == nil {
		return d
	}
	// Gone: the kernel's account of it, once reaped.
	if p.Exited() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if u := p.usage; u != nil {
			return time.Duration(u.Utime.Nano() + u.Stime.Nano())
		}
	}
	return p.last
}

// StartCPU is 0: a plain process has no container runtime starting before it.
func (p *Process) StartCPU() time.Duration { return 0 }

// PeakMemory is the most memory the bot has used (its peak resident set) as far as seen
// while it ran, 0 where it cannot be read (off Linux). A child's rusage is no measure: it
// counts the judge's own memory, whose fork the child was before it ran the bot.
func (p *Process) PeakMemory() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.usage == nil {
		p.peak = max(p.peak, peakRSS(p.pid))
	}
	return p.peak
}

// Busy reports whether a thread of the bot is running or waiting for the disk.
func (p *Process) Busy() bool { return sandbox.ThreadsOf(p.pid).Busy() }

// Waiting reports whether the bot is blocked reading its input.
func (p *Process) Waiting() bool { return sandbox.ThreadsOf(p.pid).Waiting() }

// Stderr is all of the bot's stderr kept.
func (p *Process) Stderr() []byte { return p.stderr.Bytes() }

// TakeStderr is what the bot wrote to stderr since the last take, with the sandbox's line
// where its limit cut it: the bot is stopped between its turns, and what its pipe holds is
// read here.
func (p *Process) TakeStderr() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errPipe.Control(func(fd uintptr) { p.drainStderr(int(fd)) })
	return p.stderr.Take()
}

// ImageID is "": a plain process has no image.
func (p *Process) ImageID() string { return "" }

// copyFile copies an input file into the bot's directory, read-only.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o444)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
