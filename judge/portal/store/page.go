package store

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/nats-io/nats.go/jetstream"
)

// Lists are paged by the bucket's own order: every index key is created once and never
// written again, so its revision (the stream sequence of its one message) says when it was
// listed, and a key listed later always has a higher one. A page is "the newest N below
// revision R": matches listed meanwhile land above R and neither shift nor repeat the pages
// that follow. A page reads only the index keys near it (a window of the stream, widened
// until the page is full) and the records it shows, never the whole list: a KV listing
// (ListKeysFiltered) reads every key under its filter, however few a page shows.

// ErrBadCursor is a cursor the store did not make.
var ErrBadCursor = errors.New("bad cursor")

// Cursor is a place in a list: the items listed before it (older), or with Newer those
// listed after it. The zero Cursor is the newest page.
type Cursor struct {
	Seq   uint64
	Newer bool
}

// String is the cursor as the API and pages pass it: opaque, "" for the zero one.
func (c Cursor) String() string {
	if c == (Cursor{}) {
		return ""
	}
	dir := "o"
	if c.Newer {
		dir = "n"
	}
	return base64.RawURLEncoding.EncodeToString([]byte("1" + dir + strconv.FormatUint(c.Seq, 10)))
}

// ParseCursor reads a cursor String made; "" is the zero one.
func ParseCursor(s string) (Cursor, error) {
	if s == "" {
		return Cursor{}, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 3 || b[0] != '1' || (b[1] != 'o' && b[1] != 'n') {
		return Cursor{}, ErrBadCursor
	}
	n, err := strconv.ParseUint(string(b[2:]), 10, 64)
	if err != nil || (n == 0 && b[1] == 'o') {
		return Cursor{}, ErrBadCursor
	}
	return Cursor{Seq: n, Newer: b[1] == 'n'}, nil
}

// List asks for one page of a list.
type List struct {
	// Kind keeps the matches of one kind (KindTest...); "" keeps every kind. Submissions
	// have none.
	Kind   string
	Cursor Cursor
	// Limit is the most items on the page; 0 or less: no limit.
	Limit int
}

// Page is one page of a list, newest first, and the cursors to the pages beside it: Older
// is zero when there is nothing older, Newer when this is the newest page.
type Page[T any] struct {
	Items []T
	Older Cursor
	Newer Cursor
}

// entry is an index key as the stream holds it.
type entry struct {
	key   string
	value []byte
	seq   uint64
}

// firstWindow is how many of the stream's messages the first look at a list's newest items
// covers; each further look covers 4 times the last. A match is 3 to 8 messages (its record,
// its result, its index keys), so a busy list fills a page in the first look, and one that
// is hardly ever listed is found in a few.
const firstWindow = 1024

// resolver turns an index entry into its item; false skips it (its record is gone, or it
// is not of the list). A page makes a resolver of its own, since one may remember what it
// saw.
type resolver[T any] func(ctx context.Context, e entry) (T, bool, error)

// page is the page of the list under filters that l asks for.
func page[T any](ctx context.Context, s *Store, filters []string, l List, newResolver func() resolver[T]) (Page[T], error) {
	var p Page[T]
	limit := l.Limit
	if limit <= 0 {
		limit = math.MaxInt - 1
	}
	resolve := newResolver()
	var seqs []uint64
	err := s.walk(ctx, filters, l.Cursor, func(e entry) (bool, error) {
		v, ok, err := resolve(ctx, e)
		if err != nil {
			return false, err
		}
		if ok {
			p.Items, seqs = append(p.Items, v), append(seqs, e.seq)
		}
		return len(p.Items) <= limit, nil // one more than shown: whether there is another page
	})
	if err != nil {
		return p, err
	}
	if l.Cursor.Newer {
		if len(p.Items) <= limit { // nothing newer than these: the newest page, full
			return page(ctx, s, filters, List{Kind: l.Kind, Limit: l.Limit}, newResolver)
		}
		p.Items, seqs = p.Items[:limit], seqs[:limit]
		slices.Reverse(p.Items)
		slices.Reverse(seqs)
		p.Newer, p.Older = Cursor{Seq: seqs[0], Newer: true}, Cursor{Seq: seqs[len(seqs)-1]}
		return p, nil
	}
	if l.Cursor.Seq > 0 {
		p.Newer = Cursor{Seq: l.Cursor.Seq - 1, Newer: true}
		if len(seqs) > 0 {
			p.Newer.Seq = seqs[0]
		}
	}
	if len(p.Items) > limit {
		p.Items, p.Older = p.Items[:limit], Cursor{Seq: seqs[limit-1]}
	}
	return p, nil
}

// walk visits the entries under filters from cur on - newest first, or oldest first after a
// Newer cursor - until visit says to stop.
func (s *Store) walk(ctx context.Context, filters []string, cur Cursor, visit func(entry) (bool, error)) error {
	if cur.Newer {
		return s.scan(ctx, filters, cur.Seq+1, 0, visit)
	}
	st, err := s.kv.Status(ctx)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	bs, ok := st.(*jetstream.KeyValueBucketStatus)
	if !ok {
		return fmt.Errorf("store: the bucket's status does not say its stream's sequences")
	}
	state := bs.StreamInfo().State
	first, hi := max(state.FirstSeq, 1), state.LastSeq+1
	if cur.Seq > 0 && cur.Seq < hi {
		hi = cur.Seq
	}
	for w := uint64(firstWindow); hi > first; w *= 4 {
		lo := first
		if hi-first > w {
			lo = hi - w
		}
		var window []entry
		if err := s.scan(ctx, filters, lo, hi, func(e entry) (bool, error) {
			window = append(window, e)
			return true, nil
		}); err != nil {
			return err
		}
		for i := len(window) - 1; i >= 0; i-- {
			if more, err := visit(window[i]); err != nil || !more {
				return err
			}
		}
		hi = lo
	}
	return nil
}

// scan visits the entries under filters from revision from up to (not including) to, 0 for
// no end, in their order, until visit says to stop.
func (s *Store) scan(ctx context.Context, filters []string, from, to uint64, visit func(entry) (bool, error)) error {
	// WatchFiltered writes the bucket's prefix into the filters it is given.
	w, err := s.kv.WatchFiltered(ctx, slices.Clone(filters), jetstream.ResumeFromRevision(max(from, 1)),
		jetstream.IncludeHistory(), jetstream.IgnoreDeletes())
	if err != nil {
		return fmt.Errorf("store: listing %v: %w", filters, err)
	}
	defer func() {
		w.Stop()
		// The watcher's delivery blocks on a full channel: emptied, it sees the stop and
		// closes the channel, and nothing is left waiting.
		go func() {
			for range w.Updates() {
			}
		}()
	}()
	for {
		select {
		case e, ok := <-w.Updates():
			if !ok || e == nil || (to > 0 && e.Revision() >= to) { // nil: the stream's end
				return nil
			}
			if more, err := visit(entry{key: e.Key(), value: e.Value(), seq: e.Revision()}); err != nil || !more {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
