package build_test

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

func TestHelloBotsCompileAndRoundTrip(t *testing.T) {
	e := sandboxtest.Engine(t)
	b := sandboxtest.Builder(t, e)
	for _, lang := range images.LangNames() {
		t.Run(lang, func(t *testing.T) {
			res := sandboxtest.Build(t, b, filepath.Join("bots/hello", lang))
			p := sandboxtest.Start(t, e, sandboxtest.Spec(res))
			// The first answer includes the runtime's start-up (a JVM's), hence its larger budget.
			lim := sandbox.TurnLimits{CPU: 5 * time.Second, Wall: 15 * time.Second}
			for _, msg := range []string{"hello", "second line", "3"} {
				turn, err := p.Exchange([]byte(msg+"\n"), 1, lim)
				if err != nil {
					t.Fatalf("%q: %v (stderr %q)", msg, err, p.Stderr())
				}
				if got := string(turn.Lines[0]); got != msg {
					t.Errorf("sent %q, got %q", msg, got)
				}
			}
		})
	}
}

func TestCompileErrorIsAResultWithTheLog(t *testing.T) {
	e := sandboxtest.Engine(t)
	b := sandboxtest.Builder(t, e)
	for _, tc := range []struct {
		lang, file, src, want string
	}{
		{"cpp", "bad.cpp", "int main() { return undefined_name; }\n", "undefined_name"},
		{"pascal", "bad.pas", "program bad;\nbegin\n  undefinedproc;\nend.\n", `Identifier not found "undefinedproc"`},
		{"java", "Bad.java", "public class Bad { public static void main(String[] a) { int x = \"s\"; } }\n", "incompatible types"},
		{"go", "bad.go", "package main\n\nfunc main() { undefinedName() }\n", "undefinedName"},
		{"python", "bad.py", "def f(:\n", "bad.py"},
		{"python", "Bad.PY", "def f(:\n", "Bad.PY"},
		{"javascript", "bad.js", "let x = ;\n", "bad.js"},
		{"javascript", "Bad.JS", "let x = ;\n", "the error above is in Bad.JS"},
		{"rust", "bad.rs", "fn main() { undefined_name(); }\n", "undefined_name"},
		{"csharp", "Bad.cs", "class Bad { static void Main() { UndefinedName(); } }\n", "UndefinedName"},
	} {
		t.Run(tc.lang+"/"+tc.file, func(t *testing.T) {
			res, err := b.Build(context.Background(), submission.Submission{Lang: tc.lang, Files: map[string][]byte{tc.file: []byte(tc.src)}})
			if err != nil {
				t.Fatal(err)
			}
			if res.OK || res.Failure != result.BuildCompileError {
				t.Fatalf("a broken program: ok %v, failure %q; want a compile error", res.OK, res.Failure)
			}
			if !strings.Contains(res.Log, tc.want) {
				t.Errorf("log does not mention %q:\n%s", tc.want, res.Log)
			}
		})
	}
}

func TestCompileLogIsCapped(t *testing.T) {
	e := sandboxtest.Engine(t)
	b := sandboxtest.Builder(t, e)
	b.Limits.LogLimit = 4096
	var src strings.Builder
	for i := 0; i < 2000; i++ {
		src.WriteString("int f" + strings.Repeat("x", 5) + "() { return nope; }\n")
	}
	res, err := b.Build(context.Background(), submission.Submission{Lang: "cpp", Files: map[string][]byte{"a.cpp": []byte(src.String())}})
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || len(res.Log) > 4096 || len(res.Log) < 1000 {
		t.Errorf("ok=%v, log of %d bytes: want a failed build with a log capped at 4096", res.OK, len(res.Log))
	}
}

func TestCacheHitThenMissWhenToolchainChanges(t *testing.T) {
	e := sandboxtest.Engine(t)
	b := sandboxtest.Builder(t, e)
	ctx := context.Background()
	// A private prefix and cache, so that the toolchain "change" touches no other test.
	b.Prefix = "judgetest-" + e.Instance()
	b.Dir = t.TempDir()
	lang, _ := images.LangByName("cpp")
	real := b.Catalog.Compile(lang).Ref("judge")
	ours := b.Catalog.Compile(lang).Ref(b.Prefix)
	if err := e.TagImage(ctx, real, ours); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.RemoveImage(context.Background(), ours) })

	sub := submission.Submission{Lang: "cpp", Files: map[string][]byte{"m.cpp": []byte("int main() { return 0; }\n")}}
	first, err := b.Build(ctx, sub)
	if err != nil || !first.OK || first.Cached {
		t.Fatalf("first build: ok=%v cached=%v err=%v\n%s", first.OK, first.Cached, err, first.Log)
	}
	second, err := b.Build(ctx, sub)
	if err != nil || !second.OK || !second.Cached || second.Artifact != first.Artifact {
		t.Fatalf("second build: want a cache hit, got ok=%v cached=%v err=%v", second.OK, second.Cached, err)
	}
	// The toolchain image changes (same reference, new image ID): the cache must miss.
	var dockerfile bytes.Buffer
	tw := tar.NewWriter(&dockerfile)
	df := []byte("FROM " + real + "\nLABEL judge.test.changed=" + e.Instance() + "\n")
	tw.WriteHeader(&tar.Header{Name: "Dockerfile", Mode: 0o644, Size: int64(len(df))})
	tw.Write(df)
	tw.Close()
	newID, err := e.BuildImage(ctx, &dockerfile, images.BuildOptions{Ref: ours, Dockerfile: "Dockerfile"})
	if err != nil {
		t.Fatal(err)
	}
	if newID == first.Image {
		t.Fatal("the changed toolchain image has the old ID")
	}
	third, err := b.Build(ctx, sub)
	if err != nil || !third.OK || third.Cached || third.Image != newID {
		t.Fatalf("after the toolchain changed: want a fresh build with image %s, got cached=%v image=%s err=%v",
			newID, third.Cached, third.Image, err)
	}
}

func TestInvalidSubmissions(t *testing.T) {
	e := sandboxtest.Engine(t)
	b := sandboxtest.Builder(t, e)
	for name, sub := range map[string]submission.Submission{
		"unknown language":   {Lang: "cobol", Files: map[string][]byte{"a.cob": []byte("x")}},
		"no files":           {Lang: "cpp", Files: map[string][]byte{}},
		"too large":          {Lang: "cpp", Files: map[string][]byte{"a.cpp": bytes.Repeat([]byte("x"), 2<<20)}},
		"dotdot path":        {Lang: "cpp", Files: map[string][]byte{"../a.cpp": []byte("int main(){}")}},
		"absolute path":      {Lang: "cpp", Files: map[string][]byte{"/etc/a.cpp": []byte("int main(){}")}},
		"file and directory": {Lang: "cpp", Files: map[string][]byte{"a": []byte("x"), "a/b.cpp": []byte("int main(){}")}},
		"two programs":       {Lang: "pascal", Files: map[string][]byte{"a.pas": []byte("program a; begin end."), "b.pas": []byte("program b; begin end.")}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := b.Build(context.Background(), sub)
			if err == nil {
				t.Fatal("accepted")
			}
			if !errors.Is(err, submission.ErrInvalid) {
				t.Errorf("want ErrInvalid, got %v", err)
			}
		})
	}
}

// Every build names its toolchain as the compile image read it from the installed compiler
// when the image was built, the same on a cache hit.
func TestBuildsNameTheirToolchain(t *testing.T) {
	e := sandboxtest.Engine(t)
	b := sandboxtest.Builder(t, e)
	for _, tc := range []struct{ lang, want string }{
		{"cpp", `^GCC 12\.\d+\.\d+ \(Debian 12\.[0-9][^ )]*\)$`},
		{"pascal", `^Free Pascal 3\.2\.2 \(Debian 3\.2\.2[^ )]*\)$`},
		{"java", `^OpenJDK 17\.0\.[0-9.]+ \(Debian 17\.0\.[^ )]+\)$`},
		{"go", `^Go ` + regexp.QuoteMeta(strings.TrimPrefix(b.Catalog.Lock.Languages["go"].Go.Version, "go")) + `$`},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			src := map[string]string{"cpp": "a.cpp", "pascal": "a.pas", "java": "A.java", "go": "a.go"}[tc.lang]
			body := map[string]string{
				"cpp":    "int main() { return 0; }\n",
				"pascal": "program a;\nbegin\nend.\n",
				"java":   "public class A { public static void main(String[] a) {} }\n",
				"go":     "package main\n\nfunc main() {}\n",
			}[tc.lang]
			sub := submission.Submission{Lang: tc.lang, Files: map[string][]byte{src: []byte(body + "// toolchain test\n")}}
			if tc.lang == "pascal" {
				sub.Files[src] = []byte(body + "{ toolchain test }\n")
			}
			for _, pass := range []string{"fresh or cached", "cached"} {
				res, err := b.Build(context.Background(), sub)
				if err != nil || !res.OK {
					t.Fatalf("%s: %v %s", pass, err, res.Log)
				}
				if !regexp.MustCompile(tc.want).MatchString(res.Toolchain) {
					t.Errorf("%s build: toolchain %q; want %s", pass, res.Toolchain, tc.want)
				}
			}
		})
	}
}

// A file may be named as contestants name them: with spaces, a glob's
// characters, an upper-case extension. Each language's hello bot, so renamed, compiles and
// answers (the compile scripts split names on spaces and globbed them; rustc named the crate
// after its file).
func TestFileNamesAsContestantsWriteThem(t *testing.T) {
	sandboxtest.RuncOnly(t, "the names the compile scripts take are theirs")
	e := sandboxtest.Engine(t)
	b := sandboxtest.Builder(t, e)
	for _, tc := range []struct{ lang, from, to string }{
		{"cpp", "hello.cpp", "my bot [1].CC"},
		{"pascal", "hello.pas", "my bot *.pas"},
		{"java", "Hello.java", "Hello.java"}, // javac wants the public class's own name
		{"go", "hello.go", "my bot *.go"},
		{"python", "main.py", "my bot *.PY"},
		{"javascript", "main.js", "my bot *.JS"},
		{"rust", "main.rs", "my bot *.RS"},
		{"csharp", "Hello.cs", "my bot *.CS"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			sub, err := submission.Load(filepath.Join(sandboxtest.Root(), "bots/hello", tc.lang), 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			src, ok := sub.Files[tc.from]
			if !ok {
				t.Fatalf("bots/hello/%s has no %s", tc.lang, tc.from)
			}
			delete(sub.Files, tc.from)
			sub.Files[tc.to] = src
			sub.Files["sub dir/*"] = []byte("not a source file\n")
			if tc.lang == "java" {
				sub.Files["my util *.java"] = []byte("class Util {}\n")
			}
			res, err := b.Build(context.Background(), sub)
			if err != nil {
				t.Fatal(err)
			}
			if !res.OK {
				t.Fatalf("%q did not compile:\n%s", tc.to, res.Log)
			}
			p := sandboxtest.Start(t, e, sandboxtest.Spec(res))
			turn, err := p.Exchange([]byte("hello\n"), 1, sandbox.TurnLimits{CPU: 5 * time.Second, Wall: 15 * time.Second})
			if err != nil || string(turn.Lines[0]) != "hello" {
				t.Fatalf("the bot: %q, %v (stderr %q)", turn.Lines, err, p.Stderr())
			}
		})
	}
}
