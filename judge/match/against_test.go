package match_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox"
)

// wordBot is a deterministic fake bot: its answers are words its own fixed-seed generator
// picks (as the sample bots' are), READY first when the game asks for it; its CPU time comes
// from another generator, so that two runs of the same bot answer the same in different
// times. change is its answer (its own exchange, from 0) that it changes; cpu, when set, is
// the CPU time of every answer.
type wordBot struct {
	*fakeBot
	words  []string
	ready  bool
	pick   *rand.Rand
	clock  *rand.Rand
	n      int
	change int
	cpu    time.Duration
}

func newWordBot(words []string, ready bool, seed, clock uint64) *wordBot {
	return &wordBot{fakeBot: newFakeBot(&fakeProc{}), words: words, ready: ready,
		pick: rand.New(rand.NewPCG(seed, 1)), clock: rand.New(rand.NewPCG(clock, 2)), change: -1}
}

func (b *wordBot) Exchange(_ []byte, lines int, lim sandbox.TurnLimits) (sandbox.Turn, error) {
	n := b.n
	b.n++
	t := sandbox.Turn{CPU: time.Duration(1+b.clock.IntN(900)) * time.Microsecond}
	if b.cpu > 0 {
		t.CPU = b.cpu
	}
	t.Wall = t.CPU
	if t.CPU > lim.CPU {
		t.CPU = lim.CPU
		return t, sandbox.ErrCPULimit
	}
	if n == 0 && b.ready {
		t.Lines = [][]byte{[]byte("READY")}
		return t, nil
	}
	for range lines {
		t.Lines = append(t.Lines, []byte(b.words[b.pick.IntN(len(b.words))]))
	}
	if n == b.change {
		t.Lines[0] = append(t.Lines[0], " changed"...)
	}
	return t, nil
}

// wordBots is a sandbox and a builder whose bots are wordBots, by the submission's file "id".
type wordBots map[string]*wordBot

func (f wordBots) Build(_ context.Context, s submission.Submission) (build.Result, error) {
	return build.Result{Build: result.Build{OK: true, Image: "sha256:compile"}, RunImage: string(s.Files["id"])}, nil
}

func (f wordBots) Start(_ context.Context, spec sandbox.RunSpec) (*wordBot, error) {
	return f[spec.Image], nil
}

func (f wordBots) ImageID(context.Context, string) (string, error) { return "sha256:run", nil }

// gameWords are answers for each built-in game's fake bots: mostly moves, so that a match
// lasts, and words that are not, so that some end in faults.
var gameWords = []struct {
	game    string
	players int
	opts    map[string]string
	words   []string
	ready   bool
}{
	{"amazes", 2, map[string]string{"turns": "40"}, []string{"F", "LF", "RF", "F", "T"}, false},
	{"ontherun", 2, map[string]string{"cities": "30"}, []string{"1", "2", "3", "C 2", "T 3"}, false},
	{"dropblock", 4, map[string]string{"turns": "60"}, []string{"U", "R", "D", "L", "A", "A", "N"}, true},
	{"langwars", 4, map[string]string{"turns": "6"}, []string{"1 2 3 4 5", "0 0", "8", "1 1", "2 3"}, true},
	{"snakecore", 2, map[string]string{"moves": "40", "players": "2"}, []string{"U", "D", "L", "R", "bot"}, false},
	{"snakecore", 4, map[string]string{"moves": "40", "players": "4"}, []string{"U", "D", "L", "R", "bot"}, false},
}

// playWords plays a match of g between wordBots (seat i's words picked with seed i), or
// against rec with live in its live seat; it returns the result and the replay.
func playWords(t *testing.T, g game.Game, players int, opts map[string]string, words []string, ready bool, rec *match.Recording, live *wordBot) (result.Result, *replay.Replay, error) {
	return playWordsWith(t, &match.Referee[*wordBot]{}, g, players, opts, words, ready, rec, live)
}

// playWordsWith is playWords on the referee r.
func playWordsWith(t *testing.T, r *match.Referee[*wordBot], g game.Game, players int, opts map[string]string, words []string, ready bool, rec *match.Recording, live *wordBot) (result.Result, *replay.Replay, error) {
	t.Helper()
	bots := wordBots{}
	var entrants []match.Entrant
	for i := range players {
		id := fmt.Sprintf("seat%d", i)
		switch {
		case rec != nil && i == rec.Live:
			bots[id] = live
		case rec != nil:
			entrants = append(entrants, match.Entrant{Name: rec.Replay.Header.Players[i].Name})
			continue
		default:
			bots[id] = newWordBot(words, ready, uint64(i), 7)
		}
		entrants = append(entrants, entrant(id))
	}
	r.Sandbox, r.Builder, r.WorkDir = bots, bots, t.TempDir()
	var buf bytes.Buffer
	res, err := r.Play(context.Background(), match.Job{ID: "w", Game: g, Seed: 3, Options: opts, Players: entrants, Replay: &buf, Recording: rec})
	if err != nil {
		return res, nil, err
	}
	rp, err := replay.Read(&buf)
	if err != nil {
		t.Fatalf("the replay does not read: %v", err)
	}
	return res, rp, nil
}

// judged is what of a result the game decided: every player's score, rank and fault's kind
// and turn, and the winner.
func judged(res result.Result) string {
	var b strings.Builder
	for _, p := range res.Players {
		fmt.Fprintf(&b, "%v/%d", p.Score, p.Rank)
		if p.Fault != nil {
			fmt.Fprintf(&b, "/%s@%d", p.Fault.Kind, p.Fault.Turn)
		}
		b.WriteString(" ")
	}
	if res.Winner != nil {
		fmt.Fprintf(&b, "winner %d", *res.Winner)
	}
	return b.String()
}

// exchanges is what was asked and answered, exchange by exchange, without the times.
func exchanges(rp *replay.Replay) []string {
	var out []string
	for _, x := range rp.Exchanges {
		s := fmt.Sprintf("%d %d %q %d %q %q", x.Turn, x.Player, x.Sent, x.Expect, x.Ready, x.Received)
		if x.Fault != nil {
			s += " " + string(x.Fault.Kind)
		}
		if x.Verdict != nil {
			s += " verdict " + string(x.Verdict.Kind)
		}
		out = append(out, s)
	}
	return out
}

// Every game, every seat: a match played again against its recording, each seat's own bot
// live in turn, is the recorded match exchange for exchange, with the recorded result; the
// same bot changed at one answer stops the match there, naming both answers; with GoOn it
// plays past it and says where it departed.
func TestAgainstTheRecording(t *testing.T) {
	for _, tc := range gameWords {
		t.Run(fmt.Sprintf("%s-%d", tc.game, tc.players), func(t *testing.T) {
			g, _ := games.Lookup(tc.game)
			res, rp, err := playWords(t, g, tc.players, tc.opts, tc.words, tc.ready, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			// On The Run's random words are seldom moves: its match is short here (the
			// sample bots play long ones in cmd/judge's test).
			if len(rp.Exchanges) < 4 {
				t.Fatalf("the recorded match has %d exchanges: too short to test", len(rp.Exchanges))
			}
			t.Logf("%d exchanges, %s", len(rp.Exchanges), judged(res))
			for seat := range tc.players {
				rec := &match.Recording{Replay: rp, Live: seat}
				again, rp2, err := playWords(t, g, tc.players, tc.opts, tc.words, tc.ready, rec, newWordBot(tc.words, tc.ready, uint64(seat), 99))
				if err != nil {
					t.Fatalf("seat %d live: %v", seat, err)
				}
				if rec.Departed != nil || rec.Followed != len(rp.Exchanges) {
					t.Errorf("seat %d live: departed %v after %d of %d exchanges", seat, rec.Departed, rec.Followed, len(rp.Exchanges))
				}
				for i, p := range again.Players {
					if p.Moves != res.Players[i].Moves {
						t.Errorf("seat %d live: player %d made %d moves; recorded %d", seat, i, p.Moves, res.Players[i].Moves)
					}
				}
				if judged(again) != judged(res) {
					t.Errorf("seat %d live: result %s; recorded %s", seat, judged(again), judged(res))
				}
				if got, want := exchanges(rp2), exchanges(rp); !reflect.DeepEqual(got, want) {
					t.Errorf("seat %d live: the exchanges differ from the recording's", seat)
				}
				for i, p := range rp2.Header.Players {
					if i != seat && p != rp.Header.Players[i] {
						t.Errorf("seat %d live: player %d in the header is %+v; recorded %+v", seat, i, p, rp.Header.Players[i])
					}
				}
			}

			// The live bot's answer changed: the seat whose own answers are the most.
			seat, own := 0, []int{}
			for p := range tc.players {
				var mine []int
				for i, x := range rp.Exchanges {
					if x.Player == p && x.Expect > 0 && x.Fault == nil {
						mine = append(mine, i)
					}
				}
				if len(mine) > len(own) {
					seat, own = p, mine
				}
			}
			k := len(own) / 2
			at := rp.Exchanges[own[k]]
			// Its k-th move among the answers it gave (a READY first counts as one).
			n := 0
			for _, x := range rp.Exchanges[:own[k]] {
				if x.Player == seat && (x.Expect > 0 || x.Ready != "") {
					n++
				}
			}
			changed := newWordBot(tc.words, tc.ready, uint64(seat), 5)
			changed.change = n
			rec := &match.Recording{Replay: rp, Live: seat}
			_, _, err = playWords(t, g, tc.players, tc.opts, tc.words, tc.ready, rec, changed)
			var de *match.DepartedError
			if !errors.As(err, &de) {
				t.Fatalf("a changed answer: %v; want a *match.DepartedError", err)
			}
			d := de.Departure
			if d.Exchange != own[k] || d.Turn != at.Turn || d.Player != seat || d.What != "answer" ||
				!strings.Contains(d.Played, " changed") || !strings.Contains(d.Recorded, fmt.Sprintf("%q", at.Received[0])) {
				t.Errorf("departed %+v; want exchange %d, turn %d, player %d's answer, recorded %q", d, own[k], at.Turn, seat, at.Received)
			}
			if msg := err.Error(); !strings.Contains(msg, fmt.Sprintf("turn %d", at.Turn)) || !strings.Contains(msg, "changed") {
				t.Errorf("the error says %q", msg)
			}

			changed = newWordBot(tc.words, tc.ready, uint64(seat), 5)
			changed.change = n
			rec = &match.Recording{Replay: rp, Live: seat, GoOn: true}
			_, _, err = playWords(t, g, tc.players, tc.opts, tc.words, tc.ready, rec, changed)
			if err != nil && !errors.As(err, &de) {
				t.Fatalf("going on: %v", err)
			}
			if rec.Departed == nil || rec.Departed.Exchange != own[k] || rec.Followed != own[k] {
				t.Errorf("going on: departed %+v after %d exchanges; want at exchange %d", rec.Departed, rec.Followed, own[k])
			}
		})
	}
}

// NoTimeLimits: a live bot far slower than its limits (under a debugger) still plays the
// recorded match, the game given the recorded times; without it the same bot times out
// and the match departs there.
func TestAgainstWithoutTimeLimits(t *testing.T) {
	g, _ := games.Lookup("langwars")
	opts := map[string]string{"turns": "4", "time": "100ms", "ready": "100ms"}
	words := gameWords[3].words
	res, rp, err := playWords(t, g, 4, opts, words, true, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	slow := newWordBot(words, true, 2, 7)
	slow.cpu = 5 * time.Second
	rec := &match.Recording{Replay: rp, Live: 2}
	again, _, err := playWordsWith(t, &match.Referee[*wordBot]{NoTimeLimits: true}, g, 4, opts, words, true, rec, slow)
	if err != nil || rec.Departed != nil || judged(again) != judged(res) {
		t.Errorf("no time limits: %v, departed %v, result %s; recorded %s", err, rec.Departed, judged(again), judged(res))
	}

	slow = newWordBot(words, true, 2, 7)
	slow.cpu = 5 * time.Second
	rec = &match.Recording{Replay: rp, Live: 2}
	_, _, err = playWords(t, g, 4, opts, words, true, rec, slow)
	var de *match.DepartedError
	if !errors.As(err, &de) || de.Departure.Player != 2 || !strings.Contains(de.Departure.Played, "timeout") {
		t.Errorf("with the limits: %v; want player 2's timeout departing", err)
	}
}

// A recording that does not fit the match is the job's error, named.
func TestAgainstARecordingThatDoesNotFit(t *testing.T) {
	g, _ := games.Lookup("amazes")
	_, rp, err := playWords(t, g, 2, map[string]string{"turns": "5"}, gameWords[0].words, false, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := games.Lookup("ontherun")
	for _, tc := range []struct {
		name string
		g    game.Game
		seat int
		want string
	}{
		{"seat", g, 2, "seat 2: the recording's seats are 0 to 1"},
		{"seat below", g, -1, "seat -1"},
		{"game", other, 0, "the recording is a match of amazes, not of ontherun"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &match.Recording{Replay: rp, Live: tc.seat}
			_, _, err := playWords(t, tc.g, 2, nil, gameWords[0].words, false, rec, newWordBot(nil, false, 0, 0))
			if !errors.Is(err, result.InvalidJob) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v; want an invalid job saying %q", err, tc.want)
			}
		})
	}
}
