//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/game/referee"
	"github.com/botjudge/judge/judge/local"
	"github.com/botjudge/judge/judge/match"
)

// localReferee plays j with its bots as plain processes, every tool they need checked first.
// Off Linux a bot's CPU time is not measured, so it needs --no-time-limits.
func (a *app) localReferee(how howToPlay, j match.Job) (player, error) {
	var missing []error
	var langs []string
	for i, e := range j.Players {
		if j.Recording == nil || i == j.Recording.Live {
			langs = append(langs, e.Submission.Lang)
		}
	}
	if g, ok := j.Game.(*referee.Game); ok {
		langs = append(langs, g.Manifest.Referee.Lang)
	}
	slices.Sort(langs)
	for _, l := range slices.Compact(langs) {
		if err := local.Check(l); err != nil {
			missing = append(missing, err)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("--local: %w", errors.Join(missing...))
	}
	unmetered := runtime.GOOS != "linux"
	if unmetered && !how.loose {
		return nil, cli.Usage(fmt.Errorf("--local: on %s the judge cannot read a bot's CPU time as it runs, so the time limits cannot be kept: add --no-time-limits to play without them", runtime.GOOS))
	}
	work := filepath.Join(a.Cfg.DataDir, "local", "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	s := a.Cfg.Sandbox
	return &match.Referee[*local.Process]{
		Sandbox: &local.Engine{WorkDir: work, Unmetered: unmetered}, Builder: a.LocalBuilder(),
		WorkDir: work, Version: judgeVersion(), Output: s.Output, StderrMatch: s.StderrMatch,
		NoTimeLimits: how.loose, Unsandboxed: true,
	}, nil
}
