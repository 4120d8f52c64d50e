// Package gametest tests games without bots or containers: Drive plays a match as the
// referee does, and Conformance checks what the judge relies on in every game.Game
// (conform.Check), the way testing/fstest.TestFS serves every fs.FS. Every game's tests run
// Conformance and FuzzAnswers; its own tests then check its rules through Drive.
package gametest

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/conform"
)

// MaxRequests bounds a driven match: one that asks more has not ended.
const MaxRequests = conform.MaxRequests

// Exchange is one request and what came of it.
type Exchange = conform.Exchange

// Case is what Conformance needs beyond the game itself.
type Case = conform.Case

// Check is conform.Check.
func Check(g game.Game, c Case) error { return conform.Check(g, c) }

// RandomAnswers is conform.RandomAnswers.
func RandomAnswers(words []string, seed uint64) func(game.Request) game.Reply {
	return conform.RandomAnswers(words, seed)
}

// Defaults is conform.Defaults.
func Defaults(g game.Game) string { return conform.Defaults(g) }

// Padded is conform.Padded; Whitespace is conform.Whitespace.
type Padded = conform.Padded

func Whitespace(answer string) []Padded { return conform.Whitespace(answer) }

// Start starts a match through game.Start, as the referee does, with the game's default
// number of players when c.Players is 0, and fails t when it cannot.
func Start(t testing.TB, g game.Game, c game.Config) game.Match {
	t.Helper()
	if c.Players == 0 {
		_, _, c.Players = g.Players()
	}
	m, err := game.Start(g, c)
	if err != nil {
		t.Fatalf("starting %s: %v", g.Name(), err)
	}
	return m
}

// View is m's picture and its state as the game's type S, checked as the conformance suite
// checks every picture: it encodes, its state is an S, and asking again gives the same.
func View[S any](t testing.TB, m game.Viewer) (game.View, S) {
	t.Helper()
	v := m.View()
	if _, err := json.Marshal(v); err != nil {
		t.Fatalf("the picture does not encode: %v", err)
	}
	s, ok := v.State.(S)
	if !ok {
		t.Fatalf("the picture's state is a %T, not a %T", v.State, s)
	}
	if again := m.View(); !reflect.DeepEqual(v, again) {
		t.Fatalf("two pictures of the same moment:\n%+v\n%+v", v, again)
	}
	return v, s
}

// Match starts a match as Start does and returns it as the game's own type M, for a game's
// tests that look inside it.
func Match[M game.Match](t testing.TB, g game.Game, c game.Config) M {
	t.Helper()
	m, ok := Start(t, g, c).(M)
	if !ok {
		t.Fatalf("%s's match is not a %T", g.Name(), m)
	}
	return m
}

// Drive plays m to its end as the referee (judge/match) does, and returns every exchange:
//   - a notice (no lines expected, no ready line) is delivered and gets no Reply;
//   - any other request is answered by answer, and Reply is given what it returned;
//   - a player the game has given a verdict (a fault) is stopped: every later request to it
//     is answered with that fault, at the new turn, without asking answer.
//
// Drive fails t when the match breaks what the referee relies on: Next changes a request that
// expects an answer before its reply, says the match is over and then asks again, asks a player that does not exist, or asks more than MaxRequests.
func Drive(t testing.TB, m game.Match, answer func(game.Request) game.Reply) []Exchange {
	t.Helper()
	return DriveWatching(t, m, answer, nil)
}

// DriveWatching is Drive, calling watch after each step as the viewer's film looks at a
// match: after a notice is delivered, and after each Reply.
func DriveWatching(t testing.TB, m game.Match, answer func(game.Request) game.Reply, watch func()) []Exchange {
	t.Helper()
	log, err := conform.Drive(m, answer, watch)
	if err != nil {
		t.Fatal(err)
	}
	return log
}

// Conformance runs Check as a test: each problem it finds is an error of t.
func Conformance(t *testing.T, g game.Game, c Case) {
	t.Helper()
	if testing.Short() && c.Seeds == 0 {
		c.Seeds = shortSeeds
	}
	if err := Check(g, c); err != nil {
		for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
			t.Error(e)
		}
	}
}

// shortSeeds are the random matches of Conformance under -short, instead of Check's 20: each
// player count of a game of two to four players still plays twice (the seeds take the counts
// in turn), and make test plays them all.
const shortSeeds = 6

// FuzzAnswers fuzzes a game with answers made of the fuzzer's bytes: whatever a bot writes,
// the match ends and its result is one the referee can publish. A game's tests call it from
// their own Fuzz function, which `go test` runs on the seed corpus and `go test -fuzz`
// explores.
func FuzzAnswers(f *testing.F, g game.Game, words ...string) {
	f.Add(uint64(1), []byte(strings.Join(words, "\n")))
	f.Add(uint64(2), []byte("READY\n\n\x00\n-1 -1\n"))
	f.Add(uint64(3), []byte(strings.Repeat("1 2 3\n", 20)))
	min, max, _ := g.Players()
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		n := min + int(seed%uint64(max-min+1))
		lines := strings.Split(string(data), "\n")
		next := 0
		m := Start(t, g, game.Config{Seed: seed, Players: n})
		take := func(k int) []string {
			var out []string
			for range k {
				out = append(out, lines[next%len(lines)])
				next++
			}
			return out
		}
		log := Drive(t, m, func(req game.Request) game.Reply {
			if req.Ready == "" {
				return game.Reply{Lines: take(req.Expect), CPU: time.Millisecond}
			}
			// As the referee replies to a ready request: the lines before the ready line and
			// the ready line, or a fault.
			if next%5 == 4 {
				next++
				return game.Reply{Fault: &game.Fault{Kind: game.Timeout, Turn: req.Turn}, CPU: req.Limit}
			}
			return game.Reply{Lines: append(take(next%3), req.Ready), CPU: time.Millisecond}
		})
		if err := conform.CheckResult(m.Result(), n, log); err != nil {
			t.Fatal(err)
		}
	})
}
