package main

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// judgeIn runs the CLI in this process with data directory dir, and returns what it printed.
func judgeIn(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	root := newRoot()
	root.SetOut(&out)
	root.SetArgs(append([]string{"--data-dir", dir}, args...))
	err := root.ExecuteContext(context.Background())
	return out.String(), err
}

// A lock whose Java pins the mirror no longer serves (a made-up version): the build follows
// their line to what the mirror serves and records it; strict refuses, naming the package,
// the pin and the served version; check reports both ways; --update-lock rewrites the lock
// file; the images list names the toolchain as read from the image. Real engine, real mirror.
func TestAPinTheMirrorNoLongerServes(t *testing.T) {
	sandboxtest.Engine(t)
	const gone = "17.0.21+9-1~deb12u0"
	lock, _, err := images.ReadLock("")
	if err != nil {
		t.Fatal(err)
	}
	java := lock.Languages["java"]
	java.CompilePackages = map[string]string{"openjdk-17-jdk-headless": gone}
	java.RunPackages = map[string]string{"openjdk-17-jre-headless": gone}
	lock.Languages["java"] = java
	lockFile := filepath.Join(t.TempDir(), "lock.json")
	if err := images.WriteLock(lockFile, lock); err != nil {
		t.Fatal(err)
	}
	t.Setenv("JUDGE_IMAGES_LOCK", lockFile)
	ix, err := images.FetchFor(context.Background(), images.Sources{DebianMirror: "http://deb.debian.org/debian", SecurityMirror: "http://deb.debian.org/debian-security"}, lock)
	if err != nil {
		t.Fatal(err)
	}
	served, ok := ix.Newest("openjdk-17-jdk-headless", "17.")
	if !ok {
		t.Fatal("the mirror serves no openjdk-17-jdk-headless")
	}
	dataDir := t.TempDir()
	run := func(args ...string) (string, error) { return judgeIn(t, dataDir, args...) }

	// What the base image was built with, as its build records it: one package the mirror
	// still serves, one it has moved past.
	dpkg, _ := ix.Newest("dpkg", "")
	cat, err := images.Load(lockFile)
	if err != nil {
		t.Fatal(err)
	}
	base := (&images.Builder{StateDir: filepath.Join(dataDir, "images")}).BasePackagesFile(cat.Base.Ref("judge"))
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base, []byte("dpkg "+dpkg+"\nlibc6 2.36-0+fake1\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// check: a warning, not an error, naming what the build will use.
	out, err := run("images", "check")
	pinLine := regexp.MustCompile(`openjdk-17-jdk-headless +` + regexp.QuoteMeta(gone) + ` `)
	if err != nil || !pinLine.MatchString(out) || !strings.Contains(out, "NO LONGER SERVED: the build will use "+served) {
		t.Fatalf("images check: %v\n%s", err, out)
	}
	if !strings.Contains(out, "base: 2 packages installed by debootstrap; 1 no longer served at that version") || !strings.Contains(out, "libc6 2.36-0+fake1 (served: ") {
		t.Errorf("images check on the base:\n%s", out)
	}
	var report struct {
		Changes []images.Change `json:"changes"`
	}
	out, err = run("images", "check", "--json")
	if err != nil || json.Unmarshal([]byte(out), &report) != nil || len(report.Changes) != 2 {
		t.Fatalf("images check --json: %v\n%s", err, out)
	}
	want := images.Change{Lang: "java", Package: "openjdk-17-jdk-headless", Pinned: gone, Served: served, Line: "17."}
	if report.Changes[0] != want {
		t.Errorf("check's change %+v; want %+v", report.Changes[0], want)
	}
	// check --strict and build --strict fail, naming package, pin and served version.
	for _, args := range [][]string{{"images", "check", "--strict"}, {"images", "build", "--lang", "java", "--strict"}} {
		if _, err := run(args...); err == nil || !strings.Contains(err.Error(), "openjdk-17-jdk-headless "+gone+" -> "+served) {
			t.Errorf("%v: %v; want the pin named with the served version", args, err)
		}
	}

	// build: follows the line, says what it installed (image label, toolchain), records the
	// resolution in the data directory. The image keeps the tag of the lock's pins.
	if _, err := run("images", "build", "--lang", "java"); err != nil {
		t.Fatalf("images build: %v", err)
	}
	jl, _ := images.LangByName("java")
	for _, r := range []*images.Recipe{cat.Compile(jl), cat.Run(jl)} {
		ref := r.Ref("judge")
		t.Cleanup(func() { exec.Command("docker", "rmi", ref).Run() })
	}
	_, data, _ := images.ReadLock(lockFile)
	r := images.LoadResolution(filepath.Join(dataDir, "images", "resolved.json"), data)
	if r == nil || len(r.Changes) != 2 || r.Changes[0] != want {
		t.Fatalf("the resolution: %+v", r)
	}
	out, err = run("images", "list", "--json")
	var rows []struct {
		Lang, Toolchain string
		CompileID       string `json:"compile_id"`
	}
	if err != nil || json.Unmarshal([]byte(out[:strings.LastIndex(out, "]")+1]), &rows) != nil {
		t.Fatalf("images list: %v\n%s", err, out)
	}
	for _, row := range rows {
		if row.Lang == "java" && (row.CompileID == "" || !strings.Contains(row.Toolchain, "(Debian "+served+")")) {
			t.Errorf("java in the list: %+v; want the image present and naming Debian %s", row, served)
		}
	}
	// Strict refuses the images built so, even though they exist now.
	if _, err := run("images", "build", "--lang", "java", "--strict"); err == nil || !strings.Contains(err.Error(), "openjdk-17-jdk-headless "+gone+" -> "+served) {
		t.Errorf("build --strict over drifted images: %v", err)
	}

	// --update-lock writes the resolution over the lock file.
	if _, err := run("images", "build", "--lang", "java", "--update-lock"); err != nil {
		t.Fatal(err)
	}
	updated, _, err := images.ReadLock(lockFile)
	if err != nil || updated.Languages["java"].CompilePackages["openjdk-17-jdk-headless"] != served {
		t.Errorf("the updated lock: %+v %v", updated.Languages["java"], err)
	}
	if out, err := run("images", "check", "--strict"); err != nil {
		t.Errorf("check --strict on the updated lock: %v\n%s", err, out)
	}
}

// The exact images travel: export -> remove them from the engine -> import gives the very same
// IDs, and a match plays. A damaged archive is refused before anything is loaded.
func TestExportImportGivesTheSameImages(t *testing.T) {
	sandboxtest.Alone(t, "it removes images every judge on the engine uses")
	sandboxtest.Engine(t)
	dataDir := sandboxtest.DataDir()
	dir := t.TempDir()
	archive := filepath.Join(dir, "cpp.tar")
	if out, err := judgeIn(t, dataDir, "images", "export", "--lang", "cpp", archive); err != nil {
		t.Fatalf("export: %v\n%s", err, out)
	}
	ids := cppImages(t)

	// Damaged: one byte of images.tar changed, the manifest kept.
	damaged := filepath.Join(dir, "damaged.tar")
	rewriteArchive(t, archive, damaged, func(name string, data []byte) []byte {
		if name == "images.tar" {
			data[len(data)/2] ^= 1
		}
		return data
	})
	if _, err := judgeIn(t, dataDir, "images", "import", damaged); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("a damaged archive: %v; want it refused as damaged", err)
	}

	removeImages(t, ids)
	if out, err := judgeIn(t, dataDir, "images", "import", archive); err != nil || !strings.Contains(out, "every ID as exported") {
		t.Fatalf("import: %v\n%s", err, out)
	}
	for ref, id := range ids {
		out, err := exec.Command("docker", "image", "inspect", "--format", "{{.Id}}", ref).Output()
		if got := strings.TrimSpace(string(out)); err != nil || got != id {
			t.Errorf("%s: ID %q after import; want %s", ref, got, id)
		}
	}
	root := sandboxtest.Root()
	out, err := judgeIn(t, dataDir, "play", "--game", "amazes", "--seed", "4", "--opt", "turns=10", "--json",
		filepath.Join(root, "bots/amazes/cpp"), filepath.Join(root, "bots/amazes/cpp"))
	if err != nil || !strings.Contains(out, `"status":"ok"`) {
		t.Errorf("a match on the imported images: %v\n%s", err, out)
	}
}

// cppImages are the C++ language's images (base, compile, run), by ref, with their IDs.
func cppImages(t *testing.T) map[string]string {
	t.Helper()
	cat, err := images.Load("")
	if err != nil {
		t.Fatal(err)
	}
	cpp, _ := images.LangByName("cpp")
	ids := map[string]string{}
	for _, r := range []*images.Recipe{cat.Base, cat.Compile(cpp), cat.Run(cpp)} {
		ref := r.Ref("judge")
		out, err := exec.Command("docker", "image", "inspect", "--format", "{{.Id}}", ref).Output()
		if err != nil {
			t.Fatal(err)
		}
		ids[ref] = strings.TrimSpace(string(out))
	}
	return ids
}

// removeImages removes the images from the engine (their tags, where other images build on
// them).
func removeImages(t *testing.T, ids map[string]string) {
	t.Helper()
	for ref := range ids {
		if out, err := exec.Command("docker", "rmi", ref).CombinedOutput(); err != nil {
			t.Fatalf("removing %s: %v %s", ref, err, out)
		}
	}
}

// rewriteArchive copies the tar src to dst, passing each file's content through edit.
func rewriteArchive(t *testing.T, src, dst string, edit func(name string, data []byte) []byte) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	tr, tw := tar.NewReader(in), tar.NewWriter(out)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		data = edit(hdr.Name, data)
		hdr.Size = int64(len(data))
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		tw.Write(data)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
}
