package sandbox_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// Close cancels the pool's preparing rather than wait it out, and no container of the
// engine outlives it, however far its create had got.
func TestCloseWhilePreparing(t *testing.T) {
	sandboxtest.MustHaveDocker(t)
	ctx := context.Background()
	e, err := sandbox.New(ctx, sandbox.Options{Host: os.Getenv("JUDGE_DOCKER_HOST"), StateDir: sandboxtest.DataDir()})
	if err != nil {
		t.Fatal(err)
	}
	spec := sandboxtest.Spec(sandboxtest.Build(t, sandboxtest.Builder(t, e), "sandbox/testdata/lifecycle/cpp"))
	e.Warm(4)
	p, err := e.Start(ctx, spec) // the kind's first start: four more are being prepared
	if err != nil {
		e.Close()
		t.Fatal(err)
	}
	p.Close()
	instance := e.Instance()
	e.Close()
	out, err := exec.Command("docker", "ps", "-aq", "--filter", "label="+sandbox.LabelInstance+"="+instance).CombinedOutput()
	if err != nil {
		t.Fatalf("docker ps: %v: %s", err, out)
	}
	if left := strings.Fields(string(out)); len(left) > 0 {
		t.Errorf("containers outlived the engine: %v", left)
	}
}
