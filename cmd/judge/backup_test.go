package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/queue/queuetest"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// A season's store backed up while its ladders play (a game of two and a game of four), the
// store wiped and the backup restored: every result there before the backup began is there
// after, with its replay, which verifies; the people, their versions and their ratings are
// there; the portal serves and the ladders go on. A restore onto the store while the judge
// runs is refused, saying to stop it; one onto a store with streams, saying to move it away.
func TestBackupOfASeason(t *testing.T) {
	sandboxtest.Engine(t)
	_, store := natsHere(t)
	addr := queuetest.FreeAddr(t)
	t.Setenv("JUDGE_PORTAL_LISTEN", addr)
	contests := map[string]string{"two": "amazes", "four": "langwars"}
	bots := map[string]string{"two": filepath.Join(sandboxtest.Root(), "bots", "amazes", "cpp"), "four": filepath.Join(sandboxtest.Root(), "bots", "langwars", "cpp")}
	opts := map[string]string{"two": "turns=20", "four": "turns=2"}
	tokens := map[string]string{}
	for c, g := range contests {
		if out, err := runCLIWithin(t, 5*time.Minute, "portal", "contest", "create", c, "--game", g, "--opt", opts[c], "--house", "easy="+bots[c], "--ladder"); err != nil {
			t.Fatalf("contest create %s: %v\n%s", c, err, out)
		}
		for _, login := range []string{"ann", "bob", "org"} {
			args := []string{"portal", "user", "add", "--contest", c, login, "--json"}
			if login == "org" {
				args = append(args, "--organiser")
			}
			out, err := runCLI(t, args...)
			var added map[string]string
			if err != nil || json.Unmarshal([]byte(out), &added) != nil {
				t.Fatalf("user add: %v\n%s", err, out)
			}
			tokens[c+"/"+login] = added["token"]
		}
	}
	serve := func() (stop func()) {
		ctx, cancel := context.WithCancel(context.Background())
		serving := startCLI(ctx, "portal")
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
			if code, _ := apiCall(addr, tokens["two/ann"], "GET", "/api/v1/contests/two", nil, ""); code == 200 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("judge portal does not serve")
			}
		}
		return func() { cancel(); stopped(t, time.Minute, serving) }
	}
	stop := serve()
	defer func() { stop() }()
	for c := range contests {
		for _, login := range []string{"ann", "bob"} {
			src, _ := filepath.Glob(filepath.Join(bots[c], "*.cpp"))
			code, up := uploadVersion(addr, tokens[c+"/"+login], c, filepath.Base(src[0]), must(os.ReadFile(src[0])))
			if code != 202 {
				t.Fatalf("%s/%s uploads: %d %v", c, login, code, up)
			}
			id := up["id"].(string)
			waitFor(t, 3*time.Minute, fmt.Sprintf("%s's version in %s is ready", login, c), func() bool {
				_, s := apiCall(addr, tokens[c+"/"+login], "GET", "/api/v1/submissions/"+id, nil, "")
				return s["status"] == "ready"
			})
			if code, s := apiCall(addr, tokens[c+"/"+login], "POST", "/api/v1/submissions/"+id+"/activate", nil, ""); code != 200 {
				t.Fatalf("activate: %d %v", code, s)
			}
		}
	}
	ladder := func(c string) map[string]float64 { // login -> matches played
		_, lb := apiCall(addr, tokens[c+"/ann"], "GET", "/api/v1/contests/"+c+"/leaderboard", nil, "")
		out := map[string]float64{}
		rows, _ := lb["rows"].([]any)
		for _, r := range rows {
			r := r.(map[string]any)
			out[r["login"].(string)], _ = r["matches"].(float64)
		}
		return out
	}
	for c := range contests {
		waitFor(t, 3*time.Minute, c+"'s ladder plays", func() bool { l := ladder(c); return l["ann"] >= 2 && l["bob"] >= 2 })
	}

	// What was done before the backup begins: it must all come back.
	before := resultIDs(t)
	played := map[string]map[string]float64{}
	for c := range contests {
		played[c] = ladder(c)
	}
	backup := filepath.Join(t.TempDir(), "backup")
	if out, err := runCLIWithin(t, 5*time.Minute, "store", "backup", backup); err != nil || !strings.Contains(out, "backed up") {
		t.Fatalf("store backup while the ladders play: %v\n%s", err, out)
	}
	if _, err := runCLI(t, "store", "restore", backup); exitCode(err) != 1 || !strings.Contains(fmt.Sprint(err), "stop the judge running on it first") {
		t.Errorf("a restore onto the running judge's store: %v (exit %d)", err, exitCode(err))
	}
	stop()
	if _, err := runCLI(t, "store", "restore", backup); exitCode(err) != 1 || !strings.Contains(fmt.Sprint(err), "move it away") {
		t.Errorf("a restore onto a store with streams: %v (exit %d)", err, exitCode(err))
	}
	if err := os.Rename(store, store+".wiped"); err != nil {
		t.Fatal(err)
	}
	if out, err := runCLIWithin(t, 5*time.Minute, "store", "restore", backup); err != nil || !strings.Contains(out, "restored") {
		t.Fatalf("store restore: %v\n%s", err, out)
	}
	stop = serve()

	after := map[string]bool{}
	for _, id := range resultIDs(t) {
		after[id] = true
	}
	for _, id := range before {
		if !after[id] {
			t.Errorf("result %s, there before the backup, is not there after the restore", id)
		}
	}
	for c := range contests {
		_, ms := apiCall(addr, tokens[c+"/ann"], "GET", "/api/v1/contests/"+c+"/matches?mine=1&kind=ladder", nil, "")
		list, _ := ms["matches"].([]any)
		verified := 0
		for _, m := range list {
			m := m.(map[string]any)
			if m["status"] != "ok" || verified == 2 {
				continue
			}
			file := filepath.Join(t.TempDir(), "m.jsonl")
			if err := os.WriteFile(file, getReplay(t, addr, tokens[c+"/ann"], m["id"].(string)), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := runCLIWithin(t, time.Minute, "replay", "verify", file); err != nil {
				t.Errorf("%s: the restored replay of %s does not verify: %v\n%s", c, m["id"], err, out)
			}
			verified++
		}
		if verified == 0 {
			t.Errorf("%s: no ladder match of ann's after the restore: %v", c, ms)
		}
		now := ladder(c)
		for _, login := range []string{"ann", "bob"} {
			if now[login] < played[c][login] {
				t.Errorf("%s: %s has %v ladder matches after the restore, %v before the backup", c, login, now[login], played[c][login])
			}
			_, subs := apiCall(addr, tokens[c+"/"+login], "GET", "/api/v1/contests/"+c+"/submissions", nil, "")
			if !strings.Contains(fmt.Sprint(subs), "active") {
				t.Errorf("%s: %s's versions after the restore: %v", c, login, subs)
			}
		}
		t.Logf("%s: ladder matches after the restore: %v", c, now)
		// Its fast matches may have brought ann to the ladder's ceiling (max_rate an hour) by
		// now: lifted, the ladder must go on.
		if code, s := apiCall(addr, tokens[c+"/org"], "PUT", "/api/v1/contests/"+c+"/settings", strings.NewReader(`{"max_rate": 3600}`), "application/json"); code != 200 {
			t.Fatalf("%s: the settings after the restore: %d %v", c, code, s)
		}
		restored := now
		waitFor(t, 3*time.Minute, c+"'s ladder goes on after the restore", func() bool { return ladder(c)["ann"] > restored["ann"] })
	}
}

// resultIDs are the results the judge holds, by judge results.
func resultIDs(t *testing.T) []string {
	t.Helper()
	out, err := runCLIWithin(t, time.Minute, "results", "--json")
	if err != nil {
		t.Fatalf("judge results: %v\n%s", err, out)
	}
	var ids []string
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var r struct{ ID string }
		if err := dec.Decode(&r); err != nil {
			break
		}
		ids = append(ids, r.ID)
	}
	if len(ids) == 0 {
		t.Fatalf("judge results printed none:\n%s", out)
	}
	return ids
}

func getReplay(t *testing.T, addr, token, id string) []byte {
	t.Helper()
	req, _ := http.NewRequest("GET", "http://"+addr+"/api/v1/matches/"+id+"/replay", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("the replay of %s: %d %s", id, resp.StatusCode, b)
	}
	return b
}

// waitFor waits up to d for ok, failing the test with what it waited for.
func waitFor(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !ok(); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for this: %s", d, what)
		}
	}
}
