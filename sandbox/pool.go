package sandbox

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// DefaultWarm is the containers a daemon keeps prepared per worker and kind of bot: a
// two-player match's.
const DefaultWarm = 2

// pool keeps prepared containers (see Start), by kind, for Start to take: a match's bots then
// start at the launcher's go instead of at the engine's create. Each is used once, by one bot,
// and removed after it like any other.
type pool struct {
	mu     sync.Mutex
	size   int                   // containers kept ready per kind; 0 keeps none
	ready  map[string][]*Process // by kind, oldest first
	coming map[string]int        // being prepared, by kind
	// ctx bounds the preparing; Engine.Close cancels it rather than wait it out.
	ctx    context.Context
	cancel context.CancelFunc
}

// kind is what a prepared container has of a RunSpec: everything but the artifact and the
// input files, which launch puts in.
func kind(spec RunSpec) string {
	return fmt.Sprintf("%q %q %q %+v %s %+v", spec.Image, spec.Cmd, spec.Env, spec.Limits, spec.Freeze, spec.Output)
}

// Warm keeps n prepared containers ready for each kind of bot the engine has started (an image
// with its command, environment and limits), from that kind's first Start on; 0, the default,
// keeps none and removes those kept. A prepared container is the launcher, started with every
// restriction and waiting on its pipe: it uses no CPU, and what it used is not the bot's (see
// Process.StartCPU).
func (e *Engine) Warm(n int) {
	e.pool.mu.Lock()
	e.pool.size = max(n, 0)
	var drop []*Process
	for k, list := range e.pool.ready {
		if len(list) > e.pool.size {
			drop = append(drop, list[e.pool.size:]...)
			e.pool.ready[k] = list[:e.pool.size]
		}
	}
	e.pool.mu.Unlock()
	for _, p := range drop {
		p.Close()
	}
}

// Pooled lists the IDs of the containers the pool holds ready.
func (e *Engine) Pooled() []string {
	e.pool.mu.Lock()
	defer e.pool.mu.Unlock()
	var ids []string
	for _, list := range e.pool.ready {
		for _, p := range list {
			ids = append(ids, p.ID())
		}
	}
	return ids
}

// takeWarm is a prepared container of spec's kind that still waits for its go, or nil, and
// has the pool prepare the kind's containers up to its size again.
func (e *Engine) takeWarm(spec RunSpec) *Process {
	k := kind(spec)
	pl := &e.pool
	pl.mu.Lock()
	if pl.size == 0 {
		pl.mu.Unlock()
		return nil
	}
	if pl.ready == nil {
		pl.ready, pl.coming = map[string][]*Process{}, map[string]int{}
		pl.ctx, pl.cancel = context.WithCancel(context.Background())
	}
	var got *Process
	var ended []*Process
	list := pl.ready[k]
	for len(list) > 0 && got == nil {
		if list[0].ready() {
			got = list[0]
		} else {
			ended = append(ended, list[0])
		}
		list = list[1:]
	}
	pl.ready[k] = list
	missing := pl.size - len(list) - pl.coming[k]
	pl.coming[k] += max(missing, 0)
	ctx := pl.ctx
	pl.mu.Unlock()
	for _, p := range ended {
		e.log.Warn("a prepared container ended before a bot needed it: removed", "container", p.ID()[:12], "image", spec.Image)
		p.Close()
	}
	for range missing {
		e.background(func() { e.prepareWarm(ctx, k, spec) })
	}
	return got
}

// prepareWarm prepares a container of kind k for the pool, for as long as ctx allows and
// twice connectTimeout at most.
func (e *Engine) prepareWarm(ctx context.Context, k string, spec RunSpec) {
	ctx, cancel := context.WithTimeout(ctx, 2*connectTimeout)
	defer cancel()
	p, err := e.prepare(ctx, spec)
	pl := &e.pool
	pl.mu.Lock()
	pl.coming[k]--
	keep := err == nil && p.ready() && len(pl.ready[k]) < pl.size
	if keep {
		pl.ready[k] = append(pl.ready[k], p)
	}
	pl.mu.Unlock()
	switch {
	case err == nil && !keep:
		p.Close()
	case err != nil && !errors.Is(err, context.Canceled): // Close cancelled it
		e.log.Warn("preparing a container for the pool", "image", spec.Image, "err", err)
	}
}
