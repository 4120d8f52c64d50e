package images

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"pault.ag/go/debian/version"
)

// The order is pault.ag/go/debian/version's; parsing stays here because its Parse accepts
// what policy and dpkg refuse (colons in upstream_version, an empty revision, surrounding
// spaces). The tests check both against dpkg --compare-versions when dpkg is installed.

// Version is a Debian version number, [epoch:]upstream_version[-debian_revision].
type Version struct {
	// Epoch is 0 when the version has none: policy treats an omitted epoch as zero.
	Epoch int
	// Upstream is upstream_version: everything after the epoch's colon and before the last
	// hyphen.
	Upstream string
	// Revision is debian_revision, "" when the version has no hyphen; policy makes an absent
	// revision equal to "0", which the comparison honours without rewriting it here.
	Revision string
}

// String writes the version back in Debian's form, leaving out a zero epoch.
func (v Version) String() string {
	s := v.Upstream
	if v.Epoch != 0 {
		s = strconv.Itoa(v.Epoch) + ":" + s
	}
	if v.Revision != "" {
		s += "-" + v.Revision
	}
	return s
}

// Compare orders v against w as CompareVersions does.
func (v Version) Compare(w Version) int {
	if v.Epoch != w.Epoch {
		if v.Epoch < w.Epoch {
			return -1
		}
		return 1
	}
	if c := compareFragment(v.Upstream, w.Upstream); c != 0 {
		return c
	}
	return compareFragment(v.Revision, w.Revision)
}

// ParseVersion splits s into its epoch, upstream_version and debian_revision and rejects
// what policy does not allow: an epoch that is not an unsigned integer, an empty
// upstream_version or one that does not start with a digit, an empty revision after a
// hyphen, and any character outside those policy lists for each part. Colons are refused in
// upstream_version, as current policy does (older policy allowed them after an epoch).
func ParseVersion(s string) (Version, error) {
	bad := func(format string, args ...any) (Version, error) {
		return Version{}, fmt.Errorf("debian version %q: %s", s, fmt.Sprintf(format, args...))
	}
	var v Version
	epoch, rest, upstream, revision := splitVersion(s)
	if strings.Contains(s, ":") {
		if epoch == "" {
			return bad("empty epoch")
		}
		for i := 0; i < len(epoch); i++ {
			if !isDigit(epoch[i]) {
				return bad("epoch %q is not an unsigned integer", epoch)
			}
		}
		n, err := strconv.Atoi(epoch)
		if err != nil {
			return bad("epoch %q is too large", epoch)
		}
		v.Epoch = n
	}
	hasRevision := len(upstream) < len(rest)
	if upstream == "" {
		return bad("empty upstream_version")
	}
	if !isDigit(upstream[0]) {
		return bad("upstream_version %q does not start with a digit", upstream)
	}
	for i := 0; i < len(upstream); i++ {
		if c := upstream[i]; !isAlnum(c) && !strings.ContainsRune(".+-~", rune(c)) {
			return bad("character %q not allowed in upstream_version", c)
		}
	}
	if hasRevision {
		if revision == "" {
			return bad("empty debian_revision after the hyphen")
		}
		for i := 0; i < len(revision); i++ {
			if c := revision[i]; !isAlnum(c) && !strings.ContainsRune(".+~", rune(c)) {
				return bad("character %q not allowed in debian_revision", c)
			}
		}
	}
	v.Upstream, v.Revision = upstream, revision
	return v, nil
}

// CompareVersions returns -1, 0 or +1 as Debian version a sorts before, the same as, or
// after b, by the rules of Debian Policy §5.6.12: epochs compared as numbers, then the
// upstream_version, then the debian_revision, each by the alternating non-digit/digit
// comparison. Versions that compare equal need not be the same string ("1.0", "0:1.0",
// "1.0-0" and "1.00" are all equal), as with dpkg.
//
// A malformed version is not rejected, so that sorting what a mirror serves never fails on
// one odd entry: it is split the same way (epoch up to the first colon, revision after the
// last hyphen) and every part, the epoch included, goes through the same comparison, which
// orders digit strings numerically. The order stays total and consistent; use ParseVersion
// to find out whether a version is well formed.
func CompareVersions(a, b string) int {
	ea, _, ua, ra := splitVersion(a)
	eb, _, ub, rb := splitVersion(b)
	if c := compareFragment(ea, eb); c != 0 {
		return c
	}
	if c := compareFragment(ua, ub); c != 0 {
		return c
	}
	return compareFragment(ra, rb)
}

// splitVersion cuts s where policy says to: the epoch ends at the first colon and the
// revision starts after the last hyphen of what follows, so upstream_version keeps any
// other hyphens. rest is s without the epoch.
func splitVersion(s string) (epoch, rest, upstream, revision string) {
	rest = s
	if i := strings.IndexByte(s, ':'); i >= 0 {
		epoch, rest = s[:i], s[i+1:]
	}
	upstream = rest
	if i := strings.LastIndexByte(rest, '-'); i >= 0 {
		upstream, revision = rest[:i], rest[i+1:]
	}
	return epoch, rest, upstream, revision
}

// compareFragment compares one part of two versions by policy's alternating non-digit/digit
// comparison, which version.Compare applies to the upstream_version (the revisions here both
// being empty).
func compareFragment(a, b string) int {
	return cmp.Compare(version.Compare(version.Version{Version: a}, version.Version{Version: b}), 0)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isAlnum(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
