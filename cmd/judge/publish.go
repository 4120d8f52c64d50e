package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/queue"
)

// Images travel between the judges of a cluster through the object store: `judge images
// publish` puts an archive (images.Builder.Export) there and lists it in the bucket's index;
// `judge serve` with images.source: nats loads the images it lacks from an archive that holds
// them, and images.Builder.Import checks that each has the publisher's ID.

// indexKey is the bucket's list of the archives published.
const indexKey = "index.json"

// published is one archive in the index.
type published struct {
	Key     string                 `json:"key"`
	Images  []images.ArchivedImage `json:"images"`
	Created time.Time              `json:"created"`
}

// keepPublished is how many archives `judge images publish` keeps, the newest: each holds the
// images of a toolchain as it was, a GiB or more, and a daemon loads from the newest that has
// what it lacks.
const keepPublished = 3

func (a *app) publishCmd() *cobra.Command {
	var langs []string
	keep := keepPublished
	cmd := &cobra.Command{
		Use:   "publish",
		Short: "Put the exact images (all, or --lang's) in the object store, for daemons with images.source: nats",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkLangs("--lang", langs...); err != nil {
				return err
			}
			if keep < 1 {
				return usageError{fmt.Errorf("--keep: must be at least 1, the archive this publishes (got %d)", keep)}
			}
			ctx := cmd.Context()
			b, err := a.imageBuilder(ctx)
			if err != nil {
				return err
			}
			q, err := a.queue(ctx, work)
			if err != nil {
				return err
			}
			defer q.Close()
			start := time.Now()
			if err := os.MkdirAll(a.cfg.DataDir, 0o755); err != nil {
				return err
			}
			f, err := os.CreateTemp(a.cfg.DataDir, "publish-*.tar")
			if err != nil {
				return err
			}
			defer os.Remove(f.Name())
			defer f.Close()
			m, err := b.Export(ctx, f, a.cfg.DataDir, langs...)
			if err != nil {
				return err
			}
			if _, err := f.Seek(0, 0); err != nil {
				return err
			}
			key := archiveKey(m.Images)
			if err := q.PutObject(ctx, queue.BucketImages, key, f); err != nil {
				return err
			}
			index, err := readIndex(ctx, q)
			if err != nil {
				return err
			}
			index = append(index, published{Key: key, Images: m.Images, Created: m.Created})
			index, dropped := newest(index, key, keep)
			data, err := json.MarshalIndent(index, "", "  ")
			if err != nil {
				return err
			}
			// The index goes first: no daemon picks an archive about to be deleted.
			if err := q.PutObject(ctx, queue.BucketImages, indexKey, bytes.NewReader(data)); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "published %d images as %s in %.1f s\n", len(m.Images), key, time.Since(start).Seconds())
			if len(dropped) == 0 {
				return nil
			}
			gone, err := q.DeleteObjects(ctx, queue.BucketImages, dropped...)
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

// newest keeps the archive just published (key) and the keep-1 most recent others of index,
// and gives the keys of the rest.
func newest(index []published, key string, keep int) ([]published, []string) {
	var this published
	others := slices.DeleteFunc(slices.Clone(index), func(p published) bool {
		if p.Key == key {
			this = p
			return true
		}
		return false
	})
	sort.SliceStable(others, func(i, j int) bool { return others[i].Created.After(others[j].Created) })
	n := min(max(keep-1, 0), len(others))
	var dropped []string
	for _, p := range others[n:] {
		dropped = append(dropped, p.Key)
	}
	return append(others[:n:n], this), dropped
}

// archiveKey names an archive by the images it holds.
func archiveKey(imgs []images.ArchivedImage) string {
	refs := make([]string, 0, len(imgs))
	for _, i := range imgs {
		refs = append(refs, i.Ref+"@"+i.ID)
	}
	sort.Strings(refs)
	sum := sha256.Sum256([]byte(strings.Join(refs, "\n")))
	return "archives/" + hex.EncodeToString(sum[:8]) + ".tar"
}

func readIndex(ctx context.Context, q *queue.Queue) ([]published, error) {
	var buf bytes.Buffer
	found, err := q.GetObject(ctx, queue.BucketImages, indexKey, &buf)
	if err != nil || !found {
		return nil, err
	}
	var index []published
	if err := json.Unmarshal(buf.Bytes(), &index); err != nil {
		return nil, fmt.Errorf("the object store's image index: %w", err)
	}
	return index, nil
}

// fetchImages loads the images b's catalog names and the engine lacks from the newest archive
// in the object store that holds them all. Nothing is fetched when none is missing.
func (a *app) fetchImages(ctx context.Context, q *queue.Queue, b *images.Builder) error {
	list, err := b.List(ctx)
	if err != nil {
		return err
	}
	var missing []string
	for _, st := range list {
		if st.ID == "" {
			missing = append(missing, st.Ref)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	index, err := readIndex(ctx, q)
	if err != nil {
		return err
	}
	sort.SliceStable(index, func(i, j int) bool { return index[i].Created.After(index[j].Created) })
	for _, p := range index {
		holds := map[string]bool{}
		for _, i := range p.Images {
			holds[i.Ref] = true
		}
		if !allIn(missing, holds) {
			continue
		}
		start := time.Now()
		f, err := os.CreateTemp(a.cfg.DataDir, "fetch-*.tar")
		if err != nil {
			return err
		}
		defer os.Remove(f.Name())
		defer f.Close()
		if _, err := q.GetObject(ctx, queue.BucketImages, p.Key, f); err != nil {
			return err
		}
		if _, err := f.Seek(0, 0); err != nil {
			return err
		}
		m, err := b.Import(ctx, f, a.cfg.DataDir)
		if err != nil {
			return err
		}
		a.log.Info("loaded images from the object store", "archive", p.Key, "images", len(m.Images), "seconds", time.Since(start).Seconds())
		return nil
	}
	return fmt.Errorf("images: %s missing, and no archive in the object store holds them: run `judge images publish` where they are built", strings.Join(missing, ", "))
}

func allIn(refs []string, set map[string]bool) bool {
	for _, r := range refs {
		if !set[r] {
			return false
		}
	}
	return true
}
