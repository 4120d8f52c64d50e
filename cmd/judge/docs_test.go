package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// The command reference in docs/commands is what the commands say of themselves (judge docs):
// a command, flag or word changed without make docs fails here, naming each page that differs.
// The man pages are the same commands, one page each.
func TestCommandReference(t *testing.T) {
	got := t.TempDir()
	if out, err := runCLI(t, "docs", got); err != nil {
		t.Fatalf("judge docs: %v\n%s", err, out)
	}
	kept := filepath.Join(sandboxtest.Root(), "docs", "commands")
	pages := func(dir, ext string) []string {
		names, err := filepath.Glob(filepath.Join(dir, "*"+ext))
		if err != nil {
			t.Fatal(err)
		}
		for i, n := range names {
			names[i] = strings.TrimSuffix(filepath.Base(n), ext)
		}
		return names
	}
	want := pages(got, ".md")
	if have := pages(kept, ".md"); !slices.Equal(have, want) {
		t.Errorf("docs/commands has the pages %v; the commands make %v: run make docs", have, want)
	}
	for _, p := range want {
		g, _ := os.ReadFile(filepath.Join(got, p+".md"))
		k, err := os.ReadFile(filepath.Join(kept, p+".md"))
		if err == nil && string(g) != string(k) {
			t.Errorf("docs/commands/%s.md is not what the command says of itself: run make docs", p)
		}
	}
	if len(want) < 50 || !slices.Contains(want, "judge_play") || !slices.Contains(want, "judge_completion_bash") {
		t.Errorf("the reference's pages: %v", want)
	}

	man := t.TempDir()
	if out, err := runCLI(t, "docs", "--man", man); err != nil {
		t.Fatalf("judge docs --man: %v\n%s", err, out)
	}
	var manPages []string
	for _, p := range pages(man, ".1") {
		manPages = append(manPages, strings.ReplaceAll(p, "-", "_"))
	}
	slices.Sort(manPages)
	if !slices.Equal(manPages, want) {
		t.Errorf("the man pages %v are not the commands %v", manPages, want)
	}
	if b, _ := os.ReadFile(filepath.Join(man, "judge-play.1")); !strings.Contains(string(b), ".SH NAME") || !strings.Contains(string(b), "--against") {
		t.Errorf("judge-play.1:\n%s", b)
	}
}

// Every build the docs show stamps the version the contestants' downloads are named by (make
// release): a binary built as the guide says is not "devel" beside downloads named by commit.
func TestEveryBuildStampsTheVersion(t *testing.T) {
	root := filepath.Join("..", "..")
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	pages = append(pages, filepath.Join(root, "README.md"))
	for _, p := range pages {
		text, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(text), "\n") {
			if strings.Contains(line, "./cmd/judge") && (strings.Contains(line, "go build") || strings.Contains(line, "go install")) && !strings.Contains(line, "main.version") {
				t.Errorf("%s:%d builds the judge without its version (make judge stamps it): %s", p, i+1, line)
			}
		}
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatal("make is needed to read the Makefile's builds")
	}
	for _, target := range []string{"judge", "release", "daemon-image"} {
		out, err := exec.Command("make", "-n", "-C", root, target, "VERSION=v9.8.7-test").CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, out)
		}
		for _, line := range strings.Split(strings.ReplaceAll(string(out), "\\\n", " "), "\n") {
			if strings.Contains(line, "./cmd/judge") && strings.Contains(line, " build ") && !strings.Contains(line, "-X main.version=v9.8.7-test") {
				t.Errorf("make %s builds the judge without the version it names the downloads by:\n%s", target, line)
			}
		}
	}
}
