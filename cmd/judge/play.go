package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

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
	cmd := &cobra.Command{
		Use:   "play --game G [--seed N] [--opt k=v]... [--replay FILE] [--json] [--stderr] BOT...",
		Short: "Judge one match locally, in the same sandboxes the daemon uses",
		Long: "Judge one match locally. A BOT is a source file or directory, optionally prefixed with its\n" +
			"language (" + strings.Join(images.LangNames(), ":, ") + ":); players are in command-line order (player 0 first).\n" +
			"An option value starting with @ is read from that file (e.g. --opt maze=@maze.txt).\n" +
			"With --stderr, what each bot wrote to stderr follows the result, move by move.",
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("seed") {
				seed = randomSeed()
			}
			var g game.Game
			var options map[string]string
			var entrants []match.Entrant
			var err error
			if dir, ok := gameDir(gameName); ok {
				if g, err = a.addedGame(cmd.Context(), dir); err == nil {
					g, options, entrants, err = a.matchArgsFor(g, seed, opts, args)
				}
			} else {
				g, options, entrants, err = a.matchArgs(gameName, seed, opts, args)
			}
			if err != nil {
				return err
			}
			if err := checkOutputFile("--replay", replayFile); err != nil {
				return err
			}
			b, err := a.builder(cmd.Context())
			if err != nil {
				return err
			}
			r, err := a.runner(b)
			if err != nil {
				return err
			}
			job := match.Job{Game: g, Seed: seed, Options: options, Players: entrants}
			// The replay is written beside FILE and takes its name only once the match is
			// judged: a match that could not be (a bad option, say) leaves no file.
			var rf *os.File
			var sinks []io.Writer
			if replayFile != "" {
				if rf, err = os.CreateTemp(filepath.Dir(replayFile), "."+filepath.Base(replayFile)+".*"); err != nil {
					return err
				}
				defer func() {
					rf.Close()
					os.Remove(rf.Name()) // gone already once renamed
				}()
				sinks = append(sinks, rf)
			}
			// The bots' stderr, by move, is in the replay: --stderr reads it back from a copy.
			var inMemory bytes.Buffer
			if showStderr {
				sinks = append(sinks, &inMemory)
			}
			if len(sinks) > 0 {
				job.Replay = io.MultiWriter(sinks...)
			}
			res, err := r.Play(cmd.Context(), job)
			if err != nil && !errors.Is(err, result.Infrastructure) {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			if replayFile != "" {
				res.Replay = replayFile
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
			out := cmd.OutOrStdout()
			if asJSON {
				err = json.NewEncoder(out).Encode(res)
			} else {
				err = res.WriteTable(out)
			}
			if err != nil || !showStderr {
				return err
			}
			rp, err := replay.Read(&inMemory)
			if err != nil {
				return err
			}
			if asJSON {
				out = cmd.ErrOrStderr() // stdout holds one JSON document
			}
			return writeStderr(out, rp)
		},
	}
	f := cmd.Flags()
	f.StringVar(&gameName, "game", "", "the game ("+gameNames()+"), or a game's directory (its game.yaml and referee: docs/referee.md)")
	f.Uint64Var(&seed, "seed", 0, "the match's seed (default: a random one, reported in the result)")
	f.StringArrayVar(&opts, "opt", nil, "a game option k=v (repeatable; the options are listed by judge games)")
	f.StringVar(&replayFile, "replay", "", "write the replay (JSON Lines) to this file")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	f.BoolVar(&showStderr, "stderr", false, "after the result, print what each bot wrote to stderr, move by move (on stderr with --json)")
	cmd.MarkFlagRequired("game")
	return cmd
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
