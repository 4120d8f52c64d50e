package build

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// TrimKeep is how recently a build must have been used to be safe from TrimCache: a match reads
// its bots' programs from the cache after building them, and none takes this long.
const TrimKeep = time.Hour

// Trimmed is what TrimCache removed, and what the cache holds after it.
type Trimmed struct {
	Removed int   // builds removed
	Freed   int64 // their bytes
	Left    int   // builds left
	Bytes   int64 // their bytes
}

// TrimCache removes the least recently used builds of the cache dir (Builder.Dir) until it holds at most limit
// bytes (0: no limit), sparing every build used within keep, so the cache may stay above
// limit. A build's last use is its directory's time, which every cache hit sets. What it
// removes is compiled again, or fetched from the shared cache, when next needed. Half-made
// builds ("tmp-" directories) older than keep are removed too: a judge that died while
// compiling left them.
func TrimCache(dir string, limit int64, keep time.Duration, now time.Time) (Trimmed, error) {
	type build struct {
		dir   string
		used  time.Time
		bytes int64
	}
	var builds []build
	var out Trimmed
	shards, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	for _, shard := range shards {
		if !shard.IsDir() || len(shard.Name()) != 2 {
			continue
		}
		entries, err := os.ReadDir(filepath.Join(dir, shard.Name()))
		if err != nil {
			continue // removed meanwhile
		}
		for _, e := range entries {
			info, err := e.Info()
			if err != nil || !e.IsDir() {
				continue
			}
			path := filepath.Join(dir, shard.Name(), e.Name())
			if strings.HasPrefix(e.Name(), "tmp-") {
				if now.Sub(info.ModTime()) > keep && os.RemoveAll(path) == nil {
					out.Removed++
				}
				continue
			}
			builds = append(builds, build{path, info.ModTime(), dirBytes(path)})
			out.Bytes += builds[len(builds)-1].bytes
		}
	}
	out.Left = len(builds)
	if limit <= 0 {
		return out, nil
	}
	slices.SortFunc(builds, func(x, y build) int { return x.used.Compare(y.used) })
	for _, bd := range builds {
		if out.Bytes <= limit || now.Sub(bd.used) < keep {
			break
		}
		if err := os.RemoveAll(bd.dir); err != nil {
			return out, err
		}
		out.Removed++
		out.Freed += bd.bytes
		out.Bytes -= bd.bytes
		out.Left--
	}
	return out, nil
}

// dirBytes is the size of the regular files under dir.
func dirBytes(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
