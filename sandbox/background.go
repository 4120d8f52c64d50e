package sandbox

import (
	"sync"
)

// tasks counts the engine's work in the background: containers being removed or prepared.
type tasks struct {
	mu     sync.Mutex
	idle   *sync.Cond // broadcast when n falls to 0
	n      int
	closed bool // Close has begun: work is done at once, on the caller's goroutine
}

// background runs fn on a goroutine of its own that Settle and Close wait for.
func (e *Engine) background(fn func()) {
	t := &e.tasks
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		fn()
		return
	}
	t.n++
	t.mu.Unlock()
	go func() {
		defer func() {
			t.mu.Lock()
			if t.n--; t.n == 0 && t.idle != nil {
				t.idle.Broadcast()
			}
			t.mu.Unlock()
		}()
		fn()
	}()
}

// Settle waits until the engine's work in the background is done: the removal of every
// closed Process's container, and the pool's preparing.
func (e *Engine) Settle() {
	t := &e.tasks
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.idle == nil {
		t.idle = sync.NewCond(&t.mu)
	}
	for t.n > 0 {
		t.idle.Wait()
	}
}
