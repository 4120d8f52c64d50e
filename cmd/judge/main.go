// Command judge referees programming-contest bot games: it builds submissions in pinned
// toolchain images, runs them in locked-down containers and judges their matches.
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/cmd/judge/internal/contestcmd"
	"github.com/botjudge/judge/config"
	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/catalog"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/setting"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/cores"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRoot()
	err := root.ExecuteContext(ctx)
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, "judge:", err)
	os.Exit(exitCode(err))
}

// exitCode is a command's exit status: 0 when it did what it was asked, 2 when its arguments
// are bad (a cli.UsageError: nothing was attempted), 1 when it could not do it.
func exitCode(err error) int {
	var ue cli.UsageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		return 2
	}
	return 1
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
				if a.lease != nil {
					a.lease.Release()
					a.lease = nil
				}
				if a.lookupStore != nil {
					a.lookupStore.Close()
					a.lookupStore = nil
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
	lease      *cores.Lease // the cores the daemon's workers hold, released with the engine
	// pool sizes the engine's pool of containers when it is made: judge serve's, from its
	// workers; none for the other commands.
	pool sandbox.Pool
	// added finds the games added to the store, once a command that has the store opened
	// it (useCatalog); without it, only the built-in games are known.
	added *catalog.Catalog
	// lookupStore is the store lookupGame reached for an added game, closed with the command.
	lookupStore *queue.Queue
	// local builds with this machine's compilers, not in the sandbox (judge play --local).
	local bool
}

func newRoot() *cobra.Command {
	a := &app{}
	root := &cobra.Command{
		Use:           "judge",
		Short:         "Referee for programming-contest bot games",
		Version:       judgeVersion(),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			// Cobra checks required flags after this; checked here, a missing one is typed.
			if err := cmd.ValidateRequiredFlags(); err != nil {
				return cli.Usage(err)
			}
			cfg, err := config.LoadOnly(a.configFile, cmd.Flags(), sectionsOf(cmd))
			if err != nil {
				return cli.Usage(err)
			}
			a.cfg = cfg
			a.log = newLogger(cfg.Log)
			return nil
		},
	}
	pf := root.PersistentFlags()
	pf.StringVar(&a.configFile, "config", "", "configuration file (default: ./judge.yaml or /etc/judge/judge.yaml)")
	pf.String("data-dir", "", "directory for caches and state (key data_dir)")
	root.SetVersionTemplate("{{.Version}}\n") // as `judge version` prints it
	root.AddCommand(a.imagesCmd(), a.compileCmd(), a.playCmd(), a.gamesCmd(), a.replayCmd(),
		a.serveCmd(), a.submitCmd(), a.resultsCmd(), a.rebuildCmd(), a.tournamentCmd(), a.compareCmd(), a.viewCmd(),
		a.portalCmd(), a.storeCmd(), a.gameCmd(), contestcmd.Cmd(func() int64 { return int64(a.cfg.Build.SourceLimit) }), a.versionCmd(), a.docsCmd())
	// The commands that read the store or nothing of the judge's own: a mistake in the
	// sandbox's or the daemon's settings does not stop them (the sandbox's is checked once one
	// reaches for it: an added game's referee).
	for name, sections := range map[string]string{"contest": "", "version": "", "docs": "", "games": "nats", "replay": "nats", "view": "nats", "results": "nats"} {
		if c, _, err := root.Find([]string{name}); err == nil && c != root {
			c.Annotations = map[string]string{configSections: sections}
		}
	}
	a.closeEngineAfter(root)
	// Bad flags and arguments are usage errors (exit status 2), typed rather than told from
	// the error's text.
	root.SetFlagErrorFunc(flagError)
	var typeArgs func(c *cobra.Command)
	typeArgs = func(c *cobra.Command) {
		if !c.Runnable() && c.HasSubCommands() {
			commandGroup(c)
		}
		if check := c.Args; check != nil {
			c.Args = func(cmd *cobra.Command, args []string) error {
				err := check(cmd, args)
				var ue cli.UsageError
				if err != nil && !errors.As(err, &ue) {
					return cli.Usage(fmt.Errorf("%s: %w (usage: %s)", cmd.CommandPath(), err, cmd.UseLine()))
				}
				return err
			}
		}
		for _, sub := range c.Commands() {
			typeArgs(sub)
		}
	}
	typeArgs(root)
	return root
}

// commandGroup makes c, a command that only holds others (judge, judge images), refuse an
// unknown command with exit status 2: cobra would print c's help and exit 0 (below the root).
// Without arguments it prints its help.
func commandGroup(c *cobra.Command) {
	c.SuggestionsMinimumDistance = 2 // cobra's own default, which SuggestionsFor does not apply
	c.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		var names []string
		for _, sub := range cmd.Commands() {
			if sub.IsAvailableCommand() {
				names = append(names, sub.Name())
			}
		}
		msg := fmt.Sprintf("unknown command %q for %q (its commands: %s)", args[0], cmd.CommandPath(), strings.Join(names, ", "))
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			msg += "; did you mean " + strings.Join(s, " or ") + "?"
		}
		return cli.Usage(errors.New(msg))
	}
	c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
}

// flagError is a bad flag as a usage error; a value the flag cannot take is said in words
// rather than in its parser's ("strconv.ParseUint: parsing "-1": invalid syntax").
func flagError(cmd *cobra.Command, err error) error {
	var bad *pflag.InvalidValueError
	var unknown *pflag.NotExistError
	if errors.As(err, &unknown) && strings.HasPrefix(err.Error(), "unknown flag: --") {
		if s := similarFlag(cmd, unknown.GetSpecifiedName()); s != "" {
			err = fmt.Errorf("%w; did you mean --%s?", err, s)
		}
	}
	if errors.As(err, &bad) {
		f := bad.GetFlag()
		if want, ok := flagWants[f.Value.Type()]; ok {
			err = fmt.Errorf("invalid value %q for --%s: want %s", bad.GetValue(), f.Name, want)
		}
	}
	return cli.Usage(err)
}

// configSections annotates a command with the configuration's sections it reads, comma
// separated: only those are checked (config.ValidateOnly). A command without it, nor a
// parent with it, has every section checked.
const configSections = "config-sections"

// sectionsOf are the sections cmd reads (configSections), nil for every one.
func sectionsOf(cmd *cobra.Command) []string {
	for c := cmd; c != nil; c = c.Parent() {
		if s, ok := c.Annotations[configSections]; ok {
			if s == "" {
				return []string{}
			}
			return strings.Split(s, ",")
		}
	}
	return nil
}

// similarFlag is the name of cmd's flag most like name (setting.Closest), "" when none is.
func similarFlag(cmd *cobra.Command, name string) string {
	var names []string
	visit := func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	return setting.Closest(name, names)
}

// flagWants says, per kind of flag value (pflag's Value.Type), what a valid one is.
var flagWants = map[string]string{
	"uint64":   "a whole number from 0 to 18446744073709551615",
	"int":      "a whole number",
	"bool":     "true or false",
	"duration": "a duration such as 90s, 5m or 1h30m",
}

func newLogger(c config.Log) *slog.Logger {
	opts := &slog.HandlerOptions{Level: c.Level}
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
	// A command that checked only some sections (sectionsOf) checks the sandbox's now.
	if err := a.cfg.ValidateOnly([]string{"images", "build", "sandbox"}); err != nil {
		return nil, cli.Usage(err)
	}
	e, err := sandbox.New(ctx, sandbox.Options{Host: a.cfg.Docker.Host, StateDir: a.cfg.DataDir, Logger: a.log, Pool: a.pool})
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
	sources := a.cfg.Images.Sources
	sources.GoProxy = goProxy(sources.GoProxy)
	sources.Downloads = filepath.Join(a.cfg.DataDir, "downloads")
	return &images.Builder{
		Engine: e, Catalog: cat, Prefix: a.cfg.Images.Prefix, Logger: a.log,
		StateDir: filepath.Join(a.cfg.DataDir, "images"),
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

func (a *app) builder(ctx context.Context) (*build.Builder, error) {
	e, err := a.sandbox(ctx)
	if err != nil {
		return nil, err
	}
	cat, err := a.catalog()
	if err != nil {
		return nil, err
	}
	limits := a.cfg.Build
	limits.Runtime = a.cfg.Sandbox.Runtime
	return &build.Builder{
		Sandbox: e, Catalog: cat, Prefix: a.cfg.Images.Prefix,
		Dir:    a.buildDir(),
		Limits: limits,
	}, nil
}

// buildDir is the build cache's directory.
func (a *app) buildDir() string { return filepath.Join(a.cfg.DataDir, "artifacts") }

// playRunner is a runner with a builder of its own, for a command that plays.
func (a *app) playRunner(ctx context.Context) (*match.Runner, error) {
	b, err := a.builder(ctx)
	if err != nil {
		return nil, err
	}
	return a.runner(b)
}

func (a *app) runner(b *build.Builder) (*match.Runner, error) {
	s := a.cfg.Sandbox
	work := filepath.Join(a.cfg.DataDir, "matches")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	limits := s.Limits
	if usable, err := (cores.Host{}).Usable(); err == nil && s.Pin && len(usable) > 1 {
		limits.CPUSet = usable[len(usable)-1].Set() // a single match's: the last core
	}
	return &match.Runner{
		Sandbox: a.engine, Builder: b, WorkDir: work, Version: judgeVersion(),
		Limits: limits, Freeze: s.Freeze, Output: s.Output, StderrMatch: s.StderrMatch,
	}, nil
}

// queueUse is what a command opens the queue for.
type queueUse int

const (
	// look: whether a judge runs, or what its store holds; no server is an answer, at once.
	look queueUse = iota
	// work: a client that works through the queue (jobs, results, objects) and waits a few
	// seconds for nats.url's server when it refuses connections: one restarting.
	work
	// serve: the daemon's or the portal's own, which embeds a server without nats.url.
	serve
)

// queue connects to nats.url; with none, serve embeds a server and the clients look for the
// embedded one on nats.listen.
func (a *app) queue(ctx context.Context, use queueUse) (*queue.Queue, error) {
	o := a.cfg.Queue()
	o.Logger = a.log
	o.WaitForServer = use != look && o.URL != ""
	switch {
	case o.URL == "" && use == serve:
		o.StoreDir = a.natsStore()
	case o.URL == "":
		o.URL = "nats://" + o.Listen
		fallthrough
	default: // a client: the embedded server's settings are not its own
		o.StoreDir, o.ServerName, o.Cluster = "", "", queue.Cluster{}
	}
	q, err := queue.Open(ctx, o)
	switch {
	case err != nil && a.cfg.NATS.URL != "":
		return nil, fmt.Errorf("%w (nats.url's: is its server running?)", err)
	case err != nil && use != serve:
		return nil, fmt.Errorf("%w (is `judge serve` running? set nats.url to use another server)", err)
	}
	return q, err
}

// jobRules are what a job is checked against on this judge.
func (a *app) jobRules() job.Rules {
	return job.Rules{Game: a.lookup, Langs: images.LangNames(), MaxSource: int64(a.cfg.Build.SourceLimit)}
}

// natsStore is the embedded server's storage directory: nats.store, else data_dir/nats.
func (a *app) natsStore() string {
	return cmp.Or(a.cfg.NATS.StoreDir, filepath.Join(a.cfg.DataDir, "nats"))
}

// matchArgs reads what play and submit share: the game, its --opt values and the BOTs. It
// checks them by the rules the referee applies when the match starts (game.Start: the player
// count, then the options, for seed), so that bad arguments are refused before anything is
// built or queued. Every problem is a usage error that names the argument.
func (a *app) matchArgs(gameName string, seed uint64, opts, bots []string) (game.Game, map[string]string, []match.Entrant, error) {
	g, err := a.lookupGame("--game", gameName)
	if err != nil {
		return nil, nil, nil, err
	}
	return a.matchArgsFor(g, seed, opts, bots)
}

// matchArgsFor is matchArgs for the game g.
func (a *app) matchArgsFor(g game.Game, seed uint64, opts, bots []string) (game.Game, map[string]string, []match.Entrant, error) {
	if err := game.CheckPlayers(g, len(bots)); err != nil {
		given := "no BOT arguments"
		if len(bots) > 0 {
			given = "BOT arguments: " + strings.Join(bots, " ")
		}
		return nil, nil, nil, cli.Usage(fmt.Errorf("%w (%s)", err, given))
	}
	options, err := parseOptions(opts)
	if err != nil {
		return nil, nil, nil, cli.Usage(err)
	}
	if err := checkOptions(g, seed, len(bots), options); err != nil {
		return nil, nil, nil, err
	}
	var entrants []match.Entrant
	for _, arg := range bots {
		s, err := cli.LoadBot(arg, int64(a.cfg.Build.SourceLimit))
		if err != nil {
			return nil, nil, nil, err
		}
		entrants = append(entrants, match.Entrant{Name: botName(arg), Submission: s})
	}
	return g, options, entrants, nil
}

// checkOptions is nil when a match of g for players players takes options: the referee's own
// rule, a match started (and dropped) as the referee starts it.
func checkOptions(g game.Game, seed uint64, players int, options map[string]string) error {
	if _, err := game.Start(g, game.Config{Seed: seed, Players: players, Options: options}); err != nil {
		return cli.Usage(fmt.Errorf("--opt: %w", err))
	}
	return nil
}

// lookupGame finds the game a flag names, or says which games there are.
func (a *app) lookupGame(flag, name string) (game.Game, error) {
	if name == "" {
		return nil, cli.Usage(fmt.Errorf("%s: which game (%s)", flag, gameNames()))
	}
	if _, builtin := games.Lookup(name); !builtin && a.added == nil {
		// A game added to the store: the store is reached for it (and closed with the
		// command).
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		q, err := a.gamesStore(ctx)
		if err != nil {
			return nil, unreachableGame(flag, name, err)
		}
		a.lookupStore = q
		if err := a.useCatalog(ctx, q); err != nil {
			return nil, err
		}
	}
	g, ok := a.lookup(name)
	if !ok {
		return nil, cli.Usage(fmt.Errorf("%s: unknown game %q; known: %s", flag, name, a.gameNames()))
	}
	return g, nil
}

// unreachableGame is the error for a game name no built-in game has, given to flag, when the
// store that holds the added games cannot be reached (err): the name may be wrong, or the
// store down, and both are said.
func unreachableGame(flag, name string, err error) error {
	return cli.Usage(fmt.Errorf("%s: unknown game %q; known: %s (and the games added with judge game add, in the judge's store, which is not reachable: %w)",
		flag, name, gameNames(), err))
}

// lookup finds a game by name: a built-in game, or a game added to the store once the
// command has opened it (useCatalog).
func (a *app) lookup(name string) (game.Game, bool) {
	if a.added != nil {
		return a.added.Lookup(name)
	}
	return games.Lookup(name)
}

// gamesStore opens the store that holds the added games, for a command that only reads them:
// nats.url's, else the judge serving on nats.listen, else the data directory's own store read
// in this process (changing nothing), when it has one.
func (a *app) gamesStore(ctx context.Context) (*queue.Queue, error) {
	q, err := a.queue(ctx, look)
	if err == nil || a.cfg.NATS.URL != "" {
		return q, err
	}
	if dir := a.natsStore(); queue.HasStore(dir) {
		o := a.cfg.Queue()
		o.URL, o.StoreDir, o.InProcess, o.ReadOnly, o.Logger = "", dir, true, true, a.log
		if local, lerr := queue.Open(ctx, o); lerr == nil {
			return local, nil
		}
	}
	return nil, err
}

// useCatalog has the command know the games added to q's store (judge game add).
func (a *app) useCatalog(ctx context.Context, q *queue.Queue) error {
	kv, err := q.KeyValue(ctx, catalog.Bucket)
	if err != nil {
		return fmt.Errorf("the added games: %w", err)
	}
	a.added = catalog.New(kv, q, games.Lookup, a.manifestCheck(), a.log)
	return nil
}

// checkOutputFile refuses a file to write (given with flag, or as an argument when flag is "")
// whose directory is not there: the command would find out only once its work is done.
func checkOutputFile(flag, file string) error {
	if file == "" || file == "-" {
		return nil
	}
	dir := filepath.Dir(file)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return cli.Usage(fmt.Errorf("%s: no directory %s to write it in", strings.TrimSpace(flag+" "+file), dir))
	}
	return nil
}

// checkListen refuses an address to serve on that is not HOST:PORT, naming the flag; a bare
// port is answered with the address it likely meant.
func checkListen(flag, addr string) error {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		if strings.Trim(addr, "0123456789") == "" && addr != "" {
			return cli.Usage(fmt.Errorf("%s %s: want HOST:PORT, e.g. %s 127.0.0.1:%s (0.0.0.0:%s serves every network)", flag, addr, flag, addr, addr))
		}
		return cli.Usage(fmt.Errorf("%s %s: want HOST:PORT, e.g. %s 127.0.0.1:8080", flag, addr, flag))
	}
	return nil
}

// listenOn listens on addr (given with flag); an address in use or not this machine's says
// so, naming the flag.
func listenOn(flag, addr string) (net.Listener, error) {
	if err := checkListen(flag, addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return nil, fmt.Errorf("%s %s: the address is in use (another judge view or judge portal?): give another with %s", flag, addr, flag)
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return nil, cli.Usage(fmt.Errorf("%s %s: no network of this machine has that address", flag, addr))
	case err != nil:
		return nil, fmt.Errorf("%s %s: %w", flag, addr, err)
	}
	return ln, nil
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
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("--opt %s: no such file %s", kv, file)
			}
			if err != nil {
				return nil, fmt.Errorf("--opt %s: %w", kv, err)
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

// gameNames are the built-in games' names, then those added to the store when the command
// has it.
func (a *app) gameNames() string {
	names := gameNames()
	if a.added == nil {
		return names
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	added, err := a.added.List(ctx)
	if err != nil {
		return names
	}
	for _, e := range added {
		names += ", " + e.Name
	}
	return names
}

func printResult(w io.Writer, res result.Result, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(w).Encode(res)
	}
	return res.WriteTable(w)
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
