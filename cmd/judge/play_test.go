package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// judge runs the CLI in this process with args.
func judge(t *testing.T, args ...string) error {
	t.Helper()
	return judgeTo(t, nil, args...)
}

// judgeTo is judge with what the command prints through cobra (cmd.OutOrStdout) to out.
func judgeTo(t testing.TB, out io.Writer, args ...string) error {
	t.Helper()
	root := newRoot()
	root.SetArgs(append([]string{"--data-dir", sandboxtest.DataDir()}, args...))
	if out != nil {
		root.SetOut(out)
	}
	return root.ExecuteContext(context.Background())
}

// A replay file appears only for a judged match: a bad option leaves none behind (not even an
// empty one), and a judged match's replay verifies; with --stderr, every seat's stderr is
// printed. A two-player game and a four-player one, whose match needs all four bots.
func TestPlayWritesAReplayOnlyForAJudgedMatch(t *testing.T) {
	sandboxtest.Engine(t) // fails, or skips, without an engine
	root := sandboxtest.Root()
	for _, tc := range []struct {
		game  string
		opts  []string
		langs []string
	}{
		{"amazes", []string{"--opt", "turns=20"}, []string{"cpp", "go"}},
		{"langwars", []string{"--opt", "turns=4"}, []string{"cpp", "go", "cpp", "go"}},
	} {
		t.Run(tc.game, func(t *testing.T) {
			var bots []string
			for _, l := range tc.langs {
				bots = append(bots, filepath.Join(root, "bots", tc.game, l))
			}
			dir := t.TempDir()
			file := filepath.Join(dir, "m.jsonl")

			err := judge(t, append([]string{"play", "--game", tc.game, "--opt", "bogus=1", "--replay", file, "--json"}, bots...)...)
			if _, ok := err.(cli.UsageError); !ok {
				t.Fatalf("a bad option: got %v; want a usage error", err)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Fatalf("a match that was not judged left %v", entries)
			}

			var out bytes.Buffer
			args := append([]string{"play", "--game", tc.game, "--seed", "5", "--replay", file, "--stderr"}, tc.opts...)
			if err := judgeTo(t, &out, append(args, bots...)...); err != nil {
				t.Fatal(err)
			}
			rp := readReplay(t, file)
			g, _ := games.Lookup(tc.game)
			if diffs, err := rp.Check(g, nil); err != nil || len(diffs) > 0 {
				t.Errorf("the replay does not re-judge: %v %v", err, diffs)
			}
			if len(rp.Header.Players) != len(bots) || len(rp.Result.Players) != len(bots) {
				t.Errorf("the replay seats %d players, its result %d; %d played", len(rp.Header.Players), len(rp.Result.Players), len(bots))
			}
			for p := range bots {
				if want := fmt.Sprintf("== stderr of player %d (%s/%s)\n", p, tc.game, tc.langs[p]); !strings.Contains(out.String(), want) {
					t.Errorf("--stderr printed no %q:\n%s", want, out.String())
				}
			}
			// The replay and its result name the judge that wrote them, as judge version does.
			if v := judgeVersion(); rp.Header.Judge != v || rp.Result.Judge.Version != v || v == "" || v == "dev" {
				t.Errorf("the replay's header names judge %q, its result %q; judge version is %q", rp.Header.Judge, rp.Result.Judge.Version, v)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("the directory holds %d files; want the replay alone", len(entries))
			}
		})
	}
}

// --stderr prints, after the result, what each bot wrote to stderr under the move during
// which it wrote it; the sample bot draws its one mark a move (docs/viewer.md).
func TestPlayPrintsStderrByMove(t *testing.T) {
	sandboxtest.Engine(t)
	root := sandboxtest.Root()
	var out bytes.Buffer
	err := judgeTo(t, &out, "play", "--game", "amazes", "--seed", "5", "--opt", "turns=4", "--stderr",
		filepath.Join(root, "cmd/judge/testdata/stderr"), filepath.Join(root, "bots/amazes/cpp"))
	if err != nil {
		t.Fatal(err)
	}
	// Red (player 0) moves first: its turns are the replay's exchanges 0, 2, 4, 6.
	want := "== stderr of player 0 (testdata/stderr)\n" +
		"-- turn 1 (exchange 0)\nstarting\n" +
		"-- turn 2 (exchange 2)\ndebug: turn 2\n" +
		"-- turn 3 (exchange 4)\ndebug: turn 3\n" +
		"== stderr of player 1 (amazes/cpp)\n" +
		"-- turn 1 (exchange 1)\n@judge dot 0 0 layer=sample\n" +
		"-- turn 2 (exchange 3)\n@judge dot 0 0 layer=sample\n" +
		"-- turn 3 (exchange 5)\n@judge dot 0 0 layer=sample\n" +
		"-- turn 4 (exchange 7)\n@judge dot 0 0 layer=sample\n"
	table, printed, ok := strings.Cut(out.String(), "== stderr")
	if !ok || "== stderr"+printed != want || !strings.Contains(table, "winner") {
		t.Errorf("printed:\n%s\nwant the result's table, then:\n%s", out.String(), want)
	}
}
