package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/botjudge/judge/judge/game/manifest"
	"github.com/botjudge/judge/judge/games"
)

// gameDir reports whether --game names a game's directory rather than a built-in game: a
// path (with a '/'), or a name no built-in game has of a directory that holds game.yaml.
func gameDir(name string) (string, bool) {
	if strings.ContainsRune(name, '/') || name == "." {
		return name, true
	}
	if _, builtin := games.Lookup(name); builtin {
		return "", false
	}
	_, err := os.Stat(filepath.Join(name, manifest.File))
	return name, err == nil
}
