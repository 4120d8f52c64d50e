package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// ackWait is short so that a dead daemon's job comes back quickly; every queue in a test
// must use the same value (it is a setting of the shared consumer).
const ackWait = 3 * time.Second

// server starts an embedded NATS server with JetStream on addr ("127.0.0.1:-1" for any
// port) and returns the queue that owns it.
func server(t testing.TB, addr, dir string) *queue.Queue {
	t.Helper()
	q, err := queue.Open(context.Background(), queue.Options{Redelivery: queue.Redelivery{AckWait: ackWait}, Listen: addr, StoreDir: dir, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

var quiet = slog.New(slog.DiscardHandler)

func client(t testing.TB, url string) *queue.Queue { return clientAck(t, url, ackWait) }

// clientAck is client with another AckWait, for a test whose every queue uses it.
func clientAck(t testing.TB, url string, ack time.Duration) *queue.Queue {
	t.Helper()
	q, err := queue.Open(context.Background(), queue.Options{Redelivery: queue.Redelivery{AckWait: ack}, URL: url, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	return q
}

// startDaemon runs an in-process daemon on its own connection, sharing artifacts through the
// queue as judge serve does; adjust may change its options. It stops with the test.
func startDaemon(t testing.TB, url string, adjust ...func(*daemon.Options)) *daemon.Metrics {
	t.Helper()
	m, stop := runDaemon(t, url, adjust...)
	t.Cleanup(stop)
	return m
}

// runDaemon starts a daemon like startDaemon and returns the function that stops it.
func runDaemon(t testing.TB, url string, adjust ...func(*daemon.Options)) (*daemon.Metrics, func()) {
	t.Helper()
	m := daemon.NewMetrics()
	q := client(t, url)
	return m, runDaemonOn(t, q, m, ackWait, adjust...)
}

// runDaemonOn runs a daemon on q, whose AckWait is ack.
func runDaemonOn(t testing.TB, q *queue.Queue, m *daemon.Metrics, ack time.Duration, adjust ...func(*daemon.Options)) func() {
	t.Helper()
	r := matchtest.Runner(t)
	b := r.Builder.(*build.Builder)
	o := daemon.Options{
		Queue: q, Jobs: job.Rules{Game: games.Lookup, Langs: images.LangNames(), MaxSource: 1 << 20}, Workers: 1, Grace: 30 * time.Second,
		Heartbeat: ack / 3, Metrics: m, Backoff: []time.Duration{time.Second},
		Runners: []daemon.Runner{r},
	}
	b.Remote = q.Cache(queue.BucketArtifacts)
	for _, f := range adjust {
		f(&o)
	}
	d, err := daemon.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	var once sync.Once
	return func() { once.Do(func() { cancel(); <-done }) }
}

// jobJSON makes a job of the sample bots.
func jobJSON(t testing.TB, id, gameName string, opts map[string]string, bots ...string) []byte {
	t.Helper()
	var players []job.Player
	for _, b := range bots {
		s := matchtest.Load(t, b)
		players = append(players, job.NewPlayer(b, s.Lang, s.Files))
	}
	seed := uint64(1)
	data, err := json.Marshal(job.New(id, gameName, &seed, opts, players))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func submit(t testing.TB, q *queue.Queue, id string, data []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := q.Submit(ctx, id, data); err != nil {
		t.Fatal(err)
	}
}

// results waits until ids all have results (or the timeout) and returns them by id.
func results(t testing.TB, q *queue.Queue, timeout time.Duration, ids ...string) map[string]result.Result {
	t.Helper()
	deadline := time.Now().Add(timeout)
	out := map[string]result.Result{}
	for time.Now().Before(deadline) {
		for _, id := range ids {
			if _, ok := out[id]; ok {
				continue
			}
			data, found, err := q.Result(context.Background(), id)
			if err != nil || !found {
				continue
			}
			var r result.Result
			if err := json.Unmarshal(data, &r); err != nil {
				t.Fatalf("result of %s: %v", id, err)
			}
			out[id] = r
		}
		if len(out) == len(ids) {
			return out
		}
		time.Sleep(200 * time.Millisecond)
	}
	var missing []string
	for _, id := range ids {
		if _, ok := out[id]; !ok {
			missing = append(missing, id)
		}
	}
	t.Fatalf("no result after %v for %d jobs: %v", timeout, len(missing), missing)
	return nil
}

// allJudged fails t for each result that is not ok or has a player faulted or not built.
func allJudged(t testing.TB, res map[string]result.Result) {
	t.Helper()
	for id, r := range res {
		if r.Status != result.StatusOK {
			t.Errorf("%s: %+v", id, r.Error)
			continue
		}
		for _, p := range r.Players {
			if p.Fault != nil || !p.Build.OK {
				t.Errorf("%s: player %s: fault %+v, build %+v", id, p.Name, p.Fault, p.Build)
			}
		}
	}
}

func counter(m *daemon.Metrics, outcome string) float64 {
	var total float64
	mf, _ := m.Registry.Gather()
	for _, f := range mf {
		if f.GetName() != "judge_jobs_total" {
			continue
		}
		for _, c := range f.GetMetric() {
			for _, l := range c.GetLabel() {
				if l.GetName() == "outcome" && l.GetValue() == outcome {
					total += c.GetCounter().GetValue()
				}
			}
		}
	}
	return total
}

// noContainersLeft waits until every judge container on this host but those in before is gone,
// dead judges' being swept: a judge killed while the engine was still making a container (a bot's
// or its pool's) leaves one that appears after it died.
func noContainersLeft(t *testing.T, before []string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ids := containers(t)
		var extra []string
		for _, id := range ids {
			if !slices.Contains(before, id) {
				extra = append(extra, id[:12])
			}
		}
		if len(extra) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("containers left behind: %v", extra)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// containers lists the judge containers of this test binary's judges (their state
// directories are in the tests' data directory or in TMPDIR: make test runs other packages
// beside this one, with their own), once those of dead judges are swept: a judge killed
// earlier (by a test of this package or another) leaves its bots' and its warm pool's, and a
// judge serve that a test starts sweeps them, which would move the count.
func containers(t *testing.T) []string {
	e := sandboxtest.Engine(t)
	if _, err := e.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	ids, err := e.Containers(context.Background(), sandboxtest.DataDir(), os.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// Three daemons on one server share 60 jobs: each job gets exactly one result and is judged
// exactly once.
func TestThreeDaemonsSixtyJobs(t *testing.T) {
	before := containers(t)
	srv := server(t, "127.0.0.1:-1", t.TempDir())
	defer srv.Close()
	var metrics []*daemon.Metrics
	for i := 0; i < 3; i++ {
		metrics = append(metrics, startDaemon(t, srv.URL()))
	}
	var ids []string
	for i := 0; i < 60; i++ {
		id := fmt.Sprintf("many-%02d", i)
		ids = append(ids, id)
		submit(t, srv, id, jobJSON(t, id, "amazes", map[string]string{"turns": "5"}, "bots/amazes/cpp", "bots/amazes/go"))
	}
	res := results(t, srv, 5*time.Minute, ids...)
	for id, r := range res {
		if r.Status != result.StatusOK || r.ID != id || len(r.Players) != 2 {
			t.Errorf("%s: %+v", id, r)
		}
	}
	judged := 0.0
	for i, m := range metrics {
		n := counter(m, "ok")
		t.Logf("daemon %d judged %v jobs", i, n)
		judged += n
	}
	if judged != 60 {
		t.Errorf("%v judgements for 60 jobs", judged)
	}
	noContainersLeft(t, before)
}

// Poison jobs get an error result naming the problem, and the daemon keeps serving.
func TestPoisonJobs(t *testing.T) {
	srv := server(t, "127.0.0.1:-1", t.TempDir())
	defer srv.Close()
	startDaemon(t, srv.URL())
	good := func(id string) []byte {
		return jobJSON(t, id, "amazes", map[string]string{"turns": "2"}, "bots/amazes/cpp", "bots/amazes/go")
	}
	edit := func(id string, f func(*job.Job)) []byte {
		var j job.Job
		json.Unmarshal(good(id), &j)
		f(&j)
		data, _ := json.Marshal(j)
		return data
	}
	huge := strings.Repeat("x", 20<<20) // 20 MiB, twenty times the source limit
	cases := []struct {
		id      string
		code    result.Code
		mention string
		data    []byte
	}{
		{"poison-json", result.InvalidJob, "not a job", []byte(`{"version": 1, "id": "poison-json", "game": `)},
		{"poison-game", result.UnknownGame, "chess", edit("poison-game", func(j *job.Job) { j.Game = "chess" })},
		{"poison-option", result.BadOption, "turns", edit("poison-option", func(j *job.Job) { j.Options = map[string]any{"turns": "many"} })},
		{"poison-unknown-option", result.BadOption, "colour", edit("poison-unknown-option", func(j *job.Job) { j.Options = map[string]any{"colour": "red"} })},
		{"poison-players", result.InvalidJob, "players", edit("poison-players", func(j *job.Job) { j.Players = j.Players[:1] })},
		{"poison-huge", result.InvalidJob, "bytes", edit("poison-huge", func(j *job.Job) { j.Players[0].Files["big.cpp"] = huge })},
		{"poison-lang", result.InvalidJob, "cobol", edit("poison-lang", func(j *job.Job) { j.Players[1].Lang = "cobol" })},
		{"poison-path", result.InvalidJob, "..", edit("poison-path", func(j *job.Job) { j.Players[0].Files["../x.cpp"] = "int main(){}" })},
		{"poison-version", result.InvalidJob, "version", edit("poison-version", func(j *job.Job) { j.Version = 7 })},
	}
	var ids []string
	for _, c := range cases {
		submit(t, srv, c.id, c.data)
		ids = append(ids, c.id)
	}
	// A 50 MB job does not even get into the stream (over the server's largest message): the
	// submitter is told so, and the daemon is untouched.
	fifty := edit("poison-50mb", func(j *job.Job) { j.Players[0].Files["big.cpp"] = strings.Repeat("x", 50<<20) })
	if _, err := srv.Submit(context.Background(), "poison-50mb", fifty); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("submitting 50 MB: want a 'too large' error, got %v", err)
	}
	submit(t, srv, "after-poison", good("after-poison"))
	res := results(t, srv, 3*time.Minute, append(ids, "after-poison")...)
	for _, c := range cases {
		r := res[c.id]
		if r.Status != result.StatusError || r.Error == nil || r.Error.Code != c.code || !strings.Contains(r.Error.Message, c.mention) {
			t.Errorf("%s: got status %s error %+v, want %s mentioning %q", c.id, r.Status, r.Error, c.code, c.mention)
		}
	}
	if r := res["after-poison"]; r.Status != result.StatusOK {
		t.Errorf("the daemon did not judge a good job after the poison: %+v", r)
	}
}

// The same job id is judged once: a duplicate publish is dropped by the queue, and a job
// whose result already exists is acknowledged without judging it again.
func TestDuplicateJudgedOnce(t *testing.T) {
	srv := server(t, "127.0.0.1:-1", t.TempDir())
	defer srv.Close()
	m := startDaemon(t, srv.URL())
	data := jobJSON(t, "dup", "amazes", map[string]string{"turns": "2"}, "bots/amazes/cpp", "bots/amazes/go")
	submit(t, srv, "dup", data)
	dup, err := srv.Submit(context.Background(), "dup", data)
	if err != nil || !dup {
		t.Fatalf("second submit: duplicate=%v err=%v", dup, err)
	}
	first := results(t, srv, time.Minute, "dup")["dup"]
	// The same job again under another message id (past the queue's de-duplication).
	submit(t, srv, "dup-again", data)
	deadline := time.Now().Add(time.Minute)
	for counter(m, "duplicate") < 1 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if n := counter(m, "ok"); n != 1 {
		t.Errorf("judged %v times", n)
	}
	if n := counter(m, "duplicate"); n != 1 {
		t.Errorf("%v jobs recognised as already judged, want 1", n)
	}
	if again := results(t, srv, time.Second, "dup")["dup"]; again.Judge.Started != first.Judge.Started {
		t.Error("the stored result was replaced")
	}
}

// A NATS server restarted under running daemons: they reconnect and nothing is lost.
func TestServerRestart(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	srv := server(t, addr, dir)
	startDaemon(t, "nats://"+addr)
	startDaemon(t, "nats://"+addr)
	var ids []string
	for i := 0; i < 6; i++ {
		id := fmt.Sprintf("restart-%d", i)
		ids = append(ids, id)
		submit(t, srv, id, jobJSON(t, id, "amazes", map[string]string{"turns": "5"}, "bots/amazes/cpp", "bots/amazes/go"))
	}
	time.Sleep(500 * time.Millisecond) // some jobs are running now
	srv.Close()
	time.Sleep(time.Second)
	srv = server(t, addr, dir)
	defer srv.Close()
	for i := 6; i < 12; i++ {
		id := fmt.Sprintf("restart-%d", i)
		ids = append(ids, id)
		submit(t, srv, id, jobJSON(t, id, "amazes", map[string]string{"turns": "5"}, "bots/amazes/cpp", "bots/amazes/go"))
	}
	res := results(t, srv, 3*time.Minute, ids...)
	for id, r := range res {
		if r.Status != result.StatusOK {
			t.Errorf("%s: %+v", id, r.Error)
		}
	}
}

// buildJudge builds the judge's binary, for a daemon in a process of its own. Such a daemon
// judges matches, so it needs the engine: without one it would take the test's jobs and wait
// for ever, where the test should skip (or fail at once under JUDGE_REQUIRE_DOCKER=1).
func buildJudge(t *testing.T) string {
	t.Helper()
	sandboxtest.MustHaveDocker(t)
	bin := filepath.Join(t.TempDir(), "judge")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(sandboxtest.Root(), "cmd/judge")).CombinedOutput(); err != nil {
		t.Fatalf("building the judge: %v\n%s", err, out)
	}
	return bin
}

// A daemon killed (SIGKILL) in the middle of a match: the job is judged by another daemon,
// exactly one result is published, and no container or temporary file is left behind.
func TestKilledDaemon(t *testing.T) {
	before := containers(t)
	srv := server(t, "127.0.0.1:-1", t.TempDir())
	defer srv.Close()
	bin := buildJudge(t)
	dataDir, tmp := t.TempDir(), t.TempDir()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "JUDGE_NATS_URL="+srv.URL(), "JUDGE_DATA_DIR="+dataDir,
		"JUDGE_SERVE_ACK_WAIT="+ackWait.String(), "JUDGE_SERVE_HTTP=off", "JUDGE_LOG_LEVEL=warn")
	var logs strings.Builder
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	kill := func() { once.Do(func() { cmd.Process.Signal(syscall.SIGKILL); cmd.Wait() }) }
	defer kill()
	// The broken fugitive sleeps at its second move: the match runs ~15 s (the wall cap).
	submit(t, srv, "killed", jobJSON(t, "killed", "ontherun", nil, "bots/ontherun/broken", "bots/ontherun/cpp"))
	deadline := time.Now().Add(2 * time.Minute)
	for len(containers(t)) < len(before)+2 {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon never started the match\n%s", logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	kill()
	if _, found, _ := srv.Result(context.Background(), "killed"); found {
		t.Fatal("a result before the match could finish")
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("the killed daemon left %d temporary files, %s first", len(left), left[0].Name())
	}
	// A second judge starts: it sweeps the dead one's containers, and gets the job once the
	// dead daemon's ack wait runs out.
	if _, err := sandboxtest.Engine(t).Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	m := startDaemon(t, srv.URL())
	r := results(t, srv, 3*time.Minute, "killed")["killed"]
	if r.Status != result.StatusOK || r.Players[0].Fault == nil || r.Players[0].Fault.Kind != "timeout" {
		t.Errorf("result: %+v", r)
	}
	time.Sleep(ackWait + time.Second) // a second delivery, if any, would be judged by now
	if n := counter(m, "ok"); n != 1 {
		t.Errorf("judged %v times", n)
	}
	noContainersLeft(t, before)
}

// A second daemon does not rebuild what the first built: artifacts are shared through the
// queue's object store, even between daemons with separate caches. An artifact aged out of
// the store (nats.artifacts_max_age) while a daemon still has it is shared again at its next
// use there, so a third daemon does not rebuild it either.
func TestArtifactsShared(t *testing.T) {
	srv := server(t, "127.0.0.1:-1", t.TempDir())
	defer srv.Close()
	cacheIn := func(dir string) func(o *daemon.Options) {
		return func(o *daemon.Options) { o.Runners[0].(*match.Runner).Builder.(*build.Builder).Dir = dir }
	}
	// Sources nobody has compiled yet: the hello bot with a comment unique to this run.
	hello, err := os.ReadFile(filepath.Join(sandboxtest.Root(), "bots/amazes/cpp/bot.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	unique := append([]byte(fmt.Sprintf("// %s %d\n", t.Name(), time.Now().UnixNano())), hello...)
	judge := func(id, dir string) result.Result {
		t.Helper()
		var j job.Job
		json.Unmarshal(jobJSON(t, id, "amazes", map[string]string{"turns": "2"}, "bots/amazes/cpp", "bots/amazes/go"), &j)
		j.Players[0].Files = map[string]string{"bot.cpp": string(unique)}
		data, _ := json.Marshal(j)
		_, stop := runDaemon(t, srv.URL(), cacheIn(dir))
		defer stop()
		submit(t, srv, id, data)
		r := results(t, srv, 2*time.Minute, id)[id]
		if r.Status != result.StatusOK {
			t.Fatalf("%s: status %s: %+v", id, r.Status, r.Error)
		}
		return r
	}
	a := t.TempDir()
	if first := judge("shared-1", a); first.Players[0].Build.Cached {
		t.Fatalf("first build: cached; want it compiled")
	}
	// A fresh cache: only the object store has the build.
	if second := judge("shared-2", t.TempDir()); !second.Players[0].Build.Cached {
		t.Errorf("second build: compiled; want a hit from the shared store")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if ex, err := srv.Admin().ExpireArtifacts(ctx, time.Now().Add(time.Hour), false); err != nil || ex.Count == 0 {
		t.Fatalf("aging the shared builds out: %+v, %v", ex, err)
	}
	if third := judge("shared-3", a); !third.Players[0].Build.Cached {
		t.Errorf("third build, on the first daemon's cache: compiled; want its own cache's hit")
	}
	if fourth := judge("shared-4", t.TempDir()); !fourth.Players[0].Build.Cached {
		t.Errorf("fourth build, in a fresh cache after the store aged it out: compiled; want it shared again by the daemon that used it")
	}
}

// serveProcess is a judge serve of bin in a process of its own, on the NATS server at url
// with data_dir dataDir, ack wait ackWait and env besides; prefix runs it under another
// command (prlimit). Its log is read by log; stop ends it (SIGINT) and waits, and the test's
// end does if the test did not.
type serveProcess struct {
	cmd     *exec.Cmd
	logPath string
	once    sync.Once
}

func startServe(t *testing.T, bin, url, dataDir string, prefix []string, env ...string) *serveProcess {
	t.Helper()
	args := append(append([]string(nil), prefix...), bin, "serve")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(append(os.Environ(), "JUDGE_NATS_URL="+url, "JUDGE_DATA_DIR="+dataDir,
		"JUDGE_SERVE_ACK_WAIT="+ackWait.String()), env...)
	s := &serveProcess{cmd: cmd, logPath: filepath.Join(t.TempDir(), "serve.log")}
	logs, err := os.Create(s.logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.stop)
	return s
}

func (s *serveProcess) stop() {
	s.once.Do(func() {
		s.cmd.Process.Signal(os.Interrupt)
		s.cmd.Wait()
	})
}

func (s *serveProcess) log() string {
	b, _ := os.ReadFile(s.logPath)
	return string(b)
}
