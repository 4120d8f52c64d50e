package queue

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// The entries of a bucket go once older than the cut-off and picked, with the keys named
// beside them, and leave no marker; a revision written after the read stays; the next call
// starts where this one stopped; several at once are no error.
func TestExpireKeys(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	ctx := testContext(t, 30*time.Second)
	kv, err := q.KeyValue(ctx, "kvtest")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := q.js.KeyValue(ctx, "judge-kvtest") // with its history, which Bucket does not show
	if err != nil {
		t.Fatal(err)
	}
	put := func(key, value string) {
		t.Helper()
		if _, err := kv.Put(ctx, key, []byte(value)); err != nil {
			t.Fatal(err)
		}
	}
	put("idx.a", "a") // an index of old.a, written before it
	put("old.a", "drop")
	put("old.b", "keep")
	put("old.c", "drop")
	put("gone.x", "x")
	if err := kv.Delete(ctx, "gone.x"); err != nil { // a marker, old
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	cut := time.Now()
	time.Sleep(10 * time.Millisecond)
	put("old.d", "drop") // young
	var picked []string
	pick := func(key string, value []byte) (bool, []string) {
		picked = append(picked, key)
		if key == "old.a" {
			return true, []string{"idx.a"}
		}
		return string(value) == "drop", nil
	}
	// held: every message the bucket's stream holds, markers included, as key or key (op).
	held := func() []string {
		t.Helper()
		w, err := raw.WatchAll(ctx, jetstream.IncludeHistory())
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		var out []string
		for e := range w.Updates() {
			if e == nil {
				break
			}
			s := e.Key()
			if e.Operation() != jetstream.KeyValuePut {
				s += " (" + e.Operation().String() + ")"
			}
			out = append(out, s)
		}
		slices.Sort(out)
		return out
	}
	all := "[gone.x (KeyValueDeleteOp) idx.a old.a old.b old.c old.d]"
	size := uint64(len("$KV.judge-kvtest.old.a") + len("drop") + len("$KV.judge-kvtest.old.c") + len("drop"))
	if ex, err := q.Admin().ExpireKeys(ctx, "kvtest", "old.*", cut, true, pick); err != nil || ex.Count != 2 || ex.Bytes != size || fmt.Sprint(held()) != all {
		t.Errorf("dry run: %+v, %v, %v held; want 2 (%d B), all held", ex, err, held(), size)
	}
	if want := "[old.a old.b old.c]"; fmt.Sprint(picked) != want {
		t.Errorf("picked %v; want %s (not the young one)", picked, want)
	}
	if ex, err := q.Admin().ExpireKeys(ctx, "kvtest", "old.*", cut, false, pick); err != nil || ex.Count != 2 || ex.Bytes != size {
		t.Errorf("expired %+v, %v; want old.a and old.c (%d B)", ex, err, size)
	}
	if got, want := fmt.Sprint(held()), "[gone.x (KeyValueDeleteOp) old.b old.d]"; got != want {
		t.Errorf("after expiring: %s held; want %s (no marker for what went)", got, want)
	}
	// Markers go by age under their filter, with no pick.
	picked = nil
	if ex, err := q.Admin().ExpireKeys(ctx, "kvtest", "gone.*", cut, false, pick); err != nil || ex.Count != 0 || picked != nil {
		t.Errorf("the markers: %+v, %v, picked %v; want none counted or picked", ex, err, picked)
	}
	if got, want := fmt.Sprint(held()), "[old.b old.d]"; got != want {
		t.Errorf("after the markers: %s held; want %s", got, want)
	}
	// The next call starts after old.b, which is kept, and reads old.d only.
	picked = nil
	if ex, err := q.Admin().ExpireKeys(ctx, "kvtest", "old.*", time.Now().Add(time.Hour), false, pick); err != nil || ex.Count != 1 {
		t.Errorf("the next clean-up: %+v, %v; want old.d", ex, err)
	}
	if want := "[old.d]"; fmt.Sprint(picked) != want {
		t.Errorf("the next clean-up picked %v; want %s", picked, want)
	}
	// old.b written again is read again.
	put("old.b", "drop")
	if ex, err := q.Admin().ExpireKeys(ctx, "kvtest", "old.*", time.Now().Add(time.Hour), false, pick); err != nil || ex.Count != 1 {
		t.Errorf("old.b written again: %+v, %v; want it expired", ex, err)
	}
	if got := held(); len(got) != 0 {
		t.Errorf("in the end: %v held; want none", got)
	}

	// A revision written after the clean-up read the entry stays.
	put("old.e", "drop")
	race := func(key string, value []byte) (bool, []string) {
		put("old.e", "new")
		return true, nil
	}
	if _, err := q.Admin().ExpireKeys(ctx, "kvtest", "old.*", time.Now().Add(time.Hour), false, race); err != nil {
		t.Fatal(err)
	}
	if e, err := kv.Get(ctx, "old.e"); err != nil || string(e.Value) != "new" {
		t.Errorf("the revision written meanwhile: %v; want it kept", err)
	}

	// Two clean-ups at once, each beaten to some entries by the other.
	const n = 200
	for i := range n {
		put(fmt.Sprintf("many.%03d", i), "drop")
	}
	other := client(t, q.URL(), Options{})
	var both sync.WaitGroup
	counts := make([]int, 2)
	for i, judge := range []*Queue{q, other} {
		both.Go(func() {
			ex, err := judge.Admin().ExpireKeys(ctx, "kvtest", "many.*", time.Now().Add(time.Hour), false,
				func(string, []byte) (bool, []string) { return true, nil })
			if err != nil {
				t.Errorf("clean-up %d beside another: %v", i, err)
			}
			counts[i] = ex.Count
		})
	}
	both.Wait()
	if counts[0]+counts[1] < n {
		t.Errorf("the two clean-ups expired %v of %d", counts, n)
	}
	if got := held(); strings.Contains(fmt.Sprint(got), "many.") {
		t.Errorf("left after both: %v", got)
	}

	// A bucket never made holds nothing to expire; a read-only client expires nothing.
	if ex, err := q.Admin().ExpireKeys(ctx, "nobucket", ">", time.Now(), false, pick); err != nil || ex.Count != 0 {
		t.Errorf("no bucket: %+v, %v", ex, err)
	}
	if _, err := q.Admin().ExpireKeys(ctx, "no.bucket>", ">", time.Now(), false, pick); err == nil || !strings.Contains(err.Error(), `bucket "no.bucket>"`) {
		t.Errorf("a bucket's name that is no name: %v", err)
	}
	ro := client(t, q.URL(), Options{ReadOnly: true})
	if _, err := ro.Admin().ExpireKeys(ctx, "kvtest", ">", time.Now(), false, pick); err == nil {
		t.Error("a read-only client expired keys")
	}
	// A key named beside an entry that is no key is an error, not a purge of a wildcard.
	put("old.f", "drop")
	if _, err := q.Admin().ExpireKeys(ctx, "kvtest", "old.*", time.Now().Add(time.Hour), false,
		func(string, []byte) (bool, []string) { return true, []string{"idx.>"} }); err == nil || !strings.Contains(err.Error(), `"idx.>" is not a key`) {
		t.Errorf("a wildcard beside: %v", err)
	}
}
