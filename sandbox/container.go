package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/errdefs"
)

// botUser is the unprivileged user every sandboxed program runs as (nobody:nogroup).
const botUser = "65534:65534"

// containerSpec is what compiling and running have in common.
type containerSpec struct {
	image   string
	cmd     []string
	env     []string
	workDir string
	limits  Limits
	// binds are host paths mounted read-only: target -> source.
	binds map[string]string
	// pipes are host named pipes mounted read-write (target -> source): a pipe mount lets
	// the bot open that pipe and create nothing, and gVisor will not open a pipe for writing
	// on a read-only mount.
	pipes map[string]string
	// tmpfs are extra writable mounts: target -> size in bytes.
	tmpfs map[string]int64
	// noStdin leaves stdin unattached (/dev/null): the bot's stdin is a named pipe instead.
	noStdin bool
}

// attached is a created container with its stdio attached (before start, so that no
// output is lost).
type attached struct {
	id string
	hj types.HijackedResponse
}

// engineTimeout bounds each engine call on a match's path (create, attach, start, inspect,
// wait): a stalled engine fails the call, and the match is an infrastructure error, rather
// than hanging it. A variable so that tests of a stalled engine need not wait it out.
var engineTimeout = 30 * time.Second

// create makes the container with every restriction on, attaches to it, and starts it.
func (e *Engine) create(ctx context.Context, s containerSpec) (*attached, error) {
	hc := e.hostConfig(s)
	cfg := &container.Config{
		Image:           s.image,
		Cmd:             s.cmd,
		Entrypoint:      []string{},
		Env:             s.env,
		WorkingDir:      s.workDir,
		User:            botUser,
		Hostname:        "sandbox",
		AttachStdin:     !s.noStdin,
		AttachStdout:    true,
		AttachStderr:    true,
		OpenStdin:       !s.noStdin,
		StdinOnce:       !s.noStdin,
		NetworkDisabled: !s.limits.Network,
		Labels:          e.labels(),
	}
	// A create is not abandoned midway: the engine may finish it after the judge has gone,
	// leaving a container nobody removes. engineTimeout bounds a hung engine.
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sandbox: creating container: %w", err)
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), engineTimeout)
	created, err := e.api().ContainerCreate(cctx, cfg, hc, nil, nil, "")
	cancel()
	if err != nil {
		if errdefs.IsNotFound(err) {
			return nil, fmt.Errorf("sandbox: image %s is missing (run `judge images build`): %w", s.image, err)
		}
		return nil, fmt.Errorf("sandbox: creating container: %w", engineErr(err))
	}
	a := &attached{id: created.ID}
	// A failed container is removed in the background: the engine that failed the call may
	// be stalled, and the match's answer must not wait for it.
	a.hj, err = e.attach(ctx, a.id, container.AttachOptions{Stream: true, Stdin: !s.noStdin, Stdout: true, Stderr: true})
	if err != nil {
		e.background(func() { e.remove(a.id) })
		return nil, fmt.Errorf("sandbox: attaching to container: %w", engineErr(err))
	}
	sctx, cancel := context.WithTimeout(ctx, engineTimeout)
	err = e.api().ContainerStart(sctx, a.id, container.StartOptions{})
	cancel()
	if err != nil {
		a.hj.Close()
		e.background(func() { e.remove(a.id) })
		return nil, fmt.Errorf("sandbox: starting container: %w", engineErr(err))
	}
	return a, nil
}

// attach is ContainerAttach bounded by ctx and engineTimeout: the client honours a context
// only while it dials, and an engine that stalls after that holds the call for ever. An
// attach that answers after it was given up is closed.
func (e *Engine) attach(ctx context.Context, id string, opts container.AttachOptions) (types.HijackedResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, engineTimeout)
	defer cancel()
	type attached struct {
		hj  types.HijackedResponse
		err error
	}
	done := make(chan attached, 1)
	go func() {
		hj, err := e.api().ContainerAttach(ctx, id, opts)
		done <- attached{hj, err}
	}()
	select {
	case a := <-done:
		return a.hj, a.err
	case <-ctx.Done():
		e.background(func() {
			if a := <-done; a.err == nil {
				a.hj.Close()
			}
		})
		return types.HijackedResponse{}, ctx.Err()
	}
}

// profileKey picks a seccomp profile: the judge's or Docker's default, for runsc or not.
type profileKey struct{ judge, gvisor bool }

// hostConfig is the container's every restriction.
func (e *Engine) hostConfig(s containerSpec) *container.HostConfig {
	l := s.limits // with its defaults (Start, Compile)
	hc := &container.HostConfig{
		NetworkMode:    "none",
		ReadonlyRootfs: true,
		CapDrop:        []string{"ALL"},
		SecurityOpt:    []string{"no-new-privileges"},
		IpcMode:        "none", // no /dev/shm
		LogConfig:      container.LogConfig{Type: "none"},
		Runtime:        l.Runtime,
		Tmpfs:          map[string]string{},
		Resources: container.Resources{
			Memory:     int64(l.Memory),
			MemorySwap: int64(l.Memory), // memory+swap = memory: no swap
			NanoCPUs:   int64(l.CPUs * 1e9),
			CpusetCpus: l.CPUSet,
			PidsLimit:  &l.Pids,
			Ulimits: []*container.Ulimit{
				{Name: "core", Soft: 0, Hard: 0},
				{Name: "nofile", Soft: l.NoFile, Hard: l.NoFile},
				{Name: "fsize", Soft: int64(l.FileSize), Hard: int64(l.FileSize)},
			},
		},
	}
	if l.Network {
		hc.NetworkMode = "bridge"
	}
	if p := e.profiles[profileKey{judge: l.Seccomp == SeccompJudge, gvisor: l.Runtime == RuntimeGVisor}]; p != "" {
		hc.SecurityOpt = append(hc.SecurityOpt, "seccomp="+p)
	}
	if l.Tmpfs > 0 {
		hc.Tmpfs["/tmp"] = tmpfsOpts(int64(l.Tmpfs))
	}
	for target, size := range s.tmpfs {
		hc.Tmpfs[target] = tmpfsOpts(size)
	}
	// gVisor mounts a writable /tmp and /dev/shm of its own where the container has none; an
	// empty read-only tmpfs keeps both shut under any runtime.
	for _, dir := range []string{"/tmp", "/dev/shm"} {
		if _, ok := hc.Tmpfs[dir]; !ok {
			hc.Tmpfs[dir] = "ro,noexec,nosuid,nodev,size=4k,mode=0555"
		}
	}
	for target, source := range s.binds {
		hc.Mounts = append(hc.Mounts, mount.Mount{
			Type: mount.TypeBind, Source: source, Target: target, ReadOnly: true,
			BindOptions: &mount.BindOptions{NonRecursive: true},
		})
	}
	for target, source := range s.pipes {
		hc.Mounts = append(hc.Mounts, mount.Mount{
			Type: mount.TypeBind, Source: source, Target: target,
			BindOptions: &mount.BindOptions{NonRecursive: true},
		})
	}
	return hc
}

func tmpfsOpts(size int64) string {
	return "rw,noexec,nosuid,nodev,mode=1777,size=" + strconv.FormatInt(size, 10)
}

// remove kills and deletes a container. It uses its own context: a container must go even
// when the caller's context is already cancelled. A removal the engine refuses is tried
// again, removeTries times in all: the engine gives up on a container whose first process
// is a zombie for a moment (gVisor's sandbox, killed as it starts), which is gone a moment
// later.
func (e *Engine) remove(id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var err error
	for try := 1; try <= removeTries; try++ {
		err = e.api().ContainerRemove(ctx, id, container.RemoveOptions{Force: true, RemoveVolumes: true})
		if err == nil || errdefs.IsNotFound(err) {
			return nil
		}
		if try < removeTries {
			select {
			case <-ctx.Done():
			case <-time.After(removeAgain):
			}
		}
	}
	// The engine may be restarting or hung rather than refusing this container: it is asked
	// again, in the background, until it answers.
	e.log.Error("removing container: will try again", "container", id, "err", err)
	e.removeLater(id)
	return fmt.Errorf("sandbox: removing container %s: %w", id[:12], err)
}

// removeTries and removeAgain are how often, and how far apart, remove asks the engine.
const (
	removeTries = 3
	removeAgain = 500 * time.Millisecond
)

// Exit is how a sandboxed program ended.
type Exit struct {
	// Code is the exit status; for a program killed by a signal it is 128 + the signal.
	Code int
	// Signal is the signal that killed the program, or 0.
	Signal int
	// OOM is true when the kernel killed it for exceeding its memory limit.
	OOM bool
}

func (x Exit) String() string {
	switch {
	case x.OOM:
		return "killed: out of memory"
	case x.Signal != 0:
		return fmt.Sprintf("killed by signal %d", x.Signal)
	default:
		return fmt.Sprintf("exit status %d", x.Code)
	}
}

// wait blocks until the container has stopped and reports how it ended.
func (e *Engine) wait(ctx context.Context, id string) (Exit, error) {
	okC, errC := e.api().ContainerWait(ctx, id, container.WaitConditionNotRunning)
	select {
	case <-okC:
	case err := <-errC:
		return Exit{}, fmt.Errorf("sandbox: waiting for container: %w", err)
	}
	info, err := e.api().ContainerInspect(ctx, id)
	if err != nil {
		return Exit{}, fmt.Errorf("sandbox: inspecting container: %w", err)
	}
	x := exitCode(info.State.ExitCode)
	x.OOM = info.State.OOMKilled
	return x, nil
}

// exitCode is an exit status as the engine reports a container's: 128 + n is death by
// signal n (which is also how the JVM exits when a signal ends it).
func exitCode(code int) Exit {
	x := Exit{Code: code}
	if code > 128 && code < 128+65 {
		x.Signal = code - 128
	}
	return x
}

// errNotRunning is a container whose process has ended (or never ran).
var errNotRunning = errors.New("sandbox: not running")

// pid returns the host PID of the container's first process.
func (e *Engine) pid(ctx context.Context, id string) (int, error) {
	pid, _, err := e.inspect(ctx, id)
	return pid, err
}

// inspect returns the host PID of the container's first process and the ID of its image
// (which it returns even when the container is not running).
func (e *Engine) inspect(ctx context.Context, id string) (pid int, image string, err error) {
	ctx, cancel := context.WithTimeout(ctx, engineTimeout)
	defer cancel()
	info, err := e.api().ContainerInspect(ctx, id)
	if err != nil {
		return 0, "", fmt.Errorf("sandbox: inspecting container: %w", err)
	}
	if info.ContainerJSONBase != nil {
		image = info.Image
	}
	if info.State == nil || info.State.Pid == 0 || !info.State.Running {
		return 0, image, fmt.Errorf("%w: container %s", errNotRunning, id[:12])
	}
	if err := seesProcess(info.State.Pid, info.ID); err != nil {
		// Not the container's process here: out of sight, or ending (an exiting process has
		// left its cgroups, an ended one is gone) before the engine has seen its container
		// stop. Out of sight is what stays so for a second while the engine runs it on.
		for range 50 {
			time.Sleep(20 * time.Millisecond)
			again, aerr := e.api().ContainerInspect(ctx, id)
			switch {
			case aerr != nil:
				return 0, image, fmt.Errorf("sandbox: inspecting container: %w", aerr)
			case again.State == nil || !again.State.Running || again.State.Pid != info.State.Pid:
				return 0, image, fmt.Errorf("%w: container %s", errNotRunning, id[:12])
			case seesProcess(info.State.Pid, info.ID) == nil:
				return info.State.Pid, image, nil
			}
		}
		return 0, image, fmt.Errorf("%w (%v)", ErrOtherPIDs, err)
	}
	return info.State.Pid, image, nil
}

// ErrOtherPIDs is a judge that cannot see its bots' processes: it runs in a PID namespace of
// its own (a container without --pid=host), where the engine's process numbers are not its
// bots', so it could neither read their CPU time and memory nor freeze them. It stops there,
// rather than judge with figures of nothing.
var ErrOtherPIDs = errors.New("sandbox: the judge cannot see its bots' processes: it runs in a PID namespace of its own (a container without --pid=host?); run it in the engine's (docker run --pid=host)")

// errNoProcess is a process number with no process here.
var errNoProcess = errors.New("sandbox: no such process")

// seesProcess checks that pid, as the engine numbers it, is container id's process here too:
// ErrOtherPIDs when it is another's, errNoProcess when there is none.
func seesProcess(pid int, id string) error {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%w: the engine's process %d of container %.12s", errNoProcess, pid, id)
	case err == nil && id != "" && !bytes.Contains(b, []byte(id)):
		return fmt.Errorf("%w (the engine's process %d of container %.12s is another here)", ErrOtherPIDs, pid, id)
	}
	return nil
}
