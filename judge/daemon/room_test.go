package daemon_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/result"
)

// noSpace is a write that found the disk full, as the match's writes report it.
var noSpace = fmt.Errorf("writing the match's files: %w", &fs.PathError{Op: "write", Path: "/data/matches/m1/map.txt", Err: syscall.ENOSPC})

// storeFull is the NATS store at its limit, as JetStream refuses a write.
var storeFull = fmt.Errorf("storing the replay: %w", &jetstream.APIError{Code: 503, ErrorCode: 10023, Description: "insufficient resources"})

// failsThen fails the first n matches with err, then judges.
func failsThen(n int, err error) func(match.Job) (result.Result, error) {
	return func(j match.Job) (result.Result, error) {
		if n > 0 {
			n--
			return result.Result{}, err
		}
		return judged(j)
	}
}

func fullDaemon(t *testing.T, q *fakeQueue, r daemon.Runner, dirs []string, adjust ...func(*daemon.Options)) (*daemon.Daemon, *daemon.Metrics) {
	t.Helper()
	m := daemon.NewMetrics()
	o := daemon.Options{Queue: q, Runners: []daemon.Runner{r}, Jobs: job.Rules{Game: games.Lookup, Langs: images.LangNames(), MaxSource: 1 << 20},
		Backoff: []time.Duration{5 * time.Second, 30 * time.Second}, Dirs: dirs, RoomEvery: 20 * time.Millisecond,
		Headroom: func() error { return nil }, Metrics: m, Log: slog.New(slog.DiscardHandler)}
	for _, f := range adjust {
		f(&o)
	}
	d, err := daemon.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return d, m
}

// Storage with no room is not the job's fault: the job is handed back with back-off, never
// failed, and on its last attempt it is kept and judged once there is room.
func TestStorageFullWithFakes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		err       error
		where     string
		delivered uint64
		settled   string
		calls     int
	}{
		{"disk full", noSpace, "disk", 1, "nak 5s", 1},
		{"disk full again", noSpace, "disk", 2, "nak 30s", 1},
		{"NATS store full", storeFull, "nats", 1, "nak 5s", 1},
		{"disk full on the last attempt", noSpace, "disk", maxDeliver, "ack", 2},
		{"NATS store full on the last attempt", storeFull, "nats", maxDeliver, "ack", 2},
		{"out of open files", fmt.Errorf("sandbox: %w", &fs.PathError{Op: "open", Path: "/proc/7/task/7/schedstat", Err: syscall.EMFILE}), "files", 1, "nak 5s", 1},
		{"out of memory", fmt.Errorf("sandbox: creating container: %w", syscall.ENOMEM), "memory", 1, "nak 5s", 1},
		{"out of open files on the last attempt", fmt.Errorf("x: %w", syscall.EMFILE), "files", maxDeliver, "ack", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := newFakeQueue()
			r := &fakeRunner{play: failsThen(1, tc.err)}
			d, m := fullDaemon(t, q, r, []string{t.TempDir()})
			msg := &fakeMsg{id: "m1", data: aJob("m1"), delivered: tc.delivered, settled: make(chan string, 4)}
			q.next <- msg
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { d.Run(ctx); close(done) }()
			defer func() { cancel(); <-done }()
			var how string
			select {
			case how = <-msg.settled:
			case <-time.After(10 * time.Second):
				t.Fatal("the job was not settled")
			}
			if how != tc.settled || r.calls != tc.calls {
				t.Errorf("settled %q after %d matches; want %q after %d", how, r.calls, tc.settled, tc.calls)
			}
			for _, res := range q.published {
				if res.Status != result.StatusOK {
					t.Errorf("published %+v: want no error result for a full storage", res)
				}
			}
			if tc.settled != "ack" {
				if got := testutil.ToFloat64(m.Paused.WithLabelValues(tc.where)); got != 1 {
					t.Errorf("judge_paused{reason=%q} = %v while paused; want 1", tc.where, got)
				}
			}
		})
	}
}

// After a full disk the daemon takes no job until each of its directories has room, and
// then goes on by itself.
func TestFullDiskPausesTheDaemonWithFakes(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "data")
	q := newFakeQueue()
	r := &fakeRunner{play: failsThen(1, noSpace)}
	d, m := fullDaemon(t, q, r, []string{gone}) // a directory that is not there has no room
	first := &fakeMsg{id: "m1", data: aJob("m1"), delivered: 1, settled: make(chan string, 4)}
	q.next <- first
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	if how := <-first.settled; how != "nak 5s" {
		t.Fatalf("settled %q; want nak 5s", how)
	}
	second := &fakeMsg{id: "m2", data: aJob("m2"), delivered: 1, settled: make(chan string, 4)}
	q.next <- second
	select {
	case how := <-second.settled:
		t.Fatalf("a job was taken and settled %q while the disk had no room", how)
	case <-time.After(300 * time.Millisecond):
	}
	if got := testutil.ToFloat64(m.Paused.WithLabelValues("disk")); got != 1 {
		t.Errorf("judge_paused{reason=disk} = %v while paused; want 1", got)
	}
	if err := d.Paused(); err == nil || !strings.Contains(err.Error(), "no room (disk)") || !strings.Contains(err.Error(), "map.txt") {
		t.Errorf("Paused while paused: %v; want what is lacking and why", err)
	}
	if err := os.Mkdir(gone, 0o755); err != nil { // room again
		t.Fatal(err)
	}
	select {
	case how := <-second.settled:
		if how != "ack" {
			t.Errorf("the next job settled %q once there was room; want ack", how)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the daemon did not go on once there was room")
	}
	if got := testutil.ToFloat64(m.Paused.WithLabelValues("disk")); got != 0 {
		t.Errorf("judge_paused{reason=disk} = %v after the pause; want 0", got)
	}
	if err := d.Paused(); err != nil {
		t.Errorf("Paused after the pause: %v", err)
	}
	if !strings.HasPrefix(q.published[0].ID, "m2") {
		t.Errorf("published %+v", q.published)
	}
}

// Short of open files or memory, a worker starts no match beside those running, and the
// judge goes on one match at a time; with headroom again, every worker does.
func TestFewerWorkersWithFakes(t *testing.T) {
	q := newFakeQueue()
	q.next = make(chan jetstream.Msg, 8)
	var mu sync.Mutex
	running, most := 0, 0
	release := make(chan struct{})
	r := &fakeRunner{play: func(j match.Job) (result.Result, error) {
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		<-release
		mu.Lock()
		running--
		mu.Unlock()
		return judged(j)
	}}
	var short atomic.Bool
	short.Store(true)
	d, m := fullDaemon(t, q, r, []string{t.TempDir()}, func(o *daemon.Options) {
		o.Workers = 3
		o.Headroom = func() error {
			if short.Load() {
				return errors.New("files: 990 open of the judge's limit of 1024")
			}
			return nil
		}
	})
	msgs := make([]*fakeMsg, 6)
	for i := range msgs {
		msgs[i] = &fakeMsg{id: fmt.Sprintf("m%d", i), data: aJob(fmt.Sprintf("m%d", i)), delivered: 1, settled: make(chan string, 4)}
		q.next <- msgs[i]
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	defer func() { cancel(); close(release); <-done }()
	// Short of room: one match at a time, the other workers waiting.
	for i := range 3 {
		time.Sleep(150 * time.Millisecond)
		if got := testutil.ToFloat64(m.WorkersWaiting); got != 2 {
			t.Errorf("match %d: %v workers waiting; want 2", i, got)
		}
		release <- struct{}{}
		if how := <-msgs[i].settled; how != "ack" {
			t.Fatalf("%s settled %q", msgs[i].id, how)
		}
	}
	mu.Lock()
	if most != 1 {
		t.Errorf("%d matches ran at once while the judge was short of room; want 1", most)
	}
	mu.Unlock()
	// Room again: the three workers play at once.
	short.Store(false)
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := running
		mu.Unlock()
		if n == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d matches run at once with room again; want 3", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for i := 3; i < 6; i++ {
		release <- struct{}{}
	}
	for i := 3; i < 6; i++ {
		if how := <-msgs[i].settled; how != "ack" {
			t.Fatalf("%s settled %q", msgs[i].id, how)
		}
	}
	if got := testutil.ToFloat64(m.WorkersWaiting); got != 0 {
		t.Errorf("%v workers waiting with room; want 0", got)
	}
}
