package sandbox

import (
	"context"
	"sync"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/errdefs"
)

// leftovers are this judge's containers whose removal failed because the engine did not
// answer (restarting, hung, its socket gone): the judge goes on asking, further and further
// apart, until the engine is back and they are gone. Without this a live judge would leave
// them until the next judge's Sweep, which only removes a dead judge's.
type leftovers struct {
	mu      sync.Mutex
	ids     map[string]bool
	running bool
	stop    chan struct{} // closed by Engine.Close
	// poke has the next try made at once: the judge is using the engine again (Start), which
	// may well be back.
	poke chan struct{}
}

// The waits between tries for a leftover container: from leftoverFirst, doubling, to
// leftoverMost.
const (
	leftoverFirst = time.Second
	leftoverMost  = 30 * time.Second
)

// removeLater has the container id removed once the engine answers again.
func (e *Engine) removeLater(id string) {
	l := &e.leftovers
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stop == nil {
		l.stop, l.poke = make(chan struct{}), make(chan struct{}, 1)
	}
	if l.ids == nil {
		l.ids = map[string]bool{}
	}
	l.ids[id] = true
	if !l.running {
		l.running = true
		go e.removeLeftovers()
	}
}

// pokeLeftovers has the leftovers' next removal tried now, if there are any.
func (e *Engine) pokeLeftovers() {
	l := &e.leftovers
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running {
		select {
		case l.poke <- struct{}{}:
		default:
		}
	}
}

// removeLeftovers tries the leftovers' removal until there are none or the engine closes.
func (e *Engine) removeLeftovers() {
	l := &e.leftovers
	wait := leftoverFirst
	for {
		l.mu.Lock()
		stop := l.stop
		l.mu.Unlock()
		select {
		case <-stop:
			return
		case <-l.poke:
		case <-time.After(wait):
		}
		if e.removeLeftoversOnce(10*time.Second) == 0 {
			return
		}
		wait = min(2*wait, leftoverMost)
	}
}

// removeLeftoversOnce asks the engine once to remove each leftover, within timeout in all, and
// returns how many are left; when none are, the retrying goroutine is done.
func (e *Engine) removeLeftoversOnce(timeout time.Duration) int {
	l := &e.leftovers
	l.mu.Lock()
	var ids []string
	for id := range l.ids {
		ids = append(ids, id)
	}
	l.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for _, id := range ids {
		err := e.api().ContainerRemove(ctx, id, container.RemoveOptions{Force: true, RemoveVolumes: true})
		if err == nil || errdefs.IsNotFound(err) {
			e.log.Info("removed a container the engine could not remove earlier", "container", id[:12])
			l.mu.Lock()
			delete(l.ids, id)
			l.mu.Unlock()
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ids) == 0 {
		l.running = false
	}
	return len(l.ids)
}

// closeLeftovers stops the retrying after one last try: what is still left then goes to the
// next judge's Sweep (the containers' labels name this judge, dead by then).
func (e *Engine) closeLeftovers() {
	l := &e.leftovers
	l.mu.Lock()
	n := len(l.ids)
	if l.stop != nil {
		select {
		case <-l.stop: // closed already
		default:
			close(l.stop)
		}
	}
	l.mu.Unlock()
	if n > 0 {
		if left := e.removeLeftoversOnce(5 * time.Second); left > 0 {
			e.log.Warn("containers the engine would not remove are left to the next judge's sweep", "containers", left)
		}
	}
}
