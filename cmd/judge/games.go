package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
)

func (a *app) gamesCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "games",
		Short: "List the games, their player counts, options and defaults",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			type row struct {
				Name    string        `json:"name"`
				Min     int           `json:"min_players"`
				Max     int           `json:"max_players"`
				Default int           `json:"default_players"`
				Options []game.Option `json:"options"`
			}
			var rows []row
			for _, g := range games.All() {
				min, max, def := g.Players()
				rows = append(rows, row{g.Name(), min, max, def, g.Options()})
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
				fmt.Fprintf(tw, "%s\tplayers: %s\n", r.Name, players)
				for _, o := range r.Options {
					def := o.Default
					if def == "" {
						def = `""`
					}
					fmt.Fprintf(tw, "  %s\t%s\t%s\n", o.Name, def, o.Help)
				}
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
