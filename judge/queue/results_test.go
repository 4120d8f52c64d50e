package queue

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

type resultPair struct{ id, result string }

func collect(t *testing.T, q *Queue, id string) []resultPair {
	t.Helper()
	var got []resultPair
	err := q.Results(testContext(t, 10*time.Second), id, false, func(id string, r []byte) error {
		got = append(got, resultPair{id, string(r)})
		return nil
	})
	if err != nil {
		t.Fatalf("results %q: %v", id, err)
	}
	return got
}

func TestResults(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	ctx := testContext(t, 20*time.Second)

	if _, ok, err := q.Result(ctx, "m1"); ok || err != nil {
		t.Fatalf("result before publish: ok=%v err=%v", ok, err)
	}
	if got := collect(t, q, ""); len(got) != 0 {
		t.Fatalf("results of an empty stream: %v", got)
	}

	if err := q.PublishResult(ctx, LaneMain, "m1", []byte("first")); err != nil {
		t.Fatal(err)
	}
	// A redelivered job judged again publishes again: the first result stays.
	if err := q.PublishResult(ctx, LaneMain, "m1", []byte("second")); err != nil {
		t.Fatal(err)
	}
	r, ok, err := q.Result(ctx, "m1")
	if err != nil || !ok || string(r) != "first" {
		t.Fatalf("result: %q ok=%v err=%v", r, ok, err)
	}
	for _, id := range []string{"m2", "round.3.m3"} {
		if err := q.PublishResult(ctx, LaneMain, id, []byte("r-"+id)); err != nil {
			t.Fatal(err)
		}
	}
	// A process that connects afterwards finds them.
	late := client(t, q.URL(), Options{})
	if r, ok, err := late.Result(ctx, "round.3.m3"); err != nil || !ok || string(r) != "r-round.3.m3" {
		t.Fatalf("late result: %q ok=%v err=%v", r, ok, err)
	}

	want := []resultPair{{"m1", "first"}, {"m2", "r-m2"}, {"round.3.m3", "r-round.3.m3"}}
	if got := collect(t, late, ""); !slices.Equal(got, want) {
		t.Errorf("all results: %v, want %v", got, want)
	}
	if got := collect(t, late, "m2"); !slices.Equal(got, want[1:2]) {
		t.Errorf("results of m2: %v", got)
	}
	// An id is a whole subject, not a prefix of other ids' subjects.
	if got := collect(t, late, "round"); len(got) != 0 {
		t.Errorf("results of round: %v", got)
	}

	// An error from fn stops the listing and comes back as is.
	stop := errors.New("stop")
	calls := 0
	err = late.Results(ctx, "", false, func(string, []byte) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("fn error: %v after %d calls", err, calls)
	}
}

func TestResultsFollow(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	ctx := testContext(t, 20*time.Second)
	if err := q.PublishResult(ctx, LaneMain, "old", []byte("r-old")); err != nil {
		t.Fatal(err)
	}

	for _, filter := range []string{"", "new"} {
		t.Run("id="+filter, func(t *testing.T) {
			fctx, cancel := context.WithCancel(ctx)
			defer cancel()
			got := make(chan resultPair, 10)
			done := make(chan error, 1)
			go func() {
				done <- q.Results(fctx, filter, true, func(id string, r []byte) error {
					got <- resultPair{id, string(r)}
					return nil
				})
			}()
			if filter == "" {
				// The stored one first.
				select {
				case p := <-got:
					if p != (resultPair{"old", "r-old"}) {
						t.Fatalf("first followed result %v", p)
					}
				case <-ctx.Done():
					t.Fatal("stored result not delivered")
				}
			}
			// Then one published after the follow began (by another process).
			id := "new"
			if filter == "" {
				id = "new-all"
			}
			other := client(t, q.URL(), Options{})
			if err := other.PublishResult(ctx, LaneMain, id, []byte("r-"+id)); err != nil {
				t.Fatal(err)
			}
			select {
			case p := <-got:
				if p != (resultPair{id, "r-" + id}) {
					t.Fatalf("followed result %v", p)
				}
			case <-ctx.Done():
				t.Fatal("new result not delivered")
			}
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("follow ended with %v", err)
			}
			if len(got) != 0 {
				t.Errorf("extra results: %v", <-got)
			}
		})
	}
}

// ExpireResults deletes the results of test and ladder jobs stored before its cut-off and
// keeps the main lane's and those that record no lane; a dry run deletes nothing; the next
// call goes on where the last stopped; a second judge's clean-up at once is no error.
func TestExpireResults(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	ctx := testContext(t, 20*time.Second)
	publish := func(lane Lane, id string) {
		t.Helper()
		if err := q.PublishResult(ctx, lane, id, []byte(`{"id":"`+id+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	publish(LaneMain, "main1")
	publish(LaneTest, "test1")
	publish(LaneLadder, "ladder1")
	// A result of an older judge, which records no lane.
	if _, err := q.js.Publish(ctx, q.resultsPrefix+"old1", []byte(`{"id":"old1"}`)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	cut := time.Now()
	time.Sleep(10 * time.Millisecond)
	publish(LaneTest, "test2")
	stored := func() (ids []string) {
		t.Helper()
		for _, id := range []string{"main1", "test1", "ladder1", "old1", "test2"} {
			if _, ok, err := q.Result(ctx, id); err != nil {
				t.Fatal(err)
			} else if ok {
				ids = append(ids, id)
			}
		}
		return ids
	}
	all := "[main1 test1 ladder1 old1 test2]"
	size := uint64(len(`{"id":"test1"}`) + len(`{"id":"ladder1"}`))
	if ex, err := q.Admin().ExpireResults(ctx, cut, true); err != nil || ex.Count != 2 || ex.Bytes != size || fmt.Sprint(stored()) != all {
		t.Errorf("dry run: %+v, %v, %v stored; want 2 (%d B), all stored", ex, err, stored(), size)
	}
	if ex, err := q.Admin().ExpireResults(ctx, cut, false); err != nil || ex.Count != 2 || ex.Bytes != size {
		t.Errorf("expired %+v, %v; want test1 and ladder1 (%d B)", ex, err, size)
	}
	if got := fmt.Sprint(stored()); got != "[main1 old1 test2]" {
		t.Errorf("after expiring: %s stored", got)
	}
	if len(q.swept) == 0 {
		t.Error("the next call does not start where this one stopped")
	}
	// A second judge at once: it reads from the first result, finds the old ones gone.
	other := client(t, q.URL(), Options{})
	if ex, err := other.Admin().ExpireResults(ctx, time.Now().Add(time.Hour), false); err != nil || ex.Count != 1 {
		t.Errorf("another judge's clean-up: %+v, %v; want test2 expired", ex, err)
	}
	if ex, err := q.Admin().ExpireResults(ctx, time.Now().Add(time.Hour), false); err != nil || ex.Count != 0 {
		t.Errorf("the first judge's next clean-up: %+v, %v; want nothing left, no error", ex, err)
	}
	if got := fmt.Sprint(stored()); got != "[main1 old1]" {
		t.Errorf("in the end: %s stored", got)
	}
	// Two clean-ups at once, each beaten to some results by the other.
	const n = 300
	for i := range n {
		publish(LaneLadder, fmt.Sprintf("l%03d", i))
	}
	var both sync.WaitGroup
	counts := make([]int, 2)
	for i, judge := range []*Queue{q, other} {
		both.Go(func() {
			ex, err := judge.Admin().ExpireResults(ctx, time.Now().Add(time.Hour), false)
			if err != nil {
				t.Errorf("judge %d's clean-up beside another: %v", i, err)
			}
			counts[i] = ex.Count
		})
	}
	both.Wait()
	if counts[0]+counts[1] < n {
		t.Errorf("the two clean-ups expired %v of %d", counts, n)
	}
	info, err := q.results.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ro := client(t, q.URL(), Options{ReadOnly: true})
	if _, err := ro.Admin().ExpireResults(ctx, time.Now(), false); !errors.Is(err, ErrReadOnly) {
		t.Errorf("read-only: %v", err)
	}
	// The results stream keeps no age of its own: the lanes decide.
	if info.State.Msgs != 2 {
		t.Errorf("%d results left; want main1 and old1", info.State.Msgs)
	}
	if info.Config.MaxAge != 0 || info.Config.Duplicates != defaultDedupWindow {
		t.Errorf("results stream config: max age %s, duplicates %s", info.Config.MaxAge, info.Config.Duplicates)
	}
}

// Many results: the listing without follow ends after the last one, whatever the batching.
func TestResultsManyWithoutFollow(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	ctx := testContext(t, 20*time.Second)
	const n = 300
	for i := range n {
		if err := q.PublishResult(ctx, LaneMain, fmt.Sprintf("m%03d", i), []byte("r")); err != nil {
			t.Fatal(err)
		}
	}
	got := collect(t, q, "")
	if len(got) != n || got[0].id != "m000" || got[n-1].id != fmt.Sprintf("m%03d", n-1) {
		t.Errorf("%d results, first %v", len(got), got[:min(len(got), 1)])
	}
}
