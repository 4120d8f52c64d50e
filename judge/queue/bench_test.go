package queue_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/botjudge/judge/judge/queue"
)

// BenchmarkOverhead is the queue's own cost per job: a job from Submit to a daemon's Next,
// and a result from PublishResult to a following client, against a plain NATS request/reply
// on the same servers as the baseline; on the embedded server alone ("single"), and on a
// 3-node cluster in this process with every stream on 3 replicas ("cluster-r3"), the
// daemon connected to another node than the submitter.
func BenchmarkOverhead(b *testing.B) {
	ctx := context.Background()
	quiet := slog.New(slog.DiscardHandler)
	b.Run("single", func(b *testing.B) {
		srv, err := queue.Open(ctx, queue.Options{Listen: "127.0.0.1:-1", StoreDir: b.TempDir(), Logger: quiet})
		if err != nil {
			b.Fatal(err)
		}
		defer srv.Close()
		overhead(b, srv.URL(), srv.URL())
	})
	b.Run("cluster-r3", func(b *testing.B) {
		urls := benchCluster(b, 3)
		overhead(b, urls[0], urls[1])
	})
}

// benchCluster starts n embedded servers in a cluster, in this process, and returns their
// client URLs.
func benchCluster(b *testing.B, n int) []string {
	var clients, routes []string
	for range n {
		for _, list := range []*[]string{&clients, &routes} {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			*list = append(*list, l.Addr().String())
			l.Close()
		}
	}
	qs := make([]*queue.Queue, n)
	errs := make(chan error, n)
	for i := range n {
		go func() {
			q, err := queue.Open(context.Background(), queue.Options{Listen: clients[i], StoreDir: b.TempDir(), Replicas: n,
				Cluster: queue.Cluster{Listen: routes[i], Routes: routes}, Logger: slog.New(slog.DiscardHandler)})
			qs[i] = q
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
	}
	b.Cleanup(func() {
		for _, q := range qs {
			q.Close()
		}
	})
	var urls []string
	for _, q := range qs {
		urls = append(urls, q.URL())
	}
	return urls
}

// overhead measures on the server(s) at submitURL (the submitter, the results' reader) and
// daemonURL (the daemon).
func overhead(b *testing.B, submitURL, daemonURL string) {
	ctx := context.Background()
	quiet := slog.New(slog.DiscardHandler)
	srv, err := queue.Open(ctx, queue.Options{URL: submitURL, Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	daemon, err := queue.Open(ctx, queue.Options{URL: daemonURL, Logger: quiet})
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
		nc, _ := nats.Connect(submitURL)
		defer nc.Close()
		rc, _ := nats.Connect(daemonURL)
		defer rc.Close()
		sub, _ := rc.Subscribe("bench.echo", func(m *nats.Msg) { m.Respond(m.Data) })
		defer sub.Unsubscribe()
		rc.Flush()
		time.Sleep(100 * time.Millisecond) // the subscription reaches the other nodes
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
			if err := d.Ack(ctx); err != nil {
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
			if err := daemon.PublishResult(ctx, queue.LaneMain, id, job); err != nil {
				b.Fatal(err)
			}
			for got := <-seen; got != id; got = <-seen {
			}
			ts = append(ts, time.Since(start))
		}
		b.ReportMetric(median(ts), "median-us")
	})
}

// BenchmarkExpireKeys is the hourly clean-up's cost per key-value entry it expires (a
// portal's match record of 1.5 KB and the index key beside it), against the baseline of
// writing that record and its index, on the embedded server.
func BenchmarkExpireKeys(b *testing.B) {
	ctx := context.Background()
	q, err := queue.Open(ctx, queue.Options{Listen: "127.0.0.1:-1", StoreDir: b.TempDir(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	defer q.Close()
	kv, err := q.KeyValue(ctx, "bench")
	if err != nil {
		b.Fatal(err)
	}
	record := make([]byte, 1500)
	start := time.Now()
	for i := range b.N {
		if _, err := kv.Put(ctx, fmt.Sprintf("match.m%d", i), record); err != nil {
			b.Fatal(err)
		}
		if _, err := kv.Put(ctx, fmt.Sprintf("own.c.u.m.m%d", i), []byte(`"m"`)); err != nil {
			b.Fatal(err)
		}
	}
	written := time.Since(start)
	b.ResetTimer()
	ex, err := q.Admin().ExpireKeys(ctx, "bench", "match.*", time.Now().Add(time.Hour), false, func(key string, _ []byte) (bool, []string) {
		return true, []string{"own.c.u.m." + key[len("match."):]}
	})
	b.StopTimer()
	if err != nil || ex.Count != b.N {
		b.Fatalf("expired %+v, %v; want %d", ex, err, b.N)
	}
	b.ReportMetric(float64(written.Microseconds())/float64(b.N), "write-us/entry")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/(float64(written.Microseconds())/float64(b.N)), "expire/write")
}
