package images

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// versionOrder lists pairs with their order known from policy's rules and dpkg; each pair
// is also checked the other way round.
var versionOrder = []struct {
	a, b string
	want int
}{
	// Tilde sorts before everything, the end of a run included; letters before non-letters.
	{"1.0~rc1", "1.0", -1},
	{"1.0", "1.0a", -1},
	{"1.0a", "1.0+b1", -1},
	{"1.0~rc1", "1.0+b1", -1},
	{"1.0~~", "1.0~~a", -1},
	{"1.0~~a", "1.0~", -1},
	{"1.0~", "1.0", -1},
	{"1.0~rc1", "1.0~rc2", -1},
	{"1.0~beta", "1.0~rc", -1},
	{"1.0A", "1.0a", -1},
	{"1.0z", "1.0+", -1},
	{"1.0+", "1.0.", -1},
	{"1.0", "1.0.0", -1},
	{"1.0.", "1.0.0", 0}, // an empty run of digits counts as zero
	// Digits compare as numbers.
	{"1.2.3", "1.10", -1},
	{"1.9", "1.10", -1},
	{"1.01", "1.1", 0},
	{"1.0", "1.00", 0},
	{"1.123456789012345678901234567889", "1.123456789012345678901234567890", -1},
	{"20230311", "20230311.1", -1},
	// Real Debian versions from the lock and its neighbours.
	{"17.0.21+9-1~deb12u1", "17.0.21.1+2-1~deb12u1", -1},
	{"17.0.13+11-2~deb12u1", "17.0.21+9-1~deb12u1", -1},
	{"2.36-9+deb12u7", "2.36-9+deb12u14", -1},
	{"2.36-9", "2.36-9+deb12u1", -1},
	{"12.2.0-14", "12.2.0-14+deb12u1", -1},
	{"12.2.0-14+deb12u1", "4:12.2.0-3", -1},
	{"3.2.2-20", "3.2.2+dfsg-20", -1},
	{"3.2.2+dfsg-20", "3.2.2+dfsg-20+b1", -1},
	{"3.2.2+dfsg-9", "3.2.2+dfsg-20", -1},
	// Epochs beat everything after them; an absent epoch is zero.
	{"9.9", "1:1.0", -1},
	{"1:1.0", "1:1.1", -1},
	{"9:2", "10:1", -1},
	{"1.0", "0:1.0", 0},
	{"00:1.0", "0:1.0", 0},
	// The revision: absent equals "0", split at the last hyphen.
	{"1.0", "1.0-0", 0},
	{"0:1.0", "1.0-0", 0},
	{"1.0", "1.0-1", -1},
	{"1.0-1~bpo12+1", "1.0-1", -1},
	{"1.0-1", "1.0-1+b1", -1},
	{"1.0-1", "1.0-1.1", -1},
	{"1.0-9", "1.0-10", -1},
	{"1-2", "1-1-1", -1},
	{"1.0-1", "1.0a-0", -1},
	{"1.0", "1.0", 0},
	{"4:12.2.0-3", "4:12.2.0-3", 0},
	// Each part in turn, as dpkg --compare-versions orders them (its Ubuntu and backport suffixes).
	{"1-1", "1-1", 0},
	{"1-1", "2-1", -1},
	{"1-1", "1-2", -1},
	{"1-1", "1:1-1", -1},
	{"0:1.1-1", "1:0.1-1", -1},
	{"1.0-1", "1.0-1ubuntu1", -1},
	{"1.2.3-1~bpo1", "1.2.3-1", -1},
	{"2.4-1", "2.30-1", -1},
	{"1:1.0~rc1-1", "1:1.0-1", -1},
}

func TestCompareVersions(t *testing.T) {
	for _, c := range versionOrder {
		if got := CompareVersions(c.a, c.b); got != c.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := CompareVersions(c.b, c.a); got != -c.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", c.b, c.a, got, -c.want)
		}
		va, erra := ParseVersion(c.a)
		vb, errb := ParseVersion(c.b)
		if erra != nil || errb != nil {
			t.Errorf("the table's versions must be well formed: %v, %v", erra, errb)
			continue
		}
		if got := va.Compare(vb); got != c.want {
			t.Errorf("Version(%q).Compare(%q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestCompareVersionsChain checks that a list sorted by hand stays a strict chain, so that
// transitivity holds across the cases above too.
func TestCompareVersionsChain(t *testing.T) {
	chain := []string{"1.0~~", "1.0~~a", "1.0~", "1.0~rc1", "1.0", "1.0-1~bpo12+1", "1.0-1",
		"1.0-1+b1", "1.0A", "1.0a", "1.0+b1", "1.0.0", "1.1", "1.10", "1:0.1", "2:0~0"}
	for i := range chain {
		for j := range chain {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := CompareVersions(chain[i], chain[j]); got != want {
				t.Errorf("CompareVersions(%q, %q) = %d, want %d", chain[i], chain[j], got, want)
			}
		}
	}
}

func TestParseVersion(t *testing.T) {
	good := []struct {
		s    string
		want Version
	}{
		{"1.0", Version{0, "1.0", ""}},
		{"0:1.0", Version{0, "1.0", ""}},
		{"1:2.3-4", Version{1, "2.3", "4"}},
		{"4:12.2.0-3", Version{4, "12.2.0", "3"}},
		{"1-2-3", Version{0, "1-2", "3"}},
		{"17.0.21.1+2-1~deb12u1", Version{0, "17.0.21.1+2", "1~deb12u1"}},
		{"3.2.2+dfsg-20", Version{0, "3.2.2+dfsg", "20"}},
		{"0.0~git20200101.ABC-1.1", Version{0, "0.0~git20200101.ABC", "1.1"}},
		{"1.0-a", Version{0, "1.0", "a"}},
	}
	for _, c := range good {
		v, err := ParseVersion(c.s)
		if err != nil || v != c.want {
			t.Errorf("ParseVersion(%q) = %+v, %v; want %+v", c.s, v, err, c.want)
		}
		if back, err := ParseVersion(v.String()); err != nil || back != v {
			t.Errorf("ParseVersion(%q).String() = %q, which parses back as %+v, %v", c.s, v.String(), back, err)
		}
	}
	bad := []string{
		"", "-", "-1", ":1.0", "1:", "a:1.0", "-1:1.0", "1.0-1:2.0", "99999999999999999999:1.0",
		"a1.0", "~1", "+1", ".1", "1.0-", "1-2-", "1.0 1", " 1.0", "1.0\n", "1_0", "1,0",
		"1:2:3", "2:3:4-5", "1.0-a_b", "1.0-1-", "1.0-a:b", "1.0-é", "1.0é",
	}
	for _, s := range bad {
		if v, err := ParseVersion(s); err == nil {
			t.Errorf("ParseVersion(%q) = %+v, want an error", s, v)
		} else if !strings.Contains(err.Error(), "debian version") {
			t.Errorf("ParseVersion(%q): error %q does not say what it parsed", s, err)
		}
	}
}

// realisticVersions are versions of the shapes Debian's archive holds.
var realisticVersions = []string{
	"12.2.0-14+deb12u1", "12.2.0-14", "12.2.0-3", "4:12.2.0-3", "4:12.2.0-3+b1",
	"2.36-9+deb12u14", "2.36-9+deb12u7", "2.36-9+deb12u10", "2.36-9",
	"17.0.21.1+2-1~deb12u1", "17.0.21+9-1~deb12u1", "17.0.13+11-2~deb12u1", "17.0.13+11-2",
	"3.2.2+dfsg-20", "3.2.2+dfsg-20+b1", "3.2.2-20", "3.2.2+dfsg-9",
	"1:2.38-4", "2:8.2.3995-1+deb12u2", "1:9.2.0-1",
	"1.0~rc1", "1.0~rc1-1", "1.0", "1.0a", "1.0+b1", "1.0-1", "1.0-1~bpo12+1", "1.0-0",
	"0:1.0", "1.00", "1.0.0", "20230311", "20230311.1", "1.2.3~git20230101.abcdef-1",
	"7.88.1-10+deb12u8", "252.30-1~deb12u2", "1.21.22", "1.21.22+nmu1",
	"0.0~git20200101.1234567-2", "10:1.0", "1.0-1.1", "1.0-1+b2", "1.0-a", "1.0~~", "1.0~~a",
	"1.0~", "1-1-1", "1-2", "2.0-0.1", "5.2.15-2+b2", "6.1.115-1", "6.1.0-28-amd64",
}

// versionPieces build random versions that hit the comparison's corners: tildes against
// the end of a run, letters against other characters, hyphens and colons in odd places.
var versionPieces = []string{"1", "1.2", "~", "+", "a", "-", ":", "~deb12u1", "+dfsg", "0",
	"10", "9", "00", "b", "Z", ".", "~rc1", "+b1", "-1"}

func randomVersion(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(5) == 0 {
		b.WriteString([]string{"0:", "1:", "2:", "10:"}[r.IntN(4)])
	}
	if r.IntN(10) != 0 { // mostly well-formed: upstream starts with a digit
		b.WriteString([]string{"0", "1", "2", "9", "10", "1.2"}[r.IntN(6)])
	}
	for n := r.IntN(6); n >= 0; n-- {
		b.WriteString(versionPieces[r.IntN(len(versionPieces))])
	}
	return b.String()
}

// dpkgCompare asks dpkg how a and b compare; complaint is what dpkg printed on stderr
// (a warning about the syntax of a version it still compared, or the error it gave up on).
func dpkgCompare(a, b string) (order int, complaint string, err error) {
	run := func(op string) (bool, string, error) {
		var stderr bytes.Buffer
		cmd := exec.Command("dpkg", "--compare-versions", a, op, b)
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		switch {
		case err == nil:
			return true, stderr.String(), nil
		case errors.As(err, &exit) && exit.ExitCode() == 1:
			return false, stderr.String(), nil
		case errors.As(err, &exit):
			return false, stderr.String(), errors.New(strings.TrimSpace(stderr.String()))
		default:
			return false, "", err
		}
	}
	lt, complaint, err := run("lt")
	if err != nil || lt {
		return -1, complaint, err
	}
	eq, complaint2, err := run("eq")
	if eq {
		return 0, complaint + complaint2, err
	}
	return 1, complaint + complaint2, err
}

// TestCompareVersionsAgainstDpkg checks CompareVersions, and ParseVersion's idea of a
// well-formed version, against dpkg, the reference every Debian tool agrees with.
func TestCompareVersionsAgainstDpkg(t *testing.T) {
	if _, err := exec.LookPath("dpkg"); err != nil {
		t.Skip("dpkg is not on PATH: the oracle test needs dpkg --compare-versions (the table test still ran)")
	}
	r := rand.New(rand.NewPCG(5612, 1))
	var random, malformed []string
	for tries := 0; (len(random) < 300 || len(malformed) < 100) && tries < 100000; tries++ {
		v := randomVersion(r)
		if _, err := ParseVersion(v); err == nil {
			if len(random) < 300 {
				random = append(random, v)
			}
		} else if len(malformed) < 100 {
			malformed = append(malformed, v)
		}
	}
	if len(random) < 300 {
		t.Fatalf("only %d random versions were well formed", len(random))
	}

	type pair struct{ a, b string }
	var pairs []pair
	for i, a := range realisticVersions {
		if _, err := ParseVersion(a); err != nil {
			t.Fatalf("realistic version rejected: %v", err)
		}
		for _, b := range realisticVersions[i:] {
			pairs = append(pairs, pair{a, b})
		}
	}
	for i, a := range random {
		pairs = append(pairs, pair{a, random[(i*7+1)%len(random)]})
		pairs = append(pairs, pair{a, realisticVersions[i%len(realisticVersions)]})
		pairs = append(pairs, pair{a, a})
	}
	t.Logf("%d realistic and %d random versions, %d pairs", len(realisticVersions), len(random), len(pairs))

	work := make(chan pair)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range runtime.NumCPU() + 2 {
		wg.Go(func() {
			for p := range work {
				want, complaint, err := dpkgCompare(p.a, p.b)
				mu.Lock()
				switch {
				case err != nil:
					t.Errorf("dpkg --compare-versions %q %q: %v", p.a, p.b, err)
				case complaint != "":
					t.Errorf("ParseVersion accepts %q and %q, but dpkg complains: %s", p.a, p.b, complaint)
				default:
					if got := CompareVersions(p.a, p.b); got != want {
						t.Errorf("CompareVersions(%q, %q) = %d, dpkg says %d", p.a, p.b, got, want)
					}
					if got := CompareVersions(p.b, p.a); got != -want {
						t.Errorf("CompareVersions(%q, %q) = %d, dpkg says %d", p.b, p.a, got, -want)
					}
				}
				mu.Unlock()
			}
		})
	}
	for _, p := range pairs {
		work <- p
	}
	close(work)
	wg.Wait()

	// What ParseVersion rejects, dpkg must complain about too, except colons in
	// upstream_version, which dpkg still accepts after an epoch and current policy does not.
	for _, v := range malformed {
		if epoch, rest, up, rev := splitVersion(v); strings.Contains(up, ":") && !strings.Contains(rev, ":") {
			if _, err := ParseVersion(epoch + ":" + strings.ReplaceAll(rest, ":", ".")); err == nil {
				continue
			}
		}
		if _, complaint, err := dpkgCompare(v, "1"); err == nil && complaint == "" {
			t.Errorf("ParseVersion rejects %q, but dpkg takes it without a word", v)
		}
	}
}
