package catalog_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/catalog"
	"github.com/botjudge/judge/judge/game/manifest"
	"github.com/botjudge/judge/judge/game/referee"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/queue/kv"
)

var check = manifest.Check{
	Builtin: func(name string) bool { _, ok := games.Lookup(name); return ok },
	Langs:   []string{"python", "go"},
}

const gameYAML = `name: higher
title: Higher
players: {min: 2, max: 4, default: 2}
memory_mib: 64
options:
  - {name: turns, type: int, default: "3", min: "1", max: "20"}
referee: {lang: python, files: [main.py]}
`

// dir is a game directory whose referee's source is src.
func dir(src string) fstest.MapFS {
	return fstest.MapFS{
		"game.yaml":    {Data: []byte(gameYAML)},
		"main.py":      {Data: []byte(src)},
		".git/HEAD":    {Data: []byte("ref: refs/heads/main\n")},
		"bots/a/a.py":  {Data: []byte("print(1)\n")},
		"docs/note.md": {Data: []byte("# notes\n")},
	}
}

func load(t *testing.T, src string) *referee.Game {
	t.Helper()
	g, err := referee.Load(dir(src), check)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// open is a catalog on a real, embedded NATS server of the test's own.
func open(t *testing.T) (*catalog.Catalog, *queue.Queue) {
	t.Helper()
	ctx := context.Background()
	q, err := queue.Open(ctx, queue.Options{Listen: "127.0.0.1:-1", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	kv, err := q.KeyValue(ctx, catalog.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	return catalog.New(kv, q, games.Lookup, check, nil), q
}

func TestLoad(t *testing.T) {
	g := load(t, "print('v1')\n")
	if _, ok := g.Files[".git/HEAD"]; ok {
		t.Error("a hidden file is part of the game")
	}
	if len(g.Files) != 4 || string(g.Sources["main.py"]) != "print('v1')\n" || len(g.Sources) != 1 {
		t.Errorf("files %v, sources %v", len(g.Files), g.Sources)
	}
	if again := load(t, "print('v1')\n"); again.Version != g.Version || len(g.Version) != 64 {
		t.Errorf("the same files give versions %q and %q", g.Version, again.Version)
	}
	if other := load(t, "print('v2')\n"); other.Version == g.Version {
		t.Error("a changed referee keeps its version")
	}
	// A file's bytes moved into its name is another game.
	a := referee.Version(map[string][]byte{"ab": []byte("c")})
	b := referee.Version(map[string][]byte{"a": []byte("bc")})
	if a == b {
		t.Error("the version does not separate a name from its content")
	}
	archive, err := g.Archive()
	if err != nil {
		t.Fatal(err)
	}
	again, _ := g.Archive()
	if !bytes.Equal(archive, again) {
		t.Error("the same game archives to different bytes")
	}
	back, err := referee.Unarchive(archive, g.Version, check)
	if err != nil || back.Version != g.Version || back.Manifest.Name != "higher" {
		t.Fatalf("unarchived: %v, %v", back, err)
	}
	if _, err := referee.Unarchive(archive, strings.Repeat("0", 64), check); err == nil || !strings.Contains(err.Error(), "not the 000000000000 it is stored as") {
		t.Errorf("an archive stored under another version: %v", err)
	}
}

func TestCatalog(t *testing.T) {
	c, q := open(t)
	ctx := context.Background()
	if list, err := c.List(ctx); err != nil || len(list) != 0 {
		t.Fatalf("an empty catalog lists %v, %v", list, err)
	}
	if _, ok := c.Lookup("higher"); ok {
		t.Fatal("a game not added is found")
	}
	if g, ok := c.Lookup("amazes"); !ok || g.Name() != "amazes" {
		t.Fatal("a built-in game is not found")
	}
	if _, ok := c.Lookup("NOT A KEY"); ok {
		t.Fatal("a name that is no key is found")
	}

	v1 := load(t, "print('v1')\n")
	e, added, err := c.Add(ctx, v1)
	if err != nil || !added || e.Version != v1.Version || e.Title != "Higher" || len(e.Earlier) != 0 {
		t.Fatalf("add v1: %+v %v %v", e, added, err)
	}
	if _, added, _ := c.Add(ctx, v1); added {
		t.Error("adding the current version again adds it")
	}
	g, ok := c.Lookup("higher")
	if !ok || g.Name() != "higher" {
		t.Fatal("an added game is not found")
	}
	if min, max, _ := g.Players(); min != 2 || max != 4 {
		t.Errorf("players %d..%d", min, max)
	}
	if _, err := game.Start(g, game.Config{Players: 2, Options: map[string]string{"turns": "99"}}); err == nil {
		t.Error("an added game takes an option out of its bounds")
	}

	v2 := load(t, "print('v2')\n")
	e, added, err = c.Add(ctx, v2)
	if err != nil || !added || e.Version != v2.Version || len(e.Earlier) != 1 || e.Earlier[0] != v1.Version {
		t.Fatalf("add v2: %+v %v %v", e, added, err)
	}
	if g, _ := c.Lookup("higher"); g.(*referee.Game).Version != v2.Version {
		t.Error("the lookup does not find the version added last")
	}
	// The earlier version stays for its replays, from a catalog that never loaded it.
	fresh := catalog.New(mustKV(t, q), q, games.Lookup, check, nil)
	old, err := fresh.Version(ctx, v1.Version)
	if err != nil || string(old.Sources["main.py"]) != "print('v1')\n" {
		t.Fatalf("the earlier version: %v", err)
	}
	// Going back to v1 makes it current and v2 earlier, once.
	e, _, _ = c.Add(ctx, v1)
	if e.Version != v1.Version || strings.Join(e.Earlier, ",") != v2.Version {
		t.Errorf("back to v1: %+v", e)
	}

	if list, _ := c.List(ctx); len(list) != 1 || list[0].Name != "higher" {
		t.Errorf("list: %+v", list)
	}
	if _, err := c.Remove(ctx, "higher"); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Lookup("higher"); ok {
		t.Error("a removed game is found")
	}
	if _, err := c.Remove(ctx, "higher"); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("removing it again: %v", err)
	}
	if _, err := fresh.Version(ctx, v2.Version); err != nil {
		t.Errorf("a removed game's version is gone: %v", err)
	}
	if _, err := c.Version(ctx, strings.Repeat("1", 64)); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("a version never added: %v", err)
	}
}

// A game whose stored files were changed (or broken) is refused, not played.
func TestTamperedVersion(t *testing.T) {
	c, q := open(t)
	ctx := context.Background()
	v1 := load(t, "print('v1')\n")
	if _, _, err := c.Add(ctx, v1); err != nil {
		t.Fatal(err)
	}
	other, _ := load(t, "import os\n").Archive()
	if err := q.PutObject(ctx, queue.BucketGames, v1.Version, bytes.NewReader(other)); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Lookup("higher"); ok {
		t.Error("a game whose files changed in the store is played")
	}
	if err := q.PutObject(ctx, queue.BucketGames, v1.Version, strings.NewReader("not a zip")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Version(ctx, v1.Version); err == nil || !strings.Contains(err.Error(), "archive") {
		t.Errorf("a broken archive: %v", err)
	}
}

func mustKV(t *testing.T, q *queue.Queue) *kv.Bucket {
	b, err := q.KeyValue(context.Background(), catalog.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A game's directory is bounded: too many files, or too many bytes, is refused saying so.
func TestDirectoryBounds(t *testing.T) {
	many := dir("print(1)\n")
	for i := range referee.MaxDirFiles {
		many[fmt.Sprintf("data/%d.txt", i)] = &fstest.MapFile{Data: []byte("x")}
	}
	if _, err := referee.Load(many, check); err == nil || !strings.Contains(err.Error(), "more than 2000 files") {
		t.Errorf("too many files: %v", err)
	}
	big := dir("print(1)\n")
	big["data/big.bin"] = &fstest.MapFile{Data: make([]byte, referee.MaxDirBytes)}
	if _, err := referee.Load(big, check); err == nil || !strings.Contains(err.Error(), "more than 32 MiB") {
		t.Errorf("too many bytes: %v", err)
	}
}
