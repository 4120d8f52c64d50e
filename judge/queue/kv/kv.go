// Package kv is a key-value bucket of the queue (the portal's state, the games' catalog) in
// the queue's own words: its callers import no NATS, and they need not link the queue (and
// its embedded server) to hold one.
package kv

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/nats-io/nats.go/jetstream"
)

// Bucket is a key-value bucket.
type Bucket struct{ kv jetstream.KeyValue }

// Of is the bucket kv (the queue's KeyValue opens it).
func Of(kv jetstream.KeyValue) *Bucket { return &Bucket{kv: kv} }

// Entry is a key's value at one revision; Deleted for a delete or purge marker (seen only
// by Watch).
type Entry struct {
	Key      string
	Value    []byte
	Revision uint64
	Deleted  bool
}

var (
	// ErrKeyNotFound: the key has no value (never written, deleted or purged).
	ErrKeyNotFound = errors.New("kv: key not found")
	// ErrKeyExists: Create found the key written already.
	ErrKeyExists = errors.New("kv: key exists")
	// ErrRevisionChanged: the key was written since the revision Update or DeleteAt was given.
	ErrRevisionChanged = errors.New("kv: key written meanwhile")
	// ErrInvalidKey: the key has characters a bucket's key cannot have.
	ErrInvalidKey = errors.New("kv: invalid key")
)

// kvErr names err in the queue's words, keeping JetStream's beside it for the log.
func kvErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return fmt.Errorf("%w (%w)", ErrKeyNotFound, err)
	case errors.Is(err, jetstream.ErrKeyRevisionMismatch):
		return fmt.Errorf("%w (%w)", ErrRevisionChanged, err)
	case errors.Is(err, jetstream.ErrKeyExists):
		return fmt.Errorf("%w (%w)", ErrKeyExists, err)
	case errors.Is(err, jetstream.ErrInvalidKey):
		return fmt.Errorf("%w (%w)", ErrInvalidKey, err)
	}
	return err
}

// Get reads key's value.
func (b *Bucket) Get(ctx context.Context, key string) (Entry, error) {
	e, err := b.kv.Get(ctx, key)
	if err != nil {
		return Entry{}, kvErr(err)
	}
	return Entry{Key: e.Key(), Value: e.Value(), Revision: e.Revision()}, nil
}

// Put writes key, whatever it held, and returns its revision.
func (b *Bucket) Put(ctx context.Context, key string, value []byte) (uint64, error) {
	rev, err := b.kv.Put(ctx, key, value)
	return rev, kvErr(err)
}

// Create writes key, which must have no value (ErrKeyExists).
func (b *Bucket) Create(ctx context.Context, key string, value []byte) (uint64, error) {
	rev, err := b.kv.Create(ctx, key, value)
	return rev, kvErr(err)
}

// Update writes key if its revision is still rev (ErrRevisionChanged).
func (b *Bucket) Update(ctx context.Context, key string, value []byte, rev uint64) (uint64, error) {
	rev, err := b.kv.Update(ctx, key, value, rev)
	if err != nil && errors.Is(err, jetstream.ErrKeyExists) {
		// a conflict of a bucket kept by one server (code 10071, which ErrKeyExists is too)
		return 0, fmt.Errorf("%w (%w)", ErrRevisionChanged, err)
	}
	return rev, kvErr(err)
}

// Delete deletes key (a marker stays until the bucket is trimmed).
func (b *Bucket) Delete(ctx context.Context, key string) error { return kvErr(b.kv.Delete(ctx, key)) }

// DeleteAt deletes key if its revision is still rev (ErrRevisionChanged).
func (b *Bucket) DeleteAt(ctx context.Context, key string, rev uint64) error {
	err := b.kv.Delete(ctx, key, jetstream.LastRevision(rev))
	if err != nil && errors.Is(err, jetstream.ErrKeyExists) {
		return fmt.Errorf("%w (%w)", ErrRevisionChanged, err)
	}
	return kvErr(err)
}

// Purge deletes key and every revision it had.
func (b *Bucket) Purge(ctx context.Context, key string) error { return kvErr(b.kv.Purge(ctx, key)) }

// Keys lists the keys with a value under the filters ("match.*"; none is every key).
func (b *Bucket) Keys(ctx context.Context, filters ...string) ([]string, error) {
	if len(filters) == 0 {
		filters = []string{">"}
	}
	l, err := b.kv.ListKeysFiltered(ctx, slices.Clone(filters)...) // it rewrites them in place
	if err != nil {
		return nil, kvErr(err)
	}
	var out []string
	for k := range l.Keys() { // closed, and the watcher stopped, once every key came
		out = append(out, k)
	}
	return out, ctx.Err()
}

// LastRevision is the newest revision of any key in the bucket.
func (b *Bucket) LastRevision(ctx context.Context) (uint64, error) {
	st, err := b.kv.Status(ctx)
	if err != nil {
		return 0, err
	}
	if bs, ok := st.(*jetstream.KeyValueBucketStatus); ok {
		return bs.StreamInfo().State.LastSeq, nil
	}
	return 0, fmt.Errorf("kv: the status of bucket %s has no stream", b.kv.Bucket())
}

// Held is how many messages the bucket holds: a value for each key, and the delete markers
// not yet trimmed.
func (b *Bucket) Held(ctx context.Context) (uint64, error) {
	st, err := b.kv.Status(ctx)
	if err != nil {
		return 0, err
	}
	return st.Values(), nil
}

// Watcher follows a bucket's keys: each key's value, then a nil once every value there was
// at the start came, then each change as it is written (deletes with Deleted).
type Watcher struct {
	w       jetstream.KeyWatcher
	updates chan *Entry
	stop    chan struct{}
	once    sync.Once
}

// Watch follows the keys under filters.
func (b *Bucket) Watch(ctx context.Context, filters ...string) (*Watcher, error) {
	w, err := b.kv.WatchFiltered(ctx, slices.Clone(filters)) // it rewrites them in place
	if err != nil {
		return nil, kvErr(err)
	}
	out := &Watcher{w: w, updates: make(chan *Entry), stop: make(chan struct{})}
	go func() {
		defer close(out.updates)
		for e := range w.Updates() {
			var u *Entry
			if e != nil {
				u = &Entry{Key: e.Key(), Value: e.Value(), Revision: e.Revision(), Deleted: e.Operation() != jetstream.KeyValuePut}
			}
			select {
			case out.updates <- u:
			case <-out.stop:
				return
			}
		}
	}()
	return out, nil
}

// Updates is closed once the watcher stops.
func (w *Watcher) Updates() <-chan *Entry { return w.updates }

// Stop stops the watcher.
func (w *Watcher) Stop() {
	w.once.Do(func() {
		close(w.stop)
		w.w.Stop()
	})
}
