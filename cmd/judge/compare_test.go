package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/botjudge/judge/judge/rating"
	"github.com/botjudge/judge/judge/tournament"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// compareJSON runs `judge compare ... --json` and returns its outcome.
func compareJSON(t *testing.T, args ...string) tournament.CompareOutcome {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRoot()
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(append([]string{"--data-dir", sandboxtest.DataDir(), "compare", "--json"}, args...))
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("judge compare %v: %v\n%s", args, err, errOut.String())
	}
	var o tournament.CompareOutcome
	if err := json.Unmarshal(out.Bytes(), &o); err != nil {
		t.Fatalf("the outcome is not JSON: %v\n%s", err, out.String())
	}
	return o
}

// judge compare on real bots, through an embedded queue: a bot against its broken version is
// better; a bot against its own copy is never better at alpha 0.01. A game of two (Amazes)
// and one of four (Lang Wars, among three sample bots).
func TestCompareRealBots(t *testing.T) {
	sandboxtest.Engine(t)
	natsHere(t)
	bot := func(game, lang string) string { return filepath.Join(sandboxtest.Root(), "bots", game, lang) }
	copyOf := func(game, lang string) string {
		dir := filepath.Join(t.TempDir(), lang)
		if err := os.CopyFS(dir, os.DirFS(bot(game, lang))); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"amazes against broken", []string{"--game", "amazes", bot("amazes", "cpp"), bot("amazes", "broken")}, []string{rating.Better}},
		{"amazes against a copy", []string{"--game", "amazes", "--alpha", "0.01", "--max", "40", bot("amazes", "go"), copyOf("amazes", "go")}, []string{rating.NotBetter, rating.Undecided}},
		// elo1 100: a sweep decides in 12 pairs, not 22 (each pair of Lang Wars is some seconds).
		{"langwars against broken", []string{"--game", "langwars", "--elo1", "100", "--opponents", bot("langwars", "java") + "," + bot("langwars", "go") + "," + bot("langwars", "pascal"),
			bot("langwars", "cpp"), bot("langwars", "broken")}, []string{rating.Better}},
		{"langwars against a copy", []string{"--game", "langwars", "--alpha", "0.01", "--max", "12", "--opponents", bot("langwars", "java"), bot("langwars", "cpp"), copyOf("langwars", "cpp")},
			[]string{rating.NotBetter, rating.Undecided}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := compareJSON(t, tc.args...)
			ok := false
			for _, v := range tc.want {
				ok = ok || o.Verdict == v
			}
			if !ok || o.Matches != 2*o.Pairs || o.Matches == 0 || len(o.Failed) != 0 {
				t.Errorf("%+v: want a verdict of %v", o, tc.want)
			}
			t.Logf("%s: %s after %d matches, LLR %.2f, difference %.2f %s %v", tc.name, o.Verdict, o.Matches, o.LLR, o.Elo, o.Unit, o.EloInterval)
		})
	}
}
