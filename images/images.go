// Package images describes the pinned toolchain images: the languages a bot may be written
// in, how each is compiled and started, and the recipes (Dockerfiles plus the versions pinned
// in lock.json) that build a compile image and a run image per language without any image
// registry. It knows nothing of Docker's API: Builder drives an Engine that the sandbox
// package implements.
package images

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"
)

//go:embed lock.json recipes
var embedded embed.FS

// Lock is the content of lock.json: every version an image is built from.
type Lock struct {
	Debian struct {
		Suite   string `json:"suite"`
		Variant string `json:"variant"`
	} `json:"debian"`
	Languages map[string]LangLock `json:"languages"`
}

// LangLock pins one language's toolchain.
type LangLock struct {
	Toolchain       string            `json:"toolchain"`
	CompilePackages map[string]string `json:"compile_packages,omitempty"`
	RunPackages     map[string]string `json:"run_packages,omitempty"`
	// Lines are the version lines the organiser asked for, by package: when the mirror no
	// longer serves a pinned version, the newest it serves that starts with the line is used.
	// A package without one follows its pin's major version (DefaultLine).
	Lines map[string]string `json:"lines,omitempty"`
	Go    *GoPin            `json:"go,omitempty"`
}

// GoPin pins a Go toolchain by the SHA-256 of its module zip on the Go module proxy.
type GoPin struct {
	Version string `json:"version"`
	SHA256  string `json:"sha256"`
}

// Lang is one submission language.
type Lang struct {
	Name string
	// Exts are the source file extensions that select this language.
	Exts []string
	// Flags are the fixed compiler flags (documented in docs/languages.md). They are part of the
	// artifact cache key.
	Flags []string
	// Run is the command that starts the artifact, mounted read-only at /bot, in the run image.
	Run []string
	// startup is the CPU an empty bot of the language uses to start, up to its first read of
	// stdin, by engine runtime: the worst of ten, with a margin of about a third (see Startup;
	// the figures are in BENCHMARKS.md).
	startup map[string]time.Duration
	// compile and run name the recipes of the compile and run images.
	compile, run string
	// main picks the file the compiler starts from, for languages that need one.
	main func(files []string, read func(string) []byte) (string, error)
	// entry is the name main looks for first ("main.py"), for languages that start from one.
	entry string
}

// Entry is the file name a program of the language starts from when it has several files
// ("main.py", "main.js", "main.rs"); "" for a language whose compiler takes every source, or
// finds its program by its content (Pascal's).
func (l Lang) Entry() string { return l.entry }

// JavaHome is where the pinned Debian JRE lives in both Java images.
const JavaHome = "/usr/lib/jvm/java-17-openjdk-amd64"

var langs = []Lang{
	{
		Name:    "cpp",
		Exts:    []string{".cpp", ".cc", ".cxx"},
		Flags:   []string{"-O2", "-std=c++17", "-static", "-pipe", "-s"},
		Run:     []string{"/bot/bot"},
		startup: staticStartup,
		compile: "cpp-compile", run: "static-run",
	},
	{
		Name:    "pascal",
		Exts:    []string{".pas", ".pp"},
		Flags:   []string{"-O2", "-XS", "-Xs", "-viewn"},
		Run:     []string{"/bot/bot"},
		startup: staticStartup,
		compile: "pascal-compile", run: "static-run",
		main: pascalMain,
	},
	{
		Name:  "java",
		Exts:  []string{".java"},
		Flags: []string{"--release", "17", "-encoding", "UTF-8", "-proc:none", "-nowarn"},
		Run: []string{JavaHome + "/bin/java", "-XX:+UseSerialGC",
			"-XX:-UsePerfData", "-XX:+DisableAttachMechanism", "-XX:MaxRAMPercentage=60",
			"-XX:ReservedCodeCacheSize=32m", "-Xss64m", "-Xshare:auto", "-javaagent:/judge/stdin.jar",
			// The JVM's own warnings (a thread it failed to start, say) would go to stdout,
			// where the game reads them as the bot's answers: they go to stderr instead.
			"-Xlog:disable", "-Xlog:all=warning:stderr",
			"-jar", "/bot/bot.jar"},
		startup: map[string]time.Duration{"runc": 350 * time.Millisecond, "runsc": 1600 * time.Millisecond},
		compile: "java-compile", run: "java-run",
	},
	{
		Name:  "go",
		Exts:  []string{".go"},
		Flags: []string{"-trimpath", "-ldflags=-s -w"},
		Run:   []string{"/bot/bot"},
		// Go's runtime starts its own threads: it takes more than the other static binaries.
		startup: map[string]time.Duration{"runc": 25 * time.Millisecond, "runsc": 160 * time.Millisecond},
		compile: "go-compile", run: "static-run",
	},
	{
		Name:    "python",
		Exts:    []string{".py"},
		Run:     []string{"/usr/bin/python3.11", "/bot/main.py"},
		startup: map[string]time.Duration{"runc": 120 * time.Millisecond, "runsc": 400 * time.Millisecond},
		compile: "python-compile", run: "python-run",
		main: entryFile("Python", "main.py"), entry: "main.py",
	},
	{
		Name: "javascript",
		Exts: []string{".js"},
		Run:  []string{"/usr/bin/node", "/bot/main.js"},
		// Debian's Node is built without its start-up snapshot: it compiles its own
		// JavaScript as it starts.
		startup: map[string]time.Duration{"runc": 440 * time.Millisecond, "runsc": 1100 * time.Millisecond},
		compile: "javascript-compile", run: "javascript-run",
		main: entryFile("JavaScript", "main.js"), entry: "main.js",
	},
	{
		Name: "rust",
		Exts: []string{".rs"},
		// crt-static: the bot links the C library statically and runs in static-run. The crate
		// is named, or rustc names it after the root file, which may not be a crate name.
		Flags:   []string{"--edition=2021", "-O", "-C", "target-feature=+crt-static", "-C", "strip=symbols", "--crate-name", "bot"},
		Run:     []string{"/bot/bot"},
		startup: staticStartup,
		compile: "rust-compile", run: "static-run",
		main: entryFile("Rust", "main.rs"), entry: "main.rs",
	},
	{
		Name:    "csharp",
		Exts:    []string{".cs"},
		Flags:   []string{"-optimize+", "-nologo"},
		Run:     []string{"/usr/bin/mono-sgen", "/bot/bot.exe"},
		startup: map[string]time.Duration{"runc": 160 * time.Millisecond, "runsc": 1100 * time.Millisecond},
		compile: "csharp-compile", run: "csharp-run",
	},
}

// staticStartup is a static binary's (C++, Pascal, Rust); under gVisor it includes what its
// kernel uses while the judge waits for the bot to settle (a few percent of a core).
var staticStartup = map[string]time.Duration{"runc": 10 * time.Millisecond, "runsc": 110 * time.Millisecond}

// Startup is the CPU a bot of the language may use to start under the engine runtime
// (runc's figure for a runtime not measured), before its first request, free of charge:
// what an empty bot's runtime uses up to its first read of stdin, with a margin. It is the
// only CPU a bot uses that is not charged against the game's limits (docs/rules.md); it does
// not include the container runtime's own start (sandbox.Process.StartCPU).
func (l Lang) Startup(runtime string) time.Duration {
	if d, ok := l.startup[runtime]; ok {
		return d
	}
	return l.startup["runc"]
}

// Langs returns every language, in a fixed order.
func Langs() []Lang { return append([]Lang(nil), langs...) }

// LangNames returns every language's name, in the order of Langs: the list that help texts
// and error messages give.
func LangNames() []string {
	names := make([]string, 0, len(langs))
	for _, l := range langs {
		names = append(names, l.Name)
	}
	return names
}

// Extensions returns every source file extension that selects a language (LangByExt), in the
// order of Langs and of each language's Exts.
func Extensions() []string {
	var exts []string
	for _, l := range langs {
		exts = append(exts, l.Exts...)
	}
	return exts
}

// LangByName returns the language called name ("cpp", "pascal", "java", "go", ...).
func LangByName(name string) (Lang, bool) {
	for _, l := range langs {
		if l.Name == name {
			return l, true
		}
	}
	return Lang{}, false
}

// LangByExt returns the language of a file name by its extension.
func LangByExt(file string) (Lang, bool) {
	ext := strings.ToLower(path.Ext(file))
	for _, l := range langs {
		for _, e := range l.Exts {
			if e == ext {
				return l, true
			}
		}
	}
	return Lang{}, false
}

// CompileCmd is the command the compile image runs for a submission made of files (names
// relative to the submission's root); read returns a file's content.
func (l Lang) CompileCmd(files []string, read func(string) []byte) ([]string, error) {
	cmd := []string{"/judge/compile"}
	if l.main != nil {
		m, err := l.Main(files, read)
		if err != nil {
			return nil, err
		}
		cmd = append(cmd, m)
	}
	return append(cmd, l.Flags...), nil
}

// Main is the file a program of the language starts from, among files; "" for a language
// whose compiler takes every source (C++, Java, Go, C#).
func (l Lang) Main(files []string, read func(string) []byte) (string, error) {
	if l.main == nil {
		return "", nil
	}
	return l.main(files, read)
}

var pascalProgram = regexp.MustCompile(`(?im)^\s*program\s+[a-z_][a-z0-9_]*\s*(\([^)]*\))?\s*;`)

// pascalMain picks the one Pascal file that is a program (the others are units).
func pascalMain(files []string, read func(string) []byte) (string, error) {
	var sources, programs []string
	for _, f := range files {
		if ext := strings.ToLower(path.Ext(f)); ext == ".pas" || ext == ".pp" {
			sources = append(sources, f)
			if pascalProgram.Match(read(f)) {
				programs = append(programs, f)
			}
		}
	}
	switch {
	case len(sources) == 1:
		return sources[0], nil
	case len(programs) == 1:
		return programs[0], nil
	case len(sources) == 0:
		return "", fmt.Errorf("no Pascal source (.pas or .pp) in the submission")
	default:
		return "", fmt.Errorf("need exactly one Pascal file starting with 'program', found %d among %s",
			len(programs), strings.Join(sources, ", "))
	}
}

// entryFile picks the file a program of lang starts from: the one called name at the top of
// the submission, or the only source file (of name's extension) there is.
func entryFile(lang, name string) func(files []string, read func(string) []byte) (string, error) {
	ext := path.Ext(name)
	return func(files []string, _ func(string) []byte) (string, error) {
		var sources []string
		for _, f := range files {
			if f == name {
				return f, nil
			}
			if strings.ToLower(path.Ext(f)) == ext {
				sources = append(sources, f)
			}
		}
		switch len(sources) {
		case 1:
			return sources[0], nil
		case 0:
			return "", fmt.Errorf("no %s source (%s) in the submission", lang, ext)
		}
		return "", fmt.Errorf("a %s program of several files starts from %s, which is missing (found %s)",
			lang, name, strings.Join(sources, ", "))
	}
}

// Recipe is one image to build.
type Recipe struct {
	// Name is the image's name under the configured prefix, e.g. "cpp-compile".
	Name string
	// Digest identifies everything the image is built from; it is the image's tag.
	Digest string
	// packages are the pinned Debian packages the Dockerfile installs (PACKAGES).
	packages map[string]string
	goPin    *GoPin
	parent   *Recipe
	// builder is the image that compiles the launcher (/judge/init) of a run image.
	builder *Recipe
	// jdk is the image that compiles a run image's Java agent (JDK).
	jdk *Recipe
}

// Launcher is the first program of every run image: it connects the bot's stdin and stdout
// to the named pipes the sandbox mounts at /judge/io, then executes the bot.
const Launcher = "/judge/init"

// launcherSource is recipes/launcher/init.c, added to the build context of run images.
const launcherSource = "launcher/init.c"

// trimSource is recipes/runtime/trim.sh, added to the build context of run images that copy a
// runtime out of Debian's packages (those with a parent).
const trimSource = "runtime/trim.sh"

// shared are the files of recipes/ that r's build context has besides its own directory.
func (r *Recipe) shared() []string {
	var files []string
	if r.builder != nil {
		files = append(files, launcherSource)
		if r.parent != nil {
			files = append(files, trimSource)
		}
	}
	return files
}

// Ref is the image reference of the recipe under prefix, e.g. "judge/cpp-compile:1a2b3c4d5e6f".
func (r *Recipe) Ref(prefix string) string { return prefix + "/" + r.Name + ":" + r.Digest[:12] }

// Catalog is the lock file with its recipes resolved.
type Catalog struct {
	Lock    Lock
	Base    *Recipe
	recipes map[string]*Recipe
}

// Load reads a lock file; "" means the one compiled into the judge.
func Load(lockFile string) (*Catalog, error) {
	lock, _, err := ReadLock(lockFile)
	if err != nil {
		return nil, err
	}
	return NewCatalog(lock, lockFile)
}

// ReadLock reads and checks a lock file ("" is the built-in one), and returns its bytes too.
func ReadLock(lockFile string) (Lock, []byte, error) {
	var data []byte
	var err error
	if lockFile == "" {
		data, err = embedded.ReadFile("lock.json")
	} else {
		data, err = os.ReadFile(lockFile)
	}
	if err != nil {
		return Lock{}, nil, fmt.Errorf("images: reading lock file: %w", err)
	}
	var lock Lock
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&lock); err != nil {
		return Lock{}, nil, fmt.Errorf("images: lock file %s: %w", orEmbedded(lockFile), err)
	}
	return lock, data, nil
}

// NewCatalog resolves the recipes of lock; lockFile names it in errors.
func NewCatalog(lock Lock, lockFile string) (*Catalog, error) {
	if lock.Debian.Suite == "" || lock.Debian.Variant == "" {
		return nil, fmt.Errorf("images: lock file %s: debian.suite and debian.variant are required", orEmbedded(lockFile))
	}
	c := &Catalog{Lock: lock, recipes: map[string]*Recipe{}}
	c.Base = &Recipe{Name: "base"}
	c.Base.Digest = digest("base", lock.Debian.Suite, lock.Debian.Variant, sourcesList("", ""))
	for _, l := range langs {
		ll, ok := lock.Languages[l.Name]
		if !ok {
			return nil, fmt.Errorf("images: lock file %s: no entry for language %q", orEmbedded(lockFile), l.Name)
		}
		if l.Name == "go" && (ll.Go == nil || ll.Go.Version == "" || len(ll.Go.SHA256) != 64) {
			return nil, fmt.Errorf("images: lock file %s: languages.go.go needs a version and a sha256", orEmbedded(lockFile))
		}
		if err := c.add(&Recipe{Name: l.compile, packages: ll.CompilePackages, goPin: ll.Go, parent: c.Base}); err != nil {
			return nil, err
		}
	}
	cpp, _ := LangByName("cpp")
	builder := c.recipes[cpp.compile]
	for _, l := range langs {
		run := &Recipe{Name: l.run, packages: c.Lock.Languages[l.Name].RunPackages, parent: c.Base, builder: builder}
		if l.run == "static-run" {
			run = &Recipe{Name: l.run, builder: builder}
		}
		if l.Name == "java" {
			run.jdk = c.recipes[l.compile]
		}
		if err := c.add(run); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func orEmbedded(f string) string {
	if f == "" {
		return "(built in)"
	}
	return f
}

func (c *Catalog) add(r *Recipe) error {
	if _, ok := c.recipes[r.Name]; ok {
		return nil
	}
	parts := []string{r.Name}
	files, err := recipeFiles(r.Name)
	if err != nil {
		return err
	}
	for _, f := range files {
		b, _ := embedded.ReadFile(path.Join("recipes", r.Name, f))
		parts = append(parts, f, string(b))
	}
	for _, f := range r.shared() {
		b, err := embedded.ReadFile(path.Join("recipes", f))
		if err != nil {
			return err
		}
		parts = append(parts, f, string(b))
	}
	if r.builder != nil {
		parts = append(parts, r.builder.Digest)
	}
	parts = append(parts, packageArg(r.packages))
	if r.goPin != nil {
		parts = append(parts, r.goPin.Version, r.goPin.SHA256)
	}
	if r.parent != nil {
		parts = append(parts, r.parent.Digest)
	}
	if r.jdk != nil {
		parts = append(parts, r.jdk.Digest)
	}
	r.Digest = digest(parts...)
	c.recipes[r.Name] = r
	return nil
}

// Compile and Run return the recipes of a language's images.
func (c *Catalog) Compile(l Lang) *Recipe { return c.recipes[l.compile] }

// Run returns the recipe of the image a language's bots run in.
func (c *Catalog) Run(l Lang) *Recipe { return c.recipes[l.run] }

// Toolchain is the pinned toolchain's human-readable version.
func (c *Catalog) Toolchain(l Lang) string { return c.Lock.Languages[l.Name].Toolchain }

// recipeFiles lists recipes/<name>/: its Dockerfile and what the Dockerfile copies.
func recipeFiles(dir string) ([]string, error) {
	entries, err := fs.ReadDir(embedded, path.Join("recipes", dir))
	if err != nil {
		return nil, fmt.Errorf("images: recipe %s: %w", dir, err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// packageArg formats pinned packages as apt-get arguments, "name=version ...", sorted.
func packageArg(pkgs map[string]string) string {
	var out []string
	for name, version := range pkgs {
		out = append(out, name+"="+version)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}
