package queue

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Usage is what one of the judge's stores holds in JetStream: the jobs and results streams,
// each object store and each key-value bucket.
type Usage struct {
	Store  string `json:"store"`  // jobs, results, artifacts, replays, images, sources, kv/<name>
	Kind   string `json:"kind"`   // stream, objects or kv
	Stream string `json:"stream"` // the JetStream stream that holds it
	// Count is what the store holds: jobs waiting, results, keys, or objects (deleted ones
	// not counted; 0 unless Usage was asked to count them).
	Count    uint64        `json:"count"`
	Bytes    uint64        `json:"bytes"` // as the server stores it, headers and chunks included
	Oldest   time.Time     `json:"oldest,omitzero"`
	MaxAge   time.Duration `json:"max_age,omitempty"`   // the stream's limits, 0 for none
	MaxBytes int64         `json:"max_bytes,omitempty"` // -1 or 0: none
}

// Usage reports every store of the queue's prefix that exists on the server, in a fixed
// order (streams, object stores, key-value buckets by name). A store not yet created is left
// out. Counting an object store's objects reads the name of every one (a season's ladder
// replays are hundreds of thousands), so it is done only when countObjects asks.
func (a Admin) Usage(ctx context.Context, countObjects bool) ([]Usage, error) {
	q := a.q
	stores := map[string]string{ // stream -> store
		q.jobsStream:    "jobs",
		q.resultsStream: "results",
	}
	for name, bucket := range q.buckets {
		stores["OBJ_"+bucket] = name
	}
	kvPrefix := "KV_" + q.o.Prefix + "-"
	var out []Usage
	list := q.js.ListStreams(ctx)
	for info := range list.Info() {
		name := info.Config.Name
		store, ok := stores[name]
		if !ok && strings.HasPrefix(name, kvPrefix) {
			store, ok = "kv/"+strings.TrimPrefix(name, kvPrefix), true
		}
		if !ok {
			continue
		}
		u := Usage{
			Store: store, Kind: "stream", Stream: name,
			Count: info.State.Msgs, Bytes: info.State.Bytes,
			MaxAge: info.Config.MaxAge, MaxBytes: info.Config.MaxBytes,
		}
		if info.State.Msgs > 0 {
			u.Oldest = info.State.FirstTime
		}
		switch {
		case strings.HasPrefix(name, "KV_"):
			u.Kind = "kv"
		case strings.HasPrefix(name, "OBJ_"):
			u.Kind, u.Count = "objects", 0
			if countObjects {
				n, err := a.objectCount(ctx, strings.TrimPrefix(name, "OBJ_"))
				if err != nil {
					return nil, err
				}
				u.Count = n
			}
		}
		out = append(out, u)
	}
	if err := list.Err(); err != nil && !errors.Is(err, jetstream.ErrEndOfData) {
		return nil, fmt.Errorf("queue: listing the streams of %s: %w", q.where(), err)
	}
	order := []string{"jobs", "results", BucketArtifacts, BucketReplays, BucketImages, BucketSources, BucketGames}
	slices.SortFunc(out, func(a, b Usage) int {
		ia, ib := slices.Index(order, a.Store), slices.Index(order, b.Store)
		if ia < 0 {
			ia = len(order)
		}
		if ib < 0 {
			ib = len(order)
		}
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(a.Store, b.Store)
	})
	return out, nil
}

// objectCount is the number of live objects of bucket: a deleted object leaves a marker in
// the stream, which its message count would include.
func (a Admin) objectCount(ctx context.Context, bucket string) (uint64, error) {
	q := a.q
	obs, err := q.js.ObjectStore(ctx, bucket)
	if err != nil {
		return 0, fmt.Errorf("queue: object store %s: %w", bucket, err)
	}
	infos, err := obs.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("queue: listing object store %s: %w", bucket, err)
	}
	return uint64(len(infos)), nil
}
