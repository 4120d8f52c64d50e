package result

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/botjudge/judge/judge/game"
)

// A result keeps the end of a bot's stderr: whole lines, at most 20 of them and 2 KiB, after a
// line saying what was cut.
func TestStderrTail(t *testing.T) {
	var lines strings.Builder
	for i := 1; i <= 25; i++ {
		fmt.Fprintf(&lines, "line %d\n", i)
	}
	long := strings.Repeat("é", StderrBytes) // 2 bytes each
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"short", "a\nb", "a\nb"},
		{"20 lines", "x\n" + strings.Repeat("y\n", 19), "x\n" + strings.Repeat("y\n", 19)},
		{"25 lines", lines.String(), "[judge: 35 earlier bytes of stderr not shown]\n" + lines.String()[35:]},
		{"2 KiB", "head\n" + strings.Repeat("z", StderrBytes-3) + "\nw\n",
			"[judge: 5 earlier bytes of stderr not shown]\n" + strings.Repeat("z", StderrBytes-3) + "\nw\n"},
		{"over 2 KiB", "head\n" + strings.Repeat("z", StderrBytes-2) + "\nw\n",
			"[judge: 2052 earlier bytes of stderr not shown]\nw\n"},
		{"one long line", "a\n" + long, fmt.Sprintf("[judge: %d earlier bytes of stderr not shown]\n", 2+StderrBytes) + long[StderrBytes:]},
		// A bot's drawings are not what the tail is for: its last words are, however it drew.
		{"drawings", "crashed at turn 3\n" + strings.Repeat("@judge dot 1 2 layer=plan\n", 30) + "@judgement\n", "crashed at turn 3\n@judgement\n"},
	} {
		got := StderrTail(tc.in)
		if got != tc.want {
			t.Errorf("%s: %q; want %q", tc.name, got, tc.want)
		}
		if body, _ := strings.CutPrefix(got, "[judge:"); body != got {
			_, body, _ = strings.Cut(body, "\n")
			if len(body) > StderrBytes || strings.Count(strings.TrimSuffix(body, "\n"), "\n") >= StderrLines || !utf8.ValidString(body) {
				t.Errorf("%s: kept %d bytes, %d lines", tc.name, len(body), strings.Count(body, "\n"))
			}
		}
	}
}

// The result JSON is what it was when Player.Build was build.Result: these bytes were that
// type's encoding of the same values.
func TestResultJSONUnchanged(t *testing.T) {
	w := 1
	r := Result{Version: 1, ID: "m1", Game: "amazes", Seed: 7, Status: "ok", Winner: &w,
		Players: []Player{
			{Name: "a", Lang: "cpp", Build: Build{OK: true, Cached: true, Image: "sha256:c", Toolchain: "GCC 12", MS: 1234}, Score: 1.5, Rank: 2, Moves: 3, CPUms: 4, StartupCPUms: 5, WallMs: 6, MaxRSSKiB: 7},
			{Name: "b", Lang: "go", Build: Build{OK: false, Image: "sha256:d", MS: 9, Log: "error: expected ';'", Failure: BuildCompileError}, Fault: &game.Fault{Kind: game.CompileError, Turn: 0, Detail: "did not compile"}, Stderr: "x"},
		},
		Replay: "replays/m1.jsonl",
		Judge:  JudgeInfo{Version: "v1", Host: "h", Started: time.Unix(1, 0).UTC(), Finished: time.Unix(2, 0).UTC()}}
	const want = `{"version":1,"id":"m1","game":"amazes","seed":7,"status":"ok","error":null,"winner":1,"players":[{"name":"a","lang":"cpp","build":{"ok":true,"cached":true,"image":"sha256:c","toolchain":"GCC 12","ms":1234,"log":""},"score":1.5,"rank":2,"fault":null,"moves":3,"cpu_ms":4,"startup_cpu_ms":5,"wall_ms":6,"max_rss_kib":7},{"name":"b","lang":"go","build":{"ok":false,"cached":false,"image":"sha256:d","toolchain":"","ms":9,"log":"error: expected ';'","failure":"compile error"},"score":0,"rank":0,"fault":{"kind":"compile_error","turn":0,"detail":"did not compile"},"moves":0,"cpu_ms":0,"startup_cpu_ms":0,"wall_ms":0,"max_rss_kib":0,"stderr":"x"}],"replay":"replays/m1.jsonl","judge":{"version":"v1","host":"h","started":"1970-01-01T00:00:01Z","finished":"1970-01-01T00:00:02Z"}}`
	got, err := json.Marshal(r)
	if err != nil || string(got) != want {
		t.Errorf("result JSON\n got %s, %v\nwant %s", got, err, want)
	}
}

// The table a person reads says why a bot did not compile: the compiler's log, once for the
// seats of one bot, its start when it is long (the JSON has all of it).
func TestTableShowsCompileLogs(t *testing.T) {
	long := strings.Repeat("note: a line of a long log\n", 40)
	r := Result{Status: StatusOK, Game: "langwars", Players: []Player{
		{Name: "bad", Lang: "cpp", Build: Build{Log: "bot.cpp:1:21: error: 'nope' was not declared\n"}},
		{Name: "good", Lang: "cpp", Build: Build{OK: true, Log: "a warning of a bot that built\n"}},
		{Name: "bad", Lang: "cpp", Build: Build{Log: "bot.cpp:1:21: error: 'nope' was not declared\n"}},
		{Name: "long", Lang: "rust", Build: Build{Log: "error[E0425]: cannot find value\n" + long}},
	}}
	var b strings.Builder
	if err := r.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"players 0 (bad), 2 (bad) did not compile:\n  bot.cpp:1:21: error: 'nope' was not declared\n",
		"player 3 (long) did not compile:\n  error[E0425]: cannot find value\n",
		"  ... 11 more lines (--json has the whole log)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "'nope' was not declared") != 1 || strings.Contains(out, "a warning of a bot that built") {
		t.Errorf("a log shown twice, or a built bot's:\n%s", out)
	}
}
