package store

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The lists' index keys, held in memory in each portal and kept up to date by one watcher
// of the bucket (an ordered consumer on the index keys' subjects), so that a page finds its
// place by a binary search and reads only the records it shows.
//
// Why not ask the bucket for each page: every consumer the server makes counts what its
// filter has pending, and for a key-value bucket it counts by walking every subject under
// the filter - 80 ms for everyone's list of 100,000 matches, whatever the window asked for.
// Listing the keys (ListKeysFiltered) is that and more. One watcher pays it once, when the
// portal first lists anything; then each new key costs the portal a few bytes.
//
// A portal sees its own writes at once (a list waits until the watcher has delivered the
// last index key the store wrote), another portal's as soon as the watcher delivers them.
// Index keys purged with their expired match leave no trace the watcher sees: the first
// page that finds such an entry's record gone drops the entry.

// indexed is an index key as a list holds it.
type indexed struct {
	seq   uint64
	id    string // the match's or submission's
	kind  string // a match's, from its key; "" for a legacy key and a submission
	login string // whose list the key is in: a legacy key found in everyone's list
}

// memIndex is every list of every contest: by listName, in the order of the keys'
// revisions. A list only grows at its end (the watcher delivers in order), so a reader
// may keep walking a slice it took while the list grows.
type memIndex struct {
	mu    sync.Mutex
	lists map[string][]indexed
	users map[string]map[string]bool // each contest's logins
	gone  map[uint64]bool            // entries whose record was found gone
	seen  uint64                     // the last revision delivered
	tick  chan struct{}              // closed, and made anew, at each delivery
	ready chan struct{}              // closed once everything there was at the start is in
	dead  bool                       // the watcher stopped: the next list starts another
	err   error
	stop  func() // stops the watcher
}

// indexFilters are the index keys' subjects: matches' (legacy keys included), everyone's
// matches', submissions'; and the users', whose keys list a contest's people (listing them
// in a bucket of 100,000 matches scans all of it: 50 ms).
var indexFilters = []string{"own.*.*.m.>", "all.*.m.*.*", "own.*.*.s.*", "user.*.*"}

// listName names a list: matches ("m") or submissions ("s") of login ("*" everyone's) in
// contest.
func listName(what, contest, login string) string { return what + " " + contest + " " + login }

// index is the store's index, started (and loaded) on first use.
func (s *Store) index(ctx context.Context) (*memIndex, error) {
	s.idxMu.Lock()
	idx := s.idx
	if idx == nil || idx.dead {
		idx = &memIndex{lists: map[string][]indexed{}, users: map[string]map[string]bool{}, gone: map[uint64]bool{}, tick: make(chan struct{}), ready: make(chan struct{})}
		s.idx = idx
		go s.follow(idx)
	}
	s.idxMu.Unlock()
	select {
	case <-idx.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if idx.err != nil {
		return nil, idx.err
	}
	// What this store wrote last is in before the list is read: a portal sees its own
	// changes at once. Bounded: a key purged since it was written is never delivered.
	wctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	idx.waitFor(wctx, s.wrote.Load())
	return idx, ctx.Err()
}

// Warm starts the store's watcher of the lists and waits until it has loaded them: a
// portal's first page then need not wait for it (2 s for 100,000 matches).
func (s *Store) Warm(ctx context.Context) error {
	_, err := s.index(ctx)
	return err
}

// Close stops the store's watcher of the lists, if it started one; a list after starts
// another. A store that is dropped without it keeps its watcher as long as the connection.
func (s *Store) Close() {
	s.idxMu.Lock()
	idx := s.idx
	s.idxMu.Unlock()
	if idx == nil {
		return
	}
	idx.mu.Lock()
	stop := idx.stop
	idx.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// follow fills idx from a watcher of the index keys until the watcher stops.
func (s *Store) follow(idx *memIndex) {
	fail := func(err error) {
		idx.mu.Lock()
		idx.dead = true
		select {
		case <-idx.ready:
		default:
			idx.err = err
			close(idx.ready)
		}
		idx.mu.Unlock()
	}
	ctx := context.Background()
	last, err := s.kv.LastRevision(ctx)
	if err != nil {
		fail(fmt.Errorf("store: indexing the lists: %w", err))
		return
	}
	w, err := s.kv.Watch(ctx, indexFilters...)
	if err != nil {
		fail(fmt.Errorf("store: indexing the lists: %w", err))
		return
	}
	idx.mu.Lock()
	idx.stop = func() { w.Stop() }
	idx.mu.Unlock()
	defer w.Stop()
	for e := range w.Updates() {
		idx.mu.Lock()
		if e == nil { // everything there was at the start
			idx.seen = max(idx.seen, last)
			close(idx.ready)
		} else {
			idx.add(e.Key, e.Value, e.Revision, e.Deleted)
			idx.seen = max(idx.seen, e.Revision)
		}
		close(idx.tick)
		idx.tick = make(chan struct{})
		idx.mu.Unlock()
	}
	fail(fmt.Errorf("store: indexing the lists: the watcher stopped"))
}

// add puts an index key in its lists, or a user's login in its contest's, and forgets a
// user deleted; idx.mu is held. Index keys are never deleted (their purge leaves no marker).
func (idx *memIndex) add(key string, value []byte, seq uint64, deleted bool) {
	p := strings.Split(key, ".")
	if len(p) == 3 && p[0] == "user" {
		if idx.users[p[1]] == nil {
			idx.users[p[1]] = map[string]bool{}
		}
		if deleted {
			delete(idx.users[p[1]], p[2])
		} else {
			idx.users[p[1]][p[2]] = true
		}
		return
	}
	if deleted {
		return
	}
	put := func(list string, e indexed) {
		l := idx.lists[list]
		if n := len(l); n > 0 && l[n-1].seq >= seq {
			return // delivered again (a watcher that started over)
		}
		idx.lists[list] = append(l, e)
	}
	switch {
	case len(p) == 6 && p[0] == "own" && p[3] == "m": // own.C.L.m.KIND.ID
		put(listName("m", p[1], p[2]), indexed{seq: seq, id: p[5], kind: p[4]})
	case len(p) == 5 && p[0] == "all" && p[2] == "m": // all.C.m.KIND.ID
		put(listName("m", p[1], "*"), indexed{seq: seq, id: p[4], kind: p[3]})
	case len(p) == 5 && p[0] == "own" && p[3] == "m": // legacy: own.C.L.m.ID, in both
		put(listName("m", p[1], p[2]), indexed{seq: seq, id: p[4], login: p[2]})
		put(listName("m", p[1], "*"), indexed{seq: seq, id: p[4], login: p[2]})
	case len(p) == 5 && p[0] == "own" && p[3] == "s": // own.C.L.s.VERSION: the id is the value
		var id string
		if json.Unmarshal(value, &id) == nil {
			put(listName("s", p[1], p[2]), indexed{seq: seq, id: id, login: p[2]})
			put(listName("s", p[1], "*"), indexed{seq: seq, id: id, login: p[2]})
		}
	}
}

// waitFor waits until the watcher has delivered revision seq, or ctx is done.
func (idx *memIndex) waitFor(ctx context.Context, seq uint64) {
	for {
		idx.mu.Lock()
		seen, tick := idx.seen, idx.tick
		idx.mu.Unlock()
		if seen >= seq {
			return
		}
		select {
		case <-tick:
		case <-ctx.Done():
			return
		}
	}
}

// list is a list as it is now; the caller may walk it while it grows.
func (idx *memIndex) list(name string) []indexed {
	idx.mu.Lock()
	defer idx.mu.Unlock()
	return idx.lists[name]
}

// logins are a contest's users' logins, sorted.
func (idx *memIndex) logins(contest string) []string {
	idx.mu.Lock()
	defer idx.mu.Unlock()
	return slices.Sorted(maps.Keys(idx.users[contest]))
}

// drop forgets an entry whose record is gone (an expired match: its keys go first).
func (idx *memIndex) drop(seq uint64) {
	idx.mu.Lock()
	idx.gone[seq] = true
	idx.mu.Unlock()
}

func (idx *memIndex) isGone(seq uint64) bool {
	idx.mu.Lock()
	defer idx.mu.Unlock()
	return idx.gone[seq]
}

// walk visits the entries of list from cur on - newest first, or oldest first after a Newer
// cursor - of kind ("" any; a legacy key's kind is its record's, for visit to check), until
// visit says to stop.
func (s *Store) walk(ctx context.Context, list, kind string, cur Cursor, visit func(*memIndex, indexed) (bool, error)) error {
	idx, err := s.index(ctx)
	if err != nil {
		return err
	}
	l := idx.list(list)
	// The first entry after the cursor's place.
	at := sort.Search(len(l), func(i int) bool { return l[i].seq > cur.Seq })
	step, i := 1, at
	if !cur.Newer {
		step, i = -1, len(l)-1
		if cur.Seq > 0 {
			i = sort.Search(len(l), func(i int) bool { return l[i].seq >= cur.Seq }) - 1
		}
	}
	for ; i >= 0 && i < len(l); i += step {
		e := l[i]
		if (kind != "" && e.kind != "" && e.kind != kind) || idx.isGone(e.seq) {
			continue
		}
		if more, err := visit(idx, e); err != nil || !more {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// wroteIndex notes that the store wrote an index key (or a user) at revision rev: its lists
// wait for it.
func (s *Store) wroteIndex(rev uint64) {
	for {
		was := s.wrote.Load()
		if rev <= was || s.wrote.CompareAndSwap(was, rev) {
			return
		}
	}
}

// indexState is the store's part of the index: set up by index, guarded by idxMu.
type indexState struct {
	idxMu sync.Mutex
	idx   *memIndex
	wrote atomic.Uint64
}
