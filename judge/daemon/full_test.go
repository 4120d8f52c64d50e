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

func fullDaemon(t *testing.T, q *fakeQueue, r daemon.Runner, dirs []string) (*daemon.Daemon, *daemon.Metrics) {
	t.Helper()
	m := daemon.NewMetrics()
	d, err := daemon.New(daemon.Options{Queue: q, Runners: []daemon.Runner{r}, Jobs: job.Rules{Game: games.Lookup, Langs: images.LangNames(), MaxSource: 1 << 20},
		Backoff: []time.Duration{5 * time.Second, 30 * time.Second}, Dirs: dirs, RoomEvery: 20 * time.Millisecond,
		Metrics: m, Log: slog.New(slog.DiscardHandler)})
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
		{"the engine's disk full", errors.New("sandbox: creating container: Error response from daemon: mkdir /var/lib/docker/x: no space left on device"), "disk", 1, "nak 5s", 1},
		{"NATS store full", storeFull, "nats", 1, "nak 5s", 1},
		{"disk full on the last attempt", noSpace, "disk", maxDeliver, "ack", 2},
		{"NATS store full on the last attempt", storeFull, "nats", maxDeliver, "ack", 2},
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
				if got := testutil.ToFloat64(m.StorageFull.WithLabelValues(tc.where)); got != 1 {
					t.Errorf("judge_storage_full{where=%q} = %v while paused; want 1", tc.where, got)
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
	if got := testutil.ToFloat64(m.StorageFull.WithLabelValues("disk")); got != 1 {
		t.Errorf("judge_storage_full{where=disk} = %v while paused; want 1", got)
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
	if got := testutil.ToFloat64(m.StorageFull.WithLabelValues("disk")); got != 0 {
		t.Errorf("judge_storage_full{where=disk} = %v after the pause; want 0", got)
	}
	if !strings.HasPrefix(q.published[0].ID, "m2") {
		t.Errorf("published %+v", q.published)
	}
}
