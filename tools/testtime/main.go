// Command testtime keeps the events of a go test -json run and says where CI's time went.
//
//	testtime run FILE -- go test -json ARGS...
//
// runs the command, writes its events to FILE, and prints what a go test without -json would
// (every package's line, the output of a test that failed, build errors): -json is -v, and the
// full run's log would drown its failures. It exits with the command's status, or 1 if the
// command exited 0 but a test or package failed.
//
//	testtime summary NAME=FILE...
//
// prints, for the runs kept in the files (a pass each, e.g. runc= and runsc=), each package's
// elapsed time, the ten slowest tests and every test that failed; it ends with the packages'
// lines of go test itself, the lines CI reads, so that a failure is never hidden above a table.
// It exits 1 if any run failed or a file is missing (its run never happened: an earlier pass
// failed). A test that sandboxtest.Alone skipped in run R (named RUNTIME or RUNTIME-LANE) must
// have run in the run named RUNTIME-alone (passed, or skipped for a reason of its own), or the
// summary fails: nothing skipped for the
// phase alone is passed off as run.
//
//	testtime alone FILE PKG... -- go test -json ARGS...
//
// runs, one package at a time, the tests of PKG... that call sandboxtest.Alone (found in their
// source), appending -run and the package to the command, and keeps the events in FILE as run
// does.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// aloneMark is sandboxtest.AloneMark: the start of the message of a test skipped for the phase
// alone (not imported: this tool builds without the judge).
const aloneMark = "[alone]"

// event is a line of go test -json (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output and build-fail
	Test       string
	Elapsed    float64
	Output     string
}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "run":
		if len(os.Args) < 5 || os.Args[3] != "--" {
			usage()
		}
		os.Exit(run(os.Args[2], os.Args[4:], os.Stdout, os.Stderr))
	case "alone":
		dash := -1
		for i, a := range os.Args {
			if a == "--" {
				dash = i
				break
			}
		}
		if len(os.Args) < 4 || dash < 3 || dash == len(os.Args)-1 {
			usage()
		}
		os.Exit(alone(os.Args[2], os.Args[3:dash], os.Args[dash+1:], os.Stdout, os.Stderr))
	case "summary":
		if len(os.Args) < 3 {
			usage()
		}
		var runs []namedRun
		for _, a := range os.Args[2:] {
			name, file, ok := strings.Cut(a, "=")
			if !ok {
				usage()
			}
			runs = append(runs, namedRun{name, file})
		}
		if !summary(os.Stdout, runs) {
			os.Exit(1)
		}
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: testtime run FILE -- go test -json ARGS...\n       testtime alone FILE PKG... -- go test -json ARGS...\n       testtime summary NAME=FILE...")
	os.Exit(2)
}

// run appends to file: the phase alone runs a command per package into one file.
func run(file string, argv []string, stdout, stderr io.Writer) int {
	out, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(stderr, "testtime:", err)
		return 1
	}
	defer out.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(stderr, "testtime:", err)
		return 1
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(stderr, "testtime:", err)
		return 1
	}
	failed := filter(stdout, io.TeeReader(pipe, out))
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return max(exit.ExitCode(), 1) // -1 when killed by a signal
	case err != nil:
		fmt.Fprintln(stderr, "testtime:", err)
		return 1
	case failed:
		fmt.Fprintln(stderr, "testtime: go test exited 0, but a test failed")
		return 1
	}
	return 0
}

// filter prints the events of r as a go test without -v would, and reports whether any test,
// package or build failed. A test's output is held until it ends, and printed only if it
// failed; a test that never ended (the binary panicked or timed out: go test reports the
// package, not the test) has its output printed when its package ends, since that output is
// the panic.
func filter(w io.Writer, r io.Reader) (failed bool) {
	held := map[string][]string{} // package + "\x00" + test
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			fmt.Fprintln(w, sc.Text()) // not an event: go test's own words
			continue
		}
		key := e.Package + "\x00" + e.Test
		switch {
		case e.Action == "build-output":
			fmt.Fprint(w, e.Output)
		case e.Action == "build-fail":
			failed = true
		case e.Test != "" && e.Action == "output":
			if !strings.HasPrefix(e.Output, "=== ") {
				held[key] = append(held[key], e.Output)
			}
		case e.Test != "" && (e.Action == "pass" || e.Action == "skip"):
			delete(held, key)
		case e.Test != "" && e.Action == "fail":
			failed = true
			fmt.Fprint(w, strings.Join(held[key], ""))
			delete(held, key)
		case e.Test == "" && e.Action == "output":
			// The package's verdict: what its unended tests held is the panic that ended it,
			// and belongs above the verdict, as go test prints it.
			if strings.HasPrefix(e.Output, "FAIL") {
				flush(w, held, e.Package)
			}
			if e.Output != "PASS\n" {
				fmt.Fprint(w, e.Output)
			}
		case e.Test == "" && (e.Action == "pass" || e.Action == "skip" || e.Action == "fail"):
			failed = failed || e.Action == "fail"
			flush(w, held, e.Package)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(w, "testtime: reading go test's output:", err)
		failed = true
	}
	for _, k := range sortedKeys(held) {
		fmt.Fprint(w, strings.Join(held[k], ""))
	}
	return failed
}

// flush prints and forgets what the tests of pkg that have not ended hold.
func flush(w io.Writer, held map[string][]string, pkg string) {
	for _, k := range sortedKeys(held) {
		if strings.HasPrefix(k, pkg+"\x00") {
			fmt.Fprint(w, strings.Join(held[k], ""))
			delete(held, k)
		}
	}
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// alone runs the tests of pkgs that call sandboxtest.Alone, a go test per package, and
// returns the first failing status (after running them all).
func alone(file string, pkgs, argv []string, stdout, stderr io.Writer) int {
	// The file exists even when no test is alone: the summary reads an empty run as one that
	// happened.
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(stderr, "testtime:", err)
		return 1
	}
	f.Close()
	list, err := aloneTests(pkgs)
	if err != nil {
		fmt.Fprintln(stderr, "testtime:", err)
		return 1
	}
	status := 0
	for _, p := range list {
		cmd := append(append(append([]string{}, argv...), "-run", "^("+strings.Join(p.tests, "|")+")$"), p.path)
		if s := run(file, cmd, stdout, stderr); s != 0 && status == 0 {
			status = s
		}
	}
	return status
}

type pkgTests struct {
	path  string
	tests []string
}

// aloneTests lists, for each package of patterns, its top-level tests that call
// sandboxtest.Alone (in their body or in a function literal in it), as go list finds the
// packages.
func aloneTests(patterns []string) ([]pkgTests, error) {
	var stderr bytes.Buffer
	cmd := exec.Command("go", append([]string{"list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .TestGoFiles \" \"}} {{join .XTestGoFiles \" \"}}"}, patterns...)...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, stderr.Bytes())
	}
	var list []pkgTests
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			continue
		}
		var files []string
		for _, name := range strings.Fields(f[2]) {
			files = append(files, filepath.Join(f[1], name))
		}
		tests, err := aloneIn(files)
		if err != nil {
			return nil, err
		}
		if len(tests) > 0 {
			list = append(list, pkgTests{f[0], tests})
		}
	}
	return list, nil
}

var testName = regexp.MustCompile(`^Test([^a-z].*)?$`)

// aloneIn lists the tests of files that call sandboxtest.Alone.
func aloneIn(files []string) ([]string, error) {
	var tests []string
	fset := token.NewFileSet()
	for _, name := range files {
		file, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil || !testName.MatchString(fn.Name.Name) {
				continue
			}
			found := false
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return !found
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Alone" {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "sandboxtest" {
						found = true
					}
				}
				return !found
			})
			if found {
				tests = append(tests, fn.Name.Name)
			}
		}
	}
	sort.Strings(tests)
	return tests, nil
}

type namedRun struct{ name, file string }

// runEvents is what summary keeps of one run.
type runEvents struct {
	name     string
	missing  error
	packages map[string]pkgResult
	tests    []testResult
	lines    []string // the packages' own lines, as go test printed them
	failed   bool
	// leftAlone are the tests (package NUL test) that sandboxtest.Alone skipped; ended, the
	// tests that passed or skipped (for a reason of their own: under gVisor a test of
	// starvation skips alone too).
	leftAlone []string
	ended     map[string]bool
}

type pkgResult struct {
	elapsed float64
	action  string
}

type testResult struct {
	run, pkg, test, action string
	elapsed                float64
}

func read(nr namedRun) runEvents {
	re := runEvents{name: nr.name, packages: map[string]pkgResult{}, ended: map[string]bool{}}
	f, err := os.Open(nr.file)
	if err != nil {
		re.missing, re.failed = err, true
		return re
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	started, running, marked := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		key := e.Package + "\x00" + e.Test
		if e.Test != "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip") {
			delete(running, key)
		}
		switch {
		case e.Test != "" && e.Action == "output" && strings.Contains(e.Output, aloneMark):
			marked[key] = true
		case e.Test != "" && e.Action == "skip" && marked[key]:
			re.leftAlone = append(re.leftAlone, key)
		case e.Test != "" && (e.Action == "pass" || e.Action == "skip"):
			re.ended[key] = true
		}
		switch {
		case e.Action == "start":
			started[e.Package] = true
		case e.Test != "" && e.Action == "run":
			running[e.Package+"\x00"+e.Test] = true
		case e.Action == "build-fail":
			re.failed = true
		case e.Test == "" && e.Action == "output" && e.Output != "PASS\n":
			re.lines = append(re.lines, e.Output)
		case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			re.packages[e.Package] = pkgResult{e.Elapsed, e.Action}
			re.failed = re.failed || e.Action == "fail"
		// Subtests are inside their parents' time: only top-level tests are ranked.
		case e.Test != "" && !strings.Contains(e.Test, "/") && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			re.tests = append(re.tests, testResult{nr.name, e.Package, e.Test, e.Action, e.Elapsed})
		case e.Test != "" && e.Action == "fail":
			re.tests = append(re.tests, testResult{nr.name, e.Package, e.Test, e.Action, e.Elapsed})
		}
	}
	// A test that never ended is the one running when its package panicked or timed out.
	unended := make([]string, 0, len(running))
	for k := range running {
		unended = append(unended, k)
	}
	sort.Strings(unended)
	for _, k := range unended {
		pkg, test, _ := strings.Cut(k, "\x00")
		re.tests = append(re.tests, testResult{nr.name, pkg, test, "unfinished", 0})
		re.failed = true
	}
	// A package that started and never ended: go test itself was killed.
	for p := range started {
		if _, ok := re.packages[p]; !ok {
			re.packages[p] = pkgResult{action: "unfinished"}
			re.failed = true
		}
	}
	if err := sc.Err(); err != nil {
		re.missing, re.failed = err, true
	}
	return re
}

// leftAloneRan reports whether every test that a run left to the phase alone ran in the run
// alone of the same runtime (and passed, or skipped for a reason of its own), and names those
// that did not.
func leftAloneRan(w io.Writer, runs []runEvents) bool {
	byName := map[string]runEvents{}
	for _, r := range runs {
		byName[r.name] = r
	}
	ok := true
	for _, r := range runs {
		runtime, _, _ := strings.Cut(r.name, "-")
		aloneRun, found := byName[runtime+"-alone"]
		for _, k := range r.leftAlone {
			if found && aloneRun.ended[k] {
				continue
			}
			ok = false
			pkg, test, _ := strings.Cut(k, "\x00")
			fmt.Fprintf(w, "%s: %s %s was skipped for the phase alone and did not run in %s-alone\n", r.name, pkg, test, runtime)
		}
	}
	return ok
}

// summary prints the runs' times and failures, then their packages' lines, and reports
// whether every run passed.
func summary(w io.Writer, nrs []namedRun) bool {
	var runs []runEvents
	for _, nr := range nrs {
		runs = append(runs, read(nr))
	}
	// Packages without tests (skipped: no test files) have no time to report.
	total := map[string]float64{}
	for _, r := range runs {
		for p, res := range r.packages {
			if res.action != "skip" {
				total[p] += res.elapsed
			}
		}
	}
	pkgs := make([]string, 0, len(total))
	for p := range total {
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool {
		if total[pkgs[i]] != total[pkgs[j]] {
			return total[pkgs[i]] > total[pkgs[j]]
		}
		return pkgs[i] < pkgs[j]
	})
	fmt.Fprintf(w, "\n== testtime: each package's time (s), slowest first\n")
	for _, r := range runs {
		fmt.Fprintf(w, "%12s", r.name)
	}
	fmt.Fprintln(w, "  package")
	for _, p := range pkgs {
		for _, r := range runs {
			res, ok := r.packages[p]
			switch {
			case !ok || res.action == "skip":
				fmt.Fprintf(w, "%12s", "-")
			case res.action == "pass":
				fmt.Fprintf(w, "%12.1f", res.elapsed)
			default:
				fmt.Fprintf(w, "%12s", fmt.Sprintf("%s %.1f", strings.ToUpper(res.action), res.elapsed))
			}
		}
		fmt.Fprintf(w, "  %s\n", p)
	}

	var tests, fails []testResult
	for _, r := range runs {
		for _, t := range r.tests {
			if !strings.Contains(t.test, "/") && t.action != "unfinished" {
				tests = append(tests, t)
			}
			if t.action == "fail" || t.action == "unfinished" {
				fails = append(fails, t)
			}
		}
	}
	sort.SliceStable(tests, func(i, j int) bool { return tests[i].elapsed > tests[j].elapsed })
	fmt.Fprintf(w, "\n== testtime: the ten slowest tests\n")
	for _, t := range tests[:min(10, len(tests))] {
		fmt.Fprintf(w, "%9.1fs  %-11s %s %s\n", t.elapsed, t.run, t.pkg, t.test)
	}

	fmt.Fprintf(w, "\n== testtime: go test's verdict\n")
	ok := true
	for _, r := range runs {
		if r.missing != nil {
			fmt.Fprintf(w, "%s: no events (%v): the run did not happen or was cut short\n", r.name, r.missing)
		}
		ok = ok && !r.failed
	}
	for _, t := range fails {
		if t.action == "unfinished" {
			fmt.Fprintf(w, "%s: --- FAIL: %s %s (never ended: its package panicked or timed out)\n", t.run, t.pkg, t.test)
			continue
		}
		fmt.Fprintf(w, "%s: --- FAIL: %s %s (%.1fs)\n", t.run, t.pkg, t.test, t.elapsed)
	}
	for _, r := range runs {
		for p, res := range r.packages {
			if res.action == "unfinished" {
				fmt.Fprintf(w, "%s: %s never finished\n", r.name, p)
			}
		}
	}
	if !leftAloneRan(w, runs) {
		ok = false
	}
	// Last, the lines go test printed, so that CI's closing lines are go test's own.
	for _, r := range runs {
		if len(r.lines) > 0 {
			fmt.Fprintf(w, "%s:\n", r.name)
		}
		for _, l := range r.lines {
			fmt.Fprint(w, l)
		}
	}
	if !ok {
		fmt.Fprintln(w, "FAIL")
	}
	return ok
}
