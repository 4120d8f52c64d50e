package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/manifest"
	"github.com/botjudge/judge/judge/game/referee"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
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

// addedGame is the game of directory dir: its manifest checked, its referee built in the
// toolchain of its language, and run in a sandbox of its own for each match.
func (a *app) addedGame(ctx context.Context, dir string) (game.Game, error) {
	m, err := manifest.Load(os.DirFS(dir), manifest.Check{
		Builtin: func(name string) bool { _, ok := games.Lookup(name); return ok },
		Langs:   images.LangNames(),
	})
	if err != nil {
		return nil, usageError{fmt.Errorf("--game %s: %w", dir, err)}
	}
	files := map[string][]byte{}
	for _, f := range m.Referee.Files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return nil, usageError{fmt.Errorf("--game %s: the referee: %w", dir, err)}
		}
		files[f] = b
	}
	b, err := a.builder(ctx)
	if err != nil {
		return nil, err
	}
	built, err := b.Build(ctx, build.Submission{Lang: m.Referee.Lang, Files: files})
	if err != nil {
		return nil, err
	}
	if !built.OK {
		return nil, usageError{fmt.Errorf("--game %s: the referee does not compile (%s):\n%s", dir, built.Failure, built.Log)}
	}
	r, err := a.runner(b)
	if err != nil {
		return nil, err
	}
	return &referee.Game{Manifest: m, Start: match.RefereeStarter(ctx, a.engine, built, m.Referee.Lang, m.Referee, r.Limits, r.Freeze)}, nil
}
