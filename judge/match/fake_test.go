package match_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox"
)

// The runner's fault handling with fakes for the sandbox and the builder: every way a turn
// can fail becomes the bot's exact fault (or, for a machine that starves it, the judge's
// error), in milliseconds and without Docker. The real-engine tests (lifecycle_test.go,
// redteam_test.go) prove the sandbox reports these failures as the fakes do.

// fakeStep is what a fake bot does at one exchange: answer lines, or fail with err; exit,
// when set, makes it end there.
type fakeStep struct {
	lines  []string
	err    error
	cpu    time.Duration
	exit   *sandbox.Exit
	stderr string
	peak   int64 // memory, from this step on
	// exitLate puts off the exit to that long after the exchange: a bot whose output ended
	// as it died, before it has exited. lost says its container ended with it.
	exitLate time.Duration
	lost     bool
}

// fakeProc is one simulated bot: it answers each request by echoing its line, except where
// a step says otherwise. stderr starts with what it writes starting up; it writes atEnd when
// its input ends. Each role the referee takes of a bot (match.TurnIO, Holder, Lifecycle,
// Meter, StderrReader) is a fake of its own over it, and a fakeBot is the five together
// (newFakeBot): they share the one process, as an exchange that ends the bot ends it for
// Wait too.
type fakeProc struct {
	mu      sync.Mutex
	steps   map[int]fakeStep // by exchange, from 0
	n       int
	exited  bool
	exitAt  time.Time // when it exits, if later
	exit    sandbox.Exit
	lost    bool
	stderr  string
	taken   int // of stderr, by TakeStderr
	atEnd   string
	cpu     time.Duration
	closed  bool
	started bool
	peak    int64
}

// fakeBot is a fakeProc in every role: what the fake sandbox starts.
type fakeBot struct {
	*fakeProc
	fakeTurns
	fakeHolder
	fakeLife
	fakeMeter
	fakeStderr
}

func newFakeBot(p *fakeProc) *fakeBot {
	return &fakeBot{p, fakeTurns{p}, fakeHolder{}, fakeLife{p}, fakeMeter{p}, fakeStderr{p}}
}

func (b *fakeBot) ImageID() string { return "" }

var (
	_ match.TurnIO       = fakeTurns{}
	_ match.Holder       = fakeHolder{}
	_ match.Lifecycle    = fakeLife{}
	_ match.Meter        = fakeMeter{}
	_ match.StderrReader = fakeStderr{}
)

// fakeTurns is the bot's side of the protocol: its script.
type fakeTurns struct{ *fakeProc }

func (b fakeTurns) Exchange(req []byte, lines int, lim sandbox.TurnLimits) (sandbox.Turn, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	st, ok := b.steps[b.n]
	b.n++
	if !ok {
		st.lines = []string{strings.TrimSuffix(string(req), "\n")}
		st.cpu = time.Millisecond
	}
	if st.exit != nil {
		b.exit, b.lost = *st.exit, st.lost
		if b.exitAt = time.Now().Add(st.exitLate); st.exitLate == 0 {
			b.exited = true
		}
	}
	b.stderr += st.stderr
	b.cpu += st.cpu
	b.peak = max(b.peak, st.peak)
	t := sandbox.Turn{CPU: st.cpu, Wall: st.cpu}
	for _, l := range st.lines {
		t.Lines = append(t.Lines, []byte(l))
	}
	return t, st.err
}

func (b fakeTurns) Send([]byte, time.Time) error { return nil }

// CloseStdin ends the bot, as the end of its input ends a well-behaved one.
func (b fakeTurns) CloseStdin() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.exited = true
	b.stderr += b.atEnd
	return nil
}

// fakeHolder holds nothing: the fake bot uses no CPU between its turns.
type fakeHolder struct{}

func (fakeHolder) Freeze() error { return nil }
func (fakeHolder) Thaw() error   { return nil }

// fakeLife is how the bot ends: as its script says.
type fakeLife struct{ *fakeProc }

func (b fakeLife) Kill(context.Context) error { return nil }

func (b fakeLife) Exited() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.exited || !b.exitAt.IsZero() && !time.Now().Before(b.exitAt)
}

func (b fakeLife) Lost() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lost
}

func (b fakeLife) Ended(ctx context.Context) bool {
	_, err := b.Wait(ctx)
	return err == nil
}

func (b fakeLife) Wait(ctx context.Context) (sandbox.Exit, error) {
	for !b.Exited() {
		select {
		case <-ctx.Done():
			return sandbox.Exit{}, ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
	return b.exit, nil
}

func (b fakeLife) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return nil
}

// fakeMeter is what the bot used: its script's CPU and memory.
type fakeMeter struct{ *fakeProc }

func (b fakeMeter) StartCPU() time.Duration { return 0 }
func (b fakeMeter) Busy() bool              { return false }
func (b fakeMeter) Waiting() bool           { return true }

func (b fakeMeter) PeakMemory() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return max(b.peak, 1<<20)
}

func (b fakeMeter) CPU() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cpu
}

// fakeStderr is the bot's stderr: what its script wrote.
type fakeStderr struct{ *fakeProc }

func (b fakeStderr) Stderr() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return []byte(b.stderr)
}

func (b fakeStderr) TakeStderr() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	text := b.stderr[b.taken:]
	b.taken = len(b.stderr)
	return []byte(text)
}

// fakes is a sandbox and a builder whose bots are fakeBots, by the image the build names:
// a submission's file "id" names its bot; a bot named "no-build" does not compile, one named
// "no-start" fails to start.
type fakes struct {
	bots map[string]*fakeBot
}

func (f *fakes) Build(_ context.Context, s submission.Submission) (build.Result, error) {
	id := string(s.Files["id"])
	if id == "no-build" {
		return build.Result{Build: result.Build{OK: false, Log: "error: expected ';'", Failure: result.BuildCompileError}}, nil
	}
	return build.Result{Build: result.Build{OK: true, Image: "sha256:compile", Toolchain: "fake"}, RunImage: id}, nil
}

func (f *fakes) Start(_ context.Context, spec sandbox.RunSpec) (*fakeBot, error) {
	if spec.Image == "no-start" {
		return nil, errors.New("the engine is gone")
	}
	b := f.bots[spec.Image]
	b.started = true
	return b, nil
}

func (f *fakes) ImageID(context.Context, string) (string, error) { return "sha256:run", nil }

func entrant(id string) match.Entrant {
	return match.Entrant{Name: id, Submission: submission.Submission{Lang: "cpp", Files: map[string][]byte{"id": []byte(id)}}}
}

// playFakes plays the script game (three echo commands each) between a bot of the given steps
// and an honest one, and checks that every bot started was closed.
func playFakes(t *testing.T, steps map[int]fakeStep, first, second string) (result.Result, error) {
	t.Helper()
	res, _, err := playFakeBot(t, &match.Referee[*fakeBot]{}, newFakeBot(&fakeProc{steps: steps}), first, second)
	return res, err
}

// playFakeBot is playFakes with the bot "tested" given, on runner r (given fakes and a work
// directory here), also returning the replay read back.
func playFakeBot(t *testing.T, r *match.Referee[*fakeBot], tested *fakeBot, first, second string) (result.Result, *replay.Replay, error) {
	t.Helper()
	f := &fakes{bots: map[string]*fakeBot{"tested": tested, "honest": newFakeBot(&fakeProc{}), "no-build": newFakeBot(&fakeProc{}), "no-start": newFakeBot(&fakeProc{})}}
	r.Sandbox, r.Builder, r.WorkDir = f, f, t.TempDir()
	var buf bytes.Buffer
	j := match.Job{ID: "fake", Game: script{}, Seed: 1, Players: []match.Entrant{entrant(first), entrant(second)},
		Options: map[string]string{"p0": "echo a,echo b,echo c", "p1": "echo a,echo b,echo c"}, Replay: &buf}
	res, err := r.Play(context.Background(), j)
	for id, b := range f.bots {
		if b.started && !b.closed {
			t.Errorf("bot %s was not closed", id)
		}
	}
	if err != nil {
		return res, nil, err
	}
	rp, err := replay.Read(&buf)
	if err != nil {
		t.Fatalf("the replay does not read: %v", err)
	}
	return res, rp, nil
}

func TestFaultsWithFakes(t *testing.T) {
	exit := func(x sandbox.Exit) *sandbox.Exit { return &x }
	for _, tc := range []struct {
		name   string
		step   fakeStep
		kind   game.FaultKind
		detail string
	}{
		{"CPU limit", fakeStep{err: sandbox.ErrCPULimit, cpu: 1200 * time.Millisecond}, game.Timeout, "no answer within its 1000 ms CPU limit: used 1200 ms CPU"},
		{"wall limit", fakeStep{err: sandbox.ErrWallLimit, cpu: 5 * time.Millisecond}, game.Timeout, "no answer within 3000 ms wall clock"},
		{"wall limit at the memory limit", fakeStep{err: sandbox.ErrWallLimit, cpu: 5 * time.Millisecond, peak: 64 << 20}, game.Memory,
			"out of memory: at its 64 MiB limit, no answer within 3000 ms wall clock"},
		{"CPU limit at the memory limit", fakeStep{err: sandbox.ErrCPULimit, cpu: 1200 * time.Millisecond, peak: 64 << 20}, game.Timeout,
			"no answer within its 1000 ms CPU limit"},
		{"wall limit below the memory limit", fakeStep{err: sandbox.ErrWallLimit, cpu: 5 * time.Millisecond, peak: 64<<20 - 1}, game.Timeout,
			"no answer within 3000 ms wall clock"},
		{"a long line", fakeStep{err: sandbox.ErrLineTooLong}, game.Protocol, "a line longer than 1048576 bytes"},
		{"too much output", fakeStep{err: sandbox.ErrOutputLimit}, game.OutputLimit, "more than 16777216 bytes of output"},
		{"exit", fakeStep{err: sandbox.ErrClosed, exit: exit(sandbox.Exit{Code: 1})}, game.Crash, "exited: exit status 1"},
		{"exit with a message", fakeStep{err: sandbox.ErrClosed, exit: exit(sandbox.Exit{Code: 2}), stderr: "\npanic: boom\n\ngoroutine 1\n"},
			game.Crash, "exited: exit status 2; stderr: panic: boom"},
		{"exit while timing out", fakeStep{err: sandbox.ErrCPULimit, exit: exit(sandbox.Exit{Code: 137, Signal: 9})}, game.Crash, "exited: killed by signal 9"},
		{"out of memory", fakeStep{err: sandbox.ErrClosed, exit: exit(sandbox.Exit{OOM: true})}, game.Memory, "killed: out of memory"},
		{"a banned call", fakeStep{err: sandbox.ErrClosed, exit: exit(sandbox.Exit{Code: 159, Signal: 31})}, game.Forbidden, "killed by SIGSYS"},
		{"output closed, still running", fakeStep{err: sandbox.ErrClosed}, game.Crash, "closed its output and kept running"},
		{"a wrong answer", fakeStep{lines: []string{"echo x"}}, game.Protocol, `answered "echo x"`},
		{"exit a moment after the output ended", fakeStep{err: sandbox.ErrClosed, exit: exit(sandbox.Exit{Code: 3}), exitLate: 50 * time.Millisecond},
			game.Crash, "exited: exit status 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := playFakes(t, map[int]fakeStep{1: tc.step}, "tested", "honest")
			if err != nil {
				t.Fatal(err)
			}
			p, other := res.Players[0], res.Players[1]
			if p.Fault == nil || p.Fault.Kind != tc.kind || p.Fault.Turn != 2 || !strings.Contains(p.Fault.Detail, tc.detail) {
				t.Errorf("fault %+v; want %s at turn 2 saying %q", p.Fault, tc.kind, tc.detail)
			}
			if p.Score != 1 || p.Moves != 2 && p.Moves != 1 {
				t.Errorf("the faulted bot scored %v in %d moves; want 1 point", p.Score, p.Moves)
			}
			if other.Fault != nil || other.Score != 3 {
				t.Errorf("the other bot: fault %v, score %v; want none and 3", other.Fault, other.Score)
			}
		})
	}
}

// A machine that does not give a bot a CPU is the judge's failure, never the bot's: the match
// is not judged (infrastructure, which the daemon retries), and says why.
func TestStarvationIsTheJudgesWithFakes(t *testing.T) {
	_, err := playFakes(t, map[int]fakeStep{0: {err: sandbox.ErrStarved}}, "tested", "honest")
	if !errors.Is(err, result.Infrastructure) || !errors.Is(err, sandbox.ErrStarved) {
		t.Fatalf("a starved bot: %v; want an infrastructure error wrapping sandbox.ErrStarved", err)
	}
}

// A bot whose container the engine killed is the judge's failure, never the bot's crash, also
// when its output ends a moment before it has exited (its pipes close as it dies).
func TestContainerLostIsTheJudgesWithFakes(t *testing.T) {
	killed := &sandbox.Exit{Code: 137, Signal: 9}
	for _, late := range []time.Duration{0, 50 * time.Millisecond} {
		_, err := playFakes(t, map[int]fakeStep{1: {err: sandbox.ErrClosed, exit: killed, exitLate: late, lost: true}}, "tested", "honest")
		if !errors.Is(err, result.Infrastructure) || !strings.Contains(err.Error(), "container ended under it") {
			t.Errorf("exit %v after the output ended: %v; want an infrastructure error saying the container ended", late, err)
		}
	}
}

// A bot that does not compile plays as one that crashed at once; one the engine cannot start
// is the judge's failure, and every bot already started is removed.
func TestBuildAndStartFailuresWithFakes(t *testing.T) {
	res, err := playFakes(t, nil, "honest", "no-build")
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Players[1].Fault; f == nil || f.Kind != game.CompileError || res.Players[1].Build.Failure != result.BuildCompileError {
		t.Errorf("a bot that does not compile: fault %+v, build %+v", f, res.Players[1].Build)
	}
	if res.Players[0].Score != 3 || res.Players[0].Fault != nil || *res.Winner != 0 {
		t.Errorf("the other bot: %+v, winner %v", res.Players[0], res.Winner)
	}
	_, err = playFakes(t, nil, "honest", "no-start")
	if !errors.Is(err, result.Infrastructure) || !strings.Contains(err.Error(), "the engine is gone") {
		t.Errorf("a bot the engine cannot start: %v; want an infrastructure error naming the cause", err)
	}
}

// A bot's stderr goes to the exchange during which it was written: what it wrote starting up
// to its first, what it wrote on its way out (its input ended) to its last. The result keeps
// the end of it; all of it is written before the result.
func TestStderrByExchangeWithFakes(t *testing.T) {
	tested := newFakeBot(&fakeProc{stderr: "starting\n", atEnd: "bye\n", steps: map[int]fakeStep{
		0: {lines: []string{"echo a"}, cpu: time.Millisecond, stderr: "one\n"},
		2: {lines: []string{"echo c"}, cpu: time.Millisecond, stderr: "three\n"},
	}})
	// The tested bot is player 1: its exchanges are the replay's 1, 3 and 5.
	res, rp, err := playFakeBot(t, &match.Referee[*fakeBot]{}, tested, "honest", "tested")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"", "starting\none\n", "", "", "", "three\nbye\n"}
	for i, x := range rp.Exchanges {
		if x.Stderr != want[i] {
			t.Errorf("exchange %d (player %d, turn %d): stderr %q; want %q", i, x.Player, x.Turn, x.Stderr, want[i])
		}
	}
	if got, want := res.Players[1].Stderr, "starting\none\nthree\nbye\n"; got != want || res.Players[0].Stderr != "" {
		t.Errorf("the result's stderr %q and %q; want none and %q", res.Players[0].Stderr, got, want)
	}
	if rp.Result.Players[1].Stderr != res.Players[1].Stderr {
		t.Errorf("the replay's result has stderr %q", rp.Result.Players[1].Stderr)
	}
}

// The replay keeps the bots' stderr up to the match's limit, and cuts it there with a line
// saying so; the result still has the end of each bot's.
func TestStderrMatchLimitWithFakes(t *testing.T) {
	tested := newFakeBot(&fakeProc{steps: map[int]fakeStep{
		0: {lines: []string{"echo a"}, stderr: "0123456789abc\n"},
		1: {lines: []string{"echo b"}, stderr: "more\n"},
	}})
	res, rp, err := playFakeBot(t, &match.Referee[*fakeBot]{StderrMatch: 10}, tested, "tested", "honest")
	if err != nil {
		t.Fatal(err)
	}
	cut := "0123456789\n[judge: stderr cut here: the match's 10 bytes limit for all bots' stderr in its replay; no more is kept]\n"
	for i, x := range rp.Exchanges {
		if want := map[int]string{0: cut}[i]; x.Stderr != want {
			t.Errorf("exchange %d: stderr %q; want %q", i, x.Stderr, want)
		}
	}
	if got := res.Players[0].Stderr; got != "0123456789abc\nmore\n" {
		t.Errorf("the result's stderr %q; want all of it", got)
	}
}

// brokenWriter fails the write that takes it past n bytes, or that holds marker, as a full
// disk does.
type brokenWriter struct {
	n      int
	marker string
}

func (w *brokenWriter) Write(p []byte) (int, error) {
	if len(p) > w.n || (w.marker != "" && bytes.Contains(p, []byte(w.marker))) {
		return 0, errors.New("no space left on device")
	}
	w.n -= len(p)
	return len(p), nil
}

// A replay that cannot be written fails the match as the judge's (it is retried), never a
// result published without its replay; the bots are closed all the same.
func TestReplayWriteFailureIsInfrastructureWithFakes(t *testing.T) {
	job := func(w io.Writer) match.Job {
		return match.Job{ID: "fake", Game: script{}, Seed: 1, Players: []match.Entrant{entrant("tested"), entrant("honest")},
			Options: map[string]string{"p0": "echo a,echo b,echo c", "p1": "echo a,echo b,echo c"}, Replay: w}
	}
	var full bytes.Buffer
	f := &fakes{bots: map[string]*fakeBot{"tested": newFakeBot(&fakeProc{}), "honest": newFakeBot(&fakeProc{})}}
	if _, err := (&match.Referee[*fakeBot]{Sandbox: f, Builder: f, WorkDir: t.TempDir()}).Play(context.Background(), job(&full)); err != nil {
		t.Fatalf("a match that can write its replay: %v", err)
	}
	// Failing at once, in the moves, and at the last line (the result). The replay's length
	// varies with the times it records: the last line is told by its type.
	for _, w := range []*brokenWriter{{n: 0}, {n: full.Len() / 3}, {n: 1 << 30, marker: `"type":"result"`}} {
		f := &fakes{bots: map[string]*fakeBot{"tested": newFakeBot(&fakeProc{}), "honest": newFakeBot(&fakeProc{})}}
		r := &match.Referee[*fakeBot]{Sandbox: f, Builder: f, WorkDir: t.TempDir()}
		_, err := r.Play(context.Background(), job(w))
		if !errors.Is(err, result.Infrastructure) || !strings.Contains(err.Error(), "no space left") {
			t.Errorf("%+v: %v; want an infrastructure error naming the write's", *w, err)
		}
		for id, b := range f.bots {
			if b.started && !b.closed {
				t.Errorf("%+v: bot %s was not closed", *w, id)
			}
		}
	}
}

// A build job builds and starts nothing: each player's build, a failed one a compile_error.
func TestBuildOnlyWithFakes(t *testing.T) {
	f := &fakes{bots: map[string]*fakeBot{"honest": newFakeBot(&fakeProc{}), "no-build": newFakeBot(&fakeProc{})}}
	r := &match.Referee[*fakeBot]{Sandbox: f, Builder: f, WorkDir: t.TempDir()}
	res, err := r.Build(context.Background(), match.Job{ID: "b", Game: script{}, Players: []match.Entrant{entrant("honest"), entrant("no-build")}})
	if err != nil || res.Status != result.StatusOK || len(res.Players) != 2 || res.Winner != nil {
		t.Fatalf("%+v %v", res, err)
	}
	if p := res.Players[0]; !p.Build.OK || p.Fault != nil {
		t.Errorf("the honest build: %+v", p)
	}
	if p := res.Players[1]; p.Build.OK || p.Build.Log == "" || p.Fault == nil || p.Fault.Kind != game.CompileError {
		t.Errorf("the failed build: %+v", p)
	}
	for id, b := range f.bots {
		if b.started {
			t.Errorf("bot %s was started", id)
		}
	}
}

// Each player's closest call is its answer whose CPU came nearest its limit, as the replay
// records it: the tested bot's slow second answer; the honest bot's, one of its own.
func TestClosestCallWithFakes(t *testing.T) {
	tested := newFakeBot(&fakeProc{steps: map[int]fakeStep{
		0: {lines: []string{"echo a"}, cpu: 2 * time.Millisecond},
		1: {lines: []string{"echo b"}, cpu: 30 * time.Millisecond},
		2: {lines: []string{"echo c"}, cpu: 5 * time.Millisecond},
	}})
	res, rp, err := playFakeBot(t, &match.Referee[*fakeBot]{}, tested, "honest", "tested")
	if err != nil {
		t.Fatal(err)
	}
	for p, pl := range res.Players {
		var best *replay.Exchange
		for i, x := range rp.Exchanges {
			if x.Player == p && x.LimitUS > 0 && (best == nil || float64(x.CPUus)/float64(x.LimitUS) > float64(best.CPUus)/float64(best.LimitUS)) {
				best = &rp.Exchanges[i]
			}
		}
		if best == nil || pl.Closest == nil || pl.Closest.Turn != best.Turn || pl.Closest.CPUus != best.CPUus || pl.Closest.LimitUS != best.LimitUS {
			t.Errorf("player %d's closest call %+v; the replay's is %+v", p, pl.Closest, best)
		}
	}
	if c := res.Players[1].Closest; c == nil || c.CPUus != 30000 {
		t.Errorf("the tested bot's closest call: %+v; want its 30 ms answer", c)
	}
	if c := rp.Result.Players[1].Closest; c == nil || *c != *res.Players[1].Closest {
		t.Errorf("the replay's result has the closest call %+v", c)
	}
}
