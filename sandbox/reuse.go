package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/botjudge/judge/sandbox/internal/unix"
)

// A bot's container under runc serves it again in a later match: the launcher (see
// images/recipes/launcher/init.c, --serve) stays the container's first process, runs the bot
// in a child, reports how each child ended and, told to, resets the container and starts the
// next child. The judge then pays the engine nothing per match. A container serves only the
// bot it was made for (RunSpec.Reuse, with its image, command, limits and artifact); gVisor's
// containers are used once (the judge cannot tell its processes apart from the host).

// serves reports whether a bot's container runs the serving launcher.
func serves(l Limits) bool { return l.Runtime != RuntimeGVisor }

// box is what the matches a container serves share: its attach stream, over which the
// launcher reports each child's end and takes the word to reset, and its first process.
type box struct {
	a       *attached
	sup     int    // the launcher's host PID; 0 until found
	image   string // the ID of the container's image
	status  chan unix.WaitStatus
	partial []byte // the start of a report line the stream cut (Write's alone)
	// dirty is what the launcher could not reset; set before done closes.
	dirty atomic.Pointer[string]
	errTo atomic.Pointer[Capped] // where the launcher's own stderr goes: the current bot's
	done  chan struct{}          // closed when the attach stream ends: the container has
	// removed is done once, whichever of the container's Processes is the last.
	removed sync.Once
}

func newBox(a *attached, errTo *Capped) *box {
	b := &box{a: a, status: make(chan unix.WaitStatus, 4), done: make(chan struct{})}
	b.errTo.Store(errTo)
	return b
}

// Write takes the launcher's stdout: a line "exit STATUS" at each child's end, "dirty WHAT"
// when a reset failed. Only the judge's launcher writes there: the bot's stdout is its pipe.
func (b *box) Write(p []byte) (int, error) {
	b.partial = append(b.partial, p...)
	for {
		line, rest, ok := bytes.Cut(b.partial, []byte("\n"))
		if !ok {
			break
		}
		b.partial = rest
		word, arg, _ := bytes.Cut(bytes.TrimSpace(line), []byte(" "))
		switch string(word) {
		case "exit":
			if n, err := strconv.Atoi(string(arg)); err == nil {
				select {
				case b.status <- unix.WaitStatus(n):
				default:
				}
			}
		case "dirty":
			s := string(arg)
			b.dirty.Store(&s)
		}
	}
	if len(b.partial) > 64 { // no report is this long: not the launcher's
		b.partial = nil
	}
	return len(p), nil
}

type boxErr struct{ b *box }

func (w boxErr) Write(p []byte) (int, error) { return w.b.errTo.Load().Write(p) }

// exitOf is how a child the launcher reaped ended, as the engine reports a container's.
func exitOf(ws unix.WaitStatus) Exit {
	if ws.Signaled() {
		return exitCode(128 + int(ws.Signal()))
	}
	return exitCode(ws.ExitStatus())
}

// childOf is the one child of the launcher, pid: the bot's process.
func childOf(pid int) (int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		return 0, fmt.Errorf("sandbox: finding the bot's process: %w", err)
	}
	f := bytes.Fields(b)
	if len(f) != 1 {
		return 0, fmt.Errorf("sandbox: the launcher has %d children, not the bot's one", len(f))
	}
	return strconv.Atoi(string(f[0]))
}

// spares are the containers of bots that have played, reset and waiting to serve the same
// bot again, most recently used last.
type spares struct {
	mu   sync.Mutex
	size int
	list []spare
	// resetting counts, by key, the containers being reset now; changed is closed (and
	// replaced) whenever one is done.
	resetting map[string]int
	changed   chan struct{}
}

type spare struct {
	key string
	p   *Process
}

// DefaultReuse is how many used containers judge serve keeps per worker for their bots' next
// matches: a round robin's worker meets each entrant again within a few matches.
const DefaultReuse = 8

// Reuse keeps up to n containers of bots that have played for their next matches (the least
// recently used go first); 0 keeps none and removes those kept.
func (e *Engine) Reuse(n int) {
	s := &e.reuse
	s.mu.Lock()
	s.size = max(n, 0)
	drop := s.trim()
	s.mu.Unlock()
	for _, p := range drop {
		p.discard()
	}
}

// trim takes the oldest spares beyond size out of the list; mu is held.
func (s *spares) trim() []*Process {
	var drop []*Process
	for len(s.list) > s.size {
		drop = append(drop, s.list[0].p)
		s.list = s.list[1:]
	}
	return drop
}

// Spares lists the IDs of the used containers kept for their bots.
func (e *Engine) Spares() []string {
	e.reuse.mu.Lock()
	defer e.reuse.mu.Unlock()
	var ids []string
	for _, s := range e.reuse.list {
		ids = append(ids, s.p.ID())
	}
	return ids
}

// spareKey is what a container must have been made for to serve spec: the same bot
// (RunSpec.Reuse) in the same kind of container with the same artifact.
func spareKey(spec RunSpec) string {
	return spec.Reuse + "\x00" + spec.Artifact + "\x00" + kind(spec)
}

// spareWait bounds how long a bot's start waits for its container, still being reset after
// its last match, rather than take another: back-to-back matches of the same bots.
const spareWait = 100 * time.Millisecond

// takeSpare is a kept container made for spec's bot whose launcher waits for its go, or nil.
func (e *Engine) takeSpare(spec RunSpec) *Process {
	if spec.Reuse == "" || !serves(spec.Limits) {
		return nil
	}
	k := spareKey(spec)
	s := &e.reuse
	deadline := time.Now().Add(spareWait)
	for {
		s.mu.Lock()
		var got *Process
		var ended []*Process
		for i := len(s.list) - 1; i >= 0 && got == nil; i-- {
			if s.list[i].key != k {
				continue
			}
			if p := s.list[i].p; p.ready() {
				got = p
			} else {
				ended = append(ended, p)
			}
			s.list = append(s.list[:i], s.list[i+1:]...)
		}
		coming, changed := s.resetting[k] > 0, s.changed
		s.mu.Unlock()
		for _, p := range ended {
			p.discard()
		}
		wait := time.Until(deadline)
		if got != nil || !coming || wait <= 0 {
			return got
		}
		select {
		case <-changed:
		case <-time.After(wait):
		}
	}
}

// resetStarts records that a container of key is being reset; resetDone that it is no more.
func (s *spares) resetStarts(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.resetting == nil {
		s.resetting, s.changed = map[string]int{}, make(chan struct{})
	}
	s.resetting[key]++
}

func (s *spares) resetDone(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.resetting[key]--; s.resetting[key] <= 0 {
		delete(s.resetting, key)
	}
	close(s.changed)
	s.changed = make(chan struct{})
}

// recycleTimeout bounds the launcher's report of a bot's end and the reset after it.
const recycleTimeout = 5 * time.Second

// recycle makes p's container, its bot ended and p closed, serve the same bot again: kept
// among the spares, or removed when it cannot be.
func (e *Engine) recycle(p *Process) {
	k := spareKey(p.spec)
	defer e.reuse.resetDone(k)
	e.reuse.mu.Lock()
	keep := e.reuse.size > 0
	e.reuse.mu.Unlock()
	// A kept container holds the judge's files: not when a match would be left short of them.
	if !keep || !FilesLeft(filesPerContainer+FilesPerMatch) {
		p.removeContainer()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), recycleTimeout)
	defer cancel()
	q, err := p.rearm(ctx)
	if err != nil {
		e.log.Warn("a bot's container could not be reset for its next match: removed", "container", p.ID()[:12], "err", err)
		p.removeContainer()
		return
	}
	s := &e.reuse
	s.mu.Lock()
	s.list = append(s.list, spare{k, q})
	drop := s.trim()
	s.mu.Unlock()
	for _, p := range drop {
		p.discard()
	}
}

// rearm waits for the launcher to report the end of p's bot, then has it reset the container
// and start the next child, and returns that child's Process, waiting for its go.
func (p *Process) rearm(ctx context.Context) (*Process, error) {
	b := p.box
	if !p.reaped {
		select {
		case <-b.status:
		case <-b.done:
			return nil, fmt.Errorf("the container ended")
		case <-ctx.Done():
			return nil, fmt.Errorf("the launcher did not report the bot's end: %w", ctx.Err())
		}
	}
	q := &Process{e: p.e, a: p.a, box: b, spec: p.spec, ioDir: p.ioDir, pidfd: -1, artifact: p.artifact}
	q.errBuf.limit = int64(q.spec.Output.Stderr)
	q.out.limit, q.out.max = int64(q.spec.Output.Stdout), int(q.spec.Output.Line)
	// The bot may have changed its pipes' modes (it owns them); nothing of its /work stays.
	if err := ownPipes(p.ioDir); err != nil {
		return nil, err
	}
	// The directory itself stays: the container's /work is a mount of it.
	work := filepath.Join(p.ioDir, "work")
	entries, err := os.ReadDir(work)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(work, e.Name())); err != nil {
			return nil, err
		}
	}
	if err := resetPeak(p.memPeakPath); err != nil {
		return nil, err
	}
	if q.in, err = os.OpenFile(filepath.Join(p.ioDir, "in"), os.O_RDWR, 0); err != nil {
		return nil, err
	}
	if q.errPipe, err = openErrPipe(filepath.Join(p.ioDir, "err"), &q.errBuf); err != nil {
		q.in.Close()
		return nil, err
	}
	b.errTo.Store(&q.errBuf)
	fail := func(err error) (*Process, error) {
		q.closeEnds()
		return nil, err
	}
	if _, err := p.a.hj.Conn.Write([]byte("r")); err != nil {
		return fail(fmt.Errorf("telling the launcher to reset: %w", err))
	}
	if err := q.connect(ctx); err != nil {
		return fail(err)
	}
	q.errPipe.release() // the child opened its end of "err" before "out"
	if !q.ready() {
		if d := b.dirty.Load(); d != nil {
			return fail(fmt.Errorf("the launcher could not reset %s", *d))
		}
		return fail(fmt.Errorf("the launcher did not start the next child"))
	}
	return q, nil
}

// resetPeak starts the cgroup's memory high-water mark anew (cgroup v1; v2's is kept per
// reader and cannot be, so its containers are not used again).
func resetPeak(path string) error {
	if filepath.Base(path) != "memory.max_usage_in_bytes" {
		return fmt.Errorf("the cgroup's memory peak cannot be reset (%s)", path)
	}
	return os.WriteFile(path, []byte("0"), 0)
}

// discard removes p's container: p never played (a spare), or played its last match there.
func (p *Process) discard() {
	p.keep = false
	p.Close()
	p.removeContainer()
}

// removeContainer removes p's container and directory, in the background: off the match's
// path, Engine.Settle waits for it and Engine.Close does, and a judge that dies before it
// ends leaves the container to Sweep.
func (p *Process) removeContainer() {
	p.box.removed.Do(func() {
		p.e.background(func() {
			p.e.remove(p.a.id)
			p.a.hj.Close()
			os.RemoveAll(p.ioDir)
		})
	})
}

// Lost reports, of a bot that has ended, whether its container ended with it: the launcher,
// the container's first process, is gone too. A bot cannot end its launcher (it is its
// namespace's init, which ignores the bot's signals), so that is the engine's doing - a
// restart without live-restore, or the container killed from outside - and the bot's end
// is not its fault. Under gVisor, where the bot is the container's first process, it is
// never known (false).
func (p *Process) Lost() bool {
	b := p.box
	if !serves(p.spec.Limits) || b == nil || b.sup == 0 {
		return false
	}
	// The bot dies because its init did: the launcher is gone, a zombie, or on its way out.
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", b.sup))
	if err != nil || exiting(data) {
		return true
	}
	// A process of that PID that is not the container's: the launcher's PID, reused.
	cg, err := openCgroup(b.sup, p.a.id)
	if err != nil {
		return true
	}
	cg.close()
	return false
}

// pfExiting is the kernel's PF_EXITING, a task's flag from the start of its exit.
const pfExiting = 0x4

// exiting reports, of a process's /proc/PID/stat, that it has ended or is ending. An init
// killed with its container takes its namespace's processes with it before it is a zombie
// (the kernel reaps them in its exit): the bot is gone while its launcher still exits.
func exiting(stat []byte) bool {
	// The fields after the command's closing parenthesis: state, ppid, pgrp, session,
	// tty_nr, tpgid, flags.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return false
	}
	f := bytes.Fields(stat[i+1:])
	if len(f) < 7 {
		return false
	}
	if s := string(f[0]); s == "Z" || s == "X" {
		return true
	}
	flags, err := strconv.ParseUint(string(f[6]), 10, 64)
	return err == nil && flags&pfExiting != 0
}
