package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// `judge rebuild` after a toolchain change: the first rebuild records every submission's build
// with the current images; the records are then made to look as an older toolchain left them
// (its name, another binary, another outcome), and the second rebuild reports each change,
// its JSON asserted field by field. With --smoke, each bot that compiles plays Amazes.
func TestRebuildReportsWhatAToolchainChangeDid(t *testing.T) {
	sandboxtest.Engine(t)
	root := sandboxtest.Root()
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
	amazes, err := os.ReadFile(filepath.Join(root, "bots/amazes/cpp/bot.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	write("wall-follower", "bot.cpp", string(amazes))
	dataDir := t.TempDir()
	run := func(args ...string) (string, error) { return judgeIn(t, dataDir, args...) }
	var rows []rebuilt
	out, err := run("rebuild", "--json", subs)
	if err != nil || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 5 {
		t.Fatalf("the first rebuild: %v\n%s", err, out)
	}
	for _, r := range rows {
		if r.Change != "new" || r.Before != "unknown" || r.NewToolchain == "" {
			t.Errorf("first rebuild of %s: %+v; want new, unknown before, a toolchain", r.Name, r)
		}
	}

	// What the older toolchain is made to have left.
	history := func(name string) string {
		sub, err := build.Load(filepath.Join(subs, name), 1<<20)
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

	out, err = run("rebuild", "--json", "--smoke", "amazes", "--opponent", filepath.Join(root, "bots/amazes/cpp"), subs)
	if err != nil || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 5 {
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
		"wall-follower":  {Lang: "cpp", Before: "ok", Now: "ok", OldToolchain: gcc, NewToolchain: gcc, Change: "unchanged", Smoke: "ok"},
	} {
		r := got[name]
		want.Name, want.Log = name, r.Log
		if name != "wall-follower" {
			want.Smoke = r.Smoke
		}
		if r != want {
			t.Errorf("%s:\n got %+v\nwant %+v", name, r, want)
		}
	}
	if r := got["now-broken"]; !strings.Contains(r.Log, "undefined_in_this_toolchain") || r.Smoke != "" {
		t.Errorf("now-broken: log %q, smoke %q; want the compiler's error and no smoke match", r.Log, r.Smoke)
	}
	// --known: every submission this judge built, from the sources its history keeps; nothing
	// changed since the last rebuild.
	out, err = run("rebuild", "--json", "--known")
	if err != nil || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 5 {
		t.Fatalf("rebuild --known: %v\n%s", err, out)
	}
	for _, r := range rows {
		if r.Change != "unchanged" || !strings.Contains(r.Name, "@") {
			t.Errorf("rebuild --known: %+v; want every submission unchanged, named by its files and source", r)
		}
	}
	// A bot that does not play Amazes fails its smoke match with its fault.
	if s := got["same"].Smoke; s == "ok" || s == "" {
		t.Errorf("a program that exits at once passed the smoke match: %q", s)
	}
}
