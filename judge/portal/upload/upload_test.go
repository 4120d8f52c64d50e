package upload

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/api"
)

var lim = Limits{Bytes: 1 << 20, Files: 64}

type entry struct {
	name string
	data string
	typ  byte // tar type; 0 is a regular file
	link string
}

func tarGz(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.data)), Typeflag: e.typ, Linkname: e.link}
		if e.typ == 0 {
			h.Typeflag = tar.TypeReg
		}
		if h.Typeflag != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write([]byte(e.data))
		}
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

func zipOf(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		switch e.typ {
		case tar.TypeSymlink:
			h.SetMode(0o777 | 1<<27) // fs.ModeSymlink
		default:
			h.SetMode(0o644)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e.data))
	}
	zw.Close()
	return buf.Bytes()
}

func TestArchives(t *testing.T) {
	main := entry{name: "bot/main.cpp", data: "int main(){}"}
	util := entry{name: "bot/util.h", data: "#pragma once"}
	for _, mk := range []struct {
		kind string
		make func(*testing.T, ...entry) []byte
	}{{"tar.gz", tarGz}, {"zip", zipOf}} {
		t.Run(mk.kind, func(t *testing.T) {
			got, err := Archive("bot."+mk.kind, mk.make(t, main, util), lim)
			if err != nil || len(got) != 2 || string(got["main.cpp"]) != "int main(){}" || string(got["util.h"]) != "#pragma once" {
				t.Fatalf("a folder's archive: %v %v", got, err)
			}
		})
	}
}

// Every hostile archive is a 4xx naming what is wrong; nothing else happens (there is no
// disk to write to: the files are only in memory).
func TestHostileArchives(t *testing.T) {
	big := strings.Repeat("\x00", 2<<20) // compresses to a few KiB
	many := make([]entry, 300)
	for i := range many {
		many[i] = entry{name: fmt.Sprintf("f%d.cpp", i)}
	}
	some := many[:100] // past the 64 files allowed, short of the entries an archive may hold
	for _, tc := range []struct {
		name    string
		data    func(t *testing.T) []byte
		status  int
		mention string
	}{
		{"tar climbs out", func(t *testing.T) []byte { return tarGz(t, entry{name: "../../etc/x.cpp", data: "x"}) }, 400, ".."},
		{"tar absolute", func(t *testing.T) []byte { return tarGz(t, entry{name: "/etc/passwd", data: "x"}) }, 400, "absolute"},
		{"tar symlink", func(t *testing.T) []byte {
			return tarGz(t, entry{name: "a.cpp", typ: tar.TypeSymlink, link: "/etc/shadow"})
		}, 400, "not a plain file"},
		{"tar hard link", func(t *testing.T) []byte {
			return tarGz(t, entry{name: "a.cpp", data: "x"}, entry{name: "b.cpp", typ: tar.TypeLink, link: "a.cpp"})
		}, 400, "not a plain file"},
		{"tar device", func(t *testing.T) []byte { return tarGz(t, entry{name: "null", typ: tar.TypeChar}) }, 400, "not a plain file"},
		{"tar bomb", func(t *testing.T) []byte { return tarGz(t, entry{name: "a.cpp", data: big}) }, 413, "larger than"},
		{"tar many files", func(t *testing.T) []byte { return tarGz(t, many...) }, 413, "files"},
		{"tar 100 files", func(t *testing.T) []byte { return tarGz(t, some...) }, 413, "more than 64 files"},
		{"zip 100 files", func(t *testing.T) []byte { return zipOf(t, some...) }, 413, "more than 64 files"},
		{"zip NUL in a name", func(t *testing.T) []byte { return zipOf(t, entry{name: "a\x00b.cpp", data: "x"}) }, 400, "bad file name"},
		{"tar control character", func(t *testing.T) []byte { return tarGz(t, entry{name: "a\x1b[31m.cpp", data: "x"}) }, 400, "bad file name"},
		{"zip climbs out", func(t *testing.T) []byte { return zipOf(t, entry{name: "../x.cpp", data: "x"}) }, 400, ".."},
		{"zip absolute", func(t *testing.T) []byte { return zipOf(t, entry{name: "/tmp/x.cpp", data: "x"}) }, 400, "absolute"},
		{"zip symlink", func(t *testing.T) []byte {
			return zipOf(t, entry{name: "a.cpp", data: "/etc/shadow", typ: tar.TypeSymlink})
		}, 400, "not a plain file"},
		{"zip bomb", func(t *testing.T) []byte { return zipOf(t, entry{name: "a.cpp", data: big}) }, 413, "larger than"},
		{"zip many files", func(t *testing.T) []byte { return zipOf(t, many...) }, 413, "files"},
		{"zip twice the same name", func(t *testing.T) []byte {
			return zipOf(t, entry{name: "a.cpp", data: "x"}, entry{name: "a.cpp", data: "y"})
		}, 400, "twice"},
		{"not an archive", func(*testing.T) []byte { return []byte("int main(){}") }, 400, "not a zip or tar.gz"},
		{"empty", func(t *testing.T) []byte { return tarGz(t) }, 400, "no files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Archive("x", tc.data(t), lim)
			var ue *api.Error
			if !errors.As(err, &ue) || ue.Status != tc.status || !strings.Contains(ue.Message, tc.mention) {
				t.Errorf("%v; want %d mentioning %q", err, tc.status, tc.mention)
			}
		})
	}
}

// A zip whose header lies about its size is cut at the limit all the same.
func TestZipThatLiesAboutItsSize(t *testing.T) {
	data := zipOf(t, entry{name: "a.cpp", data: strings.Repeat("a", 2<<20)})
	// Rewrite the declared uncompressed sizes (local and central headers) to 10 bytes.
	i := bytes.Index(data, []byte("PK\x01\x02"))
	for _, off := range []int{22, i + 24} {
		copy(data[off:off+4], []byte{10, 0, 0, 0})
	}
	_, err := Archive("x.zip", data, lim)
	var ue *api.Error
	if !errors.As(err, &ue) || ue.Status/100 != 4 {
		t.Errorf("%v; want a 4xx", err)
	}
}

func multipartRequest(t *testing.T, parts func(*multipart.Writer)) *http.Request {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	parts(mw)
	mw.Close()
	r := httptest.NewRequest("POST", "/", &buf)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	return r
}

func TestRequest(t *testing.T) {
	r := multipartRequest(t, func(mw *multipart.Writer) {
		w, _ := mw.CreateFormFile("files", `C:\bots\main.cpp`)
		io.WriteString(w, "int main(){}")
		w, _ = mw.CreateFormFile("files", "util.h")
		io.WriteString(w, "#pragma once")
		mw.WriteField("lang", "cpp")
	})
	up, err := Request(r, lim)
	if err != nil || up.Lang != "cpp" || len(up.Files) != 2 || string(up.Files["main.cpp"]) != "int main(){}" {
		t.Fatalf("%+v %v", up, err)
	}
	r = multipartRequest(t, func(mw *multipart.Writer) {
		w, _ := mw.CreateFormFile("archive", "bot.tar.gz")
		w.Write(tarGz(t, entry{name: "main.cpp", data: "int main(){}"}))
	})
	if up, err := Request(r, lim); err != nil || len(up.Files) != 1 {
		t.Fatalf("an archive: %+v %v", up, err)
	}
	for _, tc := range []struct {
		name    string
		parts   func(*multipart.Writer)
		status  int
		mention string
	}{
		{"files and an archive", func(mw *multipart.Writer) {
			w, _ := mw.CreateFormFile("files", "a.cpp")
			io.WriteString(w, "x")
			w, _ = mw.CreateFormFile("archive", "b.tar.gz")
			w.Write(tarGz(t, entry{name: "b.cpp", data: "x"}))
		}, 400, "not both"},
		{"a file too large", func(mw *multipart.Writer) {
			w, _ := mw.CreateFormFile("files", "a.cpp")
			w.Write(make([]byte, 1<<20+1))
		}, 413, "larger than"},
		{"an unknown field", func(mw *multipart.Writer) { mw.WriteField("evil", "1") }, 400, "unknown field"},
		{"nothing", func(mw *multipart.Writer) { mw.WriteField("lang", "cpp") }, 400, "no files"},
		{"a name that is a path", func(mw *multipart.Writer) {
			w, _ := mw.CreateFormFile("files", "..")
			io.WriteString(w, "x")
		}, 400, "bad file name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Request(multipartRequest(t, tc.parts), lim)
			var ue *api.Error
			if !errors.As(err, &ue) || ue.Status != tc.status || !strings.Contains(ue.Message, tc.mention) {
				t.Errorf("%v; want %d mentioning %q", err, tc.status, tc.mention)
			}
		})
	}
}

// A body cut by http.MaxBytesReader is 413, not 400.
func TestRequestOverTheBodyLimit(t *testing.T) {
	r := multipartRequest(t, func(mw *multipart.Writer) {
		w, _ := mw.CreateFormFile("files", "a.cpp")
		w.Write(make([]byte, 4096))
	})
	r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 1000)
	_, err := Request(r, lim)
	var ue *api.Error
	if !errors.As(err, &ue) || ue.Status != 413 {
		t.Errorf("%v; want 413", err)
	}
}

func FuzzArchive(f *testing.F) {
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte{0x1f, 0x8b, 8, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		fs, err := Archive("x", data, Limits{Bytes: 4096, Files: 8})
		if err != nil {
			var ue *api.Error
			if !errors.As(err, &ue) || ue.Status/100 != 4 {
				t.Fatalf("not a 4xx: %v", err)
			}
			return
		}
		var size int
		for name, d := range fs {
			size += len(name) + len(d)
		}
		if size > 4096 || len(fs) > 8 {
			t.Fatalf("past the limits: %d bytes, %d files", size, len(fs))
		}
	})
}

// A body that ends between two parts, with no final boundary, is an error, not an upload of
// the parts that came.
func TestRequestCutShort(t *testing.T) {
	r := multipartRequest(t, func(mw *multipart.Writer) {
		for _, n := range []string{"a.cpp", "b.cpp"} {
			w, _ := mw.CreateFormFile("files", n)
			io.WriteString(w, "int main(){}")
		}
	})
	body, _ := io.ReadAll(r.Body)
	cut := body[:bytes.LastIndex(body, []byte("--"+strings.TrimPrefix(r.Header.Get("Content-Type"), "multipart/form-data; boundary=")))]
	r.Body = io.NopCloser(bytes.NewReader(cut))
	if up, err := Request(r, lim); err == nil {
		t.Errorf("a body cut short was taken: %d files", len(up.Files))
	}
}

// A browser's form sends an empty part for a file input left empty: it is no file.
func TestRequestWithAnEmptyFileInput(t *testing.T) {
	r := multipartRequest(t, func(mw *multipart.Writer) {
		mw.WriteField("csrf", "token")
		w, _ := mw.CreateFormFile("files", "main.cpp")
		io.WriteString(w, "int main(){}")
		mw.CreateFormFile("archive", "")
		mw.WriteField("lang", "")
	})
	up, err := Request(r, lim)
	if err != nil || len(up.Files) != 1 || up.CSRF != "token" {
		t.Errorf("%+v %v", up, err)
	}
}
