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
// failed).
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
)

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
	fmt.Fprintln(os.Stderr, "usage: testtime run FILE -- go test -json ARGS...\n       testtime summary NAME=FILE...")
	os.Exit(2)
}

func run(file string, argv []string, stdout, stderr io.Writer) int {
	out, err := os.Create(file)
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

type namedRun struct{ name, file string }

// runEvents is what summary keeps of one run.
type runEvents struct {
	name     string
	missing  error
	packages map[string]pkgResult
	tests    []testResult
	lines    []string // the packages' own lines, as go test printed them
	failed   bool
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
	re := runEvents{name: nr.name, packages: map[string]pkgResult{}}
	f, err := os.Open(nr.file)
	if err != nil {
		re.missing, re.failed = err, true
		return re
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	started, running := map[string]bool{}, map[string]bool{}
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		if e.Test != "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip") {
			delete(running, e.Package+"\x00"+e.Test)
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
		fmt.Fprintf(w, "%10s", r.name)
	}
	fmt.Fprintln(w, "  package")
	for _, p := range pkgs {
		for _, r := range runs {
			res, ok := r.packages[p]
			switch {
			case !ok || res.action == "skip":
				fmt.Fprintf(w, "%10s", "-")
			case res.action == "pass":
				fmt.Fprintf(w, "%10.1f", res.elapsed)
			default:
				fmt.Fprintf(w, "%10s", fmt.Sprintf("%s %.1f", strings.ToUpper(res.action), res.elapsed))
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
		fmt.Fprintf(w, "%9.1fs  %-6s %s %s\n", t.elapsed, t.run, t.pkg, t.test)
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
