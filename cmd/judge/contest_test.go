package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/queue/queuetest"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// inProcess runs judge ... in this process with stdin: what it printed on stdout.
func inProcess(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	root := newRoot()
	var out, errOut bytes.Buffer
	root.SetIn(strings.NewReader(stdin))
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	t.Logf("judge %s: %v\n%s%s", strings.Join(args, " "), err, errOut.String(), out.String())
	return out.String(), err
}

// The portal from a contestant's command line, against a real portal (judge portal with its
// embedded NATS server and daemon, Docker), by this build and by the Windows build under Wine:
// a bad token refused with the portal's word, the login kept (readable by its owner alone on
// Linux), a version that does not compile (exit 1 and the compiler's log), one that does
// (validated and activated), a test match against the house bot with its replay saved, the
// matches, versions and leaderboard, and another contestant's match refused with the portal's
// 404, no file written; then, logged in to a contest of a game of four, a version and a test
// match of four seats. The Windows build plays nothing, and says so.
func TestContestFromTheCommandLine(t *testing.T) {
	sandboxtest.Engine(t)
	t.Run("linux", func(t *testing.T) {
		config := t.TempDir()
		t.Setenv("XDG_CONFIG_HOME", config)
		contestFromTheCommandLine(t, inProcess, filepath.Join(config, "judge"), false)
	})
	t.Run("windows", func(t *testing.T) {
		run, appData := windowsJudge(t)
		contestFromTheCommandLine(t, run, filepath.Join(appData, "judge"), true)
	})
}

func contestFromTheCommandLine(t *testing.T, judge judgeCLI, kept string, windows bool) {
	contestCLI := func(t *testing.T, stdin string, args ...string) (string, error) {
		t.Helper()
		return judge(t, stdin, append([]string{"contest"}, args...)...)
	}
	natsHere(t)
	addr := queuetest.FreeAddr(t)
	t.Setenv("JUDGE_PORTAL_LISTEN", addr)
	bot := filepath.Join(sandboxtest.Root(), "bots", "amazes", "cpp")
	if out, err := runCLIWithin(t, 5*time.Minute, "portal", "contest", "create", "cup", "--game", "amazes", "--opt", "turns=20", "--house", "easy="+bot); err != nil {
		t.Fatalf("contest create: %v\n%s", err, out)
	}
	// And a game of four: Lang Wars, its seats filled by the house bot.
	four := filepath.Join(sandboxtest.Root(), "bots", "langwars", "cpp")
	if out, err := runCLIWithin(t, 5*time.Minute, "portal", "contest", "create", "four", "--game", "langwars", "--opt", "turns=2", "--house", "easy="+four); err != nil {
		t.Fatalf("contest create: %v\n%s", err, out)
	}
	tokens := map[string]string{}
	for _, u := range []struct{ contest, login string }{{"cup", "ann"}, {"cup", "bob"}, {"four", "ann"}} {
		out, err := runCLI(t, "portal", "user", "add", "--contest", u.contest, u.login, "--json")
		var added map[string]string
		if err != nil || json.Unmarshal([]byte(out), &added) != nil {
			t.Fatalf("user add %s: %v\n%s", u.login, err, out)
		}
		tokens[u.contest+"/"+u.login] = added["token"]
	}
	ctx, cancel := context.WithCancel(context.Background())
	serving := startCLI(ctx, "portal")
	defer stopped(t, time.Minute, serving)
	defer cancel()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		if code, _ := apiCall(addr, tokens["cup/ann"], "GET", "/api/v1/contests/cup", nil, ""); code == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("judge portal does not serve")
		}
	}
	page := "http://" + addr + "/c/cup/"

	if _, err := contestCLI(t, "", "status"); exitCode(err) != 2 || !strings.Contains(err.Error(), "not logged in") {
		t.Errorf("a command before login: %v (exit %d)", err, exitCode(err))
	}
	if _, err := contestCLI(t, "", "login", page, "--token", "not-a-token"); exitCode(err) != 1 || !strings.Contains(err.Error(), "401") {
		t.Errorf("a bad token: %v (exit %d); want exit 1 and the portal's 401", err, exitCode(err))
	}
	if out, err := contestCLI(t, tokens["cup/ann"]+"\n", "login", page); err != nil || !strings.Contains(out, "logged in to contest cup (amazes)") {
		t.Fatalf("login with the token on standard input: %v %s", err, out)
	}
	if st, err := os.Stat(filepath.Join(kept, "contest.json")); err != nil || !windows && st.Mode().Perm() != 0o600 {
		t.Errorf("the kept login: %v, %v; want it there, mode 0600 on Linux", err, st)
	}

	if _, err := contestCLI(t, "", "submit", "--lang", "cobol", bot); exitCode(err) != 2 || !strings.Contains(err.Error(), `unknown language "cobol"`) {
		t.Errorf("a language there is none of: %v (exit %d)", err, exitCode(err))
	}
	broken := t.TempDir()
	os.WriteFile(filepath.Join(broken, "bot.cpp"), []byte("int main() { return not_declared_anywhere; }\n"), 0o644)
	out, err := contestCLI(t, "", "submit", broken)
	if exitCode(err) != 1 || !strings.Contains(out, "compile_error") || !strings.Contains(out, "not_declared_anywhere") {
		t.Errorf("a version that does not compile: %v (exit %d); want exit 1, its status and the compiler's log", err, exitCode(err))
	}
	// The first bot: the contest's starter in C++, played here (Linux), then submitted.
	if _, err := contestCLI(t, "", "starter", "cobol"); exitCode(err) != 1 || !strings.Contains(err.Error(), "it has one in cpp, pascal") {
		t.Errorf("a starter in a language there is none in: %v (exit %d); want exit 1 and the portal's 404 naming those there are", err, exitCode(err))
	}
	if _, err := contestCLI(t, "", "game"); exitCode(err) != 1 || !strings.Contains(err.Error(), "amazes is built into the judge") {
		t.Errorf("the directory of a built-in game: %v (exit %d); want exit 1 and the portal's 404", err, exitCode(err))
	}
	starter := filepath.Join(t.TempDir(), "first-bot")
	if out, err := contestCLI(t, "", "starter", "cpp", "-o", starter); err != nil || !strings.Contains(out, "judge play --local --game amazes") ||
		string(must(os.ReadFile(filepath.Join(starter, "bot.cpp")))) != string(must(os.ReadFile(filepath.Join(bot, "bot.cpp")))) {
		t.Fatalf("the starter in C++: %v %s", err, out)
	}
	if _, err := contestCLI(t, "", "starter", "cpp", "-o", starter); exitCode(err) != 2 || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("a starter into a directory that exists: %v (exit %d), want exit 2", err, exitCode(err))
	}
	if !windows {
		if out, err := judge(t, "", "play", "--local", "--game", "amazes", "--opt", "turns=5", starter, starter); err != nil || !strings.Contains(out, "NOT SANDBOXED") {
			t.Errorf("the starter played here: %v\n%s", err, out)
		}
	}
	out, err = contestCLI(t, "", "submit", starter, "--activate", "--json")
	var sub struct{ ID, Status string }
	if err != nil || json.Unmarshal([]byte(out), &sub) != nil || sub.Status != "active" {
		t.Fatalf("a version that plays: %v, %+v; want it validated and active", err, sub)
	}

	// A version made active by its number, from the command line; one that did not compile,
	// or that there is none of, refused, naming it.
	if out, err := contestCLI(t, "", "activate", "2"); err != nil || !strings.Contains(out, "version 2 (") || !strings.Contains(out, "is active") {
		t.Errorf("activate 2: %v\n%s", err, out)
	}
	if _, err := contestCLI(t, "", "activate", "1"); exitCode(err) != 1 {
		t.Errorf("activate 1, which does not compile: %v (exit %d); want the portal's refusal, exit 1", err, exitCode(err))
	}
	if _, err := contestCLI(t, "", "activate", "v9"); exitCode(err) != 2 || !strings.Contains(err.Error(), "you have no version 9") {
		t.Errorf("activate v9: %v (exit %d)", err, exitCode(err))
	}

	saved := filepath.Join(t.TempDir(), "test.jsonl")
	out, err = contestCLI(t, "", "match", "house:easy", "-o", saved, "--json")
	var m struct {
		ID     string
		Result struct{ Status string }
	}
	if err != nil || json.Unmarshal([]byte(out), &m) != nil || m.Result.Status != "ok" {
		t.Fatalf("a test match: %v %+v", err, m)
	}
	if f, err := os.Open(saved); err != nil {
		t.Errorf("the test match's replay: %v", err)
	} else if rp, err := replay.Read(f); err != nil || len(rp.Header.Players) != 2 || rp.Header.Players[0].Name != "ann" {
		t.Errorf("the saved replay: %v %+v", err, rp)
	}
	if out, err := judge(t, "", "replay", "verify", saved); err != nil || !strings.Contains(out, "re-judged to the recorded result") {
		t.Errorf("replay verify of the saved replay: %v %s", err, out)
	}
	if out, err := contestCLI(t, "", "matches"); err != nil || !strings.Contains(out, m.ID) || !strings.Contains(out, "validation") {
		t.Errorf("the matches: %v\n%s", err, out)
	}
	if out, err := contestCLI(t, "", "status"); err != nil || !strings.Contains(out, "active") || !strings.Contains(out, "compile_error") {
		t.Errorf("the versions: %v\n%s", err, out)
	}
	if out, err := contestCLI(t, "", "leaderboard", "--json"); err != nil || !strings.Contains(out, `"rows"`) {
		t.Errorf("the leaderboard: %v\n%s", err, out)
	}
	// Her statistics: the real matches' results carry each player's closest CPU call.
	if out, err := contestCLI(t, "", "stats"); err != nil || !strings.Contains(out, "house:easy") || !strings.Contains(out, "OPTIONS") ||
		!strings.Contains(out, "closest calls") || !regexp.MustCompile(`µs of \d+ µs +\d\.\d\d%`).MatchString(out) { // a sample's share, well under 1%, not rounded to 0%
		t.Errorf("the statistics: %v\n%s", err, out)
	}

	// Her own sources back: the active version by default, an older one by its number.
	back := filepath.Join(t.TempDir(), "back")
	if out, err := contestCLI(t, "", "download", "-o", back); err != nil || !strings.Contains(out, "version 2") ||
		string(must(os.ReadFile(filepath.Join(back, "bot.cpp")))) != string(must(os.ReadFile(filepath.Join(bot, "bot.cpp")))) {
		t.Errorf("the active version's sources: %v %s", err, out)
	}
	if _, err := contestCLI(t, "", "download", "-o", back); exitCode(err) != 2 {
		t.Errorf("into a directory that exists: %v (exit %d), want exit 2", err, exitCode(err))
	}
	first := filepath.Join(t.TempDir(), "first")
	if _, err := contestCLI(t, "", "download", "1", "-o", first); err != nil || !strings.Contains(string(must(os.ReadFile(filepath.Join(first, "bot.cpp")))), "not_declared_anywhere") {
		t.Errorf("version 1's sources: %v", err)
	}
	if _, err := contestCLI(t, "", "download", "9"); exitCode(err) != 2 || !strings.Contains(err.Error(), "no version 9") {
		t.Errorf("a version she does not have: %v (exit %d)", err, exitCode(err))
	}

	// Bob's validation match is not ann's to download.
	code, up := uploadVersion(addr, tokens["cup/bob"], "cup", "bot.cpp", must(os.ReadFile(filepath.Join(bot, "bot.cpp"))))
	if code != 202 {
		t.Fatalf("bob's upload: %d %v", code, up)
	}
	var theirs string
	for deadline := time.Now().Add(3 * time.Minute); theirs == ""; time.Sleep(200 * time.Millisecond) {
		_, s := apiCall(addr, tokens["cup/bob"], "GET", "/api/v1/submissions/"+up["id"].(string), nil, "")
		if v, ok := s["validation"].(map[string]any); ok {
			theirs, _ = v["match"].(string)
		}
		if time.Now().After(deadline) {
			t.Fatalf("bob's version has no validation match: %v", s)
		}
	}
	elsewhere := filepath.Join(t.TempDir(), "theirs.jsonl")
	if _, err := contestCLI(t, "", "replay", theirs, "-o", elsewhere); exitCode(err) != 1 || !strings.Contains(err.Error(), "404") {
		t.Errorf("another contestant's match: %v (exit %d); want exit 1 and the portal's 404", err, exitCode(err))
	}
	if _, err := os.Stat(elsewhere); err == nil {
		t.Error("a file was written for a replay the portal refused")
	}

	// Logged in to the contest of four instead: a version, and a test match of four seats.
	if _, err := contestCLI(t, "", "login", "http://"+addr+"/c/four/", "--token", tokens["four/ann"]); err != nil {
		t.Fatalf("login to the contest of four: %v", err)
	}
	var got struct {
		Game, Lang, Dir string
		Files           []string
	}
	py := filepath.Join(t.TempDir(), "py")
	if out, err := contestCLI(t, "", "starter", "python", "-o", py+"-text"); err != nil || !strings.Contains(out, "--opt turns=2 "+strings.Repeat(py+"-text ", 3)+py+"-text\n") {
		t.Errorf("the contest of four's starter: %v; want the command that plays it with four seats:\n%s", err, out)
	}
	out, err = contestCLI(t, "", "starter", "python", "-o", py, "--json")
	if err != nil || json.Unmarshal([]byte(out), &got) != nil || got.Game != "langwars" || got.Lang != "python" || len(got.Files) != 1 || got.Files[0] != "main.py" {
		t.Errorf("the contest of four's starter in Python: %v %+v", err, got)
	}
	if _, err := contestCLI(t, "", "submit", four, "--activate"); err != nil {
		t.Fatalf("a version of a game of four: %v", err)
	}
	saved = filepath.Join(t.TempDir(), "four.jsonl")
	if _, err := contestCLI(t, "", "match", "house:easy", "-o", saved); err != nil {
		t.Fatalf("a test match of four: %v", err)
	}
	if f, err := os.Open(saved); err != nil {
		t.Errorf("the match of four's replay: %v", err)
	} else if rp, err := replay.Read(f); err != nil || len(rp.Header.Players) != 4 || rp.Header.Players[0].Name != "ann" {
		t.Errorf("the match of four's replay: %v %+v", err, rp)
	}
	if !windows {
		return
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"play", "--game", "amazes", bot, bot}, 1, "the sandbox runs on Linux only"},
		{[]string{"play", "--local", "--game", "amazes", bot, bot}, 2, "--local is not available on Windows"},
	} {
		if _, err := judge(t, "", tc.args...); exitCode(err) != tc.code || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "WSL 2") {
			t.Errorf("judge %s on Windows: %v (exit %d); want exit %d, %q and WSL 2", strings.Join(tc.args, " "), err, exitCode(err), tc.code, tc.want)
		}
	}
}
