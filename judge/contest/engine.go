// Package contest is the contest engine: contests, versions and their builds, validation,
// test matches, the ladder's scheduling and rounds, driven by the results the daemons
// publish. It holds no state of its own - all of it is in NATS (the portal's store, the
// object store, the jobs and results streams) - and speaks no HTTP: the portal is its web
// and API face, and calls it for what a page or a request asks (an upload's build, a test
// match, a round). Any number of engines may run beside each other (Run), in `judge portal`
// or on their own (`judge portal engine`), each step safe to take twice.
package contest

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/queue"
)

// Queue is what the engine needs of the queue: a *queue.Queue.
type Queue interface {
	// SubmitTo queues a job the daemons take only when no job of an earlier lane waits; a
	// job submitted already is not queued twice.
	SubmitTo(ctx context.Context, lane queue.Lane, id string, data []byte) (bool, error)
	Results(ctx context.Context, id string, follow bool, fn func(id string, result []byte) error) error
	PutObject(ctx context.Context, bucket, key string, r io.Reader) error
	GetObject(ctx context.Context, bucket, key string, w io.Writer) (bool, error)
	// Starts calls fn with the id of each job a daemon begins (a hint).
	Starts(ctx context.Context, fn func(id string)) error
}

// Config is what an Engine is made of.
type Config struct {
	Store *store.Store
	Queue Queue
	// Games finds a game (games.Lookup); Langs are the judge's languages (nil:
	// images.LangNames).
	Games func(string) (game.Game, bool)
	Langs []string
	Log   *slog.Logger
	// Starter is a game's starter bot in a language, with its library (games.Starter): code
	// every contestant was given, which the integrity check leaves out.
	Starter func(g game.Game, lang string) (map[string][]byte, bool)
}

// Engine runs the contests of a store.
type Engine struct {
	c       Config
	ladders *ladders
	rounds  roundRunner
	sizes   sizeCache
	playing playing
	checks  integrity
}

// New makes an engine. Its methods act at once; Run follows the results and runs the
// ladders and rounds.
func New(c Config) *Engine {
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	e := &Engine{c: c}
	e.ladders = newLadders(e)
	e.rounds.e = e
	return e
}

// Run reads every result the daemons publish - from the start of the stream, so that an
// engine started later, or again, misses nothing - and moves the contests' submissions and
// matches on: a build's result starts the validation match, a match's result is stored
// and, for a validation, decides whether the version is ready, for a ladder match moves
// the ladder. Every step can happen twice (several engines follow the same results) and
// does no harm when it does. Beside it run the contests' ladders and rounds. It returns
// when ctx is done.
func (e *Engine) Run(ctx context.Context) error {
	go e.ladders.run(ctx)
	go e.checks.run(ctx, e)
	go e.c.Queue.Starts(ctx, func(id string) {
		if RoundOf(id) != "" {
			e.playing.started(id, time.Now())
		}
		if subID, ok := strings.CutSuffix(id, "-build"); ok {
			e.c.Store.UpdateSubmission(ctx, subID, func(x *store.Submission) error {
				if x.Status == store.Queued {
					x.Status = store.Compiling
				}
				return nil
			})
		}
	})
	for {
		err := e.c.Queue.Results(ctx, "", true, func(id string, data []byte) error {
			if err := e.onResult(ctx, id, data); err != nil && ctx.Err() == nil {
				e.c.Log.Warn("contest: acting on a result", "id", id, "err", err)
			}
			return nil
		})
		if ctx.Err() != nil {
			return ctx.Err()
		}
		e.c.Log.Warn("contest: following the results stopped; starting again", "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}
