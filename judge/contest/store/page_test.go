package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
)

// season is a contest's matches as they come: alice's test matches, validations, ladder
// matches of alice and bob, a round's; ids say whose and what (a: alice's test, l: ladder).
type season struct {
	t     *testing.T
	s     *store.Store
	added []store.Match // in the order stored
	n     int
}

func (se *season) add(kind string) store.Match {
	se.t.Helper()
	se.n++
	m := store.Match{Contest: "c", Kind: kind}
	switch kind {
	case store.KindTest:
		m.ID, m.Owner, m.Seats = fmt.Sprintf("t%d", se.n), "alice", []store.Seat{{Login: "alice"}, {House: "easy"}}
	case store.KindValidation:
		m.ID, m.Owner, m.Seats = fmt.Sprintf("s%dv", se.n), "bob", []store.Seat{{Login: "bob"}, {House: "easy"}}
	case store.KindLadder:
		m.ID, m.Seats = fmt.Sprintf("l%d", se.n), []store.Seat{{Login: "bob"}, {Login: "alice"}}
	case store.KindRound:
		m.ID, m.Seats = fmt.Sprintf("c-t1-r%d", se.n), []store.Seat{{Login: "alice"}, {Login: "bob"}, {Login: "carol"}}
	}
	m, err := se.s.AddMatch(se.t.Context(), m)
	if err != nil {
		se.t.Fatal(err)
	}
	se.added = append(se.added, m)
	return m
}

// want is what list shows of the matches stored so far, newest first.
func (se *season) want(login, kind string) []string {
	var out []string
	for _, m := range slices.Backward(se.added) {
		if (kind == "" || m.Kind == kind) && (login == "*" || slices.Contains(m.Readers(), login)) {
			out = append(out, m.ID)
		}
	}
	return out
}

func ids(ms []store.Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

// Paging through a list gives each of its matches once, newest first, while matches keep
// coming: those that come after the first page are on none of the older pages.
func TestMatchPages(t *testing.T) {
	s := open(t)
	se := &season{t: t, s: s}
	kinds := []string{store.KindTest, store.KindLadder, store.KindValidation, store.KindLadder, store.KindRound, store.KindTest}
	for i := range 40 {
		se.add(kinds[i%len(kinds)])
	}
	for _, tc := range []struct {
		login, kind string
		limit       int
	}{
		{"alice", "", 3}, {"alice", "", 100}, {"bob", "", 4}, {"*", "", 7}, {"alice", store.KindTest, 2},
		{"*", store.KindLadder, 5}, {"bob", store.KindValidation, 1}, {"carol", "", 2}, {"carol", store.KindTest, 3}, {"dave", "", 3},
	} {
		want := se.want(tc.login, tc.kind)
		var got []string
		var cur store.Cursor
		for pages := 0; ; pages++ {
			if pages > 200 {
				t.Fatalf("%s %q: no last page in 200", tc.login, tc.kind)
			}
			p, err := s.MatchPage(t.Context(), "c", tc.login, store.List{Kind: tc.kind, Cursor: cur, Limit: tc.limit})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Items) > tc.limit || (p.Older != (store.Cursor{}) && len(p.Items) != tc.limit) {
				t.Errorf("%s %q: a page of %d, limit %d", tc.login, tc.kind, len(p.Items), tc.limit)
			}
			if (pages == 0) != (p.Newer == store.Cursor{}) {
				t.Errorf("%s %q: page %d's newer cursor is %+v", tc.login, tc.kind, pages, p.Newer)
			}
			got = append(got, ids(p.Items)...)
			se.add(kinds[pages%len(kinds)]) // between pages
			if p.Older == (store.Cursor{}) {
				break
			}
			cur = p.Older
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s %q by %d:\n got %v\nwant %v", tc.login, tc.kind, tc.limit, got, want)
		}
	}
	if _, err := s.MatchPage(t.Context(), "c", "alice", store.List{Kind: "friendly"}); err == nil {
		t.Error("a kind that is none")
	}
	for _, login := range []string{">", "alice.*", "a b"} {
		if _, err := s.MatchPage(t.Context(), "c", login, store.List{}); err == nil {
			t.Errorf("the list of %q", login)
		}
	}
}

// A Newer cursor leads back: the page before, or the newest page, full, when fewer than a
// page are newer.
func TestNewerPages(t *testing.T) {
	s := open(t)
	se := &season{t: t, s: s}
	for range 10 {
		se.add(store.KindTest)
	}
	list := func(cur store.Cursor) store.Page[store.Match] {
		p, err := s.MatchPage(t.Context(), "c", "alice", store.List{Cursor: cur, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	first := list(store.Cursor{})
	second := list(first.Older)
	third := list(second.Older)
	if back := list(third.Newer); fmt.Sprint(ids(back.Items)) != fmt.Sprint(ids(second.Items)) || back.Older != second.Older {
		t.Errorf("back from the third page: %v, want %v", ids(back.Items), ids(second.Items))
	}
	// A page of newer ones, and no more: the newest page.
	if back := list(second.Newer); fmt.Sprint(ids(back.Items)) != fmt.Sprint(ids(first.Items)) || back.Newer != (store.Cursor{}) {
		t.Errorf("back from the second page: %v %+v, want the newest %v", ids(back.Items), back.Newer, ids(first.Items))
	}
	// Two more since: the page above the second is no longer the newest.
	se.add(store.KindTest)
	se.add(store.KindTest)
	if back := list(second.Newer); fmt.Sprint(ids(back.Items)) != fmt.Sprint(ids(first.Items)) || back.Newer == (store.Cursor{}) {
		t.Errorf("back from the second page: %v %+v, want %v and a newer page", ids(back.Items), back.Newer, ids(first.Items))
	}
	if newest := list(store.Cursor{}); fmt.Sprint(ids(newest.Items)) != fmt.Sprint(se.want("alice", "")[:3]) {
		t.Errorf("the newest page: %v, want %v", ids(newest.Items), se.want("alice", "")[:3])
	}
}

// A cursor is only a place: made up to point among another contestant's matches, it still
// gives only the caller's own; one the store did not make is refused.
func TestCursorsRevealNothing(t *testing.T) {
	s := open(t)
	se := &season{t: t, s: s}
	for range 5 {
		se.add(store.KindValidation) // bob's
		se.add(store.KindTest)       // alice's
	}
	for seq := uint64(1); seq < 80; seq++ {
		for _, cur := range []store.Cursor{{Seq: seq}, {Seq: seq, Newer: true}} {
			parsed, err := store.ParseCursor(cur.String())
			if err != nil || parsed != cur {
				t.Fatalf("%+v: read back as %+v, %v", cur, parsed, err)
			}
			p, err := s.MatchPage(t.Context(), "c", "alice", store.List{Cursor: parsed, Limit: 2})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range p.Items {
				if !slices.Contains(m.Readers(), "alice") {
					t.Errorf("cursor %+v gives alice %s, bob's", cur, m.ID)
				}
			}
		}
	}
	for _, bad := range []string{"x", "!!", "MW8", "MXgxMg", "Mm8xMg", "MW8tMQ", "MW8xMg==", "MW4"} {
		if _, err := store.ParseCursor(bad); err == nil {
			t.Errorf("cursor %q is taken", bad)
		}
	}
}

// A season in progress has its matches listed under the legacy keys: they are read beside
// the new ones, each match once, in each list it belongs to, by kind too.
func TestLegacyIndexKeys(t *testing.T) {
	s, kv := openKV(t)
	ctx := t.Context()
	se := &season{t: t, s: s}
	legacy := func(m store.Match) {
		data, _ := json.Marshal(m)
		if _, err := kv.Create(ctx, "match."+m.ID, data); err != nil {
			t.Fatal(err)
		}
		for _, login := range m.Readers() {
			if _, err := kv.Create(ctx, "own.c."+login+".m."+m.ID, []byte(`"`+m.ID+`"`)); err != nil {
				t.Fatal(err)
			}
		}
		se.added = append(se.added, m)
	}
	for i := range 6 {
		legacy(store.Match{ID: fmt.Sprintf("old-t%d", i), Contest: "c", Kind: store.KindTest, Owner: "alice"})
		legacy(store.Match{ID: fmt.Sprintf("old-l%d", i), Contest: "c", Kind: store.KindLadder, Seats: []store.Seat{{Login: "bob"}, {Login: "alice"}}})
	}
	// A portal stores one of them again (a ladder match queued again): listed anew too.
	if _, err := s.AddMatch(ctx, se.added[3]); err != nil && !strings.Contains(err.Error(), "exists") {
		t.Fatal(err)
	}
	for range 5 {
		se.add(store.KindTest)
		se.add(store.KindLadder)
	}
	for _, tc := range []struct{ login, kind string }{{"alice", ""}, {"bob", ""}, {"*", ""}, {"alice", store.KindTest}, {"*", store.KindLadder}, {"bob", store.KindTest}} {
		var got []string
		var cur store.Cursor
		for pages := 0; ; pages++ {
			if pages > 200 {
				t.Fatalf("%s %q: no last page in 200", tc.login, tc.kind)
			}
			p, err := s.MatchPage(ctx, "c", tc.login, store.List{Kind: tc.kind, Cursor: cur, Limit: 4})
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, ids(p.Items)...)
			if cur = p.Older; cur == (store.Cursor{}) {
				break
			}
		}
		// The match stored again is listed where its new keys are: with the new ones.
		want := se.want(tc.login, tc.kind)
		if i := slices.Index(want, "old-l1"); i >= 0 {
			want = slices.Delete(want, i, i+1)
			want = slices.Insert(want, slices.IndexFunc(want, func(id string) bool { return strings.HasPrefix(id, "old-") }), "old-l1")
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s %q:\n got %v\nwant %v", tc.login, tc.kind, got, want)
		}
	}
}

// Versions page as matches do.
func TestSubmissionPages(t *testing.T) {
	s, ctx := open(t), context.Background()
	s.CreateContest(ctx, store.Contest{Name: "c", Game: "amazes"})
	s.AddUser(ctx, "c", "a", false)
	s.AddUser(ctx, "c", "b", false)
	var want []string
	for i := range 9 {
		sub, err := s.AddSubmission(ctx, store.Submission{Contest: "c", Login: []string{"a", "b", "a"}[i%3], Lang: "cpp"})
		if err != nil {
			t.Fatal(err)
		}
		want = append([]string{sub.ID}, want...)
	}
	var got []string
	var cur store.Cursor
	for pages := 0; ; pages++ {
		if pages > 200 {
			t.Fatal("no last page in 200")
		}
		p, err := s.SubmissionPage(ctx, "c", "*", store.List{Cursor: cur, Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, sub := range p.Items {
			got = append(got, sub.ID)
		}
		if cur = p.Older; cur == (store.Cursor{}) {
			break
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("everyone's versions:\n got %v\nwant %v", got, want)
	}
}

// Lists are held in each portal's memory: another portal's matches and people come into
// them as they are stored, and expired matches go from them, leaving full pages.
func TestListsAcrossPortalsAndExpiry(t *testing.T) {
	q, err := queue.Open(t.Context(), queue.Options{StoreDir: t.TempDir(), InProcess: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	kv, err := q.KeyValue(t.Context(), "portal")
	if err != nil {
		t.Fatal(err)
	}
	ctx, one, other := t.Context(), store.New(kv), store.New(kv)
	one.CreateContest(ctx, store.Contest{Name: "c", Game: "amazes"})
	if _, err := one.AddUser(ctx, "c", "alice", false); err != nil {
		t.Fatal(err)
	}
	se := &season{t: t, s: one}
	for range 6 {
		se.add(store.KindTest)
	}
	if p, err := one.MatchPage(ctx, "c", "alice", store.List{Limit: 10}); err != nil || len(p.Items) != 6 {
		t.Fatalf("alice's matches: %d, %v", len(p.Items), err)
	}
	// Another portal stores a match and adds a person: the first sees them soon.
	m, err := other.AddMatch(ctx, store.Match{Contest: "c", Kind: store.KindTest, Owner: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.AddUser(ctx, "c", "bob", false); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		p, _ := one.MatchPage(ctx, "c", "alice", store.List{Limit: 1})
		us, _ := one.Users(ctx, "c")
		if len(p.Items) == 1 && p.Items[0].ID == m.ID && len(us) == 2 && us[1].Login == "bob" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("another portal's match and person are not seen: %v, %d people", ids(p.Items), len(us))
		}
	}
	se.added = append(se.added, m)
	// The oldest three played and expired with their keys: gone, and the pages full.
	for _, old := range se.added[:3] {
		if _, err := one.UpdateMatch(ctx, old.ID, func(m *store.Match) error { m.Result = &result.Result{ID: m.ID}; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if ex, err := q.Admin().ExpireKeys(ctx, "portal", store.MatchKeys, time.Now().Add(time.Hour), false, store.ExpirableMatch); err != nil || ex.Count != 3 {
		t.Fatalf("expiring: %+v %v", ex, err)
	}
	want := se.want("alice", "")[:4]
	for _, list := range []string{"alice", "*"} {
		var got []string
		var cur store.Cursor
		for pages := 0; ; pages++ {
			if pages > 200 {
				t.Fatalf("%s: no last page in 200", list)
			}
			p, err := one.MatchPage(ctx, "c", list, store.List{Cursor: cur, Limit: 2})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Items) != 2 && p.Older != (store.Cursor{}) {
				t.Errorf("%s: a page of %d before the last", list, len(p.Items))
			}
			got = append(got, ids(p.Items)...)
			if cur = p.Older; cur == (store.Cursor{}) {
				break
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s after the expiry: %v, want %v", list, got, want)
		}
	}
	// Closed, a store lists again with a watcher of its own, from the start.
	one.Close()
	if p, err := one.MatchPage(ctx, "c", "alice", store.List{Limit: 10}); err != nil || fmt.Sprint(ids(p.Items)) != fmt.Sprint(want) {
		t.Errorf("after Close: %v, %v; want %v", ids(p.Items), err, want)
	}
}
