// Package layout holds the test that keeps docs/architecture.md true: the rooms it names and
// the imports it allows each room.
package layout

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/botjudge/judge/"

// room is a row of docs/architecture.md's table of rooms.
type room struct {
	name     string
	packages []string // patterns: a path, or a path and everything under it ("x/...")
	limited  bool     // whether may limits the imports (an empty cell does not)
	may      []string // the rooms whose packages it may import
	never    []string // patterns it never imports
}

// matches reports whether pattern (a path, or "x/..." for x and everything under it) names path.
func matches(pattern, path string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return path == pattern
}

var backticked = regexp.MustCompile("`([^`]+)`")

// rooms reads the table of rooms from the page.
func rooms(t *testing.T, page string) []room {
	t.Helper()
	f, err := os.Open(page)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []room
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "| room | packages | may import (rooms) | never imports |"):
			in = true
			continue
		case !in || strings.HasPrefix(line, "| ---"):
			continue
		case !strings.HasPrefix(line, "|"):
			in = false
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 4 {
			t.Fatalf("%s: a row of the table of rooms has %d cells, want 4: %s", page, len(cells), line)
		}
		r := room{name: strings.TrimSpace(cells[0])}
		for _, m := range backticked.FindAllStringSubmatch(cells[1], -1) {
			r.packages = append(r.packages, m[1])
		}
		switch may := strings.TrimSpace(cells[2]); may {
		case "":
		case "none":
			r.limited = true
		default:
			r.limited = true
			for _, name := range strings.Split(may, ",") {
				r.may = append(r.may, strings.TrimSpace(name))
			}
		}
		for _, m := range backticked.FindAllStringSubmatch(cells[3], -1) {
			r.never = append(r.never, m[1])
		}
		out = append(out, r)
	}
	return out
}

// pkg is what go list says of a package.
type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// list runs go list -json with args in the module's root.
func list(t *testing.T, args ...string) []pkg {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json"}, args...)...)
	cmd.Dir = "../.."
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// TestImportDirections checks every package's imports against docs/architecture.md.
func TestImportDirections(t *testing.T) {
	table := rooms(t, "../../docs/architecture.md")
	if len(table) < 10 {
		t.Fatalf("docs/architecture.md: %d rooms read; the table was not found or has changed shape", len(table))
	}
	names := map[string]bool{}
	for _, r := range table {
		names[r.name] = true
	}
	for _, r := range table {
		for _, m := range r.may {
			if !names[m] {
				t.Errorf("room %q may import room %q, which the table does not have", r.name, m)
			}
		}
	}
	roomsOf := func(path string) []room {
		var in []room
		for _, r := range table {
			if slices.ContainsFunc(r.packages, func(p string) bool { return matches(p, path) }) {
				in = append(in, r)
			}
		}
		return in
	}
	pkgs := list(t, "./...")
	for _, p := range pkgs {
		path := strings.TrimPrefix(p.ImportPath, module)
		mine := roomsOf(path)
		if len(mine) == 0 {
			t.Errorf("%s is in no room of docs/architecture.md", path)
			continue
		}
		for _, imp := range p.Imports {
			for _, r := range mine {
				for _, n := range r.never {
					if matches(n, imp) {
						t.Errorf("%s (%s) imports %s, which the room never imports", path, r.name, imp)
					}
				}
			}
			own, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			theirs := roomsOf(own)
			for _, r := range mine {
				if r.limited && !slices.ContainsFunc(theirs, func(x room) bool { return slices.Contains(r.may, x.name) }) {
					var in []string
					for _, x := range theirs {
						in = append(in, x.name)
					}
					t.Errorf("%s (%s) imports %s (%s): room %s may import only %v", path, r.name, own, strings.Join(in, ", "), r.name, r.may)
				}
			}
		}
	}
	if len(pkgs) < 30 {
		t.Errorf("go list named %d packages; want the whole module", len(pkgs))
	}
}

// The contest side - the engine, the portal, tournaments and the records - holds
// submissions and results but never runs one: nothing of the sandbox, the build, the match or
// Docker's engine client is among their dependencies (only the store is kept from
// tournaments too).
func TestContestSideNeedsNoEngine(t *testing.T) {
	engine := []string{module + "sandbox/...", module + "judge/build/...", module + "judge/match/...", module + "judge/daemon/...", "github.com/docker/docker/..."}
	for _, tc := range []struct {
		pkg string
		bad []string
	}{
		{"./judge/contest/store", append(engine, module+"judge/tournament")},
		{"./judge/contest", engine},
		{"./judge/portal", engine},
		{"./judge/tournament", engine},
	} {
		deps := list(t, "-deps", tc.pkg)
		for _, p := range deps {
			for _, bad := range tc.bad {
				if matches(bad, p.ImportPath) {
					t.Errorf("%s depends on %s", tc.pkg, p.ImportPath)
				}
			}
		}
		if len(deps) < 5 {
			t.Errorf("go list -deps named %d packages for %s", len(deps), tc.pkg)
		}
	}
}

// The contest engine is the only writer of the contests' records: the portal (its pages and
// API) calls the store for reading alone, and asks the engine for every change.
func TestThePortalOnlyReadsTheStore(t *testing.T) {
	reads := map[string]bool{"Actions": true, "CheckPassword": true, "Contest": true, "History": true, "Invitation": true,
		"Ladder": true, "Match": true, "MatchPage": true, "MatchesWhere": true, "Round": true, "Rounds": true, "SessionUser": true,
		"Submission": true, "SubmissionPage": true, "TokenUser": true, "Tokens": true, "User": true, "Users": true, "Warm": true}
	call := regexp.MustCompile(`\.Store\.([A-Z]\w*)\(`)
	files, err := filepath.Glob("../../judge/portal/*.go")
	if err != nil || len(files) < 10 {
		t.Fatalf("the portal's files: %v %v", files, err)
	}
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range call.FindAllStringSubmatch(string(data), -1) {
			seen++
			if !reads[m[1]] {
				t.Errorf("%s calls the store's %s: a change goes through the contest engine (judge/contest)", filepath.Base(f), m[1])
			}
		}
	}
	if seen < 10 {
		t.Errorf("%d calls of the store found in the portal; the pattern no longer finds them", seen)
	}
}
