package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"
)

// Three daemons (three connections) share the work queue: every job goes to exactly one of
// them, once, and none is lost.
func TestJobsSharedByDaemons(t *testing.T) {
	t.Parallel()
	srv := embedded(t, Options{})
	const jobs = 60
	for i := range jobs {
		submit(t, srv, fmt.Sprintf("m%02d", i), fmt.Sprintf(`{"id":"m%02d"}`, i))
	}

	// The daemons open concurrently, as daemons started together would: Open's
	// create-or-update must converge on the same consumer.
	daemons := make([]*Queue, 3)
	var wg sync.WaitGroup
	errs := make(chan error, len(daemons))
	for i := range daemons {
		wg.Go(func() {
			q, err := Open(testContext(t, 30*time.Second), Options{URL: srv.URL(), Logger: testLogger()})
			if err != nil {
				errs <- err
				return
			}
			daemons[i] = q
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("open daemon: %v", err)
	}
	for _, q := range daemons {
		t.Cleanup(func() { q.Close() })
	}

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	var mu sync.Mutex
	got := map[string][]int{} // job id -> daemons it was delivered to
	perDaemon := make([]int, len(daemons))
	var failed error
	for i, q := range daemons {
		wg.Go(func() {
			for {
				d, err := q.Next(ctx)
				if err != nil {
					if !errors.Is(err, context.Canceled) {
						mu.Lock()
						failed = errors.Join(failed, err)
						mu.Unlock()
						cancel()
					}
					return
				}
				if string(d.Data) != fmt.Sprintf(`{"id":"%s"}`, d.ID) || d.NumDelivered != 1 {
					mu.Lock()
					failed = errors.Join(failed, fmt.Errorf("job %s: data %s, delivered %d times", d.ID, d.Data, d.NumDelivered))
					mu.Unlock()
				}
				if err := d.Ack(ctx); err != nil {
					mu.Lock()
					failed = errors.Join(failed, err)
					mu.Unlock()
				}
				mu.Lock()
				got[d.ID] = append(got[d.ID], i)
				perDaemon[i]++
				if len(got) == jobs {
					cancel()
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if failed != nil {
		t.Fatal(failed)
	}
	for i := range jobs {
		id := fmt.Sprintf("m%02d", i)
		if len(got[id]) != 1 {
			t.Errorf("job %s delivered to daemons %v, want exactly one", id, got[id])
		}
	}
	t.Logf("jobs per daemon: %v", perDaemon)
	// Acked jobs leave the work queue, and nothing is left to deliver.
	waitJobsLeft(t, srv, 0)
	expectNothing(t, daemons[0], 300*time.Millisecond)
}

func TestSubmitDuplicate(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{})
	ctx := testContext(t, 10*time.Second)
	if dup, err := q.Submit(ctx, "round3-m17", []byte("first")); err != nil || dup {
		t.Fatalf("first submit: duplicate=%v err=%v", dup, err)
	}
	// Another process submitting the same id is told so, and its bytes are dropped.
	other := client(t, q.URL(), Options{})
	if dup, err := other.Submit(ctx, "round3-m17", []byte("second")); err != nil || !dup {
		t.Fatalf("second submit: duplicate=%v err=%v", dup, err)
	}
	if n := jobsLeft(t, q); n != 1 {
		t.Errorf("%d jobs stored, want 1", n)
	}
	d := next(t, q, 5*time.Second)
	if string(d.Data) != "first" || d.Pending != 0 {
		t.Errorf("job %q, pending %d", d.Data, d.Pending)
	}
	if err := d.Ack(ctx); err != nil {
		t.Fatal(err)
	}
	// Acked, the id is still remembered for the window: a late resubmission is dropped too.
	if dup, err := q.Submit(ctx, "round3-m17", []byte("third")); err != nil || !dup {
		t.Fatalf("submit after ack: duplicate=%v err=%v", dup, err)
	}
	expectNothing(t, q, 300*time.Millisecond)
}

func TestDeliveryFields(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{Redelivery: Redelivery{MaxDeliver: 2}})
	before := time.Now().Add(-time.Second)
	for _, id := range []string{"a", "b", "c"} {
		submit(t, q, id, "job "+id)
	}
	d := next(t, q, 5*time.Second)
	// Pending is the server's estimate of the backlog when it delivered: at most the two jobs
	// behind this one (it can lag the stream, so it is not asserted exactly).
	if d.ID != "a" || string(d.Data) != "job a" || d.Subject != "judge.jobs" || d.Seq != 1 || d.NumDelivered != 1 || d.Pending > 2 {
		t.Errorf("delivery %+v", d)
	}
	if d.Published.Before(before) || d.Published.After(time.Now()) {
		t.Errorf("published %v, want about now", d.Published)
	}
	if d.LastAttempt() {
		t.Error("first of two attempts reported as the last")
	}
	if err := d.Nak(0); err != nil {
		t.Fatal(err)
	}
	// The Nak is not confirmed, so the other jobs may come first.
	for d = next(t, q, 5*time.Second); d.ID != "a"; d = next(t, q, 5*time.Second) {
		if err := d.Ack(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if d.NumDelivered != 2 || !d.LastAttempt() {
		t.Errorf("redelivery: id %s, delivered %d, last %v", d.ID, d.NumDelivered, d.LastAttempt())
	}
	if err := d.Term(); err != nil {
		t.Fatal(err)
	}
}

// A daemon killed while judging (its connection closed, the job neither acked nor naked)
// loses the job to another daemon after AckWait.
func TestUnackedJobRedeliveredAfterAckWait(t *testing.T) {
	t.Parallel()
	const ackWait = 2 * time.Second
	srv := embedded(t, Options{Redelivery: Redelivery{AckWait: ackWait}})
	victim := client(t, srv.URL(), Options{Redelivery: Redelivery{AckWait: ackWait}})
	survivor := client(t, srv.URL(), Options{Redelivery: Redelivery{AckWait: ackWait}})
	submit(t, srv, "m1", "job")

	d := next(t, victim, 5*time.Second)
	taken := time.Now()
	if d.NumDelivered != 1 {
		t.Fatalf("first delivery counted %d", d.NumDelivered)
	}
	if err := victim.Close(); err != nil {
		t.Fatal(err)
	}

	d2 := next(t, survivor, ackWait+5*time.Second)
	waited := time.Since(taken)
	if d2.ID != "m1" || d2.NumDelivered != 2 {
		t.Errorf("redelivery: id %s, delivered %d times", d2.ID, d2.NumDelivered)
	}
	if waited < ackWait-200*time.Millisecond {
		t.Errorf("redelivered after %s, before AckWait %s", waited, ackWait)
	}
	t.Logf("redelivered after %s (AckWait %s)", waited.Round(time.Millisecond), ackWait)
	if err := d2.Ack(t.Context()); err != nil {
		t.Fatal(err)
	}
	waitJobsLeft(t, srv, 0)
	// The dead daemon's Queue refuses further use instead of hanging.
	if _, err := victim.Next(t.Context()); !errors.Is(err, ErrClosed) {
		t.Errorf("next after close: %v", err)
	}
}

// A job worked on for longer than AckWait is not redelivered while its daemon keeps calling
// InProgress.
func TestInProgressHoldsJob(t *testing.T) {
	t.Parallel()
	const ackWait = 2 * time.Second
	srv := embedded(t, Options{Redelivery: Redelivery{AckWait: ackWait}})
	worker := client(t, srv.URL(), Options{Redelivery: Redelivery{AckWait: ackWait}})
	idle := client(t, srv.URL(), Options{Redelivery: Redelivery{AckWait: ackWait}})
	submit(t, srv, "long", "job")

	d := next(t, worker, 5*time.Second)
	stop := make(chan struct{})
	beats := make(chan error, 1)
	go func() {
		tick := time.NewTicker(ackWait / 4)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				beats <- nil
				return
			case <-tick.C:
				if err := d.InProgress(); err != nil {
					beats <- err
					return
				}
			}
		}
	}()
	// Twice AckWait: without the heartbeats the idle daemon would get the job.
	expectNothing(t, idle, 2*ackWait)
	close(stop)
	if err := <-beats; err != nil {
		t.Fatalf("in progress: %v", err)
	}
	if err := d.Ack(t.Context()); err != nil {
		t.Fatalf("ack after %s: %v", 2*ackWait, err)
	}
	// Acked, the job is gone from the stream: nothing is left that could be redelivered.
	waitJobsLeft(t, srv, 0)
}

func TestNakWithDelay(t *testing.T) {
	t.Parallel()
	const delay = 1500 * time.Millisecond
	q := embedded(t, Options{Redelivery: Redelivery{AckWait: 10 * time.Second}})
	other := client(t, q.URL(), Options{Redelivery: Redelivery{AckWait: 10 * time.Second}})
	submit(t, q, "m1", "job")

	d := next(t, q, 5*time.Second)
	if err := d.Nak(delay); err != nil {
		t.Fatal(err)
	}
	naked := time.Now()
	// Any daemon may take it back, once the delay is over.
	d2 := next(t, other, delay+5*time.Second)
	waited := time.Since(naked)
	if d2.ID != "m1" || d2.NumDelivered != 2 {
		t.Errorf("redelivery: id %s, delivered %d times", d2.ID, d2.NumDelivered)
	}
	if waited < delay-200*time.Millisecond || waited > delay+3*time.Second {
		t.Errorf("redelivered after %s, want about %s", waited, delay)
	}
	t.Logf("redelivered after %s (delay %s)", waited.Round(time.Millisecond), delay)
	if err := d2.Ack(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func TestTermNeverRedelivers(t *testing.T) {
	t.Parallel()
	const ackWait = time.Second
	q := embedded(t, Options{Redelivery: Redelivery{AckWait: ackWait}})
	submit(t, q, "bad", "job")
	submit(t, q, "good", "job")

	d := next(t, q, 5*time.Second)
	if d.ID != "bad" {
		t.Fatalf("got %s first", d.ID)
	}
	if err := d.Term(); err != nil {
		t.Fatal(err)
	}
	// The next job is delivered, the terminated one is not, not even after AckWait.
	d = next(t, q, 5*time.Second)
	if d.ID != "good" {
		t.Fatalf("got %s after term", d.ID)
	}
	if err := d.Ack(t.Context()); err != nil {
		t.Fatal(err)
	}
	expectNothing(t, q, 2*ackWait)
	waitJobsLeft(t, q, 0)
}

// A Next whose context ends while its pull is open gives back whatever that pull still
// brings, so the job does not wait out AckWait.
func TestNextCancelledHandsBackLateJob(t *testing.T) {
	t.Parallel()
	q := embedded(t, Options{Redelivery: Redelivery{AckWait: time.Minute}})
	other := client(t, q.URL(), Options{Redelivery: Redelivery{AckWait: time.Minute}})

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := q.Next(ctx)
		done <- err
	}()
	// Cancel once the pull is waiting on the server, so that the job submitted next is
	// delivered to it (the server serves waiting pulls in order).
	eventually(t, 5*time.Second, "pull waiting", func() error {
		info, err := q.consumers[LaneMain].Info(t.Context())
		if err != nil {
			return err
		}
		if info.NumWaiting == 0 {
			return errors.New("no pull waiting")
		}
		return nil
	})
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled next: %v", err)
	}
	submit(t, q, "m1", "job")
	// Well within AckWait: the cancelled pull's job was handed back, not held.
	d := next(t, other, 10*time.Second)
	if d.ID != "m1" || d.NumDelivered != 2 {
		t.Fatalf("got %s, delivered %d times; want m1 handed back by the cancelled pull", d.ID, d.NumDelivered)
	}
	if err := d.Ack(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// The lanes in order: a daemon takes every main job first, whatever the order they came in,
// then the test matches, and the ladder's last.
func TestLanesInOrder(t *testing.T) {
	q, err := Open(t.Context(), Options{StoreDir: t.TempDir(), InProcess: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	ctx := t.Context()
	in := []Lane{LaneLadder, LaneTest, LaneMain, LaneTest, LaneMain, LaneLadder, LaneMain, LaneTest}
	waiting := make([]uint64, lanes)
	for i, lane := range in {
		if _, err := q.SubmitTo(ctx, lane, fmt.Sprintf("j%d", i), []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		waiting[lane]++
	}
	// The server tells a consumer of new jobs a moment after it stores them (a pull that asks
	// before then finds none): the order is the lanes' once every consumer knows its jobs.
	for lane, want := range waiting {
		deadline := time.Now().Add(5 * time.Second)
		for {
			info, err := q.consumers[lane].Info(ctx)
			if err == nil && info.NumPending == want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("lane %d: the consumer knows %v of its %d jobs (%v)", lane, info, want, err)
			}
			time.Sleep(time.Millisecond)
		}
	}
	var got []string
	for range in {
		d, err := q.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, d.ID)
		if err := d.Ack(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"j2", "j4", "j6", "j1", "j3", "j7", "j0", "j5"}; !slices.Equal(got, want) {
		t.Errorf("taken %v, want %v", got, want)
	}
	if _, err := q.SubmitTo(ctx, lanes, "nowhere", []byte(`{}`)); err == nil {
		t.Error("a job was submitted to a lane that is not one")
	}
	// An idle daemon takes a ladder job soon after it comes.
	go func() { time.Sleep(100 * time.Millisecond); q.SubmitTo(ctx, LaneLadder, "late", []byte(`{}`)) }()
	start := time.Now()
	d, err := q.Next(ctx)
	if err != nil || d.ID != "late" || time.Since(start) > 2*time.Second {
		t.Errorf("%v after %v", err, time.Since(start))
	}
}
