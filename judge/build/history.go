package build

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/submission"
)

// Record is one compilation of a submission, kept whatever its outcome (the cache keeps only
// successes): what `judge rebuild` compares a new build with.
type Record struct {
	Time      time.Time `json:"time"`
	Image     string    `json:"image"`
	Toolchain string    `json:"toolchain"`
	OK        bool      `json:"ok"`
	// Binary is the SHA-256 of the compiled program's files ("" when it did not compile).
	Binary string `json:"binary,omitempty"`
	// Log is the compiler's output of a failed build.
	Log string `json:"log,omitempty"`
}

// SourceID identifies a submission's sources in its language, whatever the toolchain.
func SourceID(s submission.Submission) string {
	h := sha256.New()
	fmt.Fprintf(h, "lang %s\n", s.Lang)
	names := make([]string, 0, len(s.Files))
	for n := range s.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		sum := sha256.Sum256(s.Files[n])
		fmt.Fprintf(h, "file %q %s\n", n, hex.EncodeToString(sum[:]))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (b *Builder) historyFile(s submission.Submission) string {
	return filepath.Join(b.Dir, "history", SourceID(s)+".jsonl")
}

// record appends a compilation to the submission's history. A history that cannot be written
// never fails a build: it is a report.
func (b *Builder) record(s submission.Submission, res Result) {
	r := Record{Time: time.Now().UTC(), Image: res.Image, Toolchain: res.Toolchain, OK: res.OK}
	if res.OK {
		r.Binary, _ = dirSHA256(res.Artifact)
	} else {
		r.Log = res.Log
	}
	data, err := json.Marshal(r)
	if err != nil {
		return
	}
	file := b.historyFile(s)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		b.log().Warn("recording a build", "err", err)
		return
	}
	// The sources are kept beside the history, once, so that `judge rebuild --known` can build
	// every submission this judge has built.
	src := strings.TrimSuffix(file, ".jsonl") + ".source.json"
	if _, err := os.Stat(src); os.IsNotExist(err) {
		if data, err := json.Marshal(s); err == nil {
			os.WriteFile(src, data, 0o644)
		}
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		b.log().Warn("recording a build", "err", err)
		return
	}
	defer f.Close()
	f.Write(append(data, '\n'))
}

// History is every recorded compilation of the submission, oldest first.
func (b *Builder) History(s submission.Submission) ([]Record, error) {
	f, err := os.Open(b.historyFile(s))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var r Record
		if json.Unmarshal(sc.Bytes(), &r) == nil {
			out = append(out, r)
		}
	}
	return out, sc.Err()
}

// gamesFile lists the games s was played in here, a line each (Played).
func (b *Builder) gamesFile(s submission.Submission) string {
	return strings.TrimSuffix(b.historyFile(s), ".jsonl") + ".games"
}

// Played notes that s was built for a match of game, so that `judge rebuild --known --smoke
// GAME` takes that game's entries and not every other game's bots. Like the history it is a
// report: a note that cannot be written fails nothing.
func (b *Builder) Played(s submission.Submission, game string) {
	file := b.gamesFile(s)
	if slices.Contains(readGames(file), game) {
		return
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		b.log().Warn("noting a build's game", "err", err)
		return
	}
	defer f.Close()
	f.WriteString(game + "\n") // one write: two workers noting at once leave two whole lines
}

// readGames is a games file's games, sorted, each once (none when there is no file).
func readGames(file string) []string {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var out []string
	for _, g := range strings.Fields(string(data)) {
		if !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	slices.Sort(out)
	return out
}

// Known is a submission this judge can rebuild, and the games it was played in here (none
// for one only compiled, or built before the judge noted games).
type Known struct {
	submission.Submission
	Games []string
}

// sourceFile holds a build's submission in its cache entry (and so in the shared store).
const sourceFile = "source.json"

// Lister is a Remote that can list its builds (the queue's object store).
type Lister interface {
	Keys(ctx context.Context) ([]string, error)
}

// Known returns every submission this judge can rebuild, by SourceID: those its history keeps
// the sources of, and those of every build in its cache. With fromRemote, every build of the
// shared store is fetched into the cache first.
func (b *Builder) Known(ctx context.Context, fromRemote bool) (map[string]Known, error) {
	if fromRemote {
		l, ok := b.Remote.(Lister)
		if !ok {
			return nil, errors.New("build: no shared store to list (configure NATS)")
		}
		keys, err := l.Keys(ctx)
		if err != nil {
			return nil, err
		}
		for _, key := range keys {
			if len(key) < 3 || strings.ContainsAny(key, "/.") {
				continue
			}
			dir := filepath.Join(b.Dir, key[:2], key)
			if _, err := os.Stat(dir); err != nil {
				b.fetch(ctx, key, dir)
			}
		}
	}
	history, err := filepath.Glob(filepath.Join(b.Dir, "history", "*.source.json"))
	if err != nil {
		return nil, err
	}
	cached, err := filepath.Glob(filepath.Join(b.Dir, "*", "*", sourceFile))
	if err != nil {
		return nil, err
	}
	out := map[string]Known{}
	for _, f := range append(history, cached...) {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var s submission.Submission
		if err := json.Unmarshal(data, &s); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out[SourceID(s)] = Known{Submission: s, Games: readGames(b.gamesFile(s))}
	}
	return out, nil
}

// Rebuild compiles s against the current images, not from the cache, and records it.
func (b *Builder) Rebuild(ctx context.Context, s submission.Submission) (Result, error) {
	return b.build(ctx, s, true)
}

// dirSHA256 digests every file under dir, by relative path and content.
func dirSHA256(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		fmt.Fprintf(h, "%q\n", filepath.ToSlash(rel))
		_, err = io.Copy(h, f)
		return err
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
