package match_test

import (
	"testing"

	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
)

// What a real bot writes to stderr reaches the replay under the move during which it wrote
// it: at start-up, under its first; when its input ends, under its last. Its opponent answers
// at once, and the bot writes to stderr just before it answers: stderr has a pipe of its own,
// drained when it is taken, so nothing of it can be late. The match is played ten times.
func TestStderrIsKeptByMove(t *testing.T) {
	r := runner(t)
	for i := range 10 {
		stderrByMove(t, r, i)
	}
}

func stderrByMove(t *testing.T, r *match.Runner, n int) {
	t.Helper()
	opts := map[string]string{"p0": "echo a,echo b,echo c,echo d", "p1": "echo a,err two,echo c,err four"}
	res, rp := matchtest.Play(t, r, script{}, 1, opts, "sandbox/testdata/probe", "judge/match/testdata/stderr")
	// The script game alternates: player 1's moves are the replay's exchanges 1, 3, 5, 7.
	want := map[int]string{1: "starting\n", 3: "two\n", 7: "four\nbye\n"}
	for i, x := range rp.Exchanges {
		if x.Stderr != want[i] {
			t.Errorf("match %d, exchange %d (player %d, turn %d): stderr %q; want %q (the bot answered %q)", n, i, x.Player, x.Turn, x.Stderr, want[i], x.Received)
		}
	}
	if got := res.Players[1].Stderr; got != "starting\ntwo\nfour\nbye\n" {
		t.Errorf("match %d: the result's stderr: %q", n, got)
	}
	if res.Players[0].Stderr != "" || res.Players[1].Fault != nil {
		t.Errorf("match %d: player 0's stderr %q, player 1's fault %v; want none", n, res.Players[0].Stderr, res.Players[1].Fault)
	}
}
