package match

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/sandbox"
)

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
	if b.recording != nil {
		reply, err := b.recording.answer(b.seat, req)
		b.cpu += reply.CPU
		if err == nil && reply.Fault == nil && !req.Intro && req.Ready == "" { // as below
			b.moves++
		}
		return reply, err
	}
	if b.dead != nil || b.proc == nil {
		f := game.Fault{Kind: game.Crash, Detail: "the bot is not running"}
		if b.dead != nil {
			f = *b.dead
		}
		f.Turn = req.Turn
		return game.Reply{Fault: &f}, nil
	}
	limit := req.Limit
	if r.NoTimeLimits {
		limit = noTimeLimit
	}
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
