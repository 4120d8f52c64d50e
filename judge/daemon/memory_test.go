package daemon_test

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// judge serve on a machine short of memory (another process holds all but ~380 MiB of it,
// less than a match may need): it runs one match at a time and says why, judges every job,
// none failed and no bot blamed; once the memory is back, every worker plays again.
func TestMemoryPressure(t *testing.T) {
	sandboxtest.MustHaveDocker(t)
	srv := server(t, "127.0.0.1:-1", t.TempDir())
	defer srv.Close()
	serve := startServe(t, buildJudge(t), srv.URL(), t.TempDir(), nil,
		"JUDGE_SERVE_WORKERS=2", "JUDGE_SERVE_HTTP=off", "JUDGE_LOG_LEVEL=info")
	jobs := func(prefix string, n int) []string {
		var ids []string
		for i := range n {
			id := fmt.Sprintf("%s-%d", prefix, i)
			ids = append(ids, id)
			submit(t, srv, id, jobJSON(t, id, "amazes", nil, "bots/amazes/cpp", "bots/amazes/cpp"))
		}
		return ids
	}
	judged := func(ids []string) {
		t.Helper()
		allJudged(t, results(t, srv, 5*time.Minute, ids...))
	}
	judged(jobs("warm", 2)) // the bots built and their containers warm before the memory goes

	release := holdMemory(t, 380<<20)
	judged(jobs("short", 6))
	log := serve.log()
	if !strings.Contains(log, "fewer workers") || !strings.Contains(log, "MiB available") {
		release()
		t.Fatalf("the judge never ran fewer matches at once, for want of memory, with ~380 MiB available\n%s", log)
	}
	release()
	t.Logf("%s: the memory given back", time.Now().UTC().Format(time.TimeOnly))
	deadline := time.Now().Add(30 * time.Second)
	for !strings.HasSuffix(strings.TrimSpace(serve.log()), `msg="daemon: every worker may start a match again"`) {
		if time.Now().After(deadline) {
			t.Fatalf("with the memory back, the judge did not say that every worker plays again\n%s", serve.log())
		}
		time.Sleep(100 * time.Millisecond)
	}
	fewer := strings.Count(serve.log(), "fewer workers")
	judged(jobs("back", 4))
	if n := strings.Count(serve.log(), "fewer workers"); n != fewer {
		t.Errorf("with the memory back, the judge still ran fewer matches at once\n%s", serve.log())
	}
	for _, line := range strings.Split(serve.log(), "\n") {
		if strings.Contains(line, "fewer workers") || strings.Contains(line, "every worker") || strings.Contains(line, "paused") {
			t.Log(line)
		}
	}
}

// holdMemory takes the machine's memory, in pages of its own that it touches, until about
// leave is available (MemAvailable), and gives it back when release is called (or at the
// test's end). This process is made the first the kernel kills if the machine runs out.
func holdMemory(t *testing.T, leave uint64) (release func()) {
	t.Helper()
	if err := os.WriteFile("/proc/self/oom_score_adj", []byte("1000"), 0); err != nil {
		t.Fatal(err)
	}
	var held [][]byte
	release = func() {
		for _, m := range held {
			syscall.Munmap(m)
		}
		held = nil
	}
	t.Cleanup(release)
	for {
		avail, err := daemon.MemAvailable()
		if err != nil {
			release()
			t.Fatal(err)
		}
		if avail < leave+64<<20 {
			t.Logf("holding %d MiB: %d MiB available", heldBytes(held)>>20, avail>>20)
			return release
		}
		n := min(avail-leave, 256<<20)
		m, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE,
			syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_POPULATE)
		if err != nil {
			release()
			t.Fatalf("taking %d MiB more with %d MiB available: %v", n>>20, avail>>20, err)
		}
		held = append(held, m)
	}
}

func heldBytes(held [][]byte) uint64 {
	var n uint64
	for _, m := range held {
		n += uint64(len(m))
	}
	return n
}
