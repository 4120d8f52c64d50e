// Package storecmd is judge store: what the judge keeps, its size and limits, cleaned,
// backed up and restored.
package storecmd

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/queue"
)

// Cmd is judge store.
func Cmd(a *base.App) *cobra.Command {
	var asJSON bool
	var nats string
	cmd := &cobra.Command{
		Use:   "store [--json] [--nats-store DIR]",
		Short: "Show what the judge stores: each JetStream store (count, bytes, oldest) and the data directory",
		Long: `Show what the judge stores, read-only: the jobs and results streams, the object stores
(artifacts, replays, images, sources) and key-value buckets of the NATS server, each with its
count, bytes, oldest entry and limits; then the data directory, each part with its files and
bytes. It reads the server at nats.url, else the data directory's NATS store (through the
judge serving it, if one runs), else the judge serving at nats.listen.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			q, from, err := a.ReadQueue(cmd.Context(), nats)
			if err != nil {
				return err
			}
			defer q.Close()
			usage, err := q.Admin().Usage(cmd.Context(), true)
			if err != nil {
				return err
			}
			dirs, err := dirUsage(a.Cfg.DataDir)
			if err != nil {
				return err
			}
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(struct {
					NATS    []queue.Usage `json:"nats"`
					DataDir string        `json:"data_dir"`
					Dirs    []dirSize     `json:"data_dir_parts"`
				}{usage, a.Cfg.DataDir, dirs})
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "The stores %s:\n", from)
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "STORE\tSTREAM\tCOUNT\tBYTES\tOLDEST\tLIMITS")
			for _, u := range usage {
				oldest := "-"
				if !u.Oldest.IsZero() {
					oldest = u.Oldest.UTC().Format(time.DateTime)
				}
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", u.Store, u.Stream, u.Count, cli.ByteSize(int64(u.Bytes)), oldest, limits(a, u))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintf(w, "\nThe data directory %s:\n", a.Cfg.DataDir)
			return printDirs(w, dirs)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.Flags().StringVar(&nats, "nats-store", "", "read this NATS store directory (default: the data directory's, or the server at nats.url)")
	cmd.AddCommand(storeCleanCmd(a), storeBackupCmd(a), storeRestoreCmd(a))
	return cmd
}

func storeCleanCmd(a *base.App) *cobra.Command {
	var dryRun bool
	var olderThan time.Duration
	cmd := &cobra.Command{
		Use:   "clean [--dry-run] [--older-than DURATION]",
		Short: "Delete what judge serve lets age out of the stores: test and ladder matches' replays and results, shared compiled bots",
		Long: `Delete what judge serve deletes every hour, and say how many and their bytes: the replays
of test and ladder matches older than nats.replays_max_age; their results, and the portal's
records of them, older than nats.results_max_age (each: or --older-than); the portal's
test-match counts of past hours, and its sessions and invites past their end; and the
compiled bots of the shared build cache older than nats.artifacts_max_age. The replays,
results and records of official rounds, tournaments, builds and validations, and those stored
by a judge that recorded no lane, are kept; a compiled bot deleted is compiled again when a
daemon needs it. It works through the running judge (nats.listen) or the server at nats.url.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			all := daemon.Expiries(a.Cfg.NATS)
			if cmd.Flags().Changed("older-than") {
				if olderThan <= 0 {
					return cli.Usage(fmt.Errorf("--older-than %v: want a duration above 0 (test and ladder matches' replays and results older than it go)", olderThan))
				}
				for i := range all {
					if all[i].OfMatches {
						all[i].Age = olderThan
					}
				}
			}
			var q *queue.Queue
			if slices.ContainsFunc(all, func(e daemon.Expiry) bool { return e.Age > 0 }) {
				var err error
				if q, err = a.Queue(cmd.Context(), base.Work); err != nil {
					return err
				}
				defer q.Close()
			}
			verb := "expired"
			if dryRun {
				verb = "would expire"
			}
			w := cmd.OutOrStdout()
			for _, e := range all {
				if e.Age == 0 {
					fmt.Fprintf(w, "nats.%s is 0: the %s are kept forever, and none was deleted\n", e.Key, e.What)
					continue
				}
				ex, err := e.Expire(q.Admin(), cmd.Context(), time.Now().Add(-e.Age), dryRun)
				if err != nil {
					return err
				}
				fmt.Fprintf(w, "%s %d %s older than %v (%s)\n", verb, ex.Count, e.What, e.Age, cli.ByteSize(int64(ex.Bytes)))
				if e.MaxBytes == 0 || dryRun {
					continue
				}
				if ex, err = e.Trim(cmd.Context(), q); err != nil {
					return err
				}
				if ex.Count > 0 {
					fmt.Fprintf(w, "deleted the oldest %d %s (%s): %s was over nats.%s (%s)\n", ex.Count, e.What, cli.ByteSize(int64(ex.Bytes)), e.Store, e.BytesKey, cli.ByteSize(int64(e.MaxBytes)))
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "delete nothing: say what would go")
	cmd.Flags().DurationVar(&olderThan, "older-than", 0, "delete the replays, results and portal records of test and ladder matches older than this instead (default: nats.replays_max_age, nats.results_max_age)")
	return cmd
}

// limits says a store's limits in words: the ages judge serve keeps its entries for
// (daemon.Expiries), and the stream's own.
func limits(a *base.App, u queue.Usage) string {
	var parts []string
	for _, e := range daemon.Expiries(a.Cfg.NATS) {
		if e.Store == u.Store && e.Age > 0 {
			if p := fmt.Sprintf(e.Kept, e.Age); !slices.Contains(parts, p) {
				parts = append(parts, p)
			}
		}
	}
	if u.MaxAge > 0 {
		parts = append(parts, "max age "+u.MaxAge.String())
	}
	if u.MaxBytes > 0 {
		parts = append(parts, "max "+cli.ByteSize(u.MaxBytes))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// dirSize is one top-level entry of the data directory.
type dirSize struct {
	Name  string `json:"name"`
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"`
}

// dirUsage sizes each top-level entry of dir; a dir that does not exist holds nothing. Files
// that vanish while it walks (a match's work directory) are skipped.
func dirUsage(dir string) ([]dirSize, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []dirSize
	for _, e := range entries {
		d := dirSize{Name: e.Name()}
		err := filepath.WalkDir(filepath.Join(dir, e.Name()), func(_ string, de fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if de.Type().IsRegular() {
				if info, err := de.Info(); err == nil {
					d.Files++
					d.Bytes += info.Size()
				}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("sizing %s: %w", filepath.Join(dir, e.Name()), err)
		}
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b dirSize) int { return cmp.Compare(b.Bytes, a.Bytes) })
	return out, nil
}

func printDirs(w io.Writer, dirs []dirSize) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PART\tFILES\tBYTES")
	var files int
	var bytes int64
	for _, d := range dirs {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", d.Name, d.Files, cli.ByteSize(d.Bytes))
		files, bytes = files+d.Files, bytes+d.Bytes
	}
	fmt.Fprintf(tw, "total\t%d\t%s\n", files, cli.ByteSize(bytes))
	return tw.Flush()
}
