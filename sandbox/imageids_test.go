package sandbox_test

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// A judge remembers what its image references name, asking the engine once, and forgets it
// when an image changes, whoever changed it: another judge's import reaches it only through
// the engine's events. A build must never take a toolchain the engine no longer names.
func TestImageIDFollowsTheEngine(t *testing.T) {
	sandboxtest.Alone(t, "it retags images every judge on the engine uses")
	e, other := sandboxtest.Engine(t), sandboxtest.Engine(t)
	ctx := context.Background()
	ref := fmt.Sprintf("judge-test/imageids:%d", time.Now().UnixNano())
	image := func(content string) string {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		tw.WriteHeader(&tar.Header{Name: "f", Mode: 0o644, Size: int64(len(content))})
		tw.Write([]byte(content))
		tw.Close()
		id, err := other.ImportImage(ctx, &buf, ref, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { other.RemoveImage(context.Background(), id) })
		return id
	}
	eventually := func(want, what string) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			got, err := e.ImageID(ctx, ref)
			if err != nil {
				t.Fatal(err)
			}
			if got == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %s names %.19s; want %.19s", what, ref, got, want)
			}
		}
	}

	first := image("one")
	eventually(first, "imported")
	calls := e.APICalls()
	for range 10 {
		if got, _ := e.ImageID(ctx, ref); got != first {
			t.Fatalf("%s names %.19s; want %.19s", ref, got, first)
		}
	}
	if n := e.APICalls() - calls; n != 0 {
		t.Errorf("10 look-ups of an image nobody changed made %d requests of the engine; want 0", n)
	}
	eventually(image("two"), "imported again by another judge")
	if err := other.RemoveImage(ctx, ref); err != nil {
		t.Fatal(err)
	}
	eventually("", "removed by another judge")
}
