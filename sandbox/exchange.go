package sandbox

import (
	"errors"
	"os"
	"time"

	"github.com/botjudge/judge/sandbox/internal/unix"
)

// Errors of a Process's line I/O.
var (
	ErrCPULimit    = errors.New("CPU time limit exceeded")
	ErrWallLimit   = errors.New("wall time limit exceeded")
	ErrLineTooLong = errors.New("line too long")
	ErrOutputLimit = errors.New("output limit exceeded")
	ErrClosed      = errors.New("stdout closed")
	// ErrStarved is a turn whose wall limit, extended by the time its bot waited for a CPU,
	// reached maxStarve times the limit, the bot having waited longer than the limit itself:
	// the machine is overloaded, and the match must be judged again, not the bot.
	ErrStarved = errors.New("the bot was not given a CPU")
)

// maxStarve bounds how far a turn's wall limit is extended for the time its bot waited for
// a CPU: past maxStarve times the wall limit, Exchange gives up with ErrStarved.
const maxStarve = 5

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
// a CPU (an overloaded machine) extends it, up to maxStarve times, then the turn fails with
// ErrStarved. The answer read so far is returned with any error.
//
// It takes no context, by design: every exchange is bounded by lim already (its wall limit,
// stretched at most maxStarve times for a starved bot), and one cut off midway by a caller's
// cancellation would leave a half-read answer and a clock charged for a turn that did not
// end by the rules. A match that is asked to stop stops between exchanges (match.Referee
// looks at its context before each request); a bot killed under way (Kill, Close) ends the
// exchange at once, as its pipes close.
func (p *Process) Exchange(request []byte, lines int, lim TurnLimits) (Turn, error) {
	x := exchange{lim: lim, start: time.Now()}
	x.wallEnd = x.start.Add(lim.Wall)
	// A held bot's CPU has not moved since the judge last read it (the previous turn's end, or
	// CPU) but for what it used before the hold took, which is its own too: the turn starts
	// from that reading. The request goes into the pipe before the bot is let go, so that it
	// wakes once and finds it, rather than waking to sleep in its read again.
	held := p.frozen && p.spec.Freeze != FreezeNone
	sent := 0
	x.cpu0 = p.cpuSeen
	if held {
		sent = p.trySend(request)
	} else {
		x.cpu0 = p.CPU()
	}
	if err := p.Thaw(); err != nil {
		return Turn{}, err
	}
	defer p.Freeze()
	if p.sched.unmarked >= markEvery || p.sched.base == nil {
		p.sched.mark()
	}
	if len(request) > sent {
		if err := p.Send(request[sent:], x.wallEnd); err != nil {
			return p.finish(&x, err)
		}
	}
	return p.finish(&x, p.readAnswer(&x, lines))
}

// exchange is one Exchange's state.
type exchange struct {
	lim              TurnLimits
	start, wallEnd   time.Time
	cpu0             time.Duration // the bot's CPU at the start
	looked, computed time.Duration // see look
	t                Turn
}

// finish measures the turn that ended with err.
func (p *Process) finish(x *exchange, err error) (Turn, error) {
	x.t.Wall = time.Since(x.start)
	x.t.CPU = p.CPU() - x.cpu0
	if err == nil && x.lim.CPU > 0 && x.t.CPU > x.lim.CPU {
		err = ErrCPULimit
	}
	p.sched.unmarked += x.t.Wall
	if err != nil {
		x.t.Waited = max(x.t.Waited, p.waited(x)+x.looked+x.computed)
		p.sched.unmarked = markEvery
	}
	return x.t, err
}

// readAnswer reads lines lines into x.t.
func (p *Process) readAnswer(x *exchange, lines int) error {
	// CPU time cannot grow faster than the quota allows, so there is no need to look at it
	// before the wall clock says the budget could have been spent.
	quota := p.quota()
	// used is the CPU time spent so far as last read. It is read again only when a check is
	// due (a wake-up at the CPU deadline, or more lines to wait for), not on every move.
	var used time.Duration
	for len(x.t.Lines) < lines {
		check := x.wallEnd
		if x.lim.CPU > 0 {
			left := x.lim.CPU - used
			if left <= 0 {
				return ErrCPULimit
			}
			if c := time.Now().Add(time.Duration(float64(left)/quota) + time.Millisecond); c.Before(check) {
				check = c
			}
		}
		line, err := p.out.readLine(check)
		if err == errTimeout {
			if time.Now().Before(x.wallEnd) {
				used = p.CPU() - x.cpu0
				continue
			}
			if extended, starved := p.pastWall(x); starved != nil {
				return starved
			} else if extended {
				used = p.CPU() - x.cpu0
				continue
			}
			// The answer may have come while the judge looked: what is in the pipe counts.
			if line, err = p.out.readLine(time.Now().Add(time.Millisecond)); err == errTimeout {
				return ErrWallLimit
			}
		}
		if err != nil {
			return err
		}
		x.t.Lines = append(x.t.Lines, line)
		if len(x.t.Lines) < lines {
			used = p.CPU() - x.cpu0
		}
	}
	return nil
}

// waited is how long the bot has waited for a CPU in the turn x (schedStats.since).
func (p *Process) waited(x *exchange) time.Duration {
	return p.sched.since(func() time.Duration {
		return time.Duration(float64(time.Since(x.start))*p.quota()) - (p.CPU() - x.cpu0)
	})
}

// quota is the bot's CPU quota in cores.
func (p *Process) quota() float64 {
	if q := p.spec.Limits.CPUs; q > 0 {
		return q
	}
	return 1
}

// pastWall decides a turn that reached its wall limit. The limit is for a bot that sleeps,
// not for one the machine starved: the time it waited for a CPU moves the limit (extended).
// Past maxStarve times the limit, a bot that waited longer than the limit itself for a CPU
// is the machine's problem (ErrStarved); one that merely kept computing is the bot's.
func (p *Process) pastWall(x *exchange) (extended bool, err error) {
	switch starved, computing := p.look(); {
	case starved:
		x.looked += waitLook
	case computing:
		x.computed += waitLook
	}
	waited := p.waited(x) + x.looked
	if ext := waited + x.computed; ext > x.t.Waited {
		switch {
		case ext <= maxStarve*x.lim.Wall:
			x.wallEnd = x.wallEnd.Add(ext - x.t.Waited)
			x.t.Waited = ext
			return true, nil
		case waited > x.lim.Wall:
			x.t.Waited = ext
			return false, ErrStarved
		}
	}
	return false, nil
}
