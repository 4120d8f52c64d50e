package daemon_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/queue/queuetest"
	"github.com/botjudge/judge/sandbox"
)

// BenchmarkThroughput is b.N trivial matches (Amazes with one turn, two cached C++ bots)
// submitted at once and judged by 1, 2 or 3 in-process daemons of one worker each: on the
// embedded server alone ("single"), and on a 3-node cluster with every stream on 3 replicas,
// each daemon connected to a node of its own ("cluster-r3"), with the bots' containers
// started when their match needs them ("cold") or kept warm ahead (sandbox.DefaultWarm, as
// judge serve does: "warm").
func BenchmarkThroughput(b *testing.B) {
	for _, setup := range []string{"single", "cluster-r3"} {
		for _, daemons := range []int{1, 2, 3} {
			for _, containers := range []string{"cold", "warm", "reused"} {
				benchThroughput(b, setup, daemons, containers)
			}
		}
	}
}

// benchThroughput runs trivial matches through daemons daemons whose bots start in new
// containers (cold), in containers started ahead (warm), or in their own containers of
// earlier matches, reset (reused; warm for their first).
func benchThroughput(b *testing.B, setup string, daemons int, containers string) {
	b.Run(fmt.Sprintf("%s/daemons=%d/%s", setup, daemons, containers), func(b *testing.B) {
		url := func(int) string { return "" }
		if setup == "single" {
			srv := server(b, "127.0.0.1:-1", b.TempDir())
			defer srv.Close()
			url = func(int) string { return srv.URL() }
		} else {
			c := queuetest.StartCluster(b, queuetest.Options{AckWait: ackWait})
			url = c.URLs
		}
		var engines []*sandbox.Engine
		for i := 0; i < daemons; i++ {
			startDaemon(b, url(i), func(o *daemon.Options) {
				e := matchtest.Engine(o.Runners[0].(*match.Runner))
				if containers != "cold" {
					e.Warm(sandbox.DefaultWarm)
				}
				if containers == "reused" {
					e.Reuse(sandbox.DefaultReuse)
				}
				engines = append(engines, e)
			})
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
		// The containers removed in the background are the run's work too.
		for _, e := range engines {
			e.Settle()
		}
		b.ReportMetric(float64(b.N)/time.Since(start).Minutes(), "matches/min")
	})
}
