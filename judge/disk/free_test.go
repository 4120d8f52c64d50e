package disk

import (
	"testing"

	"golang.org/x/sys/unix"
)

func TestFree(t *testing.T) {
	dir := t.TempDir()
	free, err := Free(dir)
	if err != nil {
		t.Fatal(err)
	}
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	// Another process may write between the two looks: within 64 MiB.
	if want := st.Bavail * uint64(st.Bsize); free == 0 || free > want+64<<20 || free+64<<20 < want {
		t.Errorf("Free(%s) = %d, statfs says %d", dir, free, want)
	}
	if _, err := Free(dir + "/missing"); err == nil {
		t.Error("Free of a missing directory: no error")
	}
}
