package sandbox_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// Close cancels the pool's preparing rather than wait it out, and no container of the
// engine outlives it, however far its create had got.
func TestCloseWhilePreparing(t *testing.T) {
	e := sandboxtest.Engine(t)
	spec := sandboxtest.Spec(sandboxtest.Build(t, sandboxtest.Builder(t, e), "sandbox/testdata/lifecycle/cpp"))
	e.Warm(4)
	sandboxtest.Start(t, e, spec).Close() // the kind's first start: four more are being prepared
	e.Close()
	label := "label=" + sandbox.LabelInstance + "=" + e.Instance()
	if out, err := exec.Command("docker", "ps", "-aq", "--filter", label).CombinedOutput(); err != nil {
		t.Fatalf("docker ps: %v: %s", err, out)
	} else if left := strings.Fields(string(out)); len(left) > 0 {
		t.Errorf("containers outlived the engine: %v", left)
	}
}
