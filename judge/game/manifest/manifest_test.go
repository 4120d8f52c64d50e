package manifest_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/manifest"
)

var check = manifest.Check{
	Builtin: func(name string) bool { return name == "amazes" || name == "ontherun" },
	Langs:   []string{"cpp", "go", "python"},
}

const good = `name: tictac
title: Tic Tac Toe
players: {min: 2, max: 2, default: 2}
memory_mib: 128
options:
  - {name: size, type: int, default: "3", min: "3", max: "9", help: the board's side}
  - {name: time, type: duration, default: 1s, min: 100ms, max: 10s, help: each answer's CPU}
  - {name: board, type: text, help: a board given in full}
referee:
  lang: python
  files: [referee.py, lib/rules.py]
  memory: 128MiB
samples: {python: bots/python}
renderer: view.js
rules: rules.md
`

// dir is a game directory with game.yaml as given and the files it names.
func dir(yaml string) fstest.MapFS {
	return fstest.MapFS{
		"game.yaml":           {Data: []byte(yaml)},
		"referee.py":          {Data: []byte("print()")},
		"lib/rules.py":        {Data: []byte("")},
		"bots/python/main.py": {Data: []byte("")},
		"view.js":             {Data: []byte("")},
		"rules.md":            {Data: []byte("# Tic Tac Toe")},
	}
}

func TestGoodManifest(t *testing.T) {
	m, err := manifest.Load(dir(good), check)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "tictac" || m.Players.Default != 2 || m.Referee.CPU != manifest.DefaultRefereeCPU || m.Referee.Memory != 128<<20 {
		t.Errorf("%+v", m)
	}
	docs := m.Documented()
	if len(docs) != 4 || docs[0].Name != "size" || docs[0].Default != "3" || !strings.Contains(docs[0].Help, "3..9") || docs[3].Name != "memory" || docs[3].Default != "128" {
		t.Errorf("the options as documented: %+v", docs)
	}
	opts, err := m.Read(map[string]string{"size": "5"})
	if err != nil || opts["size"] != "5" || opts["time"] != time.Second.String() || opts["board"] != "" || opts["memory"] != "128" {
		t.Errorf("read with size=5: %v, %v", opts, err)
	}
	for _, tc := range []struct {
		raw  map[string]string
		want string
	}{
		{map[string]string{"size": "10"}, "size"},
		{map[string]string{"time": "1h"}, "time"},
		{map[string]string{"memory": "1"}, "memory"},
		{map[string]string{"colour": "red"}, "colour"},
	} {
		_, err := m.Read(tc.raw)
		var oe *game.OptionError
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an OptionError naming %s", tc.raw, err, tc.want)
		}
	}
}

// A bad manifest is refused with every error naming its key; nothing of it is used.
func TestBadManifests(t *testing.T) {
	for _, tc := range []struct {
		name, from, to string // good with from replaced by to
		want           string
	}{
		{"an unknown key", "rules: rules.md", "rules: rules.md\nrulez: x", "line 16: rulez: no such key; the keys are name, title, players, options, memory_mib, referee, samples, renderer, rules, words (did you mean rules?)"},
		{"an unknown key below", "lang: python", "lang: python\n  lnag: go", "line 11: referee.lnag: no such key; the keys of referee are lang, files, main, cpu, memory (did you mean lang?)"},
		{"an unknown key beside other errors", "title: Tic Tac Toe", "title: ''\ncolour: red", "line 3: colour: no such key; the keys are name, title, players, options, memory_mib, referee, samples, renderer, rules, words\ntitle: must not be empty"},
		{"an unknown key of an option", "help: the board's side}", "help: the board's side, hlep: x}", "line 6: options[0].hlep: no such key; the keys of options[0] are name, type, default, min, max, help (did you mean help?)"},
		{"a built-in game's name", "name: tictac", "name: amazes", "name: \"amazes\" is a game built into the judge"},
		{"a name with capitals", "name: tictac", "name: TicTac", "name: want lowercase"},
		{"no title", "title: Tic Tac Toe", "title: ''", "title: must not be empty"},
		{"min over max", "{min: 2, max: 2, default: 2}", "{min: 3, max: 2, default: 2}", "players: want 1 <= min <= max"},
		{"too many players", "{min: 2, max: 2, default: 2}", "{min: 2, max: 40, default: 2}", "players: want 1 <= min <= max <= 16"},
		{"a default out of range", "{min: 2, max: 2, default: 2}", "{min: 2, max: 4, default: 5}", "players.default"},
		{"memory too small", "memory_mib: 128", "memory_mib: 1", "memory_mib"},
		{"an int's bounds", `min: "3", max: "9"`, `min: "9", max: "3"`, "options[0].min"},
		{"an int's default", `default: "3", min: "3"`, `default: "30", min: "3"`, "options[0].default"},
		{"a duration's default", "default: 1s, min: 100ms", "default: 1h, min: 100ms", "options[1].default"},
		{"a text with a default", "{name: board, type: text,", "{name: board, type: text, default: x,", "options[2].type"},
		{"an unknown type", "type: duration", "type: seconds", "options[1].type: want int, duration or text"},
		{"memory as an option", "{name: board,", "{name: memory,", `options[2].name: "memory" twice`},
		{"an option twice", "{name: board,", "{name: size,", `options[2].name: "size" twice`},
		{"a language not offered", "lang: python", "lang: cobol", "referee.lang: want one of the judge's languages, cpp, go, python"},
		{"no referee files", "files: [referee.py, lib/rules.py]", "files: []", "referee.files: the referee's source files: none given"},
		{"a missing referee", "files: [referee.py, lib/rules.py]", "files: [referee.py, lib/missing.py]", `referee.files[1]: "lib/missing.py": no such file`},
		{"a referee out of the directory", "files: [referee.py, lib/rules.py]", "files: [../etc/passwd]", "referee.files[0]: want a path in the game's directory"},
		{"a referee's memory", "memory: 128MiB", "memory: 8GiB", "referee.memory"},
		{"a main that is no file of it", "files: [referee.py, lib/rules.py]", "files: [referee.py, lib/rules.py]\n  main: game.py", `referee.main: the file that starts the referee, one of referee.files (referee.py, lib/rules.py); got "game.py"`},
		{"a sample of no language", "samples: {python: bots/python}", "samples: {cobol: bots/python}", `samples.cobol: "cobol" is not one of the judge's languages`},
		{"a sample that is no directory", "samples: {python: bots/python}", "samples: {python: view.js}", "samples.python: want a directory"},
		{"a missing rules page", "rules: rules.md", "rules: rulez.md", `rules: "rulez.md": no such file`},
		{"markup in the name", "name: tictac", "name: '<script>'", `name: want lowercase letters, digits and '-', starting with a letter, at most 32 (got "<script>")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(good, tc.from) {
				t.Fatalf("the good manifest has no %q", tc.from)
			}
			_, err := manifest.Load(dir(strings.Replace(good, tc.from, tc.to, 1)), check)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "game.yaml: ") {
				t.Errorf("%v; want game.yaml: ... %s", err, tc.want)
			}
		})
	}
	// A referee file that is a link would bring any file of the machine into the game.
	linked := t.TempDir()
	if err := os.CopyFS(linked, dir(good)); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(linked, "referee.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(linked, "referee.py")); err != nil {
		t.Fatal(err)
	}
	if _, err := manifest.Load(os.DirFS(linked), check); err == nil || !strings.Contains(err.Error(), `referee.files[0]: "referee.py" is not a file (a link`) {
		t.Errorf("a referee file that links to /etc/passwd: %v", err)
	}
	if _, err := manifest.Load(fstest.MapFS{}, check); err == nil || !strings.Contains(err.Error(), "game.yaml") {
		t.Errorf("no manifest: %v", err)
	}
}
