// Package match plays one match: it builds the players, starts their sandboxes, drives the
// game's requests through them (the player driver), and turns what happened into a result.
// Whatever a bot does, the match finishes and every container is removed.
package match

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox"
)

// Entrant is a player as the job names it.
type Entrant struct {
	Name       string
	Submission build.Submission
}

// Runner plays matches.
type Runner struct {
	Sandbox *sandbox.Engine
	Builder *build.Builder
	// Limits are the bots' limits; the game sets the memory.
	Limits sandbox.Limits
	Freeze sandbox.Freeze
	// StdoutLimit, StderrLimit and LineLimit bound each bot's output.
	StdoutLimit, StderrLimit int64
	LineLimit                int
	// WorkDir holds each match's input files while it runs.
	WorkDir string
	Version string
	Log     *slog.Logger
}

// Job is one match to play.
type Job struct {
	ID      string
	Game    game.Game
	Seed    uint64
	Options map[string]string
	Players []Entrant
	// Replay, when not nil, receives the replay.
	Replay *replay.Writer
}

// Error is a match that could not be judged, with the result's error code.
type Error struct {
	Code string
	Err  error
}

func (e *Error) Error() string { return e.Code + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// startupIdle is how long a starting bot must use (almost) no CPU to count as ready; startupMax
// bounds the wait. Bots start unfrozen so that a runtime's start (a JVM's) is not charged
// to its first move.
const (
	startupIdle = 60 * time.Millisecond
	startupMax  = 10 * time.Second
)

// Play plays a match. An error is returned only when the match could not be judged
// (*Error says why); whatever the bots do, the result has status ok.
func (r *Runner) Play(ctx context.Context, j Job) (result.Result, error) {
	started := time.Now().UTC()
	host, _ := os.Hostname()
	res := result.Result{Version: result.Version, ID: j.ID, Game: j.Game.Name(), Seed: j.Seed, Status: result.StatusOK}
	res.Judge = result.JudgeInfo{Version: r.Version, Host: host, Started: started}
	min, max, _ := j.Game.Players()
	if len(j.Players) < min || len(j.Players) > max {
		return res, &Error{result.InvalidJob, fmt.Errorf("%s takes %d to %d players, the job has %d", j.Game.Name(), min, max, len(j.Players))}
	}
	m, err := j.Game.New(game.Config{Seed: j.Seed, Players: len(j.Players), Options: j.Options})
	if err != nil {
		var oe *game.OptionError
		if errors.As(err, &oe) {
			return res, &Error{result.BadOption, err}
		}
		return res, &Error{result.InvalidJob, err}
	}
	setup := m.Setup()

	// Build every player (cached). A failed build plays as a bot that crashed at once.
	bots := make([]*bot, len(j.Players))
	for i, e := range j.Players {
		sub := e.Submission
		sub.Files = game.WithLibrary(j.Game, sub.Lang, sub.Files)
		b, err := r.Builder.Build(ctx, sub)
		if errors.Is(err, build.ErrInvalid) {
			return res, &Error{result.InvalidJob, fmt.Errorf("player %d (%s): %w", i, e.Name, err)}
		}
		if err != nil {
			return res, &Error{result.Infrastructure, fmt.Errorf("building player %d (%s): %w", i, e.Name, err)}
		}
		bots[i] = &bot{build: b}
		if !b.OK {
			bots[i].dead = &game.Fault{Kind: game.CompileError, Detail: "the program did not compile"}
		}
	}
	defer func() {
		for _, b := range bots {
			b.close()
		}
	}()
	if err := r.start(ctx, setup, bots); err != nil {
		return res, &Error{result.Infrastructure, err}
	}

	hdr := replay.Header{Game: j.Game.Name(), Seed: j.Seed, Options: setup.Options, World: setup.World}
	for i, e := range j.Players {
		runID, _ := r.Sandbox.ImageID(ctx, bots[i].build.RunImage)
		hdr.Players = append(hdr.Players, replay.Player{Name: e.Name, Lang: e.Submission.Lang,
			CompileImage: bots[i].build.Image, RunImage: runID})
	}
	j.Replay.Header(hdr)

	for {
		if err := ctx.Err(); err != nil {
			return res, &Error{result.Infrastructure, fmt.Errorf("match stopped: %w", err)}
		}
		req, done := m.Next()
		if done {
			break
		}
		if req.Player < 0 || req.Player >= len(bots) {
			return res, &Error{result.Infrastructure, fmt.Errorf("%s asked player %d of %d", j.Game.Name(), req.Player, len(bots))}
		}
		b := bots[req.Player]
		x := replay.Exchange{Turn: req.Turn, Player: req.Player, Sent: req.Send, Expect: req.Expect,
			Ready: req.Ready, LimitUS: req.Limit.Microseconds()}
		if req.Expect == 0 && req.Ready == "" {
			b.notify(req.Send)
			j.Replay.Exchange(x)
			continue
		}
		reply := r.ask(ctx, b, req)
		// The game sees the CPU time exactly as the replay records it, so that re-judging the
		// replay computes the same time budgets.
		reply.CPU = reply.CPU.Truncate(time.Microsecond)
		verdict := m.Reply(reply)
		if verdict != nil && b.dead == nil {
			b.dead = verdict
			b.stop()
		}
		x.Received, x.Fault, x.Verdict = reply.Lines, reply.Fault, verdict
		x.CPUus, x.CPUms = reply.CPU.Microseconds(), reply.CPU.Milliseconds()
		j.Replay.Exchange(x)
	}

	r.finish(bots)
	out := m.Result()
	for i, e := range j.Players {
		b := bots[i]
		p := result.Player{Name: e.Name, Lang: e.Submission.Lang, Build: b.build, Moves: b.moves,
			CPUms: b.cpu.Milliseconds(), WallMs: b.wall.Milliseconds(), MaxRSSKiB: b.peak >> 10}
		if i < len(out.Scores) {
			p.Score, p.Rank = out.Scores[i], out.Ranks[i]
		}
		if i < len(out.Faults) {
			p.Fault = out.Faults[i]
		}
		res.Players = append(res.Players, p)
	}
	res.Winner = out.Winner
	res.Judge.Finished = time.Now().UTC()
	j.Replay.Result(res)
	return res, nil
}

// bot is one player's sandbox and figures.
type bot struct {
	build build.Result
	proc  *sandbox.Process
	// dead is the fault that ended the bot; requests to it get this fault at once.
	dead  *game.Fault
	moves int
	cpu   time.Duration
	wall  time.Duration
	peak  int64
}

// start runs every bot that built, waits until each has finished starting up (or
// startupMax), then freezes them all.
func (r *Runner) start(ctx context.Context, setup game.Setup, bots []*bot) error {
	dir, err := os.MkdirTemp(r.WorkDir, "match-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir) // the files are bind-mounted by path: the containers hold them
	var wg sync.WaitGroup
	errs := make([]error, len(bots))
	for i, b := range bots {
		if b.dead != nil {
			continue
		}
		files := map[string]string{}
		if i < len(setup.Files) {
			for name, data := range setup.Files[i] {
				p := filepath.Join(dir, fmt.Sprint(i), name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(p, data, 0o444); err != nil {
					return err
				}
				files[name] = p
			}
		}
		limits := r.Limits
		if setup.Memory > 0 {
			limits.Memory = setup.Memory
		}
		spec := sandbox.RunSpec{Image: b.build.RunImage, Cmd: b.build.Run, Artifact: b.build.Artifact,
			Files: files, Limits: limits, Freeze: r.Freeze, StdoutLimit: r.StdoutLimit,
			StderrLimit: r.StderrLimit, LineLimit: r.LineLimit}
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := r.Sandbox.Start(ctx, spec)
			if err != nil {
				errs[i] = err
				return
			}
			b.proc = p
			waitIdle(ctx, p)
			p.Freeze()
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// waitIdle returns once the bot has used no CPU for startupIdle: it is waiting for input.
func waitIdle(ctx context.Context, p *sandbox.Process) {
	deadline := time.Now().Add(startupMax)
	last := p.CPU()
	for time.Now().Before(deadline) && ctx.Err() == nil {
		time.Sleep(startupIdle)
		// Idle is under a tenth of a core: gVisor's kernel uses a few percent of one while
		// its bot waits for its first input.
		now := p.CPU()
		if now-last < startupIdle/10 {
			return
		}
		last = now
	}
}

// notify writes a notice (no answer expected). A bot that is gone or does not read is not
// a fault: nothing was asked of it.
func (b *bot) notify(text string) {
	if b.dead != nil || b.proc == nil || text == "" {
		return
	}
	b.proc.Send([]byte(text), time.Now().Add(2*time.Second))
}

// ask sends a request and reads the answer, turning whatever goes wrong into a fault.
func (r *Runner) ask(ctx context.Context, b *bot, req game.Request) game.Reply {
	if b.dead != nil || b.proc == nil {
		f := game.Fault{Kind: game.Crash, Detail: "the bot is not running"}
		if b.dead != nil {
			f = *b.dead
		}
		f.Turn = req.Turn
		return game.Reply{Fault: &f}
	}
	limit := req.Limit
	if limit <= 0 {
		limit = time.Hour // the game sets no limit: only the wall cap applies
	}
	wall := 3 * limit
	if wall < 2*time.Second {
		wall = 2 * time.Second
	}
	lim := sandbox.TurnLimits{CPU: limit, Wall: wall}
	expect := req.Expect
	if req.Ready != "" {
		expect = 1
	}
	var reply game.Reply
	send := []byte(req.Send)
	for {
		turn, err := b.proc.Exchange(send, expect-len(reply.Lines), lim)
		send = nil
		reply.CPU += turn.CPU
		b.cpu += turn.CPU
		b.wall += turn.Wall
		for _, l := range turn.Lines {
			reply.Lines = append(reply.Lines, strings.TrimSuffix(string(l), "\r"))
		}
		if err != nil {
			reply.Fault = r.fault(ctx, b, err, req, lim, reply.CPU)
			return reply
		}
		if req.Ready == "" {
			break
		}
		if strings.EqualFold(strings.TrimSpace(reply.Lines[len(reply.Lines)-1]), req.Ready) {
			reply.Lines = []string{req.Ready}
			break
		}
		// Lines before READY are ignored; the time spent on them still counts.
		reply.Lines = reply.Lines[:0]
		lim.CPU -= turn.CPU
		lim.Wall -= turn.Wall
		if lim.CPU <= 0 || lim.Wall <= 0 {
			reply.Fault = r.fault(ctx, b, sandbox.ErrCPULimit, req, sandbox.TurnLimits{CPU: limit, Wall: wall}, reply.CPU)
			return reply
		}
	}
	b.moves++
	return reply
}

// fault names what went wrong with a bot's answer. A bot whose output ended is waited for
// (briefly) to tell a crash from running out of memory or a forbidden action.
func (r *Runner) fault(ctx context.Context, b *bot, err error, req game.Request, lim sandbox.TurnLimits, cpu time.Duration) *game.Fault {
	f := &game.Fault{Turn: req.Turn}
	switch {
	case errors.Is(err, sandbox.ErrCPULimit):
		f.Kind, f.Detail = game.Timeout, fmt.Sprintf("no answer after %d ms CPU", lim.CPU.Milliseconds())
	case errors.Is(err, sandbox.ErrWallLimit):
		f.Kind, f.Detail = game.Timeout, fmt.Sprintf("no answer after %d ms (wall clock), %d ms CPU", lim.Wall.Milliseconds(), cpu.Milliseconds())
	case errors.Is(err, sandbox.ErrLineTooLong):
		f.Kind, f.Detail = game.Protocol, fmt.Sprintf("a line longer than %d bytes", r.LineLimit)
	case errors.Is(err, sandbox.ErrOutputLimit):
		f.Kind, f.Detail = game.OutputLimit, fmt.Sprintf("more than %d bytes of output", r.StdoutLimit)
	default:
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
	b.stop()
	return f
}

// exitOf waits a second for the bot to exit: one whose output ended may be on its way out.
func exitOf(ctx context.Context, p *sandbox.Process) (sandbox.Exit, bool) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	x, err := p.Wait(ctx)
	return x, err == nil
}

// crashDetail says how a bot whose output ended came to an end, quoting the first line of its
// stderr: Java, Go and Free Pascal name the error there and follow it with stack frames.
func crashDetail(x sandbox.Exit, exited bool, stderr []byte) string {
	detail := "closed its output and kept running"
	if exited {
		detail = "exited: " + x.String()
	}
	if line := firstLine(stderr); line != "" {
		detail += "; stderr: " + line
	}
	return detail
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

// stop kills a bot that is out of the game, keeping its figures.
func (b *bot) stop() {
	if b.proc != nil {
		b.peak = b.proc.PeakMemory()
		b.proc.Kill()
	}
}

// finish lets the bots that are still running see the end of their input and exit.
func (r *Runner) finish(bots []*bot) {
	var wg sync.WaitGroup
	for _, b := range bots {
		if b.proc == nil || b.dead != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.peak = b.proc.PeakMemory()
			b.proc.Thaw()
			b.proc.CloseStdin()
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			b.proc.Wait(ctx)
		}()
	}
	wg.Wait()
}

func (b *bot) close() {
	if b.proc != nil {
		if p := b.proc.PeakMemory(); p > b.peak {
			b.peak = p
		}
		b.proc.Close()
	}
}
