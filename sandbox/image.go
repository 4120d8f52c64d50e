package sandbox

import (
	"archive/tar"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
	"github.com/docker/docker/errdefs"

	"github.com/botjudge/judge/images"
)

var _ images.Engine = (*Engine)(nil)

// ImageID returns the ID of ref, or "" when the engine does not have it. What the engine
// said is remembered until an image changes (imageIDs).
func (e *Engine) ImageID(ctx context.Context, ref string) (string, error) {
	id, gen, ok := e.ids.lookup(e, ref)
	if ok {
		return id, nil
	}
	id, err := e.inspectID(ctx, ref)
	if err == nil && id != "" {
		e.ids.keep(ref, id, gen)
	}
	return id, err
}

// inspectID asks the engine for the ID of ref ("" when it has none).
func (e *Engine) inspectID(ctx context.Context, ref string) (string, error) {
	info, err := e.api().ImageInspect(ctx, ref)
	if errdefs.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("sandbox: inspecting image %s: %w", ref, err)
	}
	return info.ID, nil
}

// ImportImage creates the image ref from a root file system tar stream.
func (e *Engine) ImportImage(ctx context.Context, rootfs io.Reader, ref string, labels map[string]string) (string, error) {
	var changes []string
	for _, k := range sortedKeys(labels) {
		changes = append(changes, fmt.Sprintf("LABEL %s=%q", k, labels[k]))
	}
	rc, err := e.api().ImageImport(ctx, image.ImportSource{Source: rootfs, SourceName: "-"}, ref, image.ImportOptions{Changes: changes})
	if err != nil {
		return "", fmt.Errorf("sandbox: importing %s: %w", ref, engineErr(err))
	}
	defer rc.Close()
	if err := readMessages(rc, io.Discard); err != nil {
		return "", fmt.Errorf("sandbox: importing %s: %w", ref, engineErr(err))
	}
	return e.mustImageID(ctx, ref)
}

// BuildImage builds a Dockerfile with the classic builder (BuildKit would try to resolve
// base images on a registry). Nothing is pulled: every FROM is local or scratch.
func (e *Engine) BuildImage(ctx context.Context, buildContext io.Reader, o images.BuildOptions) (string, error) {
	args := map[string]*string{}
	for k, v := range o.Args {
		args[k] = &v
	}
	resp, err := e.api().ImageBuild(ctx, buildContext, build.ImageBuildOptions{
		Tags:        []string{o.Ref},
		Dockerfile:  o.Dockerfile,
		BuildArgs:   args,
		Labels:      o.Labels,
		Remove:      true,
		ForceRemove: true,
		Version:     build.BuilderV1,
	})
	if err != nil {
		return "", fmt.Errorf("sandbox: building %s: %w", o.Ref, err)
	}
	defer resp.Body.Close()
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	if err := readMessages(resp.Body, log); err != nil {
		return "", fmt.Errorf("sandbox: building %s: %w", o.Ref, err)
	}
	return e.mustImageID(ctx, o.Ref)
}

func (e *Engine) mustImageID(ctx context.Context, ref string) (string, error) {
	e.ids.forget() // the caller has just changed ref: its event may not have come yet
	id, err := e.inspectID(ctx, ref)
	if err == nil && id == "" {
		err = fmt.Errorf("sandbox: the engine reported success but has no image %s", ref)
	}
	return id, err
}

// readMessages copies the engine's progress stream to log and returns its error, if any.
func readMessages(r io.Reader, log io.Writer) error {
	dec := json.NewDecoder(r)
	for {
		var m struct {
			Stream string `json:"stream"`
			Status string `json:"status"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"errorDetail"`
		}
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		if m.Error != nil {
			return errors.New(strings.TrimSpace(m.Error.Message))
		}
		if m.Stream != "" {
			io.WriteString(log, m.Stream)
		} else if m.Status != "" {
			io.WriteString(log, m.Status+"\n")
		}
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TagImage gives the image src the additional reference dst.
func (e *Engine) TagImage(ctx context.Context, src, dst string) error {
	defer e.ids.forget()
	if err := e.api().ImageTag(ctx, src, dst); err != nil {
		return fmt.Errorf("sandbox: tagging %s as %s: %w", src, dst, err)
	}
	return nil
}

// RemoveImage deletes the reference ref (and the image, when nothing else refers to it).
func (e *Engine) RemoveImage(ctx context.Context, ref string) error {
	defer e.ids.forget()
	if _, err := e.api().ImageRemove(ctx, ref, image.RemoveOptions{PruneChildren: true}); err != nil && !errdefs.IsNotFound(err) {
		return fmt.Errorf("sandbox: removing image %s: %w", ref, err)
	}
	return nil
}

// ReadImageFile returns the file at path in image ref (at most 1 MiB), read without running
// anything: it is copied out of a container created from the image and never started.
func (e *Engine) ReadImageFile(ctx context.Context, ref, path string) ([]byte, error) {
	c, err := e.api().ContainerCreate(ctx, &container.Config{Image: ref, Cmd: []string{path}, Labels: e.labels()},
		&container.HostConfig{NetworkMode: "none"}, nil, nil, "")
	if err != nil {
		return nil, fmt.Errorf("sandbox: reading %s in %s: %w", path, ref, err)
	}
	defer e.remove(c.ID)
	rc, _, err := e.api().CopyFromContainer(ctx, c.ID, path)
	if err != nil {
		return nil, fmt.Errorf("sandbox: reading %s in %s: %w", path, ref, err)
	}
	defer rc.Close()
	tr := tar.NewReader(rc)
	if _, err := tr.Next(); err != nil {
		return nil, fmt.Errorf("sandbox: reading %s in %s: %w", path, ref, err)
	}
	return io.ReadAll(io.LimitReader(tr, 1<<20))
}

// ImageLabels returns the labels of image ref.
func (e *Engine) ImageLabels(ctx context.Context, ref string) (map[string]string, error) {
	info, err := e.api().ImageInspect(ctx, ref)
	if err != nil {
		return nil, fmt.Errorf("sandbox: inspecting image %s: %w", ref, err)
	}
	if info.Config == nil {
		return nil, nil
	}
	return info.Config.Labels, nil
}

// SaveImages writes the images refs to w as one archive, as `docker save` does: their layers,
// configuration and tags, so that another engine loads the very same images (same IDs).
func (e *Engine) SaveImages(ctx context.Context, refs []string, w io.Writer) error {
	rc, err := e.api().ImageSave(ctx, refs)
	if err != nil {
		return fmt.Errorf("sandbox: saving images: %w", err)
	}
	defer rc.Close()
	if _, err := io.Copy(w, rc); err != nil {
		return fmt.Errorf("sandbox: saving images: %w", err)
	}
	return nil
}

// LoadImages loads an archive written by SaveImages into the engine.
func (e *Engine) LoadImages(ctx context.Context, r io.Reader) error {
	defer e.ids.forget()
	resp, err := e.api().ImageLoad(ctx, r, client.ImageLoadWithQuiet(true))
	if err != nil {
		return fmt.Errorf("sandbox: loading images: %w", engineErr(err))
	}
	defer resp.Body.Close()
	if err := readMessages(resp.Body, io.Discard); err != nil {
		return fmt.Errorf("sandbox: loading images: %w", engineErr(err))
	}
	return nil
}
