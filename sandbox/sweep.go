package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/botjudge/judge/sandbox/internal/unix"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
)

// Sweep removes the containers that judges on this host left behind when they died: those
// whose owner's instance lock is no longer held. Containers of live judges, and of judges
// on other hosts sharing the engine, are left alone. It returns how many it removed.
func (e *Engine) Sweep(ctx context.Context) (int, error) {
	list, err := e.list(ctx)
	if err != nil {
		return 0, err
	}
	removed := 0
	var errs []error
	for _, c := range list {
		lock := c.Labels[labelLock]
		if lock == e.lockPath || ownerAlive(lock) {
			continue
		}
		if c.State == "running" || c.State == "paused" {
			// The dead judge may have left the bot frozen, by the cgroup or by SIGSTOP; a
			// frozen gVisor sandbox cannot even be killed. The cgroup check proves the PID
			// is still the container's before it is signalled.
			if pid, err := e.pid(ctx, c.ID); err == nil {
				if cg, err := openCgroup(pid, c.ID); err == nil {
					cg.Freeze(false)
					cg.close()
					unix.Kill(pid, unix.SIGCONT)
				}
			}
		}
		if err := e.remove(c.ID); err != nil {
			errs = append(errs, err)
			continue
		}
		e.log.Info("removed orphan container", "container", c.ID[:12], "owner", c.Labels[LabelInstance])
		removed++
		os.Remove(lock)
	}
	// Pipe directories of dead judges, whether or not they left a container.
	dirs, _ := os.ReadDir(filepath.Join(e.stateDir, "run"))
	for _, d := range dirs {
		lock := filepath.Join(e.stateDir, "instances", d.Name()+".lock")
		if d.Name() != e.instance && !ownerAlive(lock) {
			os.RemoveAll(filepath.Join(e.stateDir, "run", d.Name()))
			os.Remove(lock)
		}
	}
	return removed, errors.Join(errs...)
}

// ownerAlive reports whether some process holds the lock file at path, or may: a lock in a
// directory this judge cannot see is another filesystem's (a judge in a container beside one
// on the host, on the same engine and host name), whose judge it cannot tell dead, and whose
// bots it must not kill.
func ownerAlive(path string) bool {
	if path == "" {
		return false
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		_, derr := os.Stat(filepath.Dir(path))
		return errors.Is(derr, os.ErrNotExist)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		return true
	}
	unix.Flock(int(f.Fd()), unix.LOCK_UN)
	return false
}

// Containers lists the IDs of the judge containers on the engine that belong to this host,
// whoever owns them; given directories, only those of judges whose state directory is in one
// of them (tests side by side on one engine count their own judges' only).
func (e *Engine) Containers(ctx context.Context, under ...string) ([]string, error) {
	list, err := e.list(ctx)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, c := range list {
		if len(under) == 0 || slices.ContainsFunc(under, func(dir string) bool { return inDir(c.Labels[labelLock], dir) }) {
			ids = append(ids, c.ID)
		}
	}
	return ids, nil
}

// inDir reports whether path is inside dir (both absolute, or both relative to one place).
func inDir(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// OwnContainers lists the IDs of this judge's own containers (this Engine's instance) that
// it has not had removed: a container the Docker engine is removing is not one. (A removal
// can hang in the engine itself - seen with runsc on fuse-overlayfs, "Removal In Progress"
// for minutes - and nothing the judge does makes it go faster: the container is stopped,
// and the engine's.)
func (e *Engine) OwnContainers(ctx context.Context) ([]string, error) {
	list, err := e.list(ctx)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, c := range list {
		if c.Labels[LabelInstance] == e.instance && c.State != "removing" {
			ids = append(ids, c.ID)
		}
	}
	return ids, nil
}

func (e *Engine) list(ctx context.Context) ([]container.Summary, error) {
	list, err := e.api().ContainerList(ctx, container.ListOptions{
		All:     true,
		Filters: filters.NewArgs(filters.Arg("label", labelManaged+"=1"), filters.Arg("label", labelHost+"="+e.host)),
	})
	if err != nil {
		return nil, fmt.Errorf("sandbox: listing containers: %w", err)
	}
	return list, nil
}
