package sandbox

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// linkTree fills the empty directory dst with the tree at src: hard links where the file system
// allows (the same files, at no cost), copies elsewhere. A symbolic link is made again as it is,
// never followed (it resolves in the container); what is neither a file, a directory nor a
// link has no place in an artifact and is left out.
func linkTree(dst, src string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir() && rel == ".":
			return os.Chmod(dst, info.Mode().Perm())
		case d.IsDir():
			return os.Mkdir(target, info.Mode().Perm())
		case d.Type()&fs.ModeSymlink != 0:
			to, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(to, target)
		case d.Type().IsRegular():
			return linkFile(target, path, info.Mode().Perm())
		}
		return nil
	})
}

// linkFile makes dst the regular file src: a hard link, or a copy with mode perm.
func linkFile(dst, src string, perm fs.FileMode) error {
	if os.Link(src, dst) == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
