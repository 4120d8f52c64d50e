package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// `judge rebuild` after a toolchain change: the first rebuild records every submission's build
// with the current images; the records are then made to look as an older toolchain left them
// (its name, another binary, another outcome), and the second rebuild reports each change,
// its JSON asserted field by field. The smoke matches are TestRebuildSmokeMatch's.
func TestRebuildReportsWhatAToolchainChangeDid(t *testing.T) {
	sandboxtest.Engine(t)
	subs := t.TempDir()
	write := func(name, file, src string) {
		if err := os.MkdirAll(filepath.Join(subs, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(subs, name, file), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("binary-changed", "a.cpp", "int main() { return 0; } // rebuild test 1\n")
	write("now-broken", "a.cpp", "int main() { return undefined_in_this_toolchain; }\n")
	write("now-fixed", "a.go", "package main\n\nfunc main() {} // rebuild test\n")
	write("same", "a.cpp", "int main() { return 0; } // rebuild test 2\n")
	dataDir := t.TempDir()
	run := func(args ...string) (string, error) { return judgeIn(t, dataDir, args...) }
	var rows []rebuilt
	out, err := run("rebuild", "--json", subs)
	if err != nil || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 4 {
		t.Fatalf("the first rebuild: %v\n%s", err, out)
	}
	for _, r := range rows {
		if r.Change != "new" || r.Before != "unknown" || r.NewToolchain == "" {
			t.Errorf("first rebuild of %s: %+v; want new, unknown before, a toolchain", r.Name, r)
		}
	}

	// What the older toolchain is made to have left.
	history := func(name string) string {
		sub, err := submission.Load(filepath.Join(subs, name), 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		return filepath.Join(dataDir, "artifacts", "history", build.SourceID(sub)+".jsonl")
	}
	old := map[string]build.Record{
		"binary-changed": {Toolchain: "GCC 11.3.0 (Debian 11.3.0-1)", OK: true, Binary: "0123"},
		"now-broken":     {Toolchain: "GCC 11.3.0 (Debian 11.3.0-1)", OK: true, Binary: "4567"},
		"now-fixed":      {Toolchain: "Go 1.25.0", OK: false, Log: "old error"},
	}
	for name, rec := range old {
		data, _ := json.Marshal(rec)
		if err := os.WriteFile(history(name), append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	out, err = run("rebuild", "--json", subs)
	if err != nil || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 4 {
		t.Fatalf("the second rebuild: %v\n%s", err, out)
	}
	got := map[string]rebuilt{}
	for _, r := range rows {
		got[r.Name] = r
	}
	gcc, gover := got["same"].NewToolchain, got["now-fixed"].NewToolchain
	if !strings.HasPrefix(gcc, "GCC 12.") || !strings.HasPrefix(gover, "Go 1.26") {
		t.Fatalf("toolchains %q, %q", gcc, gover)
	}
	for name, want := range map[string]rebuilt{
		"binary-changed": {Lang: "cpp", Before: "ok", Now: "ok", OldToolchain: "GCC 11.3.0 (Debian 11.3.0-1)", NewToolchain: gcc, Change: "binary changed"},
		"now-broken":     {Lang: "cpp", Before: "ok", Now: "error", OldToolchain: "GCC 11.3.0 (Debian 11.3.0-1)", NewToolchain: gcc, Change: "ok -> error"},
		"now-fixed":      {Lang: "go", Before: "error", Now: "ok", OldToolchain: "Go 1.25.0", NewToolchain: gover, Change: "error -> ok"},
		"same":           {Lang: "cpp", Before: "ok", Now: "ok", OldToolchain: gcc, NewToolchain: gcc, Change: "unchanged"},
	} {
		r := got[name]
		want.Name, want.Log = name, r.Log
		if r != want {
			t.Errorf("%s:\n got %+v\nwant %+v", name, r, want)
		}
	}
	if r := got["now-broken"]; !strings.Contains(r.Log, "undefined_in_this_toolchain") {
		t.Errorf("now-broken: log %q; want the compiler's error", r.Log)
	}
	// --known: every submission this judge built, from the sources its history keeps; nothing
	// changed since the last rebuild.
	out, err = run("rebuild", "--json", "--known")
	if err != nil || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 4 {
		t.Fatalf("rebuild --known: %v\n%s", err, out)
	}
	for _, r := range rows {
		if r.Change != "unchanged" || !strings.Contains(r.Name, "@") {
			t.Errorf("rebuild --known: %+v; want every submission unchanged, named by its files and source", r)
		}
	}
}

// --smoke GAME plays each bot that compiles one match of GAME in seat 0 against the opponent,
// which takes every other seat: a two-player game and a four-player one, whose match cannot
// start unless all four seats are filled. A bot that plays the game passes; one that exits
// at once fails with its own fault; one that does not compile plays no match.
func TestRebuildSmokeMatch(t *testing.T) {
	sandboxtest.Engine(t)
	root := sandboxtest.Root()
	dataDir := t.TempDir() // both games' matches: --known --smoke then takes one game's entries
	for _, tc := range []struct {
		game    string
		players int
	}{
		{"amazes", 2},
		{"langwars", 4},
	} {
		t.Run(tc.game, func(t *testing.T) {
			if g, ok := games.Lookup(tc.game); !ok {
				t.Fatalf("no game %s", tc.game)
			} else if _, _, def := g.Players(); def != tc.players {
				t.Fatalf("%s plays %d by default; the case is for a %d-player match", tc.game, def, tc.players)
			}
			bot := filepath.Join(root, "bots", tc.game, "cpp")
			subs := t.TempDir()
			if err := os.CopyFS(filepath.Join(subs, "player"), os.DirFS(bot)); err != nil {
				t.Fatal(err)
			}
			for name, src := range map[string]string{
				"quitter": "int main() { return 0; } // smoke test\n",
				"broken":  "int main() { return not_declared_anywhere; }\n",
			} {
				if err := os.MkdirAll(filepath.Join(subs, name), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(subs, name, "a.cpp"), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// Run from outside the judge's sources; in a game of four, against the default
			// opponent, the game's C++ sample as the judge carries it.
			args := []string{"rebuild", "--json", "--smoke", tc.game, "--opponent", bot, subs}
			if tc.players == 4 {
				args = []string{"rebuild", "--json", "--smoke", tc.game, subs}
			}
			out, err := judgeIn(t, dataDir, args...)
			var rows []rebuilt
			if err != nil || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 3 {
				t.Fatalf("rebuild --smoke %s: %v\n%s", tc.game, err, out)
			}
			got := map[string]rebuilt{}
			for _, r := range rows {
				got[r.Name] = r
			}
			if r := got["player"]; r.Now != "ok" || r.Smoke != "ok" {
				t.Errorf("the game's own sample bot: %+v; want it built and its smoke match ok", r)
			}
			// Its fault is a turn's, not a match that was not played (as when seats are missing).
			if s := got["quitter"].Smoke; s == "ok" || s == "" || strings.HasPrefix(s, "not played") || !strings.Contains(s, " at turn ") {
				t.Errorf("a program that exits at once: smoke %q; want its fault at a turn", s)
			}
			if r := got["broken"]; r.Now != "error" || r.Smoke != "" {
				t.Errorf("a bot that does not compile: %+v; want an error and no smoke match", r)
			}
		})
	}
	// --known --smoke langwars takes the submissions played in Lang Wars here (the sample, the
	// quitter, which played both games), not Amazes' bots, nor a bot that never played.
	id := func(path string) string {
		sub, err := submission.Load(path, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		return build.SourceID(sub)[:12]
	}
	out, err := judgeIn(t, dataDir, "rebuild", "--json", "--known", "--smoke", "langwars")
	var rows []rebuilt
	if err != nil || json.Unmarshal([]byte(out), &rows) != nil {
		t.Fatalf("rebuild --known --smoke langwars: %v\n%s", err, out)
	}
	names := fmt.Sprint(rows)
	amazes, langwars := id(filepath.Join(root, "bots", "amazes", "cpp")), id(filepath.Join(root, "bots", "langwars", "cpp"))
	if strings.Contains(names, amazes) || !strings.Contains(names, langwars) || len(rows) < 2 || len(rows) > 3 {
		t.Errorf("rebuild --known --smoke langwars: %d rows, want Lang Wars' sample (%s) and the quitter, not Amazes' (%s):\n%s", len(rows), langwars, amazes, names)
	}
	for _, r := range rows {
		if r.Smoke != "ok" && !strings.Contains(r.Smoke, " at turn ") {
			t.Errorf("%s: smoke %q", r.Name, r.Smoke)
		}
	}
}
