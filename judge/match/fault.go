package match

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/sandbox"
)

// fault names what went wrong with a bot's answer. A bot that has ended, or whose output
// ended, is waited for (briefly) to tell a crash from running out of memory or a forbidden
// action: however a bot ends, at whatever instant, that is its crash.
func (r *Referee[P]) fault(ctx context.Context, b *bot, err error, req game.Request, c clock) *game.Fault {
	f := &game.Fault{Turn: req.Turn}
	switch {
	case errors.Is(err, sandbox.ErrLineTooLong):
		f.Kind, f.Detail = game.Protocol, fmt.Sprintf("a line longer than %d bytes", r.Output.OrDefaults().Line)
	case errors.Is(err, sandbox.ErrOutputLimit):
		f.Kind, f.Detail = game.OutputLimit, fmt.Sprintf("more than %d bytes of output", r.Output.OrDefaults().Stdout)
	case b.proc.Exited():
		// However the turn failed, a bot that has ended is told apart by its exit, below.
	case errors.Is(err, sandbox.ErrCPULimit):
		f.Kind, f.Detail = game.Timeout, c.cpuDetail()
	case errors.Is(err, sandbox.ErrWallLimit):
		f.Kind, f.Detail = game.Timeout, c.wallDetail()
	}
	// A bot at its memory limit that runs out of wall clock, not of CPU, was held there by the
	// kernel taking back its pages instead of killing it (seen under gVisor, whose kernel's
	// memory is the container's): the limit, not the clock, is what it met. One that used its
	// CPU limit was computing, whatever its memory (gVisor's JVM meets the limit as it starts).
	if errors.Is(err, sandbox.ErrWallLimit) && f.Kind == game.Timeout && b.proc.PeakMemory() >= b.memory {
		f.Kind, f.Detail = game.Memory, fmt.Sprintf("out of memory: at its %d MiB limit, %s", b.memory>>20, f.Detail)
	}
	if f.Kind == "" {
		x, exited := exitOf(ctx, b.proc)
		switch {
		case exited && x.OOM:
			f.Kind, f.Detail = game.Memory, "killed: out of memory"
		case exited && x.Signal == 31:
			// The sandbox's filters kill with SIGSYS; which call it was, the exit does not say.
			f.Kind, f.Detail = game.Forbidden, "killed by SIGSYS: a banned system call (creating a process, running a program, a 32-bit or x32 call)"
		default:
			f.Kind, f.Detail = game.Crash, crashDetail(x, exited, b.proc.Stderr())
		}
	}
	b.dead = f
	b.stop(ctx)
	return f
}

// exitGrace is how long a bot whose output ended is given to exit before it is said to have
// closed its output and kept running: its pipes close as it dies, a moment before it has
// exited, and under gVisor on a loaded machine a runtime's exit (Mono's) was seen to take more
// than a second.
const exitGrace = 3 * time.Second

// lost reports that a turn failed with err because the bot's container ended under it. A bot
// whose output ended (or whose input broke) is given exitGrace to exit first, watched without
// the engine.
func lost(ctx context.Context, p Lifecycle, err error) bool {
	timedOut := errors.Is(err, sandbox.ErrCPULimit) || errors.Is(err, sandbox.ErrWallLimit)
	if !timedOut && !errors.Is(err, sandbox.ErrLineTooLong) && !errors.Is(err, sandbox.ErrOutputLimit) && !p.Exited() {
		ctx, cancel := context.WithTimeout(ctx, exitGrace)
		defer cancel()
		p.Ended(ctx)
	}
	return p.Exited() && p.Lost()
}

// exitOf says how the bot exited, if it has. One whose output ended has had its exitGrace to
// exit (lost): one that has not keeps running, and is not waited for again.
func exitOf(ctx context.Context, p Lifecycle) (sandbox.Exit, bool) {
	if !p.Exited() {
		return sandbox.Exit{}, false
	}
	ctx, cancel := context.WithTimeout(ctx, exitGrace)
	defer cancel()
	x, err := p.Wait(ctx)
	return x, err == nil
}

// crashDetail says how a bot whose output ended came to an end, quoting the line of its
// stderr that names the error: the first for Java, Go and Free Pascal, which follow it with
// stack frames; after a Python traceback, its last; after Node's source line and caret, the
// first error line.
func crashDetail(x sandbox.Exit, exited bool, stderr []byte) string {
	detail := "closed its output and kept running"
	if exited {
		detail = "exited: " + x.String()
	}
	if line := errorLine(stderr); line != "" {
		detail += "; stderr: " + line
	}
	return detail
}

// nodeWhere is Node's first line of an uncaught error: the file and line it was thrown at.
var nodeWhere = regexp.MustCompile(`^\S+:\d+$`)

// errorLine is the line of stderr that names the error (crashDetail), as firstLine cuts it.
func errorLine(b []byte) string {
	first := firstLine(b)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	switch {
	case strings.HasPrefix(first, "Traceback (most recent call last)"):
		return first + " ... " + firstLine([]byte(lines[len(lines)-1]))
	case nodeWhere.MatchString(first):
		for _, l := range lines[1:] {
			if l != "" && l[0] != ' ' && l[0] != '\t' && strings.Contains(l, "Error") {
				return first + " ... " + firstLine([]byte(l))
			}
		}
	}
	return first
}

// firstLine is the first line of b that is not blank, cut to 200 bytes, as valid UTF-8 (a
// fault's detail is text, and the replay records it so).
func firstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	s = strings.ToValidUTF8(strings.TrimSpace(s), "\uFFFD")
	if len(s) > 200 {
		cut := 200
		for !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}
