// Package catalog is the games a judge plays: the ones built into it and the ones an organiser
// added (`judge game add`, docs/referee.md). Added games are kept in the store - the game's
// entry in a key-value bucket, each version's files in an object bucket under its content
// hash - so that every daemon of a cluster plays a game as soon as it is added, without a
// restart, and a replay judged by an earlier version re-judges with that version.
package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/manifest"
	"github.com/botjudge/judge/judge/game/referee"
	"github.com/botjudge/judge/judge/queue/kv"
)

// Objects are the store's object buckets (the queue's PutObject and GetObject).
type Objects interface {
	PutObject(ctx context.Context, bucket, key string, r io.Reader) error
	GetObject(ctx context.Context, bucket, key string, w io.Writer) (bool, error)
}

// Bucket is the object bucket that holds each added version's files (queue.BucketGames), and
// the key-value bucket of the entries.
const Bucket = "games"

// Entry is an added game as the catalog lists it: its current version, and the versions it
// had before (newest first), which stay in the store for their replays.
type Entry struct {
	Name    string           `json:"name"`
	Title   string           `json:"title"`
	Players manifest.Players `json:"players"`
	Lang    string           `json:"lang"`
	Version string           `json:"version"`
	Added   time.Time        `json:"added"`
	Earlier []string         `json:"earlier,omitempty"`
}

// ErrNotFound is a name or a version the catalog has no game of.
var ErrNotFound = errors.New("no such added game")

// lookupTimeout bounds reading a game from the store while a job or a page waits for it.
const lookupTimeout = 10 * time.Second

// Catalog is the built-in games and the store's added ones.
type Catalog struct {
	kv      *kv.Bucket
	obj     Objects
	builtin func(string) (game.Game, bool)
	check   manifest.Check
	log     *slog.Logger

	mu       sync.Mutex
	versions map[string]*referee.Game // loaded versions, by content hash
}

// New is the catalog of kv's entries and obj's files, over the built-in games (games.Lookup);
// added games' manifests are checked against check.
func New(b *kv.Bucket, obj Objects, builtin func(string) (game.Game, bool), check manifest.Check, log *slog.Logger) *Catalog {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Catalog{kv: b, obj: obj, builtin: builtin, check: check, log: log, versions: map[string]*referee.Game{}}
}

// Lookup finds a game by name: a built-in game, else the current version of an added one,
// read from the store (each version once: it is kept here after). A store that cannot be
// read is logged and reported as no such game.
func (c *Catalog) Lookup(name string) (game.Game, bool) {
	if g, ok := c.builtin(name); ok {
		return g, true
	}
	ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
	defer cancel()
	g, err := c.Current(ctx, name)
	if err != nil {
		if !errors.Is(err, ErrNotFound) {
			c.log.Warn("looking up an added game", "game", name, "err", err)
		}
		return nil, false
	}
	return g, true
}

// Current is the added game name's current version.
func (c *Catalog) Current(ctx context.Context, name string) (*referee.Game, error) {
	e, _, err := c.entry(ctx, name)
	if err != nil {
		return nil, err
	}
	return c.Version(ctx, e.Version)
}

// Version is the added game of a version (a content hash), current or earlier: what re-judges
// a replay that records it.
func (c *Catalog) Version(ctx context.Context, version string) (*referee.Game, error) {
	c.mu.Lock()
	g, ok := c.versions[version]
	c.mu.Unlock()
	if ok {
		return g, nil
	}
	var buf bytes.Buffer
	found, err := c.obj.GetObject(ctx, Bucket, version, &buf)
	if err != nil {
		return nil, fmt.Errorf("catalog: reading version %.12s: %w", version, err)
	}
	if !found {
		return nil, fmt.Errorf("%w: version %.12s is not in the store", ErrNotFound, version)
	}
	g, err = referee.Unarchive(buf.Bytes(), version, c.check)
	if err != nil {
		return nil, fmt.Errorf("catalog: version %.12s: %w", version, err)
	}
	c.mu.Lock()
	c.versions[version] = g
	c.mu.Unlock()
	return g, nil
}

// entry is name's entry and its revision.
func (c *Catalog) entry(ctx context.Context, name string) (Entry, uint64, error) {
	kve, err := c.kv.Get(ctx, name)
	if errors.Is(err, kv.ErrKeyNotFound) || errors.Is(err, kv.ErrInvalidKey) {
		return Entry{}, 0, fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	if err != nil {
		return Entry{}, 0, fmt.Errorf("catalog: reading %q: %w", name, err)
	}
	var e Entry
	if err := json.Unmarshal(kve.Value, &e); err != nil {
		return Entry{}, 0, fmt.Errorf("catalog: the entry of %q: %w", name, err)
	}
	return e, kve.Revision, nil
}

// Add makes g the current version of its game: its files are stored under its version, then
// its entry names it, the version it replaces kept among the earlier ones. Adding the version
// that is current already changes nothing (added reports false).
func (c *Catalog) Add(ctx context.Context, g *referee.Game) (e Entry, added bool, err error) {
	if _, builtin := c.builtin(g.Manifest.Name); builtin {
		return Entry{}, false, fmt.Errorf("%q is a game built into the judge", g.Manifest.Name)
	}
	archive, err := g.Archive()
	if err != nil {
		return Entry{}, false, fmt.Errorf("catalog: archiving %s: %w", g.Manifest.Name, err)
	}
	if err := c.obj.PutObject(ctx, Bucket, g.Version, bytes.NewReader(archive)); err != nil {
		return Entry{}, false, fmt.Errorf("catalog: storing %s: %w", g.Manifest.Name, err)
	}
	m := g.Manifest
	for attempt := 0; ; attempt++ {
		old, rev, err := c.entry(ctx, m.Name)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return Entry{}, false, err
		}
		if rev != 0 && old.Version == g.Version {
			return old, false, nil
		}
		e = Entry{Name: m.Name, Title: m.Title, Players: m.Players, Lang: m.Referee.Lang, Version: g.Version, Added: time.Now().UTC()}
		if rev != 0 {
			e.Earlier = append([]string{old.Version}, slices.DeleteFunc(old.Earlier, func(v string) bool { return v == g.Version })...)
		}
		data, _ := json.Marshal(e)
		if rev == 0 {
			_, err = c.kv.Create(ctx, m.Name, data)
		} else {
			_, err = c.kv.Update(ctx, m.Name, data, rev)
		}
		if err == nil {
			return e, true, nil
		}
		if attempt == 3 || !(errors.Is(err, kv.ErrKeyExists) || errors.Is(err, kv.ErrRevisionChanged)) {
			return Entry{}, false, fmt.Errorf("catalog: adding %s: %w", m.Name, err)
		}
		// Another add of the same game came between the read and the write: read it again.
	}
}

// List is every added game's entry, by name.
func (c *Catalog) List(ctx context.Context) ([]Entry, error) {
	names, err := c.kv.Keys(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: listing: %w", err)
	}
	slices.Sort(names)
	var out []Entry
	for _, n := range names {
		e, _, err := c.entry(ctx, n)
		if errors.Is(err, ErrNotFound) {
			continue // removed meanwhile
		}
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// Remove takes the game name out of the catalog: no new match can be played of it. Its
// versions stay in the store, so that the replays they judged still re-judge.
func (c *Catalog) Remove(ctx context.Context, name string) (Entry, error) {
	e, _, err := c.entry(ctx, name)
	if err != nil {
		return Entry{}, err
	}
	if err := c.kv.Delete(ctx, name); err != nil {
		return Entry{}, fmt.Errorf("catalog: removing %s: %w", name, err)
	}
	return e, nil
}
