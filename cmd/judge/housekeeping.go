package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/queue"
)

// expiry is one kind of entry that ages out of a store: judge serve deletes those past their
// age every hour (houseEvery), judge store clean on demand, and judge store's LIMITS column
// says how long they are kept.
type expiry struct {
	store string        // the store that holds them, as queue.Usage names it
	key   string        // the age's key under nats; "" for a fixed age
	what  string        // what they are, as the log and judge store clean say it
	kept  string        // how long they are kept, in judge store's words, with %v for the age
	age   time.Duration // how old they go; 0 keeps them all
	// ofMatches: an age of the test and ladder matches, which judge store clean --older-than
	// replaces.
	ofMatches bool
	expire    func(q *queue.Queue, ctx context.Context, olderThan time.Time, dryRun bool) (queue.Expired, error)
	// bytesKey and maxBytes bound the store's bytes (queue.Trim): its oldest entries of these
	// go while it is over; 0 for no bound.
	bytesKey string
	maxBytes uint64
}

// expiries are the entries that age out of the stores of a judge configured with n.
func expiries(n queue.Options) []expiry {
	return []expiry{
		{"replays", "replays_max_age", "replays of test and ladder matches", "test and ladder kept %v",
			n.ReplaysMaxAge, true, (*queue.Queue).ExpireReplays, "replays_max_bytes", uint64(n.ReplaysMaxBytes)},
		{"results", "results_max_age", "results of test and ladder matches", "test and ladder kept %v",
			n.ResultsMaxAge, true, (*queue.Queue).ExpireResults, "results_max_bytes", uint64(n.ResultsMaxBytes)},
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
			n.ArtifactsMaxAge, false, (*queue.Queue).ExpireArtifacts, "", 0},
	}
}

// portalExpiry expires the entries of the portal's bucket under filter that pick chooses.
func portalExpiry(filter string, pick func(string, []byte) (bool, []string)) func(*queue.Queue, context.Context, time.Time, bool) (queue.Expired, error) {
	return func(q *queue.Queue, ctx context.Context, olderThan time.Time, dryRun bool) (queue.Expired, error) {
		return q.ExpireKeys(ctx, "portal", filter, olderThan, dryRun, pick)
	}
}

// houseEvery is how often judge serve cleans up what grows: the stores' old entries (one
// listing of the replays bucket an hour, a replay kept at most an hour past its age) and the
// build cache.
const houseEvery = time.Hour

// housekeep cleans up after judge serve, or the portal that judges in its own process, at
// once and then each time every has passed, until ctx is done: the entries of q past their
// age (expiries) and the build cache beyond build.cache_limit. A failure is logged and tried
// again the next time: the daemon judges on, whatever the store. wait waits for it to end.
func (a *app) housekeep(ctx context.Context, q *queue.Queue, every time.Duration) (wait func()) {
	var all sync.WaitGroup
	for _, e := range expiries(a.cfg.NATS) {
		all.Go(func() { clean(ctx, q, e, every, a.log) })
	}
	all.Go(func() { trimBuilds(ctx, a.buildDir(), int64(a.cfg.Build.CacheLimit), every, a.log) })
	return all.Wait
}

// clean deletes the entries of e older than its age from q, and then while its store is over
// its bytes the oldest of them, at once and then each time every has passed, until ctx is
// done; an age of 0 keeps them all for their age, a maxBytes of 0 whatever their bytes.
func clean(ctx context.Context, q *queue.Queue, e expiry, every time.Duration, log *slog.Logger) {
	if e.age <= 0 && e.maxBytes == 0 {
		return
	}
	periodically(ctx, every, func() {
		defer trimStore(ctx, q, e, every, log)
		if e.age <= 0 {
			return
		}
		// Bounded, so that a clean-up stuck on a server that does not answer gives way to
		// the next one.
		actx, cancel := context.WithTimeout(ctx, every/2)
		ex, err := e.expire(q, actx, time.Now().Add(-e.age), false)
		cancel()
		switch {
		case ctx.Err() != nil:
		case err != nil:
			log.Warn("serve: expiring the old "+e.what+" failed: trying again later", "err", err, "max_age", e.age, "retry_in", every)
		case ex.Count > 0:
			log.Info("serve: expired the "+e.what, "count", ex.Count, "bytes", ex.Bytes, "max_age", e.age)
		default:
			log.Debug("serve: nothing to expire: none of the "+e.what+" is older than its max age", "max_age", e.age)
		}
	})
}

// trimStore deletes the oldest entries of e while its store is over e.maxBytes, within half of
// every, and logs what went.
func trimStore(ctx context.Context, q *queue.Queue, e expiry, every time.Duration, log *slog.Logger) {
	if e.maxBytes == 0 {
		return
	}
	tctx, cancel := context.WithTimeout(ctx, every/2)
	defer cancel()
	ex, err := e.trim(tctx, q)
	switch {
	case ctx.Err() != nil:
	case err != nil:
		log.Warn("serve: trimming the "+e.what+" to nats."+e.bytesKey+" failed: trying again later", "err", err, "retry_in", every)
	case ex.Count > 0:
		log.Warn("serve: the store was over nats."+e.bytesKey+": deleted the oldest "+e.what, "count", ex.Count, "bytes", ex.Bytes, "max_bytes", e.maxBytes)
	}
}

// trim deletes e's oldest entries while its store is over e.maxBytes (queue.Trim).
func (e expiry) trim(ctx context.Context, q *queue.Queue) (queue.Expired, error) {
	since := time.Time{}
	if e.age > 0 {
		since = time.Now().Add(-e.age)
	}
	return q.Trim(ctx, e.store, e.maxBytes, since, func(ctx context.Context, olderThan time.Time, dryRun bool) (queue.Expired, error) {
		return e.expire(q, ctx, olderThan, dryRun)
	})
}

// trimBuilds keeps the build cache dir within limit bytes (build.TrimCache), at once and then
// each time every has passed, until ctx is done. A failure is logged and tried again.
func trimBuilds(ctx context.Context, dir string, limit int64, every time.Duration, log *slog.Logger) {
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
