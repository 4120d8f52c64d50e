//go:build unix

package disk

import "golang.org/x/sys/unix"

// Free is how many bytes of dir's file system an unprivileged process may still use.
func Free(dir string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return st.Bavail * uint64(st.Bsize), nil
}
