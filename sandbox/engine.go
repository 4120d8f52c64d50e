// Package sandbox runs untrusted programs in locked-down Docker containers: compiling a
// submission in its toolchain image, and running a bot with its stdin and stdout attached
// for a line protocol, with exact CPU accounting and freezing through the container's
// cgroup. It is the only package that talks to the Docker engine, and it knows nothing of
// games.
package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/botjudge/judge/sandbox/internal/unix"

	"github.com/docker/docker/client"
)

// Labels on every container the judge creates; they let a judge find the containers a
// crashed judge left behind.
const (
	labelManaged  = "judge.managed"
	LabelInstance = "judge.instance"
	labelLock     = "judge.lock"
	labelHost     = "judge.host"
)

// Options configure an Engine.
type Options struct {
	// Host is the Docker engine's address; "" uses DOCKER_HOST or the local socket.
	Host string
	// StateDir holds this judge's instance lock, which tells other judges it is alive.
	StateDir string
	Logger   *slog.Logger
	// Pool sizes the containers kept for bots; the zero Pool keeps none.
	Pool Pool
}

// Pool sizes the containers an engine keeps for bots: Warm prepared ahead for each kind of
// bot (Engine.Warm), at most WarmLimit prepared in all (Engine.WarmLimit, 0: no bound), and up
// to Reuse used containers kept for their bots' next matches (Engine.Reuse). judge serve sizes
// it from its workers; the setters resize it later (Close empties it, and tests that share
// one engine resize it between them).
type Pool struct {
	Warm, WarmLimit, Reuse int
}

// Engine is a connection to the Docker engine, owned by one judge process.
type Engine struct {
	cli      *client.Client
	instance string
	lockPath string
	lockFile *os.File
	stateDir string
	runDir   string // holds each bot's named pipes: <state>/run/<instance>
	host     string
	log      *slog.Logger
	profiles map[profileKey]string // seccomp profiles (see profiles)
	pool     pool
	reuse    spares
	tasks    tasks
	calls    atomic.Int64 // requests to the engine (api)
	ids      imageIDs
	// leftovers are containers the engine failed to remove, asked again until it does.
	leftovers leftovers
}

// errNoDocker is returned by New when the engine cannot be reached.
var errNoDocker = errors.New("sandbox: the Docker engine is not reachable")

// New connects to the engine and takes an instance lock under StateDir.
func New(ctx context.Context, o Options) (*Engine, error) {
	if err := linuxOnly(); err != nil {
		return nil, err
	}
	opts := []client.Opt{client.FromEnv, client.WithAPIVersionNegotiation()}
	if o.Host != "" {
		opts = append(opts, client.WithHost(o.Host))
	}
	cli, err := client.NewClientWithOpts(opts...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNoDocker, err)
	}
	if _, err := cli.Ping(ctx); err != nil {
		cli.Close()
		return nil, fmt.Errorf("%w: %w", errNoDocker, err)
	}
	cli.NegotiateAPIVersion(ctx)
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	e := &Engine{cli: cli, log: log}
	e.host, _ = os.Hostname()
	if e.profiles, err = profiles(); err != nil {
		cli.Close()
		return nil, err
	}
	if err := e.lock(o.StateDir); err != nil {
		cli.Close()
		return nil, err
	}
	e.Warm(o.Pool.Warm)
	e.WarmLimit(o.Pool.WarmLimit)
	e.Reuse(o.Pool.Reuse)
	return e, nil
}

// lock creates and holds this instance's lock file. A judge that finds a container whose
// lock it can take knows the container's owner is dead.
func (e *Engine) lock(stateDir string) error {
	if stateDir == "" {
		return errors.New("sandbox: Options.StateDir is required")
	}
	dir := filepath.Join(stateDir, "instances")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	e.instance = hex.EncodeToString(b)
	abs, err := filepath.Abs(filepath.Join(dir, e.instance+".lock"))
	if err != nil {
		return err
	}
	f, err := os.OpenFile(abs, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return fmt.Errorf("sandbox: locking %s: %w", abs, err)
	}
	e.lockPath, e.lockFile = abs, f
	e.stateDir = stateDir
	e.runDir = filepath.Join(stateDir, "run", e.instance)
	if err := os.MkdirAll(e.runDir, 0o711); err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	return nil
}

// HasRuntime fails, naming the fix, unless the engine has the runtime called name ("" is the
// engine's default).
func (e *Engine) HasRuntime(ctx context.Context, name string) error {
	if name == "" {
		return nil
	}
	info, err := e.api().Info(ctx)
	if err != nil {
		return fmt.Errorf("sandbox: asking the engine for its runtimes: %w", err)
	}
	if _, ok := info.Runtimes[name]; ok {
		return nil
	}
	if name == RuntimeGVisor {
		return fmt.Errorf("sandbox: the engine has no runtime %q: install gVisor with `make gvisor` (images/gvisor/install.sh)", name)
	}
	return fmt.Errorf("sandbox: the engine has no runtime %q (sandbox.runtime)", name)
}

// Instance is this judge's instance id, as found in its containers' labels.
func (e *Engine) Instance() string { return e.instance }

// RunDir holds a directory per container of this judge's bots (its named pipes, its /bot and
// /work), running or prepared in the pool; it is empty when there are none.
func (e *Engine) RunDir() string { return e.runDir }

// Close cancels the pool's preparing, removes its containers, waits for the removal of the
// closed Processes', and releases the instance lock and the connection. Other containers are
// not touched: every Process and compilation removes its own.
func (e *Engine) Close() error {
	e.pool.mu.Lock()
	if e.pool.cancel != nil {
		e.pool.cancel()
	}
	e.pool.mu.Unlock()
	e.Warm(0)
	e.Reuse(0)
	e.ids.close()
	e.tasks.mu.Lock()
	e.tasks.closed = true
	e.tasks.mu.Unlock()
	e.Settle()
	e.closeLeftovers()
	if e.lockFile != nil {
		os.RemoveAll(e.runDir)
		os.Remove(e.lockPath)
		e.lockFile.Close()
	}
	return e.cli.Close()
}

// api is the engine's client, for one request: it counts them (APICalls).
func (e *Engine) api() *client.Client {
	e.calls.Add(1)
	return e.cli
}

// APICalls counts the requests the judge has made of the engine.
func (e *Engine) APICalls() int64 { return e.calls.Load() }

func (e *Engine) labels() map[string]string {
	return map[string]string{
		labelManaged:  "1",
		LabelInstance: e.instance,
		labelLock:     e.lockPath,
		labelHost:     e.host,
	}
}
