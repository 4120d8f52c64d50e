package imagescmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/queue"
)

func publishCmd(a *base.App) *cobra.Command {
	var langs []string
	keep := images.KeepPublished
	cmd := &cobra.Command{
		Use:   "publish",
		Short: "Put the exact images (all, or --lang's) in the object store, for daemons with images.source: nats",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cli.CheckLangs("--lang", langs...); err != nil {
				return err
			}
			if keep < 1 {
				return cli.Usage(fmt.Errorf("--keep: must be at least 1, the archive this publishes (got %d)", keep))
			}
			ctx := cmd.Context()
			b, err := a.ImageBuilder(ctx)
			if err != nil {
				return err
			}
			q, err := a.Queue(ctx, base.Work)
			if err != nil {
				return err
			}
			defer q.Close()
			start := time.Now()
			if err := os.MkdirAll(a.Cfg.DataDir, 0o755); err != nil {
				return err
			}
			f, err := os.CreateTemp(a.Cfg.DataDir, "publish-*.tar")
			if err != nil {
				return err
			}
			defer os.Remove(f.Name())
			defer f.Close()
			m, err := b.Export(ctx, f, a.Cfg.DataDir, langs...)
			if err != nil {
				return err
			}
			if _, err := f.Seek(0, 0); err != nil {
				return err
			}
			key := images.ArchiveKey(m.Images)
			if err := q.PutObject(ctx, queue.BucketImages, key, f); err != nil {
				return err
			}
			index, err := images.ReadIndex(ctx, q.Cache(queue.BucketImages))
			if err != nil {
				return err
			}
			index = append(index, images.Published{Key: key, Images: m.Images, Created: m.Created})
			index, dropped := images.Newest(index, key, keep)
			data, err := json.MarshalIndent(index, "", "  ")
			if err != nil {
				return err
			}
			// The index goes first: no daemon picks an archive about to be deleted.
			if err := q.PutObject(ctx, queue.BucketImages, images.IndexKey, bytes.NewReader(data)); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "published %d images as %s in %.1f s\n", len(m.Images), key, time.Since(start).Seconds())
			if len(dropped) == 0 {
				return nil
			}
			gone, err := q.Admin().DeleteObjects(ctx, queue.BucketImages, dropped...)
			if err != nil {
				return fmt.Errorf("deleting the archives older than the newest %d: %w", keep, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "deleted %d older archives (%.1f MiB); the store keeps %d\n", gone.Count, float64(gone.Bytes)/(1<<20), len(index))
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&langs, "lang", nil, "only the images of these languages")
	cmd.Flags().IntVar(&keep, "keep", keep, "archives kept in the object store, the newest; older ones are deleted")
	return cmd
}
