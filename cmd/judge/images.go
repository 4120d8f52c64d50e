package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/images"
)

func (a *app) imagesCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "images", Short: "Build and list the pinned toolchain images"}
	var langs []string
	buildCmd := &cobra.Command{
		Use:   "build",
		Short: "Build the images that are missing or out of date (idempotent)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, err := a.imageBuilder(cmd.Context())
			if err != nil {
				return err
			}
			list, err := b.Build(cmd.Context(), langs...)
			if err != nil {
				return err
			}
			built := 0
			for _, s := range list {
				if s.Built {
					built++
				}
			}
			fmt.Printf("%d images up to date, %d built\n", len(list)-built, built)
			return nil
		},
	}
	buildCmd.Flags().StringSliceVar(&langs, "lang", nil, "only the images of these languages (cpp, pascal, java, go)")
	var asJSON bool
	listCmd := &cobra.Command{
		Use:   "list",
		Short: "Show each language's images, their IDs and pinned toolchains",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, err := a.imageBuilder(cmd.Context())
			if err != nil {
				return err
			}
			type row struct {
				Lang      string   `json:"lang"`
				Toolchain string   `json:"toolchain"`
				Compile   string   `json:"compile_image"`
				CompileID string   `json:"compile_id"`
				Run       string   `json:"run_image"`
				RunID     string   `json:"run_id"`
				Flags     []string `json:"flags"`
			}
			var rows []row
			for _, l := range images.Langs() {
				st, err := b.List(cmd.Context(), l.Name)
				if err != nil {
					return err
				}
				ids := map[string]string{}
				for _, s := range st {
					ids[s.Ref] = s.ID
				}
				c, r := b.Catalog.Compile(l).Ref(b.Prefix), b.Catalog.Run(l).Ref(b.Prefix)
				rows = append(rows, row{l.Name, b.Catalog.Toolchain(l), c, ids[c], r, ids[r], l.Flags})
			}
			if asJSON {
				enc := json.NewEncoder(os.Stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "LANG\tTOOLCHAIN\tCOMPILE IMAGE\tID\tRUN IMAGE\tID\tFLAGS")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Lang, r.Toolchain, r.Compile, shortID(r.CompileID),
					r.Run, shortID(r.RunID), strings.Join(r.Flags, " "))
			}
			return tw.Flush()
		},
	}
	listCmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.AddCommand(buildCmd, listCmd)
	return cmd
}

func shortID(id string) string {
	if id == "" {
		return "(missing)"
	}
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		id = id[:12]
	}
	return id
}
