package images

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestDefaultLine(t *testing.T) {
	for v, want := range map[string]string{
		"17.0.21+9-1~deb12u1": "17.",
		"12.2.0-14+deb12u1":   "12.",
		"2.36-9+deb12u14":     "2.",
		"4:12.2.0-3":          "4:12.",
		"3.2.2+dfsg-20":       "3.",
		"20240729":            "20240729.",
	} {
		if got := DefaultLine(v); got != want {
			t.Errorf("DefaultLine(%q) = %q, want %q", v, got, want)
		}
	}
}

func testLock() Lock {
	var l Lock
	l.Debian.Suite, l.Debian.Variant = "bookworm", "minbase"
	l.Languages = map[string]LangLock{
		"java": {Toolchain: "OpenJDK 17.0.21 (Debian 17.0.21+9-1~deb12u1)",
			CompilePackages: map[string]string{"openjdk-17-jdk-headless": "17.0.21+9-1~deb12u1"},
			RunPackages:     map[string]string{"openjdk-17-jre-headless": "17.0.21+9-1~deb12u1"}},
		"cpp": {Toolchain: "GCC 12.2.0 (Debian 12.2.0-14+deb12u1)",
			CompilePackages: map[string]string{"g++-12": "12.2.0-14+deb12u1", "libc6-dev": "2.36-9+deb12u14"},
			Lines:           map[string]string{"libc6-dev": "2.36-"}},
		"go": {Toolchain: "Go 1.26.8", Go: &GoPin{Version: "go1.26.8", SHA256: strings.Repeat("0", 64)}},
	}
	return l
}

func TestResolve(t *testing.T) {
	ix := Index{
		// The mirror moved on: the pin is gone, a newer one of its line and one of the next
		// major release are served.
		"openjdk-17-jdk-headless": {"18.0.1-1", "17.0.21.1+2-1~deb12u1", "17.0.19+10-1~deb12u2"},
		"openjdk-17-jre-headless": {"17.0.21.1+2-1~deb12u1"},
		"g++-12":                  {"12.2.0-14+deb12u1"},
		// The lock names the line: 2.37 is not in it, and nothing else is.
		"libc6-dev": {"2.37-1"},
	}
	got, changes := Resolve(testLock(), ix)
	want := []Change{
		{Lang: "cpp", Package: "libc6-dev", Pinned: "2.36-9+deb12u14", Served: "", Line: "2.36-"},
		{Lang: "java", Package: "openjdk-17-jdk-headless", Pinned: "17.0.21+9-1~deb12u1", Served: "17.0.21.1+2-1~deb12u1", Line: "17."},
		{Lang: "java", Package: "openjdk-17-jre-headless", Pinned: "17.0.21+9-1~deb12u1", Served: "17.0.21.1+2-1~deb12u1", Line: "17."},
	}
	if !reflect.DeepEqual(changes, want) {
		t.Fatalf("changes:\n%v\nwant\n%v", changes, want)
	}
	if bad := Unresolvable(changes); len(bad) != 1 || bad[0].Package != "libc6-dev" {
		t.Errorf("unresolvable: %v", bad)
	}
	java := got.Languages["java"]
	if java.CompilePackages["openjdk-17-jdk-headless"] != "17.0.21.1+2-1~deb12u1" || java.RunPackages["openjdk-17-jre-headless"] != "17.0.21.1+2-1~deb12u1" {
		t.Errorf("java resolved to %v %v", java.CompilePackages, java.RunPackages)
	}
	if java.Toolchain != "OpenJDK 17.0.21 (Debian 17.0.21.1+2-1~deb12u1)" {
		t.Errorf("toolchain %q", java.Toolchain)
	}
	if cpp := got.Languages["cpp"]; cpp.CompilePackages["g++-12"] != "12.2.0-14+deb12u1" || cpp.CompilePackages["libc6-dev"] != "2.36-9+deb12u14" {
		t.Errorf("cpp resolved to %v: a served pin stays, an unresolvable one too", cpp.CompilePackages)
	}
	if got.Languages["go"].Go.Version != "go1.26.8" {
		t.Error("the Go pin changed")
	}
	// The input is not changed.
	if testLock().Languages["java"].CompilePackages["openjdk-17-jdk-headless"] != "17.0.21+9-1~deb12u1" {
		t.Error("Resolve changed its input")
	}
	if msg := want[1].String(); msg != "java: openjdk-17-jdk-headless 17.0.21+9-1~deb12u1 is no longer served; using 17.0.21.1+2-1~deb12u1" {
		t.Errorf("message %q", msg)
	}
}

// A resolution is read back only for the lock file it was resolved from; WriteLock writes a
// lock file that reads back the same.
func TestResolutionAndWriteLock(t *testing.T) {
	dir := t.TempDir()
	resFile := filepath.Join(dir, "images", "resolved.json")
	lock, data, err := ReadLock("")
	if err != nil {
		t.Fatal(err)
	}
	changes := []Change{{Lang: "cpp", Package: "g++-12", Pinned: "1", Served: "2", Line: "1."}}
	if err := NewResolution(data, lock, changes).Save(resFile); err != nil {
		t.Fatal(err)
	}
	if r := LoadResolution(resFile, data); r == nil || !reflect.DeepEqual(r.Changes, changes) {
		t.Fatalf("the resolution of this lock: %+v", r)
	}
	if r := LoadResolution(resFile, append(data, ' ')); r != nil {
		t.Error("a resolution of another lock file was read")
	}
	if r := LoadResolution(filepath.Join(dir, "none.json"), data); r != nil {
		t.Error("a missing resolution was read")
	}
	out := filepath.Join(dir, "written.json")
	if err := WriteLock(out, lock); err != nil {
		t.Fatal(err)
	}
	back, _, err := ReadLock(out)
	if err != nil || !reflect.DeepEqual(back, lock) {
		t.Errorf("WriteLock/ReadLock: %v", err)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
}

// The packages an image installs are its pins, with what stands in for a pin no longer
// served; other pins and other versions are left alone.
func TestInstalling(t *testing.T) {
	b := &Builder{Changes: []Change{
		{Package: "a", Pinned: "1", Served: "2"},
		{Package: "b", Pinned: "1", Served: ""}, // nothing served: the build will fail on it
		{Package: "c", Pinned: "9", Served: "10"},
	}}
	got := b.installing(map[string]string{"a": "1", "b": "1", "c": "8", "d": "1"})
	if want := map[string]string{"a": "2", "b": "1", "c": "8", "d": "1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("installing %v; want %v", got, want)
	}
}
