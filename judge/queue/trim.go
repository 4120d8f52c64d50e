package queue

import (
	"context"
	"fmt"
	"time"
)

// ExpireFunc deletes a store's entries older than olderThan that may go (ExpireReplays,
// ExpireResults, or ExpireKeys with its pick), or with dryRun says what it would delete.
type ExpireFunc func(ctx context.Context, olderThan time.Time, dryRun bool) (Expired, error)

// trimTo is the share of its limit a store over it is brought down to: the room an hour of
// new entries takes before the next trim.
const trimTo = 0.9

// trimSteps bounds the bisection of Trim, between the store's oldest entry and now: a week
// of entries cut to within a few hundredths of a second.
const trimSteps = 24

// Trim keeps store (as Usage names it) within limit bytes: when it holds more, it deletes
// with expire the oldest entries that expire may delete - the test and ladder matches', never
// an official round's - until it holds about trimTo of limit, or every entry expire may
// delete is gone. The entries go by age, as expire deletes them: Trim finds, by dry runs,
// the latest cut-off since no earlier than which deleting the older ones frees enough, and
// deletes once. A store under its limit costs one look at its size. It says what went.
func (a Admin) Trim(ctx context.Context, store string, limit uint64, since time.Time, expire ExpireFunc) (Expired, error) {
	if limit == 0 {
		return Expired{}, nil
	}
	used, oldest, err := a.storeBytes(ctx, store)
	if err != nil || used <= limit {
		return Expired{}, err
	}
	if oldest = oldest.Add(-time.Minute); oldest.After(since) { // the servers' clocks may differ
		since = oldest
	}
	excess := used - uint64(float64(limit)*trimTo)
	hi := time.Now().Add(time.Minute) // past every entry, whatever the server's clock
	all, err := expire(ctx, hi, true)
	if err != nil {
		return Expired{}, err
	}
	if all.Bytes > excess {
		// The earliest cut-off that frees enough: older entries go, the newer stay.
		lo := since
		for range trimSteps {
			mid := lo.Add(hi.Sub(lo) / 2)
			ex, err := expire(ctx, mid, true)
			if err != nil {
				return Expired{}, err
			}
			if ex.Bytes >= excess {
				hi = mid
			} else {
				lo = mid
			}
		}
	}
	ex, err := expire(ctx, hi, false)
	if err != nil {
		return ex, fmt.Errorf("queue: trimming %s to %d bytes: %w", store, limit, err)
	}
	return ex, nil
}

// storeBytes is what store holds, as Usage says it, and when its oldest entry was stored;
// 0 for a store not made yet.
func (a Admin) storeBytes(ctx context.Context, store string) (uint64, time.Time, error) {
	q := a.q
	us, err := q.Admin().Usage(ctx, false)
	if err != nil {
		return 0, time.Time{}, err
	}
	for _, u := range us {
		if u.Store == store {
			return u.Bytes, u.Oldest, nil
		}
	}
	return 0, time.Time{}, nil
}
