// Package docs holds the pages the judge serves itself: the games' rules, which the viewer and
// the portal show beside a match.
package docs

import (
	"embed"
	"io/fs"
	"regexp"
)

//go:embed rules.md games/*.md
var pages embed.FS

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

// Rules is the Markdown of a built-in game's rules page (games/GAME.md), or with "common"
// the rules every game shares (rules.md); false for a name that has none.
func Rules(name string) ([]byte, bool) {
	path := "games/" + name + ".md"
	switch {
	case name == "common":
		path = "rules.md"
	case !nameRE.MatchString(name):
		return nil, false
	}
	b, err := fs.ReadFile(pages, path)
	return b, err == nil
}
