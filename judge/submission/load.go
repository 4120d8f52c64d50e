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
		if s.Lang, err = DetectLang(s.Files); errors.Is(err, errMixed) {
			return Submission{}, fmt.Errorf("%w: %s: %w; prefix it with the language (e.g. cpp:%s)", ErrInvalid, arg, err, arg)
		} else if err != nil {
			return Submission{}, fmt.Errorf("%w: %s: %w", ErrInvalid, arg, err)
		}
	}
	return s, nil
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
