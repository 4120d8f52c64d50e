package queue

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// MetaLane is the metadata key under which a replay records the lane of its match's job
// (Lane.String): ExpireReplays goes by it.
const MetaLane = "lane"

// HeaderLane is the header under which a result records the lane of its job (Lane.String):
// ExpireResults goes by it, as ExpireReplays goes by a replay's MetaLane.
const HeaderLane = "Judge-Lane"

// Expired is what ExpireReplays deleted, or would have.
type Expired struct {
	Count int    `json:"count"`
	Bytes uint64 `json:"bytes"`
}

// ExpireReplays deletes the replays of test and ladder matches (MetaLane test or ladder)
// stored before olderThan, and says how many and their bytes; with dryRun it deletes nothing
// and says the same. The others are kept whatever their age: those of the main lane (official
// rounds, tournaments, validations), which standings point at, and those that record no lane
// (stored by an older judge), whose lane nothing tells.
//
// Several judges may run it at once: an object that another deleted first is skipped, not an
// error (it may be counted by both).
func (a Admin) ExpireReplays(ctx context.Context, olderThan time.Time, dryRun bool) (Expired, error) {
	return a.expire(ctx, BucketReplays, olderThan, dryRun, func(info *jetstream.ObjectInfo) bool {
		lane := info.Metadata[MetaLane]
		return lane == LaneTest.String() || lane == LaneLadder.String()
	})
}

// ExpireResults deletes the results of test and ladder jobs (HeaderLane test or ladder)
// stored before olderThan, and says how many and their bytes; with dryRun it deletes nothing
// and says the same. As ExpireReplays keeps their replays, it keeps the others whatever their
// age: the main lane's (official rounds, tournaments, builds, validations), which standings
// and ratings rest on, and those that record no lane (published by an older judge). The
// portal keeps its own copy of its matches' results.
//
// It reads the results' headers only, from the first, and stops at the first result not
// old enough; the next call starts where this one stopped, so that a season of kept
// results is read once per process, not every hour. Several judges may run it at once: a
// result another deleted first is skipped (it may be counted by both).
func (a Admin) ExpireResults(ctx context.Context, olderThan time.Time, dryRun bool) (Expired, error) {
	q := a.q
	var out Expired
	if q.o.ReadOnly && !dryRun {
		return out, fmt.Errorf("queue: expire results: %w", ErrReadOnly)
	}
	q.mu.Lock()
	results := q.results
	q.mu.Unlock()
	info, err := results.Info(ctx)
	if err != nil {
		return out, fmt.Errorf("queue: expire results: stream %s: %w", q.resultsStream, err)
	}
	err = a.sweep(ctx, q.resultsStream, q.resultsPrefix+">", info.State.LastSeq, true, dryRun, olderThan, func(m jetstream.Msg, seq uint64) error {
		if lane := m.Headers().Get(HeaderLane); lane != LaneTest.String() && lane != LaneLadder.String() {
			return nil
		}
		if !dryRun {
			if err := results.DeleteMsg(ctx, seq); err != nil {
				// The client keeps only the text of the server's refusal: whether the result
				// is gone (another judge's clean-up was first) is asked.
				if _, gerr := results.GetMsg(ctx, seq); errors.Is(gerr, jetstream.ErrMsgNotFound) {
					return nil
				}
				return fmt.Errorf("deleting the result of %s: %w", strings.TrimPrefix(m.Subject(), q.resultsPrefix), err)
			}
		}
		size, _ := strconv.ParseUint(m.Headers().Get(nats.MsgSize), 10, 64)
		out.Count++
		out.Bytes += size
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("queue: expire results: %w", err)
	}
	return out, nil
}

// sweep calls fn with each message of stream under filter stored before olderThan, oldest
// first, and its sequence (with headersOnly, its headers and not its data); it stops at the
// first one not old enough. It starts where the last sweep of the same stream and filter
// stopped, and, unless dryRun, the next starts after the last message this one read: fn must
// decide by the message alone, so that a message it keeps is kept for good. lastSeq is the
// stream's last sequence: a cursor past it is of a stream made again, whose sequences started
// over.
func (a Admin) sweep(ctx context.Context, stream, filter string, lastSeq uint64, headersOnly, dryRun bool, olderThan time.Time,
	fn func(m jetstream.Msg, seq uint64) error) error {
	q := a.q
	cursor := stream + " " + filter
	q.mu.Lock()
	from := q.swept[cursor]
	q.mu.Unlock()
	if from > lastSeq+1 {
		from = 0
	}
	next := from
	err := q.read(ctx, stream, filter, false, headersOnly, &from, func(m jetstream.Msg) error {
		meta, err := m.Metadata()
		if err != nil {
			return err
		}
		if !meta.Timestamp.Before(olderThan) {
			return errYoungEnough
		}
		next = meta.Sequence.Stream + 1
		return fn(m, meta.Sequence.Stream)
	})
	var fe fnError
	if errors.As(err, &fe) {
		err = fe.err
	}
	if err != nil && !errors.Is(err, errYoungEnough) {
		return err
	}
	if !dryRun {
		q.mu.Lock()
		if q.swept == nil {
			q.swept = map[string]uint64{}
		}
		q.swept[cursor] = max(q.swept[cursor], next)
		q.mu.Unlock()
	}
	return nil
}

// errYoungEnough ends a sweep's reading at the first message it keeps for its age.
var errYoungEnough = errors.New("a message not old enough to expire")

// ExpireArtifacts deletes the compiled bots of the shared build cache (BucketArtifacts)
// stored or last renewed (ObjectCache.Keep: a daemon used it) before olderThan, and says how
// many and their bytes; with dryRun it deletes nothing and says the same. Only time is lost:
// a daemon that needs one again compiles it from the job's sources in the image its key
// names, or takes it from its own cache, and stores it anew. The key pins both the sources
// and the compiler image, so what runs is the same program, an official round's frozen
// version included.
func (a Admin) ExpireArtifacts(ctx context.Context, olderThan time.Time, dryRun bool) (Expired, error) {
	return a.expire(ctx, BucketArtifacts, olderThan, dryRun, func(*jetstream.ObjectInfo) bool { return true })
}

// DeleteObjects deletes the objects keys of bucket (a Bucket* name), with their delete
// markers, and says how many there were and their bytes; a key not there is skipped.
func (a Admin) DeleteObjects(ctx context.Context, bucket string, keys ...string) (Expired, error) {
	want := make(map[string]bool, len(keys))
	for _, k := range keys {
		want[k] = true
	}
	anyAge := time.Now().AddDate(100, 0, 0) // whatever the clock of the server that stored them
	return a.expire(ctx, bucket, anyAge, false, func(info *jetstream.ObjectInfo) bool { return want[info.Name] })
}

// expire deletes the objects of bucket (a Bucket* name) stored before olderThan that pick
// chooses, with their delete markers; see ExpireReplays.
func (a Admin) expire(ctx context.Context, name string, olderThan time.Time, dryRun bool, pick func(*jetstream.ObjectInfo) bool) (Expired, error) {
	q := a.q
	var out Expired
	if q.o.ReadOnly && !dryRun {
		return out, fmt.Errorf("queue: expire %s: %w", name, ErrReadOnly)
	}
	bucket := q.buckets[name]
	obs, err := q.objectStore(name, "-")
	if err != nil || obs == nil {
		return out, err
	}
	old, err := oldObjects(ctx, obs, olderThan, pick)
	if err != nil {
		return out, fmt.Errorf("queue: listing %s: %w", bucket, err)
	}
	var stream jetstream.Stream
	if !dryRun {
		if stream, err = q.js.Stream(ctx, "OBJ_"+bucket); err != nil {
			return out, fmt.Errorf("queue: object store %s: %w", bucket, err)
		}
	}
	for _, info := range old {
		if dryRun {
			if !info.Deleted {
				out.Count++
				out.Bytes += info.Size
			}
			continue
		}
		gone, err := expireObject(ctx, obs, stream, bucket, info)
		if err != nil {
			return out, err
		}
		if gone {
			out.Count++
			out.Bytes += info.Size
		}
	}
	return out, nil
}

// StoreFull reports whether err is JetStream's refusal of a write for want of storage: the
// server's store is at its limit (JetStream's max_file_store, by default three quarters of
// its disk's space when it started), and stays so until something is deleted.
func StoreFull(err error) bool {
	var ae *jetstream.APIError
	return errors.As(err, &ae) && ae.ErrorCode == errCodeInsufficientResources
}

// errCodeInsufficientResources is the JetStream API's error code for a store at its limit
// (the server's JSInsufficientResourcesErr; nats.go names no constant for it).
const errCodeInsufficientResources jetstream.ErrorCode = 10023

// oldObjects are the objects in obs stored before olderThan that pick chooses, and their
// delete markers: the marker of a clean-up cut short, or of two at once, is purged once it is
// as old as the cut-off. It reads the bucket as obs.List does, keeping only these: a bucket
// holds a week of ladder matches, hundreds of thousands.
func oldObjects(ctx context.Context, obs jetstream.ObjectStore, olderThan time.Time, pick func(*jetstream.ObjectInfo) bool) ([]*jetstream.ObjectInfo, error) {
	w, err := obs.Watch(ctx)
	if err != nil {
		return nil, err
	}
	defer w.Stop()
	var old []*jetstream.ObjectInfo
	for {
		select {
		case info, ok := <-w.Updates():
			if !ok {
				return nil, errors.New("the listing was cut short: the connection closed")
			}
			if info == nil { // the end of what is stored
				return old, nil
			}
			if info.ModTime.Before(olderThan) && pick(info) {
				old = append(old, info)
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// expireObject deletes an object's chunks and then its name in bucket, kept by stream: the
// delete marker that obs.Delete leaves would otherwise stay forever, one per object, and every
// later listing would read them all. It reports whether it deleted an object (false: only a
// marker, or nothing, was left of it).
func expireObject(ctx context.Context, obs jetstream.ObjectStore, stream jetstream.Stream, bucket string, info *jetstream.ObjectInfo) (bool, error) {
	// The object store's layout (NATS ADR-20): an object's name is its meta subject, its
	// chunks are on a subject of its NUID.
	meta := "$O." + bucket + ".M." + base64.URLEncoding.EncodeToString([]byte(info.Name))
	deleted := false
	if !info.Deleted {
		err := obs.Delete(ctx, info.Name)
		if StoreFull(err) {
			// A delete writes its marker first, which a full store refuses: the space that
			// would free is then freed by purging the chunks, then the name.
			err = stream.Purge(ctx, jetstream.WithPurgeSubject("$O."+bucket+".C."+info.NUID))
		}
		if err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) { // not found: another judge's clean-up was first
			return false, fmt.Errorf("queue: deleting %s/%s: %w", bucket, info.Name, err)
		}
		deleted = err == nil
	}
	if err := stream.Purge(ctx, jetstream.WithPurgeSubject(meta)); err != nil {
		return deleted, fmt.Errorf("queue: purging the delete marker of %s/%s: %w", bucket, info.Name, err)
	}
	return deleted, nil
}
