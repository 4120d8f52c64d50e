package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// A cluster shares its images through the object store: one judge publishes them; a daemon
// whose engine lacks them (images.source: nats) loads them at start, with the publisher's
// IDs, and judges a match.
func TestADaemonWithoutImagesGetsThemFromTheObjectStore(t *testing.T) {
	sandboxtest.Alone(t, "it removes images every judge on the engine uses")
	sandboxtest.Engine(t)
	srv, err := queue.Open(context.Background(), queue.Options{Listen: "127.0.0.1:-1", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	t.Setenv("JUDGE_NATS_URL", srv.URL())
	t.Setenv("JUDGE_SERVE_HTTP", "off")
	publisher := t.TempDir()
	if out, err := judgeIn(t, publisher, "images", "publish", "--lang", "cpp"); err != nil || !strings.Contains(out, "published 3 images") {
		t.Fatalf("publish: %v\n%s", err, out)
	}

	// The daemon's machine: the C++ images are gone from its engine.
	ids := cppImages(t)
	removeImages(t, ids)
	// Whatever happens, the images are back for the tests after this one.
	t.Cleanup(func() {
		for ref := range ids {
			if exec.Command("docker", "image", "inspect", ref).Run() != nil {
				t.Errorf("%s is still missing", ref)
			}
		}
	})

	t.Setenv("JUDGE_IMAGES_SOURCE", "nats")
	// The other languages' images are there already; C++'s must come from the store.
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	daemonDir := t.TempDir()
	go func() {
		root := newRoot()
		root.SetArgs([]string{"--data-dir", daemonDir, "serve"})
		served <- root.ExecuteContext(ctx)
	}()
	defer func() {
		stop()
		select {
		case <-served:
		case <-time.After(time.Minute):
			t.Error("the daemon did not stop")
		}
	}()
	deadline := time.Now().Add(2 * time.Minute)
	for ref, id := range ids {
		for {
			out, err := exec.Command("docker", "image", "inspect", "--format", "{{.Id}}", ref).Output()
			if err == nil {
				if got := strings.TrimSpace(string(out)); got != id {
					t.Fatalf("%s came back as %s; the publisher's is %s", ref, got, id)
				}
				break
			}
			select {
			case err := <-served:
				t.Fatalf("the daemon stopped: %v", err)
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s never came back", ref)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	// judge submit --wait of a four-player game (TestOneNATSServerRestarts submits a
	// two-player one): four seats of the one C++ bot.
	bot := filepath.Join(sandboxtest.Root(), "bots/langwars/cpp")
	out, err := judgeIn(t, publisher, "submit", "--game", "langwars", "--seed", "9", "--opt", "turns=10", "--wait", "--json", bot, bot, bot, bot)
	var res result.Result
	if err != nil || json.Unmarshal([]byte(out), &res) != nil || res.Status != result.StatusOK || res.Game != "langwars" || len(res.Players) != 4 {
		t.Fatalf("the match: %v\n%s", err, out)
	}
	// The daemon shared its build (with its sources) through the store: a judge that never
	// built it rebuilds it from there.
	var rows []rebuilt
	out, err = judgeIn(t, t.TempDir(), "rebuild", "--known", "--from-store", "--json")
	if err != nil || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 || rows[0].Lang != "cpp" || rows[0].Now != "ok" {
		t.Errorf("rebuild --known --from-store: %v\n%s", err, out)
	}
}
