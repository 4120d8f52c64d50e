package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// An organiser's game, a directory: judge play builds its referee (Python) and runs it in a
// sandbox of its own beside the bots, with two players and with four, a bot's illegal move
// judged by the referee; a referee that breaks the protocol, or a bad manifest, is refused
// with its reason, exit 2, never a bot's fault.
func TestPlayAnAddedGame(t *testing.T) {
	sandboxtest.Engine(t)
	game := filepath.Join("testdata", "games", "higher")
	bot := func(name string) string { return filepath.Join(game, "bots", name) }
	for _, tc := range []struct {
		name   string
		bots   []string
		scores []float64
		faults []string
	}{
		{"two players", []string{bot("seven"), bot("three")}, []float64{3, 0}, []string{"", ""}},
		{"four players", []string{bot("three"), bot("junk"), bot("seven"), bot("seven")}, []float64{0, 0, 3, 3}, []string{"", "illegal_move", "", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := judgeTo(t, &out, append([]string{"play", "--game", game, "--json"}, tc.bots...)...); err != nil {
				t.Fatal(err)
			}
			var res result.Result
			if err := json.Unmarshal(out.Bytes(), &res); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if res.Status != result.StatusOK || res.Game != "higher" || len(res.Players) != len(tc.bots) {
				t.Fatalf("result %+v", res)
			}
			for i, p := range res.Players {
				kind := ""
				if p.Fault != nil {
					kind = string(p.Fault.Kind)
				}
				if p.Score != tc.scores[i] || kind != tc.faults[i] {
					t.Errorf("player %d (%s): score %v, fault %q; want %v, %q", i, p.Name, p.Score, kind, tc.scores[i], tc.faults[i])
				}
			}
		})
	}

	broken := t.TempDir()
	if err := os.CopyFS(broken, os.DirFS(game)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file, text, want string
	}{
		{"a referee that dies", "main.py", "import sys\nsys.exit(3)\n", "the referee, at its answer 0: no answer"},
		{"a referee that writes prose", "main.py", "import sys\nsys.stdin.readline()\nprint('hello', flush=True)\nsys.stdin.readline()\n", "not the protocol's JSON"},
		{"a bad manifest", "game.yaml", "name: amazes\n", "is a game built into the judge"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "g")
			if err := os.CopyFS(dir, os.DirFS(broken)); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			err := judge(t, "play", "--game", dir, bot("seven"), bot("three"))
			var ue usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v; want a usage error saying %q", err, tc.want)
			}
		})
	}
}

// --game names a game's directory by a path, or by the bare name of a directory holding
// game.yaml that no built-in game has; a built-in game's name is always the built-in game.
func TestGameDir(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "games"))
	for _, tc := range []struct {
		name string
		dir  bool
	}{
		{"higher", true}, {"./higher", true}, {"higher/", true}, {".", true},
		{"amazes", false}, {"nosuch", false},
	} {
		if _, ok := gameDir(tc.name); ok != tc.dir {
			t.Errorf("gameDir(%q) = %v, want %v", tc.name, ok, tc.dir)
		}
	}
}
