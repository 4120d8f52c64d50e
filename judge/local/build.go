package local

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/submission"
)

// compileTimeout bounds one build; logLimit what is kept of its output.
const (
	compileTimeout = 5 * time.Minute
	logLimit       = 64 << 10
)

// recipe is how a language is built and run with this machine's tools: the flags of the
// judge's images, less what makes a binary static (the machine's own libraries are there).
type recipe struct {
	// tools are the programs it needs, the first naming the toolchain; install says how to
	// get them.
	tools   []string
	install string
	version []string // the first tool's arguments that print its version
	// compile are the commands run in the sources' directory; run starts the program.
	compile func(j job) ([][]string, error)
	run     func(j job) ([]string, error)
}

// job is one build: the sources' and the output's directories, the source files (relative,
// sorted) and the language's main file ("" when it has none).
type job struct {
	src, out string
	files    []string
	main     string
}

// with is the files of the given extensions (any case).
func (j job) with(exts ...string) []string {
	var out []string
	for _, f := range j.files {
		if slices.Contains(exts, strings.ToLower(filepath.Ext(f))) {
			out = append(out, f)
		}
	}
	return out
}

// flags are the compiler flags of lang's image (images.Langs) without the ones that link
// statically: this machine's own libraries are there, and may have no static copies.
func flags(lang string) []string {
	l, _ := images.LangByName(lang)
	var out []string
	for i := 0; i < len(l.Flags); i++ {
		switch f := l.Flags[i]; {
		case f == "-static", f == "-XS":
		case f == "-C" && i+1 < len(l.Flags) && l.Flags[i+1] == "target-feature=+crt-static":
			i++
		default:
			out = append(out, f)
		}
	}
	return out
}

// cmd is a command line: the program, then its arguments (a string or a list of strings each).
func cmd(prog string, args ...any) []string {
	c := []string{prog}
	for _, a := range args {
		switch a := a.(type) {
		case string:
			c = append(c, a)
		case []string:
			c = append(c, a...)
		}
	}
	return c
}

var recipes = map[string]recipe{
	"cpp": {tools: []string{"g++"}, install: "Debian/Ubuntu: apt install g++; macOS: xcode-select --install", version: []string{"--version"},
		compile: func(j job) ([][]string, error) {
			return [][]string{cmd("g++", flags("cpp"), "-o", filepath.Join(j.out, "bot"), "-x", "c++", j.with(".cpp", ".cc", ".cxx"))}, nil
		},
		run: func(j job) ([]string, error) { return []string{filepath.Join(j.out, "bot")}, nil }},
	"pascal": {tools: []string{"fpc"}, install: "Debian/Ubuntu: apt install fp-compiler; macOS: brew install fpc", version: []string{"-iV"},
		compile: func(j job) ([][]string, error) {
			return [][]string{cmd("fpc", flags("pascal"), "-FE"+j.out, "-FU"+filepath.Join(j.out, "units"), "-o"+filepath.Join(j.out, "bot"), j.main)}, nil
		},
		run: func(j job) ([]string, error) { return []string{filepath.Join(j.out, "bot")}, nil }},
	"java": {tools: []string{"javac", "javap", "java"}, install: "Debian/Ubuntu: apt install openjdk-17-jdk-headless; macOS: brew install openjdk@17", version: []string{"-version"},
		compile: func(j job) ([][]string, error) {
			return [][]string{cmd("javac", flags("java"), "-d", filepath.Join(j.out, "classes"), j.with(".java"))}, nil
		},
		run: javaRun},
	"go": {tools: []string{"go"}, install: "Debian/Ubuntu: apt install golang-go; macOS: brew install go", version: []string{"version"},
		compile: func(j job) ([][]string, error) {
			if _, err := os.Stat(filepath.Join(j.src, "go.mod")); err != nil {
				if err := os.WriteFile(filepath.Join(j.src, "go.mod"), []byte("module bot\n\ngo 1.21\n"), 0o644); err != nil {
					return nil, err
				}
			}
			return [][]string{cmd("go", "build", flags("go"), "-o", filepath.Join(j.out, "bot"), ".")}, nil
		},
		run: func(j job) ([]string, error) { return []string{filepath.Join(j.out, "bot")}, nil }},
	"python": {tools: []string{"python3"}, install: "Debian/Ubuntu: apt install python3; macOS: brew install python", version: []string{"--version"},
		compile: func(j job) ([][]string, error) {
			return [][]string{append([]string{"python3", "-m", "py_compile"}, j.with(".py")...)}, nil
		},
		run: func(j job) ([]string, error) { return []string{"python3", "-B", filepath.Join(j.src, j.main)}, nil }},
	"javascript": {tools: []string{"node"}, install: "Debian/Ubuntu: apt install nodejs; macOS: brew install node", version: []string{"--version"},
		compile: func(j job) ([][]string, error) {
			var c [][]string
			for _, f := range j.with(".js") {
				c = append(c, []string{"node", "--check", f})
			}
			return c, nil
		},
		run: func(j job) ([]string, error) { return []string{"node", filepath.Join(j.src, j.main)}, nil }},
	"rust": {tools: []string{"rustc"}, install: "Debian/Ubuntu: apt install rustc; macOS: brew install rust", version: []string{"--version"},
		compile: func(j job) ([][]string, error) {
			return [][]string{cmd("rustc", flags("rust"), "-o", filepath.Join(j.out, "bot"), j.main)}, nil
		},
		run: func(j job) ([]string, error) { return []string{filepath.Join(j.out, "bot")}, nil }},
	"csharp": {tools: []string{"mcs", "mono"}, install: "Debian/Ubuntu: apt install mono-mcs mono-runtime; macOS: brew install mono", version: []string{"--version"},
		compile: func(j job) ([][]string, error) {
			return [][]string{cmd("mcs", flags("csharp"), "-out:"+filepath.Join(j.out, "bot.exe"), j.with(".cs"))}, nil
		},
		run: func(j job) ([]string, error) { return []string{"mono", filepath.Join(j.out, "bot.exe")}, nil }},
}

var javaMain = regexp.MustCompile(`public static void main\(java\.lang\.String(\[\]|\.\.\.)\)`)

// javaRun finds the one class with a main method, as the judge's Java image does, and runs it.
func javaRun(j job) ([]string, error) {
	classes := filepath.Join(j.out, "classes")
	var mains []string
	err := filepath.WalkDir(classes, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".class") || strings.Contains(d.Name(), "$") {
			return err
		}
		rel, _ := filepath.Rel(classes, strings.TrimSuffix(path, ".class"))
		name := strings.ReplaceAll(filepath.ToSlash(rel), "/", ".")
		out, err := exec.Command("javap", "-public", "-cp", classes, name).Output()
		if err == nil && javaMain.Match(out) {
			mains = append(mains, name)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(mains) != 1 {
		return nil, fmt.Errorf("error: need exactly one class with 'public static void main(String[])', found %d: %s", len(mains), strings.Join(mains, " "))
	}
	return []string{"java", "-XX:+UseSerialGC", "-Xss64m", "-cp", classes, mains[0]}, nil
}

// MissingError is a language whose tools this machine does not have, or has one of that does
// not run.
type MissingError struct {
	Lang    string
	Tools   []string
	Install string
	// Broken says how the compiler, found, failed when asked its version.
	Broken string
}

func (e *MissingError) Error() string {
	if e.Broken != "" {
		return fmt.Sprintf("%s bots need %s, which is on this machine's PATH but does not run: %s (%s)", e.Lang, strings.Join(e.Tools, " and "), e.Broken, e.Install)
	}
	return fmt.Sprintf("%s bots need %s, not found on this machine's PATH (%s)", e.Lang, strings.Join(e.Tools, " and "), e.Install)
}

// Check is nil when this machine has every tool lang needs, else a *MissingError naming them.
func Check(lang string) error {
	if err := Supported(); err != nil {
		return err
	}
	r, ok := recipes[lang]
	if !ok {
		return fmt.Errorf("the language %q is not one the judge knows (%s)", lang, strings.Join(images.LangNames(), ", "))
	}
	var missing []string
	for _, t := range r.tools {
		if _, err := exec.LookPath(t); err != nil {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		return &MissingError{Lang: lang, Tools: missing, Install: r.install}
	}
	if _, err := compilerVersion(r); err != nil {
		return &MissingError{Lang: lang, Tools: r.tools[:1], Install: r.install, Broken: err.Error()}
	}
	return nil
}

// versions are the compilers' versions (compilerVersion's), by tool, each asked once.
var versions sync.Map

// compilerVersion is the first line the recipe's compiler prints of its version, which names each
// build it makes; an error when it does not run (a rustup with no toolchain chosen).
func compilerVersion(r recipe) (string, error) {
	if v, ok := versions.Load(r.tools[0]); ok {
		return v.(string), nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), compileTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, r.tools[0], r.version...).CombinedOutput()
	first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	if err != nil {
		return "", fmt.Errorf("`%s %s`: %v: %s", r.tools[0], strings.Join(r.version, " "), err, first)
	}
	v := r.tools[0] + " " + strings.TrimPrefix(first, r.tools[0]+" ")
	versions.Store(r.tools[0], v)
	return v, nil
}

// Builder builds submissions with this machine's compilers into Dir, keeping each build (by
// the submission's language, files and the compiler's version). It is a match.Builder.
type Builder struct {
	Dir string
}

// built is what a kept build records.
type built struct {
	OK        bool     `json:"ok"`
	Log       string   `json:"log"`
	Run       []string `json:"run"`
	Toolchain string   `json:"toolchain"`
}

// Build builds s. A compiler that refuses the source is a build that is not OK, with its log;
// an error is the machine's: a tool missing (*MissingError), a directory not writable.
func (b *Builder) Build(ctx context.Context, s submission.Submission) (build.Result, error) {
	if err := Check(s.Lang); err != nil {
		return build.Result{}, err
	}
	r := recipes[s.Lang]
	lang, _ := images.LangByName(s.Lang)
	toolchain, _ := compilerVersion(r) // Check ran it
	var files []string
	for f := range s.Files {
		if !fs.ValidPath(f) {
			return build.Result{}, fmt.Errorf("%w: a file named %q", submission.ErrInvalid, f)
		}
		files = append(files, f)
	}
	slices.Sort(files)
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", s.Lang, toolchain)
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(s.Files[f]))
		h.Write(s.Files[f])
	}
	dir := filepath.Join(b.Dir, s.Lang+"-"+hex.EncodeToString(h.Sum(nil))[:24])
	res := build.Result{Build: result.Build{Image: "local", Toolchain: toolchain}, Artifact: filepath.Join(dir, "out")}
	if data, err := os.ReadFile(filepath.Join(dir, "build.json")); err == nil {
		var k built
		if json.Unmarshal(data, &k) == nil {
			res.OK, res.Cached, res.Log, res.Run = k.OK, true, k.Log, k.Run
			if !k.OK {
				res.Failure = result.BuildCompileError
			}
			return res, nil
		}
	}
	started := time.Now()
	os.RemoveAll(dir)
	j := job{src: filepath.Join(dir, "src"), out: filepath.Join(dir, "out"), files: files}
	for _, d := range []string{j.src, filepath.Join(j.out, "units")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return res, err
		}
	}
	for _, f := range files {
		p := filepath.Join(j.src, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return res, err
		}
		if err := os.WriteFile(p, s.Files[f], 0o644); err != nil {
			return res, err
		}
	}
	main, err := lang.Main(files, func(f string) []byte { return s.Files[f] })
	if err != nil {
		return b.keep(dir, res, started, built{Log: "error: " + err.Error(), Toolchain: toolchain})
	}
	j.main = main
	commands, err := r.compile(j)
	if err != nil {
		return res, err
	}
	var log bytes.Buffer
	for _, c := range commands {
		ctx, cancel := context.WithTimeout(ctx, compileTimeout)
		cmd := exec.CommandContext(ctx, c[0], c[1:]...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = j.src, &log, &log
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
		err := cmd.Run()
		cancel()
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			fmt.Fprintf(&log, "\nerror: the build took longer than %s\n", compileTimeout)
		}
		if err != nil {
			return b.keep(dir, res, started, built{Log: clip(log.String()), Toolchain: toolchain})
		}
	}
	run, err := r.run(j)
	if err != nil {
		log.WriteString(err.Error())
		return b.keep(dir, res, started, built{Log: clip(log.String()), Toolchain: toolchain})
	}
	return b.keep(dir, res, started, built{OK: true, Log: clip(log.String()), Run: run, Toolchain: toolchain})
}

// keep records the build k in dir and returns it as res.
func (b *Builder) keep(dir string, res build.Result, started time.Time, k built) (build.Result, error) {
	res.OK, res.Log, res.Run, res.MS = k.OK, k.Log, k.Run, time.Since(started).Milliseconds()
	if !k.OK {
		res.Failure = result.BuildCompileError
	}
	data, _ := json.Marshal(k)
	return res, os.WriteFile(filepath.Join(dir, "build.json"), data, 0o644)
}

func clip(s string) string {
	if len(s) > logLimit {
		return s[:logLimit] + "\n[log cut]"
	}
	return s
}
