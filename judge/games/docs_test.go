package games_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// Every registered game has its page in docs/games, and the page's options table gives every
// option of the game with the default the game applies (an empty default reads "empty"), and
// no option the game does not have: the documentation matches the code.
func TestEveryGameIsDocumented(t *testing.T) {
	row := regexp.MustCompile("(?m)^\\| `([a-z]+)` \\| (?:`([^`]*)`|empty) \\|")
	for _, g := range games.All() {
		page := filepath.Join(sandboxtest.Root(), "docs", "games", g.Name()+".md")
		text, err := os.ReadFile(page)
		if err != nil {
			t.Errorf("%s: no page: %v", g.Name(), err)
			continue
		}
		documented := map[string]string{}
		for _, m := range row.FindAllStringSubmatch(string(text), -1) {
			documented[m[1]] = m[2]
		}
		for _, o := range g.Options() {
			if def, ok := documented[o.Name]; !ok || def != o.Default {
				t.Errorf("%s: option %s (default %q) is documented as %s", g.Name(), o.Name, o.Default, describe(def, ok))
			}
			delete(documented, o.Name)
		}
		for name := range documented {
			t.Errorf("%s: %s documents an option %s the game does not have", g.Name(), page, name)
		}
	}
}

func describe(def string, ok bool) string {
	if !ok {
		return "nothing"
	}
	return fmt.Sprintf("%q", def)
}

// Every registered game has a sample bot in every language (bots/<game>/<lang>), which the
// end-to-end tests play: a new language needs one per game, a new game one per language.
func TestEveryGameHasABotInEveryLanguage(t *testing.T) {
	for _, g := range games.All() {
		for _, lang := range images.LangNames() {
			dir := filepath.Join(sandboxtest.Root(), "bots", g.Name(), lang)
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				t.Errorf("%s has no sample bot in %s: %v", g.Name(), lang, err)
			}
		}
	}
}
