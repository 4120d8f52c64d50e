// Command judge referees programming-contest bot games: it builds submissions in pinned
// toolchain images, runs them in locked-down containers and judges their matches.
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/config"
	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox"
)

// usageError marks bad command-line arguments (exit status 2).
type usageError struct{ error }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRoot()
	err := root.ExecuteContext(ctx)
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, "judge:", err)
	var ue usageError
	if errors.As(err, &ue) || strings.HasPrefix(err.Error(), "unknown command") {
		os.Exit(2)
	}
	os.Exit(1)
}

// closeEngineAfter has every command of c's tree close the engine when it ends, failed or
// not (cobra's post-run hooks run only after a success): the warm pool's containers and the
// removals in the background must not outlive the command.
func (a *app) closeEngineAfter(c *cobra.Command) {
	if run := c.RunE; run != nil {
		c.RunE = func(cmd *cobra.Command, args []string) error {
			defer func() {
				if a.engine != nil {
					a.engine.Close()
					a.engine = nil
				}
			}()
			return run(cmd, args)
		}
	}
	for _, sub := range c.Commands() {
		a.closeEngineAfter(sub)
	}
}

// app is what every command shares: the configuration and, on demand, the engine.
type app struct {
	configFile string
	cfg        config.Config
	log        *slog.Logger
	engine     *sandbox.Engine
}

func newRoot() *cobra.Command {
	a := &app{}
	root := &cobra.Command{
		Use:           "judge",
		Short:         "Referee for programming-contest bot games",
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			// Cobra checks required flags after this; checked here, a missing one is typed.
			if err := cmd.ValidateRequiredFlags(); err != nil {
				return usageError{err}
			}
			cfg, err := config.Load(a.configFile, cmd.Flags())
			if err != nil {
				return usageError{err}
			}
			a.cfg = cfg
			a.log = newLogger(cfg.Log)
			return nil
		},
	}
	pf := root.PersistentFlags()
	pf.StringVar(&a.configFile, "config", "", "configuration file (default: ./judge.yaml or /etc/judge/judge.yaml)")
	pf.String("data-dir", "", "directory for caches and state (key data_dir)")
	root.AddCommand(a.imagesCmd(), a.compileCmd(), a.playCmd(), a.gamesCmd(), a.replayCmd(),
		a.serveCmd(), a.submitCmd(), a.resultsCmd(), a.rebuildCmd(), a.tournamentCmd(), a.viewCmd())
	a.closeEngineAfter(root)
	// Bad flags and arguments are usage errors (exit status 2), typed rather than told from
	// the error's text.
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	var typeArgs func(c *cobra.Command)
	typeArgs = func(c *cobra.Command) {
		if check := c.Args; check != nil {
			c.Args = func(cmd *cobra.Command, args []string) error {
				if err := check(cmd, args); err != nil {
					return usageError{err}
				}
				return nil
			}
		}
		for _, sub := range c.Commands() {
			typeArgs(sub)
		}
	}
	typeArgs(root)
	return root
}

func newLogger(c config.Log) *slog.Logger {
	level := map[string]slog.Level{"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError}[c.Level]
	opts := &slog.HandlerOptions{Level: level}
	if c.Format == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}

// sandbox connects to the engine once per command and sweeps orphans of dead judges.
func (a *app) sandbox(ctx context.Context) (*sandbox.Engine, error) {
	if a.engine != nil {
		return a.engine, nil
	}
	e, err := sandbox.New(ctx, sandbox.Options{Host: a.cfg.Docker.Host, StateDir: a.cfg.DataDir, Logger: a.log})
	if err != nil {
		return nil, err
	}
	if err := e.HasRuntime(ctx, a.cfg.Sandbox.Runtime); err != nil {
		e.Close()
		return nil, err
	}
	if n, err := e.Sweep(ctx); err != nil {
		a.log.Warn("sweeping orphan containers", "err", err)
	} else if n > 0 {
		a.log.Info("swept orphan containers", "count", n)
	}
	a.engine = e
	return e, nil
}

func (a *app) catalog() (*images.Catalog, error) { return images.Load(a.cfg.Images.Lock) }

// resolutionFile is where `judge images build` records the lock as resolved against the
// mirror (images.Resolution).
func (a *app) resolutionFile() string {
	return filepath.Join(a.cfg.DataDir, "images", "resolved.json")
}

func (a *app) imageBuilder(ctx context.Context) (*images.Builder, error) {
	e, err := a.sandbox(ctx)
	if err != nil {
		return nil, err
	}
	cat, err := a.catalog()
	if err != nil {
		return nil, err
	}
	return &images.Builder{
		Engine: e, Catalog: cat, Prefix: a.cfg.Images.Prefix, Logger: a.log,
		StateDir: filepath.Join(a.cfg.DataDir, "images"),
		Sources: images.Sources{
			DebianMirror:   a.cfg.Images.DebianMirror,
			SecurityMirror: a.cfg.Images.SecurityMirror,
			GoProxy:        goProxy(a.cfg.Images.GoProxy),
			Downloads:      filepath.Join(a.cfg.DataDir, "downloads"),
		},
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

func (a *app) builder(ctx context.Context) (*build.Builder, error) {
	e, err := a.sandbox(ctx)
	if err != nil {
		return nil, err
	}
	cat, err := a.catalog()
	if err != nil {
		return nil, err
	}
	return &build.Builder{
		Sandbox: e, Catalog: cat, Prefix: a.cfg.Images.Prefix,
		Dir:    filepath.Join(a.cfg.DataDir, "artifacts"),
		Limits: a.cfg.Build.Limits(a.cfg.Sandbox.Runtime),
	}, nil
}

// version is the judge's version, set at build time with -ldflags "-X main.version=...".
var version = "dev"

func (a *app) runner(b *build.Builder) (*match.Runner, error) {
	s := a.cfg.Sandbox
	work := filepath.Join(a.cfg.DataDir, "matches")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	cpuset := ""
	if cores := botCores(s.Pin, 1); len(cores) > 0 {
		cpuset = cores[0]
	}
	limits := s.Limits()
	limits.CPUSet = cpuset
	return &match.Runner{
		Sandbox: match.Engine{Engine: a.engine}, Builder: b, WorkDir: work, Version: version,
		Limits: limits, Freeze: sandbox.Freeze(s.Freeze), Output: s.Output(), StderrMatch: int64(s.StderrMatchLimit),
	}, nil
}

// queue connects to nats.url; with none, serve embeds a server and the clients look for the
// embedded one on nats.listen.
func (a *app) queue(ctx context.Context, serve bool) (*queue.Queue, error) {
	n := a.cfg.NATS
	o := queue.Options{URL: n.URL, Listen: n.Listen, Logger: a.log, Replicas: n.Replicas,
		AckWait: a.cfg.Serve.AckWait, MaxDeliver: a.cfg.Serve.MaxDeliver}
	if o.URL == "" {
		if serve {
			o.StoreDir = cmp.Or(n.Store, filepath.Join(a.cfg.DataDir, "nats"))
			o.ServerName = n.ServerName
			o.Cluster = queue.Cluster{Name: n.Cluster.Name, Listen: n.Cluster.Listen, Routes: n.Cluster.Routes}
		} else {
			o.URL = "nats://" + a.cfg.NATS.Listen
		}
	}
	q, err := queue.Open(ctx, o)
	if err != nil && !serve {
		return nil, fmt.Errorf("%w (is `judge serve` running? set nats.url to use another server)", err)
	}
	return q, err
}

// botCores gives each worker a core of its own for its bots, keeping core 0 for the judge and
// the engine, when the machine has enough cores; otherwise bots are not pinned.
func botCores(pin bool, workers int) []string {
	n := runtime.NumCPU()
	if !pin || n < 2 {
		return nil
	}
	var sets []string
	for i := 0; i < workers && i < n-1; i++ {
		sets = append(sets, fmt.Sprint(n-1-i))
	}
	return sets
}

// matchArgs reads what play and submit share: the game, its --opt values and the BOTs.
// Every problem is a usage error.
func (a *app) matchArgs(gameName string, opts, bots []string) (game.Game, map[string]string, []match.Entrant, error) {
	g, ok := games.Lookup(gameName)
	if !ok {
		return nil, nil, nil, usageError{fmt.Errorf("unknown game %q (known: %s)", gameName, gameNames())}
	}
	options, err := parseOptions(opts)
	if err != nil {
		return nil, nil, nil, usageError{err}
	}
	var entrants []match.Entrant
	for _, arg := range bots {
		s, err := build.Load(arg, int64(a.cfg.Build.SourceLimit))
		if err != nil {
			return nil, nil, nil, usageError{err}
		}
		entrants = append(entrants, match.Entrant{Name: botName(arg), Submission: s})
	}
	return g, options, entrants, nil
}

// parseOptions reads k=v pairs; a value @FILE is the file's content.
func parseOptions(kvs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--opt %q: want key=value", kv)
		}
		if file, isFile := strings.CutPrefix(v, "@"); isFile {
			data, err := os.ReadFile(file)
			if err != nil {
				return nil, fmt.Errorf("--opt %s: %w", k, err)
			}
			v = string(data)
		}
		out[k] = v
	}
	return out, nil
}

// botName names a player after its path: its last two elements ("amazes/cpp").
func botName(arg string) string {
	if _, rest, ok := strings.Cut(arg, ":"); ok && !strings.Contains(arg[:len(arg)-len(rest)-1], "/") {
		arg = rest
	}
	arg = strings.TrimSuffix(filepath.ToSlash(arg), "/")
	parts := strings.Split(arg, "/")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, "/")
}

func gameNames() string {
	var n []string
	for _, g := range games.All() {
		n = append(n, g.Name())
	}
	return strings.Join(n, ", ")
}

func printResult(res result.Result, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(os.Stdout).Encode(res)
	}
	return res.WriteTable(os.Stdout)
}

func shortID(id string) string {
	if id == "" {
		return "(missing)"
	}
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		id = id[:12]
	}
	return id
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
