package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/result"
)

func (a *app) resultsCmd() *cobra.Command {
	var follow, asJSON bool
	cmd := &cobra.Command{
		Use:   "results [--follow] [--json] [ID]",
		Short: "Read results from the results stream (all, or one match's)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := ""
			if len(args) == 1 {
				id = args[0]
				if err := job.ValidID(id); err != nil {
					return cli.Usage(err)
				}
			}
			q, err := a.Queue(cmd.Context(), base.Look)
			if err != nil {
				return err
			}
			defer q.Close()
			n := 0
			err = q.Results(cmd.Context(), id, follow, func(_ string, data []byte) error {
				n++
				var res result.Result
				if err := json.Unmarshal(data, &res); err != nil {
					return err
				}
				if !asJSON {
					fmt.Fprintf(cmd.OutOrStdout(), "== %s\n", res.ID)
				}
				return printResult(cmd.OutOrStdout(), res, asJSON)
			})
			if follow && errors.Is(err, context.Canceled) {
				return nil
			}
			if err == nil && n == 0 && id != "" {
				return fmt.Errorf("no result for %s: not judged yet, or a test or ladder match's expired (nats.results_max_age)", id)
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&follow, "follow", false, "keep printing new results as they come")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print each result as one line of JSON")
	return cmd
}
