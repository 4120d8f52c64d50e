package daemon_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// judge serve with few open files allowed (its hard limit 128, where a match of four bots
// takes about fifty): it runs fewer matches at once, says so, and judges every job, none
// failed and no bot blamed.
func TestFewOpenFiles(t *testing.T) {
	sandboxtest.MustHaveDocker(t)
	srv := server(t, "127.0.0.1:-1", t.TempDir())
	defer srv.Close()
	serve := startServe(t, buildJudge(t), srv.URL(), t.TempDir(), []string{"prlimit", "--nofile=128:128"},
		"JUDGE_SERVE_WORKERS=2", "JUDGE_SERVE_HTTP=off", "JUDGE_LOG_LEVEL=info")
	serveLog, cmd := serve.log, serve.cmd
	most := make(chan int, 1)
	stopSampling := make(chan struct{})
	go func() {
		n := 0
		for {
			select {
			case <-stopSampling:
				most <- n
				return
			case <-time.After(5 * time.Millisecond):
			}
			if fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", cmd.Process.Pid)); err == nil {
				n = max(n, len(fds))
			}
		}
	}()

	langs := []string{"cpp", "go", "pascal", "cpp"}
	var ids []string
	for i := range 8 {
		id := fmt.Sprintf("files-%d", i)
		ids = append(ids, id)
		var bots []string
		for k := range 4 {
			bots = append(bots, "bots/langwars/"+langs[(i+k)%len(langs)])
		}
		submit(t, srv, id, jobJSON(t, id, "langwars", nil, bots...))
	}
	res := results(t, srv, 5*time.Minute, ids...)
	close(stopSampling)
	t.Logf("the judge had at most %d files open", <-most)
	allJudged(t, res)
	log := serveLog()
	if !strings.Contains(log, "fewer workers") {
		t.Errorf("the judge never ran fewer matches at once with 128 open files allowed\n%s", log)
	}
	if strings.Contains(log, "too many open files") {
		t.Errorf("the judge ran out of open files\n%s", log)
	}
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, "fewer workers") || strings.Contains(line, "every worker") || strings.Contains(line, "paused") {
			t.Log(line)
		}
	}
}
