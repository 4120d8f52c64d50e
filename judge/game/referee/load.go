package referee

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/game/manifest"
)

// A game's directory is bounded: it is read whole, kept in the store and sent to every
// daemon that plays it.
const (
	MaxDirBytes = 32 << 20
	MaxDirFiles = 2000
)

// Load reads the game in fsys, a game's directory: every regular file in it (names starting
// with '.' skipped, as .git is), its manifest checked, its referee's sources and its version,
// the content hash of all of it. The game's referee is not built: a match binds it
// (match.Referee.Bind) to the sandbox it is played in.
func Load(fsys fs.FS, c manifest.Check) (*Game, error) {
	files, err := readDir(fsys)
	if err != nil {
		return nil, err
	}
	m, err := manifest.Load(fsys, c)
	if err != nil {
		return nil, err
	}
	g := &Game{Manifest: m, Files: files, Version: Version(files), Sources: map[string][]byte{}}
	for _, f := range m.Referee.Files {
		b, ok := files[f]
		if !ok {
			return nil, fmt.Errorf("%s: referee.files: %q: a hidden file is not part of a game", manifest.File, f)
		}
		g.Sources[f] = b
	}
	// A language that starts a program of several files from one name (Python's main.py) is
	// given the referee's entry under that name.
	entry := m.Referee.Entry()
	if l, ok := images.LangByName(m.Referee.Lang); ok && l.Entry() != "" && entry != l.Entry() && len(g.Sources) > 1 {
		if _, clash := g.Sources[l.Entry()]; clash {
			return nil, fmt.Errorf("%s: referee.main: the referee starts from %s, but %s is among referee.files too, and a %s program of several files runs as %s: rename that one, or name it main",
				manifest.File, entry, l.Entry(), l.Name, l.Entry())
		}
		g.Sources[l.Entry()] = g.Sources[entry]
		delete(g.Sources, entry)
	}
	return g, nil
}

// readDir is every regular file of fsys whose path has no part starting with '.', by path.
func readDir(fsys fs.FS) (map[string][]byte, error) {
	files := map[string][]byte{}
	var size int64
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // directories are walked; links and devices are no part of a game
		}
		if len(files) == MaxDirFiles {
			return fmt.Errorf("more than %d files: a game's directory holds the game, not its workshop", MaxDirFiles)
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		if size += int64(len(b)); size > MaxDirBytes {
			return fmt.Errorf("more than %d MiB of files (at %s): a game's directory holds the game, not its workshop", MaxDirBytes>>20, p)
		}
		files[p] = b
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the game's directory: %w", err)
	}
	return files, nil
}

// Version is a game directory's content hash: SHA-256 over each file's path, length and bytes,
// in the order of their paths, in hex. Results and replays record it; the store keeps each
// version under it.
func Version(files map[string][]byte) string {
	h := sha256.New()
	for _, p := range slices.Sorted(maps.Keys(files)) {
		io.WriteString(h, p+"\x00"+strconv.Itoa(len(files[p]))+"\x00")
		h.Write(files[p])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Archive is the game's files as a zip, the same bytes for the same files (in the order of
// their paths, with no times), which Unarchive reads back.
func (g *Game) Archive() ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range slices.Sorted(maps.Keys(g.Files)) {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: p, Method: zip.Deflate, Modified: time.Unix(0, 0).UTC()})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(g.Files[p]); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Unarchive loads the game of an archive (Archive's), and checks that it is the version
// named: a stored game whose bytes changed is refused, not played.
func Unarchive(data []byte, version string, c manifest.Check) (*Game, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("the game's archive: %w", err)
	}
	var size uint64
	for _, f := range zr.File {
		if size += f.UncompressedSize64; size > MaxDirBytes {
			return nil, errors.New("the game's archive: larger than a game's directory may be")
		}
	}
	g, err := Load(zr, c)
	if err != nil {
		return nil, err
	}
	if g.Version != version {
		return nil, fmt.Errorf("the game's archive is version %.12s, not the %.12s it is stored as", g.Version, version)
	}
	return g, nil
}
