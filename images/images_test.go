package images

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLangByExt(t *testing.T) {
	for file, want := range map[string]string{
		"a.cpp": "cpp", "a.CC": "cpp", "x/y.cxx": "cpp", "p.pas": "pascal", "p.pp": "pascal",
		"Main.java": "java", "m.go": "go", "a.py": "python", "b.PY": "python", "m.js": "javascript",
		"main.rs": "rust", "Bot.cs": "csharp", "a.ts": "", "Makefile": "",
	} {
		l, ok := LangByExt(file)
		if ok != (want != "") || l.Name != want {
			t.Errorf("LangByExt(%q) = %q, %v; want %q", file, l.Name, ok, want)
		}
	}
}

// The file a Python, JavaScript or Rust program starts from: main.<ext> at the top, else the
// only source file; the error names what is missing and what was found.
func TestEntryFile(t *testing.T) {
	py := entryFile("Python", "main.py")
	for _, tc := range []struct {
		name, want, err string
		files           []string
	}{
		{"main.py", "main.py", "", []string{"snake.py", "main.py", "notes.txt"}},
		{"the only file", "bot.py", "", []string{"bot.py", "README"}},
		{"the only file, below", "src/bot.py", "", []string{"src/bot.py"}},
		{"main.py below is not the entry", "", "starts from main.py, which is missing (found bot.py, src/main.py)", []string{"bot.py", "src/main.py"}},
		{"several, no main.py", "", "starts from main.py, which is missing (found bot.py, snake.py)", []string{"bot.py", "snake.py"}},
		{"none", "", "no Python source (.py)", []string{"bot.js"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := py(tc.files, nil)
			if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("got %q, %v; want %q, %q", got, err, tc.want, tc.err)
			}
		})
	}
}

func TestPascalMain(t *testing.T) {
	read := func(src map[string]string) func(string) []byte {
		return func(n string) []byte { return []byte(src[n]) }
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"single file", map[string]string{"a.pas": "begin end."}, "a.pas"},
		{"program and unit", map[string]string{"u.pas": "unit u; interface implementation end.", "m.pp": "{ bot }\nProgram Bot;\nuses u;\nbegin end."}, "m.pp"},
		{"program with params", map[string]string{"u.pas": "unit u;", "m.pas": "program m(input, output);\nbegin end."}, "m.pas"},
		{"two programs", map[string]string{"a.pas": "program a;", "b.pas": "program b;"}, ""},
		{"no program", map[string]string{"a.pas": "unit a;", "b.pas": "unit b;"}, ""},
		{"no pascal", map[string]string{"a.cpp": "int main(){}"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var names []string
			for n := range tc.files {
				names = append(names, n)
			}
			got, err := pascalMain(names, read(tc.files))
			if (err == nil) != (tc.want != "") || got != tc.want {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestCompileCmdCarriesTheFlags(t *testing.T) {
	cpp, _ := LangByName("cpp")
	cmd, err := cpp.CompileCmd([]string{"a.cpp"}, nil)
	if err != nil || strings.Join(cmd, " ") != "/judge/compile -O2 -std=c++17 -static -pipe -s" {
		t.Errorf("cpp: %q %v", cmd, err)
	}
	pas, _ := LangByName("pascal")
	cmd, err = pas.CompileCmd([]string{"m.pas"}, func(string) []byte { return nil })
	if err != nil || cmd[1] != "m.pas" {
		t.Errorf("pascal: the main file must come first: %q %v", cmd, err)
	}
}

func TestCatalog(t *testing.T) {
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	recipes, err := c.Images()
	if err != nil {
		t.Fatal(err)
	}
	// base, eight compile images, the static run image once (C++, Pascal, Go, Rust) and the
	// Java, Python, JavaScript and C# run images.
	if len(recipes) != 14 || recipes[0] != c.Base {
		t.Errorf("got %d recipes, base first? %v", len(recipes), recipes[0] == c.Base)
	}
	seen := map[string]bool{}
	for _, r := range recipes {
		if seen[r.Digest] {
			t.Errorf("two recipes share digest %s", r.Digest)
		}
		seen[r.Digest] = true
		if ref := r.Ref("judge"); !strings.HasPrefix(ref, "judge/"+r.Name+":") || len(ref) != len("judge/"+r.Name+":")+12 {
			t.Errorf("ref %q", ref)
		}
	}
	if _, err := c.Images("cobol"); err == nil {
		t.Error("unknown language accepted")
	}
}

// A changed pin changes the digest of the images built from it, and only of those: that is
// what makes `judge images build` rebuild exactly what changed.
func TestDigestFollowsThePins(t *testing.T) {
	orig, _ := Load("")
	data, _ := os.ReadFile("lock.json")
	changed := strings.Replace(string(data), "3.2.2+dfsg-20\",\n        \"fp-units", "3.2.2+dfsg-21\",\n        \"fp-units", 1)
	if changed == string(data) {
		t.Fatal("test could not change the fpc pin")
	}
	f := filepath.Join(t.TempDir(), "lock.json")
	os.WriteFile(f, []byte(changed), 0o644)
	c, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range Langs() {
		same := c.Compile(l).Digest == orig.Compile(l).Digest
		if same != (l.Name != "pascal") {
			t.Errorf("%s compile image digest unchanged=%v after changing the fpc pin", l.Name, same)
		}
		if c.Run(l).Digest != orig.Run(l).Digest {
			t.Errorf("%s run image changed", l.Name)
		}
	}
}

func TestLoadRejectsBadLocks(t *testing.T) {
	for name, content := range map[string]string{
		"not json":      "{",
		"unknown field": `{"debian":{"suite":"bookworm","variant":"minbase"},"languages":{},"extra":1}`,
		"no suite":      `{"debian":{},"languages":{}}`,
		"missing lang":  `{"debian":{"suite":"bookworm","variant":"minbase"},"languages":{}}`,
	} {
		f := filepath.Join(t.TempDir(), "lock.json")
		os.WriteFile(f, []byte(content), 0o644)
		if _, err := Load(f); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
