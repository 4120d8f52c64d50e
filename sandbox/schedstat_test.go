package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The wait of a gVisor sandbox's threads is their sum, held to the CPU the bot did not get;
// that of a bot's own threads the longest of one. This test's own threads, more of them busy
// than there are cores, queue for a CPU: their sum is more than the longest.
func TestSchedStatsSince(t *testing.T) {
	procs := filepath.Join(t.TempDir(), "cgroup.procs")
	if err := os.WriteFile(procs, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	own := schedStats{dir: "/proc/self/task"}
	sandboxed := schedStats{dir: "/proc/self/task", procs: procs}
	defer own.close()
	defer sandboxed.close()
	own.mark()
	sandboxed.mark()
	busy := 3 * runtime.NumCPU()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(busy)) // the kernel's run queue, not Go's, holds them
	var wg sync.WaitGroup
	for range busy {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			for end := time.Now().Add(300 * time.Millisecond); time.Now().Before(end); {
			}
		}()
	}
	wg.Wait()
	held := func(d time.Duration) func() time.Duration { return func() time.Duration { return d } }
	unasked := func() time.Duration { t.Error("a bot's own threads' wait read its CPU"); return 0 }
	longest, sum := own.since(unasked), sandboxed.since(held(time.Hour))
	if longest <= 0 || sum <= longest {
		t.Fatalf("threads queuing for a CPU: the longest wait %v, the sum %v; want the sum more than the longest, and both more than 0", longest, sum)
	}
	if got := sandboxed.since(held(longest / 2)); got != longest/2 {
		t.Errorf("a sandbox's wait, held to %v: got %v", longest/2, got)
	}
	if got := sandboxed.since(held(-time.Second)); got != 0 {
		t.Errorf("a sandbox's wait, held to a bot that got more than its share: got %v; want 0", got)
	}
	t.Logf("longest %v, sum %v", longest, sum)
}
