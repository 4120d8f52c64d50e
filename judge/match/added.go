package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/manifest"
	"github.com/botjudge/judge/judge/game/referee"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/setting"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox"
)

// An added game's rules are a referee program (docs/referee.md): the match starts it in a
// sandbox of its own when it is first played (refereeStarter), asks it each step with its own
// CPU limit, holds it while the bots think (sandbox.FreezeIdle), and ends it with the match. Its CPU is never a
// bot's. When it fails, the match is the judge's error (gameErr).

// gameErr is why the game ended the match before its end, as the result's error: an added
// game's text option its referee refused (bad_option), a referee that could not be started
// or was given no CPU (infrastructure: the machine's), or one that broke the protocol
// (referee); nil otherwise.
func gameErr(m game.Match) error {
	e, ok := m.(interface{ Err() error })
	if !ok || e.Err() == nil {
		return nil
	}
	err := e.Err()
	var oe *game.OptionError
	var re *referee.Error
	// A referee's failure comes first: one that refused options its manifest allows wraps its
	// refusal, and is the referee's error, not the job's.
	switch {
	case errors.As(err, &re) && (re.NotStarted || errors.Is(err, sandbox.ErrStarved)):
		return result.Errorf(result.Infrastructure, "%w", err)
	case errors.As(err, &re):
		return result.Errorf(result.Referee, "%w", err)
	case errors.As(err, &oe):
		return result.Errorf(result.BadOption, "%w", err)
	}
	return result.Errorf(result.Referee, "%w", err)
}

// gameVersion is an added game's version (its content hash); "" for a built-in game, whose
// version is the judge's.
func gameVersion(g game.Game) string {
	if rg, ok := g.(*referee.Game); ok {
		return rg.Version
	}
	return ""
}

// closeGame ends an added game's referee, if the match has one still running.
func closeGame(m game.Match) {
	if c, ok := m.(io.Closer); ok {
		c.Close()
	}
}

// Bind is g ready to be played in r's sandboxes: an added game as loaded (a *referee.Game
// with no Start) gets a referee program for each of its matches, built as a bot is (from the
// cache after the first time) and started in a sandbox of r's, bound to ctx. Any other game
// is g. Play binds its job's game; a caller that starts matches of its own (re-judging a
// replay) binds them first.
func (r *Referee[P]) Bind(ctx context.Context, g game.Game) game.Game {
	rg, ok := g.(*referee.Game)
	if !ok || rg.Start != nil {
		return g
	}
	bound := *rg
	ref := rg.Manifest.Referee
	bound.Start = func() (referee.Conn, io.Closer, error) {
		built, err := r.Builder.Build(ctx, submission.Submission{Lang: ref.Lang, Files: rg.Sources})
		if errors.Is(err, submission.ErrInvalid) {
			return nil, nil, &referee.Error{Msg: "its sources cannot be built", Err: err}
		}
		if err != nil {
			return nil, nil, err
		}
		if !built.OK {
			return nil, nil, &referee.Error{Msg: "its program does not compile (" + string(built.Failure) + ")", Err: errors.New(result.StderrTail(built.Log))}
		}
		return refereeStarter(ctx, r.Sandbox, built, ref.Lang, ref, r.Limits, r.Freeze)()
	}
	return &bound
}

// refereeStarter starts an added game's referee, built (built, in lang) as a bot is, for one
// match each time it is called: in a sandbox of sb's with limits, its memory and its CPU for
// each answer the manifest's (r), its first answer also given its language's start-up
// allowance.
func refereeStarter[P Bot](ctx context.Context, sb Sandbox[P], built build.Result, lang string, r manifest.Referee,
	limits sandbox.Limits, freeze sandbox.Freeze) func() (referee.Conn, io.Closer, error) {
	return func() (referee.Conn, io.Closer, error) {
		l := limits
		l.Memory = r.Memory
		// Held between its answers by the least CPU weight rather than stopped: a referee
		// thinks only when asked, so a signal each way per answer would buy nothing. Only
		// on the match's own cores: on cores shared with other matches' bots, a referee of
		// the least weight would wait for them to answer its own.
		if freeze != sandbox.FreezeNone && l.CPUSet != "" {
			freeze = sandbox.FreezeIdle
		}
		spec := sandbox.RunSpec{Image: built.RunImage, Cmd: built.Run, Artifact: built.Artifact, Limits: l, Freeze: freeze,
			Output: sandbox.Output{Stdout: 1 << 30, Stderr: 64 << 10, Line: referee.MaxLine}}
		p, err := sb.Start(ctx, spec)
		if err != nil {
			return nil, nil, err
		}
		var allowance time.Duration
		if lg, ok := images.LangByName(lang); ok {
			allowance = lg.Startup(l.Runtime)
		}
		return &refereeConn[P]{ctx: ctx, p: p, cpu: r.CPU, first: r.CPU + allowance, memory: r.Memory}, p, nil
	}
}

// refereeConn is the protocol's line exchange with a referee in a sandbox.
type refereeConn[P Bot] struct {
	ctx        context.Context
	p          P
	cpu, first time.Duration
	memory     setting.Bytes
	n          int
}

func (c *refereeConn[P]) Exchange(line []byte) ([]byte, error) {
	cpu := c.cpu
	if c.n == 0 {
		cpu = c.first
	}
	c.n++
	wall := max(3*cpu, 2*time.Second)
	t, err := c.p.Exchange(append(line, '\n'), 1, sandbox.TurnLimits{CPU: cpu, Wall: wall})
	if err != nil {
		err = c.why(err, cpu, wall)
		if stderr := c.p.Stderr(); len(stderr) > 0 {
			err = fmt.Errorf("%w; its stderr ends: %q", err, result.StderrTail(string(stderr)))
		}
		return nil, err
	}
	if len(t.Lines) != 1 {
		return nil, fmt.Errorf("%d lines for one", len(t.Lines))
	}
	return t.Lines[0], nil
}

// why is what ended the referee's answer, as a bot's fault would name it: a limit it met, the
// sandbox's filter, its memory, or its exit.
func (c *refereeConn[P]) why(err error, cpu, wall time.Duration) error {
	switch {
	case errors.Is(err, sandbox.ErrLineTooLong):
		return fmt.Errorf("%w: a line longer than %d bytes", err, referee.MaxLine)
	case errors.Is(err, sandbox.ErrOutputLimit):
		return fmt.Errorf("%w: more output than a referee may write", err)
	case errors.Is(err, sandbox.ErrCPULimit):
		return fmt.Errorf("%w: it used its %v of CPU for an answer (referee.cpu)", err, cpu)
	case errors.Is(err, sandbox.ErrWallLimit):
		return fmt.Errorf("%w: no answer within %v of wall clock", err, wall)
	case errors.Is(err, sandbox.ErrStarved):
		return fmt.Errorf("%w: the machine is overloaded (the referee waited for a CPU longer than its limit)", err)
	}
	lost(c.ctx, c.p, err) // a referee whose output ended is given its second to exit
	x, exited := exitOf(c.ctx, c.p)
	switch {
	case exited && x.OOM:
		return fmt.Errorf("%w: killed: out of memory (its %v, referee.memory)", err, c.memory)
	case exited && x.Signal == 31:
		return fmt.Errorf("%w: killed by SIGSYS: a banned system call (creating a process, running a program, a 32-bit or x32 call)", err)
	case exited:
		return fmt.Errorf("%w: it exited: %s", err, x)
	}
	return err
}
