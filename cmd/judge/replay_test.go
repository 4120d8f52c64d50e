package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
// standard output.
func TestReplayThatLies(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("..", "..", "judge", "view", "testdata", "amazes.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := func(name, from, to string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Replace(string(good), from, to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	goodFile := path("good.jsonl", "", "")
	cases := []struct {
		file string
		want string
	}{
		{path("score.jsonl", `"score":170`, `"score":175`), `player 0 ("amazes/cpp") score: recorded 175, re-judged 170`},
		{path("move.jsonl", `"received":["FFR"]`, `"received":["Q"]`), "recorded the answer accepted, re-judged protocol at turn 3"},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			var ue usageError
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
	if out, err := runOut(t, "replay", "verify", goodFile); err != nil || !strings.Contains(out, "verified") {
		t.Errorf("verify of the untouched replay: %v %q", err, out)
	}
	// A parse error names the file; a missing file is a usage error.
	bad := path("bad.jsonl", `{"type":"header"`, `{"type":"heade`)
	var ue usageError
	if _, err := runOut(t, "replay", "verify", bad); !errors.As(err, &ue) || !strings.Contains(err.Error(), "bad.jsonl") {
		t.Errorf("verify of a broken file: %v, want a usage error naming it", err)
	}
	if _, err := runOut(t, "replay", "verify", filepath.Join(dir, "missing.jsonl")); !errors.As(err, &ue) {
		t.Errorf("verify of a missing file: %v, want a usage error", err)
	}
}
