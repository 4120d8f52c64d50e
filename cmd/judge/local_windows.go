package main

import (
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/local"
	"github.com/botjudge/judge/judge/match"
)

// localReferee refuses: bots do not run as plain processes on Windows (local.Supported).
func (a *app) localReferee(howToPlay, match.Job) (player, error) {
	return nil, cli.Usage(local.Supported())
}
