package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/queue/queuetest"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// A single NATS server, killed (SIGKILL) and started again mid-run, with everything on it:
// judge serve (running the contest engine too: --contests), `judge submit --wait`, a
// tournament and the portal (pages only: --engine=false). Each reconnects by itself: the
// submission gets its result, the tournament judges every match once, the portal serves
// again, a version uploaded after it is built and validated by the engine in judge serve, and
// every job has exactly one result.
func TestOneNATSServerRestarts(t *testing.T) {
	sandboxtest.Engine(t)
	const ackWait = 3 * time.Second
	c := queuetest.StartCluster(t, queuetest.Options{Nodes: 1, AckWait: ackWait})
	t.Setenv("JUDGE_NATS_URL", c.URLs(0))
	t.Setenv("JUDGE_SERVE_ACK_WAIT", ackWait.String())
	t.Setenv("JUDGE_SERVE_HTTP", "off")
	t.Setenv("JUDGE_SERVE_WORKERS", "1")
	t.Setenv("JUDGE_DATA_DIR", sandboxtest.DataDir())
	addr := queuetest.FreeAddr(t)
	t.Setenv("JUDGE_PORTAL_LISTEN", addr)

	if out, err := runCLI(t, "portal", "contest", "create", "spring", "--game", "amazes", "--json"); err != nil {
		t.Fatalf("contest create: %v\n%s", err, out)
	}
	out, err := runCLI(t, "portal", "user", "add", "--contest", "spring", "alice", "--json")
	if err != nil {
		t.Fatalf("user add: %v\n%s", err, out)
	}
	var alice map[string]string
	if err := json.Unmarshal([]byte(out), &alice); err != nil {
		t.Fatal(err)
	}
	contest := func() (int, error) {
		req, _ := http.NewRequest("GET", "http://"+addr+"/api/v1/contests/spring", nil)
		req.Header.Set("Authorization", "Bearer "+alice["token"])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	serve, portal := startCLI(ctx, "serve", "--contests"), startCLI(ctx, "portal", "--engine=false")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if code, err := contest(); err == nil && code == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the portal does not serve")
		}
	}

	dir := t.TempDir()
	for _, lang := range []string{"cpp", "go", "pascal"} {
		if err := os.CopyFS(filepath.Join(dir, lang), os.DirFS(filepath.Join(sandboxtest.Root(), "bots", "amazes", lang))); err != nil {
			t.Fatal(err)
		}
	}
	type outcome struct {
		judged, matches int
		failed          []string
		err             error
	}
	tournamentDone := make(chan outcome, 1)
	go func() {
		o, err := tournamentJSON(t, context.Background(), "--game", "amazes", "--name", "rst", "--opt", "turns=60", "--rounds", "2", dir)
		tournamentDone <- outcome{o.Judged, o.Matches, o.Failed, err}
	}()
	type submitted struct {
		out string
		err error
	}
	submitDone := make(chan submitted, 1)
	go func() {
		root := newRoot()
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(io.Discard)
		root.SetArgs([]string{"submit", "--game", "amazes", "--seed", "3", "--opt", "turns=60", "--wait", "--json",
			filepath.Join(sandboxtest.Root(), "bots", "amazes", "cpp"), filepath.Join(sandboxtest.Root(), "bots", "amazes", "go")})
		sctx, scancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer scancel()
		err := root.ExecuteContext(sctx)
		submitDone <- submitted{out.String(), err}
	}()

	q := resultsAfter(t, c.URLs(0), ackWait, 2)
	c.Kill(0)
	time.Sleep(3 * time.Second)
	c.Restart(0)

	select {
	case s := <-submitDone:
		var r struct{ Status string }
		if s.err != nil || json.Unmarshal([]byte(s.out), &r) != nil || r.Status != "ok" {
			t.Errorf("judge submit --wait across the restart: %v\n%s", s.err, s.out)
		}
	case <-time.After(5 * time.Minute):
		t.Fatal("judge submit --wait did not end in 5 minutes")
	}
	select {
	case o := <-tournamentDone:
		if o.err != nil || o.judged != o.matches || o.matches == 0 || len(o.failed) != 0 {
			t.Errorf("the tournament across the restart: %d of %d judged, failed %v, %v", o.judged, o.matches, o.failed, o.err)
		}
	case <-time.After(5 * time.Minute):
		t.Fatal("the tournament did not finish in 5 minutes")
	}
	if code, err := contest(); err != nil || code != 200 {
		t.Errorf("the portal after the restart: %d, %v", code, err)
	}
	if status := uploadAndWait(t, addr, alice["token"], "spring", filepath.Join(sandboxtest.Root(), "bots", "amazes", "cpp", "bot.cpp")); status != "ready" {
		t.Errorf("a version uploaded after the restart: %s, want ready (built and validated by judge serve --contests)", status)
	}
	statuses := map[string]string{}
	q.Results(context.Background(), "", false, func(id string, data []byte) error {
		var r struct{ Status string }
		json.Unmarshal(data, &r)
		if _, twice := statuses[id]; twice {
			t.Errorf("%s: two results", id)
		}
		statuses[id] = r.Status
		return nil
	})
	for id, s := range statuses {
		if s != "ok" {
			t.Errorf("%s: %s", id, s)
		}
	}
	if !slices.ContainsFunc(slices.Collect(maps.Keys(statuses)), func(id string) bool { return strings.HasPrefix(id, "rst-") }) {
		t.Errorf("no tournament results among %v", statuses)
	}
	cancel()
	stopped(t, time.Minute, serve, portal)
}

// uploadAndWait uploads the file as a new version of token's owner in contest and waits, up
// to two minutes, for its build and validation: the status it came to.
func uploadAndWait(t *testing.T, addr, token, contest, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	code, sub := uploadVersion(addr, token, contest, filepath.Base(file), data)
	id, _ := sub["id"].(string)
	if code != 202 || id == "" {
		t.Fatalf("the upload: %d %v", code, sub)
	}
	status := ""
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		_, s := apiCall(addr, token, "GET", "/api/v1/submissions/"+id, nil, "")
		status, _ = s["status"].(string)
		if status != "queued" && status != "compiling" && status != "validating" {
			break
		}
	}
	return status
}
