package submission_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/submission"
)

// Every language of images.Langs is loaded by each of its extensions and by its prefix, and
// the error for a BOT with no known extension lists every extension of the table, in its
// order: a language added to images.Langs is covered here without an edit.
func TestLoadKnowsEveryLanguage(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("source"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var exts []string
	for _, l := range images.Langs() {
		exts = append(exts, l.Exts...)
		for _, ext := range l.Exts {
			t.Run(l.Name+"/"+ext, func(t *testing.T) {
				for _, arg := range []string{
					write(l.Name + "/bot" + ext),                  // by its extension
					write(l.Name + "/BOT" + strings.ToUpper(ext)), // in any case
					l.Name + ":" + write(l.Name+"/bot.txt"),       // by its prefix
				} {
					s, err := submission.Load(arg, 1<<20)
					if err != nil || s.Lang != l.Name {
						t.Errorf("Load(%q): language %q, %v; want %s", arg, s.Lang, err, l.Name)
					}
				}
			})
		}
	}
	arg := write("none/README.txt")
	_, err := submission.Load(arg, 1<<20)
	want := "invalid submission: " + arg + ": no source file with a known extension (" + strings.Join(exts, " ") + ")"
	if !errors.Is(err, submission.ErrInvalid) || err.Error() != want {
		t.Errorf("no known extension: %v\nwant %s", err, want)
	}
}
