package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/botjudge/judge/sandbox/internal/unix"
)

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
		ppoll(r.poll[:], &ts)
	}
}
