package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/submission"
)

func (a *app) compileCmd() *cobra.Command {
	var lang, gameName string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "compile [--lang L] [--game G] [--json] FILE...",
		Short: "Build one submission and print the build result",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if lang != "" {
				if err := cli.CheckLangs("--lang", lang); err != nil {
					return err
				}
			}
			var g game.Game
			if gameName != "" {
				var err error
				if g, err = a.LookupGame("--game", gameName); err != nil {
					return err
				}
			}
			sub, err := cli.LoadSubmission(args, lang, int64(a.Cfg.Build.SourceLimit))
			if err != nil {
				return err
			}
			if g != nil {
				sub.Files = game.WithLibrary(g, sub.Lang, sub.Files)
			}
			b, err := a.Builder(cmd.Context())
			if err != nil {
				return err
			}
			res, err := b.Build(cmd.Context(), sub)
			if errors.Is(err, submission.ErrInvalid) {
				return cli.Usage(err)
			}
			if err != nil {
				return err
			}
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(res)
			}
			state := "ok"
			if !res.OK {
				state = "FAILED"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "build %s (%s, cached=%v, %d ms, image %s)\n", state, sub.Lang, res.Cached, res.MS, cli.ShortID(res.Image))
			if res.Log != "" {
				fmt.Fprint(cmd.OutOrStdout(), res.Log)
			}
			if res.OK {
				fmt.Fprintln(cmd.OutOrStdout(), "artifact:", res.Artifact)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&lang, "lang", "", "language ("+strings.Join(images.LangNames(), ", ")+"); default: from the file extensions")
	cmd.Flags().StringVar(&gameName, "game", "", "the game it is for: adds the game's helper library, if it has one")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the build result as JSON")
	return cmd
}
