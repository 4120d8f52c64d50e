package snakecore_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games/snakecore"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// The end-to-end tests play real matches: every bot is compiled in its language's pinned
// image with the game's helper library merged in by the match runner, and runs in its own
// sandbox. They need Docker (JUDGE_REQUIRE_DOCKER=1 makes a missing engine a failure).

// play plays a match of the bots (directories under the repository root); matchtest
// re-judges its replay.
func play(t *testing.T, r *match.Runner, seed uint64, opts map[string]string, bots ...string) result.Result {
	t.Helper()
	res, _ := matchtest.Play(t, r, snakecore.New(), seed, opts, bots...)
	return res
}

// TestEveryLanguage plays a full game (500 moves each) of the sample bots of every language
// at one table, all written through the helper libraries. Under gVisor it is the check of
// every language's sample bot (eight sandboxes at once); the other games' seats are runc's.
func TestEveryLanguage(t *testing.T) {
	r := matchtest.Runner(t)
	var bots []string
	for _, lang := range images.LangNames() {
		bots = append(bots, "bots/snakecore/"+lang)
	}
	res := play(t, r, 2008, map[string]string{"moves": "500"}, bots...)
	total := 0.0
	for i, p := range res.Players {
		if p.Fault != nil {
			t.Errorf("player %d (%s) faulted: %+v", i, p.Name, *p.Fault)
		}
		if p.Moves != 500 { // getName is not a move
			t.Errorf("player %d (%s) made %d moves, want 500", i, p.Name, p.Moves)
		}
		total += p.Score
		t.Logf("%-22s score %5.0f rank %d, cpu %d ms, %d KiB", p.Name, p.Score, p.Rank, p.CPUms, p.MaxRSSKiB)
	}
	if total == 0 {
		t.Error("nobody scored in 500 moves")
	}
}

// TestBrokenBot: the broken bot's protocol fault at turn 3 disqualifies it; the three good
// bots play the whole game without a fault.
func TestBrokenBot(t *testing.T) {
	sandboxtest.RuncOnly(t, "a broken bot's faults are the game's rules")
	r := matchtest.Runner(t)
	res := play(t, r, 7, map[string]string{"moves": "200"},
		"bots/snakecore/go", "bots/snakecore/broken", "bots/snakecore/java", "bots/snakecore/cpp")
	for i, p := range res.Players {
		if i == 1 {
			if p.Fault == nil || p.Fault.Kind != game.Protocol || p.Fault.Turn != 3 {
				t.Errorf("the broken bot's fault is %+v, want a protocol fault at turn 3", p.Fault)
			}
			continue
		}
		if p.Fault != nil {
			t.Errorf("player %d (%s) faulted: %+v", i, p.Name, *p.Fault)
		}
		if p.Moves != 200 {
			t.Errorf("player %d (%s) made %d moves, want 200", i, p.Name, p.Moves)
		}
	}
}

// TestPascalLibrary builds the Pascal dump program (written in Free Pascal's default mode)
// with Snake.pas in the real compile image, and checks that it reads every request as the
// game wrote it. The artifact is a static Linux binary; it runs here directly.
func TestPascalLibrary(t *testing.T) {
	e := sandboxtest.Engine(t)
	b := sandboxtest.Builder(t, e)
	sub := matchtest.Load(t, "judge/games/snakecore/testdata/dump/pascal")
	sub.Files = game.WithLibrary(snakecore.New(), "pascal", sub.Files)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := b.Build(ctx, sub)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK {
		t.Fatalf("the Pascal dump does not compile with Snake.pas:\n%s", res.Log)
	}
	input, want := snakecore.DumpCase(t)
	cmd := exec.Command(filepath.Join(res.Artifact, "bot"))
	cmd.Stdin = strings.NewReader(input)
	got, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	snakecore.CompareDump(t, string(got), want)
}
