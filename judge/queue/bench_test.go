package queue_test

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/botjudge/judge/judge/queue"
)

// BenchmarkOverhead is the queue's own cost per job on an embedded server: a job from Submit
// to a daemon's Next, and a result from PublishResult to a following client, against a plain
// NATS request/reply on the same server as the baseline.
func BenchmarkOverhead(b *testing.B) {
	ctx := context.Background()
	srv, err := queue.Open(ctx, queue.Options{Listen: "127.0.0.1:-1", StoreDir: b.TempDir(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	daemon, err := queue.Open(ctx, queue.Options{URL: srv.URL(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	defer daemon.Close()
	job := make([]byte, 4096) // a small job: two short sources
	median := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds())
	}

	b.Run("nats-request-reply", func(b *testing.B) {
		nc, _ := nats.Connect(srv.URL())
		defer nc.Close()
		sub, _ := nc.Subscribe("bench.echo", func(m *nats.Msg) { m.Respond(m.Data) })
		defer sub.Unsubscribe()
		var ts []time.Duration
		for i := 0; i < b.N; i++ {
			start := time.Now()
			if _, err := nc.Request("bench.echo", job, 5*time.Second); err != nil {
				b.Fatal(err)
			}
			ts = append(ts, time.Since(start))
		}
		b.ReportMetric(median(ts), "median-us")
	})
	b.Run("job-submit-to-next", func(b *testing.B) {
		var ts []time.Duration
		for i := 0; i < b.N; i++ {
			id := fmt.Sprintf("bench-%d-%d", b.N, i)
			start := time.Now()
			if _, err := srv.Submit(ctx, id, job); err != nil {
				b.Fatal(err)
			}
			d, err := daemon.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			ts = append(ts, time.Since(start))
			if err := d.Ack(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(median(ts), "median-us")
	})
	b.Run("result-publish-to-seen", func(b *testing.B) {
		seen := make(chan string, 1)
		fctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go srv.Results(fctx, "", true, func(id string, _ []byte) error { seen <- id; return nil })
		time.Sleep(200 * time.Millisecond)
		var ts []time.Duration
		for i := 0; i < b.N; i++ {
			id := fmt.Sprintf("res-%d-%d", b.N, i)
			start := time.Now()
			if err := daemon.PublishResult(ctx, id, job); err != nil {
				b.Fatal(err)
			}
			for got := <-seen; got != id; got = <-seen {
			}
			ts = append(ts, time.Since(start))
		}
		b.ReportMetric(median(ts), "median-us")
	})
}
