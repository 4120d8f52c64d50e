// Package skeleton writes a new game's directory (`judge game new`): a working game whose
// referee is in one of the judge's languages, with its manifest, a sample bot and its rules
// page, which passes `judge game check` as written - the start an organiser edits into their
// own game (docs/referee.md).
package skeleton

import (
	"embed"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
)

//go:embed _templates
var templates embed.FS

// Langs are the languages a skeleton's referee can be written in.
func Langs() []string {
	var out []string
	entries, _ := fs.ReadDir(templates, "_templates")
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

type vars struct {
	Name, Title, Lang, RefereeFile string
}

// Files are the directory of a new game name with its referee in lang, by path: game.yaml,
// rules.md, the referee's source, and the sample bot under bots/LANG.
func Files(name, lang string) (map[string][]byte, error) {
	if !slices.Contains(Langs(), lang) {
		return nil, fmt.Errorf("--lang %s: a new game's referee is written in %s (a referee may be in any of the judge's languages: docs/referee.md)",
			lang, strings.Join(Langs(), ", "))
	}
	files := map[string][]byte{}
	src := map[string]string{"game.yaml": "_templates/game.yaml", "rules.md": "_templates/rules.md"}
	root := "_templates/" + lang
	err := fs.WalkDir(templates, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(p, root+"/")
		if after, ok := strings.CutPrefix(rel, "bot/"); ok {
			rel = path.Join("bots", lang, after)
		}
		src[rel] = p
		return nil
	})
	if err != nil {
		return nil, err
	}
	v := vars{Name: name, Title: title(name), Lang: lang}
	for rel := range src {
		if path.Dir(rel) == "." && rel != "game.yaml" && rel != "rules.md" {
			v.RefereeFile = rel
		}
	}
	// The templates are sources of every language: their placeholders are replaced, not
	// parsed as text/template would ({{ is Go's and C's own).
	r := strings.NewReplacer("{{.Name}}", v.Name, "{{.Title}}", v.Title, "{{.Lang}}", v.Lang, "{{.RefereeFile}}", v.RefereeFile)
	for _, rel := range slices.Sorted(maps.Keys(src)) {
		b, err := fs.ReadFile(templates, src[rel])
		if err != nil {
			return nil, err
		}
		files[rel] = []byte(r.Replace(string(b)))
	}
	return files, nil
}

// title is a game's name for people: "lang-wars" is "Lang Wars".
func title(name string) string {
	words := strings.Split(name, "-")
	for i, w := range words {
		if w != "" {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(words, " ")
}
