package storecmd

import (
	"errors"
	"fmt"
	"io"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/queue"
	"github.com/spf13/cobra"
)

func storeBackupCmd(a *base.App) *cobra.Command {
	var asJSON bool
	var nats string
	cmd := &cobra.Command{
		Use:   "backup DIR [--json] [--nats-store DIR]",
		Short: "Back up everything the judge keeps (jobs, results, replays, builds, images, sources, games, the portal) into a new directory",
		Long: `Back up everything the judge keeps into DIR, which must not exist or be empty: a snapshot of
each JetStream stream of the server (the jobs and the results, the object stores of replays,
builds, images, sources and games, the key-value buckets of the portal and the rest) with its
consumers, JetStream's own format, and DIR/backup.json, written last, which lists them. It
changes nothing and may run while the judges work: the portal's records are taken first, then
the jobs, the results and the objects, so a match that ends meanwhile is either still a job or
done with its result and replay, and no record names what the backup lacks. It reads the server at nats.url, else the data
directory's NATS store (through the judge serving it, if one runs), else the judge serving at
nats.listen. judge store restore puts it back.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if err := queue.BackupDirFree(dir); err != nil {
				return cli.Usage(fmt.Errorf("DIR %w", err))
			}
			q, from, err := a.ReadQueue(cmd.Context(), nats)
			if err != nil {
				return err
			}
			defer q.Close()
			fmt.Fprintf(cmd.ErrOrStderr(), "backing up the stores %s into %s\n", from, dir)
			b, err := q.Admin().Backup(cmd.Context(), dir, a.Version, progressTo(cmd.ErrOrStderr(), "backed up"))
			if err != nil {
				return fmt.Errorf("backup into %s: %w (it is not a backup: it has no %s)", dir, err, queue.BackupFile)
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, b, func(w io.Writer) { summary(w, "backed up", dir, b) })
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what the backup holds as JSON (backup.json)")
	cmd.Flags().StringVar(&nats, "nats-store", "", "back up this NATS store directory (default: the data directory's, or the server at nats.url)")
	return cmd
}

func storeRestoreCmd(a *base.App) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "restore DIR [--json]",
		Short: "Put a backup (judge store backup) back onto an empty store: the data directory's, or the server at nats.url",
		Long: `Put the backup in DIR (judge store backup) back: onto the data directory's NATS store
(nats.store, else data_dir/nats), or onto the server at nats.url. The store must hold no
stream: a restore never merges with, or writes over, what a judge keeps, and a store a judge
is running on is refused. Move the old store away first (or point nats.store or --data-dir at
a new one), restore, then start the judge: what the backup held is there, a job a daemon had
taken when the backup was made is judged again once serve.ack_wait passes, and the portal and
the ladder go on from where the backup was made.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if _, err := queue.ReadBackup(dir); err != nil {
				return cli.Usage(err)
			}
			o := a.Cfg.Queue()
			o.Logger = a.Log
			onto := "the server at " + o.URL
			if o.URL == "" {
				o.StoreDir, o.ServerName, o.Cluster = a.NatsStore(), "", queue.Cluster{}
				onto = "the NATS store " + o.StoreDir
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "restoring %s onto %s\n", dir, onto)
			b, err := queue.Restore(cmd.Context(), o, dir, progressTo(cmd.ErrOrStderr(), "restored"))
			var inUse *queue.StoreInUseError
			switch {
			case errors.As(err, &inUse):
				return fmt.Errorf("%w: stop the judge running on it first; a restore goes onto a store no judge runs on", err)
			case errors.Is(err, queue.ErrNotEmpty):
				return fmt.Errorf("%s: %w; move it away (or set nats.store to a new directory) and restore again", onto, err)
			case err != nil:
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, b, func(w io.Writer) { summary(w, "restored", onto, b) })
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was restored as JSON (backup.json)")
	return cmd
}

// progressTo says each stream as it is done, on w (stderr): a large store takes a while.
func progressTo(w io.Writer, verb string) func(queue.StreamBackup) {
	return func(s queue.StreamBackup) {
		fmt.Fprintf(w, "  %s %s: %d messages, %s\n", verb, s.Name, s.Messages, cli.ByteSize(int64(s.Bytes)))
	}
}

func summary(w io.Writer, verb, where string, b queue.Backup) {
	var msgs, bytes uint64
	for _, s := range b.Streams {
		msgs, bytes = msgs+s.Messages, bytes+s.Bytes
	}
	fmt.Fprintf(w, "%s %d streams, %d messages, %s: %s (made %s by judge %s)\n", verb, len(b.Streams), msgs, cli.ByteSize(int64(bytes)), where, b.Created.Format("2006-01-02 15:04:05 MST"), b.Judge)
}
