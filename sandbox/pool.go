package sandbox

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// DefaultWarm is the containers a daemon keeps prepared per worker and kind of bot, at
// least: a two-player match's. A kind of which a match needs more grows to it (maxWarm).
const DefaultWarm = 2

// maxWarm bounds a kind's prepared containers: the most players a match of the judge's games
// has, with a few to spare.
const maxWarm = 8

// DefaultWarmLimit is the containers a daemon keeps prepared per worker in all kinds: a
// season's mix of games and languages is dozens of kinds, and each container held costs the
// judge goroutines and open files.
const DefaultWarmLimit = 12

// pool keeps prepared containers (see Start), by kind, for Start to take: a match's bots then
// start at the launcher's go instead of at the engine's create. Each is used once, by one bot,
// and removed after it like any other.
type pool struct {
	mu     sync.Mutex
	size   int                   // containers kept ready per kind, at least; 0 keeps none
	ready  map[string][]*Process // by kind, oldest first
	coming map[string]int        // being prepared, by kind
	// grown is a kind's size where a match has needed more at once than size (a four-player
	// match of one kind of bot): one more for each start that found none ready, up to maxWarm.
	grown map[string]int
	// limit bounds the containers ready and being prepared, all kinds together (0: no bound).
	// A kind gets places within it as containers are taken; a full pool takes the places of
	// kinds not started for warmIdle, the least recently started first, and otherwise
	// prepares nothing for a kind that has none: with more kinds than places, replacing one
	// kind's containers by another's at each start would cost the engine more than no pool.
	limit int
	used  map[string]time.Time // a kind's last start
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
// with its command, environment and limits), from that kind's first Start on, and more of a
// kind of which a match has started more at once (one more for each later start that found
// none ready, up to maxWarm); 0, the default, keeps none and removes those kept. A prepared container is the launcher, started with every
// restriction and waiting on its pipe: it uses no CPU, and what it used is not the bot's (see
// Process.StartCPU).
func (e *Engine) Warm(n int) {
	e.pool.mu.Lock()
	e.pool.size = max(n, 0)
	var drop []*Process
	for k, list := range e.pool.ready {
		keep := max(e.pool.size, e.pool.grown[k])
		if e.pool.size == 0 {
			keep = 0
			delete(e.pool.grown, k)
		}
		if len(list) > keep {
			drop = append(drop, list[keep:]...)
			e.pool.ready[k] = list[:keep]
		}
	}
	e.pool.mu.Unlock()
	for _, p := range drop {
		p.Close()
	}
}

// warmIdle is how long a kind goes unstarted before a full pool gives its places to another
// (a variable, for tests).
var warmIdle = 10 * time.Minute

// WarmLimit bounds the prepared containers the pool keeps in all kinds to n (0: no bound); a
// full pool gives the places of kinds not started for a while to the kinds being started.
func (e *Engine) WarmLimit(n int) {
	e.pool.mu.Lock()
	e.pool.limit = max(n, 0)
	drop := e.pool.evict("", time.Time{})
	e.pool.mu.Unlock()
	for _, p := range drop {
		p.Close()
	}
}

// evict takes out of the pool the prepared containers of the least recently started kinds
// other than keep, of those last started before idle (all, when idle is zero), until what is
// ready and coming fits the limit; mu is held.
func (pl *pool) evict(keep string, idle time.Time) []*Process {
	if pl.limit == 0 {
		return nil
	}
	held := pl.held()
	var drop []*Process
	for held > pl.limit {
		oldest, found := "", false
		for k, list := range pl.ready {
			last := pl.used[k]
			if k == keep || len(list) == 0 || !idle.IsZero() && !last.Before(idle) {
				continue
			}
			if !found || last.Before(pl.used[oldest]) {
				oldest, found = k, true
			}
		}
		if !found {
			break
		}
		list := pl.ready[oldest]
		n := min(len(list), held-pl.limit)
		drop = append(drop, list[:n]...)
		pl.ready[oldest] = list[n:]
		held -= n
	}
	return drop
}

// held counts the containers ready and being prepared; mu is held.
func (pl *pool) held() int {
	n := 0
	for _, list := range pl.ready {
		n += len(list)
	}
	for _, c := range pl.coming {
		n += c
	}
	return n
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
		pl.ready, pl.coming, pl.grown, pl.used = map[string][]*Process{}, map[string]int{}, map[string]int{}, map[string]time.Time{}
		pl.ctx, pl.cancel = context.WithCancel(context.Background())
	}
	size, seen := pl.grown[k]
	size = max(size, pl.size)
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
	if got == nil && seen && size < maxWarm { // not the kind's first start: a match needed more
		size++
	}
	pl.grown[k] = size
	now := time.Now()
	pl.used[k] = now
	missing := size - len(list) - pl.coming[k]
	if missing > 0 && !FilesLeft(missing*filesPerContainer+FilesPerMatch) {
		missing = 0 // the matches need the judge's open files more than the pool does
	}
	var evicted []*Process
	if pl.limit > 0 && missing > 0 {
		// Places for what is missing: free ones, then idle kinds'.
		pl.coming[k] += missing
		evicted = pl.evict(k, now.Add(-warmIdle))
		pl.coming[k] -= missing
		missing = min(missing, pl.limit-pl.held())
	}
	pl.coming[k] += max(missing, 0)
	ctx := pl.ctx
	pl.mu.Unlock()
	for _, p := range evicted {
		p.Close()
	}
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
	keep := err == nil && p.ready() && len(pl.ready[k]) < max(pl.size, pl.grown[k]) && pl.size > 0 &&
		(pl.limit == 0 || pl.held() < pl.limit)
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
