package images

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"time"
)

// Images travel between the judges of a cluster through an object store: `judge images
// publish` puts an archive (Export) there and lists it in the store's index; `judge serve`
// with images.source: nats loads the images it lacks from the newest archive that holds them
// (Fetch), and Import checks that each has the publisher's ID.

// IndexKey is the object store's list of the archives published.
const IndexKey = "index.json"

// KeepPublished is how many archives `judge images publish` keeps, the newest: each holds
// the images of a toolchain as it was, a GiB or more, and a daemon loads from the newest that
// has what it lacks.
const KeepPublished = 3

// Published is one archive in the index.
type Published struct {
	Key     string          `json:"key"`
	Images  []ArchivedImage `json:"images"`
	Created time.Time       `json:"created"`
}

// ArchiveKey names an archive by the images it holds.
func ArchiveKey(imgs []ArchivedImage) string {
	refs := make([]string, 0, len(imgs))
	for _, i := range imgs {
		refs = append(refs, i.Ref+"@"+i.ID)
	}
	sort.Strings(refs)
	sum := sha256.Sum256([]byte(strings.Join(refs, "\n")))
	return "archives/" + hex.EncodeToString(sum[:8]) + ".tar"
}

// Objects is the object store's bucket of images (a queue.ObjectCache).
type Objects interface {
	Get(ctx context.Context, key string, w io.Writer) (found bool, err error)
}

// ReadIndex is the index of the archives in the store (none when there is none yet).
func ReadIndex(ctx context.Context, o Objects) ([]Published, error) {
	var buf strings.Builder
	found, err := o.Get(ctx, IndexKey, &buf)
	if err != nil || !found {
		return nil, err
	}
	var index []Published
	if err := json.Unmarshal([]byte(buf.String()), &index); err != nil {
		return nil, fmt.Errorf("the object store's image index: %w", err)
	}
	return index, nil
}

// Newest keeps the archive just published (key) and the keep-1 most recent others of index,
// whatever the clocks of the machines that published them said, and gives the keys of the
// rest.
func Newest(index []Published, key string, keep int) ([]Published, []string) {
	var this Published
	others := slices.DeleteFunc(slices.Clone(index), func(p Published) bool {
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

// Fetch loads the images b's catalog names and the engine lacks from the newest archive in
// the store that holds them all, through a file in scratch, and gives that archive and the
// images it loaded ("" when none was missing).
func (b *Builder) Fetch(ctx context.Context, o Objects, scratch string) (string, Manifest, error) {
	list, err := b.List(ctx)
	if err != nil {
		return "", Manifest{}, err
	}
	var missing []string
	for _, st := range list {
		if st.ID == "" {
			missing = append(missing, st.Ref)
		}
	}
	if len(missing) == 0 {
		return "", Manifest{}, nil
	}
	index, err := ReadIndex(ctx, o)
	if err != nil {
		return "", Manifest{}, err
	}
	sort.SliceStable(index, func(i, j int) bool { return index[i].Created.After(index[j].Created) })
	for _, p := range index {
		holds := map[string]bool{}
		for _, i := range p.Images {
			holds[i.Ref] = true
		}
		if slices.ContainsFunc(missing, func(r string) bool { return !holds[r] }) {
			continue
		}
		f, err := os.CreateTemp(scratch, "fetch-*.tar")
		if err != nil {
			return "", Manifest{}, err
		}
		defer os.Remove(f.Name())
		defer f.Close()
		if _, err := o.Get(ctx, p.Key, f); err != nil {
			return "", Manifest{}, err
		}
		if _, err := f.Seek(0, 0); err != nil {
			return "", Manifest{}, err
		}
		m, err := b.Import(ctx, f, scratch)
		return p.Key, m, err
	}
	return "", Manifest{}, fmt.Errorf("images: %s missing, and no archive in the object store holds them: run `judge images publish` where they are built", strings.Join(missing, ", "))
}
