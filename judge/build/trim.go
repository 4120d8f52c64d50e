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

// Trimmed is what TrimCache removed, and what the cache holds after it: its entries are the
// builds and the submissions' build histories.
type Trimmed struct {
	Removed int   // entries removed
	Freed   int64 // their bytes
	Left    int   // entries left
	Bytes   int64 // their bytes
}

// TrimCache removes the least recently used entries of the cache dir (Builder.Dir) until it
// holds at most limit bytes (0: no limit), sparing every entry used within keep, so the cache
// may stay above limit. An entry is a build, whose last use is its directory's time (every
// cache hit sets it), or a submission's build history (what `judge rebuild` compares with
// and rebuilds from: its sources and a line per compilation), whose last use is its file's
// time (every compilation and cache hit of the submission sets it). What it removes is
// compiled again, or fetched from the shared cache, when next needed; a submission whose
// history went is one `judge rebuild --known` no longer knows. Half-made builds ("tmp-"
// directories) older than keep are removed too: a judge that died while compiling left them.
func TrimCache(dir string, limit int64, keep time.Duration, now time.Time) (Trimmed, error) {
	type entry struct {
		paths []string
		used  time.Time
		bytes int64
	}
	var all []entry
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
			all = append(all, entry{[]string{path}, info.ModTime(), dirBytes(path)})
			out.Bytes += all[len(all)-1].bytes
		}
	}
	histories, err := filepath.Glob(filepath.Join(dir, "history", "*.jsonl"))
	if err != nil {
		return out, err
	}
	for _, h := range histories {
		info, err := os.Stat(h)
		if err != nil {
			continue // removed meanwhile
		}
		e := entry{[]string{h, strings.TrimSuffix(h, ".jsonl") + ".source.json", strings.TrimSuffix(h, ".jsonl") + ".games"}, info.ModTime(), info.Size()}
		if src, err := os.Stat(e.paths[1]); err == nil {
			e.bytes += src.Size()
		}
		all = append(all, e)
		out.Bytes += e.bytes
	}
	// A note of the games a build was played in whose history is gone (or never was here: a
	// build fetched from the shared store) is an entry of its own, trimmed as the others.
	notes, err := filepath.Glob(filepath.Join(dir, "history", "*.games"))
	if err != nil {
		return out, err
	}
	for _, g := range notes {
		if _, err := os.Stat(strings.TrimSuffix(g, ".games") + ".jsonl"); err == nil {
			continue // the history's entry holds it
		}
		if info, err := os.Stat(g); err == nil {
			all = append(all, entry{[]string{g}, info.ModTime(), info.Size()})
			out.Bytes += info.Size()
		}
	}
	out.Left = len(all)
	if limit <= 0 {
		return out, nil
	}
	slices.SortFunc(all, func(x, y entry) int { return x.used.Compare(y.used) })
	for _, e := range all {
		if out.Bytes <= limit || now.Sub(e.used) < keep {
			break
		}
		for _, p := range e.paths {
			if err := os.RemoveAll(p); err != nil {
				return out, err
			}
		}
		out.Removed++
		out.Freed += e.bytes
		out.Bytes -= e.bytes
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
