package sandbox_test

import (
	"testing"

	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// A Python bot answers the way contestants print: print(x, end=""), then the rest of the
// line. Python writes the empty end as a write of no bytes, which gVisor refuses with EINVAL
// (an OSError that ended the bot); the run image's sitecustomize.py skips it, under both
// runtimes alike.
func TestPythonPrintsInPieces(t *testing.T) {
	e := sandboxtest.Engine(t)
	p := sandboxtest.Start(t, e, sandboxtest.Spec(sandboxtest.Build(t, sandboxtest.Builder(t, e), "sandbox/testdata/print/python")))
	for _, word := range []string{"first", "second"} {
		ans, _, err := ask(t, p, word, normal)
		if err != nil {
			t.Fatalf("%s: %v (stderr %q)", word, err, p.Stderr())
		}
		if want := word + " " + word; ans != want {
			t.Fatalf("%s: answer %q, want %q (stderr %q)", word, ans, want, p.Stderr())
		}
	}
}
