package match_test

import (
	"testing"

	"github.com/botjudge/judge/judge/match/matchtest"
)

// What a real bot writes to stderr reaches the replay under the move during which it wrote
// it: at start-up, under its first; when its input ends, under its last. Its opponent sleeps
// on its moves, as a bot that thinks would, which gives the engine's attach stream (not a
// pipe of the judge's, as stdout is) the time to pass stderr on.
func TestStderrIsKeptByMove(t *testing.T) {
	r := runner(t)
	opts := map[string]string{"p0": "sleep 50,sleep 50,sleep 50,sleep 50", "p1": "echo a,err two,echo c,err four"}
	res, rp := matchtest.Play(t, r, script{}, 1, opts, "sandbox/testdata/probe", "judge/match/testdata/stderr")
	// The script game alternates: player 1's moves are the replay's exchanges 1, 3, 5, 7.
	want := map[int]string{1: "starting\n", 3: "two\n", 7: "four\nbye\n"}
	for i, x := range rp.Exchanges {
		if x.Stderr != want[i] {
			t.Errorf("exchange %d (player %d, turn %d): stderr %q; want %q", i, x.Player, x.Turn, x.Stderr, want[i])
		}
	}
	if got := res.Players[1].Stderr; got != "starting\ntwo\nfour\nbye\n" {
		t.Errorf("the result's stderr: %q", got)
	}
	if res.Players[0].Stderr != "" || res.Players[1].Fault != nil {
		t.Errorf("player 0's stderr %q, player 1's fault %v; want none", res.Players[0].Stderr, res.Players[1].Fault)
	}
}
