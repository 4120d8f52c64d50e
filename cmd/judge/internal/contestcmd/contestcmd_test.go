package contestcmd

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"testing"
)

// The portal's archive of a version's files is written only as regular files at paths inside
// the directory.
func TestUntarStaysInsideTheVersion(t *testing.T) {
	archive := func(headers ...tar.Header) []byte {
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		tw := tar.NewWriter(gz)
		for _, h := range headers {
			h.Size = int64(len(h.Name))
			if h.Typeflag != tar.TypeReg {
				h.Size = 0
			}
			h.Mode = 0o644
			tw.WriteHeader(&h)
			tw.Write([]byte(h.Name)[:h.Size])
		}
		tw.Close()
		gz.Close()
		return buf.Bytes()
	}
	for _, tc := range []struct {
		name string
		data []byte
		ok   bool
	}{
		{"plain files", archive(tar.Header{Name: "bot.cpp", Typeflag: tar.TypeReg}, tar.Header{Name: "util.h", Typeflag: tar.TypeReg}), true},
		{"a path up", archive(tar.Header{Name: "../bot.cpp", Typeflag: tar.TypeReg}), false},
		{"a folder", archive(tar.Header{Name: "bot.cpp", Typeflag: tar.TypeReg}, tar.Header{Name: "src/util.h", Typeflag: tar.TypeReg}), true},
		{"a path that leaves and comes back", archive(tar.Header{Name: "src/../../bot.cpp", Typeflag: tar.TypeReg}), false},
		{"an absolute path", archive(tar.Header{Name: "/etc/passwd", Typeflag: tar.TypeReg}), false},
		{"a link", archive(tar.Header{Name: "bot.cpp", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}), false},
		{"a name twice", archive(tar.Header{Name: "bot.cpp", Typeflag: tar.TypeReg}, tar.Header{Name: "bot.cpp", Typeflag: tar.TypeReg}), false},
		{"not an archive", []byte("<html>a proxy's error page</html>"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files, err := untar(bytes.NewReader(tc.data))
			if (err == nil) != tc.ok {
				t.Errorf("%v %v, want ok %v", files, err, tc.ok)
			}
			if tc.ok && string(files["bot.cpp"]) != "bot.cpp" {
				t.Errorf("the file's content: %q", files["bot.cpp"])
			}
		})
	}
}
