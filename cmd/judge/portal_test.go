package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/queue/queuetest"
)

// The organiser's commands and `judge portal` beside a NATS server of its own (nats.url): no
// Docker on the portal's side. The contest and the user made by the commands are served: the
// invite link printed opens, and the token printed reads the contest.
func TestPortalBesideAQueue(t *testing.T) {
	srv, err := queue.Open(context.Background(), queue.Options{Listen: "127.0.0.1:-1", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	t.Setenv("JUDGE_NATS_URL", srv.URL())
	t.Setenv("JUDGE_DATA_DIR", t.TempDir())
	t.Setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock") // the portal must not need it
	addr := queuetest.FreeAddr(t)
	t.Setenv("JUDGE_PORTAL_LISTEN", addr)

	out, err := runCLI(t, "portal", "contest", "create", "spring", "--game", "amazes", "--house", "easy=../../bots/amazes/cpp", "--json")
	if err != nil {
		t.Fatalf("contest create: %v\n%s", err, out)
	}
	var c map[string]any
	if err := json.Unmarshal([]byte(out), &c); err != nil || c["name"] != "spring" || len(c["house"].([]any)) != 1 {
		t.Fatalf("contest create printed %s (%v)", out, err)
	}
	out, err = runCLI(t, "portal", "user", "add", "--contest", "spring", "alice", "--json")
	if err != nil {
		t.Fatalf("user add: %v\n%s", err, out)
	}
	var u map[string]string
	if err := json.Unmarshal([]byte(out), &u); err != nil || u["login"] != "alice" || !strings.HasPrefix(u["invite"], "http://"+addr+"/invite/") {
		t.Fatalf("user add printed %s (%v)", out, err)
	}
	if _, err := runCLI(t, "portal", "user", "add", "--contest", "spring", "alice"); err == nil || exitCode(err) != 2 {
		t.Errorf("alice twice: %v (exit %d), want exit 2", err, exitCode(err))
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"portal", "round", "start", "--contest", "spring", "--official"}, "the official round starts after the deadline"},
		{[]string{"portal", "round", "start", "--contest", "spring"}, "0 entrants"},
		{[]string{"portal", "round", "start", "--contest", "autumn"}, "--contest autumn: no such contest"},
		{[]string{"portal", "round", "show", "spring-official"}, "round spring-official: no such round"},
	} {
		if out, err := runCLI(t, c.args...); err == nil || exitCode(err) != 2 || !strings.Contains(err.Error()+out, c.want) {
			t.Errorf("%v: %v (exit %d) %s, want exit 2 and %q", c.args, err, exitCode(err), out, c.want)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		root := newRoot()
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		root.SetArgs([]string{"portal"})
		done <- root.ExecuteContext(ctx)
	}()
	var resp *http.Response
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err = http.Get(u["invite"]); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatalf("the portal does not serve: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "Choose a password for <b>alice</b>") {
		t.Errorf("the invite page: %d\n%s", resp.StatusCode, body)
	}
	req, _ := http.NewRequest("GET", "http://"+addr+"/api/v1/contests/spring", nil)
	req.Header.Set("Authorization", "Bearer "+u["token"])
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"game": "amazes"`) {
		t.Errorf("the contest by alice's token: %d %s", resp.StatusCode, body)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil && err != context.Canceled {
			t.Errorf("judge portal ended with %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Error("judge portal did not stop")
	}
}
