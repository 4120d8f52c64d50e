package daemon_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// A judge upgraded one machine at a time while its matches run: two daemons of one build are
// replaced, one after the other, by daemons of another build, each stopped as an operator
// stops it (SIGINT, as SIGTERM: it takes no new job, finishes or hands back what it runs).
// Every job is judged exactly once, by one build or the other, and both builds judged some.
func TestRollingUpgrade(t *testing.T) {
	before := containers(t)
	srv := server(t, "127.0.0.1:-1", t.TempDir())
	defer srv.Close()
	older, newer := buildJudgeAs(t, "v-older"), buildJudgeAs(t, "v-newer")
	daemons := []*serveProcess{}
	start := func(bin string) *serveProcess {
		s := startServe(t, bin, srv.URL(), t.TempDir(), nil, "JUDGE_SERVE_HTTP=off", "JUDGE_SERVE_WORKERS=1", "JUDGE_LOG_LEVEL=info")
		daemons = append(daemons, s)
		return s
	}
	a, b := start(older), start(older)

	// The jobs come while the machines are replaced: one every 250 ms, for 10 s.
	var ids []string
	for i := range 40 {
		ids = append(ids, fmt.Sprintf("upgrade-%02d", i))
	}
	jobs := map[string][]byte{}
	for _, id := range ids {
		jobs[id] = jobJSON(t, id, "amazes", map[string]string{"turns": "100"}, "bots/amazes/cpp", "bots/amazes/go")
	}
	submitted := make(chan struct{})
	go func() {
		defer close(submitted)
		for _, id := range ids {
			if _, err := srv.Submit(context.Background(), id, jobs[id]); err != nil {
				t.Errorf("submit %s: %v", id, err)
			}
			time.Sleep(250 * time.Millisecond)
		}
	}()
	judgedSoFar := func() int {
		n := 0
		for _, id := range ids {
			if _, found, _ := srv.Result(context.Background(), id); found {
				n++
			}
		}
		return n
	}
	waitUntil := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(3 * time.Minute); judgedSoFar() < n; time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d results after 3 minutes, want %d", judgedSoFar(), n)
			}
		}
	}
	waitUntil(8)
	a.stop() // the first machine: stopped mid-round, its place taken by the newer build
	start(newer)
	waitUntil(16)
	b.stop()
	start(newer)
	<-submitted
	res := results(t, srv, 5*time.Minute, ids...)
	allJudged(t, res)

	byBuild := map[string]int{}
	for _, r := range res {
		byBuild[r.Judge.Version]++
	}
	if byBuild["v-older"] == 0 || byBuild["v-newer"] == 0 || byBuild["v-older"]+byBuild["v-newer"] != len(ids) {
		t.Errorf("judged by build: %v; want both builds, and no other", byBuild)
	}
	judged := regexp.MustCompile(`msg="daemon: judged" job=(\S+)`)
	times := map[string]int{}
	for _, d := range daemons {
		d.stop()
		for _, m := range judged.FindAllStringSubmatch(d.log(), -1) {
			times[m[1]]++
		}
	}
	for _, id := range ids {
		if times[id] != 1 {
			t.Errorf("%s judged %d times, want once", id, times[id])
		}
	}
	if t.Failed() {
		for i, d := range daemons {
			t.Logf("daemon %d:\n%s", i, lastLines(d.log(), 40))
		}
	}
	noContainersLeft(t, before)
}

// buildJudgeAs builds the judge with version as its version (judge version, results).
func buildJudgeAs(t *testing.T, version string) string {
	t.Helper()
	sandboxtest.MustHaveDocker(t)
	bin := filepath.Join(t.TempDir(), "judge-"+version)
	cmd := exec.Command("go", "build", "-ldflags", "-X main.version="+version, "-o", bin, filepath.Join(sandboxtest.Root(), "cmd/judge"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the judge: %v\n%s", err, out)
	}
	return bin
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
