package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/submission"
)

// againstArgs are judge play's flags for a match against its recording.
type againstArgs struct {
	file, seat string
	keepGoing  bool
}

// playAgainst plays the match recorded in a.file again with bot live in its seat and every
// other seat answering as recorded (match.Recording). gameArg is --game: empty, the game's
// name, or an added game's directory. It prints the result and how the match followed the
// recording; a match that departed from it is exit status 1.
func (a *app) playAgainst(cmd *cobra.Command, aa againstArgs, how howToPlay, gameArg, bot, replayFile string, asJSON, showStderr bool) error {
	rp, err := readReplayFile(aa.file)
	if err != nil {
		return err
	}
	h := rp.Header
	dir := ""
	if gameArg != "" {
		if d, ok := gameDir(gameArg); ok {
			dir = d
		} else if gameArg != h.Game {
			return cli.Usage(fmt.Errorf("--game %s: %s is a replay of %s", gameArg, aa.file, h.Game))
		}
	}
	seat, err := seatOf(aa.seat, h)
	if err != nil {
		return err
	}
	g, err := a.replayGame(cmd.Context(), aa.file, h, dir)
	if err != nil {
		return err
	}
	live, err := cli.LoadBot(bot, int64(a.Cfg.Build.SourceLimit))
	if err != nil {
		return err
	}
	entrants := make([]match.Entrant, len(h.Players))
	for i, p := range h.Players {
		entrants[i] = match.Entrant{Name: p.Name, Submission: submission.Submission{Lang: p.Lang}}
	}
	entrants[seat] = match.Entrant{Name: botName(bot), Submission: live}
	rec := &match.Recording{Replay: rp, Live: seat, GoOn: aa.keepGoing}
	job := match.Job{Game: g, Seed: h.Seed, Options: h.Options, Players: entrants, Recording: rec}
	r, err := a.matchPlayer(cmd.Context(), how, job)
	if err != nil {
		return err
	}
	res, played, err := playSaving(cmd.Context(), r, job, replayFile, showStderr)
	var departed *match.DepartedError
	switch {
	case errors.As(err, &departed):
		if asJSON {
			if err := json.NewEncoder(cmd.OutOrStdout()).Encode(againstJSON{Seat: seat, Exchanges: len(rp.Exchanges), Followed: rec.Followed, Departure: &departed.Departure, Stopped: true}); err != nil {
				return err
			}
		}
		what := "stopped there"
		if departed.Stop != "" {
			what = "played on, and stopped: " + departed.Stop
		}
		return fmt.Errorf("%s, seat %d live: the recorded match for %d of its %d exchanges, then departed from it at %s; %s",
			aa.file, seat, rec.Followed, len(rp.Exchanges), departed.Departure, what)
	case err != nil && !errors.Is(err, result.Infrastructure):
		return cli.Usage(err)
	case err != nil:
		return err
	}
	diffs := resultDifferences(rp.Result, res)
	if asJSON {
		doc := againstJSON{Seat: seat, Exchanges: len(rp.Exchanges), Followed: rec.Followed, Departure: rec.Departed, Result: &res, Differences: diffs}
		if err := json.NewEncoder(cmd.OutOrStdout()).Encode(doc); err != nil {
			return err
		}
		if played != nil {
			if err := writeStderr(cmd.ErrOrStderr(), played); err != nil {
				return err
			}
		}
	} else if err := printPlayed(cmd, res, played, false); err != nil {
		return err
	}
	switch {
	case rec.Departed != nil:
		return fmt.Errorf("%s, seat %d live: the recorded match for %d of its %d exchanges, then departed from it at %s; played on to the end (the result above)",
			aa.file, seat, rec.Followed, len(rp.Exchanges), rec.Departed)
	case len(diffs) > 0:
		return fmt.Errorf("%s, seat %d live: every exchange as recorded, but the result differs: %s", aa.file, seat, strings.Join(diffs, "; "))
	}
	if !asJSON {
		fmt.Fprintf(cmd.OutOrStdout(), "%s, seat %d live: the recorded match, exchange for exchange (%d exchanges), with its result\n", aa.file, seat, rec.Followed)
	}
	return nil
}

// againstJSON is what judge play --against --json prints.
type againstJSON struct {
	Seat        int              `json:"seat"`
	Exchanges   int              `json:"recorded_exchanges"`
	Followed    int              `json:"followed"`
	Departure   *match.Departure `json:"departure"`
	Stopped     bool             `json:"stopped"`
	Differences []string         `json:"result_differences,omitempty"`
	Result      *result.Result   `json:"result"`
}

// seatOf is the seat --seat names: a number from 0, or a player's name in the replay.
func seatOf(arg string, h replay.Header) (int, error) {
	var seats []string
	for i, p := range h.Players {
		seats = append(seats, fmt.Sprintf("%d (%s)", i, p.Name))
	}
	if arg == "" {
		return 0, cli.Usage(fmt.Errorf("--seat: which seat the BOT plays (the replay's: %s)", strings.Join(seats, ", ")))
	}
	if n, err := strconv.Atoi(arg); err == nil {
		if n < 0 || n >= len(h.Players) {
			return 0, cli.Usage(fmt.Errorf("--seat %d: the replay's seats are %s", n, strings.Join(seats, ", ")))
		}
		return n, nil
	}
	found := -1
	for i, p := range h.Players {
		if p.Name == arg {
			if found >= 0 {
				return 0, cli.Usage(fmt.Errorf("--seat %s: more than one seat has that name; give the number (%s)", arg, strings.Join(seats, ", ")))
			}
			found = i
		}
	}
	if found < 0 {
		return 0, cli.Usage(fmt.Errorf("--seat %s: no seat of that name or number (the replay's: %s)", arg, strings.Join(seats, ", ")))
	}
	return found, nil
}

// resultDifferences lists how the result played differs from the recorded one in what the
// game decided: each player's score, rank and fault, and the winner.
func resultDifferences(rec, got result.Result) []string {
	var out []string
	for i, p := range rec.Players {
		if i >= len(got.Players) {
			break
		}
		q := got.Players[i]
		if p.Score != q.Score || p.Rank != q.Rank {
			out = append(out, fmt.Sprintf("player %d scored %v (rank %d), recorded %v (rank %d)", i, q.Score, q.Rank, p.Score, p.Rank))
		}
		if faultKind(p.Fault) != faultKind(q.Fault) {
			out = append(out, fmt.Sprintf("player %d's fault is %q, recorded %q", i, faultKind(q.Fault), faultKind(p.Fault)))
		}
	}
	if winner(rec.Winner) != winner(got.Winner) {
		out = append(out, fmt.Sprintf("the winner is %s, recorded %s", winner(got.Winner), winner(rec.Winner)))
	}
	return out
}

func faultKind(f *game.Fault) string {
	if f == nil {
		return "none"
	}
	return string(f.Kind)
}

func winner(w *int) string {
	if w == nil {
		return "none (a draw)"
	}
	return "player " + strconv.Itoa(*w)
}
