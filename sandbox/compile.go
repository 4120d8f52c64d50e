package sandbox

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/docker/docker/pkg/stdcopy"

	"github.com/botjudge/judge/judge/files"
	"github.com/botjudge/judge/judge/result"
)

// CompileSpec describes one compilation. The compile image's command reads the sources as
// a tar stream on stdin and writes the artifact as a tar stream on stdout; its stderr is the
// compile log.
type CompileSpec struct {
	Image string
	Cmd   []string
	// Files are the sources by relative path.
	Files  map[string][]byte
	Limits Limits
	// Timeout bounds the compilation's wall time.
	Timeout time.Duration
	// Scratch is the size of each of the writable tmpfs mounts /work and /tmp.
	Scratch int64
	// LogLimit bounds the log kept; ArtifactLimit bounds the artifact's tar stream.
	LogLimit      int64
	ArtifactLimit int64
}

// CompileResult is the outcome of a compilation that ran. A compile error is a result with
// OK false, not a Go error.
type CompileResult struct {
	OK bool
	// Log is the compiler's output, capped at LogLimit, with the reason appended when the
	// compilation was stopped.
	Log string
	// Failure says why a compilation that did not succeed failed.
	Failure result.BuildFailure
	Exit    Exit
	Wall    time.Duration
}

// Compile runs a compilation and, when it succeeds, unpacks the artifact into outDir.
// Only regular files and directories are accepted in the artifact; a link, a device or a
// path leaving outDir makes the build fail.
func (e *Engine) Compile(ctx context.Context, spec CompileSpec, outDir string) (CompileResult, error) {
	var src bytes.Buffer
	if err := writeSources(&src, spec.Files); err != nil {
		return CompileResult{}, err
	}
	spec.Limits = spec.Limits.orDefaults()
	ctx, cancel := context.WithTimeout(ctx, spec.Timeout)
	defer cancel()
	start := time.Now()
	a, err := e.create(ctx, containerSpec{
		image: spec.Image, cmd: spec.Cmd, env: []string{"HOME=/tmp", "TMPDIR=/tmp"}, workDir: "/", // Docker would drop /work's tmpfs mode
		limits: spec.Limits, tmpfs: map[string]int64{"/work": spec.Scratch, "/tmp": spec.Scratch},
	})
	if err != nil {
		return CompileResult{}, err
	}
	defer e.remove(a.id)
	defer a.hj.Close()

	go func() {
		a.hj.Conn.Write(src.Bytes())
		a.hj.CloseWrite()
	}()
	log := &Capped{limit: spec.LogLimit}
	artifact := &limitedBuffer{limit: spec.ArtifactLimit}
	copied := make(chan error, 1)
	go func() {
		_, err := stdcopy.StdCopy(artifact, log, a.hj.Reader)
		copied <- err
	}()

	res := CompileResult{}
	x, werr := e.wait(ctx, a.id)
	res.Wall = time.Since(start)
	if werr != nil {
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			res.Failure = result.BuildTimeout
			res.Log = string(log.Bytes()) + fmt.Sprintf("\njudge: compilation stopped after %s\n", spec.Timeout)
			return res, nil
		}
		return res, werr
	}
	select {
	case <-copied:
	case <-time.After(5 * time.Second):
		// Output still streaming after exit means the engine hung up; what was read stands.
	}
	res.Exit = x
	res.Log = string(log.Bytes())
	switch {
	case artifact.over:
		res.Failure = result.BuildArtifactTooLarge
		res.Log += fmt.Sprintf("\njudge: the compiled program exceeds %d bytes\n", spec.ArtifactLimit)
	case x.OOM:
		res.Failure = result.BuildMemory
		res.Log += fmt.Sprintf("\njudge: the compiler ran out of memory (%d MiB)\n", spec.Limits.Memory>>20)
	case x.Code != 0:
		res.Failure = result.BuildCompileError
	default:
		if err := ExtractArtifact(artifact.Bytes(), outDir); err != nil {
			if hostFault(err) {
				return res, fmt.Errorf("sandbox: writing the compiled program: %w", err)
			}
			res.Failure = result.BuildBadArtifact
			res.Log += "\njudge: " + err.Error() + "\n"
			return res, nil
		}
		res.OK = true
	}
	return res, nil
}

// writeSources packs the submission. Names are checked here, before anything runs.
func writeSources(w io.Writer, sources map[string][]byte) error {
	if len(sources) == 0 {
		return errors.New("sandbox: no source files")
	}
	names := make([]string, 0, len(sources))
	for n := range sources {
		names = append(names, n)
	}
	// The submission's one rule (judge/files), as the job and the builder check it.
	if err := files.CheckNames(names); err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	sort.Strings(names)
	tw := tar.NewWriter(w)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: int64(len(sources[n])), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		if _, err := tw.Write(sources[n]); err != nil {
			return err
		}
	}
	return tw.Close()
}

// checkFileName accepts a relative path of plain components (no "..", not absolute): what a
// compiler's artifact may hold, which may be deeper than a submission or start with "-".
func checkFileName(n string) error {
	if n == "" || strings.HasPrefix(n, "/") || path.Clean(n) != n || n == "." || n == ".." || strings.HasPrefix(n, "../") ||
		strings.ContainsAny(n, "\\\x00") || strings.Contains(n, "/../") {
		return fmt.Errorf("sandbox: bad file name %q: want a relative path without '..'", n)
	}
	return nil
}

// ExtractArtifact unpacks a tar stream of regular files and directories under dir. A link, a
// device or a path leaving dir is an error, and so is an archive with no file.
func ExtractArtifact(data []byte, dir string) error {
	tr := tar.NewReader(bytes.NewReader(data))
	files := 0
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("artifact: %w", err)
		}
		name := strings.TrimPrefix(path.Clean(h.Name), "./")
		if name == "." || name == "" {
			continue
		}
		if err := checkFileName(name); err != nil {
			return fmt.Errorf("artifact: %q: the path leaves the artifact", h.Name)
		}
		target := filepath.Join(dir, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			mode := os.FileMode(0o644)
			if h.Mode&0o111 != 0 {
				mode = 0o755
			}
			f, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode)
			if err != nil {
				return fmt.Errorf("artifact: %w", err)
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
			files++
		default:
			return fmt.Errorf("artifact: %q is not a regular file or directory (type %q)", h.Name, h.Typeflag)
		}
	}
	if files == 0 {
		return errors.New("artifact: the compiler produced no file")
	}
	return nil
}

// limitedBuffer keeps up to limit bytes and notes whether more came.
type limitedBuffer struct {
	bytes.Buffer
	limit int64
	over  bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.over || int64(b.Len()+len(p)) > b.limit {
		b.over = true
		return len(p), nil
	}
	return b.Buffer.Write(p)
}
