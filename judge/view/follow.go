package view

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/replay"
)

// Follower draws the pictures of a match watched live, as its exchanges come: the game's
// rules run once over the match, fed each exchange as it is judged (as Make runs them over a
// whole replay), so that a picture costs one exchange's work, not the match's so far.
type Follower struct {
	in     chan replay.Exchange
	out    chan json.RawMessage
	done   chan struct{} // closed by Close
	exited chan struct{} // closed when the rules stop: the match over, or departed
	once   sync.Once
}

// Follow starts following a match from its header, and returns its picture before the first
// exchange. Close it when the match is over.
func Follow(h replay.Header, lookup func(string) (game.Game, bool)) (*Follower, json.RawMessage, error) {
	g, ok := lookup(GameKey(h))
	if !ok {
		return nil, nil, errors.New(unknown(h))
	}
	m, err := game.Start(g, game.Config{Seed: h.Seed, Players: len(h.Players), Options: h.Options})
	if err != nil {
		return nil, nil, fmt.Errorf("the match does not start here (%v): only the exchanges are shown", err)
	}
	v, ok := m.(game.Viewer)
	if !ok {
		closeMatch(m)
		return nil, nil, fmt.Errorf("the game %q draws no pictures: only the exchanges are shown", h.Game)
	}
	f := &Follower{in: make(chan replay.Exchange), out: make(chan json.RawMessage), done: make(chan struct{}), exited: make(chan struct{})}
	first, err := json.Marshal(v.View())
	if err != nil {
		closeMatch(m)
		return nil, nil, err
	}
	go f.run(m, v)
	return f, first, nil
}

func (f *Follower) run(m game.Match, v game.Viewer) {
	defer close(f.exited)
	defer closeMatch(m)
	for {
		req, over := m.Next()
		if over {
			return
		}
		var x replay.Exchange
		select {
		case x = <-f.in:
		case <-f.done:
			return
		}
		if x.Player != req.Player || x.Turn != req.Turn {
			return // not this game's match: no more pictures
		}
		if req.Expect > 0 || req.Ready != "" {
			m.Reply(game.Reply{Lines: x.Received, Fault: x.Fault, CPU: time.Duration(x.CPUus) * time.Microsecond})
		}
		b, err := json.Marshal(v.View())
		if err != nil {
			return
		}
		select {
		case f.out <- b:
		case <-f.done:
			return
		}
	}
}

// Add gives the follower the next exchange, and returns the picture after it; false once the
// match departs from the game or is over.
func (f *Follower) Add(x replay.Exchange) (json.RawMessage, bool) {
	select {
	case f.in <- x:
	case <-f.exited:
		return nil, false
	case <-f.done:
		return nil, false
	}
	select {
	case b := <-f.out:
		return b, true
	case <-f.exited:
		return nil, false
	}
}

// Close ends the following.
func (f *Follower) Close() { f.once.Do(func() { close(f.done) }) }

func closeMatch(m game.Match) {
	if c, ok := m.(io.Closer); ok {
		c.Close()
	}
}
