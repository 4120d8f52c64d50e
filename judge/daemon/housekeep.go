package daemon

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/queue"
)

// Expiry is one kind of entry that ages out of a store: judge serve deletes those past their
// age every hour (HouseEvery), judge store clean on demand, and judge store's LIMITS column
// says how long they are kept.
type Expiry struct {
	Store string        // the store that holds them, as queue.Usage names it
	Key   string        // the age's key under nats; "" for a fixed age
	What  string        // what they are, as the log and judge store clean say it
	Kept  string        // how long they are kept, in judge store's words, with %v for the age
	Age   time.Duration // how old they go; 0 keeps them all
	// OfMatches: an age of the test and ladder matches, which judge store clean --older-than
	// replaces.
	OfMatches bool
	Expire    func(a queue.Admin, ctx context.Context, olderThan time.Time, dryRun bool) (queue.Expired, error)
	// BytesKey and MaxBytes bound the store's bytes (queue.Trim): its oldest entries of these
	// go while it is over; 0 for no bound.
	BytesKey string
	MaxBytes uint64
}

// Expiries are the entries that age out of the stores of a judge configured with n.
func Expiries(n queue.Options) []Expiry {
	return []Expiry{
		{"replays", "replays_max_age", "replays of test and ladder matches", "test and ladder kept %v",
			n.ReplaysMaxAge, true, queue.Admin.ExpireReplays, "replays_max_bytes", uint64(n.ReplaysMaxBytes)},
		{"results", "results_max_age", "results of test and ladder matches", "test and ladder kept %v",
			n.ResultsMaxAge, true, queue.Admin.ExpireResults, "results_max_bytes", uint64(n.ResultsMaxBytes)},
		// The portal's record of a match holds its result: kept as long as the result.
		{"kv/portal", "results_max_age", "portal records of test and ladder matches", "test and ladder matches kept %v",
			n.ResultsMaxAge, true, portalExpiry(store.MatchKeys, store.ExpirableMatch), "portal_max_bytes", uint64(n.PortalMaxBytes)},
		{"kv/portal", "", "portal test-match counts of past hours", "hourly quotas kept %v",
			store.QuotaAge, false, portalExpiry(store.QuotaKeys, store.ExpirableByAge), "", 0},
		{"kv/portal", "", "portal sessions past their end", "sessions kept %v",
			store.SessionTTL, false, portalExpiry(store.SessionKeys, store.ExpirableByAge), "", 0},
		{"kv/portal", "", "portal invites past their end", "invites kept %v",
			store.InviteTTL, false, portalExpiry(store.InviteKeys, store.ExpirableByAge), "", 0},
		{"artifacts", "artifacts_max_age", "compiled bots of the shared build cache", "kept %v from last use",
			n.ArtifactsMaxAge, false, queue.Admin.ExpireArtifacts, "", 0},
	}
}

// portalExpiry expires the entries of the portal's bucket under filter that pick chooses.
func portalExpiry(filter string, pick func(string, []byte) (bool, []string)) func(queue.Admin, context.Context, time.Time, bool) (queue.Expired, error) {
	return func(a queue.Admin, ctx context.Context, olderThan time.Time, dryRun bool) (queue.Expired, error) {
		return a.ExpireKeys(ctx, "portal", filter, olderThan, dryRun, pick)
	}
}

// HouseEvery is how often judge serve cleans up what grows: the stores' old entries (one
// listing of the replays bucket an hour, a replay kept at most an hour past its age) and the
// build cache.
const HouseEvery = time.Hour

// Housekeep cleans up after judge serve, or the portal that judges in its own process, at
// once and then each time every has passed, until ctx is done: the entries of q past their
// age (Expiries of n) and the build cache in buildDir beyond cacheLimit bytes. A failure is
// logged and tried again the next time: the daemon judges on, whatever the store. wait waits
// for it to end.
func Housekeep(ctx context.Context, q *queue.Queue, n queue.Options, buildDir string, cacheLimit int64, every time.Duration, log *slog.Logger) (wait func()) {
	var all sync.WaitGroup
	for _, e := range Expiries(n) {
		all.Go(func() { e.Clean(ctx, q, every, log) })
	}
	all.Go(func() { TrimBuilds(ctx, buildDir, cacheLimit, every, log) })
	return all.Wait
}

// Clean deletes the entries of e older than its age from q, and then while its store is over
// its bytes the oldest of them, at once and then each time every has passed, until ctx is
// done; an age of 0 keeps them all for their age, a maxBytes of 0 whatever their bytes.
func (e Expiry) Clean(ctx context.Context, q *queue.Queue, every time.Duration, log *slog.Logger) {
	if e.Age <= 0 && e.MaxBytes == 0 {
		return
	}
	periodically(ctx, every, func() {
		defer trimStore(ctx, q, e, every, log)
		if e.Age <= 0 {
			return
		}
		// Bounded, so that a clean-up stuck on a server that does not answer gives way to
		// the next one.
		actx, cancel := context.WithTimeout(ctx, every/2)
		ex, err := e.Expire(q.Admin(), actx, time.Now().Add(-e.Age), false)
		cancel()
		switch {
		case ctx.Err() != nil:
		case err != nil:
			log.Warn("serve: expiring the old "+e.What+" failed: trying again later", "err", err, "max_age", e.Age, "retry_in", every)
		case ex.Count > 0:
			log.Info("serve: expired the "+e.What, "count", ex.Count, "bytes", ex.Bytes, "max_age", e.Age)
		default:
			log.Debug("serve: nothing to expire: none of the "+e.What+" is older than its max age", "max_age", e.Age)
		}
	})
}

// trimStore deletes the oldest entries of e while its store is over e.MaxBytes, within half of
// every, and logs what went.
func trimStore(ctx context.Context, q *queue.Queue, e Expiry, every time.Duration, log *slog.Logger) {
	if e.MaxBytes == 0 {
		return
	}
	tctx, cancel := context.WithTimeout(ctx, every/2)
	defer cancel()
	ex, err := e.Trim(tctx, q)
	switch {
	case ctx.Err() != nil:
	case err != nil:
		log.Warn("serve: trimming the "+e.What+" to nats."+e.BytesKey+" failed: trying again later", "err", err, "retry_in", every)
	case ex.Count > 0:
		log.Warn("serve: the store was over nats."+e.BytesKey+": deleted the oldest "+e.What, "count", ex.Count, "bytes", ex.Bytes, "max_bytes", e.MaxBytes)
	}
}

// Trim deletes e's oldest entries while its store is over e.MaxBytes (queue.Trim).
func (e Expiry) Trim(ctx context.Context, q *queue.Queue) (queue.Expired, error) {
	since := time.Time{}
	if e.Age > 0 {
		since = time.Now().Add(-e.Age)
	}
	return q.Admin().Trim(ctx, e.Store, e.MaxBytes, since, func(ctx context.Context, olderThan time.Time, dryRun bool) (queue.Expired, error) {
		return e.Expire(q.Admin(), ctx, olderThan, dryRun)
	})
}

// TrimBuilds keeps the build cache dir within limit bytes (build.TrimCache), at once and then
// each time every has passed, until ctx is done. A failure is logged and tried again.
func TrimBuilds(ctx context.Context, dir string, limit int64, every time.Duration, log *slog.Logger) {
	periodically(ctx, every, func() {
		t, err := build.TrimCache(dir, limit, build.TrimKeep, time.Now())
		switch {
		case err != nil:
			log.Warn("serve: trimming the build cache failed: trying again later", "dir", dir, "err", err, "retry_in", every)
		case t.Removed > 0:
			log.Info("serve: trimmed the build cache to build.cache_limit", "dir", dir, "removed", t.Removed, "freed", t.Freed, "left", t.Left, "bytes", t.Bytes, "limit", limit)
		case t.Bytes > limit:
			log.Warn("serve: the build cache is over build.cache_limit, all of it used within the last hour", "dir", dir, "bytes", t.Bytes, "limit", limit)
		}
	})
}

// periodically runs f at once and then each time every has passed, until ctx is done.
func periodically(ctx context.Context, every time.Duration, f func()) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		f()
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
