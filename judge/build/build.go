// Package build turns a submission into a runnable artifact: it compiles the source in its
// language's pinned compile image and caches the result, content-addressed by the source,
// the language, the compile image's ID and the compiler flags. A second build of the same
// source is a cache hit; a rebuilt toolchain image has a new ID and so misses.
package build

import (
	"archive/tar"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/files"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/setting"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox"
)

// Result is a build: the report the result JSON carries (players[].build), plus what running
// the program needs.
type Result struct {
	result.Build
	// Artifact is the directory holding the compiled program; RunImage and Run start it.
	Artifact string   `json:"-"`
	RunImage string   `json:"-"`
	Run      []string `json:"-"`
}

// Report is the build as the result JSON reports it.
func (r Result) Report() result.Build { return r.Build }

// Limits bound one compilation. A zero field is its DefaultLimits value. The tags are the
// keys of the configuration's build section, which is this struct.
type Limits struct {
	Timeout       time.Duration `mapstructure:"timeout"`
	Memory        setting.Bytes `mapstructure:"memory"`
	CPUs          float64       `mapstructure:"cpus"`
	Pids          int64         `mapstructure:"pids"`
	Scratch       setting.Bytes `mapstructure:"tmpfs"`
	LogLimit      setting.Bytes `mapstructure:"log_limit"`
	ArtifactLimit setting.Bytes `mapstructure:"artifact_limit"`
	SourceLimit   setting.Bytes `mapstructure:"source_limit"`
	// CacheLimit bounds the build cache of the data directory (TrimCache): the least recently
	// used builds go first, compiled again (or fetched from the shared cache) when needed.
	CacheLimit setting.Bytes `mapstructure:"cache_limit"`
	// Runtime is the engine runtime compilers run under ("" is runc): a compiler is as
	// untrusted as the code it reads, so it follows the bots' runtime (sandbox.runtime),
	// and has no key of its own.
	Runtime string `mapstructure:"-"`
}

// DefaultLimits are the judge's compile limits: a minute, 1 GiB, one core, 256 tasks, 512 MiB
// of scratch space, 64 KiB of log kept, a 64 MiB program, 1 MiB of sources; and a build cache
// of 4 GiB (about 2,400 C++ or Go programs of 1.7 MB).
func DefaultLimits() Limits {
	return Limits{Timeout: time.Minute, Memory: 1 << 30, CPUs: 1, Pids: 256, Scratch: 512 << 20,
		LogLimit: 64 << 10, ArtifactLimit: 64 << 20, SourceLimit: 1 << 20, CacheLimit: 4 << 30}
}

func (l Limits) orDefaults() Limits {
	d := DefaultLimits()
	l.Timeout = cmp.Or(l.Timeout, d.Timeout)
	l.Memory = cmp.Or(l.Memory, d.Memory)
	l.CPUs = cmp.Or(l.CPUs, d.CPUs)
	l.Pids = cmp.Or(l.Pids, d.Pids)
	l.Scratch = cmp.Or(l.Scratch, d.Scratch)
	l.LogLimit = cmp.Or(l.LogLimit, d.LogLimit)
	l.ArtifactLimit = cmp.Or(l.ArtifactLimit, d.ArtifactLimit)
	l.SourceLimit = cmp.Or(l.SourceLimit, d.SourceLimit)
	l.CacheLimit = cmp.Or(l.CacheLimit, d.CacheLimit)
	return l
}

// Validate checks l as configured, where every limit is written out and positive. Errors
// name the field by its key (setting.KeyError).
func (l Limits) Validate() error {
	return errors.Join(
		setting.Positive("timeout", l.Timeout),
		setting.Positive("memory", l.Memory),
		setting.Positive("cpus", l.CPUs),
		setting.Positive("pids", l.Pids),
		setting.Positive("tmpfs", l.Scratch),
		setting.Positive("log_limit", l.LogLimit),
		setting.Positive("artifact_limit", l.ArtifactLimit),
		setting.Positive("source_limit", l.SourceLimit),
		setting.Positive("cache_limit", l.CacheLimit),
	)
}

// Compiler is what the Builder needs from the sandbox.
type Compiler interface {
	ImageID(ctx context.Context, ref string) (string, error)
	Compile(ctx context.Context, spec sandbox.CompileSpec, outDir string) (sandbox.CompileResult, error)
	// ReadImageFile reads a file of an image without running it (images.ToolchainFile).
	ReadImageFile(ctx context.Context, ref, path string) ([]byte, error)
}

// Remote is a cache shared between judges (the queue's object store): a judge that misses
// its own cache looks there before compiling, and shares what it compiles.
type Remote interface {
	Get(ctx context.Context, key string, w io.Writer) (bool, error)
	Put(ctx context.Context, key string, r io.Reader) error
}

// Keeper is a Remote whose entries age out unless used (nats.artifacts_max_age). Keep renews
// the entry key when it was stored or renewed before olderThan; false when there is none.
type Keeper interface {
	Keep(ctx context.Context, key string, olderThan time.Time) (bool, error)
}

// keepEvery is how often a judge that uses a build from its own cache tells the shared
// cache so (Keeper), per build: an entry used anywhere is not aged out, and one aged out
// while this judge still had it is shared again.
const keepEvery = time.Hour

// keepAfter is how old a shared entry is before a use renews it: a day, so that the many uses
// of a build in a day cost one write.
const keepAfter = 24 * time.Hour

// Builder compiles submissions through a cache directory.
type Builder struct {
	Sandbox Compiler
	Catalog *images.Catalog
	Prefix  string
	// Dir is the cache directory: one subdirectory per key.
	Dir    string
	Limits Limits
	// Remote, when set, is consulted on a miss and receives every fresh build.
	Remote Remote
	// Log reports problems with the remote cache, which never fail a build.
	Log *slog.Logger

	mu         sync.Mutex
	toolchains map[string]string    // compile image ID -> its toolchain
	kept       map[string]time.Time // key -> when the shared cache was last told of its use
}

type entry struct {
	Result Result `json:"result"`
}

// Build compiles s or returns the cached result. A compile error is a Result with OK false;
// an error is returned only when the build could not be attempted. Every compilation is
// recorded in the submission's History.
func (b *Builder) Build(ctx context.Context, s submission.Submission) (Result, error) {
	return b.build(ctx, s, false)
}

func (b *Builder) build(ctx context.Context, s submission.Submission, fresh bool) (Result, error) {
	lim := b.Limits.orDefaults()
	lang, names, err := check(s, lim)
	if err != nil {
		return Result{}, err
	}
	cmd, err := lang.CompileCmd(names, func(n string) []byte { return s.Files[n] })
	if err != nil {
		return Result{}, fmt.Errorf("%w: %w", submission.ErrInvalid, err)
	}
	compileRef := b.Catalog.Compile(lang).Ref(b.Prefix)
	imageID, err := b.Sandbox.ImageID(ctx, compileRef)
	if err != nil {
		return Result{}, err
	}
	if imageID == "" {
		return Result{}, fmt.Errorf("build: compile image %s is missing (run `judge images build`)", compileRef)
	}
	key := cacheKey(s.Lang, imageID, cmd, s.Files, names)
	dir := filepath.Join(b.Dir, key[:2], key)
	res := Result{RunImage: b.Catalog.Run(lang).Ref(b.Prefix), Run: lang.Run, Artifact: filepath.Join(dir, "artifact")}
	cached := func() (Result, bool) {
		data, err := os.ReadFile(filepath.Join(dir, "result.json"))
		var e entry
		if err != nil || json.Unmarshal(data, &e) != nil {
			return Result{}, false
		}
		r := e.Result
		r.Cached, r.MS = true, 0
		// The directory's time is the build's last use, and the history's time the
		// submission's, by which TrimCache keeps the cache.
		now := time.Now()
		os.Chtimes(dir, now, now)
		os.Chtimes(b.historyFile(s), now, now)
		if r.Toolchain == "" { // cached before results named it
			r.Toolchain = b.toolchain(ctx, lang, compileRef, imageID)
		}
		r.Artifact, r.RunImage, r.Run = res.Artifact, res.RunImage, res.Run
		return r, true
	}
	if !fresh {
		if r, ok := cached(); ok {
			b.keep(ctx, key, dir)
			return r, nil
		}
		if b.fetch(ctx, key, dir) {
			if r, ok := cached(); ok {
				b.keep(ctx, key, dir)
				return r, nil
			}
		}
	}
	res.Image = imageID
	res.Toolchain = b.toolchain(ctx, lang, compileRef, imageID)
	return b.compile(ctx, s, sandbox.CompileSpec{Image: compileRef, Cmd: cmd, Files: s.Files}, lim, key, dir, fresh, res)
}

// check checks a submission against the limits before anything runs, and gives its
// language and its file names, sorted.
func check(s submission.Submission, lim Limits) (images.Lang, []string, error) {
	lang, ok := images.LangByName(s.Lang)
	if !ok {
		return lang, nil, fmt.Errorf("%w: unknown language %q", submission.ErrInvalid, s.Lang)
	}
	var size int64
	names := make([]string, 0, len(s.Files))
	for name, data := range s.Files {
		size += int64(len(data)) + int64(len(name))
		names = append(names, name)
	}
	if err := files.CheckNames(names); err != nil {
		return lang, nil, fmt.Errorf("%w: %w", submission.ErrInvalid, err)
	}
	if len(s.Files) == 0 {
		return lang, nil, fmt.Errorf("%w: no source files", submission.ErrInvalid)
	}
	if size > int64(lim.SourceLimit) {
		return lang, nil, fmt.Errorf("%w: sources are %d bytes, the limit is %d", submission.ErrInvalid, size, lim.SourceLimit)
	}
	sort.Strings(names)
	return lang, names, nil
}

// compile runs the compiler of spec (its image, command and files) under lim and, when it
// succeeds, moves the program into the cache directory dir; res is the build so far.
func (b *Builder) compile(ctx context.Context, s submission.Submission, spec sandbox.CompileSpec, lim Limits, key, dir string, fresh bool, res Result) (Result, error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return Result{}, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "tmp-")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(tmp)
	if err := os.Mkdir(filepath.Join(tmp, "artifact"), 0o755); err != nil {
		return Result{}, err
	}
	start := time.Now()
	spec.Limits = sandbox.Limits{
		Memory: lim.Memory, CPUs: lim.CPUs, Pids: lim.Pids,
		NoFile: 1024, FileSize: lim.ArtifactLimit, Runtime: lim.Runtime,
		// Compilers start processes (g++ its assembler): Docker's filter, not the bots'.
		Seccomp: sandbox.SeccompDocker,
	}
	spec.Timeout, spec.Scratch = lim.Timeout, int64(lim.Scratch)
	spec.LogLimit, spec.ArtifactLimit = int64(lim.LogLimit), int64(lim.ArtifactLimit)
	cr, err := b.Sandbox.Compile(ctx, spec, filepath.Join(tmp, "artifact"))
	if err != nil {
		return Result{}, err
	}
	res.OK, res.Log, res.Failure = cr.OK, cr.Log, cr.Failure
	res.MS = time.Since(start).Milliseconds()
	// Only successes are cached: a failure may come from the machine rather than the source
	// (a timeout under load, a broken engine), and a cached wrong verdict would outlive it.
	if !cr.OK {
		b.record(s, res)
		res.Artifact = ""
		return res, nil
	}
	data, _ := json.Marshal(entry{Result: res})
	if err := os.WriteFile(filepath.Join(tmp, "result.json"), data, 0o644); err != nil {
		return Result{}, err
	}
	// The sources travel with the build, so that any judge holding it, here or through the
	// shared store, can rebuild it (`judge rebuild --known`).
	src, _ := json.Marshal(s)
	if err := os.WriteFile(filepath.Join(tmp, sourceFile), src, 0o644); err != nil {
		return Result{}, err
	}
	if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) && !errors.Is(err, os.ErrExist) {
		// Another builder may have won the race with the same content; theirs is as good.
		if _, statErr := os.Stat(filepath.Join(dir, "result.json")); statErr != nil {
			return Result{}, err
		}
	}
	if fresh {
		// The cache keeps the entry it had; this build's program is compared as built.
		res.Artifact = filepath.Join(tmp, "artifact")
		if _, err := os.Stat(res.Artifact); err != nil {
			res.Artifact = filepath.Join(dir, "artifact")
		}
	}
	b.record(s, res)
	res.Artifact = filepath.Join(dir, "artifact")
	b.share(ctx, key, dir)
	return res, nil
}

// toolchain reads the compile image's /judge/toolchain, once per image ID. An image built
// before images named their toolchain gives the lock's name for the language instead.
func (b *Builder) toolchain(ctx context.Context, lang images.Lang, ref, imageID string) string {
	b.mu.Lock()
	t, ok := b.toolchains[imageID]
	b.mu.Unlock()
	if ok {
		return t
	}
	data, err := b.Sandbox.ReadImageFile(ctx, ref, images.ToolchainFile)
	t = strings.TrimSpace(string(data))
	if err != nil || t == "" {
		t = b.Catalog.Toolchain(lang)
		if err != nil && ctx.Err() == nil {
			b.log().Warn("the compile image does not name its toolchain; using the lock's", "image", ref, "err", err)
		}
	}
	b.mu.Lock()
	if b.toolchains == nil {
		b.toolchains = map[string]string{}
	}
	b.toolchains[imageID] = t
	b.mu.Unlock()
	return t
}

func cacheKey(lang, imageID string, cmd []string, files map[string][]byte, names []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "lang %s\nimage %s\ncmd %q\n", lang, imageID, strings.Join(cmd, "\x00"))
	for _, n := range names {
		sum := sha256.Sum256(files[n])
		fmt.Fprintf(h, "file %q %s\n", n, hex.EncodeToString(sum[:]))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// fetch copies an entry from the remote cache into dir; false when there is none (or the
// remote fails: then the submission is simply compiled here).
func (b *Builder) fetch(ctx context.Context, key, dir string) bool {
	if b.Remote == nil {
		return false
	}
	var buf bytes.Buffer
	found, err := b.Remote.Get(ctx, key, &buf)
	if err != nil {
		b.log().Warn("build: reading the shared cache", "key", key, "err", err)
	}
	if err != nil || !found {
		return false
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		b.log().Warn("build: caching a shared build", "err", err)
		return false
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "tmp-")
	if err != nil {
		b.log().Warn("build: caching a shared build", "err", err)
		return false
	}
	defer os.RemoveAll(tmp)
	// The entry is checked like a compiler's artifact: files and directories only, no link,
	// nothing outside the entry.
	if err := sandbox.ExtractArtifact(buf.Bytes(), tmp); err != nil {
		b.log().Warn("build: bad entry in the shared cache", "key", key, "err", err)
		return false
	}
	if err := os.Rename(tmp, dir); err != nil {
		_, statErr := os.Stat(filepath.Join(dir, "result.json"))
		return statErr == nil
	}
	return true
}

// keep tells the shared cache, if it ages its entries out, that the build key (in dir) is in
// use, at most every keepEvery: it renews an entry older than keepAfter, and shares the build
// again when the entry is gone.
func (b *Builder) keep(ctx context.Context, key, dir string) {
	k, ok := b.Remote.(Keeper)
	if !ok {
		return
	}
	now := time.Now()
	b.mu.Lock()
	due := now.Sub(b.kept[key]) >= keepEvery
	if due {
		if b.kept == nil {
			b.kept = map[string]time.Time{}
		}
		b.kept[key] = now
	}
	b.mu.Unlock()
	if !due {
		return
	}
	found, err := k.Keep(ctx, key, now.Add(-keepAfter))
	switch {
	case err != nil:
		b.log().Warn("build: renewing a shared build", "key", key, "err", err)
	case !found:
		b.share(ctx, key, dir)
	}
}

// share puts a fresh cache entry (result.json and artifact/) into the remote cache.
func (b *Builder) share(ctx context.Context, key, dir string) {
	if b.Remote == nil {
		return
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			return tw.WriteHeader(&tar.Header{Name: rel + "/", Typeflag: tar.TypeDir, Mode: 0o755})
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Name: rel, Typeflag: tar.TypeReg, Mode: int64(info.Mode().Perm()), Size: int64(len(data))}); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = b.Remote.Put(ctx, key, &buf)
	}
	if err != nil {
		b.log().Warn("build: sharing a build", "key", key, "err", err)
	}
}

func (b *Builder) log() *slog.Logger {
	if b.Log != nil {
		return b.Log
	}
	return slog.New(slog.DiscardHandler)
}
