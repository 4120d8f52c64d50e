package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The fixtures are real go test -json runs of a small module: fail.json has a test that fails,
// a table test whose sub-test fails, a skip, a package that times out in a test
// (TestHangs, which never ends), one that does not build and one without tests; pass.json
// has the same first package with every test passing.

func TestFilterPrintsWhatGoTestWould(t *testing.T) {
	f, err := os.Open("testdata/fail.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	if !filter(&out, f) {
		t.Error("filter: no failure reported for a run with failures")
	}
	got := out.String()
	for _, want := range []string{
		"a_test.go:11: a failing test's log", "--- FAIL: TestFails", "the sub-test's failure", "--- FAIL: TestTable/bad",
		"c/c_test.go:5:33: undefined: undefined", "FAIL\texample.com/fx/c [build failed]",
		"waiting for a daemon", "panic: test timed out after 2s", "?   \texample.com/fx/d\t[no test files]",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the output lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"a passing test's log", "=== RUN", "--- PASS", "--- SKIP", "no engine"} {
		if strings.Contains(got, not) {
			t.Errorf("the output has %q, which go test without -v does not print:\n%s", not, got)
		}
	}
	// The hung test's panic is what ended its package: above the package's verdict.
	if p, v := strings.Index(got, "panic: test timed out"), strings.Index(got, "FAIL\texample.com/fx/b"); p < 0 || v < p {
		t.Errorf("the panic (at %d) is not above its package's FAIL line (at %d):\n%s", p, v, got)
	}
}

func TestFilterPassingRun(t *testing.T) {
	f, err := os.Open("testdata/pass.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	if filter(&out, f) {
		t.Error("filter: a failure reported for a run without any")
	}
	if want := "?   \texample.com/fx/d\t[no test files]\nok  \texample.com/fx/a\t"; !strings.HasPrefix(out.String(), want) || strings.Count(out.String(), "\n") != 2 {
		t.Errorf("output %q, want the two packages' lines only", out.String())
	}
}

func TestRunKeepsEventsAndExitStatus(t *testing.T) {
	pass, _ := filepath.Abs("testdata/pass.json")
	fail, _ := filepath.Abs("testdata/fail.json")
	for _, tc := range []struct {
		name   string
		argv   []string
		input  string
		status int
	}{
		{"passed", []string{"cat", pass}, pass, 0},
		{"go test's status", []string{"sh", "-c", "cat " + pass + "; exit 3"}, pass, 3},
		// go test never exits 0 with a failed test; were it to, the events still tell.
		{"failed but exited 0", []string{"cat", fail}, fail, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "events.json")
			if got := run(file, tc.argv, io.Discard, io.Discard); got != tc.status {
				t.Errorf("status %d, want %d", got, tc.status)
			}
			kept, err := os.ReadFile(file)
			want, _ := os.ReadFile(tc.input)
			if err != nil || !bytes.Equal(kept, want) {
				t.Errorf("the events kept differ from go test's (%v)", err)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	var out bytes.Buffer
	if summary(&out, []namedRun{{"runc", "testdata/pass.json"}, {"runsc", "testdata/pass.json"}}) != true {
		t.Errorf("two passing runs summed up as failed:\n%s", out.String())
	}
	got := out.String()
	if !strings.Contains(got, "        runc       runsc  package\n         0.7         0.7  example.com/fx/a\n") {
		t.Errorf("no time for the package in both runs:\n%s", got)
	}
	slowest := got[strings.Index(got, "the ten slowest tests"):]
	slowest = slowest[:strings.Index(slowest, "\n\n")]
	if lines := strings.Split(slowest, "\n"); len(lines) != 9 || !strings.Contains(lines[1], "0.3s  runc        example.com/fx/a TestPasses") {
		t.Errorf("the slowest tests (4 top-level tests in each of 2 runs, TestPasses first):\n%s", slowest)
	}
	if strings.Contains(got, "TestTable/") {
		t.Errorf("a sub-test ranked beside its parent:\n%s", got)
	}
	if !strings.HasSuffix(got, "runsc:\n?   \texample.com/fx/d\t[no test files]\nok  \texample.com/fx/a\t0.663s\n") {
		t.Errorf("the summary does not end with go test's own lines:\n%s", got)
	}
}

func TestSummaryOfAFailedRun(t *testing.T) {
	var out bytes.Buffer
	if summary(&out, []namedRun{{"runc", "testdata/fail.json"}}) {
		t.Error("a failed run summed up as passed")
	}
	got := out.String()
	for _, want := range []string{
		"runc: --- FAIL: example.com/fx/a TestFails (0.1s)",
		"runc: --- FAIL: example.com/fx/a TestTable/bad",
		"runc: --- FAIL: example.com/fx/b TestHangs (never ended",
		"    FAIL 2.0           -"[:12] + "  example.com/fx/b",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the summary lacks %q:\n%s", want, got)
		}
	}
	if !strings.HasSuffix(got, "FAIL\texample.com/fx/b\t2.009s\nFAIL\n") {
		t.Errorf("the summary does not end with go test's FAIL:\n%s", got)
	}
}

// The first pass failed, so make never ran the second: its file is missing, and that is a
// failure even though every event that exists passed.
func TestSummaryOfAMissingRun(t *testing.T) {
	var out bytes.Buffer
	if summary(&out, []namedRun{{"runc", "testdata/pass.json"}, {"runsc", filepath.Join(t.TempDir(), "none.json")}}) {
		t.Errorf("a missing run summed up as passed:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "runsc: no events") {
		t.Errorf("the summary does not say the run is missing:\n%s", out.String())
	}
}

// events writes a go test -json run of package p: each test with its action, and its output.
func events(t *testing.T, p string, tests ...[3]string) string {
	t.Helper()
	var b strings.Builder
	for _, tc := range tests {
		fmt.Fprintf(&b, `{"Action":"run","Package":%q,"Test":%q}`+"\n", p, tc[0])
		if tc[2] != "" {
			fmt.Fprintf(&b, `{"Action":"output","Package":%q,"Test":%q,"Output":%q}`+"\n", p, tc[0], "    x_test.go:9: "+tc[2]+"\n")
		}
		fmt.Fprintf(&b, `{"Action":%q,"Package":%q,"Test":%q,"Elapsed":0.1}`+"\n", tc[1], p, tc[0])
	}
	fmt.Fprintf(&b, `{"Action":"pass","Package":%q,"Elapsed":1}`+"\n", p)
	file := filepath.Join(t.TempDir(), "events.json")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// A test skipped for the phase alone counts only once it has run alone, under its own runtime
// (and passed, or skipped for a reason of its own); a skip of any other reason is not checked.
func TestSummaryOfTestsLeftAlone(t *testing.T) {
	const p = "example.com/fx/a"
	shared := events(t, p, [3]string{"TestTimed", "skip", aloneMark + " times the CPU: runs in make test's phase alone"},
		[3]string{"TestOther", "skip", "no engine"}, [3]string{"TestPlain", "pass", ""})
	passed := events(t, p, [3]string{"TestTimed", "pass", ""})
	failed := events(t, p, [3]string{"TestTimed", "fail", "too slow"})
	ownSkip := events(t, p, [3]string{"TestTimed", "skip", "under gVisor a burn is not starved"})
	empty := filepath.Join(t.TempDir(), "empty.json")
	os.WriteFile(empty, nil, 0o644)
	for _, tc := range []struct {
		name string
		runs []namedRun
		ok   bool
	}{
		{"ran alone", []namedRun{{"runc", shared}, {"runc-sys", shared}, {"runc-alone", passed}}, true},
		{"never ran alone", []namedRun{{"runc", shared}, {"runc-alone", empty}}, false},
		{"failed alone", []namedRun{{"runc", shared}, {"runc-alone", failed}}, false},
		{"skipped alone for its own reason", []namedRun{{"runsc", shared}, {"runsc-alone", ownSkip}}, true},
		{"no run alone", []namedRun{{"runc", shared}}, false},
		{"alone under another runtime", []namedRun{{"runsc", shared}, {"runc-alone", passed}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if got := summary(&out, tc.runs); got != tc.ok {
				t.Errorf("summary %v, want %v:\n%s", got, tc.ok, out.String())
			}
			said := strings.Contains(out.String(), p+" TestTimed was skipped for the phase alone and did not run")
			if said == tc.ok || strings.Contains(out.String(), "TestOther was skipped") {
				t.Errorf("the summary names the wrong tests:\n%s", out.String())
			}
		})
	}
}

func TestAloneTestsFoundInTheSource(t *testing.T) {
	dir := t.TempDir()
	src := `package x

import "testing"

func TestTimed(t *testing.T) { sandboxtest.Alone(t, "times") }

func TestInSubtest(t *testing.T) {
	t.Run("a", func(t *testing.T) { sandboxtest.Alone(t, "times") })
}

func TestShared(t *testing.T) { t.Log("Alone") }

func Testing(t *testing.T) { sandboxtest.Alone(t, "not a test's name") }

func helper(t *testing.T) { sandboxtest.Alone(t, "not a test") }
`
	file := filepath.Join(dir, "x_test.go")
	os.WriteFile(file, []byte(src), 0o644)
	got, err := aloneIn([]string{file})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"TestInSubtest", "TestTimed"}; !slices.Equal(got, want) {
		t.Errorf("alone tests %v, want %v", got, want)
	}
}

// The phase alone finds this repository's own: the start-up burner is one (it times burns).
func TestAloneTestsOfAPackage(t *testing.T) {
	list, err := aloneTests([]string{"../../judge/games", "../../judge/view"})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || !strings.HasSuffix(list[0].path, "/judge/games") || !slices.Contains(list[0].tests, "TestStartUpBurnerTimesOutAtItsFirstRequest") {
		t.Errorf("alone tests %+v, want judge/games's start-up burner only", list)
	}
}

// The phase alone appends: one file keeps the events of a go test per package.
func TestRunAppends(t *testing.T) {
	pass, _ := filepath.Abs("testdata/pass.json")
	file := filepath.Join(t.TempDir(), "events.json")
	for range 2 {
		if got := run(file, []string{"cat", pass}, io.Discard, io.Discard); got != 0 {
			t.Fatalf("status %d", got)
		}
	}
	kept, _ := os.ReadFile(file)
	want, _ := os.ReadFile(pass)
	if !bytes.Equal(kept, append(want, want...)) {
		t.Error("the second run did not append to the first's events")
	}
}
