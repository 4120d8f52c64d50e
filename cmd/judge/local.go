package main

import (
	"context"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/local"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/result"
)

// player plays matches: the sandboxes' runner, or the local one.
type player interface {
	Play(ctx context.Context, j match.Job) (result.Result, error)
}

// howToPlay are judge play's flags that choose how bots run.
type howToPlay struct {
	local, loose bool // --local, --no-time-limits
}

// matchPlayer is the runner judge play plays j with: bots in the judge's sandboxes, or, with
// --local, as plain processes built with this machine's compilers, every tool they need
// checked first. Off Linux a bot's CPU time is not measured, so --local needs --no-time-limits.
func (a *app) matchPlayer(ctx context.Context, how howToPlay, j match.Job) (player, error) {
	if !how.local {
		r, err := a.PlayRunner(ctx)
		if err != nil {
			return nil, err
		}
		r.NoTimeLimits = how.loose
		return r, nil
	}
	if err := local.Supported(); err != nil {
		return nil, cli.Usage(err)
	}
	return a.localReferee(how, j)
}
