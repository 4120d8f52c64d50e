package sandbox

import (
	"fmt"
	"testing"
)

// BenchmarkSchedStats is what reading the run-queue wait costs at every turn: the threads'
// schedstat files held open and read with a pread each (as Exchange does), against listing the
// threads and opening their files anew (what a turn past its wall limit does). The threads are
// this test process's (a Go program has several), so the figure is per thread as well.
func BenchmarkSchedStats(b *testing.B) {
	for _, relist := range []bool{false, true} {
		b.Run(fmt.Sprintf("relist=%v", relist), func(b *testing.B) {
			s := schedStats{dir: "/proc/self/task"}
			defer s.close()
			s.each(true, func(string, int64) {})
			threads := len(s.files)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.each(relist, func(string, int64) {})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(threads), "ns/thread")
			b.ReportMetric(float64(threads), "threads")
		})
	}
}
