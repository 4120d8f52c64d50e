package images

import (
	"archive/tar"
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Engine is what building images needs from a container engine. The sandbox package
// implements it.
type Engine interface {
	// ImageID returns the ID of the image ref, or "" when the engine does not have it.
	ImageID(ctx context.Context, ref string) (string, error)
	// ImportImage creates the image ref from a root file system given as a tar stream.
	ImportImage(ctx context.Context, rootfs io.Reader, ref string, labels map[string]string) (string, error)
	// BuildImage builds a Dockerfile from a build context given as a tar stream.
	BuildImage(ctx context.Context, buildContext io.Reader, o BuildOptions) (string, error)
	// ReadImageFile reads a file of an image without running it.
	ReadImageFile(ctx context.Context, ref, path string) ([]byte, error)
	// ImageLabels returns the labels of image ref.
	ImageLabels(ctx context.Context, ref string) (map[string]string, error)
}

// ToolchainFile is where a compile image names its toolchain, as its recipe read it from the
// installed compiler ("GCC 12.2.0 (Debian 12.2.0-14+deb12u1)").
const ToolchainFile = "/judge/toolchain"

// Toolchain is the toolchain the compile image ref names in ToolchainFile, or "" when it names
// none (an image built before images did).
func (b *Builder) Toolchain(ctx context.Context, ref string) string {
	data, err := b.Engine.ReadImageFile(ctx, ref, ToolchainFile)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

// BuildOptions are the parameters of one Dockerfile build.
type BuildOptions struct {
	Ref        string
	Dockerfile string
	Args       map[string]string
	Labels     map[string]string
	// Log receives the build's output lines.
	Log io.Writer
}

// Sources are the places toolchains are fetched from while images are built. The tagged
// fields are keys of the configuration's images section.
type Sources struct {
	DebianMirror   string `mapstructure:"debian_mirror"`
	SecurityMirror string `mapstructure:"security_mirror"`
	// GoProxy serves the pinned Go toolchain; in configuration, empty means the first
	// entry of GOPROXY.
	GoProxy string `mapstructure:"go_proxy"`
	// Downloads caches fetched toolchains (the Go zip) between builds; it is under the data
	// directory, not a key of its own.
	Downloads string `mapstructure:"-"`
}

// Builder builds the images of a Catalog that the engine lacks.
type Builder struct {
	Engine  Engine
	Catalog *Catalog
	Prefix  string
	Sources Sources
	Logger  *slog.Logger
	// StateDir receives what a build installed that no pin names: the base image's Debian
	// packages, as BasePackagesFile.
	StateDir string
	// Changes are pins the mirror no longer serves and the versions to install instead
	// (Resolve). An image keeps the tag of its recipe as the lock pins it, and says in its
	// LabelPackages what it holds.
	Changes []Change
}

// BasePackagesFile is where the builder records the packages (name and version, one a line)
// that debootstrap installed into the base image ref: the base follows the mirror's suite
// rather than pins, so this is what says what it holds.
func (b *Builder) BasePackagesFile(ref string) string {
	return filepath.Join(b.StateDir, strings.NewReplacer("/", "_", ":", "_").Replace(ref)+".packages")
}

// Status is one image as the engine has it.
type Status struct {
	Recipe *Recipe
	Ref    string
	// ID is the engine's image ID, "" when the image is missing.
	ID string
	// Built is true when this call built the image.
	Built bool
}

// Labels every judge image carries; Recipe digests let an operator tell which lock built it.
const (
	LabelRecipe = "judge.recipe"
	LabelName   = "judge.image"
	// LabelPackages lists the Debian packages an image installed, as name=version: the pins,
	// or what stood in for a pin the mirror no longer served.
	LabelPackages = "judge.packages"
)

// Images returns, for the languages named (all when none), the recipes they need: the base
// first, each recipe once.
func (c *Catalog) Images(names ...string) ([]*Recipe, error) {
	if len(names) == 0 {
		for _, l := range langs {
			names = append(names, l.Name)
		}
	}
	var out []*Recipe
	seen := map[string]bool{}
	var add func(r *Recipe)
	add = func(r *Recipe) { // dependencies first, each recipe once
		if r == nil || seen[r.Name] {
			return
		}
		add(r.parent)
		add(r.builder)
		add(r.jdk)
		seen[r.Name] = true
		out = append(out, r)
	}
	add(c.Base)
	for _, n := range names {
		l, ok := LangByName(n)
		if !ok {
			return nil, fmt.Errorf("images: unknown language %q (known: %s)", n, langNames())
		}
		add(c.Compile(l))
		add(c.Run(l))
	}
	return out, nil
}

func langNames() string {
	var n []string
	for _, l := range langs {
		n = append(n, l.Name)
	}
	return strings.Join(n, ", ")
}

// List reports the images the languages need and whether the engine has them.
func (b *Builder) List(ctx context.Context, names ...string) ([]Status, error) {
	recipes, err := b.Catalog.Images(names...)
	if err != nil {
		return nil, err
	}
	var out []Status
	for _, r := range recipes {
		ref := r.Ref(b.Prefix)
		id, err := b.Engine.ImageID(ctx, ref)
		if err != nil {
			return nil, err
		}
		out = append(out, Status{Recipe: r, Ref: ref, ID: id})
	}
	return out, nil
}

// Build builds every image the languages need that the engine does not have yet. Images are
// tagged by recipe digest, so an image that exists is up to date and is left alone.
func (b *Builder) Build(ctx context.Context, names ...string) ([]Status, error) {
	list, err := b.List(ctx, names...)
	if err != nil {
		return nil, err
	}
	for i := range list {
		st := &list[i]
		if st.ID != "" {
			continue
		}
		start := time.Now()
		b.log().Info("building image", "image", st.Ref)
		if st.Recipe == b.Catalog.Base {
			st.ID, err = b.buildBase(ctx, st.Ref)
		} else {
			st.ID, err = b.buildRecipe(ctx, st.Recipe, st.Ref)
		}
		if err != nil {
			return list, fmt.Errorf("images: building %s: %w", st.Ref, err)
		}
		st.Built = true
		b.log().Info("built image", "image", st.Ref, "id", st.ID, "seconds", int(time.Since(start).Seconds()))
	}
	return list, nil
}

func (b *Builder) log() *slog.Logger {
	if b.Logger != nil {
		return b.Logger
	}
	return slog.New(slog.DiscardHandler)
}

func (b *Builder) labels(r *Recipe) map[string]string {
	return map[string]string{LabelRecipe: r.Digest, LabelName: r.Name}
}

// sourcesList is the base image's apt configuration. The digest of the base covers its
// shape, not the mirror, so a different mirror does not rebuild anything.
func sourcesList(mirror, security string) string {
	return fmt.Sprintf("deb %[1]s bookworm main\ndeb %[1]s bookworm-updates main\ndeb %[2]s bookworm-security main\n",
		mirror, security)
}

// buildBase bootstraps a minimal Debian root file system with debootstrap and imports it.
func (b *Builder) buildBase(ctx context.Context, ref string) (string, error) {
	if _, err := exec.LookPath("debootstrap"); err != nil {
		return "", errors.New("the base image is made with debootstrap, which is not installed (apt-get install debootstrap)")
	}
	if os.Geteuid() != 0 {
		return "", errors.New("debootstrap needs root to build the base image; run `judge images build` as root once")
	}
	if err := os.MkdirAll(b.Sources.Downloads, 0o755); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(b.Sources.Downloads, "rootfs-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	deb := b.Catalog.Lock.Debian
	out, err := exec.CommandContext(ctx, "debootstrap", "--variant="+deb.Variant, deb.Suite, dir, b.Sources.DebianMirror).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("debootstrap: %v\n%s", err, tail(out, 2000))
	}
	src := strings.ReplaceAll(sourcesList(b.Sources.DebianMirror, b.Sources.SecurityMirror), "bookworm", deb.Suite)
	if err := os.WriteFile(filepath.Join(dir, "etc/apt/sources.list"), []byte(src), 0o644); err != nil {
		return "", err
	}
	if b.StateDir != "" {
		list, err := exec.CommandContext(ctx, "dpkg-query", "--admindir="+filepath.Join(dir, "var/lib/dpkg"),
			"-W", "-f=${Package} ${Version}\n").Output()
		if err != nil {
			return "", fmt.Errorf("listing the base's packages: %w", err)
		}
		if err := os.MkdirAll(b.StateDir, 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(b.BasePackagesFile(ref), list, 0o644); err != nil {
			return "", err
		}
		b.log().Info("the base image's packages", "count", strings.Count(string(list), "\n"), "file", b.BasePackagesFile(ref))
	}
	// Drop what is specific to this bootstrap run rather than to the system.
	for _, p := range []string{"var/cache/apt/archives", "var/lib/apt/lists", "var/log"} {
		_ = os.RemoveAll(filepath.Join(dir, p))
		_ = os.MkdirAll(filepath.Join(dir, p), 0o755)
	}
	tarCmd := exec.CommandContext(ctx, "tar", "--numeric-owner", "-C", dir, "-c", ".")
	stream, err := tarCmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := tarCmd.Start(); err != nil {
		return "", err
	}
	id, err := b.Engine.ImportImage(ctx, stream, ref, b.labels(b.Catalog.Base))
	if werr := tarCmd.Wait(); err == nil && werr != nil {
		err = fmt.Errorf("tar of the root file system: %w", werr)
	}
	return id, err
}

// buildRecipe builds one Dockerfile recipe; its build context is the recipe's directory,
// plus the Go toolchain as go/ when the recipe pins one.
func (b *Builder) buildRecipe(ctx context.Context, r *Recipe, ref string) (string, error) {
	var goZip string
	if r.goPin != nil {
		var err error
		if goZip, err = b.fetchGo(ctx, *r.goPin); err != nil {
			return "", err
		}
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeContext(pw, r, goZip)) }()
	// The pipe's writer ends with the context; BuildImage reads it to the end.
	args := map[string]string{}
	if r.parent != nil {
		args["BASE"] = r.parent.Ref(b.Prefix)
	}
	labels := b.labels(r)
	if len(r.packages) > 0 {
		installed := b.installing(r.packages)
		args["PACKAGES"] = packageArg(installed)
		labels[LabelPackages] = packageArg(installed)
		if ch := packageArg(r.packages); ch != args["PACKAGES"] {
			b.log().Warn("building with what the mirror serves instead of pins it no longer serves", "image", ref, "pinned", ch, "installing", args["PACKAGES"])
		}
	}
	if r.builder != nil {
		args["BUILDER"] = r.builder.Ref(b.Prefix)
	}
	if r.jdk != nil {
		args["JDK"] = r.jdk.Ref(b.Prefix)
	}
	var logBuf strings.Builder
	id, err := b.Engine.BuildImage(ctx, pr, BuildOptions{
		Ref: ref, Dockerfile: "Dockerfile", Args: args, Labels: labels, Log: &logBuf,
	})
	pr.CloseWithError(errors.New("build finished")) // unblocks the writer if the build failed early
	if err != nil {
		return "", fmt.Errorf("%w\n%s", err, tail([]byte(logBuf.String()), 3000))
	}
	b.log().Debug("image build log", "image", ref, "log", logBuf.String())
	return id, nil
}

// installing is pins with b.Changes applied.
func (b *Builder) installing(pins map[string]string) map[string]string {
	out := make(map[string]string, len(pins))
	for name, version := range pins {
		out[name] = version
		for _, c := range b.Changes {
			if c.Package == name && c.Pinned == version && c.Served != "" {
				out[name] = c.Served
			}
		}
	}
	return out
}

// Followed is what the images of the languages (all when none) hold instead of the lock's
// pins: for each pin an image was built without (its build followed the mirror, which no
// longer served it), the pin and the version installed instead, read from the image's label.
// An image that is missing holds nothing.
func (b *Builder) Followed(ctx context.Context, names ...string) ([]Change, error) {
	ls := Langs()
	if len(names) > 0 {
		ls = nil
		for _, name := range names {
			l, ok := LangByName(name)
			if !ok {
				return nil, fmt.Errorf("images: unknown language %q (known: %s)", name, langNames())
			}
			ls = append(ls, l)
		}
	}
	var out []Change
	for _, l := range ls {
		for _, r := range []*Recipe{b.Catalog.Compile(l), b.Catalog.Run(l)} {
			if len(r.packages) == 0 {
				continue
			}
			ref := r.Ref(b.Prefix)
			id, err := b.Engine.ImageID(ctx, ref)
			if err != nil {
				return nil, err
			}
			if id == "" {
				continue
			}
			labels, err := b.Engine.ImageLabels(ctx, ref)
			if err != nil {
				return nil, err
			}
			if labels[LabelPackages] == "" {
				continue // built before images said what they hold, when builds always took the pins
			}
			installed := map[string]string{}
			for _, p := range strings.Fields(labels[LabelPackages]) {
				if pkg, version, ok := strings.Cut(p, "="); ok {
					installed[pkg] = version
				}
			}
			pkgs := make([]string, 0, len(r.packages))
			for p := range r.packages {
				pkgs = append(pkgs, p)
			}
			sort.Strings(pkgs)
			ll := b.Catalog.Lock.Languages[l.Name]
			for _, p := range pkgs {
				if pinned := r.packages[p]; installed[p] != pinned {
					out = append(out, Change{Lang: l.Name, Package: p, Pinned: pinned, Served: installed[p], Line: ll.Line(p, pinned)})
				}
			}
		}
	}
	return out, nil
}

func writeContext(w io.Writer, r *Recipe, goZip string) error {
	tw := tar.NewWriter(w)
	files, err := recipeFiles(r.Name)
	if err != nil {
		return err
	}
	for _, f := range files {
		data, err := embedded.ReadFile(path.Join("recipes", r.Name, f))
		if err != nil {
			return err
		}
		if err := writeFile(tw, f, 0o644, data); err != nil {
			return err
		}
	}
	for _, f := range r.shared() {
		data, err := embedded.ReadFile(path.Join("recipes", f))
		if err != nil {
			return err
		}
		if err := writeFile(tw, path.Base(f), 0o644, data); err != nil {
			return err
		}
	}
	if goZip != "" {
		if err := goRootToTar(tw, goZip, r.goPin.Version); err != nil {
			return err
		}
	}
	return tw.Close()
}

func writeFile(tw *tar.Writer, name string, mode int64, data []byte) error {
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	_, err := tw.Write(data)
	return err
}

// goRootToTar copies the toolchain module zip into the build context as go/. Module zips
// keep no file modes, so the executables are marked as the go command itself does when it
// switches toolchains.
func goRootToTar(tw *tar.Writer, zipFile, version string) error {
	zr, err := zip.OpenReader(zipFile)
	if err != nil {
		return err
	}
	defer zr.Close()
	prefix := "golang.org/toolchain@" + goModuleVersion(version) + "/"
	for _, f := range zr.File {
		rel, ok := strings.CutPrefix(f.Name, prefix)
		if !ok {
			return fmt.Errorf("go toolchain zip: %q is outside %s", f.Name, prefix)
		}
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		if rel != path.Clean(rel) || strings.HasPrefix(rel, "../") {
			return fmt.Errorf("go toolchain zip: bad path %q", f.Name)
		}
		mode := int64(0o644)
		if strings.HasPrefix(rel, "bin/") || strings.HasPrefix(rel, "pkg/tool/") {
			mode = 0o755
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		hdr := &tar.Header{Name: "go/" + rel, Mode: mode, Size: int64(f.UncompressedSize64), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			rc.Close()
			return err
		}
		_, err = io.Copy(tw, rc)
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// fetchGo returns the path of the pinned toolchain's module zip, downloading it from the
// Go module proxy when it is not cached, and checking its SHA-256 either way.
func (b *Builder) fetchGo(ctx context.Context, pin GoPin) (string, error) {
	name := goModuleVersion(pin.Version) + ".zip"
	file := filepath.Join(b.Sources.Downloads, "golang.org-toolchain-"+name)
	if sum, err := fileSHA256(file); err == nil && sum == pin.SHA256 {
		return file, nil
	}
	if err := os.MkdirAll(b.Sources.Downloads, 0o755); err != nil {
		return "", err
	}
	url := strings.TrimRight(b.Sources.GoProxy, "/") + "/golang.org/toolchain/@v/" + name
	b.log().Info("downloading Go toolchain", "url", url)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("downloading the Go toolchain: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("downloading the Go toolchain: %s: %s", url, resp.Status)
	}
	tmp, err := os.CreateTemp(b.Sources.Downloads, "go-*.zip")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	_, err = io.Copy(io.MultiWriter(tmp, h), resp.Body)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("downloading the Go toolchain: %w", err)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != pin.SHA256 {
		return "", fmt.Errorf("the Go toolchain from %s has SHA-256 %s, but the lock file pins %s", url, sum, pin.SHA256)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return "", err
	}
	tidyDownloads(b.Sources.Downloads, file, time.Now())
	return file, nil
}

// tidyDownloads removes from dir what no build needs any longer, so that the downloads do not
// grow with each new pin: the Go toolchains but keep (a pin replaced), and what a build
// killed midway left (a partial download, a base image's root) a day old.
func tidyDownloads(dir, keep string, now time.Time) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		info, err := e.Info()
		switch {
		case err != nil || path == keep:
		case strings.HasPrefix(e.Name(), "golang.org-toolchain-"):
			os.Remove(path)
		case (strings.HasPrefix(e.Name(), "go-") || strings.HasPrefix(e.Name(), "rootfs-")) && now.Sub(info.ModTime()) > 24*time.Hour:
			os.RemoveAll(path)
		}
	}
}

// goModuleVersion is the module version under which the proxy serves a Go release.
func goModuleVersion(goVersion string) string { return "v0.0.1-" + goVersion + ".linux-amd64" }

func fileSHA256(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

var _ fs.FS = embedded
