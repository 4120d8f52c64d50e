package sandbox

import (
	"errors"
	"fmt"
	"sync"

	"github.com/botjudge/judge/sandbox/internal/unix"
)

// errPipe is the judge's end of the bot's stderr pipe (/judge/io/err), kept in a Capped
// buffer. Once the bot is frozen all it wrote is in the buffer or the pipe, so take, which
// drains the pipe first, gives exactly that (the engine's attach stream lags).
//
// A goroutine drains the pipe as the bot writes, so a bot never blocks on a full pipe (past
// the limit, bytes are counted and dropped). Every read is made under mu: take misses none.
type errPipe struct {
	mu   sync.Mutex
	fd   int // the pipe's read end, non-blocking
	wake int // an eventfd that stops the goroutine
	buf  *Capped
	eof  bool
	done chan struct{} // closed when the goroutine has stopped: the bot's end is closed, or close
	// held is a write end of the judge's own (see openErrPipe), -1 once released.
	held int
}

// openErrPipe opens the read end of the named pipe at path, which lets the launcher's open of
// its write end return at once, and starts draining it into buf. The judge holds a write end
// of its own until release, once the launcher has opened its end (it opens "err" before
// "out"): until then an end of stderr read would be taken for the bot's, and the drain would
// stop for good. A writer that comes and goes before the launcher's (a runtime that opens the
// pipe to look at it) would do that; and for a container used again, what the last bot left
// in the pipe woke the drain while no bot held it, its read found no writer and stopped, and
// the next bot blocked for good on a full pipe (a stderr flood timed out at the wall clock).
// What a container used again holds in the pipe is the last bot's: it is dropped.
func openErrPipe(path string, buf *Capped) (*errPipe, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	held, err := unix.Open(path, unix.O_WRONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	var b [32 << 10]byte
	for {
		if n, err := unix.Read(fd, b[:]); n <= 0 && !errors.Is(err, unix.EINTR) {
			break // EAGAIN: empty (a writer is held, so never the end)
		}
	}
	wake, err := eventfd()
	if err != nil {
		unix.Close(fd)
		unix.Close(held)
		return nil, err
	}
	e := &errPipe{fd: fd, wake: wake, buf: buf, done: make(chan struct{}), held: held}
	go e.run()
	return e, nil
}

// release closes the judge's own write end (see openErrPipe): the bot holds its own by now.
func (e *errPipe) release() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.held >= 0 {
		unix.Close(e.held)
		e.held = -1
	}
}

// run drains the pipe whenever it has something, until the bot's end is closed (every
// process holding it has exited) or close wakes it.
func (e *errPipe) run() {
	defer close(e.done)
	fds := []unix.PollFd{{Fd: int32(e.fd), Events: unix.POLLIN}, {Fd: int32(e.wake), Events: unix.POLLIN}}
	for {
		fds[0].Revents, fds[1].Revents = 0, 0
		if _, err := unix.Poll(fds, -1); err != nil && !errors.Is(err, unix.EINTR) {
			return
		}
		if fds[1].Revents != 0 {
			return
		}
		// A pipe with no writer yet is not readable: poll wakes for data, or for a hang-up
		// once the bot's end, having been open, is closed.
		e.mu.Lock()
		e.drain()
		eof := e.eof
		e.mu.Unlock()
		if eof {
			return
		}
	}
}

// drain reads what the pipe holds into the buffer; mu is held.
func (e *errPipe) drain() {
	var b [32 << 10]byte
	for !e.eof {
		n, err := unix.Read(e.fd, b[:])
		switch {
		case n > 0:
			e.buf.Write(b[:n])
		case errors.Is(err, unix.EINTR):
		case err == nil && n == 0:
			e.eof = true // every writer is gone
		default:
			return // EAGAIN: the pipe is empty
		}
	}
}

// take is what the bot wrote since the previous take (Capped.Take), the pipe drained first.
func (e *errPipe) take() []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.drain()
	return e.buf.Take()
}

// close stops the goroutine and closes the pipe. A take after it reads nothing more: the
// pipe's number may be another bot's by then.
func (e *errPipe) close() {
	unix.Write(e.wake, []byte{1, 0, 0, 0, 0, 0, 0, 0})
	<-e.done
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.fd < 0 {
		return // closed already: the numbers may be others' by now
	}
	unix.Close(e.fd)
	unix.Close(e.wake)
	if e.held >= 0 {
		unix.Close(e.held)
	}
	e.fd, e.wake, e.eof, e.held = -1, -1, true, -1
}

// Capped keeps the first limit bytes written to it and counts the rest: a bot's stderr, a
// compiler's log. It is written on the goroutine that reads the bot (or copies the attach
// stream) and read on the judge's, hence the mutex.
type Capped struct {
	mu      sync.Mutex
	buf     []byte
	limit   int64
	dropped int64
	// taken is how much of buf take has handed out; told how many of the dropped bytes
	// it has reported.
	taken int
	told  int64
}

// NewCapped keeps the first limit bytes written to it.
func NewCapped(limit int64) *Capped { return &Capped{limit: limit} }

// Write keeps what fits under the limit and counts the rest; it never fails.
func (c *Capped) Write(b []byte) (int, error) {
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

// Bytes is all that was kept.
func (c *Capped) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]byte(nil), c.buf...)
}

// Take is what was kept since the previous take, followed, when bytes were dropped since then,
// by a line saying so: the first time where the limit cut the text, later how much more was
// dropped (the bot went on writing).
func (c *Capped) Take() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]byte(nil), c.buf[c.taken:]...)
	c.taken = len(c.buf)
	if c.dropped == c.told {
		return out
	}
	if c.told == 0 {
		if len(c.buf) > 0 && c.buf[len(c.buf)-1] != '\n' {
			out = append(out, '\n') // the marker is a line of its own, where the text was cut
		}
		out = fmt.Appendf(out, "[judge: stderr cut here: the bot's %s limit; %d more bytes were not kept]\n", sizeText(c.limit), c.dropped)
	} else {
		out = fmt.Appendf(out, "[judge: %d more bytes of stderr were not kept]\n", c.dropped-c.told)
	}
	c.told = c.dropped
	return out
}

// sizeText writes a size as a person reads it: "64 KiB", "1 MiB", or bytes when it is neither.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Stderr is what the bot wrote to stderr, up to its Output.Stderr bytes.
func (p *Process) Stderr() []byte { return p.errBuf.Bytes() }

// TakeStderr is what the bot wrote to stderr since the previous TakeStderr, of what Stderr
// keeps, and, when its Output.Stderr limit dropped bytes since then, a line saying so: the
// first time "[judge: stderr cut here: ...]" where the text was cut, later how many more bytes
// were dropped. Stderr has a pipe of its own, drained before TakeStderr answers: of a frozen
// or exited bot it is exactly what the bot wrote. Safe to call from any goroutine.
func (p *Process) TakeStderr() []byte { return p.errPipe.take() }
