package build

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox"
)

// fakeCompiler compiles anything into a one-file artifact, counting compilations.
type fakeCompiler struct{ compiles int }

func (f *fakeCompiler) ImageID(context.Context, string) (string, error) { return "sha256:fake", nil }
func (f *fakeCompiler) ReadImageFile(context.Context, string, string) ([]byte, error) {
	return []byte("Fake 1.0\n"), nil
}
func (f *fakeCompiler) Compile(_ context.Context, _ sandbox.CompileSpec, out string) (sandbox.CompileResult, error) {
	f.compiles++
	return sandbox.CompileResult{OK: true}, os.WriteFile(filepath.Join(out, "bot"), make([]byte, 1000), 0o755)
}

// Trim removes the least recently used builds until the cache fits, never one used within
// the keep window, and a cache hit counts as a use: the build hit last survives.
func TestTrimRemovesTheLeastRecentlyUsed(t *testing.T) {
	cat, err := images.Load("")
	if err != nil {
		t.Fatal(err)
	}
	fc := &fakeCompiler{}
	b := &Builder{Sandbox: fc, Catalog: cat, Prefix: "judge", Dir: t.TempDir()}
	ctx := context.Background()
	src := func(i int) submission.Submission {
		return submission.Submission{Lang: "cpp", Files: map[string][]byte{"a.cpp": []byte{byte('a' + i)}}}
	}
	dirs := make([]string, 4)
	for i := range dirs {
		res, err := b.Build(ctx, src(i))
		if err != nil || !res.OK {
			t.Fatalf("build %d: %+v %v", i, res, err)
		}
		dirs[i] = filepath.Dir(res.Artifact)
		// Built i+1 hours ago, in order.
		old := time.Now().Add(-time.Duration(10-i) * time.Hour)
		if err := os.Chtimes(dirs[i], old, old); err != nil {
			t.Fatal(err)
		}
	}
	// Build 0, the oldest, is used again: now the most recent.
	if res, err := b.Build(ctx, src(0)); err != nil || !res.Cached {
		t.Fatalf("a cache hit: %+v %v", res, err)
	}
	before, err := TrimCache(b.Dir, 0, TrimKeep, time.Now())
	if err != nil || before.Left != 8 || before.Removed != 0 || before.Bytes < 4000 { // four builds, four histories
		t.Fatalf("no limit: %+v %v", before, err)
	}
	per := dirBytes(dirs[0])
	histories := before.Bytes - 4*per // used now, by the builds and the hit
	got, err := TrimCache(b.Dir, 2*per+histories, TrimKeep, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if got.Removed != 2 || got.Left != 6 || got.Bytes != 2*per+histories || got.Freed != 2*per {
		t.Errorf("trimmed to two builds' bytes and the histories: %+v (a build is %d bytes)", got, per)
	}
	for i, want := range []bool{true, false, false, true} { // 0 was hit, 3 is the newest
		if _, err := os.Stat(dirs[i]); (err == nil) != want {
			t.Errorf("build %d: kept %v, want %v", i, err == nil, want)
		}
	}
	// Nothing used within the keep window is removed, however far over the limit.
	got, err = TrimCache(b.Dir, 1, 24*time.Hour, time.Now())
	if err != nil || got.Removed != 0 || got.Left != 6 {
		t.Errorf("all used within keep: %+v %v", got, err)
	}
	// What was removed is compiled again when next needed.
	n := fc.compiles
	if res, err := b.Build(ctx, src(1)); err != nil || !res.OK || res.Cached || fc.compiles != n+1 {
		t.Errorf("a removed build used again: %+v %v, %d compiles", res, err, fc.compiles-n)
	}
}

// A half-made build left by a judge that died while compiling goes once it is older than keep.
func TestTrimRemovesOldHalfMadeBuilds(t *testing.T) {
	b := &Builder{Dir: t.TempDir()}
	for name, age := range map[string]time.Duration{"tmp-old": 2 * time.Hour, "tmp-new": time.Minute} {
		dir := filepath.Join(b.Dir, "ab", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-age)
		os.Chtimes(dir, at, at)
	}
	got, err := TrimCache(b.Dir, 0, TrimKeep, time.Now())
	if err != nil || got.Removed != 1 {
		t.Fatalf("%+v %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(b.Dir, "ab", "tmp-new")); err != nil {
		t.Errorf("a build being made was removed: %v", err)
	}
}

// A submission's build history is an entry of the cache like its builds: it goes, least
// recently used first, once the cache is over its limit; a compilation or a cache hit of the
// submission is a use of its history; one gone is a submission `judge rebuild --known` no
// longer knows.
func TestTrimRemovesOldHistories(t *testing.T) {
	cat, err := images.Load("")
	if err != nil {
		t.Fatal(err)
	}
	b := &Builder{Sandbox: &fakeCompiler{}, Catalog: cat, Prefix: "judge", Dir: t.TempDir()}
	ctx := context.Background()
	subs := []submission.Submission{
		{Lang: "cpp", Files: map[string][]byte{"a.cpp": []byte("a")}},
		{Lang: "cpp", Files: map[string][]byte{"a.cpp": []byte("b")}},
	}
	old := time.Now().Add(-10 * time.Hour)
	for _, s := range subs {
		res, err := b.Build(ctx, s)
		if err != nil || !res.OK {
			t.Fatalf("%+v %v", res, err)
		}
		for _, p := range []string{filepath.Dir(res.Artifact), b.historyFile(s)} {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The second is used again: its build's and its history's use is now.
	if res, err := b.Build(ctx, subs[1]); err != nil || !res.Cached {
		t.Fatalf("a cache hit: %+v %v", res, err)
	}
	got, err := TrimCache(b.Dir, 1, TrimKeep, time.Now())
	if err != nil || got.Removed != 2 || got.Left != 2 {
		t.Fatalf("trimmed: %+v %v; want the first's build and history removed", got, err)
	}
	known, err := b.Known(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := known[SourceID(subs[0])]; ok || len(known) != 1 {
		t.Errorf("known after the trim: %d, the first among them %v; want the second only", len(known), ok)
	}
	if h, err := b.History(subs[1]); err != nil || len(h) != 1 {
		t.Errorf("the second's history: %v, %v", h, err)
	}
	if _, err := os.Stat(strings.TrimSuffix(b.historyFile(subs[0]), ".jsonl") + ".source.json"); !os.IsNotExist(err) {
		t.Errorf("the first's sources in the history: %v; want them gone", err)
	}
}

// Known says which games each build was played in (Played, which the match runner calls), each
// once however often, and none for a build only compiled; the trim removes the note with the
// history.
func TestKnownSaysTheGamesPlayed(t *testing.T) {
	cat, err := images.Load("")
	if err != nil {
		t.Fatal(err)
	}
	b := &Builder{Sandbox: &fakeCompiler{}, Catalog: cat, Prefix: "judge", Dir: t.TempDir()}
	ctx := context.Background()
	both := submission.Submission{Lang: "cpp", Files: map[string][]byte{"a.cpp": []byte("both")}}
	alone := submission.Submission{Lang: "cpp", Files: map[string][]byte{"a.cpp": []byte("compiled only")}}
	for _, s := range []submission.Submission{both, alone} {
		if _, err := b.Build(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range []string{"langwars", "amazes", "langwars"} {
		b.Played(both, g)
	}
	known, err := b.Known(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	if g := known[SourceID(both)].Games; !slices.Equal(g, []string{"amazes", "langwars"}) {
		t.Errorf("the games of one played in two: %v", g)
	}
	if k, ok := known[SourceID(alone)]; !ok || k.Games != nil {
		t.Errorf("one only compiled: %+v, %v; want it known, in no game", k, ok)
	}
	// A note without a history (a build fetched from the shared store) is trimmed too.
	fetched := submission.Submission{Lang: "cpp", Files: map[string][]byte{"a.cpp": []byte("fetched")}}
	b.Played(fetched, "amazes")
	if _, err := TrimCache(b.Dir, 1, 0, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	for _, s := range []submission.Submission{both, fetched} {
		if _, err := os.Stat(b.gamesFile(s)); !os.IsNotExist(err) {
			t.Errorf("the games noted after the trim: %v; want them gone with the history, or alone", err)
		}
	}
}
