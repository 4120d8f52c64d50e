// Package matchtest plays real matches for tests: bots from the repository are built in
// their pinned images and run in real sandboxes (see sandboxtest for when Docker is required),
// and every match's replay is re-judged.
package matchtest

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// Runner is a match runner with the default bot limits on the test engine and the shared
// build cache.
func Runner(t testing.TB) *match.Runner {
	t.Helper()
	e := sandboxtest.Engine(t)
	return &match.Runner{
		Sandbox: e, Builder: sandboxtest.Builder(t, e), Limits: sandboxtest.Limits(), Freeze: sandbox.FreezeSignal,
		WorkDir: t.TempDir(),
	}
}

// Engine is the Docker engine of a runner made by Runner.
func Engine(r *match.Runner) *sandbox.Engine { return r.Sandbox.(*sandbox.Engine) }

// Load reads the submission at dir, relative to the repository root unless absolute.
func Load(t testing.TB, dir string) submission.Submission {
	t.Helper()
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(sandboxtest.Root(), dir)
	}
	s, err := submission.Load(dir, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Play plays g with the bots (directories, as Load reads them, player 0 first) and
// fails the test unless the match was judged, every bot compiled, no container of the
// runner outlived the match (but those kept for their bots' next matches), and the replay re-judges to the same result. It returns the
// result and the parsed replay.
func Play(t *testing.T, r *match.Runner, g game.Game, seed uint64, opts map[string]string, bots ...string) (result.Result, *replay.Replay) {
	t.Helper()
	var buf bytes.Buffer
	j := match.Job{ID: strings.ReplaceAll(t.Name(), "/", "-"), Game: g, Seed: seed, Options: opts, Replay: &buf}
	for _, b := range bots {
		j.Players = append(j.Players, match.Entrant{Name: b, Submission: Load(t, b)})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := r.Play(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Players {
		if !p.Build.OK {
			t.Fatalf("%s did not compile:\n%s", p.Name, p.Build.Log)
		}
	}
	e := Engine(r)
	e.Settle() // the bots' containers are removed (or reset, kept) in the background
	left, err := e.OwnContainers(context.Background())
	left = slices.DeleteFunc(left, func(id string) bool { return slices.Contains(e.Spares(), id) })
	if err != nil || len(left) > 0 {
		t.Errorf("containers outlived the match, besides those kept for their bots: %v %v", left, err)
	}
	raw := buf.Bytes()
	lookup := func(name string) (game.Game, bool) { return g, name == g.Name() }
	if _, err := replay.Verify(bytes.NewReader(raw), lookup); err != nil {
		t.Errorf("the replay does not re-judge to the same result: %v", err)
	}
	rp, err := replay.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return res, rp
}
