package view

import (
	"bytes"
	"container/list"
	"crypto/sha256"
	"sync"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/replay"
)

// DefaultFilmsBytes bounds the films a Films keeps: the replays' bytes and their pictures'.
const DefaultFilmsBytes = 64 << 20

// Films makes replays' films and keeps the newest it made, by the replay's content. An added
// game's film is its referee run again in a sandbox over the whole match (a container's start
// and every exchange): a film watched twice, or by two people at once, is made once. A film
// with a Problem is not kept, since its cause (a store or a Docker engine out of reach) may
// pass. The zero Films knows no game; set Lookup.
type Films struct {
	// Lookup finds a replay's game by its GameKey.
	Lookup func(string) (game.Game, bool)
	// MaxBytes bounds what is kept (DefaultFilmsBytes when 0).
	MaxBytes int64

	mu     sync.Mutex
	kept   map[[sha256.Size]byte]*list.Element // of *filmEntry
	order  list.List                           // the most recently used first
	size   int64
	making map[[sha256.Size]byte]*making
}

type filmEntry struct {
	key  [sha256.Size]byte
	film *Film
	size int64
}

// making is a film being made, for the callers that ask for it meanwhile.
type making struct {
	done chan struct{}
	film *Film
	err  error
}

// Read is the film of the replay data, made once while it is kept. The film returned is
// shared: callers must not change it.
func (c *Films) Read(data []byte) (*Film, error) {
	key := sha256.Sum256(data)
	c.mu.Lock()
	if e, ok := c.kept[key]; ok {
		c.order.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*filmEntry).film, nil
	}
	if m, ok := c.making[key]; ok {
		c.mu.Unlock()
		<-m.done
		return m.film, m.err
	}
	m := &making{done: make(chan struct{})}
	if c.making == nil {
		c.making = map[[sha256.Size]byte]*making{}
	}
	c.making[key] = m
	c.mu.Unlock()

	defer close(m.done)
	rp, err := replay.Read(bytes.NewReader(data))
	if err == nil {
		m.film = Make(rp, c.Lookup)
	}
	m.err = err

	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.making, key)
	if err == nil && m.film.Problem == "" {
		c.keep(key, m.film, filmSize(data, m.film))
	}
	return m.film, m.err
}

// keep adds a film, dropping the least recently used beyond MaxBytes; a film larger than
// MaxBytes alone is not kept.
func (c *Films) keep(key [sha256.Size]byte, f *Film, size int64) {
	max := c.MaxBytes
	if max <= 0 {
		max = DefaultFilmsBytes
	}
	if size > max {
		return
	}
	if c.kept == nil {
		c.kept = map[[sha256.Size]byte]*list.Element{}
	}
	c.kept[key] = c.order.PushFront(&filmEntry{key: key, film: f, size: size})
	c.size += size
	for c.size > max {
		last := c.order.Back()
		e := last.Value.(*filmEntry)
		c.order.Remove(last)
		delete(c.kept, e.key)
		c.size -= e.size
	}
}

// filmSize is about the memory a film holds: its replay's bytes (the exchanges) and its
// pictures.
func filmSize(data []byte, f *Film) int64 {
	n := int64(len(data))
	for _, fr := range f.Frames {
		n += int64(len(fr))
	}
	return n
}
