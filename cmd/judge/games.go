package main

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/referee"
	"github.com/botjudge/judge/judge/games"
)

func (a *app) gamesCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "games",
		Short: "List the games, their player counts, options and defaults (the added ones too, when a judge's store is reachable)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			type row struct {
				Name    string        `json:"name"`
				Min     int           `json:"min_players"`
				Max     int           `json:"max_players"`
				Default int           `json:"default_players"`
				Options []game.Option `json:"options"`
				// Version is an added game's (judge game add).
				Version string `json:"version,omitempty"`
			}
			var rows []row
			all := games.All()
			// The games added to the store, when a judge's store is reachable.
			ctx, cancel := context.WithTimeout(cmd.Context(), 3*time.Second)
			defer cancel()
			var note string
			if q, err := a.GamesStore(ctx); err != nil {
				note = "games added with judge game add are not listed: no judge's store is reachable"
			} else {
				defer q.Close()
				if err := a.UseCatalog(ctx, q); err != nil {
					return err
				}
				entries, err := a.Added.List(ctx)
				if err != nil {
					return err
				}
				for _, e := range entries {
					if g, ok := a.Lookup(e.Name); ok {
						all = append(all, g)
					}
				}
			}
			for _, g := range all {
				min, max, def := g.Players()
				r := row{Name: g.Name(), Min: min, Max: max, Default: def, Options: g.Options()}
				if rg, ok := g.(*referee.Game); ok {
					r.Version = rg.Version
				}
				rows = append(rows, r)
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			for _, r := range rows {
				players := fmt.Sprint(r.Min)
				if r.Max != r.Min {
					players = fmt.Sprintf("%d-%d (default %d)", r.Min, r.Max, r.Default)
				}
				added := ""
				if r.Version != "" {
					added = fmt.Sprintf("\tadded, version %.12s", r.Version)
				}
				fmt.Fprintf(tw, "%s\tplayers: %s%s\n", r.Name, players, added)
				for _, o := range r.Options {
					def := o.Default
					if def == "" {
						def = `""`
					}
					fmt.Fprintf(tw, "  %s\t%s\t%s\n", o.Name, def, o.Help)
				}
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			if note != "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", note)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
