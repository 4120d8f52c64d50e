// Package match plays one match: it builds the players, starts their sandboxes, drives the
// game's requests through them (the player driver), and turns what happened into a result.
// Whatever a bot does, the match finishes and every container is removed.
package match

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/botjudge/judge/config/value"
	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox"
	"golang.org/x/sys/unix"
)

// Entrant is a player as the job names it.
type Entrant struct {
	Name       string
	Submission build.Submission
}

// Runner plays matches in the Docker engine's sandboxes.
type Runner = Referee[*sandbox.Process]

// Referee plays matches with bots of type P.
type Referee[P Bot] struct {
	// Sandbox runs the bots and Builder builds them.
	Sandbox Sandbox[P]
	Builder Builder
	// Limits are the bots' limits; the game sets the memory.
	Limits sandbox.Limits
	Freeze sandbox.Freeze
	// Output bounds each bot's output; a zero field is sandbox's default.
	Output sandbox.Output
	// StderrMatch bounds the bots' stderr a match's replay keeps, all bots together; 0 is
	// DefaultStderrMatch. Past it the text is cut with a line saying so.
	StderrMatch value.Bytes
	// WorkDir holds each match's input files while it runs.
	WorkDir string
	Version string
}

// DefaultStderrMatch is the default of Runner.StderrMatch: four bots' worth of
// sandbox.DefaultOutput's stderr, so that by default only each bot's own limit cuts.
const DefaultStderrMatch = 256 << 10

// Job is one match to play.
type Job struct {
	ID      string
	Game    game.Game
	Seed    uint64
	Options map[string]string
	Players []Entrant
	// Replay, when not nil, receives the replay (JSON lines, docs/contract.md); an error
	// writing it fails the match as infrastructure's.
	Replay io.Writer
}

// startupIdle is how long a starting bot must use (almost) no CPU to count as ready, where the
// judge cannot see it waiting for input; the first startupQuickLooks looks at it are
// startupFirstLook apart, the next ones twice as far each time, up to startupLook; startupMax
// bounds the wait. Bots start unfrozen, all at once, so that a match does not wait for each
// runtime's start (a JVM's) in turn; the CPU they use meanwhile is charged to their first
// request, less the language runtime's measured allowance (images.Lang.Startup).
const (
	startupIdle       = 60 * time.Millisecond
	startupFirstLook  = 100 * time.Microsecond
	startupQuickLooks = 20
	startupLook       = 10 * time.Millisecond
	startupMax        = 10 * time.Second
)

// Play plays a match. An error is returned only when the match could not be judged
// (a *result.Error says why); whatever the bots do, the result has status ok.
func (r *Referee[P]) Play(ctx context.Context, j Job) (result.Result, error) {
	started := time.Now().UTC()
	host, _ := os.Hostname()
	res := result.Result{Version: result.Version, ID: j.ID, Game: j.Game.Name(), Seed: j.Seed, Status: result.StatusOK}
	res.Judge = result.JudgeInfo{Version: r.Version, Host: host, Started: started}
	m, err := game.Start(j.Game, game.Config{Seed: j.Seed, Players: len(j.Players), Options: j.Options})
	if err != nil {
		var oe *game.OptionError
		if errors.As(err, &oe) {
			return res, result.Errorf(result.BadOption, "%w", err)
		}
		return res, result.Errorf(result.InvalidJob, "%w", err)
	}
	setup := m.Setup()

	bots, err := r.build(ctx, j)
	if err != nil {
		return res, err
	}
	defer func() {
		for _, b := range bots {
			b.close()
		}
	}()
	if err := r.start(ctx, setup, bots); err != nil {
		return res, result.Errorf(result.Infrastructure, "%w", err)
	}

	var rw *replay.Writer // nil writes nothing
	if j.Replay != nil {
		rw = replay.NewWriter(j.Replay)
	}
	rw.Header(r.header(ctx, j, setup, bots))

	// A bot's stderr is taken just before each request to it: it is frozen between its
	// requests, so what has come by then was written during its last exchange, and is that
	// exchange's (TakeStderr drains the bot's stderr pipe first).
	limit := int64(cmp.Or(r.StderrMatch, DefaultStderrMatch))
	errLog := stderrLog{w: rw, limit: limit, left: limit}
	if err := r.referee(ctx, m, j, bots, rw, &errLog); err != nil {
		return res, err
	}
	r.finish(ctx, bots)
	// What the bots wrote last (on their way out, once their input ended), before the
	// result: a replay's last line is its result.
	for i, b := range bots {
		errLog.take(i, b)
	}
	out := m.Result()
	res.Players = players(j, bots, out)
	res.Winner = out.Winner
	res.Judge.Finished = time.Now().UTC()
	rw.Result(res)
	if err := rw.Err(); err != nil {
		return res, result.Errorf(result.Infrastructure, "writing the replay: %w", err)
	}
	return res, nil
}

// referee plays the match m out: it sends each request to its bot, gives the game the
// reply and records the exchange, until the game is over. An error is the judge's.
func (r *Referee[P]) referee(ctx context.Context, m game.Match, j Job, bots []*bot, rw *replay.Writer, errLog *stderrLog) error {
	exchanges := 0
	// The judge's side of the exchanges runs on the bots' cores (when they have cores of their
	// own), so that an answer wakes it there: see sandbox.Beside.
	defer sandbox.Beside(r.Limits.CPUSet)()
	record := func(p int, x replay.Exchange) {
		rw.Exchange(x)
		errLog.moved(p, bots[p], exchanges)
		exchanges++
	}
	for {
		if err := ctx.Err(); err != nil {
			return result.Errorf(result.Infrastructure, "match stopped: %w", err)
		}
		req, done := m.Next()
		if done {
			stopQuitting(ctx, bots, -1)
			return nil
		}
		if req.Player < 0 || req.Player >= len(bots) {
			return result.Errorf(result.Infrastructure, "%s asked player %d of %d", j.Game.Name(), req.Player, len(bots))
		}
		if req.Expect == 0 && req.Ready == "" {
			stopQuitting(ctx, bots, req.Player)
		} else {
			stopQuitting(ctx, bots, -1)
		}
		b := bots[req.Player]
		errLog.take(req.Player, b)
		x := replay.Exchange{Turn: req.Turn, Player: req.Player, Sent: req.Send, Expect: req.Expect,
			Ready: req.Ready, LimitUS: req.Limit.Microseconds()}
		if req.Expect == 0 && req.Ready == "" {
			b.notify(req.Send)
			record(req.Player, x)
			continue
		}
		reply, err := r.ask(ctx, b, req)
		if err != nil {
			return result.Errorf(result.Infrastructure, "player %d (%s) at turn %d: %w", req.Player, j.Players[req.Player].Name, req.Turn, err)
		}
		// The game sees the CPU time exactly as the replay records it, so that re-judging the
		// replay computes the same time budgets.
		reply.CPU = reply.CPU.Truncate(time.Microsecond)
		verdict := m.Reply(reply)
		if verdict != nil && b.dead == nil {
			// The bot still runs: it gets the notices the game sends it next (On The Run's
			// Quit), then it is stopped.
			b.dead, b.quitting = verdict, true
		}
		x.Received, x.Fault, x.Verdict = reply.Lines, reply.Fault, verdict
		x.CPUus, x.CPUms = reply.CPU.Microseconds(), reply.CPU.Milliseconds()
		record(req.Player, x)
	}
}

// players are the result's players: each one's build, use, score, rank and fault.
func players(j Job, bots []*bot, out game.Result) []result.Player {
	var ps []result.Player
	for i, e := range j.Players {
		b := bots[i]
		p := result.Player{Name: e.Name, Lang: e.Submission.Lang, Build: b.build.Report(), Moves: b.moves,
			CPUms: b.cpu.Milliseconds(), StartupCPUms: b.startup.Milliseconds(), WallMs: b.wall.Milliseconds(), MaxRSSKiB: b.peak >> 10,
			Stderr: result.StderrTail(b.stderr.String())}
		if i < len(out.Scores) {
			p.Score, p.Rank = out.Scores[i], out.Ranks[i]
		}
		if i < len(out.Faults) {
			p.Fault = out.Faults[i]
		}
		ps = append(ps, p)
	}
	return ps
}

// Build compiles the job's players and plays nothing (a build job): the result has each
// player's build, a failed one with its compile_error fault, and no scores or winner. An
// error is returned only when the players could not be built (a *result.Error says why).
func (r *Referee[P]) Build(ctx context.Context, j Job) (result.Result, error) {
	host, _ := os.Hostname()
	res := result.Result{Version: result.Version, ID: j.ID, Game: j.Game.Name(), Seed: j.Seed, Status: result.StatusOK}
	res.Judge = result.JudgeInfo{Version: r.Version, Host: host, Started: time.Now().UTC()}
	bots, err := r.build(ctx, j)
	if err != nil {
		return res, err
	}
	for i, e := range j.Players {
		res.Players = append(res.Players, result.Player{Name: e.Name, Lang: e.Submission.Lang, Build: bots[i].build.Report(), Fault: bots[i].dead})
	}
	res.Judge.Finished = time.Now().UTC()
	return res, nil
}

// build builds every player (cached). A failed build plays as a bot that crashed at once.
func (r *Referee[P]) build(ctx context.Context, j Job) ([]*bot, error) {
	bots := make([]*bot, len(j.Players))
	for i, e := range j.Players {
		sub := e.Submission
		sub.Files = game.WithLibrary(j.Game, sub.Lang, sub.Files)
		b, err := r.Builder.Build(ctx, sub)
		if errors.Is(err, build.ErrInvalid) {
			return nil, result.Errorf(result.InvalidJob, "player %d (%s): %w", i, e.Name, err)
		}
		if err != nil {
			return nil, result.Errorf(result.Infrastructure, "building player %d (%s): %w", i, e.Name, err)
		}
		bots[i] = &bot{build: b, name: e.Name, lang: sub.Lang, last: -1}
		if !b.OK {
			bots[i].dead = &game.Fault{Kind: game.CompileError, Detail: "the program did not compile"}
		}
	}
	return bots, nil
}

// header is the replay's header. The image a bot ran in is its container's; a bot that did
// not run is asked of the engine.
func (r *Referee[P]) header(ctx context.Context, j Job, setup game.Setup, bots []*bot) replay.Header {
	hdr := replay.Header{Game: j.Game.Name(), Seed: j.Seed, Options: setup.Options, World: setup.World, Judge: r.Version}
	for i, e := range j.Players {
		var runID string
		if bots[i].proc != nil {
			runID = bots[i].proc.ImageID()
		}
		if runID == "" {
			runID, _ = r.Sandbox.ImageID(ctx, bots[i].build.RunImage)
		}
		hdr.Players = append(hdr.Players, replay.Player{Name: e.Name, Lang: e.Submission.Lang,
			CompileImage: bots[i].build.Image, RunImage: runID, Toolchain: bots[i].build.Toolchain})
	}
	return hdr
}

// bot is one player's sandbox and figures.
type bot struct {
	build build.Result
	name  string // the player's: the container that served it may serve it again
	lang  string
	proc  Bot
	// dead is the fault that ended the bot; requests to it get this fault at once.
	dead *game.Fault
	// quitting is a bot the game judged out that still runs: it is sent the game's notices
	// until the next request to anyone, then stopped.
	quitting bool
	moves    int
	// cpu is all the CPU charged to the bot: its turns, and its start-up beyond the allowance.
	cpu  time.Duration
	wall time.Duration
	peak int64
	// memory is its memory limit: a bot that times out there was held by it (see fault).
	memory int64
	// startup is the CPU the bot used before its first request; unpaid is what of it beyond
	// the runtime's allowance its first request has still to be charged.
	startup, unpaid time.Duration
	// last is the index of the bot's last exchange in the replay, -1 before its first; early
	// is the stderr taken before that (its start-up's), which goes to its first exchange.
	last  int
	early string
	// stderr is all of its stderr taken, for the result's tail.
	stderr strings.Builder
}

// stderrLog writes the bots' stderr to the replay, each text with the exchange it belongs
// to, within the match's limit.
type stderrLog struct {
	w     *replay.Writer
	limit int64
	left  int64 // bytes the limit still allows; -1 once it cut
}

// take takes what bot b, player p, wrote to stderr since the previous take: it belongs to the
// bot's last exchange, or, before its first, to its first.
func (l *stderrLog) take(p int, b *bot) {
	if b.proc == nil {
		return
	}
	text := string(b.proc.TakeStderr())
	b.stderr.WriteString(text)
	if b.last < 0 {
		b.early += text
		return
	}
	l.write(p, b.last, text)
}

// moved records that exchange is bot b's (player p's) latest: its start-up's stderr, the
// first time, goes to it.
func (l *stderrLog) moved(p int, b *bot, exchange int) {
	b.last = exchange
	l.write(p, exchange, b.early)
	b.early = ""
}

// write writes text as player p's stderr during exchange, cut with a line saying so where it
// passes the match's limit; past that it writes nothing.
func (l *stderrLog) write(p, exchange int, text string) {
	if text == "" || l.left < 0 {
		return
	}
	if int64(len(text)) > l.left {
		cut := int(l.left)
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		size := fmt.Sprintf("%d bytes", l.limit)
		if l.limit%1024 == 0 {
			size = fmt.Sprintf("%d KiB", l.limit>>10)
		}
		text += "[judge: stderr cut here: the match's " + size + " limit for all bots' stderr in its replay; no more is kept]\n"
		l.left = -1
	} else {
		l.left -= int64(len(text))
	}
	l.w.Stderr(p, exchange, text)
}

// stopQuitting stops every quitting bot but player except (-1: all).
func stopQuitting(ctx context.Context, bots []*bot, except int) {
	for i, b := range bots {
		if b.quitting && i != except {
			b.quitting = false
			b.stop(ctx)
		}
	}
}

// start runs every bot that built, waits until each has finished starting up (or
// startupMax), then freezes them all.
func (r *Referee[P]) start(ctx context.Context, setup game.Setup, bots []*bot) error {
	dir, err := os.MkdirTemp(r.WorkDir, "match-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir) // the files are bind-mounted by path: the containers hold them
	// Every input file is written before any bot starts: a failure here must not return while
	// a bot is starting, whose container nobody would then remove.
	specs := make([]*sandbox.RunSpec, len(bots))
	for i, b := range bots {
		if b.dead != nil {
			continue
		}
		var files map[string]string
		if i < len(setup.Files) {
			if files, err = writeFiles(filepath.Join(dir, fmt.Sprint(i)), setup.Files[i]); err != nil {
				return err
			}
		}
		limits := r.Limits
		if setup.Memory > 0 {
			limits.Memory = value.Bytes(setup.Memory)
		}
		b.memory = int64(cmp.Or(limits.Memory, sandbox.DefaultLimits().Memory))
		specs[i] = &sandbox.RunSpec{Image: b.build.RunImage, Cmd: b.build.Run, Artifact: b.build.Artifact,
			Files: files, Limits: limits, Freeze: r.Freeze, Output: r.Output, Reuse: b.name}
	}
	var wg sync.WaitGroup
	errs := make([]error, len(bots))
	for i, b := range bots {
		spec := specs[i]
		if spec == nil {
			continue
		}
		lang, _ := images.LangByName(b.lang)
		allowance := lang.Startup(spec.Limits.Runtime)
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := r.Sandbox.Start(ctx, *spec)
			if err != nil {
				errs[i] = err
				return
			}
			b.proc = p
			waitIdle(ctx, p)
			p.Freeze()
			// Start-up is the bot's time like any other: what it used beyond its runtime's
			// own start is charged to its first request.
			b.startup = p.CPU() - p.StartCPU()
			b.unpaid = max(0, b.startup-allowance)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// writeFiles writes a bot's input files under dir and maps their names to their paths.
func writeFiles(dir string, files map[string][]byte) (map[string]string, error) {
	paths := map[string]string{}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, data, 0o444); err != nil {
			return nil, err
		}
		paths[name] = p
	}
	return paths, nil
}

// waitIdle returns once the bot is waiting for input: blocked reading it at two looks in a row
// with no CPU used between, where that can be seen (Process.Waiting), else once it has used
// (almost) no CPU for startupIdle and is not ready to run. A bot that got little CPU while
// ready to run was starved by a loaded machine: it is still starting up, and its start-up is
// still its own. The looks come quickly at first: a compiled bot is ready at once.
func waitIdle(ctx context.Context, p Meter) {
	deadline := time.Now().Add(startupMax)
	last, lastAt := p.CPU(), time.Now()
	prev, waiting := last, false
	look := startupFirstLook
	for n := 1; time.Now().Before(deadline) && ctx.Err() == nil; n++ {
		if look < time.Millisecond {
			// Go's sleeps are rounded up to its poller's timeout, in whole milliseconds:
			// longer than a compiled bot takes to start (BENCHMARKS.md). A quick look waits
			// in the kernel, on its own thread.
			ts := unix.NsecToTimespec(look.Nanoseconds())
			unix.Nanosleep(&ts, nil)
		} else {
			time.Sleep(look)
		}
		if n >= startupQuickLooks {
			look = min(2*look, startupLook)
		}
		now := p.CPU()
		was := waiting
		if waiting = p.Waiting(); waiting && was && now == prev {
			return
		}
		prev = now
		if time.Since(lastAt) < startupIdle {
			continue
		}
		// Idle is under a tenth of a core: gVisor's kernel uses a few percent of one while
		// its bot waits for its first input.
		if now-last < startupIdle/10 && !p.Busy() {
			return
		}
		last, lastAt = now, time.Now()
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

// ask sends a request and reads the answer, turning whatever the bot does into a fault. An
// error is the judge's: the machine did not give the bot a CPU (sandbox.ErrStarved).
func (r *Referee[P]) ask(ctx context.Context, b *bot, req game.Request) (game.Reply, error) {
	if b.dead != nil || b.proc == nil {
		f := game.Fault{Kind: game.Crash, Detail: "the bot is not running"}
		if b.dead != nil {
			f = *b.dead
		}
		f.Turn = req.Turn
		return game.Reply{Fault: &f}, nil
	}
	limit := req.Limit
	if limit <= 0 {
		limit = time.Hour // the game sets no limit: only the wall cap applies
	}
	wall := 3 * limit
	if wall < 2*time.Second {
		wall = 2 * time.Second
	}
	// The first request pays for the start-up.
	var reply game.Reply
	reply.CPU, b.unpaid = b.unpaid, 0
	b.cpu += reply.CPU
	c := clock{limit: limit, wall: wall, startup: reply.CPU}
	if reply.CPU >= limit {
		reply.Fault = r.fault(ctx, b, sandbox.ErrCPULimit, req, c)
		return reply, nil
	}
	lim := sandbox.TurnLimits{CPU: limit - reply.CPU, Wall: wall}
	expect := req.Expect
	if req.Ready != "" {
		expect = 1
	}
	send := []byte(req.Send)
	for {
		turn, err := b.proc.Exchange(send, expect, lim)
		send = nil
		reply.CPU += turn.CPU
		b.cpu += turn.CPU
		b.wall += turn.Wall
		for _, l := range turn.Lines {
			reply.Lines = append(reply.Lines, string(l))
		}
		c.cpu, c.waited = reply.CPU, c.waited+turn.Waited
		if errors.Is(err, sandbox.ErrStarved) {
			return reply, fmt.Errorf("%w for %d ms of a %d ms wall limit: judge the match again on a less loaded machine", err, turn.Waited.Milliseconds(), lim.Wall.Milliseconds())
		}
		if err != nil && lost(ctx, b.proc, err) {
			// Its container ended with it: the engine restarted or killed it, not the bot.
			return reply, fmt.Errorf("the bot's container ended under it (the engine restarted or stopped it): judge the match again: %w", err)
		}
		if err != nil {
			reply.Fault = r.fault(ctx, b, err, req, c)
			return reply, nil
		}
		if req.Ready == "" {
			break
		}
		if strings.EqualFold(game.TrimLine(reply.Lines[len(reply.Lines)-1]), req.Ready) {
			return reply, nil // not a move
		}
		// Lines before READY are ignored (the replay keeps them); their time still counts.
		lim.CPU -= turn.CPU
		lim.Wall -= turn.Wall - turn.Waited
		if lim.CPU <= 0 || lim.Wall <= 0 {
			err := sandbox.ErrCPULimit
			if lim.Wall <= 0 {
				err = sandbox.ErrWallLimit
			}
			reply.Fault = r.fault(ctx, b, err, req, c)
			return reply, nil
		}
	}
	if !req.Intro {
		b.moves++
	}
	return reply, nil
}

// clock is what a request's time limits were and what the bot used of them, for a timeout's
// detail.
type clock struct {
	limit, wall          time.Duration // the CPU limit and the wall cap
	cpu, startup, waited time.Duration // CPU used (start-up included), of it start-up, time waiting for a CPU
}

func (c clock) cpuDetail() string {
	d := fmt.Sprintf("no answer within its %d ms CPU limit: used %d ms CPU", c.limit.Milliseconds(), c.cpu.Milliseconds())
	if c.startup > 0 {
		d += fmt.Sprintf(", %d ms of it starting up (beyond the runtime's allowance)", c.startup.Milliseconds())
	}
	return d
}

func (c clock) wallDetail() string {
	return fmt.Sprintf("no answer within %d ms wall clock (the cap for its %d ms CPU limit, with the %d ms it waited for a CPU added): used %d ms CPU",
		(c.wall + c.waited).Milliseconds(), c.limit.Milliseconds(), c.waited.Milliseconds(), c.cpu.Milliseconds())
}

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

// lost reports that a turn failed with err because the bot's container ended under it. A bot
// whose output ended (or whose input broke) is given a second to exit first, watched without
// the engine: its pipes close as it dies, a moment before it has exited.
func lost(ctx context.Context, p Lifecycle, err error) bool {
	timedOut := errors.Is(err, sandbox.ErrCPULimit) || errors.Is(err, sandbox.ErrWallLimit)
	if !timedOut && !errors.Is(err, sandbox.ErrLineTooLong) && !errors.Is(err, sandbox.ErrOutputLimit) && !p.Exited() {
		ctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		p.Ended(ctx)
	}
	return p.Exited() && p.Lost()
}

// exitOf says how the bot exited, if it has. One whose output ended has had its second to
// exit (lost): one that has not keeps running, and is not waited for again.
func exitOf(ctx context.Context, p Lifecycle) (sandbox.Exit, bool) {
	if !p.Exited() {
		return sandbox.Exit{}, false
	}
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
func (b *bot) stop(ctx context.Context) {
	if b.proc != nil {
		b.peak = b.proc.PeakMemory()
		b.proc.Kill(ctx)
	}
}

// finish lets the bots that are still running see the end of their input and exit, waiting
// a second at most for each.
func (r *Referee[P]) finish(ctx context.Context, bots []*bot) {
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
			ctx, cancel := context.WithTimeout(ctx, time.Second)
			defer cancel()
			b.proc.Ended(ctx)
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
