// Command judge referees programming-contest bot games: it builds submissions in pinned
// toolchain images, runs them in locked-down containers and judges their matches.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/cmd/judge/internal/contestcmd"
	"github.com/botjudge/judge/cmd/judge/internal/gamecmd"
	"github.com/botjudge/judge/cmd/judge/internal/imagescmd"
	"github.com/botjudge/judge/cmd/judge/internal/storecmd"
	"github.com/botjudge/judge/config"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/setting"
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

// app is the root's base.App, on which the commands still in this package hang.
type app struct{ *base.App }

// newApp is the app of this build.
func newApp() *app { return &app{&base.App{Version: judgeVersion()}} }

func newRoot() *cobra.Command {
	a := newApp()
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
			cfg, err := config.LoadOnly(a.ConfigFile, cmd.Flags(), sectionsOf(cmd))
			if err != nil {
				return cli.Usage(err)
			}
			a.Cfg = cfg
			a.Log = newLogger(cfg.Log)
			return nil
		},
	}
	pf := root.PersistentFlags()
	pf.StringVar(&a.ConfigFile, "config", "", "configuration file (default: ./judge.yaml or /etc/judge/judge.yaml)")
	pf.String("data-dir", "", "directory for caches and state (key data_dir)")
	root.SetVersionTemplate("{{.Version}}\n") // as `judge version` prints it
	root.AddCommand(imagescmd.Cmd(a.App), a.compileCmd(), a.playCmd(), a.gamesCmd(), a.replayCmd(),
		a.serveCmd(), a.submitCmd(), a.resultsCmd(), a.rebuildCmd(), a.tournamentCmd(), a.compareCmd(), a.viewCmd(),
		a.portalCmd(), storecmd.Cmd(a.App), gamecmd.Cmd(a.App), contestcmd.Cmd(func() int64 { return int64(a.Cfg.Build.SourceLimit) }), a.versionCmd(), a.docsCmd(), similarCmd())
	// The commands that read the store or nothing of the judge's own: a mistake in the
	// sandbox's or the daemon's settings does not stop them (the sandbox's is checked once one
	// reaches for it: an added game's referee).
	for name, sections := range map[string]string{"contest": "", "version": "", "docs": "", "similar": "", "games": "nats", "replay": "nats", "view": "nats", "results": "nats"} {
		if c, _, err := root.Find([]string{name}); err == nil && c != root {
			c.Annotations = map[string]string{configSections: sections}
		}
	}
	a.CloseEngineAfter(root)
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

// matchArgs reads what play and submit share: the game, its --opt values and the BOTs. It
// checks them by the rules the referee applies when the match starts (game.Start: the player
// count, then the options, for seed), so that bad arguments are refused before anything is
// built or queued. Every problem is a usage error that names the argument.
func (a *app) matchArgs(gameName string, seed uint64, opts, bots []string) (game.Game, map[string]string, []match.Entrant, error) {
	g, err := a.LookupGame("--game", gameName)
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
	options, err := cli.ParseOptions(opts)
	if err != nil {
		return nil, nil, nil, cli.Usage(err)
	}
	if err := checkOptions(g, seed, len(bots), options); err != nil {
		return nil, nil, nil, err
	}
	var entrants []match.Entrant
	for _, arg := range bots {
		s, err := cli.LoadBot(arg, int64(a.Cfg.Build.SourceLimit))
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

func printResult(w io.Writer, res result.Result, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(w).Encode(res)
	}
	return res.WriteTable(w)
}
