package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// runOut runs the CLI with args and returns what it printed on stdout and its error.
func runOut(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRoot()
	root.SetArgs(append([]string{"--data-dir", t.TempDir()}, args...))
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	err := root.ExecuteContext(context.Background())
	return out.String(), err
}

// A replay whose result or moves were edited is refused by verify and by html (exit 1,
// naming what differs), unless html is given --allow-mismatch; -o - writes the page to
// standard output. Replays of a two-player game and of a four-player one, whose last seat
// is edited.
func TestReplayThatLies(t *testing.T) {
	read := func(game string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", "judge", "view", "testdata", game+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	good, four := read("amazes"), read("langwars")
	dir := t.TempDir()
	write := func(name, replay string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(replay), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	path := func(name, from, to string) string { return write(name, strings.Replace(good, from, to, 1)) }
	goodFile := path("good.jsonl", "", "")
	// Player 3's score in the result, the replay's last line (the header names it first).
	seat3 := strings.LastIndex(four, `"name":"langwars/pascal"`)
	if seat3 < 0 || !strings.Contains(four[seat3:], `"score":5.666666666666667,`) {
		t.Fatal("testdata/langwars.jsonl's result has no player langwars/pascal scoring 5.666666666666667")
	}
	fourLies := write("four.jsonl", four[:seat3]+strings.Replace(four[seat3:], `"score":5.666666666666667,`, `"score":6,`, 1))
	cases := []struct {
		file string
		want string
	}{
		{path("score.jsonl", `"score":170`, `"score":175`), `player 0 ("amazes/cpp") score: recorded 175, re-judged 170`},
		{path("move.jsonl", `"received":["FFR"]`, `"received":["Q"]`), "recorded the answer accepted, re-judged protocol at turn 3"},
		{fourLies, `player 3 ("langwars/pascal") score: recorded 6, re-judged 5.6`},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			var ue cli.UsageError
			_, err := runOut(t, "replay", "verify", c.file)
			if err == nil || errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.file) {
				t.Errorf("verify: %v, want exit 1 naming the file and %q", err, c.want)
			}
			out := filepath.Join(dir, "out.html")
			_, err = runOut(t, "replay", "html", c.file, "-o", out)
			if err == nil || errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "--allow-mismatch") {
				t.Errorf("html: %v, want exit 1 naming %q and --allow-mismatch", err, c.want)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("html left a page for a replay that lies: %v", err)
			}
			page, err := runOut(t, "replay", "html", c.file, "-o", "-", "--allow-mismatch")
			if err != nil || !strings.HasPrefix(page, "<!doctype html>") || !strings.Contains(page, `"mismatch":[{"field"`) {
				t.Errorf("html --allow-mismatch -o -: %v, %.200s", err, page)
			}
		})
	}
	for _, f := range []string{goodFile, write("four-good.jsonl", four)} {
		if out, err := runOut(t, "replay", "verify", f); err != nil || !strings.Contains(out, "verified") {
			t.Errorf("verify of the untouched replay %s: %v %q", filepath.Base(f), err, out)
		}
	}
	// A parse error names the file; a missing file is a usage error.
	bad := path("bad.jsonl", `{"type":"header"`, `{"type":"heade`)
	var ue cli.UsageError
	if _, err := runOut(t, "replay", "verify", bad); !errors.As(err, &ue) || !strings.Contains(err.Error(), "bad.jsonl") {
		t.Errorf("verify of a broken file: %v, want a usage error naming it", err)
	}
	if _, err := runOut(t, "replay", "verify", filepath.Join(dir, "missing.jsonl")); !errors.As(err, &ue) {
		t.Errorf("verify of a missing file: %v, want a usage error", err)
	}
}

// A replay of an added game written by an earlier judge (judge/replay/testdata/earlier)
// re-judges to its result with the game's referee, of the version that judged it.
func TestEarlierAddedGameReplay(t *testing.T) {
	sandboxtest.Engine(t)
	root := sandboxtest.Root()
	file := filepath.Join(root, "judge", "replay", "testdata", "earlier", "added-on-the-run-b4473f6.jsonl")
	out, err := runCLIWithin(t, 5*time.Minute, "replay", "verify", "--game", filepath.Join(root, "docs", "examples", "on-the-run"), file)
	if err != nil || !strings.Contains(out, "re-judged to the recorded result") {
		t.Errorf("replay verify: %v\n%s", err, out)
	}
}

// judge replay diff: 0 for the same match exchange for exchange, 1 where they part (the
// exchange, its turn and player, both answers), 2 for files that cannot be compared, each
// difference said; for a game of two and one of four.
func TestReplayDiff(t *testing.T) {
	dir := t.TempDir()
	write := func(name, game string, seed uint64, players int, answers ...string) string {
		var buf bytes.Buffer
		w := replay.NewWriter(&buf)
		h := replay.Header{Type: "header", Version: replay.Version, Game: game, Seed: seed, Options: map[string]string{}}
		res := result.Result{Status: result.StatusOK}
		for i := range players {
			h.Players = append(h.Players, replay.Player{Name: fmt.Sprintf("bot%d", i), Lang: "cpp"})
			res.Players = append(res.Players, result.Player{Score: float64(i), Rank: i + 1})
		}
		w.Header(h)
		for turn, a := range answers {
			for p := range players {
				ans := "wait"
				if p == players-1 {
					ans = a
				}
				w.Exchange(replay.Exchange{Type: "move", Turn: turn + 1, Player: p, Sent: "go", Expect: 1, Received: []string{ans}})
			}
		}
		w.Result(res)
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, players := range []int{2, 4} {
		a := write(fmt.Sprint("a", players), "langwars", 7, players, "x", "y", "z")
		same := write(fmt.Sprint("same", players), "langwars", 7, players, "x", "y", "z")
		parted := write(fmt.Sprint("b", players), "langwars", 7, players, "x", "<b>w</b>", "z")
		out, err := runOut(t, "replay", "diff", a, same)
		if err != nil || !strings.Contains(out, "the same match, exchange for exchange") {
			t.Errorf("%d players, the same: %v\n%s", players, err, out)
		}
		out, err = runOut(t, "replay", "diff", a, parted, "--json")
		var got struct {
			Same  bool
			First struct {
				Exchange, Turn, Player int
				A, B                   string
			}
		}
		if json.Unmarshal([]byte(out), &got); exitCode(err) != 1 || got.Same || got.First.Exchange != 2*players-1 || got.First.Turn != 2 ||
			got.First.Player != players-1 || got.First.A != "y" || got.First.B != "<b>w</b>" {
			t.Errorf("%d players, parted: exit %d (%v) %+v\n%s", players, exitCode(err), err, got, out)
		}
		out, err = runOut(t, "replay", "diff", a, parted)
		if want := fmt.Sprintf("they part at exchange %d (turn 2, player %d (bot%d) in A, player %d (bot%d) in B): the answers differ\n  A: \"y\"\n  B: \"<b>w</b>\"", 2*players-1, players-1, players-1, players-1, players-1); !strings.Contains(out, want) {
			t.Errorf("%d players, parted, said:\n%s\nwant %q", players, out, want)
		}
	}
	a := write("a", "langwars", 7, 2, "x")
	for _, c := range []struct {
		b, want string
	}{
		{write("seed", "langwars", 8, 2, "x"), "seeds 7 and 8"},
		{write("game", "amazes", 7, 2, "x"), "games langwars and amazes"},
		{write("four", "langwars", 7, 4, "x"), "2 players and 4"},
		{withOptions(t, write("options", "langwars", 7, 2, "x"), `{"turns":"20"}`), "options"},
		{filepath.Join("..", "..", "README.md"), "not a replay"},
		{filepath.Join(dir, "missing"), "no such file"},
	} {
		if _, err := runOut(t, "replay", "diff", a, c.b); exitCode(err) != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: exit %d, %v; want 2 and %q", c.b, exitCode(err), err, c.want)
		}
	}
	// --html writes the page of both side by side (what it shows: judge/view's
	// TestCompareSideBySide); a pair that cannot be compared writes none.
	page := filepath.Join(dir, "both.html")
	parted := write("parted", "langwars", 7, 2, "y")
	if _, err := runOut(t, "replay", "diff", a, parted, "--html", page); exitCode(err) != 1 {
		t.Errorf("--html of a parted pair: exit %d (%v)", exitCode(err), err)
	}
	if data, err := os.ReadFile(page); err != nil || !strings.Contains(string(data), `<script type="application/json" id="pair">`) || !strings.Contains(string(data), `"first":{"exchange":1`) {
		t.Errorf("the page of both: %v", err)
	}
	other := filepath.Join(dir, "other.html")
	if _, err := runOut(t, "replay", "diff", a, write("seed2", "langwars", 8, 2, "x"), "--html", other); exitCode(err) != 2 {
		t.Errorf("--html of two seeds: exit %d", exitCode(err))
	}
	if _, err := os.Stat(other); !os.IsNotExist(err) {
		t.Errorf("a page was written for two seeds: %v", err)
	}
}

// withOptions rewrites the replay at path with the header's options opts (JSON).
func withOptions(t *testing.T, path, opts string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Replace(string(data), `"options":{}`, `"options":`+opts, 1)
	if out == string(data) {
		t.Fatal("the replay has no empty options to set")
	}
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
