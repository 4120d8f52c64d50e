// Package match plays one match: it builds the players, starts their sandboxes, drives the
// game's requests through them (the player driver), and turns what happened into a result.
// Whatever a bot does, the match finishes and every container is removed.
package match

import (
	"cmp"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/setting"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox"
)

// Entrant is a player as the job names it.
type Entrant struct {
	Name       string
	Submission submission.Submission
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
	StderrMatch setting.Bytes
	// WorkDir holds each match's input files while it runs.
	WorkDir string
	Version string
	// NoTimeLimits lifts the bots' time limits, so that a bot can run under a debugger: each
	// request's limit is a day, and the game is given no CPU time for an answer (with a
	// Recording, the recorded time while the match follows it), so that its time budgets are
	// not spent. The result says so (judge.no_time_limits).
	NoTimeLimits bool
	// Unsandboxed says that Sandbox runs bots as plain processes (judge/local): the result
	// says so (judge.unsandboxed).
	Unsandboxed bool
}

// noTimeLimit is a request's time limit with NoTimeLimits: a day.
const noTimeLimit = 24 * time.Hour

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
	// Recording, when not nil, plays a recorded match again with one seat live (see
	// Recording): the other seats' entrants are not built, they answer from it.
	Recording *Recording
}

// Play plays a match. An error is returned only when the match could not be judged
// (a *result.Error says why); whatever the bots do, the result has status ok.
func (r *Referee[P]) Play(ctx context.Context, j Job) (result.Result, error) {
	started := time.Now().UTC()
	host, _ := os.Hostname()
	res := result.Result{Version: result.Version, ID: j.ID, Game: j.Game.Name(), Seed: j.Seed, Status: result.StatusOK}
	res.Judge = result.JudgeInfo{Version: r.Version, Host: host, Started: started, Unsandboxed: r.Unsandboxed, NoTimeLimits: r.NoTimeLimits}
	j.Game = r.Bind(ctx, j.Game)
	res.GameVersion = gameVersion(j.Game)
	m, err := game.Start(j.Game, game.Config{Seed: j.Seed, Players: len(j.Players), Options: j.Options})
	if err != nil {
		var oe *game.OptionError
		if errors.As(err, &oe) {
			return res, result.Errorf(result.BadOption, "%w", err)
		}
		return res, result.Errorf(result.InvalidJob, "%w", err)
	}
	defer closeGame(m)
	setup := m.Setup()
	if err := gameErr(m); err != nil {
		return res, err
	}
	if j.Recording != nil {
		if err := j.Recording.check(j); err != nil {
			return res, err
		}
	}

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
	if err := gameErr(m); err != nil {
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
	rec := j.Recording
	record := func(p int, x replay.Exchange) error {
		if rec != nil {
			if err := rec.follow(exchanges, x); err != nil {
				return err
			}
		}
		rw.Exchange(x)
		errLog.moved(p, bots[p], exchanges)
		exchanges++
		return nil
	}
	for {
		if err := ctx.Err(); err != nil {
			return result.Errorf(result.Infrastructure, "match stopped: %w", err)
		}
		req, done := m.Next()
		if done {
			stopQuitting(ctx, bots, -1)
			if rec != nil {
				return rec.end(exchanges)
			}
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
			if err := record(req.Player, x); err != nil {
				return err
			}
			continue
		}
		reply, err := r.ask(ctx, b, req)
		if err != nil {
			// A recording that cannot go on is the replay's answer, not the machine's failure.
			if departed := (*DepartedError)(nil); errors.As(err, &departed) {
				return err
			}
			return result.Errorf(result.Infrastructure, "player %d (%s) at turn %d: %w", req.Player, j.Players[req.Player].Name, req.Turn, err)
		}
		// The game sees the CPU time exactly as the replay records it, so that re-judging the
		// replay computes the same time budgets.
		reply.CPU = reply.CPU.Truncate(time.Microsecond)
		if r.NoTimeLimits && b.recording == nil {
			reply.CPU = 0
			if cpu, ok := rec.cpu(exchanges); ok {
				reply.CPU = cpu
			}
		}
		verdict := m.Reply(reply)
		if verdict != nil && b.dead == nil {
			// The bot still runs: it gets the notices the game sends it next (On The Run's
			// Quit), then it is stopped.
			b.dead, b.quitting = verdict, true
		}
		x.Received, x.Fault, x.Verdict = reply.Lines, reply.Fault, verdict
		x.CPUus, x.CPUms = reply.CPU.Microseconds(), reply.CPU.Milliseconds()
		if call := (result.CPUCall{Turn: x.Turn, CPUus: x.CPUus, LimitUS: x.LimitUS}); call.LimitUS > 0 && (b.closest == nil || call.Share() > b.closest.Share()) {
			b.closest = &call
		}
		if err := record(req.Player, x); err != nil {
			return err
		}
	}
}

// players are the result's players: each one's build, use, score, rank and fault.
func players(j Job, bots []*bot, out game.Result) []result.Player {
	var ps []result.Player
	for i, e := range j.Players {
		b := bots[i]
		p := result.Player{Name: e.Name, Lang: e.Submission.Lang, Build: b.build.Report(), Moves: b.moves,
			CPUms: b.cpu.Milliseconds(), StartupCPUms: b.startup.Milliseconds(), WallMs: b.wall.Milliseconds(), MaxRSSKiB: b.peak >> 10,
			Stderr: result.StderrTail(b.stderr.String()), Closest: b.closest}
		if i < len(out.Scores) {
			p.Score, p.Rank = out.Scores[i], out.Ranks[i]
		}
		if i < len(out.Faults) {
			p.Fault = out.Faults[i]
		}
		if b.recording != nil && i < len(b.recording.Replay.Result.Players) {
			// A seat played from its recording: its figures are the recorded ones.
			r := b.recording.Replay.Result.Players[i]
			p.Build, p.CPUms, p.StartupCPUms, p.WallMs, p.MaxRSSKiB, p.Stderr, p.Closest = r.Build, r.CPUms, r.StartupCPUms, r.WallMs, r.MaxRSSKiB, r.Stderr, r.Closest
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
		if rec := j.Recording; rec != nil {
			if i != rec.Live {
				bots[i] = rec.recorded(i)
				bots[i].name = e.Name
				continue
			}
		}
		sub := e.Submission
		sub.Files = game.WithLibrary(j.Game, sub.Lang, sub.Files)
		b, err := r.Builder.Build(ctx, sub)
		if errors.Is(err, submission.ErrInvalid) {
			return nil, result.Errorf(result.InvalidJob, "player %d (%s): %w", i, e.Name, err)
		}
		if err != nil {
			return nil, result.Errorf(result.Infrastructure, "building player %d (%s): %w", i, e.Name, err)
		}
		if n, ok := r.Builder.(gameNoter); ok {
			n.Played(sub, j.Game.Name())
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
	hdr := replay.Header{Game: j.Game.Name(), GameVersion: gameVersion(j.Game), Seed: j.Seed, Options: setup.Options, World: setup.World, Judge: r.Version}
	for i, e := range j.Players {
		if bots[i].recording != nil { // as recorded
			p := j.Recording.Replay.Header.Players[i]
			p.Name = e.Name
			hdr.Players = append(hdr.Players, p)
			continue
		}
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
	closest  *result.CPUCall // the answer nearest its limit
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
	// recording answers for a seat played from a recording (Job.Recording), seat.
	recording *Recording
	seat      int
}
