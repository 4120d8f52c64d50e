package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
)

// runJudge runs the CLI with args and returns its error.
func runJudge(ctx context.Context, t *testing.T, args ...string) error {
	t.Helper()
	root := newRoot()
	root.SetArgs(append([]string{"--data-dir", t.TempDir()}, args...))
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	return root.ExecuteContext(ctx)
}

// judge replay html writes one page holding the replay; a file that is not a replay is an
// error naming it, and no page is left behind.
func TestReplayHTML(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.html")
	replayFile := filepath.Join("..", "..", "judge", "view", "testdata", "langwars.jsonl")
	if err := runJudge(context.Background(), t, "replay", "html", replayFile, "-o", out); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(page), `<script type="application/json" id="film">{"version":1,`) {
		t.Fatalf("the page: %v %.300s", err, page)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("not a replay\n"), 0o644)
	err = runJudge(context.Background(), t, "replay", "html", bad, "-o", filepath.Join(dir, "bad.html"))
	if err == nil || !strings.Contains(err.Error(), "bad.jsonl") {
		t.Errorf("a bad replay: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.html")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a page was left for a bad replay: %v", err)
	}
	var ue cli.UsageError
	if err := runJudge(context.Background(), t, "replay", "html", replayFile); !errors.As(err, &ue) {
		t.Errorf("without -o: %v, want a usage error", err)
	}
}

// judge view DIR serves the page and the list of the replays in DIR until it is stopped
// (viewing stops it when the test ends, and checks that it did).
func TestViewServesReplayFiles(t *testing.T) {
	addr := viewing(t, filepath.Join("..", "..", "judge", "view", "testdata"))
	if body := get(t, addr, "/api/list"); !strings.Contains(body, `"game":"snakecore"`) {
		t.Errorf("the list: %.300s", body)
	}
	var ue cli.UsageError
	if err := runJudge(context.Background(), t, "view", "no/such/dir"); !errors.As(err, &ue) {
		t.Errorf("a missing directory: %v, want a usage error", err)
	}
}
