package daemon_test

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkThroughput judges b.N trivial matches (Amazes, one turn each, two cached C++ bots)
// with one and with two daemons on one embedded server, and reports matches per minute.
func BenchmarkThroughput(b *testing.B) {
	for _, daemons := range []int{1, 2} {
		b.Run(fmt.Sprintf("daemons=%d", daemons), func(b *testing.B) {
			srv := server(b, "127.0.0.1:-1", b.TempDir())
			defer srv.Close()
			for i := 0; i < daemons; i++ {
				startDaemon(b, srv.URL())
			}
			var ids []string
			jobs := make([][]byte, b.N)
			for i := range jobs {
				id := fmt.Sprintf("tp-%d-%d", daemons, i)
				ids = append(ids, id)
				jobs[i] = jobJSON(b, id, "amazes", map[string]string{"turns": "1"}, "bots/amazes/cpp", "bots/amazes/cpp")
			}
			b.ResetTimer()
			start := time.Now()
			for i, id := range ids {
				submit(b, srv, id, jobs[i])
			}
			results(b, srv, 10*time.Minute, ids...)
			b.ReportMetric(float64(b.N)/time.Since(start).Minutes(), "matches/min")
		})
	}
}
