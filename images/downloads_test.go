package images

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The downloads keep the Go toolchain pinned now and what a build may still be making; a
// replaced pin's toolchain and what a killed build left a day ago go.
func TestTidyDownloads(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	for name, age := range map[string]time.Duration{
		"golang.org-toolchain-v0.0.1-go1.26.8.linux-amd64.zip": time.Hour, // pinned now
		"golang.org-toolchain-v0.0.1-go1.25.1.linux-amd64.zip": 0,         // replaced
		"go-123.zip":  25 * time.Hour, // a killed download
		"go-456.zip":  time.Minute,    // a download going on
		"rootfs-1":    48 * time.Hour, // a killed base build
		"rootfs-2":    time.Hour,      // a base build going on
		"other.cache": 48 * time.Hour, // not the judge's to remove
	} {
		path := filepath.Join(dir, name)
		if strings.HasPrefix(name, "rootfs-") {
			if err := os.MkdirAll(filepath.Join(path, "etc"), 0o755); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		at := now.Add(-age)
		os.Chtimes(path, at, at)
	}
	tidyDownloads(dir, filepath.Join(dir, "golang.org-toolchain-v0.0.1-go1.26.8.linux-amd64.zip"), now)
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if got, want := strings.Join(left, " "), "go-456.zip golang.org-toolchain-v0.0.1-go1.26.8.linux-amd64.zip other.cache rootfs-2"; got != want {
		t.Errorf("left %s; want %s", got, want)
	}
}
