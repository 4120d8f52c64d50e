// Package cli holds what the judge's commands share in how they speak to a person: a usage
// error (exit status 2), output as text or JSON, and reading a BOT argument.
package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/submission"
)

// UsageError marks bad command-line arguments (exit status 2): nothing was attempted.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }

// Usage is err as a UsageError.
func Usage(err error) error { return UsageError{Err: err} }

// CheckLangs refuses a language name given as what (a flag) that is not one of
// images.LangNames.
func CheckLangs(what string, langs ...string) error {
	for _, l := range langs {
		if _, ok := images.LangByName(l); !ok {
			return Usage(fmt.Errorf("%s: unknown language %q; known: %s", what, l, strings.Join(images.LangNames(), ", ")))
		}
	}
	return nil
}

// LoadBot reads a BOT argument (a file or directory, maybe LANG:-prefixed), as a usage error
// that names it when it cannot: a missing path, or a prefix that is no language, is said so
// rather than as the system call that failed.
func LoadBot(arg string, limit int64) (submission.Submission, error) {
	s, err := submission.Load(arg, limit)
	if err == nil {
		return s, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		path := arg
		if prefix, rest, ok := strings.Cut(arg, ":"); ok && !strings.ContainsAny(prefix, `/\.`) {
			if lerr := CheckLangs(arg, prefix); lerr != nil {
				return s, lerr
			}
			path = rest
		}
		return s, Usage(fmt.Errorf("%s: no such file or directory", path))
	}
	return s, Usage(err)
}

// LoadSubmission reads FILE|DIR arguments as one submission (each as LoadBot does; lang,
// when given, is every argument's): the sources of one language.
func LoadSubmission(args []string, lang string, limit int64) (submission.Submission, error) {
	sub := submission.Submission{Lang: lang, Files: map[string][]byte{}}
	for _, arg := range args {
		if lang != "" {
			arg = lang + ":" + arg
		}
		s, err := LoadBot(arg, limit)
		if err != nil {
			return sub, err
		}
		if sub.Lang != "" && s.Lang != sub.Lang {
			return sub, Usage(fmt.Errorf("%s is %s, but the submission is %s", arg, s.Lang, sub.Lang))
		}
		sub.Lang = s.Lang
		maps.Copy(sub.Files, s.Files)
	}
	return sub, nil
}

// PrintOut prints v as one JSON document, or as text.
func PrintOut(w io.Writer, asJSON bool, v any, text func(io.Writer)) error {
	if !asJSON {
		text(w)
		return nil
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// CheckOutputFile refuses a file to write (given with flag, or as an argument when flag is "")
// whose directory is not there: the command would find out only once its work is done.
func CheckOutputFile(flag, file string) error {
	if file == "" || file == "-" {
		return nil
	}
	dir := filepath.Dir(file)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return Usage(fmt.Errorf("%s: no directory %s to write it in", strings.TrimSpace(flag+" "+file), dir))
	}
	return nil
}

// ShortID is an image's or a container's ID as people read it: its first 12 hex digits.
func ShortID(id string) string {
	if id == "" {
		return "(missing)"
	}
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		id = id[:12]
	}
	return id
}

// ParseOptions reads k=v pairs; a value @FILE is the file's content.
func ParseOptions(kvs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--opt %q: want key=value", kv)
		}
		if file, isFile := strings.CutPrefix(v, "@"); isFile {
			data, err := os.ReadFile(file)
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("--opt %s: no such file %s", kv, file)
			}
			if err != nil {
				return nil, fmt.Errorf("--opt %s: %w", kv, err)
			}
			v = string(data)
		}
		out[k] = v
	}
	return out, nil
}

// ByteSize is n bytes for people: 512 B, 1.7 MiB, 3.2 GiB.
func ByteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}

// MismatchError says that the replay at path does not re-judge to what it records, one
// difference a line.
func MismatchError(path string, diffs []replay.Difference) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s does not re-judge to its recorded result:", path)
	for _, d := range diffs {
		b.WriteString("\n  ")
		b.WriteString(d.String())
	}
	return errors.New(b.String())
}
