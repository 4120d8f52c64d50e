package images

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Images built from Debian's packages are not reproducible: two machines building on
// different days get different image IDs, and builds shared between them (the artifact cache
// is keyed by the compile image's ID) would not be. An archive carries the exact images to
// another engine.
//
// An archive is a tar of three files: manifest.json (Manifest), SHA256SUMS (the digest of
// images.tar, in sha256sum's layout) and images.tar (the engine's save of the images).

// ArchiveFormat is the version of the archive layout this judge writes and reads.
const ArchiveFormat = 1

// Manifest describes an archive of images.
type Manifest struct {
	Format  int             `json:"format"`
	Created time.Time       `json:"created"`
	Images  []ArchivedImage `json:"images"`
	// SHA256 is the digest of images.tar.
	SHA256 string `json:"sha256"`
}

// ArchivedImage is one image of an archive.
type ArchivedImage struct {
	Name string `json:"name"`
	Ref  string `json:"ref"`
	ID   string `json:"id"`
}

// Transfer is what moving images between engines needs from one.
type Transfer interface {
	SaveImages(ctx context.Context, refs []string, w io.Writer) error
	LoadImages(ctx context.Context, r io.Reader) error
}

// Export writes the images of the languages named (all when none) to w as an archive. Every
// image must exist. Scratch is a directory for the engine's save while it is digested.
func (b *Builder) Export(ctx context.Context, w io.Writer, scratch string, names ...string) (Manifest, error) {
	t, ok := b.Engine.(Transfer)
	if !ok {
		return Manifest{}, errors.New("images: this engine cannot save images")
	}
	list, err := b.List(ctx, names...)
	if err != nil {
		return Manifest{}, err
	}
	m := Manifest{Format: ArchiveFormat, Created: time.Now().UTC()}
	var refs []string
	for _, st := range list {
		if st.ID == "" {
			return Manifest{}, fmt.Errorf("images: %s is missing: run `judge images build` first", st.Ref)
		}
		refs = append(refs, st.Ref)
		m.Images = append(m.Images, ArchivedImage{Name: st.Recipe.Name, Ref: st.Ref, ID: st.ID})
	}
	tmp, err := os.CreateTemp(scratch, "images-*.tar")
	if err != nil {
		return Manifest{}, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	h := sha256.New()
	if err := t.SaveImages(ctx, refs, io.MultiWriter(tmp, h)); err != nil {
		return Manifest{}, err
	}
	m.SHA256 = hex.EncodeToString(h.Sum(nil))
	size, err := tmp.Seek(0, io.SeekCurrent)
	if err != nil {
		return Manifest{}, err
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return Manifest{}, err
	}
	manifest, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return Manifest{}, err
	}
	tw := tar.NewWriter(w)
	if err := writeFile(tw, "manifest.json", 0o644, append(manifest, '\n')); err != nil {
		return Manifest{}, err
	}
	if err := writeFile(tw, "SHA256SUMS", 0o644, []byte(m.SHA256+"  images.tar\n")); err != nil {
		return Manifest{}, err
	}
	if err := tw.WriteHeader(&tar.Header{Name: "images.tar", Mode: 0o644, Size: size, Typeflag: tar.TypeReg, ModTime: m.Created}); err != nil {
		return Manifest{}, err
	}
	if _, err := io.Copy(tw, tmp); err != nil {
		return Manifest{}, err
	}
	return m, tw.Close()
}

// Import loads an archive written by Export into the engine, after checking images.tar
// against its digest, and then checks that every image has the ID the archive names: the very
// images the exporting judge had.
func (b *Builder) Import(ctx context.Context, r io.Reader, scratch string) (Manifest, error) {
	t, ok := b.Engine.(Transfer)
	if !ok {
		return Manifest{}, errors.New("images: this engine cannot load images")
	}
	var m Manifest
	var sums string
	tmp, err := os.CreateTemp(scratch, "images-*.tar")
	if err != nil {
		return Manifest{}, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	got := ""
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Manifest{}, fmt.Errorf("images: reading the archive: %w", err)
		}
		switch hdr.Name {
		case "manifest.json":
			data, err := io.ReadAll(io.LimitReader(tr, 1<<20))
			if err != nil {
				return Manifest{}, err
			}
			if err := json.Unmarshal(data, &m); err != nil {
				return Manifest{}, fmt.Errorf("images: the archive's manifest: %w", err)
			}
		case "SHA256SUMS":
			data, err := io.ReadAll(io.LimitReader(tr, 1<<10))
			if err != nil {
				return Manifest{}, err
			}
			sums = string(data)
		case "images.tar":
			h := sha256.New()
			if _, err := io.Copy(io.MultiWriter(tmp, h), tr); err != nil {
				return Manifest{}, fmt.Errorf("images: reading the archive: %w", err)
			}
			got = hex.EncodeToString(h.Sum(nil))
		default:
			return Manifest{}, fmt.Errorf("images: the archive holds %q, which is not part of its layout", hdr.Name)
		}
	}
	switch {
	case m.Format != ArchiveFormat:
		return Manifest{}, fmt.Errorf("images: the archive's format is %d; this judge reads %d", m.Format, ArchiveFormat)
	case got == "":
		return Manifest{}, errors.New("images: the archive holds no images.tar")
	case got != m.SHA256 || !strings.HasPrefix(sums, got+"  images.tar"):
		return Manifest{}, fmt.Errorf("images: images.tar has SHA-256 %s, but the archive names %s: it is damaged", got, m.SHA256)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return Manifest{}, err
	}
	if err := t.LoadImages(ctx, tmp); err != nil {
		return Manifest{}, err
	}
	for _, img := range m.Images {
		id, err := b.Engine.ImageID(ctx, img.Ref)
		if err != nil {
			return m, err
		}
		if id != img.ID {
			return m, fmt.Errorf("images: after loading, %s has ID %q, but the archive names %s", img.Ref, id, img.ID)
		}
	}
	return m, nil
}
