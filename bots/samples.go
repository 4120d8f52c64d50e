// Package bots holds the judge's sample bots, one for each built-in game in each language
// (GAME/LANG), and the smallest program of each language that builds (hello/LANG). The
// portal offers a contest's samples to its contestants as starter bots (docs/contestant.md).
package bots

import (
	"embed"
	"errors"
	"io/fs"
	"path"
)

//go:embed amazes dropblock langwars ontherun snakecore hello
var samples embed.FS

// ErrNoSample is a game or a language with no sample bot.
var ErrNoSample = errors.New("no sample bot")

// Sample is the sample bot of game in lang: its files by path in its directory. The bots
// that break on purpose (GAME/broken, for the judge's tests) are no sample.
func Sample(game, lang string) (map[string][]byte, error) {
	dir := path.Join(game, lang)
	if lang == "broken" || !fs.ValidPath(dir) || path.Dir(dir) != game || path.Dir(game) != "." {
		return nil, ErrNoSample
	}
	files := map[string][]byte{}
	err := fs.WalkDir(samples, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := samples.ReadFile(p)
		files[p[len(dir)+1:]] = data
		return err
	})
	if err != nil || len(files) == 0 {
		return nil, ErrNoSample
	}
	return files, nil
}
