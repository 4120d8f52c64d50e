package skeleton_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/game/manifest"
	"github.com/botjudge/judge/judge/game/skeleton"
)

// A skeleton is written in every language of the judge, and its manifest is a good one, its
// referee and sample bot where it says.
func TestEveryLanguage(t *testing.T) {
	if got, want := skeleton.Langs(), images.LangNames(); !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
		t.Errorf("skeletons in %v; the judge's languages are %v", got, want)
	}
	for _, lang := range skeleton.Langs() {
		files, err := skeleton.Files("my-game", lang)
		if err != nil {
			t.Fatal(err)
		}
		fsys := fstest.MapFS{}
		for p, b := range files {
			if strings.Contains(string(b), "{{.") {
				t.Errorf("%s: %s keeps a placeholder", lang, p)
			}
			fsys[p] = &fstest.MapFile{Data: b}
		}
		m, err := manifest.Load(fsys, manifest.Check{Langs: images.LangNames()})
		if err != nil {
			t.Errorf("%s: %v", lang, err)
			continue
		}
		if m.Name != "my-game" || m.Title != "My Game" || m.Referee.Lang != lang || m.Samples[lang] != "bots/"+lang {
			t.Errorf("%s: manifest %+v", lang, m)
		}
	}
	if _, err := skeleton.Files("x", "cobol"); err == nil || !strings.Contains(err.Error(), "python") {
		t.Errorf("an unknown language: %v", err)
	}
}
