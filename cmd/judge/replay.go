package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/replay"
)

func (a *app) replayCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "replay", Short: "Work with replays"}
	cmd.AddCommand(&cobra.Command{
		Use:   "verify FILE",
		Short: "Re-run the referee on a replay's recorded answers (no bots) and confirm the same result",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			f, err := os.Open(args[0])
			if err != nil {
				return usageError{err}
			}
			defer f.Close()
			res, err := replay.Verify(f, games.Lookup)
			if err != nil {
				return err
			}
			fmt.Printf("verified: %s seed %d, re-judged to the recorded result\n", res.Game, res.Seed)
			return nil
		},
	})
	return cmd
}
