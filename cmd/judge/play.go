package main

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox"
)

// version is the judge's version, set at build time with -ldflags "-X main.version=...".
var version = "dev"

func (a *app) playCmd() *cobra.Command {
	var gameName, replayFile string
	var seed uint64
	var opts []string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "play --game G [--seed N] [--opt k=v]... [--replay FILE] [--json] BOT...",
		Short: "Judge one match locally, in the same sandboxes the daemon uses",
		Long: "Judge one match locally. A BOT is a source file or directory, optionally prefixed with its\n" +
			"language (cpp:, pascal:, java:, go:); players are in command-line order (player 0 first).\n" +
			"An option value starting with @ is read from that file (e.g. --opt maze=@maze.txt).",
		RunE: func(cmd *cobra.Command, args []string) error {
			g, options, entrants, err := a.matchArgs(gameName, opts, args)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("seed") {
				seed = randomSeed()
			}
			r, err := a.runner(cmd)
			if err != nil {
				return err
			}
			job := match.Job{Game: g, Seed: seed, Options: options, Players: entrants}
			// The replay is written beside FILE and takes its name only once the match is
			// judged: a match that could not be (a bad option, say) leaves no file.
			var rf *os.File
			if replayFile != "" {
				if rf, err = os.CreateTemp(filepath.Dir(replayFile), "."+filepath.Base(replayFile)+".*"); err != nil {
					return err
				}
				defer func() {
					rf.Close()
					os.Remove(rf.Name()) // gone already once renamed
				}()
				job.Replay = replay.NewWriter(rf)
			}
			res, err := r.Play(cmd.Context(), job)
			var me *match.Error
			if errors.As(err, &me) && me.Code != result.Infrastructure {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			if replayFile != "" {
				res.Replay = replayFile
				if err := job.Replay.Err(); err != nil {
					return fmt.Errorf("writing the replay: %w", err)
				}
				if err := rf.Chmod(0o644); err != nil {
					return fmt.Errorf("writing the replay: %w", err)
				}
				if err := rf.Close(); err != nil {
					return fmt.Errorf("writing the replay: %w", err)
				}
				if err := os.Rename(rf.Name(), replayFile); err != nil {
					return fmt.Errorf("writing the replay: %w", err)
				}
			}
			if asJSON {
				return json.NewEncoder(os.Stdout).Encode(res)
			}
			return res.WriteTable(os.Stdout)
		},
	}
	f := cmd.Flags()
	f.StringVar(&gameName, "game", "", "the game ("+gameNames()+")")
	f.Uint64Var(&seed, "seed", 0, "the match's seed (default: a random one, reported in the result)")
	f.StringArrayVar(&opts, "opt", nil, "a game option k=v (repeatable; see `judge games`)")
	f.StringVar(&replayFile, "replay", "", "write the replay (JSON Lines) to this file")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	cmd.MarkFlagRequired("game")
	return cmd
}

func (a *app) runner(cmd *cobra.Command) (*match.Runner, error) {
	b, err := a.builder(cmd.Context())
	if err != nil {
		return nil, err
	}
	s := a.cfg.Sandbox
	work := filepath.Join(a.cfg.DataDir, "matches")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	cpuset := ""
	if cores := botCores(s.Pin, 1); len(cores) > 0 {
		cpuset = cores[0]
	}
	return &match.Runner{
		Sandbox: a.engine, Builder: b, WorkDir: work, Version: version,
		Limits: sandbox.Limits{
			Memory: int64(s.Memory), CPUs: s.CPUs, CPUSet: cpuset, Pids: s.Pids, NoFile: s.NoFile,
			FileSize: int64(s.FileSize), Tmpfs: int64(s.Tmpfs), Network: s.Network, Seccomp: s.Seccomp,
			Runtime: s.Runtime,
		},
		Freeze:      sandbox.Freeze(s.Freeze),
		StdoutLimit: int64(s.StdoutLimit), StderrLimit: int64(s.StderrLimit), LineLimit: int(s.LineLimit),
	}, nil
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

// randomSeed draws a seed below 2^53, so that it survives JSON readers that use doubles.
func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]) >> 11
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

func (a *app) gamesCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "games",
		Short: "List the games, their player counts, options and defaults",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			type row struct {
				Name    string        `json:"name"`
				Min     int           `json:"min_players"`
				Max     int           `json:"max_players"`
				Default int           `json:"default_players"`
				Options []game.Option `json:"options"`
			}
			var rows []row
			for _, g := range games.All() {
				min, max, def := g.Players()
				rows = append(rows, row{g.Name(), min, max, def, g.Options()})
			}
			if asJSON {
				enc := json.NewEncoder(os.Stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
			for _, r := range rows {
				players := fmt.Sprint(r.Min)
				if r.Max != r.Min {
					players = fmt.Sprintf("%d-%d (default %d)", r.Min, r.Max, r.Default)
				}
				fmt.Fprintf(tw, "%s\tplayers: %s\n", r.Name, players)
				for _, o := range r.Options {
					def := o.Default
					if def == "" {
						def = `""`
					}
					fmt.Fprintf(tw, "  %s\t%s\t%s\n", o.Name, def, o.Help)
				}
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func (a *app) replayCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "replay", Short: "Work with replays"}
	cmd.AddCommand(&cobra.Command{
		Use:   "verify FILE",
		Short: "Re-run the referee on a replay's recorded answers (no bots) and confirm the same result",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			f, err := os.Open(args[0])
			if err != nil {
				return usageError{err}
			}
			defer f.Close()
			res, err := replay.Verify(f, games.Lookup)
			if err != nil {
				return err
			}
			fmt.Printf("verified: %s seed %d, re-judged to the recorded result\n", res.Game, res.Seed)
			return nil
		},
	})
	return cmd
}
