package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
)

func (a *app) playCmd() *cobra.Command {
	var gameName, replayFile string
	var seed uint64
	var opts []string
	var asJSON, showStderr bool
	var aa againstArgs
	var how howToPlay
	cmd := &cobra.Command{
		Use: "play --game G [--seed N] [--opt k=v]... [--replay FILE] [--json] [--stderr] BOT...",
		Example: "  judge play --game amazes --seed 7 bots/amazes/cpp bots/amazes/go\n" +
			"  judge play --against match.jsonl --seat 1 [--keep-going] [--no-time-limits] mybot/",
		Short: "Judge one match locally, in the same sandboxes the daemon uses",
		Long: "Judge one match locally. A BOT is a source file or directory, optionally prefixed with its\n" +
			"language (" + strings.Join(images.LangNames(), ":, ") + ":); players are in command-line order (player 0 first).\n" +
			"An option value starting with @ is read from that file (e.g. --opt maze=@maze.txt).\n" +
			"With --stderr, what each bot wrote to stderr follows the result, move by move.\n\n" +
			"With --against REPLAY, the match the replay records is played again (its game, seed and\n" +
			"options) with BOT live in seat N and every other seat answering what it answered in the\n" +
			"recording: no opponent's code is needed. While BOT answers as recorded, the match is the\n" +
			"recorded one, exchange for exchange; at the first exchange that differs it stops and says\n" +
			"where (the turn, what was recorded, what BOT answered), exit status 1. With --keep-going it\n" +
			"plays on, the other seats giving their recorded answers in order while they have one.\n" +
			"An added game's replay finds its game in the judge's store, or in --game DIR.\n\n" +
			"--no-time-limits lets the bots take as long as they like (a debugger, printing): the game\n" +
			"counts no time (with --against, the recorded times while the match follows the recording).\n" +
			"--local runs the bots as plain processes of this machine, built with its own compilers\n" +
			"(no Docker, NOTHING SANDBOXED: only for your own bots); the result says so.",
		RunE: func(cmd *cobra.Command, args []string) error {
			a.Local = how.local
			if aa.file != "" || aa.seat != "" || aa.keepGoing {
				return a.playAgainstArgs(cmd, aa, how, gameName, args, replayFile, asJSON, showStderr)
			}
			if gameName == "" {
				return cli.Usage(fmt.Errorf("--game: which game to play (%s), or --against REPLAY", base.BuiltinNames()))
			}
			if !cmd.Flags().Changed("seed") {
				seed = randomSeed()
			}
			var g game.Game
			var options map[string]string
			var entrants []match.Entrant
			var err error
			if dir, ok := gameDir(gameName); ok {
				if g, err = a.AddedGame(cmd.Context(), dir); err == nil {
					g, options, entrants, err = a.matchArgsFor(g, seed, opts, args)
				}
			} else {
				g, options, entrants, err = a.matchArgs(gameName, seed, opts, args)
			}
			if err != nil {
				return err
			}
			if err := cli.CheckOutputFile("--replay", replayFile); err != nil {
				return err
			}
			job := match.Job{Game: g, Seed: seed, Options: options, Players: entrants}
			r, err := a.matchPlayer(cmd.Context(), how, job)
			if err != nil {
				return err
			}
			res, rp, err := playSaving(cmd.Context(), r, job, replayFile, showStderr)
			if err != nil && !errors.Is(err, result.Infrastructure) {
				return cli.Usage(err)
			}
			if err != nil {
				return err
			}
			if err := printPlayed(cmd, res, rp, asJSON); err != nil {
				return err
			}
			if res.Error != nil && res.Error.Code == result.Referee {
				return fmt.Errorf("the match could not be judged: %v", res.Error) // exit 1
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&gameName, "game", "", "the game ("+base.BuiltinNames()+"), or a game's directory (its game.yaml and referee: docs/referee.md)")
	f.Uint64Var(&seed, "seed", 0, "the match's seed (default: a random one, reported in the result)")
	f.StringArrayVar(&opts, "opt", nil, "a game option k=v (repeatable; the options are listed by judge games)")
	f.StringVar(&replayFile, "replay", "", "write the replay (JSON Lines) to this file")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	f.BoolVar(&showStderr, "stderr", false, "after the result, print what each bot wrote to stderr, move by move (on stderr with --json)")
	f.StringVar(&aa.file, "against", "", "play the match this replay records again, BOT live in --seat and the other seats answering as recorded")
	f.StringVar(&aa.seat, "seat", "", "with --against: the seat BOT plays, a number from 0 or the player's name in the replay")
	f.BoolVar(&aa.keepGoing, "keep-going", false, "with --against: play on past the first exchange that differs from the recording")
	f.BoolVar(&how.loose, "no-time-limits", false, "lift the bots' time limits (to run one under a debugger): the game counts no time, or the recorded time with --against")
	f.BoolVar(&how.local, "local", false, "run the bots as plain processes built with this machine's compilers, without Docker and NOT SANDBOXED (docs/contestant.md)")
	return cmd
}

// playAgainstArgs checks the flags of judge play --against and plays.
func (a *app) playAgainstArgs(cmd *cobra.Command, aa againstArgs, how howToPlay, gameName string, args []string, replayFile string, asJSON, showStderr bool) error {
	switch {
	case aa.file == "":
		return cli.Usage(errors.New("--seat and --keep-going go with --against REPLAY"))
	case cmd.Flags().Changed("seed") || cmd.Flags().Changed("opt"):
		return cli.Usage(fmt.Errorf("--against %s: the match's seed and options are the recording's; --seed and --opt do not go with it", aa.file))
	case len(args) != 1:
		return cli.Usage(fmt.Errorf("--against %s: one BOT, the seat's, not %d", aa.file, len(args)))
	}
	if err := cli.CheckOutputFile("--replay", replayFile); err != nil {
		return err
	}
	return a.playAgainst(cmd, aa, how, gameName, args[0], replayFile, asJSON, showStderr)
}

// playSaving plays job. The replay is written beside file (when not "") and takes its name
// only once the match is judged: a match that could not be (a bad option, say) leaves no file.
// With keep, the replay is also read back from memory, for its stderr.
func playSaving(ctx context.Context, r player, job match.Job, file string, keep bool) (result.Result, *replay.Replay, error) {
	var rf *os.File
	var sinks []io.Writer
	if file != "" {
		var err error
		if rf, err = os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*"); err != nil {
			return result.Result{}, nil, err
		}
		defer func() {
			rf.Close()
			os.Remove(rf.Name()) // gone already once renamed
		}()
		sinks = append(sinks, rf)
	}
	var inMemory bytes.Buffer
	if keep {
		sinks = append(sinks, &inMemory)
	}
	if len(sinks) > 0 {
		job.Replay = io.MultiWriter(sinks...)
	}
	res, err := r.Play(ctx, job)
	if err != nil && !errors.Is(err, result.Referee) {
		return res, nil, err
	}
	if err != nil {
		// The referee failed: the match could not be judged, which the result says as a
		// judge's does (status error, code referee), and the replay keeps what was played up
		// to the failure, with that result as its last line.
		res.Status, res.Error, res.Winner, res.Players = result.StatusError, result.AsError(err), nil, nil
		res.Judge.Finished = time.Now().UTC()
		if file != "" {
			replay.NewWriter(rf).Result(res)
		}
		if keep {
			replay.NewWriter(&inMemory).Result(res)
		}
	}
	if file != "" {
		res.Replay = file
		if err := rf.Chmod(0o644); err != nil {
			return res, nil, fmt.Errorf("writing the replay: %w", err)
		}
		if err := rf.Close(); err != nil {
			return res, nil, fmt.Errorf("writing the replay: %w", err)
		}
		if err := os.Rename(rf.Name(), file); err != nil {
			return res, nil, fmt.Errorf("writing the replay: %w", err)
		}
	}
	if !keep {
		return res, nil, nil
	}
	rp, err := replay.Read(&inMemory)
	return res, rp, err
}

// printPlayed prints a match's result, as a table or JSON, then, when rp is not nil, each
// bot's stderr by move (on stderr with JSON: stdout holds one JSON document).
func printPlayed(cmd *cobra.Command, res result.Result, rp *replay.Replay, asJSON bool) error {
	out := cmd.OutOrStdout()
	var err error
	if asJSON {
		err = json.NewEncoder(out).Encode(res)
	} else {
		err = res.WriteTable(out)
	}
	if err != nil || rp == nil {
		return err
	}
	if asJSON {
		out = cmd.ErrOrStderr()
	}
	return writeStderr(out, rp)
}

// writeStderr prints each player's stderr as the replay has it, under the move during which
// it was written: its turn, and its exchange, the index of its line among the replay's moves
// (from 0, as the replay's stderr lines name it).
func writeStderr(w io.Writer, rp *replay.Replay) error {
	bw := bufio.NewWriter(w)
	for p, pl := range rp.Header.Players {
		fmt.Fprintf(bw, "== stderr of player %d (%s)\n", p, pl.Name)
		wrote := false
		for i, x := range rp.Exchanges {
			if x.Player != p || x.Stderr == "" {
				continue
			}
			fmt.Fprintf(bw, "-- turn %d (exchange %d)\n", x.Turn, i)
			bw.WriteString(x.Stderr)
			if !strings.HasSuffix(x.Stderr, "\n") {
				bw.WriteByte('\n')
			}
			wrote = true
		}
		if !wrote {
			fmt.Fprintln(bw, "(nothing)")
		}
	}
	return bw.Flush()
}

// randomSeed draws a seed below 2^53, so that it survives JSON readers that use doubles.
func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]) >> 11
}
