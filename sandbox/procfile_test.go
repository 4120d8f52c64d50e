package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPreadOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpuacct.usage")
	if err := os.WriteFile(path, []byte("123456789\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	for i := range 2 { // from the start every time
		n, err := preadOnce(f, buf)
		if err != nil || string(buf[:n]) != "123456789\n" {
			t.Fatalf("read %d: %q, %v", i, buf[:n], err)
		}
	}
	f.Close()
	if n, err := preadOnce(f, buf); err == nil {
		t.Errorf("a closed file read %q with no error", buf[:n])
	}
}

func TestReadProc(t *testing.T) {
	buf := make([]byte, 512)
	n, err := readProc("/proc/self/stat", buf)
	if err != nil || !strings.Contains(string(buf[:n]), ") ") {
		t.Errorf("/proc/self/stat: %q, %v", buf[:n], err)
	}
	if _, err := readProc("/proc/self/no-such-file", buf); err == nil {
		t.Error("a missing file read with no error")
	}
}
