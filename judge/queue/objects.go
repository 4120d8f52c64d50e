package queue

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// PutObject stores what r yields under key in bucket (BucketArtifacts, BucketReplays,
// BucketImages, BucketSources, BucketGames), replacing any object of that key. Keys are any non-empty string: the object store encodes
// them, so paths like "replays/round3-m17.jsonl" are fine.
func (q *Queue) PutObject(ctx context.Context, bucket, key string, r io.Reader) error {
	return q.PutObjectMeta(ctx, bucket, key, nil, r)
}

// PutObjectMeta stores an object as PutObject does, with metadata that a listing of the
// bucket shows without reading the object: a replay's lane (MetaLane), which decides how
// long it is kept.
func (q *Queue) PutObjectMeta(ctx context.Context, bucket, key string, meta map[string]string, r io.Reader) error {
	if q.o.ReadOnly {
		return fmt.Errorf("queue: put %s/%s: %w", bucket, key, ErrReadOnly)
	}
	obs, err := q.objectStore(bucket, key)
	if err != nil {
		return err
	}
	if _, err := obs.Put(ctx, jetstream.ObjectMeta{Name: key, Metadata: meta}, r); err != nil {
		return fmt.Errorf("queue: put %s/%s: %w", bucket, key, err)
	}
	return nil
}

// HasObject reports whether bucket holds the object key, without reading it.
func (q *Queue) HasObject(ctx context.Context, bucket, key string) (bool, error) {
	_, info, err := q.objectInfo(ctx, bucket, key)
	return info != nil, err
}

// objectInfo looks the object key of bucket up, without reading it: its store, and its info
// or nil when there is none.
func (q *Queue) objectInfo(ctx context.Context, bucket, key string) (jetstream.ObjectStore, *jetstream.ObjectInfo, error) {
	obs, err := q.objectStore(bucket, key)
	if err != nil || obs == nil {
		return nil, nil, err
	}
	info, err := obs.GetInfo(ctx, key)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return obs, nil, nil
	}
	if err != nil {
		return obs, nil, fmt.Errorf("queue: look up %s/%s: %w", bucket, key, err)
	}
	return obs, info, nil
}

// GetObject writes the object key of bucket to w and reports false when there is no such
// key. The object's digest is checked as it is read, so an error after some bytes were
// written means w holds a partial or corrupt copy.
func (q *Queue) GetObject(ctx context.Context, bucket, key string, w io.Writer) (bool, error) {
	obs, err := q.objectStore(bucket, key)
	if err != nil || obs == nil {
		return false, err
	}
	res, err := obs.Get(ctx, key)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("queue: get %s/%s: %w", bucket, key, err)
	}
	defer res.Close()
	if _, err := io.Copy(w, res); err != nil {
		return true, fmt.Errorf("queue: get %s/%s: %w", bucket, key, err)
	}
	return true, nil
}

func (q *Queue) objectStore(bucket, key string) (jetstream.ObjectStore, error) {
	if key == "" {
		return nil, fmt.Errorf("queue: object store %s: empty key", bucket)
	}
	if _, ok := q.buckets[bucket]; !ok {
		return nil, fmt.Errorf("queue: unknown object store %q (want %q, %q, %q, %q or %q)", bucket, BucketArtifacts, BucketReplays, BucketImages, BucketSources, BucketGames)
	}
	q.mu.Lock()
	obs := q.objects[bucket]
	q.mu.Unlock()
	// nil only for a Queue opened ReadOnly on a server that lacks the bucket: it holds
	// nothing.
	return obs, nil
}

// ObjectCache is one bucket of the object store seen as a cache of blobs by key; judges
// share build artifacts through it.
type ObjectCache struct {
	q      *Queue
	bucket string
}

// Cache returns the bucket as a cache.
func (q *Queue) Cache(bucket string) *ObjectCache { return &ObjectCache{q: q, bucket: bucket} }

// Get copies the blob key to w; false when there is none.
func (c *ObjectCache) Get(ctx context.Context, key string, w io.Writer) (bool, error) {
	return c.q.GetObject(ctx, c.bucket, key, w)
}

// Put stores the blob key.
func (c *ObjectCache) Put(ctx context.Context, key string, r io.Reader) error {
	return c.q.PutObject(ctx, c.bucket, key, r)
}

// Keep renews the blob key, so that expiring the bucket by age (ExpireArtifacts) counts from
// now, when it was stored or renewed before olderThan; false when there is none. Renewing
// rewrites its metadata only, not its content.
func (c *ObjectCache) Keep(ctx context.Context, key string, olderThan time.Time) (bool, error) {
	obs, info, err := c.q.objectInfo(ctx, c.bucket, key)
	if err != nil || info == nil {
		return false, err
	}
	if !info.ModTime.Before(olderThan) {
		return true, nil
	}
	if c.q.o.ReadOnly {
		return true, fmt.Errorf("queue: renew %s/%s: %w", c.bucket, key, ErrReadOnly)
	}
	if err := obs.UpdateMeta(ctx, key, info.ObjectMeta); err != nil {
		return true, fmt.Errorf("queue: renew %s/%s: %w", c.bucket, key, err)
	}
	return true, nil
}

// Keys lists the blobs of the bucket.
func (c *ObjectCache) Keys(ctx context.Context) ([]string, error) {
	obs, err := c.q.objectStore(c.bucket, "-")
	if err != nil || obs == nil {
		return nil, err
	}
	infos, err := obs.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("queue: listing %s: %w", c.bucket, err)
	}
	keys := make([]string, 0, len(infos))
	for _, i := range infos {
		if !i.Deleted {
			keys = append(keys, i.Name)
		}
	}
	return keys, nil
}
