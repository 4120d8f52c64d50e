package match_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/game/manifest"
	"github.com/botjudge/judge/judge/game/referee"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// The red team against an added game's referee: a referee program is as untrusted as a bot.
// Each hostile referee tries its attack before anything else and, should the attack work,
// goes on as the honest referee it was copied from, so that a match that is judged is a
// breach. Each attack must end the match as the judge's error of code referee (never a bot's
// fault) naming what stopped it, leave no container or file behind, and leave the runner
// judging the next match.
func TestEveryHostileRefereeIsContained(t *testing.T) {
	r := matchtest.Runner(t)
	game := filepath.Join(sandboxtest.Root(), "cmd", "judge", "testdata", "games", "higher")
	honest, err := os.ReadFile(filepath.Join(game, "main.py"))
	if err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(secret, []byte("the host's"), 0o644)
	play := func(t *testing.T, attack string) (result.Result, error) {
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(game)); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "main.py"), append([]byte(attack+"\n"), honest...), 0o644)
		g, err := referee.Load(os.DirFS(dir), manifest.Check{Langs: images.LangNames()})
		if err != nil {
			t.Fatal(err)
		}
		j := match.Job{ID: "hostile", Game: g, Seed: 1, Options: map[string]string{"turns": "2"},
			Players: []match.Entrant{{Name: "seven", Submission: matchtest.Load(t, filepath.Join(game, "bots", "seven"))},
				{Name: "three", Submission: matchtest.Load(t, filepath.Join(game, "bots", "three"))}}}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		return r.Play(ctx, j)
	}
	for _, tc := range []struct{ name, attack, want string }{
		{"network", "import socket\nsocket.create_connection(('1.1.1.1', 53), timeout=5)", "Network is unreachable|No route to host"},
		{"a new process", "import os\nos.fork()", "SIGSYS"},
		{"a fork bomb", "import os\nwhile True: os.fork()", "SIGSYS"},
		{"writing outside its directory", "open('/etc/judge-was-here', 'w').write('x')", "Read-only file system|Permission denied"},
		{"writing its own program", "open('/bot/main.py', 'w').write('x')", "Read-only file system|Permission denied"},
		{"reading the host", "open(" + `"` + secret + `"` + ").read()", "No such file or directory"},
		// One answer under every runtime: under gVisor the launcher's relay carries a write
		// this large whole (without it, it stopped at the pipe's 64 KiB).
		{"huge output", "import sys\nsys.stdout.write('x' * (20 << 20))", "a line longer than 16777216 bytes"},
		{"a flood of lines", "import sys\nsys.stdout.write('{}\\n' * 1000000)", "more than one JSON value|not a setup|not the protocol's"},
		{"never answering", "import time\ntime.sleep(3600)", "wall|time"},
		{"spinning", "while True: pass", "CPU"},
		{"memory", "b = bytearray(1 << 30)", "MemoryError|out of memory"},
		// Options the manifest allows, refused: the referee's error, not the job's bad option.
		{"refusing what its manifest allows", "import json, sys\nsys.stdin.readline()\nprint(json.dumps({'type': 'error', 'problems': ['option turns: no']}), flush=True)\nsys.stdin.readline()", "refused options its manifest allows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := play(t, tc.attack)
			var re *result.Error
			if !errors.As(err, &re) || re.Code != result.Referee {
				t.Fatalf("the match: %v (result %+v); want the judge's error of code referee", err, res)
			}
			if !regexp.MustCompile(tc.want).MatchString(re.Message) {
				t.Errorf("the error says %q; want it to name %q", re.Message, tc.want)
			}
			for _, p := range res.Players {
				if p.Fault != nil {
					t.Errorf("a bot was blamed: %s %v", p.Name, p.Fault)
				}
			}
			e := matchtest.Engine(r)
			e.Settle()
			left, err := e.OwnContainers(context.Background())
			left = slices.DeleteFunc(left, func(id string) bool { return slices.Contains(e.Spares(), id) })
			if err != nil || len(left) > 0 {
				t.Errorf("containers outlived the match: %v %v", left, err)
			}
			noFilesLeft(t, r)
		})
	}
	if res, err := play(t, "pass"); err != nil || res.Players[0].Score != 2 {
		t.Errorf("the next match, with the honest referee: %+v %v", res, err)
	}
}
