package queue

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A simulated day of a ladder at its ceiling, an hour of matches at a time with the trim
// judge serve runs every hour after each: the replays, the results and the portal's records
// never pass their byte limits by more than an hour's growth, are within them after every
// trim, and what goes is the oldest ladder matches' alone: every official round's match is
// kept, and so is the newest hour of the ladder's.
func TestTrimKeepsADayWithinItsLimits(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	ctx := testContext(t, 3*time.Minute)
	kv, err := q.KeyValue(ctx, "portal")
	if err != nil {
		t.Fatal(err)
	}
	const (
		perHour                     = 60
		replay, result, record      = 2000, 400, 300
		replayMax, resultMax, kvMax = 600_000, 150_000, 120_000
	)
	hours := 24
	if testing.Short() {
		hours = 12 // each store passes its limit by the seventh hour (120, 24 and ~20 KB an hour): five hours of trims
	}
	pick := func(key string, value []byte) (bool, []string) {
		return strings.Contains(string(value), `"kind":"ladder"`), nil
	}
	stores := []struct {
		store  string
		limit  uint64
		expire ExpireFunc
	}{
		{"replays", replayMax, q.Admin().ExpireReplays},
		{"results", resultMax, q.Admin().ExpireResults},
		{"kv/portal", kvMax, func(ctx context.Context, olderThan time.Time, dryRun bool) (Expired, error) {
			return q.Admin().ExpireKeys(ctx, "portal", "match.*", olderThan, dryRun, pick)
		}},
	}
	var official []string
	for h := range hours {
		for i := range perHour {
			id, lane, kind := fmt.Sprintf("l%02d%03d", h, i), LaneLadder, "ladder"
			if i%20 == 0 { // a round's match now and then
				id, lane, kind = fmt.Sprintf("cup-%d-%d", h, i), LaneMain, "round"
				official = append(official, id)
			}
			putReplay(t, q, id+".jsonl", lane.String(), replay)
			if err := q.PublishResult(ctx, lane, id, []byte(strings.Repeat("r", result))); err != nil {
				t.Fatal(err)
			}
			if _, err := kv.Put(ctx, "match."+id, fmt.Appendf(nil, `{"kind":%q,"pad":%q}`, kind, strings.Repeat("p", record))); err != nil {
				t.Fatal(err)
			}
		}
		for _, s := range stores {
			before, _, err := q.Admin().storeBytes(ctx, s.store)
			if err != nil {
				t.Fatal(err)
			}
			if hourly := uint64(perHour * replay * 2); before > s.limit+hourly {
				t.Fatalf("hour %d: %s holds %d bytes, its limit %d and an hour's growth", h, s.store, before, s.limit)
			}
			if _, err := q.Admin().Trim(ctx, s.store, s.limit, time.Time{}, s.expire); err != nil {
				t.Fatalf("hour %d: trimming %s: %v", h, s.store, err)
			}
			after, _, err := q.Admin().storeBytes(ctx, s.store)
			if err != nil {
				t.Fatal(err)
			}
			if after > s.limit {
				t.Errorf("hour %d: %s holds %d bytes after its trim, over its limit of %d", h, s.store, after, s.limit)
			}
		}
	}
	for _, id := range official {
		if _, ok, err := q.Result(ctx, id); err != nil || !ok {
			t.Errorf("the official result %s went (%v)", id, err)
		}
		if _, err := kv.Get(ctx, "match."+id); err != nil {
			t.Errorf("the official record %s went: %v", id, err)
		}
	}
	left := strings.Join(replaysLeft(t, q), " ")
	for _, id := range official {
		if !strings.Contains(left, id+".jsonl") {
			t.Errorf("the official replay %s went", id)
		}
	}
	for i := 1; i < perHour; i++ { // the newest hour's ladder matches are all there
		if id := fmt.Sprintf("l%02d%03d", hours-1, i); i%20 != 0 && !strings.Contains(left, id+".jsonl") {
			t.Errorf("the replay of %s, of the last hour, went", id)
		}
	}
	if strings.Contains(left, "l00001.jsonl") {
		t.Error("the oldest ladder replay is still there")
	}
}
