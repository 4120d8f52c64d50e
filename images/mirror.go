package images

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/ulikunitz/xz"
)

// Suite is one apt source line's worth of a Debian mirror: one component of one suite.
type Suite struct {
	// Mirror is the archive's root URL, e.g. "http://deb.debian.org/debian".
	Mirror string
	// Suite is the distribution, e.g. "bookworm" or "bookworm-security".
	Suite string
	// Component is the archive area, e.g. "main".
	Component string
}

// String names the suite the way errors report it: the mirror, then suite/component.
func (s Suite) String() string { return s.Mirror + " " + s.Suite + "/" + s.Component }

// Index maps a binary package name to every version of it that the fetched suites serve for
// amd64 (architecture-specific or "all"), newest first by CompareVersions, each version once.
// A mirror keeps only the newest version of a package per suite, so an exact pin in lock.json
// can stop being installable at any time; the index says, without building anything, which
// pins still are and what a version line has moved on to.
type Index map[string][]string

// packagesBuffer is the longest line start the parser looks at at once. The fields it keeps
// (Package, Version, Architecture) are short; longer lines, such as a huge Description, are
// skipped piece by piece rather than held in memory.
const packagesBuffer = 64 << 10

// FetchIndex downloads the amd64 package index of every suite, in parallel, and merges them.
// For each it asks for Packages.xz and falls back to Packages.gz when the mirror has no .xz
// (bookworm's main has both; its -updates and -security suites only .xz), so it works against
// mirrors and proxies that keep only one of the two. A nil client means http.DefaultClient.
//
// The Release files and their signatures are not checked: the index is a report on what
// the mirror offers, not what gets installed, and the images' own apt-get verifies the
// archive's signatures when it installs the pinned packages at build time.
func FetchIndex(ctx context.Context, client *http.Client, sources []Suite) (Index, error) {
	if len(sources) == 0 {
		// An empty index would report every pin as gone.
		return nil, errors.New("no Debian suite to fetch a package index from")
	}
	if client == nil {
		client = http.DefaultClient
	}
	found := make([]map[string][]string, len(sources))
	errs := make([]error, len(sources))
	var wg sync.WaitGroup
	for i, s := range sources {
		wg.Go(func() { found[i], errs[i] = fetchSuite(ctx, client, s) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	ix := Index{}
	for _, f := range found {
		for pkg, versions := range f {
			ix[pkg] = append(ix[pkg], versions...)
		}
	}
	for pkg, versions := range ix {
		slices.SortFunc(versions, func(a, b string) int {
			if c := CompareVersions(b, a); c != 0 {
				return c
			}
			// Versions equal by Debian's rules but spelt differently ("1.0", "1.0-0") are
			// different pins to apt: keep both, in a fixed order.
			return strings.Compare(a, b)
		})
		ix[pkg] = slices.Compact(versions)
	}
	return ix, nil
}

// Newest returns the newest version of pkg served whose version string starts with line,
// the version line an organiser pins to (for example "17." or "12.2.0" or "4:12."); an
// empty line matches any version.
func (ix Index) Newest(pkg, line string) (string, bool) {
	for _, v := range ix[pkg] {
		if strings.HasPrefix(v, line) {
			return v, true
		}
	}
	return "", false
}

// Serves reports whether the mirror serves exactly this version of pkg. The match is on the
// string, not by CompareVersions, because apt-get's pkg=version matches the string too.
func (ix Index) Serves(pkg, version string) bool {
	return slices.Contains(ix[pkg], version)
}

// fetchSuite reads one suite's Packages index, trying each compression in turn on a 404.
func fetchSuite(ctx context.Context, client *http.Client, s Suite) (map[string][]string, error) {
	if s.Mirror == "" || s.Suite == "" || s.Component == "" {
		return nil, fmt.Errorf("incomplete Debian suite %+v: it needs a mirror, a suite and a component", s)
	}
	base := strings.TrimSuffix(s.Mirror, "/") + "/dists/" + s.Suite + "/" + s.Component + "/binary-amd64/Packages"
	var missing []string
	for _, ext := range []string{".xz", ".gz"} {
		url := base + ext
		found, status, err := fetchPackages(ctx, client, url, ext)
		if status == http.StatusNotFound {
			missing = append(missing, fmt.Sprintf("GET %s: %d %s", url, status, http.StatusText(status)))
			continue
		}
		return found, err
	}
	return nil, fmt.Errorf("%s has no amd64 package index: %s", s, strings.Join(missing, "; "))
}

// fetchPackages downloads and parses one Packages file. It returns the HTTP status, if any,
// so that fetchSuite can tell a missing file from a broken one.
func fetchPackages(ctx context.Context, client *http.Client, url, ext string) (map[string][]string, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, 0, err
	}
	resp, err := client.Do(req)
	if err != nil {
		// The client's error already names the method and the URL.
		return nil, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, resp.StatusCode, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	var r io.Reader
	switch ext {
	case ".xz":
		xr, err := xz.NewReader(bufio.NewReaderSize(resp.Body, 1<<16))
		if err != nil {
			return nil, resp.StatusCode, fmt.Errorf("GET %s: not an xz file: %w", url, err)
		}
		r = xr
	case ".gz":
		gr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, resp.StatusCode, fmt.Errorf("GET %s: not a gzip file: %w", url, err)
		}
		defer gr.Close()
		r = gr
	}
	found := map[string][]string{}
	err = parsePackages(r, func(pkg, version string) { found[pkg] = append(found[pkg], version) })
	if err != nil {
		return nil, resp.StatusCode, fmt.Errorf("GET %s: %w", url, err)
	}
	return found, resp.StatusCode, nil
}

// parsePackages reads a Packages file, deb822 stanzas separated by blank lines, and calls add
// for each amd64 or "all" package with its version. It streams: the main suite's index is
// about 60 MB once decompressed, and it only ever holds one buffer of it.
// pault.ag/go/debian/control's ParagraphReader is not used: it keeps every field of every
// stanza and whole lines however long, names no line in its errors, and measured five times
// slower on an index of that size.
func parsePackages(r io.Reader, add func(pkg, version string)) error {
	br := bufio.NewReaderSize(r, packagesBuffer)
	var pkg, version, arch string
	fields, line, stanza := 0, 0, 0
	end := func() error {
		defer func() { pkg, version, arch, fields = "", "", "", 0 }()
		if fields == 0 {
			return nil
		}
		if pkg == "" || version == "" {
			// A stanza the parser cannot place would silently make a package look unserved.
			return fmt.Errorf("line %d: stanza without a Package and a Version field", stanza)
		}
		if arch == "" || arch == "amd64" || arch == "all" {
			add(pkg, version)
		}
		return nil
	}
	// inLine is true while reading the rest of a line longer than the buffer: those pieces
	// are not line starts, whatever they begin with.
	inLine := false
	for {
		frag, err := br.ReadSlice('\n')
		if err != nil && err != bufio.ErrBufferFull && err != io.EOF {
			return fmt.Errorf("line %d: %w", line+1, err)
		}
		start := !inLine
		inLine = err == bufio.ErrBufferFull
		if start && len(frag) > 0 {
			line++
			value := func(name string) (string, error) {
				if inLine {
					return "", fmt.Errorf("line %d: %s field longer than %d bytes", line, name, packagesBuffer)
				}
				return string(bytes.TrimSpace(frag[len(name)+1:])), nil
			}
			switch {
			case len(bytes.TrimSpace(frag)) == 0:
				if err := end(); err != nil {
					return err
				}
			case frag[0] == ' ' || frag[0] == '\t' || frag[0] == '#':
				// A continuation of the previous field (a Description's body, a long
				// Depends), or a comment: nothing the index keeps.
			default:
				colon := bytes.IndexByte(frag, ':')
				if colon <= 0 {
					return fmt.Errorf("line %d: not a field: %.40q", line, frag)
				}
				if fields == 0 {
					stanza = line
				}
				fields++
				var err error
				switch name := string(frag[:colon]); {
				case strings.EqualFold(name, "Package"):
					pkg, err = value(name)
				case strings.EqualFold(name, "Version"):
					version, err = value(name)
				case strings.EqualFold(name, "Architecture"):
					arch, err = value(name)
				}
				if err != nil {
					return err
				}
			}
		}
		if err == io.EOF {
			return end()
		}
	}
}
