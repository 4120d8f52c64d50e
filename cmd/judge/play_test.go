package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// judge runs the CLI in this process with args.
func judge(t *testing.T, args ...string) error {
	t.Helper()
	root := newRoot()
	root.SetArgs(append([]string{"--data-dir", sandboxtest.DataDir()}, args...))
	return root.ExecuteContext(context.Background())
}

// A replay file appears only for a judged match: a bad option leaves none behind (not even an
// empty one), and a judged match's replay verifies.
func TestPlayWritesAReplayOnlyForAJudgedMatch(t *testing.T) {
	sandboxtest.Engine(t) // fails, or skips, without an engine
	root := sandboxtest.Root()
	bots := []string{filepath.Join(root, "bots/amazes/cpp"), filepath.Join(root, "bots/amazes/go")}
	dir := t.TempDir()
	file := filepath.Join(dir, "m.jsonl")

	err := judge(t, append([]string{"play", "--game", "amazes", "--opt", "bogus=1", "--replay", file, "--json"}, bots...)...)
	if _, ok := err.(usageError); !ok {
		t.Fatalf("a bad option: got %v; want a usage error", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("a match that was not judged left %v", entries)
	}

	if err := judge(t, append([]string{"play", "--game", "amazes", "--seed", "5", "--opt", "turns=20", "--replay", file}, bots...)...); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := replay.Verify(f, games.Lookup); err != nil {
		t.Errorf("the replay: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the directory holds %d files; want the replay alone", len(entries))
	}
}

// Bad flags, arguments and missing required flags are usage errors (exit status 2), typed.
func TestBadArgumentsAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"play", "--bogus"},
		{"play", "bots/amazes/cpp"},
		{"play", "--game", "amazes", "--seed", "x", "bots/amazes/cpp"},
		{"compile"},
		{"images", "export"},
		{"rebuild"},
		{"submit", "bots/amazes/cpp"},
	} {
		var ue usageError
		if err := judge(t, args...); !errors.As(err, &ue) {
			t.Errorf("%v: %v (%T); want a usage error", args, err, err)
		}
	}
}
