package build

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/botjudge/judge/images"
)

// Load reads a BOT argument: a source file or a directory of sources, optionally prefixed
// with its language and a colon (e.g. "cpp:"; images.LangNames lists the languages). Without
// a prefix the language comes from the files' extensions (images.Extensions), which must
// agree. maxBytes bounds what is read.
func Load(arg string, maxBytes int64) (Submission, error) {
	lang := ""
	if l, rest, ok := strings.Cut(arg, ":"); ok {
		if _, known := images.LangByName(l); known {
			lang, arg = l, rest
		}
	}
	st, err := os.Stat(arg)
	if err != nil {
		return Submission{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	s := Submission{Lang: lang, Files: map[string][]byte{}}
	var total int64
	add := func(path, name string) error {
		info, err := os.Stat(path)
		if err != nil {
			return err
		}
		if total += info.Size(); total > maxBytes {
			return fmt.Errorf("%w: %s: sources exceed %d bytes", ErrInvalid, arg, maxBytes)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		s.Files[filepath.ToSlash(name)] = data
		return nil
	}
	if st.IsDir() {
		err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if strings.HasPrefix(d.Name(), ".") && path != arg {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			rel, _ := filepath.Rel(arg, path)
			return add(path, rel)
		})
	} else {
		err = add(arg, filepath.Base(arg))
	}
	if err != nil {
		return Submission{}, err
	}
	if s.Lang == "" {
		for name := range s.Files {
			l, ok := images.LangByExt(name)
			if !ok {
				continue
			}
			if s.Lang != "" && s.Lang != l.Name {
				return Submission{}, fmt.Errorf("%w: %s mixes %s and %s sources; prefix it with the language (e.g. cpp:%s)",
					ErrInvalid, arg, s.Lang, l.Name, arg)
			}
			s.Lang = l.Name
		}
		if s.Lang == "" {
			return Submission{}, fmt.Errorf("%w: %s: no source file with a known extension (%s)", ErrInvalid, arg,
				strings.Join(images.Extensions(), " "))
		}
	}
	return s, nil
}
