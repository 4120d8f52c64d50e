package queue

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/botjudge/judge/judge/queue/kv"
)

// KeyValue opens the key-value bucket name (created when missing, named "<prefix>-<name>",
// kept by as many servers as the streams): the portal's state lives there, so that any
// number of portals share it.
func (q *Queue) KeyValue(ctx context.Context, name string) (*kv.Bucket, error) {
	bucket, err := q.kvBucket(name)
	if err != nil {
		return nil, err
	}
	if q.o.ReadOnly {
		b, err := q.js.KeyValue(ctx, bucket)
		if err != nil {
			return nil, fmt.Errorf("queue: key-value bucket %s: %w", bucket, err)
		}
		return kv.Of(b), nil
	}
	replicas := q.o.Replicas
	if b, err := q.js.KeyValue(ctx, bucket); err == nil {
		if st, err := b.Status(ctx); err == nil {
			if bs, ok := st.(*jetstream.KeyValueBucketStatus); ok {
				replicas = q.replicas("key-value bucket "+bucket, bs.StreamInfo().Config.Replicas)
			}
		}
	}
	b, err := q.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:   bucket,
		Storage:  jetstream.FileStorage,
		Replicas: replicas,
		History:  1,
	})
	if err != nil {
		return nil, q.replicasErr("key-value bucket "+bucket, err)
	}
	return kv.Of(b), nil
}

// ExpireKeys deletes from the key-value bucket name (as KeyValue names it) the entries under
// filter ("match.*") last written before olderThan that pick chooses, with the keys pick
// names beside each (an index listing it), and says how many entries and their bytes; with
// dryRun it deletes nothing and says the same. The delete markers under filter older than
// olderThan go too. What it deletes leaves no marker behind: the bucket's messages are
// purged, each entry's up to the revision read (a revision written meanwhile stays), so that
// a bucket whose entries come and go does not grow by a marker for each.
//
// pick must decide by the entry alone: the next call for the same bucket and filter starts
// after the last entry this one read, as ExpireResults does, since an entry kept is read
// again once it is written again. Several callers may run at once: an entry another purged
// first is no error (it may be counted by both).
func (a Admin) ExpireKeys(ctx context.Context, name, filter string, olderThan time.Time, dryRun bool,
	pick func(key string, value []byte) (drop bool, with []string)) (Expired, error) {
	q := a.q
	var out Expired
	if q.o.ReadOnly && !dryRun {
		return out, fmt.Errorf("queue: expire %s in bucket %s: %w", filter, name, ErrReadOnly)
	}
	bucket, err := q.kvBucket(name)
	if err != nil {
		return out, err
	}
	streamName, prefix := "KV_"+bucket, "$KV."+bucket+"."
	stream, err := q.js.Stream(ctx, streamName)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return out, nil // no bucket, nothing in it
	}
	if err != nil {
		return out, fmt.Errorf("queue: expire %s in bucket %s: %w", filter, bucket, err)
	}
	purge := func(key string, upTo uint64) error {
		if !kvKeyRE.MatchString(key) {
			return fmt.Errorf("%q is not a key", key)
		}
		opts := []jetstream.StreamPurgeOpt{jetstream.WithPurgeSubject(prefix + key)}
		if upTo > 0 {
			opts = append(opts, jetstream.WithPurgeSequence(upTo))
		}
		if err := stream.Purge(ctx, opts...); err != nil {
			return fmt.Errorf("deleting %s: %w", key, err)
		}
		return nil
	}
	lastSeq := stream.CachedInfo().State.LastSeq
	err = a.sweep(ctx, streamName, prefix+filter, lastSeq, false, dryRun, olderThan, func(m jetstream.Msg, seq uint64) error {
		key := strings.TrimPrefix(m.Subject(), prefix)
		var with []string
		if m.Headers().Get(kvOperation) == "" { // an entry, not a marker
			drop, w := pick(key, m.Data())
			if !drop {
				return nil
			}
			with = w
			out.Count++
			out.Bytes += uint64(len(m.Subject()) + len(m.Data()))
		}
		if dryRun {
			return nil
		}
		// The keys beside it first: if this stops between, the entry is found again.
		for _, k := range with {
			if err := purge(k, 0); err != nil {
				return err
			}
		}
		return purge(key, seq+1)
	})
	if err != nil {
		return out, fmt.Errorf("queue: expire %s in bucket %s: %w", filter, bucket, err)
	}
	return out, nil
}

// kvOperation is the header of a key-value bucket's delete and purge markers.
const kvOperation = "KV-Operation"

// kvKeyRE is what a key-value bucket's key may be (nats.go's own check).
var kvKeyRE = regexp.MustCompile(`^[-/_=.a-zA-Z0-9]+$`)

// kvBucket is the full name of the key-value bucket called name: "<prefix>-<name>".
func (q *Queue) kvBucket(name string) (string, error) {
	if !prefixRE.MatchString(name) {
		return "", fmt.Errorf("queue: key-value bucket %q: only letters, digits, '-' and '_' are allowed", name)
	}
	return q.o.Prefix + "-" + name, nil
}
