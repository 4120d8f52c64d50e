// Package base is what every command of the judge shares (as cmd/go/internal/base is go's):
// the configuration once read, the logger, and the parts a command reaches for on demand - the
// sandbox, the builder, the queue, the store, the games - each made once and closed with the
// command.
package base

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/config"
	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/catalog"
	"github.com/botjudge/judge/judge/game/manifest"
	"github.com/botjudge/judge/judge/game/referee"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/local"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/cores"
	"github.com/spf13/cobra"
)

// App is what every command shares: the configuration and, on demand, the engine.
type App struct {
	// Version is this build's (judge version), which results and replays record.
	Version    string
	ConfigFile string
	Cfg        config.Config
	Log        *slog.Logger
	Engine     *sandbox.Engine
	Lease      *cores.Lease // the cores the daemon's workers hold, released with the engine
	// pool sizes the engine's pool of containers when it is made: judge serve's, from its
	// workers; none for the other commands.
	Pool sandbox.Pool
	// added finds the games added to the store, once a command that has the store opened
	// it (useCatalog); without it, only the built-in games are known.
	Added *catalog.Catalog
	// lookupStore is the store lookupGame reached for an added game, closed with the command.
	LookupStore *queue.Queue
	// local builds with this machine's compilers, not in the sandbox (judge play --local).
	Local bool
}

// Use is what a command opens the queue for.
type Use int

const (
	// Look: whether a judge runs, or what its store holds; no server is an answer, at once.
	Look Use = iota
	// Work: a client that works through the queue (jobs, results, objects) and waits a few
	// seconds for nats.url's server when it refuses connections: one restarting.
	Work
	// Serve: the daemon's or the portal's own, which embeds a server without nats.url.
	Serve
)

// CloseEngineAfter has every command of c's tree close the engine when it ends, failed or
// not (cobra's post-run hooks run only after a success): the warm pool's containers and the
// removals in the background must not outlive the command.
func (a *App) CloseEngineAfter(c *cobra.Command) {
	if run := c.RunE; run != nil {
		c.RunE = func(cmd *cobra.Command, args []string) error {
			defer func() {
				if a.Engine != nil {
					a.Engine.Close()
					a.Engine = nil
				}
				if a.Lease != nil {
					a.Lease.Release()
					a.Lease = nil
				}
				a.CloseLookup()
			}()
			return run(cmd, args)
		}
	}
	for _, sub := range c.Commands() {
		a.CloseEngineAfter(sub)
	}
}

// Sandbox connects to the engine once per command and sweeps orphans of dead judges.
func (a *App) Sandbox(ctx context.Context) (*sandbox.Engine, error) {
	if a.Engine != nil {
		return a.Engine, nil
	}
	// A command that checked only some sections (sectionsOf) checks the sandbox's now.
	if err := a.Cfg.ValidateOnly([]string{"images", "build", "sandbox"}); err != nil {
		return nil, cli.Usage(err)
	}
	e, err := sandbox.New(ctx, sandbox.Options{Host: a.Cfg.Docker.Host, StateDir: a.Cfg.DataDir, Logger: a.Log, Pool: a.Pool})
	if err != nil {
		return nil, err
	}
	if err := e.HasRuntime(ctx, a.Cfg.Sandbox.Runtime); err != nil {
		e.Close()
		return nil, err
	}
	if n, err := e.Sweep(ctx); err != nil {
		a.Log.Warn("sweeping orphan containers", "err", err)
	} else if n > 0 {
		a.Log.Info("swept orphan containers", "count", n)
	}
	a.Engine = e
	return e, nil
}

func (a *App) Catalog() (*images.Catalog, error) { return images.Load(a.Cfg.Images.Lock) }

// ResolutionFile is where `judge images build` records the lock as resolved against the
// mirror (images.Resolution).
func (a *App) ResolutionFile() string {
	return filepath.Join(a.Cfg.DataDir, "images", "resolved.json")
}

func (a *App) ImageBuilder(ctx context.Context) (*images.Builder, error) {
	e, err := a.Sandbox(ctx)
	if err != nil {
		return nil, err
	}
	cat, err := a.Catalog()
	if err != nil {
		return nil, err
	}
	sources := a.Cfg.Images.Sources
	sources.GoProxy = goProxy(sources.GoProxy)
	sources.Downloads = filepath.Join(a.Cfg.DataDir, "downloads")
	return &images.Builder{
		Engine: e, Catalog: cat, Prefix: a.Cfg.Images.Prefix, Logger: a.Log,
		StateDir: filepath.Join(a.Cfg.DataDir, "images"),
		Sources:  sources,
	}, nil
}

// goProxy picks the configured proxy, else the first URL in GOPROXY, else the public one.
func goProxy(configured string) string {
	if configured != "" {
		return configured
	}
	for _, p := range strings.FieldsFunc(os.Getenv("GOPROXY"), func(r rune) bool { return r == ',' || r == '|' }) {
		if strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://") {
			return p
		}
	}
	return "https://proxy.golang.org"
}

func (a *App) Builder(ctx context.Context) (*build.Builder, error) {
	e, err := a.Sandbox(ctx)
	if err != nil {
		return nil, err
	}
	cat, err := a.Catalog()
	if err != nil {
		return nil, err
	}
	limits := a.Cfg.Build
	limits.Runtime = a.Cfg.Sandbox.Runtime
	return &build.Builder{
		Sandbox: e, Catalog: cat, Prefix: a.Cfg.Images.Prefix,
		Dir:    a.BuildDir(),
		Limits: limits,
	}, nil
}

// BuildDir is the build cache's directory.
func (a *App) BuildDir() string { return filepath.Join(a.Cfg.DataDir, "artifacts") }

// PlayRunner is a runner with a builder of its own, for a command that plays.
func (a *App) PlayRunner(ctx context.Context) (*match.Runner, error) {
	b, err := a.Builder(ctx)
	if err != nil {
		return nil, err
	}
	return a.Runner(b)
}

func (a *App) Runner(b *build.Builder) (*match.Runner, error) {
	s := a.Cfg.Sandbox
	work := filepath.Join(a.Cfg.DataDir, "matches")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	limits := s.Limits
	if usable, err := (cores.Host{}).Usable(); err == nil && s.Pin && len(usable) > 1 {
		limits.CPUSet = usable[len(usable)-1].Set() // a single match's: the last core
	}
	return &match.Runner{
		Sandbox: a.Engine, Builder: b, WorkDir: work, Version: a.Version,
		Limits: limits, Freeze: s.Freeze, Output: s.Output, StderrMatch: s.StderrMatch,
	}, nil
}

// Queue connects to nats.url; with none, serve embeds a server and the clients look for the
// embedded one on nats.listen.
func (a *App) Queue(ctx context.Context, use Use) (*queue.Queue, error) {
	o := a.Cfg.Queue()
	o.Logger = a.Log
	o.WaitForServer = use != Look && o.URL != ""
	switch {
	case o.URL == "" && use == Serve:
		o.StoreDir = a.NatsStore()
	case o.URL == "":
		o.URL = "nats://" + o.Listen
		fallthrough
	default: // a client: the embedded server's settings are not its own
		o.StoreDir, o.ServerName, o.Cluster = "", "", queue.Cluster{}
	}
	q, err := queue.Open(ctx, o)
	switch {
	case err != nil && a.Cfg.NATS.URL != "":
		return nil, fmt.Errorf("%w (nats.url's: is its server running?)", err)
	case err != nil && use != Serve:
		return nil, fmt.Errorf("%w (is `judge serve` running? set nats.url to use another server)", err)
	}
	return q, err
}

// JobRules are what a job is checked against on this judge.
func (a *App) JobRules() job.Rules {
	return job.Rules{Game: a.Lookup, Langs: images.LangNames(), MaxSource: int64(a.Cfg.Build.SourceLimit)}
}

// NatsStore is the embedded server's storage directory: nats.store, else data_dir/nats.
func (a *App) NatsStore() string {
	return cmp.Or(a.Cfg.NATS.StoreDir, filepath.Join(a.Cfg.DataDir, "nats"))
}

// LookupGame finds the game a flag names, or says which games there are.
func (a *App) LookupGame(flag, name string) (game.Game, error) {
	if name == "" {
		return nil, cli.Usage(fmt.Errorf("%s: which game (%s)", flag, BuiltinNames()))
	}
	if _, builtin := games.Lookup(name); !builtin && a.Added == nil {
		// A game added to the store: the store is reached for it (and closed with the
		// command).
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		q, err := a.GamesStore(ctx)
		if err != nil {
			return nil, UnreachableGame(flag, name, err)
		}
		a.LookupStore = q
		if err := a.UseCatalog(ctx, q); err != nil {
			return nil, err
		}
	}
	g, ok := a.Lookup(name)
	if !ok {
		return nil, cli.Usage(fmt.Errorf("%s: unknown game %q; known: %s", flag, name, a.GameNames()))
	}
	return g, nil
}

// CloseLookup closes the store LookupGame opened, if it did; the games it found stay known
// until a command opens the store again (UseCatalog).
func (a *App) CloseLookup() {
	if a.LookupStore != nil {
		a.LookupStore.Close()
		a.LookupStore = nil
	}
}

// UnreachableGame is the error for a game name no built-in game has, given to flag, when the
// store that holds the added games cannot be reached (err): the name may be wrong, or the
// store down, and both are said.
func UnreachableGame(flag, name string, err error) error {
	return cli.Usage(fmt.Errorf("%s: unknown game %q; known: %s (and the games added with judge game add, in the judge's store, which is not reachable: %w)",
		flag, name, BuiltinNames(), err))
}

// Lookup finds a game by name: a built-in game, or a game added to the store once the
// command has opened it (useCatalog).
func (a *App) Lookup(name string) (game.Game, bool) {
	if a.Added != nil {
		return a.Added.Lookup(name)
	}
	return games.Lookup(name)
}

// GamesStore opens the store that holds the added games, for a command that only reads them:
// nats.url's, else the judge serving on nats.listen, else the data directory's own store read
// in this process (changing nothing), when it has one.
func (a *App) GamesStore(ctx context.Context) (*queue.Queue, error) {
	q, err := a.Queue(ctx, Look)
	if err == nil || a.Cfg.NATS.URL != "" {
		return q, err
	}
	if dir := a.NatsStore(); queue.HasStore(dir) {
		o := a.Cfg.Queue()
		o.URL, o.StoreDir, o.InProcess, o.ReadOnly, o.Logger = "", dir, true, true, a.Log
		if local, lerr := queue.Open(ctx, o); lerr == nil {
			return local, nil
		}
	}
	return nil, err
}

// UseCatalog has the command know the games added to q's store (judge game add).
func (a *App) UseCatalog(ctx context.Context, q *queue.Queue) error {
	kv, err := q.KeyValue(ctx, catalog.Bucket)
	if err != nil {
		return fmt.Errorf("the added games: %w", err)
	}
	a.Added = catalog.New(kv, q, games.Lookup, a.ManifestCheck(), a.Log)
	return nil
}

func BuiltinNames() string {
	var n []string
	for _, g := range games.All() {
		n = append(n, g.Name())
	}
	return strings.Join(n, ", ")
}

// GameNames are the built-in games' names, then those added to the store when the command
// has it.
func (a *App) GameNames() string {
	names := BuiltinNames()
	if a.Added == nil {
		return names
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	added, err := a.Added.List(ctx)
	if err != nil {
		return names
	}
	for _, e := range added {
		names += ", " + e.Name
	}
	return names
}

// ManifestCheck is what an added game's manifest is checked against on this judge.
func (a *App) ManifestCheck() manifest.Check {
	return manifest.Check{
		Builtin: func(name string) bool { _, ok := games.Lookup(name); return ok },
		Langs:   images.LangNames(),
	}
}

// PortalStore opens the portal's store (storeQueue's).
func (a *App) PortalStore(ctx context.Context) (*store.Store, *queue.Queue, error) {
	q, err := a.StoreQueue(ctx)
	if err != nil {
		return nil, nil, err
	}
	kv, err := q.KeyValue(ctx, "portal")
	if err == nil {
		err = a.UseCatalog(ctx, q)
	}
	if err != nil {
		q.Close()
		return nil, nil, err
	}
	st := store.New(kv)
	st.TokenTTL = a.Cfg.Portal.TokenTTL()
	return st, q, nil
}

// StoreQueue opens the judge's store for an organiser's command: on nats.url's server; else
// on the judge serving on nats.listen; else on the data directory's NATS store, opened here
// (no judge need run for the organiser to make contests and people, or add a game).
func (a *App) StoreQueue(ctx context.Context) (*queue.Queue, error) {
	q, err := a.Queue(ctx, Work)
	if err != nil && a.Cfg.NATS.URL == "" {
		o := a.Cfg.Queue()
		o.URL, o.StoreDir, o.InProcess, o.Logger = "", a.NatsStore(), true, a.Log
		q, err = queue.Open(ctx, o)
	}
	return q, err
}

// ContestEngine is the contest engine of st and q, logging as the command does.
func (a *App) ContestEngine(st *store.Store, q *queue.Queue) *contest.Engine {
	return contest.New(contest.Config{Store: st, Queue: q, Games: a.Lookup, Log: a.Log, Starter: games.Starter})
}

// LocalBuilder builds with this machine's compilers, keeping its builds in the data directory.
func (a *App) LocalBuilder() *local.Builder {
	return &local.Builder{Dir: filepath.Join(a.Cfg.DataDir, "local", "builds")}
}

// viewOpenTimeout bounds finding the results: a server that does not answer within it is
// not there, and recovering a store that takes longer is not a viewer's to wait for.
const viewOpenTimeout = 30 * time.Second

// StoreStartWait is how long the viewer waits for a server that holds the store but has not
// said yet where it answers (it is starting).
var StoreStartWait = 5 * time.Second

// ReadQueue opens, read-only, the judge's stores (`judge view` and `judge store` read them):
// of the NATS store store when given; else nats.url's; else the data directory's store; else
// the judge serve on nats.listen. from says which, for the user.
func (a *App) ReadQueue(ctx context.Context, store string) (q *queue.Queue, from string, err error) {
	ctx, cancel := context.WithTimeout(ctx, viewOpenTimeout)
	defer cancel()
	n := a.Cfg.NATS
	if store == "" && n.URL != "" {
		q, err := a.ReadOnlyAt(ctx, n.URL)
		if err != nil {
			return nil, "", fmt.Errorf("the stores at nats.url cannot be read: %w", err)
		}
		return q, "of the NATS server at " + n.URL, nil
	}
	if store == "" {
		if dir := a.NatsStore(); queue.HasStore(dir) {
			store = dir
		}
	}
	if store == "" {
		url := "nats://" + n.Listen
		q, err := a.ReadOnlyAt(ctx, url)
		if err != nil {
			return nil, "", fmt.Errorf("there is no NATS store in the data directory %s, and no judge serve answers at %s: %w",
				a.Cfg.DataDir, url, err)
		}
		return q, "of the judge serving at " + url, nil
	}
	waitUntil := time.Now().Add(StoreStartWait)
	for {
		q, err := queue.Open(ctx, queue.Options{StoreDir: store, InProcess: true, ReadOnly: true, Prefix: n.Prefix, Logger: a.Log})
		var inUse *queue.StoreInUseError
		if !errors.As(err, &inUse) {
			if err != nil {
				return nil, "", fmt.Errorf("reading the NATS store %s: %w", store, err)
			}
			return q, fmt.Sprintf("in the NATS store %s (read here; nothing is changed)", store), nil
		}
		// Two servers on one store would corrupt it: read through the one running there.
		if inUse.URL != "" {
			q, err := a.ReadOnlyAt(ctx, inUse.URL)
			if err != nil {
				return nil, "", fmt.Errorf("%w, and reading through it failed: %w", inUse, err)
			}
			return q, fmt.Sprintf("of the NATS store %s, through the judge serving it at %s", store, inUse.URL), nil
		}
		if time.Now().After(waitUntil) {
			return nil, "", fmt.Errorf("%w; it takes no clients to read through (another judge view, or a server still starting): stop it or wait until it is up", inUse)
		}
		select {
		case <-ctx.Done():
			return nil, "", fmt.Errorf("%w: %w", inUse, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// ReadOnlyAt connects read-only to the NATS server at url.
func (a *App) ReadOnlyAt(ctx context.Context, url string) (*queue.Queue, error) {
	return queue.Open(ctx, queue.Options{URL: url, ReadOnly: true, Prefix: a.Cfg.NATS.Prefix, Logger: a.Log})
}

// AddedGame is the game of directory dir: its manifest checked and its referee built in the
// toolchain of its language (so that one that does not compile is said so before anything
// is played); each match runs it in a sandbox of its own (match.Referee.Bind).
func (a *App) AddedGame(ctx context.Context, dir string) (*referee.Game, error) {
	g, err := referee.Load(os.DirFS(dir), a.ManifestCheck())
	if err != nil {
		return nil, cli.Usage(fmt.Errorf("--game %s: %w", dir, err))
	}
	var b match.Builder = a.LocalBuilder()
	if !a.Local {
		if b, err = a.Builder(ctx); err != nil {
			return nil, err
		}
	}
	// A referee that cannot be built is the game's directory at fault, said one way here and
	// by the sandbox's build alike: exit 2, naming referee.files.
	built, err := b.Build(ctx, submission.Submission{Lang: g.Manifest.Referee.Lang, Files: g.Sources})
	if errors.Is(err, submission.ErrInvalid) {
		why := strings.TrimPrefix(err.Error(), submission.ErrInvalid.Error()+": ")
		return nil, cli.Usage(fmt.Errorf("--game %s: %s: referee.files: the referee cannot be built: %s", dir, manifest.File, why))
	}
	if err != nil {
		return nil, err
	}
	if !built.OK {
		return nil, cli.Usage(fmt.Errorf("--game %s: %s: referee.files: the referee does not compile (%s):\n%s", dir, manifest.File, built.Failure, built.Log))
	}
	return g, nil
}
