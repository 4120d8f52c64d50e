package sandbox

import (
	"context"
	"sync"

	"github.com/docker/docker/api/types/events"
	"github.com/docker/docker/api/types/filters"
)

// imageIDs remembers what image each reference names for as long as the engine's stream of
// image events is open and quiet: every build looks up its toolchain image, and a look-up is a
// request to the engine. Any image event (a tag, an import, a removal, by this judge or
// another) forgets everything; with no stream open nothing is remembered.
type imageIDs struct {
	mu     sync.Mutex
	ids    map[string]string
	gen    uint64 // moves at every forget: a look-up begun before one is not kept
	live   bool   // the stream is open: what it has not reported has not happened
	cancel context.CancelFunc
	closed bool
}

// lookup is the ID remembered for ref, opening the stream when none is open; gen is what to
// give keep with the ID the engine returns when none is remembered.
func (c *imageIDs) lookup(e *Engine, ref string) (id string, gen uint64, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live && !c.closed {
		c.follow(e)
	}
	id, ok = c.ids[ref]
	return id, c.gen, ok
}

// keep remembers id for ref, unless something was forgotten since the look-up began.
func (c *imageIDs) keep(ref, id string, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live && c.gen == gen {
		c.ids[ref] = id
	}
}

// forget drops everything remembered: an image changed, or may have.
func (c *imageIDs) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.ids)
}

// follow opens the stream of image events (c.mu held). The engine subscribes before it
// answers, so once Events returns no change is missed.
func (c *imageIDs) follow(e *Engine) {
	ctx, cancel := context.WithCancel(context.Background())
	msgs, errs := e.api().Events(ctx, events.ListOptions{Filters: filters.NewArgs(filters.Arg("type", string(events.ImageEventType)))})
	select {
	case err := <-errs:
		cancel()
		e.log.Debug("no image events: image look-ups are not remembered", "err", err)
		return
	default:
	}
	c.live, c.cancel = true, cancel
	if c.ids == nil {
		c.ids = map[string]string{}
	}
	go func() {
		for {
			select {
			case <-msgs:
				c.forget()
			case <-errs:
				c.mu.Lock()
				c.live = false
				c.gen++
				clear(c.ids)
				c.mu.Unlock()
				cancel()
				return
			}
		}
	}()
}

// close ends the stream for good.
func (c *imageIDs) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.cancel != nil {
		c.cancel()
	}
}
