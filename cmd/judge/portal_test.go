package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/queue/queuetest"
	"github.com/botjudge/judge/judge/result"
)

// The organiser's commands and `judge portal` beside a NATS server of its own (nats.url): no
// Docker on the portal's side. The contest and the user made by the commands are served: the
// invite link printed opens, and the token printed reads the contest.
func TestPortalBesideAQueue(t *testing.T) {
	_, addr := besideAQueue(t)

	out, err := runCLI(t, "portal", "contest", "create", "spring", "--game", "amazes", "--house", "easy=../../bots/amazes/cpp", "--json")
	if err != nil {
		t.Fatalf("contest create: %v\n%s", err, out)
	}
	var c map[string]any
	if err := json.Unmarshal([]byte(out), &c); err != nil || c["name"] != "spring" || len(c["house"].([]any)) != 1 {
		t.Fatalf("contest create printed %s (%v)", out, err)
	}
	// A contest with leagues: each boss a house bot, the top league without one.
	if out, err := runCLI(t, "portal", "contest", "create", "leagues", "--game", "langwars", "--house", "easy=../../bots/langwars/cpp",
		"--league", "Bronze=nobody", "--league", "Gold"); err == nil || exitCode(err) != 2 || !strings.Contains(err.Error()+out, `boss "nobody" is not a house bot of the contest (it has easy)`) {
		t.Errorf("a league whose boss is no house bot: %v (exit %d) %s", err, exitCode(err), out)
	}
	if out, err := runCLI(t, "portal", "contest", "create", "leagues", "--game", "langwars", "--house", "easy=../../bots/langwars/cpp",
		"--league", "Bronze=easy", "--league", "Gold", "--ladder"); err != nil {
		t.Fatalf("a contest with leagues: %v\n%s", err, out)
	}
	if out, err := runCLI(t, "portal", "contest", "show", "leagues"); err != nil || !strings.Contains(out, "league 1: Bronze, boss easy\n  league 2: Gold, no boss") {
		t.Errorf("contest show: %v\n%s", err, out)
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
	done := startCLI(ctx, "portal")
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
	stopped(t, 15*time.Second, done)
}

// besideAQueue is a NATS server of the test's own for the commands (nats.url), with a data
// directory and an address for the portal (returned) of their own, and no Docker engine: the
// portal must not need one.
func besideAQueue(t *testing.T) (*queue.Queue, string) {
	srv, err := queue.Open(context.Background(), queue.Options{Listen: "127.0.0.1:-1", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	t.Setenv("JUDGE_NATS_URL", srv.URL())
	t.Setenv("JUDGE_DATA_DIR", t.TempDir())
	t.Setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
	addr := queuetest.FreeAddr(t)
	t.Setenv("JUDGE_PORTAL_LISTEN", addr)
	return srv, addr
}

// The contest engine apart from the pages: `judge portal --engine=false` serves the API and
// takes an upload, and `judge portal engine`, another process on the same NATS with no web
// server, moves the version on when the judge's build result comes (here from the test, as
// a daemon would publish it): from compiling to its validation, whose match it queues.
func TestPortalEngineApart(t *testing.T) {
	srv, addr := besideAQueue(t)
	if out, err := runCLI(t, "portal", "contest", "create", "spring", "--game", "langwars", "--house", "easy=../../bots/langwars/cpp"); err != nil {
		t.Fatalf("contest create: %v\n%s", err, out)
	}
	out, err := runCLI(t, "portal", "user", "add", "--contest", "spring", "alice", "--json")
	var u map[string]string
	if err != nil || json.Unmarshal([]byte(out), &u) != nil {
		t.Fatalf("user add: %v\n%s", err, out)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	web, engine := startCLI(ctx, "portal", "--engine=false"), startCLI(ctx, "portal", "engine")
	var code int
	var sub map[string]any
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if code, sub = uploadVersion(addr, u["token"], "spring", "main.cpp", []byte("int main() {}")); code != 0 {
			break
		}
	}
	if code != 202 {
		t.Fatalf("the upload: %d %v", code, sub)
	}
	id := sub["id"].(string)

	// The daemon's part: the build job, judged as compiled.
	jctx, jcancel := context.WithTimeout(ctx, 20*time.Second)
	defer jcancel()
	d, err := srv.Next(jctx)
	if err != nil || d.ID != id+"-build" {
		t.Fatalf("the next job: %v, %v; want %s-build", d, err, id)
	}
	res, _ := json.Marshal(result.Result{Version: result.Version, ID: d.ID, Game: "langwars", Status: result.StatusOK,
		Players: []result.Player{{Name: "alice", Lang: "cpp", Build: result.Build{OK: true}}}})
	if err := srv.PublishResult(jctx, d.Lane, d.ID, res); err != nil {
		t.Fatal(err)
	}
	d.Ack(jctx)
	// The engine queues the validation: a match of the contest's four seats.
	v, err := srv.Next(jctx)
	if err != nil {
		t.Fatalf("no validation match queued by judge portal engine: %v", err)
	}
	var j job.Job
	if json.Unmarshal(v.Data, &j); len(j.Players) != 4 || j.Players[0].Name != "alice" {
		t.Errorf("the validation job %s seats %d players, want alice and three more", v.ID, len(j.Players))
	}
	// The engine queues the validation before it records the build (a step cut between the
	// two is taken again): the version says so a moment later.
	var code2 int
	var s map[string]any
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if code2, s = apiCall(addr, u["token"], "GET", "/api/v1/submissions/"+id, nil, ""); s["status"] == "validating" {
			break
		}
	}
	if code2 != 200 || s["status"] != "validating" {
		t.Errorf("the version after its build: %d %v, want validating", code2, s)
	}
	cancel()
	stopped(t, 15*time.Second, web, engine)
}

// apiCall asks the portal at addr with token: the status (0 when unreachable) and the JSON
// answer.
func apiCall(addr, token, method, path string, body io.Reader, contentType string) (int, map[string]any) {
	req, _ := http.NewRequest(method, "http://"+addr+path, body)
	req.Header.Set("Authorization", "Bearer "+token)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, map[string]any{"error": err.Error()}
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// uploadVersion sends one file as a new version of token's owner in contest.
func uploadVersion(addr, token, contest, name string, data []byte) (int, map[string]any) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("files", name)
	fw.Write(data)
	mw.Close()
	return apiCall(addr, token, "POST", "/api/v1/contests/"+contest+"/submissions", &body, mw.FormDataContentType())
}

// The organiser's commands for people and contests, on the data directory's store: the
// contests listed and shown; the people listed with their role and state, never a password's
// hash; a reset gives a new invite; a removed user is listed as such and cannot be reset; a
// closed contest says so and takes no one more; a contest or a login that is not there is named.
func TestPortalPeopleAndContests(t *testing.T) {
	t.Setenv("JUDGE_DATA_DIR", t.TempDir())
	t.Setenv("JUDGE_NATS_LISTEN", queuetest.FreeAddr(t)) // no judge serve answers there
	run := func(args ...string) string {
		t.Helper()
		out, err := runCLIWithin(t, time.Minute, args...)
		if err != nil {
			t.Fatalf("judge %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	run("portal", "contest", "create", "spring", "--game", "langwars", "--opt", "turns=5", "--deadline", "2027-01-31T18:00:00Z")
	run("portal", "user", "add", "--contest", "spring", "alice")
	run("portal", "user", "add", "--contest", "spring", "org", "--organiser")

	if out := run("portal", "contest", "list"); !strings.Contains(out, "spring   langwars  2") || !strings.Contains(out, "2027-01-31T18:00:00Z") {
		t.Errorf("contest list:\n%s", out)
	}
	if out := run("portal", "contest", "show", "spring"); !strings.Contains(out, "contest spring: langwars") || !strings.Contains(out, "option turns=5") {
		t.Errorf("contest show:\n%s", out)
	}
	// The integrity check of a contest with no version yet (its findings: judge/portal's
	// TestIntegrityCheck).
	if out := run("portal", "contest", "similar", "spring"); !strings.Contains(out, "spring: 0 versions compared, 0 replays read") || !strings.Contains(out, "no two contestants") {
		t.Errorf("contest similar:\n%s", out)
	}
	if out := run("portal", "contest", "similar", "spring", "--json"); !strings.Contains(out, `"pairs": []`) {
		t.Errorf("contest similar --json:\n%s", out)
	}
	if _, err := runCLI(t, "portal", "contest", "similar", "spring", "--min", "2"); exitCode(err) != 2 {
		t.Errorf("contest similar --min 2: exit %d", exitCode(err))
	}
	out := run("portal", "user", "list", "--contest", "spring", "--json")
	var people []map[string]any
	if err := json.Unmarshal([]byte(out), &people); err != nil || len(people) != 2 {
		t.Fatalf("user list --json: %v\n%s", err, out)
	}
	if people[0]["login"] != "alice" || people[0]["role"] != "contestant" || people[0]["state"] != "invited" || people[1]["role"] != "organiser" {
		t.Errorf("the people: %v", people)
	}
	if strings.Contains(out, "password") {
		t.Errorf("user list shows a password:\n%s", out)
	}
	// --json is one line, so that a loop of adds is JSON Lines (docs/organiser.md).
	if out := run("portal", "user", "add", "--contest", "spring", "dave", "--json"); strings.Count(out, "\n") != 1 || !json.Valid([]byte(out)) {
		t.Errorf("user add --json is not one line of JSON:\n%s", out)
	}
	if out := run("portal", "user", "reset", "--contest", "spring", "alice"); !strings.Contains(out, "every session and API token ended") || !strings.Contains(out, "/invite/inv_") {
		t.Errorf("user reset:\n%s", out)
	}
	if out := run("portal", "user", "remove", "--contest", "spring", "alice"); !strings.Contains(out, "alice removed from spring") {
		t.Errorf("user remove:\n%s", out)
	}
	if out := run("portal", "user", "list", "--contest", "spring"); !strings.Contains(out, "alice  contestant  removed") {
		t.Errorf("user list after the removal:\n%s", out)
	}
	// Its settings changed from the command line, each in the log; a bad one refused.
	run("portal", "contest", "set", "spring", "--deadline", "2027-02-01T00:00:00Z", "--test-round", "2027-01-15T12:00:00Z", "--quota", "7")
	if out := run("portal", "contest", "show", "spring"); !strings.Contains(out, "deadline: 2027-02-01T00:00:00Z") || !strings.Contains(out, "test round at 2027-01-15T12:00:00Z") || !strings.Contains(out, "test matches an hour: 7;") {
		t.Errorf("contest show after contest set:\n%s", out)
	}
	for _, bad := range [][]string{{"--deadline", "tomorrow"}, {}, {"--quota", "-1"}} {
		if _, err := runCLI(t, append([]string{"portal", "contest", "set", "spring"}, bad...)...); exitCode(err) != 2 {
			t.Errorf("contest set %q: exit %d (%v); want 2", bad, exitCode(err), err)
		}
	}
	if out := run("portal", "contest", "close", "spring"); !strings.Contains(out, "contest spring: closed at ") {
		t.Errorf("contest close:\n%s", out)
	}
	if out := run("portal", "contest", "show", "spring"); !strings.Contains(out, ": read-only") {
		t.Errorf("contest show of a closed contest:\n%s", out)
	}
	if _, err := runCLI(t, "portal", "user", "add", "--contest", "spring", "carol"); exitCode(err) != 1 || !strings.Contains(fmt.Sprint(err), "contest spring was closed at") {
		t.Errorf("user add to a closed contest: %v (exit %d); want exit 1 saying it is closed", err, exitCode(err))
	}
	// What was done is in the contest's log, newest first, by the command line's user.
	var actions []struct{ Who, What string }
	if err := json.Unmarshal([]byte(run("portal", "contest", "log", "spring", "--json")), &actions); err != nil {
		t.Fatal(err)
	}
	var whats []string
	for _, x := range actions {
		whats = append(whats, x.What)
		if !strings.HasPrefix(x.Who, "cli") {
			t.Errorf("an action by %q, not the command line", x.Who)
		}
	}
	if want := []string{"closed the contest", `changed the settings: {"deadline":"2027-02-01T00:00:00Z","test_quota":7,"test_rounds":["2027-01-15T12:00:00Z"]}`, "removed alice", "reset alice: every session and token ended, a new invite",
		"added contestant dave", "added organiser org", "added contestant alice", "created the contest (langwars)"}; !slices.Equal(whats, want) {
		t.Errorf("contest log: %q\nwant %q", whats, want)
	}
	if out := run("portal", "contest", "log", "spring", "-n", "1"); !strings.Contains(out, "closed the contest") || strings.Contains(out, "removed alice") {
		t.Errorf("contest log -n 1:\n%s", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"portal", "contest", "show", "autumn"}, "autumn: no such contest"},
		{[]string{"portal", "user", "list", "--contest", "autumn"}, "--contest autumn: no such contest"},
		{[]string{"portal", "user", "reset", "--contest", "spring", "zed"}, "zed: no such user of contest spring"},
		{[]string{"portal", "user", "reset", "--contest", "spring", "alice"}, "alice was removed from contest spring"},
		{[]string{"portal", "user", "remove", "--contest", "spring", "zed"}, "zed: no such user of contest spring"},
		{[]string{"portal", "user", "remove", "alice"}, "--contest: the contest"},
		{[]string{"portal", "contest", "close", "autumn"}, "autumn: no such contest"},
		{[]string{"portal", "contest", "similar", "autumn"}, "autumn: no such contest"},
		{[]string{"portal", "contest", "log", "autumn"}, "autumn: no such contest"},
		{[]string{"portal", "contest", "log", "spring", "-n", "-1"}, "-n -1: want 0 (all) or more"},
	} {
		if _, err := runCLI(t, tc.args...); exitCode(err) != 2 || !strings.Contains(fmt.Sprint(err), tc.want) {
			t.Errorf("judge %s: %v; want exit status 2 saying %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
}
