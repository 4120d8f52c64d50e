package tournament

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/tournament/standings"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "spring.yaml"), `
game: dropblock
format: roundrobin
rounds: 2
seed: 7
options: {turns: "200"}
scoring: {method: result, places: [5, 3, 1, 0]}
entrants:
  - {name: alice, path: bots/alice.cpp}
  - {name: bob, path: bots/bob}
`)
	s, err := Load(filepath.Join(dir, "spring.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "spring" || s.Game != "dropblock" || s.Rounds != 2 || s.Seed != 7 || s.Options["turns"] != "200" ||
		s.Entrants[0].Path != filepath.Join(dir, "bots/alice.cpp") || s.Scoring == nil || s.Scoring.Method != standings.ByResult || len(s.Scoring.Places) != 4 {
		t.Errorf("spec %+v", s)
	}
	if err := s.WithDefaults().Check(); err != nil {
		t.Errorf("a good spec: %v", err)
	}

	// A directory of entrants: one per file or sub-directory, hidden ones skipped, sorted.
	entrants := t.TempDir()
	write(t, filepath.Join(entrants, "zed.go"), "package main")
	write(t, filepath.Join(entrants, "amy", "a.cpp"), "int main(){}")
	write(t, filepath.Join(entrants, ".git", "x"), "")
	s, err = Load(entrants)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entrants) != 2 || s.Entrants[0].Name != "amy" || s.Entrants[1].Name != "zed" || s.Name == "" {
		t.Errorf("entrants of a directory: %+v", s)
	}

	for _, tc := range []struct{ text, want string }{
		{"game: amazes\ncolour: red\n", "line 2: unknown key colour; known: name, game, format, rounds, seed, seats, final, options, broken, retries, scoring, confidence, until_separated, top, budget, entrants"},
		{"game: amazes\nentrants: [{name: a, path: a, lang: cpp}]\n", "line 2: unknown key lang; known: name, path"},
		{"game: amazes\nscoring: {method: score, bonus: 1}\n", "line 2: unknown key bonus; known: method, win, draw, loss, places"},
		{"game: amazes\nrounds: many\n", `line 2: want a whole number, not "rounds: many"`},
		{"game: amazes\noptions: [turns]\n", `line 2: want a map of option: value, not "options: [turns]"`},
		{"colour: red\nrounds: x\n", "2 problems:\n  line 1: unknown key colour"},
		{"game: amazes\nformat: knockout\nentrants: [{name: a, path: a}, {name: b, path: b}]\n", "format"},
		{"game: amazes\nentrants: [{name: a, path: a}, {name: a, path: b}]\n", `"a" twice`},
		{"game: amazes\nentrants: [{name: a, path: a}]\n", "1 entrants"},
		{"game: amazes\nscoring: {method: best}\nentrants: [{name: a, path: a}, {name: b, path: b}]\n", "scoring method"},
	} {
		f := filepath.Join(t.TempDir(), "t.yaml")
		write(t, f, tc.text)
		s, err := Load(f)
		if err == nil {
			err = s.WithDefaults().Check()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "tournament.") {
			t.Errorf("%q: %v; want an error mentioning %s, in the file's words", tc.text, err, tc.want)
		}
	}
}
