package queue

import (
	"context"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// KeyValue opens the key-value bucket name (created when missing, named "<prefix>-<name>",
// kept by as many servers as the streams): the portal's state lives there, so that any
// number of portals share it.
func (q *Queue) KeyValue(ctx context.Context, name string) (jetstream.KeyValue, error) {
	if !prefixRE.MatchString(name) {
		return nil, fmt.Errorf("queue: key-value bucket %q: only letters, digits, '-' and '_' are allowed", name)
	}
	bucket := q.o.Prefix + "-" + name
	if q.o.ReadOnly {
		kv, err := q.js.KeyValue(ctx, bucket)
		if err != nil {
			return nil, fmt.Errorf("queue: key-value bucket %s: %w", bucket, err)
		}
		return kv, nil
	}
	replicas := q.o.Replicas
	if kv, err := q.js.KeyValue(ctx, bucket); err == nil {
		if st, err := kv.Status(ctx); err == nil {
			if bs, ok := st.(*jetstream.KeyValueBucketStatus); ok {
				replicas = q.replicas("key-value bucket "+bucket, bs.StreamInfo().Config.Replicas)
			}
		}
	}
	kv, err := q.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:   bucket,
		Storage:  jetstream.FileStorage,
		Replicas: replicas,
		History:  1,
	})
	if err != nil {
		return nil, q.replicasErr("key-value bucket "+bucket, err)
	}
	return kv, nil
}
