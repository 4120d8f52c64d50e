package daemon_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/queue/queuetest"
)

// BenchmarkThroughput is b.N trivial matches (Amazes with one turn, two cached C++ bots)
// submitted at once and judged by 1, 2 or 3 in-process daemons of one worker each: on the
// embedded server alone ("single"), and on a 3-node cluster with every stream on 3 replicas,
// each daemon connected to a node of its own ("cluster-r3").
func BenchmarkThroughput(b *testing.B) {
	for _, setup := range []string{"single", "cluster-r3"} {
		for _, daemons := range []int{1, 2, 3} {
			b.Run(fmt.Sprintf("%s/daemons=%d", setup, daemons), func(b *testing.B) {
				url := func(int) string { return "" }
				if setup == "single" {
					srv := server(b, "127.0.0.1:-1", b.TempDir())
					defer srv.Close()
					url = func(int) string { return srv.URL() }
				} else {
					c := queuetest.StartCluster(b, queuetest.Options{AckWait: ackWait})
					url = c.URLs
				}
				for i := 0; i < daemons; i++ {
					startDaemon(b, url(i))
				}
				q := client(b, url(0))
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
					submit(b, q, id, jobs[i])
				}
				results(b, q, 10*time.Minute, ids...)
				b.ReportMetric(float64(b.N)/time.Since(start).Minutes(), "matches/min")
			})
		}
	}
}
