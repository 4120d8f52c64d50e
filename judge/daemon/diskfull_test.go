package daemon_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/queue/queuetest"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// The disk under data_dir fills while judge serve runs: a job that needs to write there (a
// submission to compile) is neither failed nor lost - the daemon says so in its log and
// metrics and hands it back - and once room is freed the judge goes on by itself and judges
// it, once.
func TestDiskFills(t *testing.T) {
	sandboxtest.MustHaveDocker(t) // before the tmpfs: without an engine this skips, root or not
	dataDir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=384m", "tmpfs", dataDir).CombinedOutput(); err != nil {
		t.Fatalf("this test mounts a small tmpfs as data_dir (it needs root): %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dataDir).Run() })
	srv := server(t, "127.0.0.1:-1", t.TempDir())
	defer srv.Close()
	metricsAddr := queuetest.FreeAddr(t)
	serveLog := startServe(t, buildJudge(t), srv.URL(), dataDir, nil,
		"JUDGE_SERVE_WORKERS=1", "JUDGE_SERVE_HTTP="+metricsAddr, "JUDGE_LOG_LEVEL=info").log

	submit(t, srv, "before", jobJSON(t, "before", "amazes", map[string]string{"turns": "5"}, "bots/amazes/cpp", "bots/amazes/go"))
	if r := results(t, srv, 3*time.Minute, "before")["before"]; r.Status != result.StatusOK {
		t.Fatalf("the first job: %+v", r.Error)
	}

	filler := filepath.Join(dataDir, "filler")
	if out, err := exec.Command("dd", "if=/dev/zero", "of="+filler, "bs=1M", "count=1024").CombinedOutput(); err == nil {
		t.Fatalf("dd filled a 384 MiB disk with 1 GiB: %s", out)
	}
	// A submission never seen: it is compiled, and its artifact written to data_dir.
	s := matchtest.Load(t, "bots/amazes/cpp")
	for name := range s.Files {
		s.Files[name] = append(s.Files[name], []byte("\n// a new version, compiled on a full disk\n")...)
		break
	}
	seed := uint64(1)
	data, err := json.Marshal(job.New("during", "amazes", &seed, map[string]string{"turns": "5"},
		[]job.Player{job.NewPlayer("new", s.Lang, s.Files), job.NewPlayer("go", "go", matchtest.Load(t, "bots/amazes/go").Files)}))
	if err != nil {
		t.Fatal(err)
	}
	submit(t, srv, "during", data)
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(serveLog(), "paused") || storageFull(t, metricsAddr) != 1 {
		if time.Now().After(deadline) {
			data, _, _ := srv.Result(context.Background(), "during")
			t.Fatalf("a minute after the disk filled, the judge has not said so in its log and metrics\n%s\nthe job's result: %s", serveLog(), data)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if code, body := get(t, "http://"+metricsAddr+"/healthz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "no room (disk)") {
		t.Errorf("/healthz while the disk is full: %d %q; want 503 saying so", code, body)
	}
	time.Sleep(3 * time.Second)
	if _, found, err := srv.Result(context.Background(), "during"); err != nil || found {
		t.Fatalf("a result for the job while the disk was full (found %v, %v): it must be handed back, not failed", found, err)
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	r := results(t, srv, 3*time.Minute, "during")["during"]
	if r.Status != result.StatusOK {
		t.Fatalf("the job judged once there was room: %+v", r.Error)
	}
	for _, p := range r.Players {
		if !p.Build.OK || p.Fault != nil {
			t.Errorf("player %s: build %+v, fault %+v: the full disk was blamed on a bot", p.Name, p.Build, p.Fault)
		}
	}
	if code, body := get(t, "http://"+metricsAddr+"/healthz"); code != http.StatusOK {
		t.Errorf("/healthz once the job went through: %d %q; want 200", code, body)
	}
	if got := storageFull(t, metricsAddr); got != 0 {
		t.Errorf("judge_paused{reason=\"disk\"} = %v after the job went through; want 0", got)
	}
	if !strings.Contains(serveLog(), "room again") {
		t.Errorf("the judge did not say it resumed\n%s", serveLog())
	}
	for _, line := range strings.Split(serveLog(), "\n") {
		if strings.Contains(line, "paused") || strings.Contains(line, "room") || strings.Contains(line, "handed back") {
			t.Log(line)
		}
	}
	var n int
	srv.Results(context.Background(), "during", false, func(id string, _ []byte) error {
		if id == "during" {
			n++
		}
		return nil
	})
	if n != 1 {
		t.Errorf("%d results for the job, want exactly one", n)
	}
}

// get is a GET's status and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// storageFull reads judge_paused{reason="disk"} from the judge's /metrics (0 if absent).
func storageFull(t *testing.T, addr string) float64 {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), `judge_paused{reason="disk"} `); ok {
			return map[string]float64{"0": 0, "1": 1}[v]
		}
	}
	return 0
}
