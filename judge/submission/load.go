package submission

import (
	"errors"
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
	files, err := ReadTree(arg, maxBytes)
	if err != nil {
		return Submission{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	s := Submission{Lang: lang, Files: files}
	if s.Lang == "" {
		if s.Lang, err = DetectLang(s.Files); errors.Is(err, errMixed) {
			return Submission{}, fmt.Errorf("%w: %s: %w; prefix it with the language (e.g. cpp:%s)", ErrInvalid, arg, err, arg)
		} else if err != nil {
			return Submission{}, fmt.Errorf("%w: %s: %w", ErrInvalid, arg, err)
		}
	}
	return s, nil
}

// ReadTree reads a file, or a directory's regular files (names starting with '.' and what is
// under them left out), by their paths relative to it, with '/'; maxBytes bounds them all.
func ReadTree(path string, maxBytes int64) (map[string][]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	var total int64
	add := func(p, name string) error {
		info, err := os.Stat(p)
		if err != nil {
			return err
		}
		if total += info.Size(); total > maxBytes {
			return fmt.Errorf("%s: sources exceed %d bytes", path, maxBytes)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(name)] = data
		return nil
	}
	if !st.IsDir() {
		return files, add(path, filepath.Base(path))
	}
	return files, filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && p != path {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(path, p)
		return add(p, rel)
	})
}

// errMixed is files of two languages.
var errMixed = errors.New("the files mix the sources of two languages")

// DetectLang is the language of a submission's files, by their extensions: one language's
// sources, beside any number of other files.
func DetectLang(files map[string][]byte) (string, error) {
	lang := ""
	for name := range files {
		l, ok := images.LangByExt(name)
		if !ok {
			continue
		}
		if lang != "" && lang != l.Name {
			return "", fmt.Errorf("%w, %s and %s", errMixed, min(lang, l.Name), max(lang, l.Name))
		}
		lang = l.Name
	}
	if lang == "" {
		return "", fmt.Errorf("no source file with a known extension (%s)", strings.Join(images.Extensions(), " "))
	}
	return lang, nil
}
