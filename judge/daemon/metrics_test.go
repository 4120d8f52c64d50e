package daemon_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/queue"
)

// /metrics exports each store's bytes, entries and oldest entry's age, read at the scrape; a
// scrape while the stores cannot be read still serves the daemon's own metrics.
func TestMetricsExportStores(t *testing.T) {
	var fail atomic.Bool
	m := daemon.NewMetrics()
	m.WatchStores(func(context.Context) ([]queue.Usage, error) {
		if fail.Load() {
			return nil, errors.New("nats: no servers available")
		}
		return []queue.Usage{
			{Store: "replays", Kind: "objects", Bytes: 45000, Oldest: time.Now().Add(-time.Hour)},
			{Store: "results", Kind: "stream", Count: 3, Bytes: 4000},
			{Store: "jobs", Kind: "stream"},
		}, nil
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go m.Serve(ctx, addr, func(context.Context) error { return nil })
	scrape := func() string {
		t.Helper()
		for i := 0; ; i++ {
			resp, err := http.Get("http://" + addr + "/metrics")
			if err != nil && i < 50 {
				time.Sleep(20 * time.Millisecond)
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("/metrics: %s: %s", resp.Status, b)
			}
			return string(b)
		}
	}
	page := scrape()
	for _, want := range []string{`judge_store_bytes{store="replays"} 45000`, `judge_store_entries{store="results"} 3`,
		`judge_store_entries{store="jobs"} 0`, `judge_store_oldest_seconds{store="replays"} 36`, `judge_store_oldest_seconds{store="jobs"} 0`} {
		if !strings.Contains(page, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if strings.Contains(page, `judge_store_entries{store="replays"}`) {
		t.Errorf("an object store's entries exported uncounted")
	}
	fail.Store(true)
	page = scrape()
	if strings.Contains(page, "judge_store_bytes{") || !strings.Contains(page, "judge_jobs_total") && !strings.Contains(page, "go_goroutines") {
		t.Errorf("with the stores unreadable: %.2000s", page)
	}
}
