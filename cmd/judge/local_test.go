package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/local"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// haveTools is whether this machine has every tool lang needs for --local: a test goes on
// without the language, saying so, except where CI installs them all (make local-tools,
// JUDGE_REQUIRE_LOCAL_TOOLS), where a missing one fails it.
func haveTools(t *testing.T, lang string) bool {
	t.Helper()
	err := local.Check(lang)
	if err != nil && os.Getenv("JUDGE_REQUIRE_LOCAL_TOOLS") != "" {
		t.Fatalf("JUDGE_REQUIRE_LOCAL_TOOLS: %v (make local-tools)", err)
	}
	if err != nil {
		t.Logf("not played: %v", err)
	}
	return err == nil
}

// The sample bots of each language, played with --local (plain processes, the machine's
// compilers) and in the sandbox: the same match, exchange for exchange, and the same result;
// a game of two with each language, and games of four. The local result says it was not
// sandboxed. And a match recorded in the sandbox plays again locally against its recording.
func TestPlayLocalAsInTheSandbox(t *testing.T) {
	sandboxtest.Engine(t)
	root := sandboxtest.Root()
	type match struct {
		game  string
		opts  []string
		langs []string
		bots  []string // the bots, when not the game's samples in langs
	}
	var matches []match
	for _, l := range images.LangNames() {
		if haveTools(t, l) {
			matches = append(matches, match{"amazes", []string{"--opt", "turns=25"}, []string{l, l}, nil})
		}
	}
	four := []string{"cpp", "go", "python", "javascript"}
	if haveTools(t, "cpp") && haveTools(t, "go") && haveTools(t, "python") && haveTools(t, "javascript") {
		matches = append(matches, match{"langwars", []string{"--opt", "turns=5"}, four, nil},
			match{"dropblock", []string{"--opt", "turns=60"}, four, nil})
	}
	// An organiser's game: its referee program, too, a plain process of this machine.
	higher := filepath.Join("testdata", "games", "higher")
	var hb []string
	for _, b := range []string{"seven", "three", "junk", "three"} {
		hb = append(hb, filepath.Join(higher, "bots", b))
	}
	matches = append(matches, match{higher, []string{"--opt", "turns=4"}, []string{"python"}, hb})
	for _, m := range matches {
		t.Run(filepath.Base(m.game)+"-"+strings.Join(m.langs, "-"), func(t *testing.T) {
			dir := t.TempDir()
			bots := m.bots
			for _, l := range m.langs {
				if m.bots == nil {
					bots = append(bots, filepath.Join(root, "bots", m.game, l))
				}
			}
			var added []string // an added game is named again to play against its replay
			if m.bots != nil {
				added = []string{"--game", m.game}
			}
			play := func(name string, extra ...string) string {
				file := filepath.Join(dir, name)
				args := append(append([]string{"play", "--game", m.game, "--seed", "9", "--replay", file}, extra...), m.opts...)
				var out bytes.Buffer
				if err := judgeTo(t, &out, append(args, bots...)...); err != nil {
					t.Fatalf("%v: %v", extra, err)
				}
				if local := len(extra) > 0; strings.Contains(out.String(), "NOT SANDBOXED") != local {
					t.Errorf("%v: the result says NOT SANDBOXED: %v, local %v:\n%s", extra, !local, local, out.String())
				}
				return file
			}
			boxed, here := readReplay(t, play("boxed.jsonl")), readReplay(t, play("local.jsonl", "--local"))
			if !reflect.DeepEqual(asked(here), asked(boxed)) {
				t.Errorf("locally, the exchanges differ from the sandbox's")
			}
			if d := resultDifferences(boxed.Result, here.Result); len(d) > 0 {
				t.Errorf("locally, the result differs: %v", d)
			}
			if !here.Result.Judge.Unsandboxed || boxed.Result.Judge.Unsandboxed {
				t.Errorf("judge.unsandboxed: local %v, sandboxed %v", here.Result.Judge.Unsandboxed, boxed.Result.Judge.Unsandboxed)
			}
			for i, p := range here.Result.Players {
				if p.Moves != boxed.Result.Players[i].Moves || p.Build.Image != "local" || !strings.Contains(p.Build.Toolchain, " ") {
					t.Errorf("player %d: %d moves (sandbox %d), image %q, toolchain %q", i, p.Moves, boxed.Result.Players[i].Moves, p.Build.Image, p.Build.Toolchain)
				}
			}

			// The sandbox's recording, played again locally, the last seat live.
			seat := len(bots) - 1
			var out bytes.Buffer
			args := append(append([]string{"play", "--local", "--against", filepath.Join(dir, "boxed.jsonl"), "--seat", fmt.Sprint(seat)}, added...), bots[seat])
			if err := judgeTo(t, &out, args...); err != nil {
				t.Fatalf("--local --against: %v\n%s", err, out.String())
			}
			if !strings.Contains(out.String(), "the recorded match, exchange for exchange") {
				t.Errorf("--local --against:\n%s", out.String())
			}
		})
	}
}

// A bot whose compiler this machine lacks is refused before anything runs, naming the tool
// and how to install it.
func TestPlayLocalNamesAMissingCompiler(t *testing.T) {
	root := sandboxtest.Root()
	t.Setenv("PATH", t.TempDir())
	err := judge(t, "play", "--local", "--game", "amazes", filepath.Join(root, "bots/amazes/cpp"), filepath.Join(root, "bots/amazes/pascal"))
	if exitCode(err) != 1 || !strings.Contains(fmt.Sprint(err), "--local: cpp bots need g++, not found on this machine's PATH (Debian/Ubuntu: apt install g++") ||
		!strings.Contains(fmt.Sprint(err), "pascal bots need fpc") {
		t.Errorf("got %v (exit %d)", err, exitCode(err))
	}
}

// BenchmarkOneMoveMatch is judge play of a one-move match (Amazes, one turn each, the C++
// sample bots, built already), as a user runs it: in the sandbox and with --local.
func BenchmarkOneMoveMatch(b *testing.B) {
	root := sandboxtest.Root()
	bot := filepath.Join(root, "bots/amazes/cpp")
	for _, name := range []string{"sandbox", "local"} {
		b.Run(name, func(b *testing.B) {
			args := []string{"play", "--game", "amazes", "--seed", "3", "--opt", "turns=1", bot, bot}
			if name == "local" {
				args = append(args, "--local")
			}
			for b.Loop() {
				if err := judgeTo(b, io.Discard, args...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAgainst is a 300-exchange match (Amazes, 150 turns each, the C++ sample bots) in
// the sandbox: played fresh, and played again against its recording with one seat live.
func BenchmarkAgainst(b *testing.B) {
	root := sandboxtest.Root()
	bot := filepath.Join(root, "bots/amazes/cpp")
	recorded := filepath.Join(b.TempDir(), "m.jsonl")
	if err := judgeTo(b, io.Discard, "play", "--game", "amazes", "--seed", "3", "--replay", recorded, bot, bot); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"fresh", []string{"play", "--game", "amazes", "--seed", "3", bot, bot}},
		{"against", []string{"play", "--against", recorded, "--seat", "1", bot}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if err := judgeTo(b, io.Discard, tc.args...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
