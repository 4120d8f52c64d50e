package contest

import (
	"slices"
	"sync"
	"time"
)

// playing are the matches of rounds the daemons have begun and not yet judged, as this engine
// heard of them (the queue's Started hints): what a round's projector follows. A hint missed
// (an engine started mid-round) leaves a match out until the next one begins; a match whose
// result never comes is forgotten after playingKept.
type playing struct {
	mu    sync.Mutex
	since map[string]time.Time // by match id
}

const playingKept = time.Hour

func (p *playing) started(id string, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.since == nil {
		p.since = map[string]time.Time{}
	}
	p.since[id] = now
	for id, t := range p.since {
		if now.Sub(t) > playingKept {
			delete(p.since, id)
		}
	}
}

func (p *playing) judged(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.since, id)
}

// of are round's matches under way, the first begun first.
func (p *playing) of(round string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for id := range p.since {
		if RoundOf(id) == round {
			out = append(out, id)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return p.since[a].Compare(p.since[b]) })
	return out
}

// Playing are the round's matches a judge is playing now, as far as this engine has heard
// (the first begun first): to watch them live.
func (e *Engine) Playing(round string) []string { return e.playing.of(round) }
