package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// judge similar: a program and its copy with every name changed pair at the top, an unrelated
// one far below; given as the base, the program pairs no one; from replays, two submissions
// that answered alike in the positions both met have their behaviour, others none; a file
// that is not text is left out with a note; bad arguments are refused (exit 2), naming them.
func TestSimilar(t *testing.T) {
	dir := t.TempDir()
	write := func(path, text string) string {
		t.Helper()
		p := filepath.Join(dir, path)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	read := func(path string) string {
		data, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	orig := read("bots/ontherun/cpp/bot.cpp")
	rename := regexp.MustCompile(`\b(best|city|cities|moves?|turn|dist|queue|visited|target|read\w*)\b`)
	a := write("y/bot.cpp", orig)
	b := write("z/main.cpp", rename.ReplaceAllString(orig, "${1}Renamed"))
	write("z/blob.cpp", "\x00\x01binary")
	c := write("x.cpp", read("bots/amazes/cpp/bot.cpp"))

	out, err := runOut(t, "similar", "--json", filepath.Dir(a), filepath.Dir(b), c)
	var got struct {
		Pairs []struct {
			A, B      string
			Score     float64
			Behaviour *float64
			Compared  int
			Regions   []json.RawMessage
		}
		Notes []string
	}
	if err != nil || json.Unmarshal([]byte(out), &got) != nil || len(got.Pairs) == 0 {
		t.Fatalf("judge similar: %v\n%s", err, out)
	}
	if p := got.Pairs[0]; p.A != "y" || p.B != "z" || p.Score < 0.9 || p.Behaviour != nil || len(p.Regions) == 0 {
		t.Errorf("the first pair: %+v; want y and z, a copy, no behaviour", p)
	} else { // a passage in the API's words (api.SimilarRegion)
		var keys map[string]any
		json.Unmarshal(p.Regions[0], &keys)
		if got := slices.Sorted(maps.Keys(keys)); !slices.Equal(got, []string{"file_a", "file_b", "from_a", "from_b", "to_a", "to_b"}) {
			t.Errorf("a passage's keys: %v", got)
		}
	}
	for _, p := range got.Pairs[1:] {
		if p.Score > 0.3 {
			t.Errorf("%s and %s score %.2f", p.A, p.B, p.Score)
		}
	}
	if len(got.Notes) != 1 || !strings.Contains(got.Notes[0], "blob.cpp left out: not text") {
		t.Errorf("the notes: %q", got.Notes)
	}
	if out, err := runOut(t, "similar", filepath.Dir(a), filepath.Dir(b), c); err != nil || !strings.Contains(out, "y  z  1.00") || !strings.Contains(out, "note: z: blob.cpp left out: not text") {
		t.Errorf("the table: %v\n%s", err, out)
	}
	var based struct {
		Pairs []struct {
			A, B  string
			Score float64
		}
	}
	out, _ = runOut(t, "similar", "--json", "--base", "../../bots/ontherun/cpp", filepath.Dir(a), filepath.Dir(b), c)
	json.Unmarshal([]byte(out), &based)
	for _, p := range based.Pairs {
		if p.A == "y" && p.B == "z" && p.Score > 0.1 {
			t.Errorf("with the program as the base, y and z still score %.2f", p.Score)
		}
	}

	// Behaviour, from two real matches of one seed (judge/view's pair): seat 1 is a Python bot
	// in one and that bot changed at its 21st turn in the other.
	for _, side := range []string{"a", "b"} {
		text := read("judge/view/testdata/pair/amazes-" + side + ".jsonl")
		text = strings.NewReplacer(`"name":"amazes/cpp"`, `"name":"x`+side+`"`, `"name":"pair/amazes-py"`, `"name":"y"`, `"name":"pair/amazes-mod"`, `"name":"z"`).Replace(text)
		write("replays/"+side+".jsonl", text)
	}
	out, err = runOut(t, "similar", "--json", "--replays", filepath.Join(dir, "replays"), filepath.Dir(a), filepath.Dir(b), c)
	if err != nil || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("with replays: %v\n%s", err, out)
	}
	if p := got.Pairs[0]; p.A != "y" || p.B != "z" || p.Behaviour == nil || *p.Behaviour < 0.9 || p.Compared < 20 {
		t.Errorf("y and z's behaviour: %+v", p)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"similar", a}, "requires at least 2 arg"},
		{[]string{"similar", "--min", "2", a, b}, "--min 2: want a score from 0 to 1"},
		{[]string{"similar", filepath.Dir(a), filepath.Join(dir, "nothing")}, "no such file"},
		{[]string{"similar", filepath.Dir(a), write("other/y.py", "print(1)\n")}, "are both named y"},
	} {
		if _, err := runOut(t, c.args...); exitCode(err) != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("judge %s: exit %d, %v; want 2 and %q", strings.Join(c.args, " "), exitCode(err), err, c.want)
		}
	}
}
