package queue

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

func TestLaneOf(t *testing.T) {
	for _, tc := range []struct {
		subject string
		lane    Lane
		ok      bool
	}{
		{"judge.jobs", LaneMain, true},
		{"judge.jobs.low", LaneTest, true},
		{"judge.jobs.ladder", LaneLadder, true},
		{"contest-7.jobs.ladder", LaneLadder, true},
		{"judge.jobs.other", 0, false},
		{"judge.results.m1", 0, false},
		{"jobs.fake", 0, false},
		{"judge", 0, false},
		{"", 0, false},
	} {
		if lane, ok := LaneOf(tc.subject); lane != tc.lane || ok != tc.ok {
			t.Errorf("LaneOf(%q) = %v, %v; want %v, %v", tc.subject, lane, ok, tc.lane, tc.ok)
		}
	}
	for l, want := range map[Lane]string{LaneMain: "main", LaneTest: "test", LaneLadder: "ladder", lanes: "lane(3)"} {
		if l.String() != want {
			t.Errorf("lane %d is %q, want %q", int(l), l.String(), want)
		}
	}
}

// putReplay stores a replay of size bytes that records lane ("" records none, as an older
// judge stored them).
func putReplay(t *testing.T, q *Queue, key, lane string, size int) {
	t.Helper()
	var meta map[string]string
	if lane != "" {
		meta = map[string]string{MetaLane: lane}
	}
	if err := q.PutObjectMeta(testContext(t, 10*time.Second), BucketReplays, key, meta, strings.NewReader(strings.Repeat("x", size))); err != nil {
		t.Fatal(err)
	}
}

// replaysLeft are the names the replays bucket holds, delete markers included (as "name
// (deleted)").
func replaysLeft(t *testing.T, q *Queue) []string { return objectsLeft(t, q, BucketReplays) }

// objectsLeft are the names bucket holds, delete markers included.
func objectsLeft(t *testing.T, q *Queue, bucket string) []string {
	t.Helper()
	obs, err := q.objectStore(bucket, "-")
	if err != nil {
		t.Fatal(err)
	}
	infos, err := obs.List(testContext(t, 10*time.Second), jetstream.ListObjectsShowDeleted())
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, i := range infos {
		if i.Deleted {
			names = append(names, i.Name+" (deleted)")
		} else {
			names = append(names, i.Name)
		}
	}
	return names
}

// The replays of test and ladder matches go once older than the cut-off; the main lane's,
// those that record no lane, and fresh ones stay. A dry run counts the same and deletes
// nothing; the delete markers go with the replays.
func TestExpireReplays(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	ctx := testContext(t, 30*time.Second)
	before := time.Now().Add(-time.Second)
	replays := []struct {
		key, lane string
		size      int
		expires   bool
	}{
		{"round-1-1.jsonl", "main", 1000, false},
		{"t1.jsonl", "test", 2000, true},
		{"l1@2.jsonl", "ladder", 3000, true},
		{"older-judge.jsonl", "", 4000, false},
		{"odd.jsonl", "someday", 5000, false},
	}
	var want Expired
	for _, r := range replays {
		putReplay(t, q, r.key, r.lane, r.size)
		if r.expires {
			want.Count++
			want.Bytes += uint64(r.size)
		}
	}
	// Another bucket's objects are not replays, whatever they record.
	if err := q.PutObjectMeta(ctx, BucketArtifacts, "build-x", map[string]string{MetaLane: "ladder"}, strings.NewReader("bot")); err != nil {
		t.Fatal(err)
	}
	// A marker left by a clean-up cut short between the delete and the purge.
	putReplay(t, q, "cut-short.jsonl", "ladder", 100)
	if err := q.objects[BucketReplays].Delete(ctx, "cut-short.jsonl"); err != nil {
		t.Fatal(err)
	}
	future := time.Now().Add(time.Hour)

	gone := false // the old ones have been deleted
	for _, step := range []struct {
		name      string
		olderThan time.Time
		dryRun    bool
		want      Expired
	}{
		{"fresh, dry run", before, true, Expired{}},
		{"fresh", before, false, Expired{}},
		{"old, dry run", future, true, want},
		{"old", future, false, want},
		{"old, again", future, false, Expired{}},
	} {
		got, err := q.Admin().ExpireReplays(ctx, step.olderThan, step.dryRun)
		if err != nil || got != step.want {
			t.Fatalf("%s: %+v, %v; want %+v", step.name, got, err, step.want)
		}
		gone = gone || step.want.Count > 0 && !step.dryRun
		for _, r := range replays {
			has, err := q.HasObject(ctx, BucketReplays, r.key)
			if err != nil || has == (r.expires && gone) {
				t.Errorf("%s: %s (lane %q) is there: %v (%v)", step.name, r.key, r.lane, has, err)
			}
		}
	}
	left := replaysLeft(t, q)
	if len(left) != 3 || strings.Contains(fmt.Sprint(left), "deleted") {
		t.Errorf("the bucket holds %q; want the three replays kept and no delete marker", left)
	}
	if has, err := q.HasObject(ctx, BucketArtifacts, "build-x"); !has || err != nil {
		t.Errorf("the artifact is gone: %v", err)
	}
}

// Judges that clean up at once (each hour, on every machine) neither fail nor leave anything
// behind: a replay another deleted first is skipped.
func TestExpireReplaysAtOnce(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	const n = 30
	for i := range n {
		putReplay(t, q, fmt.Sprintf("l%d.jsonl", i), "ladder", 500)
	}
	putReplay(t, q, "round-1-1.jsonl", "main", 500)
	judges := []*Queue{q, client(t, q.URL(), Options{}), client(t, q.URL(), Options{})}
	future := time.Now().Add(time.Hour)
	var wg sync.WaitGroup
	got := make([]Expired, len(judges))
	errs := make([]error, len(judges))
	for i, j := range judges {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = j.Admin().ExpireReplays(context.Background(), future, false)
		}()
	}
	wg.Wait()
	total := 0
	for i := range judges {
		if errs[i] != nil {
			t.Errorf("judge %d: %v", i, errs[i])
		}
		total += got[i].Count
	}
	if total < n {
		t.Errorf("the judges expired %+v: %d in all, want at least %d", got, total, n)
	}
	if left := replaysLeft(t, q); len(left) != 1 || left[0] != "round-1-1.jsonl" {
		t.Errorf("the bucket holds %q; want only the main lane's replay", left)
	}
}

func TestExpireReplaysReadOnly(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	putReplay(t, q, "t1.jsonl", "test", 10)
	dir := q.StoreDir()
	q.Close()
	ro, err := Open(testContext(t, 30*time.Second), Options{StoreDir: dir, InProcess: true, ReadOnly: true, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	future := time.Now().Add(time.Hour)
	if got, err := ro.Admin().ExpireReplays(t.Context(), future, true); err != nil || got.Count != 1 {
		t.Errorf("a dry run of a store read-only: %+v, %v", got, err)
	}
	if _, err := ro.Admin().ExpireReplays(t.Context(), future, false); !errors.Is(err, ErrReadOnly) {
		t.Errorf("deleting from a store read-only: %v, want %v", err, ErrReadOnly)
	}
}

// The shared cache's compiled bots go once older than the cut-off, markers and all; the
// replays stay.
func TestExpireArtifacts(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	ctx := testContext(t, 30*time.Second)
	for _, key := range []string{"a1", "a2"} {
		if err := q.PutObject(ctx, BucketArtifacts, key, strings.NewReader(strings.Repeat("b", 1000))); err != nil {
			t.Fatal(err)
		}
	}
	putReplay(t, q, "t1.jsonl", "test", 10)
	if ex, err := q.Admin().ExpireArtifacts(ctx, time.Now().Add(-time.Hour), false); err != nil || ex.Count != 0 {
		t.Errorf("expiring artifacts older than an hour: %+v, %v; want none", ex, err)
	}
	if ex, err := q.Admin().ExpireArtifacts(ctx, time.Now().Add(time.Hour), true); err != nil || ex.Count != 2 || ex.Bytes != 2000 {
		t.Errorf("a dry run: %+v, %v; want 2 of 2000 bytes", ex, err)
	}
	if left := objectsLeft(t, q, BucketArtifacts); len(left) != 2 {
		t.Errorf("after a dry run: %v", left)
	}
	if ex, err := q.Admin().ExpireArtifacts(ctx, time.Now().Add(time.Hour), false); err != nil || ex.Count != 2 {
		t.Errorf("expiring every artifact: %+v, %v; want 2", ex, err)
	}
	if left := objectsLeft(t, q, BucketArtifacts); len(left) != 0 {
		t.Errorf("left in the shared cache: %v", left)
	}
	if left := replaysLeft(t, q); len(left) != 1 {
		t.Errorf("the replays after expiring artifacts: %v", left)
	}
}

// A used artifact is renewed (ObjectCache.Keep), so expiring by age counts from its last use:
// one stored before the cut-off and renewed after it is kept, its content unchanged; one
// renewed recently is not written again; one that is gone is reported so.
func TestKeepRenewsAnArtifact(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	ctx := testContext(t, 30*time.Second)
	cache := q.Cache(BucketArtifacts)
	content := strings.Repeat("b", 300<<10) // over one chunk
	if err := cache.Put(ctx, "used", strings.NewReader(content)); err != nil {
		t.Fatal(err)
	}
	if err := cache.Put(ctx, "unused", strings.NewReader("u")); err != nil {
		t.Fatal(err)
	}
	stored := modTime(t, q, "used")
	if found, err := cache.Keep(ctx, "used", time.Now().Add(-time.Hour)); !found || err != nil {
		t.Fatalf("keeping a recent artifact: %v, %v", found, err)
	}
	if m := modTime(t, q, "used"); !m.Equal(stored) {
		t.Errorf("an artifact stored %v, renewed though recent: %v", stored, m)
	}
	time.Sleep(20 * time.Millisecond)
	cut := time.Now()
	time.Sleep(20 * time.Millisecond)
	if found, err := cache.Keep(ctx, "used", time.Now()); !found || err != nil {
		t.Fatalf("renewing an artifact: %v, %v", found, err)
	}
	if m := modTime(t, q, "used"); !m.After(cut) {
		t.Errorf("an artifact renewed after %v: its time is %v", cut, m)
	}
	if ex, err := q.Admin().ExpireArtifacts(ctx, cut, false); err != nil || ex.Count != 1 {
		t.Errorf("expiring what was not used since %v: %+v, %v; want the unused one", cut, ex, err)
	}
	var got strings.Builder
	if found, err := cache.Get(ctx, "used", &got); !found || err != nil || got.String() != content {
		t.Errorf("the renewed artifact: found %v, %v, %d bytes; want its %d bytes", found, err, got.Len(), len(content))
	}
	if found, err := cache.Keep(ctx, "unused", time.Now()); found || err != nil {
		t.Errorf("keeping an expired artifact: %v, %v; want none", found, err)
	}
}

func modTime(t *testing.T, q *Queue, key string) time.Time {
	t.Helper()
	obs, err := q.objectStore(BucketArtifacts, key)
	if err != nil {
		t.Fatal(err)
	}
	info, err := obs.GetInfo(testContext(t, 10*time.Second), key)
	if err != nil {
		t.Fatal(err)
	}
	return info.ModTime
}

// DeleteObjects deletes the objects named, content and delete markers, and nothing else; a
// name not there is skipped.
func TestDeleteObjects(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	ctx := testContext(t, 30*time.Second)
	for _, key := range []string{"archives/1.tar", "archives/2.tar", "index.json"} {
		if err := q.PutObject(ctx, BucketImages, key, strings.NewReader(strings.Repeat("i", 200<<10))); err != nil {
			t.Fatal(err)
		}
	}
	gone, err := q.Admin().DeleteObjects(ctx, BucketImages, "archives/1.tar", "archives/none.tar")
	if err != nil || gone.Count != 1 || gone.Bytes != 200<<10 {
		t.Fatalf("deleting one archive: %+v, %v", gone, err)
	}
	if left := objectsLeft(t, q, BucketImages); strings.Join(left, " ") != "archives/2.tar index.json" {
		t.Errorf("left: %v", left)
	}
}
