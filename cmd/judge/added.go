package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/game/manifest"
	"github.com/botjudge/judge/judge/game/referee"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/submission"
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

// addedGame is the game of directory dir: its manifest checked and its referee built in the
// toolchain of its language (so that one that does not compile is said so before anything
// is played); each match runs it in a sandbox of its own (match.Referee.Bind).
func (a *app) addedGame(ctx context.Context, dir string) (*referee.Game, error) {
	g, err := referee.Load(os.DirFS(dir), a.ManifestCheck())
	if err != nil {
		return nil, cli.Usage(fmt.Errorf("--game %s: %w", dir, err))
	}
	var b match.Builder = a.LocalBuilder()
	if !a.Local {
		if b, err = a.Builder(ctx); err != nil {
			return nil, err
		}
	}
	built, err := b.Build(ctx, submission.Submission{Lang: g.Manifest.Referee.Lang, Files: g.Sources})
	if err != nil {
		return nil, err
	}
	if !built.OK {
		return nil, cli.Usage(fmt.Errorf("--game %s: the referee does not compile (%s):\n%s", dir, built.Failure, built.Log))
	}
	return g, nil
}
