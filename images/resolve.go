package images

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Change is a pinned package the mirror no longer serves, and the version used instead.
type Change struct {
	Lang    string `json:"lang"`
	Package string `json:"package"`
	Pinned  string `json:"pinned"`
	// Served is the newest version of the pin's line the mirror serves; "" when it serves
	// none, which no build can get past.
	Served string `json:"served"`
	Line   string `json:"line"`
}

func (c Change) String() string {
	if c.Served == "" {
		return fmt.Sprintf("%s: %s %s is no longer served, and no version of line %q is", c.Lang, c.Package, c.Pinned, c.Line)
	}
	return fmt.Sprintf("%s: %s %s is no longer served; using %s", c.Lang, c.Package, c.Pinned, c.Served)
}

// DefaultLine is the version line a pin follows when the lock names none: its epoch and the
// major version of its upstream version ("17." for 17.0.21+9-1~deb12u1, "4:12." for
// 4:12.2.0-3), so that a security update is taken and a new major release is not.
func DefaultLine(version string) string {
	epoch, rest, ok := strings.Cut(version, ":")
	if !ok {
		epoch, rest = "", version
	}
	major := rest
	if i := strings.IndexAny(rest, ".+~-"); i >= 0 {
		major = rest[:i]
	}
	if epoch != "" {
		return epoch + ":" + major + "."
	}
	return major + "."
}

// Line is the version line package pkg, pinned at version, follows: the lock's Lines entry,
// else DefaultLine.
func (l LangLock) Line(pkg, version string) string {
	if line, ok := l.Lines[pkg]; ok {
		return line
	}
	return DefaultLine(version)
}

// Suites are the parts of the Debian mirrors the images install from (sourcesList).
func Suites(s Sources, suite string) []Suite {
	return []Suite{
		{Mirror: s.DebianMirror, Suite: suite, Component: "main"},
		{Mirror: s.DebianMirror, Suite: suite + "-updates", Component: "main"},
		{Mirror: s.SecurityMirror, Suite: suite + "-security", Component: "main"},
	}
}

// FetchFor fetches the index of the mirrors the lock's images install from.
func FetchFor(ctx context.Context, s Sources, lock Lock) (Index, error) {
	return FetchIndex(ctx, http.DefaultClient, Suites(s, lock.Debian.Suite))
}

// Resolve checks every pinned package of lock against what the mirror serves (ix). A pin
// still served stays; a pin no longer served becomes the newest served version of its line
// (Lines, else DefaultLine), and is reported as a Change. It returns the lock as resolved and
// the changes, in a fixed order; a change whose line has no served version has Served "".
func Resolve(lock Lock, ix Index) (Lock, []Change) {
	out := lock
	out.Languages = map[string]LangLock{}
	var changes []Change
	langs := make([]string, 0, len(lock.Languages))
	for l := range lock.Languages {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, lang := range langs {
		ll := lock.Languages[lang]
		resolve := func(pins map[string]string) map[string]string {
			if pins == nil {
				return nil
			}
			next := make(map[string]string, len(pins))
			names := make([]string, 0, len(pins))
			for p := range pins {
				names = append(names, p)
			}
			sort.Strings(names)
			for _, pkg := range names {
				pinned := pins[pkg]
				next[pkg] = pinned
				if ix.Serves(pkg, pinned) {
					continue
				}
				line := ll.Line(pkg, pinned)
				served, _ := ix.Newest(pkg, line)
				if served != "" {
					next[pkg] = served
					ll.Toolchain = strings.ReplaceAll(ll.Toolchain, pinned, served)
				}
				changes = append(changes, Change{Lang: lang, Package: pkg, Pinned: pinned, Served: served, Line: line})
			}
			return next
		}
		ll.CompilePackages = resolve(ll.CompilePackages)
		ll.RunPackages = resolve(ll.RunPackages)
		out.Languages[lang] = ll
	}
	return out, changes
}

// Unresolvable returns the changes no served version can stand in for.
func Unresolvable(changes []Change) []Change {
	var out []Change
	for _, c := range changes {
		if c.Served == "" {
			out = append(out, c)
		}
	}
	return out
}

// Resolution is a lock as last resolved against the mirror, the record of what the last image
// build installed instead of pins no longer served. The judge keeps it in its data directory
// (`judge images list` shows it); `judge images build --update-lock` writes its lock over the
// lock file, for the organiser to commit.
type Resolution struct {
	// LockSHA256 is the digest of the lock file it was resolved from: a changed lock file
	// makes it stale.
	LockSHA256 string    `json:"lock_sha256"`
	Lock       Lock      `json:"lock"`
	Changes    []Change  `json:"changes"`
	Resolved   time.Time `json:"resolved"`
}

// NewResolution records lock, resolved from the lock file whose bytes are from.
func NewResolution(from []byte, lock Lock, changes []Change) *Resolution {
	sum := sha256.Sum256(from)
	return &Resolution{LockSHA256: hex.EncodeToString(sum[:]), Lock: lock, Changes: changes, Resolved: time.Now().UTC()}
}

// Save writes the resolution to file (atomically).
func (r *Resolution) Save(file string) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(file, append(data, '\n'))
}

// LoadResolution reads the resolution in file, if it was resolved from the lock file whose
// bytes are lockData; nil otherwise.
func LoadResolution(file string, lockData []byte) *Resolution {
	var r Resolution
	b, err := os.ReadFile(file)
	if err != nil || json.Unmarshal(b, &r) != nil {
		return nil
	}
	sum := sha256.Sum256(lockData)
	if r.LockSHA256 != hex.EncodeToString(sum[:]) {
		return nil
	}
	return &r
}

// WriteLock writes lock as a lock file, in the layout of lock.json.
func WriteLock(file string, lock Lock) error {
	data, err := json.MarshalIndent(lock, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(file, append(data, '\n'))
}

func writeAtomic(file string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}
