package store

import (
	"context"
	"encoding/base64"
	"errors"
	"math"
	"slices"
	"strconv"
)

// Lists are paged by the bucket's own order: every index key is created once and never
// written again, so its revision (the stream sequence of its one message) says when it was
// listed, and a key listed later always has a higher one. A page is "the newest N below
// revision R": matches listed meanwhile land above R and neither shift nor repeat the pages
// that follow. A page finds its place in the lists held in memory (index.go) and reads
// only the records it shows.

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

// resolver turns an index entry into its item; false skips it (its record is gone, or it
// is not of the list). A page makes a resolver of its own, since one may remember what it
// saw.
type resolver[T any] func(ctx context.Context, idx *memIndex, e indexed) (T, bool, error)

// page is the page of list that l asks for.
func page[T any](ctx context.Context, s *Store, list string, l List, newResolver func() resolver[T]) (Page[T], error) {
	var p Page[T]
	limit := l.Limit
	if limit <= 0 {
		limit = math.MaxInt - 1
	}
	resolve := newResolver()
	var seqs []uint64
	err := s.walk(ctx, list, l.Kind, l.Cursor, func(idx *memIndex, e indexed) (bool, error) {
		v, ok, err := resolve(ctx, idx, e)
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
			return page(ctx, s, list, List{Kind: l.Kind, Limit: l.Limit}, newResolver)
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
