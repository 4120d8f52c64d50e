package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/queue"
)

// judge store reports the stores of a stopped judge's data directory and of a running one's
// (through its server), and sizes the data directory's parts; it changes nothing.
func TestStoreReport(t *testing.T) {
	t.Parallel()
	stopped := t.TempDir()
	if err := judgedStore(t, stopped, "m1").Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(stopped, "artifacts", "ab"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stopped, "artifacts", "ab", "bot"), make([]byte, 3000), 0o644); err != nil {
		t.Fatal(err)
	}
	running := t.TempDir()
	judgedStore(t, running, "m2")
	for name, dataDir := range map[string]string{"stopped": stopped, "running": running} {
		t.Run(name, func(t *testing.T) {
			out := storeOutput(t, dataDir, "--json")
			var got struct {
				NATS  []queue.Usage `json:"nats"`
				Parts []struct {
					Name string `json:"name"`
				} `json:"data_dir_parts"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("--json: %v: %s", err, out)
			}
			counts := map[string]uint64{}
			for _, u := range got.NATS {
				counts[u.Store] = u.Count
			}
			if counts["results"] != 1 || counts["replays"] != 1 {
				t.Errorf("results %d, replays %d: want the one match's each (%s)", counts["results"], counts["replays"], out)
			}
			if name == "stopped" && (len(got.Parts) < 2 || got.Parts[0].Name != "nats" && got.Parts[0].Name != "artifacts") {
				t.Errorf("data directory parts: %+v", got.Parts)
			}
			text := storeOutput(t, dataDir)
			for _, want := range []string{"STORE", "results", "replays", "The data directory", "nats",
				"test and ladder kept 720h0m0s", "test and ladder kept 168h0m0s", "kept 720h0m0s from last use"} {
				if !strings.Contains(text, want) {
					t.Errorf("the table lacks %q:\n%s", want, text)
				}
			}
		})
	}
	// Reading changed nothing: a judge takes the stopped store again and finds m1's result.
	q := judgedStore(t, stopped, "m3")
	usage, err := q.Admin().Usage(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	if usage[1].Store != "results" || usage[1].Count != 2 {
		t.Errorf("after judge store: %+v", usage)
	}
}

func storeOutput(t *testing.T, dataDir string, args ...string) string {
	t.Helper()
	root := newRoot()
	var out bytes.Buffer
	root.SetArgs(append([]string{"--data-dir", dataDir, "store"}, args...))
	root.SetOut(&out)
	root.SetErr(&out)
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("judge store %v: %v\n%s", args, err, out.String())
	}
	return out.String()
}

func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1782579: "1.7 MiB", 3 << 30: "3.0 GiB"} {
		if got := cli.ByteSize(n); got != want {
			t.Errorf("ByteSize(%d) = %q, want %q", n, got, want)
		}
	}
}
