package queue

import (
	"context"
	"errors"
	"fmt"
	"slices"
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

	if err := q.PublishResult(ctx, "m1", []byte("first")); err != nil {
		t.Fatal(err)
	}
	// A redelivered job judged again publishes again: the first result stays.
	if err := q.PublishResult(ctx, "m1", []byte("second")); err != nil {
		t.Fatal(err)
	}
	r, ok, err := q.Result(ctx, "m1")
	if err != nil || !ok || string(r) != "first" {
		t.Fatalf("result: %q ok=%v err=%v", r, ok, err)
	}
	for _, id := range []string{"m2", "round.3.m3"} {
		if err := q.PublishResult(ctx, id, []byte("r-"+id)); err != nil {
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
	if err := q.PublishResult(ctx, "old", []byte("r-old")); err != nil {
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
			if err := other.PublishResult(ctx, id, []byte("r-"+id)); err != nil {
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

func TestResultsMaxAgeCapsDedupWindow(t *testing.T) {
	t.Parallel()
	// A dedup window longer than the results' max age is invalid on the server; Open must
	// cap it rather than fail.
	q := embedded(t, Options{ResultsMaxAge: time.Hour})
	ctx := testContext(t, 10*time.Second)
	info, err := q.results.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.Config.MaxAge != time.Hour || info.Config.Duplicates != time.Hour || info.Config.MaxMsgsPerSubject != 1 {
		t.Errorf("results stream config: max age %s, duplicates %s, per subject %d", info.Config.MaxAge, info.Config.Duplicates, info.Config.MaxMsgsPerSubject)
	}
}

// Many results: the listing without follow ends after the last one, whatever the batching.
func TestResultsManyWithoutFollow(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	ctx := testContext(t, 20*time.Second)
	const n = 300
	for i := range n {
		if err := q.PublishResult(ctx, fmt.Sprintf("m%03d", i), []byte("r")); err != nil {
			t.Fatal(err)
		}
	}
	got := collect(t, q, "")
	if len(got) != n || got[0].id != "m000" || got[n-1].id != fmt.Sprintf("m%03d", n-1) {
		t.Errorf("%d results, first %v", len(got), got[:min(len(got), 1)])
	}
}
