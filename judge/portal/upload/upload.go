// Package upload reads a contestant's upload - source files, or one zip or tar.gz archive of
// them - into a submission's files, under limits, refusing anything that is not a plain
// file with a plain name: links, devices, absolute names, "..", names with control
// characters. Nothing is written to disk; every error says what was wrong, with the HTTP
// status that fits it.
package upload

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"strings"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/files"
)

// Limits bound one upload.
type Limits struct {
	// Bytes bounds the files' contents, names included, uncompressed: the build's source
	// limit.
	Bytes int64
	// Files bounds how many files an upload holds.
	Files int
}

// DefaultFiles is the default of Limits.Files.
const DefaultFiles = 64

func bad(format string, args ...any) error {
	return api.Errorf(api.CodeBadUpload, format, args...)
}

func tooLarge(format string, args ...any) error {
	return api.Errorf(api.CodeTooLarge, format, args...)
}

// Upload is what was uploaded: the files, the language if one was named, and the form's
// CSRF token if it had one (a browser's).
type Upload struct {
	Files map[string][]byte
	Lang  string
	CSRF  string
	// Name is the form's name field (a house bot's), if it had one.
	Name string
}

// collector adds files under the limits.
type collector struct {
	lim   Limits
	files map[string][]byte
	size  int64
}

func newCollector(lim Limits) *collector {
	if lim.Files <= 0 {
		lim.Files = DefaultFiles
	}
	return &collector{lim: lim, files: map[string][]byte{}}
}

// left is how many more bytes of content may come.
func (c *collector) left() int64 { return c.lim.Bytes - c.size }

// add reads one file of name from r.
func (c *collector) add(name string, r io.Reader) error {
	if err := files.CheckName(name); err != nil {
		return bad("%v", err)
	}
	if _, dup := c.files[name]; dup {
		return bad("%q is uploaded twice", name)
	}
	if len(c.files) >= c.lim.Files {
		return tooLarge("more than %d files", c.lim.Files)
	}
	c.size += int64(len(name))
	// One byte past what is left tells a file that is too large from one that fits exactly,
	// without reading the rest: a bomb is cut where the limit is.
	data, err := io.ReadAll(io.LimitReader(r, max(c.left(), 0)+1))
	if err != nil {
		return readErr(fmt.Errorf("%s: %w", name, err))
	}
	c.size += int64(len(data))
	if c.size > c.lim.Bytes {
		return tooLarge("the files are larger than %d bytes (uncompressed)", c.lim.Bytes)
	}
	c.files[name] = data
	return nil
}

func (c *collector) done() (map[string][]byte, error) {
	if len(c.files) == 0 {
		return nil, bad("no files uploaded")
	}
	names := make([]string, 0, len(c.files))
	for n := range c.files {
		names = append(names, n)
	}
	if err := files.CheckNames(names); err != nil {
		return nil, bad("%v", err)
	}
	return stripTop(c.files), nil
}

// stripTop removes a directory every file is in ("bot/main.cpp" and "bot/util.h" become
// "main.cpp" and "util.h"): an archive of a folder is the folder's files.
func stripTop(fs map[string][]byte) map[string][]byte {
	for {
		top := ""
		for name := range fs {
			dir, _, ok := strings.Cut(name, "/")
			if !ok || (top != "" && dir != top) {
				return fs
			}
			top = dir
		}
		out := make(map[string][]byte, len(fs))
		for name, data := range fs {
			out[name[len(top)+1:]] = data
		}
		fs = out
	}
}

// Request reads a multipart upload: one or more "files" parts, or one "archive" part (.zip,
// .tar.gz or .tgz), and an optional "lang" field. The request body should already be
// bounded (http.MaxBytesReader); a file part's name is its file name, without directories
// (browsers send only that).
func Request(r *http.Request, lim Limits) (Upload, error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return Upload{}, bad("want a multipart/form-data upload: %v", err)
	}
	var up Upload
	c := newCollector(lim)
	var archive []byte
	var archiveName string
	for {
		p, err := mr.NextPart()
		if err == io.EOF { // the final boundary; a body cut short wraps io.EOF, and is an error
			break
		}
		if err != nil {
			return Upload{}, readErr(err)
		}
		field, name := p.FormName(), partFileName(p)
		switch {
		case field == "lang" || field == "csrf" || field == "name":
			v, err := io.ReadAll(io.LimitReader(p, 129))
			if err != nil {
				return Upload{}, readErr(err)
			}
			if len(v) > 128 {
				return Upload{}, bad("%s: too long", field)
			}
			switch field {
			case "lang":
				up.Lang = strings.TrimSpace(string(v))
			case "name":
				up.Name = strings.TrimSpace(string(v))
			default:
				up.CSRF = string(v)
			}
		case (field == "files" || field == "archive") && name == "":
			// A browser sends an empty part, with no file name, for a file input left empty.
			if n, _ := io.Copy(io.Discard, io.LimitReader(p, 1)); n > 0 {
				return Upload{}, bad("a file was uploaded without a name")
			}
		case field == "files":
			if err := c.add(name, p); err != nil {
				return Upload{}, readErr(err)
			}
		case field == "archive":
			if archive != nil {
				return Upload{}, bad("one archive only")
			}
			archiveName = name
			// An archive is compressed: its uncompressed contents are what the limits bound,
			// and a compressed stream is at most a little larger than what it holds.
			if archive, err = io.ReadAll(io.LimitReader(p, archiveLimit(lim)+1)); err != nil {
				return Upload{}, readErr(err)
			}
			if int64(len(archive)) > archiveLimit(lim) {
				return Upload{}, tooLarge("the archive is larger than %d bytes", archiveLimit(lim))
			}
		default:
			return Upload{}, bad("unknown field %q (want files, archive or lang)", field)
		}
		p.Close()
	}
	if archive != nil {
		if len(c.files) > 0 {
			return Upload{}, bad("upload files or one archive, not both")
		}
		fs, err := Archive(archiveName, archive, lim)
		up.Files = fs
		return up, err
	}
	up.Files, err = c.done()
	return up, err
}

// archiveLimit bounds an archive's own size: its contents plus room for headers.
func archiveLimit(lim Limits) int64 { return lim.Bytes + 64<<10 }

// partFileName is a part's file name without any directory a client put in it.
func partFileName(p *multipart.Part) string {
	_, params, err := mime.ParseMediaType(p.Header.Get("Content-Disposition"))
	if err != nil {
		return ""
	}
	name := params["filename"]
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// readErr turns a body cut by http.MaxBytesReader into 413.
func readErr(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return tooLarge("the upload is larger than %d bytes", mbe.Limit)
	}
	var ue *api.Error
	if errors.As(err, &ue) {
		return err
	}
	return bad("reading the upload: %v", err)
}

// Archive reads a zip or tar.gz archive (told by its first bytes, not its name).
func Archive(name string, data []byte, lim Limits) (map[string][]byte, error) {
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")), bytes.HasPrefix(data, []byte("PK\x05\x06")):
		return readZip(data, lim)
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		return readTarGz(data, lim)
	}
	return nil, bad("%s: not a zip or tar.gz archive", cmpName(name))
}

func cmpName(name string) string {
	if name == "" {
		return "the archive"
	}
	return fmt.Sprintf("%q", name)
}

func readZip(data []byte, lim Limits) (map[string][]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, bad("the zip archive does not read: %v", err)
	}
	c := newCollector(lim)
	if len(zr.File) > c.lim.Files*4+16 {
		return nil, tooLarge("the archive holds %d entries; at most %d files are allowed", len(zr.File), c.lim.Files)
	}
	for _, f := range zr.File {
		mode := f.Mode()
		switch {
		case mode.IsDir():
			continue
		case !mode.IsRegular(): // a symlink, a device, a pipe
			return nil, bad("%q is not a plain file (%v): links and special files are refused", f.Name, mode.Type())
		}
		name, err := entryName(f.Name)
		if err != nil {
			return nil, err
		}
		rc, err := f.Open()
		if err != nil {
			return nil, bad("%q: %v", f.Name, err)
		}
		err = c.add(name, rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
	}
	return c.done()
}

func readTarGz(data []byte, lim Limits) (map[string][]byte, error) {
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, bad("the tar.gz archive does not read: %v", err)
	}
	c := newCollector(lim)
	// The tar stream is bounded too: headers of empty files cost nothing to compress.
	stream := &io.LimitedReader{R: gz, N: lim.Bytes + int64(c.lim.Files*4+16)*1024 + 64<<10}
	tr := tar.NewReader(stream)
	entries := 0
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if stream.N <= 0 {
				return nil, tooLarge("the archive's contents are larger than allowed")
			}
			return nil, bad("the tar.gz archive does not read: %v", err)
		}
		if entries++; entries > c.lim.Files*4+16 {
			return nil, tooLarge("the archive holds more than %d entries; at most %d files are allowed", entries-1, c.lim.Files)
		}
		switch h.Typeflag {
		case tar.TypeDir, tar.TypeXGlobalHeader:
			continue
		case tar.TypeReg:
		default:
			return nil, bad("%q is not a plain file (tar type %q): links and special files are refused", h.Name, h.Typeflag)
		}
		name, err := entryName(h.Name)
		if err != nil {
			return nil, err
		}
		if err := c.add(name, tr); err != nil {
			return nil, err
		}
	}
	return c.done()
}

// entryName is an archive entry's name as a file name: "./" in front is dropped; an absolute
// name or one that climbs out is refused, not cleaned.
func entryName(name string) (string, error) {
	n := strings.TrimPrefix(name, "./")
	if strings.HasPrefix(n, "/") || path.IsAbs(n) {
		return "", bad("%q: absolute names are refused", name)
	}
	if err := files.CheckName(n); err != nil {
		return "", bad("%v", err)
	}
	return n, nil
}
