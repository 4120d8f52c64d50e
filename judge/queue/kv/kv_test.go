package kv_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/queue/kv"
)

func bucket(t *testing.T) *kv.Bucket {
	t.Helper()
	q, err := queue.Open(t.Context(), queue.Options{Listen: "127.0.0.1:-1", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	b, err := q.KeyValue(t.Context(), "kvtest")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Each refusal is the queue's own error, whatever JetStream called it.
func TestTheBucketsErrors(t *testing.T) {
	t.Parallel()
	b := bucket(t)
	ctx := t.Context()
	if _, err := b.Get(ctx, "a"); !errors.Is(err, kv.ErrKeyNotFound) {
		t.Errorf("a missing key: %v; want ErrKeyNotFound", err)
	}
	if _, err := b.Get(ctx, "a b"); !errors.Is(err, kv.ErrInvalidKey) {
		t.Errorf("an invalid key: %v; want ErrInvalidKey", err)
	}
	rev, err := b.Create(ctx, "a", []byte("1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Create(ctx, "a", []byte("2")); !errors.Is(err, kv.ErrKeyExists) {
		t.Errorf("creating a again: %v; want ErrKeyExists", err)
	}
	rev2, err := b.Update(ctx, "a", []byte("2"), rev)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Update(ctx, "a", []byte("3"), rev); !errors.Is(err, kv.ErrRevisionChanged) || errors.Is(err, kv.ErrKeyExists) {
		t.Errorf("updating a stale revision: %v; want ErrRevisionChanged alone", err)
	}
	if err := b.DeleteAt(ctx, "a", rev); !errors.Is(err, kv.ErrRevisionChanged) {
		t.Errorf("deleting a stale revision: %v; want ErrRevisionChanged", err)
	}
	if e, err := b.Get(ctx, "a"); err != nil || string(e.Value) != "2" || e.Revision != rev2 || e.Key != "a" {
		t.Errorf("a: %+v %v; want 2 at revision %d", e, err, rev2)
	}
	if err := b.DeleteAt(ctx, "a", rev2); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Get(ctx, "a"); !errors.Is(err, kv.ErrKeyNotFound) {
		t.Errorf("a deleted: %v; want ErrKeyNotFound", err)
	}
	if _, err := b.Create(ctx, "a", []byte("again")); err != nil {
		t.Errorf("creating a deleted key: %v", err)
	}
}

// Keys lists what has a value under a filter; a watcher sees the values there were, a nil,
// then each change, deletes marked.
func TestKeysAndWatch(t *testing.T) {
	t.Parallel()
	b := bucket(t)
	ctx := t.Context()
	for _, k := range []string{"m.1", "m.2", "n.1"} {
		if _, err := b.Put(ctx, k, []byte(k)); err != nil {
			t.Fatal(err)
		}
	}
	b.Delete(ctx, "m.2")
	if keys, err := b.Keys(ctx, "m.*"); err != nil || !slices.Equal(keys, []string{"m.1"}) {
		t.Errorf("keys under m.*: %v %v; want [m.1]", keys, err)
	}
	if keys, err := b.Keys(ctx); err != nil || len(keys) != 2 {
		t.Errorf("every key: %v %v; want m.1 and n.1", keys, err)
	}
	if n, err := b.Held(ctx); err != nil || n != 3 {
		t.Errorf("held: %d %v; want 3 (two values and a marker)", n, err)
	}
	last, err := b.LastRevision(ctx)
	if err != nil || last != 4 {
		t.Errorf("the last revision: %d %v; want 4", last, err)
	}
	filters := []string{"m.*"}
	if _, err := b.Keys(ctx, filters...); err != nil || filters[0] != "m.*" {
		t.Errorf("the filters after listing: %v %v; want them as they were", filters, err)
	}
	w, err := b.Watch(ctx, filters...)
	if err != nil {
		t.Fatal(err)
	}
	if filters[0] != "m.*" {
		t.Errorf("the filters after watching: %v; want them as they were", filters)
	}
	next := func() *kv.Entry {
		t.Helper()
		select {
		case e := <-w.Updates():
			return e
		case <-time.After(10 * time.Second):
			t.Fatal("the watcher said nothing")
			return nil
		}
	}
	if e := next(); e == nil || e.Key != "m.1" || e.Deleted {
		t.Errorf("first: %+v; want m.1", e)
	}
	if e := next(); e == nil || e.Key != "m.2" || !e.Deleted {
		t.Errorf("second: %+v; want m.2 deleted", e)
	}
	if e := next(); e != nil {
		t.Errorf("after what there was: %+v; want nil", e)
	}
	b.Put(ctx, "n.2", []byte("x")) // not watched
	b.Put(ctx, "m.3", []byte("x"))
	if e := next(); e == nil || e.Key != "m.3" || string(e.Value) != "x" {
		t.Errorf("a change: %+v; want m.3", e)
	}
	b.Put(ctx, "m.4", []byte("unread")) // a value nobody reads does not keep Stop waiting
	time.Sleep(50 * time.Millisecond)
	w.Stop()
	w.Stop()
	for range w.Updates() { // closed
	}
}
