package daemon

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/botjudge/judge/judge/queue"
)

// Metrics are the daemon's Prometheus metrics.
type Metrics struct {
	Registry     *prometheus.Registry
	Jobs         *prometheus.CounterVec
	QueueLag     prometheus.Gauge
	Wait         prometheus.Histogram
	MatchSeconds *prometheus.HistogramVec
	BuildSeconds *prometheus.HistogramVec
	Faults       *prometheus.CounterVec
	Paused       *prometheus.GaugeVec
	// WorkersWaiting counts the workers that wait for room to start a match (room.go).
	WorkersWaiting prometheus.Gauge
}

// NewMetrics registers the metrics in a registry of their own.
func NewMetrics() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		Jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "judge_jobs_total", Help: "Jobs settled, by outcome (ok, an error code, duplicate, retried, handed_back).",
		}, []string{"outcome"}),
		QueueLag: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "judge_queue_lag_jobs", Help: "Jobs waiting in the queue when this daemon last took one.",
		}),
		Wait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "judge_job_wait_seconds", Help: "Time from a job's publication to a daemon taking it.",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 10),
		}),
		MatchSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "judge_match_duration_seconds", Help: "Wall time of judged matches, building included.",
			Buckets: prometheus.ExponentialBuckets(0.1, 2, 12),
		}, []string{"game"}),
		BuildSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "judge_build_duration_seconds", Help: "Wall time of compilations that missed the cache.",
			Buckets: prometheus.ExponentialBuckets(0.1, 2, 10),
		}, []string{"lang"}),
		Faults: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "judge_sandbox_faults_total", Help: "Player faults in judged matches, by kind.",
		}, []string{"kind"}),
		Paused: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "judge_paused", Help: "1 while the daemon takes no job for want of room: disk (a directory the judge writes to full), nats (the NATS store at its limit), files (the judge's open files at their limit), memory.",
		}, []string{"reason"}),
		WorkersWaiting: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "judge_workers_waiting", Help: "Workers that wait to start a match beside those running: the judge's open files near their limit, or the machine's memory low.",
		}),
	}
	m.Registry.MustRegister(m.Jobs, m.QueueLag, m.Wait, m.MatchSeconds, m.BuildSeconds, m.Faults, m.Paused, m.WorkersWaiting,
		prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
	return m
}

// storeScrapeTimeout bounds reading the stores' sizes at a scrape: a server that does not
// answer in time leaves them out of that scrape rather than holding it.
const storeScrapeTimeout = 5 * time.Second

// WatchStores exports what each store holds (queue.Usage), read at every scrape; a scrape
// while the stores cannot be read has none of them.
func (m *Metrics) WatchStores(usage func(context.Context) ([]queue.Usage, error)) {
	m.Registry.MustRegister(storeCollector(usage))
}

var (
	storeBytes = prometheus.NewDesc("judge_store_bytes", "Bytes each of the judge's JetStream stores holds.", []string{"store"}, nil)
	storeCount = prometheus.NewDesc("judge_store_entries", "What each stream and key-value store holds: jobs waiting, results, keys (not the object stores: counting them reads every name).", []string{"store"}, nil)
	storeAge   = prometheus.NewDesc("judge_store_oldest_seconds", "Age of each store's oldest entry (0 when empty).", []string{"store"}, nil)
)

type storeCollector func(context.Context) ([]queue.Usage, error)

func (c storeCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- storeBytes
	ch <- storeCount
	ch <- storeAge
}

func (c storeCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), storeScrapeTimeout)
	defer cancel()
	usage, err := c(ctx)
	if err != nil {
		return // the daemon's own metrics are still worth a scrape while NATS is away
	}
	for _, u := range usage {
		ch <- prometheus.MustNewConstMetric(storeBytes, prometheus.GaugeValue, float64(u.Bytes), u.Store)
		if u.Kind != "objects" {
			ch <- prometheus.MustNewConstMetric(storeCount, prometheus.GaugeValue, float64(u.Count), u.Store)
		}
		age := 0.0
		if !u.Oldest.IsZero() {
			age = time.Since(u.Oldest).Seconds()
		}
		ch <- prometheus.MustNewConstMetric(storeAge, prometheus.GaugeValue, age, u.Store)
	}
}

// Serve answers /metrics and /healthz on addr until ctx is done. healthy reports whether the
// daemon can work (queue connected, engine reachable).
func (m *Metrics) Serve(ctx context.Context, addr string, healthy func(context.Context) error) error {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		defer cancel()
		if err := healthy(ctx); err != nil {
			http.Error(w, "unhealthy: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
