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

// GameOf is the built-in game whose sample bot files is: every one of files is a file of
// one of its samples (in some language), byte for byte. A bot of one's own, a broken one,
// or one that only starts from a sample is of no game here.
func GameOf(files map[string][]byte) (string, bool) {
	if len(files) == 0 {
		return "", false
	}
	games, _ := fs.ReadDir(samples, ".")
	for _, g := range games {
		if !g.IsDir() || g.Name() == "hello" {
			continue
		}
		langs, _ := fs.ReadDir(samples, g.Name())
		for _, l := range langs {
			sample, err := Sample(g.Name(), l.Name())
			if err != nil {
				continue
			}
			same := true
			for name, data := range files {
				if s, ok := sample[name]; !ok || string(s) != string(data) {
					same = false
					break
				}
			}
			if same {
				return g.Name(), true
			}
		}
	}
	return "", false
}
