package sandbox

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// RunSpec describes a bot to run.
type RunSpec struct {
	Image string
	Cmd   []string
	Env   []string
	// Artifact is a host directory mounted read-only at /bot.
	Artifact string
	// Files are host files placed read-only in the working directory /work, by name.
	Files  map[string]string
	Limits Limits
	// StdoutLimit bounds everything the bot may write to stdout; past it, reads fail with
	// ErrOutputLimit. StderrLimit bounds what is kept of stderr (the rest is discarded).
	StdoutLimit int64
	StderrLimit int64
	// LineLimit bounds one line of stdout.
	LineLimit int
}

// Errors of a Process's line I/O.
var (
	ErrCPULimit    = errors.New("CPU time limit exceeded")
	ErrWallLimit   = errors.New("wall time limit exceeded")
	ErrLineTooLong = errors.New("line too long")
	ErrOutputLimit = errors.New("output limit exceeded")
	ErrClosed      = errors.New("stdout closed")
)

// Process is a running bot. Its methods are not safe for concurrent use, except Kill.
type Process struct {
	e      *Engine
	a      *attached
	cg     *cgroup
	spec   RunSpec
	out    stream
	errBuf capped
	frozen bool

	cpuSeen  time.Duration // last CPU reading, kept after the cgroup is gone
	peakSeen int64
	oomSeen  bool

	closeOnce sync.Once
	closeErr  error
}

// Start runs a bot. Its stdin and stdout are attached before it starts; it runs unfrozen.
func (e *Engine) Start(ctx context.Context, spec RunSpec) (*Process, error) {
	if spec.LineLimit <= 0 {
		spec.LineLimit = 1 << 20
	}
	if spec.StdoutLimit <= 0 {
		spec.StdoutLimit = 16 << 20
	}
	if spec.StderrLimit <= 0 {
		spec.StderrLimit = 64 << 10
	}
	binds := map[string]string{}
	if spec.Artifact != "" {
		binds["/bot"] = spec.Artifact
	}
	for name, src := range spec.Files {
		if name == "" || strings.ContainsAny(name, "/\x00") || name == "." || name == ".." {
			return nil, fmt.Errorf("sandbox: bad input file name %q", name)
		}
		abs, err := filepath.Abs(src)
		if err != nil {
			return nil, err
		}
		if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
			return nil, fmt.Errorf("sandbox: input file %s is not a regular file", src)
		}
		binds["/work/"+name] = abs
	}
	a, err := e.create(ctx, containerSpec{
		image: spec.Image, cmd: spec.Cmd, env: spec.Env, workDir: "/work",
		limits: spec.Limits, binds: binds,
	})
	if err != nil {
		return nil, err
	}
	p := &Process{e: e, a: a, spec: spec}
	p.out.init(spec.StdoutLimit)
	p.errBuf.limit = spec.StderrLimit
	go p.demux()
	if pid, err := e.pid(ctx, a.id); err == nil {
		if p.cg, err = openCgroup(pid); err != nil {
			p.Close()
			return nil, err
		}
	}
	// A pid error means the bot has already exited: its first read reports that.
	return p, nil
}

// ID is the container's ID.
func (p *Process) ID() string { return p.a.id }

// demux splits Docker's multiplexed attach stream into stdout and stderr.
func (p *Process) demux() {
	r := p.a.hj.Reader
	var hdr [8]byte
	var err error
	for {
		if _, err = io.ReadFull(r, hdr[:]); err != nil {
			break
		}
		n := int64(binary.BigEndian.Uint32(hdr[4:]))
		switch hdr[0] {
		case 1:
			err = p.out.fill(r, n)
		case 2:
			_, err = io.CopyN(&p.errBuf, r, n)
		default:
			_, err = io.CopyN(io.Discard, r, n)
		}
		if err != nil {
			break
		}
	}
	p.out.close()
}

// Send writes data to the bot's stdin. It fails when the bot does not read it in time.
func (p *Process) Send(data []byte, deadline time.Time) error {
	p.a.hj.Conn.SetWriteDeadline(deadline)
	_, err := p.a.hj.Conn.Write(data)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		return ErrWallLimit
	}
	return err
}

// CloseStdin closes the bot's stdin: it reads end of file.
func (p *Process) CloseStdin() error { return p.a.hj.CloseWrite() }

// ReadLine returns the next line of stdout without its "\n", waiting until deadline.
func (p *Process) ReadLine(deadline time.Time) ([]byte, error) {
	return p.out.readLine(deadline, p.spec.LineLimit)
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
	if p.cg == nil || p.frozen {
		return nil
	}
	p.sample()
	if err := p.cg.Freeze(true); err != nil {
		return fmt.Errorf("sandbox: freezing: %w", err)
	}
	p.frozen = true
	return nil
}

// Thaw resumes a frozen bot.
func (p *Process) Thaw() error {
	if p.cg == nil || !p.frozen {
		return nil
	}
	if err := p.cg.Freeze(false); err != nil {
		return fmt.Errorf("sandbox: thawing: %w", err)
	}
	p.frozen = false
	return nil
}

// sample records the memory figures while the cgroup still exists.
func (p *Process) sample() {
	if p.cg == nil {
		return
	}
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

// Stderr is what the bot wrote to stderr, up to StderrLimit bytes.
func (p *Process) Stderr() []byte { return p.errBuf.bytes() }

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
}

// Exchange is one turn of a line protocol: thaw the bot, send request (if any), read lines
// answer lines, freeze the bot again. CPU is the bot's CPU time over the exchange; the turn
// fails with ErrCPULimit or ErrWallLimit when it runs out. The answer read so far is
// returned with any error.
func (p *Process) Exchange(request []byte, lines int, lim TurnLimits) (Turn, error) {
	if err := p.Thaw(); err != nil {
		return Turn{}, err
	}
	defer p.Freeze()
	start := time.Now()
	cpu0 := p.CPU()
	wallEnd := start.Add(lim.Wall)
	t := Turn{}
	finish := func(err error) (Turn, error) {
		t.Wall = time.Since(start)
		t.CPU = p.CPU() - cpu0
		if err == nil && lim.CPU > 0 && t.CPU > lim.CPU {
			err = ErrCPULimit
		}
		return t, err
	}
	if len(request) > 0 {
		if err := p.Send(request, wallEnd); err != nil {
			return finish(err)
		}
	}
	// CPU time cannot grow faster than the quota allows, so there is no need to look at it
	// before the wall clock says the budget could have been spent.
	quota := p.spec.Limits.CPUs
	if quota <= 0 {
		quota = 1
	}
	for len(t.Lines) < lines {
		check := wallEnd
		if lim.CPU > 0 {
			left := lim.CPU - (p.CPU() - cpu0)
			if left <= 0 {
				return finish(ErrCPULimit)
			}
			if c := time.Now().Add(time.Duration(float64(left)/quota) + time.Millisecond); c.Before(check) {
				check = c
			}
		}
		line, err := p.ReadLine(check)
		if err == errTimeout {
			if time.Now().Before(wallEnd) {
				continue
			}
			return finish(ErrWallLimit)
		}
		if err != nil {
			return finish(err)
		}
		t.Lines = append(t.Lines, line)
	}
	return finish(nil)
}

// Wait blocks until the bot has exited and reports how.
func (p *Process) Wait(ctx context.Context) (Exit, error) {
	p.Thaw()
	x, err := p.e.wait(ctx, p.a.id)
	if p.oomSeen {
		x.OOM = true
	}
	if x.OOM && p.peakSeen < p.spec.Limits.Memory {
		// The cgroup is gone with its figures, but an OOM kill means usage reached the limit.
		p.peakSeen = p.spec.Limits.Memory
	}
	return x, err
}

// Kill stops the bot at once. Safe to call from any goroutine.
func (p *Process) Kill() error {
	if p.cg != nil {
		p.cg.Freeze(false)
	}
	p.frozen = false
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return p.e.cli.ContainerKill(ctx, p.a.id, "KILL")
}

// Close kills the bot if it still runs and removes its container. It is always safe to call,
// more than once.
func (p *Process) Close() error {
	p.closeOnce.Do(func() {
		p.sample()
		if p.cg != nil {
			p.cg.Freeze(false) // a frozen task would not even die
			p.cg.close()
		}
		p.a.hj.Close()
		p.closeErr = p.e.remove(p.a.id)
	})
	return p.closeErr
}

var errTimeout = errors.New("timeout")

// stream is a bot's stdout as lines, filled by the demultiplexer.
type stream struct {
	mu       sync.Mutex
	buf      []byte
	total    int64
	limit    int64
	overflow bool
	eof      bool
	notify   chan struct{}
	frame    []byte // the demultiplexer's read buffer
}

func (s *stream) init(limit int64) {
	s.limit = limit
	s.notify = make(chan struct{}, 1)
}

func (s *stream) fill(r io.Reader, n int64) error {
	if cap(s.frame) < int(n) {
		s.frame = make([]byte, n)
	}
	frame := s.frame[:n]
	if _, err := io.ReadFull(r, frame); err != nil {
		return err
	}
	s.mu.Lock()
	if s.overflow || s.total+n > s.limit {
		s.overflow = true
	} else {
		s.total += n
		s.buf = append(s.buf, frame...)
	}
	s.mu.Unlock()
	s.signal()
	return nil
}

func (s *stream) close() {
	s.mu.Lock()
	s.eof = true
	s.mu.Unlock()
	s.signal()
}

func (s *stream) signal() {
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

func (s *stream) readLine(deadline time.Time, max int) ([]byte, error) {
	var timer *time.Timer
	for {
		s.mu.Lock()
		if i := bytes.IndexByte(s.buf, '\n'); i >= 0 && i <= max {
			line := append([]byte(nil), s.buf[:i]...)
			s.buf = s.buf[i+1:]
			s.mu.Unlock()
			if timer != nil {
				timer.Stop()
			}
			return line, nil
		}
		var err error
		switch {
		case len(s.buf) > max:
			err = ErrLineTooLong
		case s.overflow:
			err = ErrOutputLimit
		case s.eof:
			err = ErrClosed
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		wait := time.Until(deadline)
		if wait <= 0 {
			return nil, errTimeout
		}
		if timer == nil {
			timer = time.NewTimer(wait)
			defer timer.Stop()
		} else {
			timer.Reset(wait)
		}
		select {
		case <-s.notify:
		case <-timer.C:
		}
	}
}

// capped keeps the first limit bytes written to it and counts the rest.
type capped struct {
	mu      sync.Mutex
	buf     []byte
	limit   int64
	dropped int64
}

func (c *capped) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.limit - int64(len(c.buf))
	if room < 0 {
		room = 0
	}
	if int64(len(b)) <= room {
		c.buf = append(c.buf, b...)
	} else {
		c.buf = append(c.buf, b[:room]...)
		c.dropped += int64(len(b)) - room
	}
	return len(b), nil
}

func (c *capped) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]byte(nil), c.buf...)
}
