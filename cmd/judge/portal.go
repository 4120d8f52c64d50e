package main

import (
	"fmt"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/cmd/judge/internal/portaladmin"
	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/portal"
	"github.com/botjudge/judge/judge/portal/upload"
)

func (a *app) portalCmd() *cobra.Command {
	var listen string
	engine := true
	cmd := &cobra.Command{
		Use:   "portal [--listen ADDR]",
		Short: "Serve the contestants' front door: submissions, builds, validation, test matches, replays",
		Long: "Serve the portal (docs/portal.md). Its state is in NATS: with nats.url it serves beside\n" +
			"the daemons of that queue and needs no Docker; without, it runs the NATS server and a\n" +
			"daemon in its own process, so that one command on one machine is a working contest.\n" +
			"Make a contest and its people with `judge portal contest create` and `judge portal user add`.\n" +
			"It runs the contest engine too (builds, validation, the ladder, rounds: docs/portal.md);\n" +
			"with --engine=false it serves pages and the API only, for an engine that runs elsewhere\n" +
			"(`judge portal engine`, or another portal) on the same NATS.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if listen != "" {
				a.Cfg.Portal.Listen = listen
				if err := a.Cfg.Portal.Validate(); err != nil {
					return cli.Usage(fmt.Errorf("--listen: %w", err))
				}
			}
			return a.servePortal(cmd, true, engine)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "", "the address to serve on (portal.listen)")
	cmd.Flags().BoolVar(&engine, "engine", true, "run the contest engine here too (false: pages and the API only)")
	cmd.AddCommand(a.portalEngineCmd(), portaladmin.ContestCmd(a.App), portaladmin.UserCmd(a.App), portaladmin.RoundCmd(a.App))
	return cmd
}

func (a *app) portalEngineCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "engine",
		Short: "Run the contest engine alone: builds, validation, the ladder and rounds, with no web server",
		Long: "Run the contest engine (docs/portal.md) with no web server: it follows the daemons'\n" +
			"results and moves the contests on - builds to validation, the ladder, rounds - for the\n" +
			"portals that serve the pages (`judge portal --engine=false`) on the same NATS. Any number\n" +
			"may run; each step is safe to take twice. Without nats.url it runs the NATS server and a\n" +
			"daemon in its own process, as `judge portal` does.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.servePortal(cmd, false, true) },
	}
}

// servePortal serves the portal's pages and API (web), runs the contest engine (engine), or
// both, until SIGINT or SIGTERM.
func (a *app) servePortal(cmd *cobra.Command, web, engine bool) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	q, err := a.Queue(ctx, base.Serve)
	if err != nil {
		return err
	}
	defer q.Close()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer stop() // first: what wg waits for ends with ctx
	if a.Cfg.NATS.URL == "" {
		d, _, err := a.daemon(ctx, q, a.Cfg.Serve.Workers, a.Log)
		if err != nil {
			return err
		}
		wg.Go(func() { d.Run(ctx) })
		wg.Go(daemon.Housekeep(ctx, q, a.Cfg.NATS, a.BuildDir(), int64(a.Cfg.Build.CacheLimit), daemon.HouseEvery, a.Log)) // as judge serve's: no other judge cleans this store
		a.Log.Info("judging here: an embedded NATS server and a daemon", "nats", q.URL())
	}
	kv, err := q.KeyValue(ctx, "portal")
	if err != nil {
		return err
	}
	if err := a.UseCatalog(ctx, q); err != nil {
		return err
	}
	st := store.New(kv)
	if !web { // the engine alone: nothing of the portal's settings is used
		fmt.Fprintf(cmd.ErrOrStderr(), "contest engine running on %s\n", q.URL())
		a.Log.Info("the contest engine runs here")
		a.ContestEngine(st, q).Run(ctx) // until SIGINT or SIGTERM: a stop, not an error
		return nil
	}
	// The games by name, and a film's added game by the version that judged its match
	// (view.GameKey), its referee run here in a sandbox when this machine has Docker.
	films := a.viewLookup(ctx, q)
	lookup := func(key string) (game.Game, bool) {
		if strings.Contains(key, "@") {
			return films(key)
		}
		return a.Lookup(key)
	}
	p, err := portal.New(portal.Config{Options: a.Cfg.Portal, Store: st, Queue: q, Games: lookup, Starter: games.Starter,
		Langs: images.LangNames(), Upload: upload.Limits{Bytes: int64(a.Cfg.Build.SourceLimit), Files: upload.DefaultFiles},
		Version: judgeVersion(), Log: a.Log})
	if err != nil {
		return err
	}
	if engine {
		wg.Go(func() { p.Engine().Run(ctx) })
		a.Log.Info("the contest engine runs here")
	}
	return p.Serve(ctx, func(addr string) {
		fmt.Fprintf(cmd.ErrOrStderr(), "portal on %s\n", a.Cfg.Portal.BaseURL())
		a.Log.Info("portal serving", "addr", addr)
	})
}
