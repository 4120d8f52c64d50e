package daemon_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/queue/queuetest"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// TestSoak is make soak: JUDGE_SOAK mixed matches through a judge serve of its own process,
// on this test's NATS server, a few in flight at once: every game with its default number of
// players, each seat a sample bot of a random language or, one match in three, one seat a
// chaos bot (C++ or Python) that crashes, spins, sleeps, floods, answers garbage or exits at
// once. It reports at the start (after a tenth of the matches, when every kind of bot has had
// its pool and cache) and at the end the judge's memory,
// goroutines and open files, the containers, what each store holds and the data directory, and
// submit-to-result times; it fails when a job has no result or two, when a container, a match
// directory, a bot's pipe or a replay file is left, or when the judge's goroutines or open
// files grew.
func TestSoak(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("JUDGE_SOAK"))
	if err != nil || n <= 0 {
		t.Skip("a long run of its own: make soak (JUDGE_SOAK=5000)")
	}
	before := containers(t)
	replaysBefore, _ := filepath.Glob(filepath.Join(os.TempDir(), "judge-replay-*"))
	srv := server(t, "127.0.0.1:-1", t.TempDir())
	defer srv.Close()
	bin := buildJudge(t)
	dataDir := t.TempDir()
	metricsAddr := queuetest.FreeAddr(t)
	serve := startServe(t, bin, srv.URL(), dataDir, nil, "JUDGE_SERVE_HTTP="+metricsAddr, "JUDGE_LOG_LEVEL=warn")
	stop := serve.stop

	// Every seat's candidates: the sample bots of each language, and the chaos bots.
	samples := images.LangNames()
	chaos := []string{"sandbox/testdata/chaos/cpp", "sandbox/testdata/chaos/python"}
	rng := rand.New(rand.NewPCG(1, 2))
	jobs := make([][]byte, n)
	ids := make([]string, n)
	for i := range jobs {
		g := games.All()[rng.IntN(len(games.All()))]
		_, _, players := g.Players()
		var bots []string
		for k := 0; k < players; k++ {
			bots = append(bots, "bots/"+g.Name()+"/"+samples[rng.IntN(len(samples))])
		}
		if rng.IntN(3) == 0 {
			bots[rng.IntN(players)] = chaos[rng.IntN(len(chaos))]
		}
		ids[i] = fmt.Sprintf("soak-%05d", i)
		jobs[i] = jobJSON(t, ids[i], g.Name(), soakOptions[g.Name()], bots...)
	}

	// Results as they are published: a job judged twice shows as a second one.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	got := map[string]int{}
	done := map[string]time.Time{}
	statuses := map[string]int{}
	go srv.Results(ctx, "", true, func(id string, data []byte) error {
		var r result.Result
		json.Unmarshal(data, &r)
		mu.Lock()
		got[id]++
		if got[id] == 1 {
			done[id] = time.Now()
			statuses[string(r.Status)]++
		}
		mu.Unlock()
		return nil
	})
	resultOf := func(id string) bool {
		mu.Lock()
		defer mu.Unlock()
		return got[id] > 0
	}

	const inFlight = 4
	submitted := make([]time.Time, n)
	var start, end soakFigures
	begin := time.Now()
	next := 0
	for waitFor := 0; waitFor < n; waitFor++ {
		for next < n && next < waitFor+inFlight {
			submitted[next] = time.Now()
			submit(t, srv, ids[next], jobs[next])
			next++
		}
		deadline := time.Now().Add(5 * time.Minute)
		for !resultOf(ids[waitFor]) {
			if time.Now().After(deadline) {
				t.Fatalf("no result for %s after 5 minutes", ids[waitFor])
			}
			time.Sleep(5 * time.Millisecond)
		}
		if waitFor == min(n-1, max(20, n/10)) { // the pools and caches of every kind of bot warm by then
			start = measure(t, bin, srv.URL(), metricsAddr, dataDir)
		}
		if waitFor%100 == 99 {
			t.Logf("%d/%d matches, %s", waitFor+1, n, time.Since(begin).Round(time.Second))
		}
	}
	elapsed := time.Since(begin)
	// Every job's result is in; what is left in flight settles before the end's figures.
	time.Sleep(2 * time.Second)
	end = measure(t, bin, srv.URL(), metricsAddr, dataDir)
	stop()

	var lat []time.Duration
	mu.Lock()
	for i, id := range ids {
		if got[id] != 1 {
			t.Errorf("%s: %d results, want exactly one", id, got[id])
		}
		lat = append(lat, done[id].Sub(submitted[i]))
	}
	mu.Unlock()
	slices.Sort(lat)
	left := containers(t)
	if len(left) > len(before) {
		t.Errorf("%d containers left", len(left)-len(before))
	}
	for _, part := range []string{"matches", "run"} { // the matches' files, the bots' pipes
		if entries, _ := os.ReadDir(filepath.Join(dataDir, part)); len(entries) > 0 {
			t.Errorf("%d entries left in %s", len(entries), filepath.Join(dataDir, part))
		}
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "judge-replay-*")); len(left) > len(replaysBefore) {
		t.Errorf("%d replay files left in %s", len(left)-len(replaysBefore), os.TempDir())
	}
	t.Logf("%d matches in %s (%.1f/min); results by status: %v", n, elapsed.Round(time.Second), float64(n)/elapsed.Minutes(), statuses)
	t.Logf("submit to result: p50 %s, p99 %s, max %s", lat[len(lat)/2].Round(time.Millisecond),
		lat[len(lat)*99/100].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))
	t.Logf("| | start | end |\n| --- | --- | --- |\n%s", start.table(end))
	// Allow for what is warming up at the start (the pool, the caches): growth beyond it is a leak.
	if end.goroutines > start.goroutines+20 {
		t.Errorf("goroutines grew: %d at the start, %d at the end", start.goroutines, end.goroutines)
	}
	if end.fds > start.fds+20 {
		t.Errorf("open files grew: %d at the start, %d at the end", start.fds, end.fds)
	}
	if end.rss > 2*start.rss+64<<20 {
		t.Errorf("memory grew: %d MiB at the start, %d MiB at the end", start.rss>>20, end.rss>>20)
	}
}

// soakOptions keep each match short (a soak is of many matches, not long ones), and a chaos
// bot that spins from burning a whole game's budget.
var soakOptions = map[string]map[string]string{
	"amazes":    {"turns": "40", "time": "2s"},
	"ontherun":  {"cities": "60", "time": "2s"},
	"dropblock": {"turns": "200", "ready": "1s"},
	"langwars":  {"ready": "2s"},
	"snakecore": {"moves": "100", "first": "3s", "total": "10s"},
}

// soakFigures are the judge's own figures and what it stores, at one moment of the soak.
type soakFigures struct {
	rss, goroutines, fds, containers int64
	// What judge store --json says: the stores and the data directory's parts.
	Stores  []queue.Usage `json:"nats"`
	DataDir []struct {
		Name  string `json:"name"`
		Bytes int64  `json:"bytes"`
	} `json:"data_dir_parts"`
}

// measure reads the judge's figures from its /metrics, the containers from the engine, and
// the stores and the data directory as an organiser would: judge store --json.
func measure(t *testing.T, bin, natsURL, metricsAddr, dataDir string) soakFigures {
	t.Helper()
	var f soakFigures
	resp, err := http.Get("http://" + metricsAddr + "/metrics")
	if err != nil {
		t.Fatalf("the judge's /metrics: %v", err)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		v, err := strconv.ParseFloat(value, 64)
		if !ok || err != nil {
			continue
		}
		switch name {
		case "process_resident_memory_bytes":
			f.rss = int64(v)
		case "go_goroutines":
			f.goroutines = int64(v)
		case "process_open_fds":
			f.fds = int64(v)
		}
	}
	resp.Body.Close()
	ids, err := sandboxtest.Engine(t).Containers(context.Background(), sandboxtest.DataDir(), os.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f.containers = int64(len(ids))
	cmd := exec.Command(bin, "store", "--json")
	cmd.Env = append(os.Environ(), "JUDGE_NATS_URL="+natsURL, "JUDGE_DATA_DIR="+dataDir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("judge store --json: %v", err)
	}
	if err := json.Unmarshal(out, &f); err != nil {
		t.Fatalf("judge store --json: %v: %s", err, out)
	}
	return f
}

// table is the rows of a start-and-end table in Markdown.
func (s soakFigures) table(e soakFigures) string {
	var b strings.Builder
	row := func(what string, x, y any) { fmt.Fprintf(&b, "| %s | %v | %v |\n", what, x, y) }
	row("judge RSS (MiB)", s.rss>>20, e.rss>>20)
	row("goroutines", s.goroutines, e.goroutines)
	row("open files", s.fds, e.fds)
	row("containers (the pool's)", s.containers, e.containers)
	for i, u := range e.Stores {
		var was queue.Usage
		if i < len(s.Stores) {
			was = s.Stores[i]
		}
		row(fmt.Sprintf("store %s: count, KiB", u.Store), fmt.Sprintf("%d, %d", was.Count, was.Bytes>>10), fmt.Sprintf("%d, %d", u.Count, u.Bytes>>10))
	}
	before := map[string]int64{}
	for _, d := range s.DataDir {
		before[d.Name] = d.Bytes
	}
	for _, d := range e.DataDir {
		row("data_dir/"+d.Name+" (KiB)", before[d.Name]>>10, d.Bytes>>10)
	}
	return b.String()
}
