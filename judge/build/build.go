// Package build turns a submission into a runnable artifact: it compiles the source in its
// language's pinned compile image and caches the result, content-addressed by the source,
// the language, the compile image's ID and the compiler flags. A second build of the same
// source is a cache hit; a rebuilt toolchain image has a new ID and so misses.
package build

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/sandbox"
)

// Submission is one player's source.
type Submission struct {
	Lang string
	// Files are the sources by relative path.
	Files map[string][]byte
}

// Result is the build object of the result JSON (players[].build) plus what running needs.
type Result struct {
	OK     bool   `json:"ok"`
	Cached bool   `json:"cached"`
	Image  string `json:"image"`
	MS     int64  `json:"ms"`
	Log    string `json:"log"`
	// Artifact is the directory holding the compiled program; RunImage and Run start it.
	Artifact string   `json:"-"`
	RunImage string   `json:"-"`
	Run      []string `json:"-"`
	Key      string   `json:"-"`
}

// Limits bound one compilation.
type Limits struct {
	Timeout       time.Duration
	Memory        int64
	CPUs          float64
	Pids          int64
	Scratch       int64
	LogLimit      int64
	ArtifactLimit int64
	SourceLimit   int64
}

// Compiler is what the Builder needs from the sandbox.
type Compiler interface {
	ImageID(ctx context.Context, ref string) (string, error)
	Compile(ctx context.Context, spec sandbox.CompileSpec, outDir string) (sandbox.CompileResult, error)
}

// Builder compiles submissions through a cache directory.
type Builder struct {
	Sandbox Compiler
	Catalog *images.Catalog
	Prefix  string
	// Dir is the cache directory: one subdirectory per key.
	Dir    string
	Limits Limits
}

// ErrInvalid marks a submission that cannot be built as given (unknown language, bad file
// names, too large): the caller's input is at fault, not the infrastructure.
var ErrInvalid = errors.New("invalid submission")

type entry struct {
	Result Result `json:"result"`
}

// Build compiles s or returns the cached result. A compile error is a Result with OK false;
// an error is returned only when the build could not be attempted.
func (b *Builder) Build(ctx context.Context, s Submission) (Result, error) {
	lang, ok := images.LangByName(s.Lang)
	if !ok {
		return Result{}, fmt.Errorf("%w: unknown language %q", ErrInvalid, s.Lang)
	}
	var size int64
	for name, data := range s.Files {
		size += int64(len(data)) + int64(len(name))
		if err := sandbox.CheckFileName(name); err != nil {
			return Result{}, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
	}
	if len(s.Files) == 0 {
		return Result{}, fmt.Errorf("%w: no source files", ErrInvalid)
	}
	if size > b.Limits.SourceLimit {
		return Result{}, fmt.Errorf("%w: sources are %d bytes, the limit is %d", ErrInvalid, size, b.Limits.SourceLimit)
	}
	names := make([]string, 0, len(s.Files))
	for n := range s.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	cmd, err := lang.CompileCmd(names, func(n string) []byte { return s.Files[n] })
	if err != nil {
		return Result{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	compileRef := b.Catalog.Compile(lang).Ref(b.Prefix)
	runRef := b.Catalog.Run(lang).Ref(b.Prefix)
	imageID, err := b.Sandbox.ImageID(ctx, compileRef)
	if err != nil {
		return Result{}, err
	}
	if imageID == "" {
		return Result{}, fmt.Errorf("build: compile image %s is missing (run `judge images build`)", compileRef)
	}
	key := cacheKey(s.Lang, imageID, cmd, s.Files, names)
	dir := filepath.Join(b.Dir, key[:2], key)
	res := Result{RunImage: runRef, Run: lang.Run, Artifact: filepath.Join(dir, "artifact"), Key: key}
	if data, err := os.ReadFile(filepath.Join(dir, "result.json")); err == nil {
		var e entry
		if json.Unmarshal(data, &e) == nil {
			r := e.Result
			r.Cached, r.MS = true, 0
			r.Artifact, r.RunImage, r.Run, r.Key = res.Artifact, runRef, lang.Run, key
			return r, nil
		}
	}

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
	cr, err := b.Sandbox.Compile(ctx, sandbox.CompileSpec{
		Image: compileRef,
		Cmd:   cmd,
		Files: s.Files,
		Limits: sandbox.Limits{
			Memory: b.Limits.Memory, CPUs: b.Limits.CPUs, Pids: b.Limits.Pids,
			NoFile: 1024, FileSize: b.Limits.ArtifactLimit, Runtime: "runc",
		},
		Timeout:       b.Limits.Timeout,
		Scratch:       b.Limits.Scratch,
		LogLimit:      b.Limits.LogLimit,
		ArtifactLimit: b.Limits.ArtifactLimit,
	}, filepath.Join(tmp, "artifact"))
	if err != nil {
		return Result{}, err
	}
	res.OK = cr.OK
	res.Log = cr.Log
	res.Image = imageID
	res.MS = time.Since(start).Milliseconds()
	// Only successes are cached: a failure may come from the machine rather than the source
	// (a timeout under load, a broken engine), and a cached wrong verdict would outlive it.
	if cr.OK {
		data, _ := json.Marshal(entry{Result: res})
		if err := os.WriteFile(filepath.Join(tmp, "result.json"), data, 0o644); err != nil {
			return Result{}, err
		}
		if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) && !errors.Is(err, os.ErrExist) {
			// Another builder may have won the race with the same content; theirs is as good.
			if _, statErr := os.Stat(filepath.Join(dir, "result.json")); statErr != nil {
				return Result{}, err
			}
		}
	} else {
		res.Artifact = ""
	}
	return res, nil
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
