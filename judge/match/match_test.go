package match_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// script is a test game: player p is sent the commands of option "p<p>" (comma-separated)
// one per turn, round-robin; the probe bot answers each. An "echo" command must be echoed;
// any other answer is accepted. A player scores one point per accepted answer. A command
// "ready:X" sends X and waits for the line "echo READY" (the READY handshake).
type script struct{}

func (script) Name() string             { return "script" }
func (script) Players() (int, int, int) { return 1, 4, 2 }
func (script) Options() []game.Option   { return nil }
func (script) New(c game.Config) (game.Match, error) {
	o := game.NewOptions(c.Options)
	m := &scriptMatch{n: c.Players, scores: make([]float64, c.Players), faults: make([]*game.Fault, c.Players)}
	for p := 0; p < c.Players; p++ {
		m.cmds = append(m.cmds, strings.Split(o.String(fmt.Sprintf("p%d", p), "echo hi"), ","))
	}
	for p := 0; p < c.Players; p++ {
		// "s<p>" is put in player p's working directory as start.txt, a line for each
		// ";"-separated command: the lifecycle bots run them before reading their input.
		if v := o.String(fmt.Sprintf("s%d", p), ""); v != "" {
			m.files = append(m.files, make([]map[string][]byte, p+1-len(m.files))...)
			m.files[p] = map[string][]byte{"start.txt": []byte(strings.ReplaceAll(v, ";", "\n") + "\n")}
		}
	}
	m.limit = o.Duration("limit", time.Second, time.Millisecond, time.Minute)
	m.memory = int64(o.Int("memory", 64, 16, 1024)) << 20
	m.values = o.Values
	return m, o.Err()
}

type scriptMatch struct {
	n      int
	cmds   [][]string
	step   int // global step: turn = step / n, player = step % n
	limit  time.Duration
	memory int64
	scores []float64
	faults []*game.Fault
	values map[string]string
	files  []map[string][]byte
	last   game.Request
}

func (m *scriptMatch) Setup() game.Setup {
	return game.Setup{Options: m.values, Memory: m.memory, World: "none", Files: m.files}
}

func (m *scriptMatch) Next() (game.Request, bool) {
	for ; m.step < m.n*maxLen(m.cmds); m.step++ {
		p, t := m.step%m.n, m.step/m.n
		if t >= len(m.cmds[p]) || m.faults[p] != nil {
			continue
		}
		cmd := m.cmds[p][t]
		m.last = game.Request{Player: p, Turn: t + 1, Send: cmd + "\n", Expect: 1, Limit: m.limit}
		if x, ok := strings.CutPrefix(cmd, "ready:"); ok {
			m.last.Send, m.last.Expect, m.last.Ready = x+"\necho READY\n", 0, "echo ready"
		}
		if cmd == "notice" {
			m.last.Send, m.last.Expect = "silent\n", 0
		}
		m.step++
		return m.last, false
	}
	return game.Request{}, true
}

func (m *scriptMatch) Reply(r game.Reply) *game.Fault {
	p := m.last.Player
	if r.Fault != nil {
		m.faults[p] = r.Fault
		return r.Fault
	}
	if cmd := strings.TrimSuffix(m.last.Send, "\n"); strings.HasPrefix(cmd, "echo") && m.last.Ready == "" && r.Lines[0] != cmd {
		m.faults[p] = &game.Fault{Kind: game.Protocol, Turn: m.last.Turn, Detail: fmt.Sprintf("answered %q", r.Lines[0])}
		return m.faults[p]
	}
	m.scores[p]++
	return nil
}

func (m *scriptMatch) Result() game.Result { return game.Ranked(m.scores, m.faults) }

func maxLen(c [][]string) int {
	n := 0
	for _, x := range c {
		n = max(n, len(x))
	}
	return n
}

func lookup(name string) (game.Game, bool) { return script{}, name == "script" }

func runner(t *testing.T) *match.Runner { return matchtest.Runner(t) }

func probe(t *testing.T) submission.Submission { return matchtest.Load(t, "sandbox/testdata/probe") }

// play runs the script game, and checks that no container outlives the match and that the
// replay verifies.
func play(t *testing.T, r *match.Runner, opts map[string]string, players ...submission.Submission) []result.Player {
	t.Helper()
	res, _ := playTimed(t, r, opts, players...)
	return res
}

// timedLines is a replay with the time each line was written.
type timedLines struct {
	bytes.Buffer
	at []time.Time
}

func (w *timedLines) Write(p []byte) (int, error) {
	w.at = append(w.at, time.Now()) // the encoder writes a line at once
	return w.Buffer.Write(p)
}

// playTimed is play, also returning when each line of the replay was written.
func playTimed(t *testing.T, r *match.Runner, opts map[string]string, players ...submission.Submission) ([]result.Player, []time.Time) {
	t.Helper()

	var buf timedLines
	j := match.Job{ID: t.Name(), Game: script{}, Seed: 7, Options: opts, Replay: &buf}
	for i, s := range players {
		j.Players = append(j.Players, match.Entrant{Name: fmt.Sprint("p", i), Submission: s})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := r.Play(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	matchtest.Engine(r).Settle()
	left, err := matchtest.Engine(r).OwnContainers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range left {
		t.Errorf("container %.12s outlived the match", id)
	}
	if got, err := replay.Verify(bytes.NewReader(buf.Bytes()), lookup); err != nil {
		t.Errorf("replay does not verify: %v\n%s", err, buf.String())
	} else if got.ID != j.ID {
		t.Errorf("verified result is for %q", got.ID)
	}
	return res.Players, buf.at
}

func TestFaultsEndOnlyTheirPlayer(t *testing.T) {
	r := runner(t)
	bad := submission.Submission{Lang: "cpp", Files: map[string][]byte{"bad.cpp": []byte("int main( {")}}
	for _, tc := range []struct {
		name   string
		script string
		lang   submission.Submission
		kind   game.FaultKind
		turn   int
	}{
		{"timeout (CPU)", "echo a,burn 3000,echo c", probe(t), game.Timeout, 2},
		{"timeout (wall)", "echo a,sleep 5000,echo c", probe(t), game.Timeout, 2},
		{"crash", "echo a,segv,echo c", probe(t), game.Crash, 2},
		{"forbidden", "fork,echo b,echo c", probe(t), game.Forbidden, 1},
		{"memory", "echo a,alloc 512,echo c", probe(t), game.Memory, 2},
		{"exit", "echo a,exit 0,echo c", probe(t), game.Crash, 2},
		{"protocol (the game's verdict)", "echo a,echo b,unknown", probe(t), "", 0},
		{"compile error", "echo a,echo b,echo c", bad, game.CompileError, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := map[string]string{"p0": "echo 1,echo 2,echo 3", "p1": tc.script, "limit": "500ms"}
			res := play(t, r, opts, probe(t), tc.lang)
			good, other := res[0], res[1]
			if good.Fault != nil || good.Score != 3 || good.Moves != 3 {
				t.Errorf("the other player: score %v moves %d fault %v, want 3, 3, none", good.Score, good.Moves, good.Fault)
			}
			if tc.kind == "" {
				if other.Fault != nil || other.Score != 3 {
					t.Errorf("no fault expected: %+v", other)
				}
				return
			}
			if other.Fault == nil || other.Fault.Kind != tc.kind || other.Fault.Turn != tc.turn {
				t.Fatalf("fault %+v, want %s at turn %d", other.Fault, tc.kind, tc.turn)
			}
			if other.Score != float64(tc.turn-1) {
				t.Errorf("faulted player scored %v, want %d", other.Score, tc.turn-1)
			}
		})
	}
}

// A bot that closes its output and keeps running is given match.ExitGrace to exit, once: the
// exchange that meets it (replay lines 3 to 4: player 1's turn 2) takes that wait.
func TestClosedOutputIsWaitedForOnce(t *testing.T) {
	r := runner(t)
	opts := map[string]string{"p0": "echo 1,echo 2,echo 3", "p1": "echo a,close,echo c", "limit": "500ms"}
	res, at := playTimed(t, r, opts, probe(t), probe(t))
	want := game.Fault{Kind: game.Crash, Turn: 2, Detail: "closed its output and kept running"}
	if f := res[1].Fault; f == nil || *f != want {
		t.Fatalf("fault %+v; want %+v", f, want)
	}
	// Once, not twice: on a loaded machine (CI's two lanes) the wait's end can come a second
	// late, never a whole second wait.
	if took := at[4].Sub(at[3]); took < match.ExitGrace || took > 2*match.ExitGrace-time.Second {
		t.Errorf("the exchange took %v; want the wait of %v once (less than %v)", took, match.ExitGrace, 2*match.ExitGrace-time.Second)
	}
}

func TestReadyAndNotices(t *testing.T) {
	r := runner(t)
	opts := map[string]string{"p0": "ready:echo noise,notice,echo x", "p1": "echo a,echo b,echo c"}
	res := play(t, r, opts, probe(t), probe(t))
	if p := res[0]; p.Fault != nil || p.Score != 2 {
		t.Errorf("READY then a notice then an echo: score %v fault %v", p.Score, p.Fault)
	}
}

func TestFiguresAreReported(t *testing.T) {
	sandboxtest.Alone(t, "it compares reported CPU with the wall clock")
	r := runner(t)
	opts := map[string]string{"p0": "burn 300,echo b", "p1": "echo a,alloc 40"}
	res := play(t, r, opts, probe(t), probe(t))
	p0, p1 := res[0], res[1]
	wall, most := p0.WallMs, int64(400)
	if sandboxtest.GVisor() {
		// gVisor's kernel works for the bot, on other threads of the host beside the bot's:
		// the cgroup charges more CPU, and over a short turn may pass the wall time a little.
		wall, most = wall+wall/5, 600
	}
	if p0.CPUms < 280 || p0.CPUms > most || wall < p0.CPUms {
		t.Errorf("player 0 burned 300 ms: cpu %d ms, wall %d ms", p0.CPUms, p0.WallMs)
	}
	if p1.MaxRSSKiB < 40<<10 {
		t.Errorf("player 1 touched 40 MiB: max rss %d KiB", p1.MaxRSSKiB)
	}
	if !p0.Build.OK || p0.Build.Image == "" {
		t.Errorf("build figures missing: %+v", p0.Build)
	}
}

func TestInvalidJobs(t *testing.T) {
	r := runner(t)
	for name, tc := range map[string]struct {
		opts    map[string]string
		players int
		code    result.Code
	}{
		"unknown option":   {map[string]string{"nope": "1"}, 2, "bad_option"},
		"bad option value": {map[string]string{"limit": "soon"}, 2, "bad_option"},
		"too many players": {nil, 5, "invalid_job"},
		"too few players":  {nil, 0, "invalid_job"},
	} {
		t.Run(name, func(t *testing.T) {
			j := match.Job{Game: script{}, Options: tc.opts}
			for i := 0; i < tc.players; i++ {
				j.Players = append(j.Players, match.Entrant{Submission: probe(t)})
			}
			_, err := r.Play(context.Background(), j)
			if !errors.Is(err, tc.code) {
				t.Fatalf("want a %s error, got %v", tc.code, err)
			}
		})
	}
}

func TestTamperedReplayFails(t *testing.T) {
	r := runner(t)
	var buf bytes.Buffer
	j := match.Job{Game: script{}, Seed: 1, Replay: &buf,
		Options: map[string]string{"p0": "echo 1,echo 2", "p1": "echo a"},
		Players: []match.Entrant{{Submission: probe(t)}, {Submission: probe(t)}}}
	if _, err := r.Play(context.Background(), j); err != nil {
		t.Fatal(err)
	}
	tampered := strings.Replace(buf.String(), `"received":["echo 2"]`, `"received":["echo 3"]`, 1)
	if tampered == buf.String() {
		t.Fatal("could not tamper")
	}
	if _, err := replay.Verify(strings.NewReader(tampered), lookup); err == nil {
		t.Error("a tampered replay verified")
	}
}
