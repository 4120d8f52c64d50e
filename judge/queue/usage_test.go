package queue

import (
	"strings"
	"testing"
	"time"
)

// Usage counts what each store holds: jobs waiting, results, live objects (a deleted one not
// counted though its marker stays in the stream), keys; and names the oldest message.
func TestUsage(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{StoreDir: t.TempDir()})
	ctx := testContext(t, 20*time.Second)
	before := time.Now().Add(-time.Second)
	submit(t, q, "j1", `{"id":"j1"}`)
	for _, id := range []string{"m1", "m2", "m3"} {
		if err := q.PublishResult(ctx, LaneMain, id, []byte(`{"id":"`+id+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	for _, key := range []string{"replays/m1.jsonl", "replays/m2.jsonl"} {
		if err := q.PutObject(ctx, BucketReplays, key, strings.NewReader(strings.Repeat("x", 1000))); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.objects[BucketReplays].Delete(ctx, "replays/m2.jsonl"); err != nil {
		t.Fatal(err)
	}
	kv, err := q.KeyValue(ctx, "portal")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(ctx, "k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	// A stream of another prefix is not the judge's to report.
	other := client(t, q.URL(), Options{Prefix: "other"})
	submit(t, other, "o1", `{"id":"o1"}`)

	got, err := q.Admin().Usage(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		store string
		count uint64
	}{{"jobs", 1}, {"results", 3}, {"artifacts", 0}, {"replays", 1}, {"images", 0}, {"sources", 0}, {"games", 0}, {"kv/portal", 1}}
	if len(got) != len(want) {
		t.Fatalf("Usage: %d stores, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		u := got[i]
		if u.Store != w.store || u.Count != w.count {
			t.Errorf("store %d: %s holding %d, want %s holding %d", i, u.Store, u.Count, w.store, w.count)
		}
		if w.count > 0 && (u.Bytes == 0 || u.Oldest.Before(before) || u.Oldest.After(time.Now())) {
			t.Errorf("%s: %d bytes, oldest %v: want bytes and an oldest message of this test", u.Store, u.Bytes, u.Oldest)
		}
		if w.store == "artifacts" && (u.Bytes != 0 || !u.Oldest.IsZero()) {
			t.Errorf("empty %s: %d bytes, oldest %v", u.Store, u.Bytes, u.Oldest)
		}
	}
	if got[3].Bytes < 1000 {
		t.Errorf("replays: %d bytes, want the live object's 1000 at least", got[3].Bytes)
	}
	cheap, err := q.Admin().Usage(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	if cheap[3].Store != "replays" || cheap[3].Kind != "objects" || cheap[3].Count != 0 || cheap[3].Bytes != got[3].Bytes {
		t.Errorf("replays not counted: %+v; counted: %+v", cheap[3], got[3])
	}
}
