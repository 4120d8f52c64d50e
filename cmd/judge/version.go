package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version, when set at build time (-ldflags "-X main.version=..."), is the judge's version as
// given; otherwise judgeVersion reads it from the build.
var version string

// judgeVersion is the judge's version: what `judge version` and `--version` print, and what
// results (judge.version) and replays record, so that a result can be traced to its build.
func judgeVersion() string {
	if version != "" {
		return version
	}
	info, _ := debug.ReadBuildInfo()
	return versionOf(info)
}

// versionOf is the version a build describes: the main module's version, and its VCS revision
// ("+dirty" when the tree had changes) where the version does not already name it. A build
// with neither (go run, tests, -buildvcs=false) is "devel".
func versionOf(info *debug.BuildInfo) string {
	if info == nil {
		return "devel"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	var rev string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" || strings.Contains(v, rev) {
		return v
	}
	if dirty {
		rev += "+dirty"
	}
	return fmt.Sprintf("%s (%s)", v, rev)
}

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the judge's version, as results and replays record it",
		Args:  cobra.NoArgs,
		// It reads no configuration: a broken judge.yaml must not hide which judge this is.
		PersistentPreRunE: func(*cobra.Command, []string) error { return nil },
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), judgeVersion())
			return nil
		},
	}
}
