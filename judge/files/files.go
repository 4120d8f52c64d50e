// Package files is the one rule for the names of a submission's source files, shared by the
// job format, the builder and the sandbox. It imports nothing of the judge.
package files

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// The longest name, in bytes, and the most components (directories and the file) in one.
const (
	MaxNameLen = 255
	MaxDepth   = 8
)

// ErrBadName is wrapped by every error CheckName and CheckNames return.
var ErrBadName = errors.New("bad file name")

// CheckName accepts a relative slash-separated path of plain components: not empty, not
// absolute, no empty, "." or ".." component, no component starting with '-' (a name reaches
// a compiler's command line), no backslash, NUL or other control character, valid UTF-8,
// at most MaxNameLen bytes and MaxDepth components.
func CheckName(name string) error {
	bad := func(why string, args ...any) error {
		return fmt.Errorf("%w %q: %s", ErrBadName, name, fmt.Sprintf(why, args...))
	}
	switch {
	case name == "":
		return fmt.Errorf("%w: empty", ErrBadName)
	case len(name) > MaxNameLen:
		return bad("%d bytes, at most %d allowed", len(name), MaxNameLen)
	case !utf8.ValidString(name):
		return bad("not UTF-8")
	case strings.HasPrefix(name, "/"):
		return bad("want a relative path")
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || r == '\\' || (r >= 0x80 && r < 0xa0) {
			return bad("contains %q", r)
		}
	}
	parts := strings.Split(name, "/")
	if len(parts) > MaxDepth {
		return bad("%d levels deep, at most %d allowed", len(parts), MaxDepth)
	}
	for _, p := range parts {
		switch {
		case p == "" || p == ".":
			return bad("want a relative path of plain components")
		case p == "..":
			return bad("want a relative path without '..'")
		case strings.HasPrefix(p, "-"):
			return bad("a component starts with '-'")
		}
	}
	return nil
}

// CheckNames checks every name, and that no name is also another's directory.
func CheckNames(names []string) error {
	set := make(map[string]bool, len(names))
	for _, n := range names {
		if err := CheckName(n); err != nil {
			return err
		}
		set[n] = true
	}
	for _, n := range names {
		for i := strings.IndexByte(n, '/'); i >= 0; i = nextSlash(n, i) {
			if set[n[:i]] {
				return fmt.Errorf("%w %q: both a file and the directory of %q", ErrBadName, n[:i], n)
			}
		}
	}
	return nil
}

func nextSlash(s string, i int) int {
	j := strings.IndexByte(s[i+1:], '/')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}
