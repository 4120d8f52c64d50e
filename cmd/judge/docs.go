package main

import (
	"fmt"
	"os"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// docsCmd writes the command reference from the commands themselves, so that it cannot say
// other than the binary: docs/commands is its Markdown (TestCommandReference checks it), make
// release adds the man pages.
func (a *app) docsCmd() *cobra.Command {
	var man bool
	c := &cobra.Command{
		Use:   "docs DIR [--man]",
		Short: "Write the command reference into DIR, a page per command: Markdown, or man pages with --man",
		Long: `Write the command reference into DIR, a page per command, from the commands themselves:
Markdown (docs/commands in the judge's sources is this), or with --man man pages (section 1,
dated by SOURCE_DATE_EPOCH when it is set, as make release does).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return cli.Usage(fmt.Errorf("DIR %s: %w", dir, err))
			}
			root := cmd.Root()
			root.DisableAutoGenTag = true // a date on every page would make each regeneration a change
			if man {
				return doc.GenManTree(root, &doc.GenManHeader{Title: "JUDGE", Section: "1", Source: "judge " + judgeVersion(), Manual: "The judge"}, dir)
			}
			return doc.GenMarkdownTree(root, dir)
		},
	}
	c.Flags().BoolVar(&man, "man", false, "man pages (section 1) instead of Markdown")
	return c
}
