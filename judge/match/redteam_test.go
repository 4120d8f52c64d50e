package match_test

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// The red-team suite at match level. The sandbox's tests (sandbox/redteam_test.go) prove what
// each attack meets; these prove what the judge makes of it in a real match: the attacker gets
// its exact fault, the other player's match is untouched, and nothing is left behind.

const probeDir = "sandbox/testdata/probe"

// honest is the well-behaved player's script.
const honest = "echo 1,echo 2,echo 3"

// sigsys is the detail of a bot killed by the sandbox's system call filters.
const sigsys = "killed by SIGSYS: a banned system call (creating a process, running a program, a 32-bit or x32 call)"

// outcome is what the judge must make of an attack played at turn 2 (after one good move):
// a fault of kind (or orKind) whose detail contains detail (at turn, when it is not 2), or,
// when kind is "", the answer and the bot going on to answer its last command.
type outcome struct {
	kind, orKind game.FaultKind
	detail       string
	turn         int
	// answer is the attack's answer; with a fault at a later turn, or partial, a part of it.
	answer  string
	partial bool
	// or is another outcome the attack may end with: a race between two limits.
	or *outcome
}

// attack plays player 0, the probe with script other (honest when ""), against player 1,
// the bot at dir that answers "echo a", then attack, then "echo c", and checks want, that
// player 0 scored 3 of 3 with no fault, and that nothing is left behind.
func attack(t *testing.T, r *match.Runner, opts map[string]string, other, dir, cmd string, want outcome) {
	t.Helper()
	if other == "" {
		other = honest
	}
	all := map[string]string{"p0": other, "p1": "echo a," + cmd + ",echo c", "limit": "500ms"}
	for k, v := range opts {
		all[k] = v
	}
	res, rp := matchtest.Play(t, r, script{}, 7, all, probeDir, dir)
	noFilesLeft(t, r)
	good, bad := res.Players[0], res.Players[1]
	if good.Fault != nil || good.Score != 3 || good.Moves != 3 {
		t.Errorf("the other player: score %v, moves %d, fault %v; want 3, 3, none", good.Score, good.Moves, good.Fault)
	}
	got := answers(rp, 1)
	var errs []string
	for o := &want; o != nil; o = o.or {
		if errs = ended(o, bad, got); len(errs) == 0 {
			return
		}
	}
	for _, e := range errs {
		t.Error(e)
	}
}

// ended says how the attacker's match differs from the outcome o (nothing when it ended so).
func ended(o *outcome, bad result.Player, got []string) []string {
	if o.kind == "" {
		if bad.Fault != nil || bad.Score != 3 || len(got) != 3 || got[2] != "echo c" || got[1] != o.answer && !(o.partial && strings.Contains(got[1], o.answer)) {
			return []string{fmt.Sprintf("want the attack answered %q and the bot going on; got answers %q, score %v, fault %v", o.answer, got, bad.Score, bad.Fault)}
		}
		return nil
	}
	var errs []string
	turn := cmp.Or(o.turn, 2)
	if f := bad.Fault; f == nil || (f.Kind != o.kind && f.Kind != o.orKind) || f.Turn != turn || !strings.Contains(f.Detail, o.detail) {
		errs = append(errs, fmt.Sprintf("fault %v; want %s at turn %d with %q in its detail (answers %q)", f, o.kind, turn, o.detail, got))
	}
	if o.answer != "" && (len(got) < 2 || !strings.Contains(got[1], o.answer)) {
		errs = append(errs, fmt.Sprintf("the attack answered %q; want %q in it", got, o.answer))
	}
	if bad.Score != float64(turn-1) {
		errs = append(errs, fmt.Sprintf("the attacker scored %v; want %d (its moves before the fault)", bad.Score, turn-1))
	}
	return errs
}

// answers are player p's first answer line to each request ("" for none), from the replay.
func answers(rp *replay.Replay, p int) []string {
	var out []string
	for _, x := range rp.Exchanges {
		if x.Player == p {
			out = append(out, strings.Join(x.Received[:min(len(x.Received), 1)], ""))
		}
	}
	return out
}

// noFilesLeft fails if a match left anything in the engine's run directory (the bots' pipes)
// or in the runner's work directory (the bots' input files).
func noFilesLeft(t *testing.T, r *match.Runner) {
	t.Helper()
	for _, dir := range []string{matchtest.Engine(r).RunDir(), r.WorkDir} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Errorf("the run directory: %v", err)
		}
		for _, e := range entries {
			t.Errorf("%s was left in %s", e.Name(), dir)
		}
	}
}

// Every hostile probe plays a real match against a well-behaved one.
func TestEveryHostileBotPlaysARealMatch(t *testing.T) {
	r := runner(t)
	smallStdout := func(r *match.Runner) { r.Output.Stdout = 32 << 10 }
	// A bot that stops itself stays stopped until the wall clock (it is not its PID
	// namespace's first process, whose SIGSTOP to itself the kernel would drop: the launcher
	// is). The pids limit stops the 64th thread; gVisor's kernel does not (its threads are
	// not the host's), so there the bot burns its CPU time.
	selfstop, threads := outcome{kind: game.Timeout, detail: "wall clock"}, outcome{answer: "threads 63"}
	if sandboxtest.GVisor() {
		threads = outcome{kind: game.Timeout, detail: "500 ms CPU"}
	}
	// A kernel without the 32-bit ABI faults the call before any filter sees it: a crash.
	int80 := outcome{kind: game.Forbidden, detail: sigsys}
	if !sandboxtest.HostHas32BitCalls(t, sandboxtest.Build(t, sandboxtest.Builder(t, matchtest.Engine(r)), probeDir)) {
		int80 = outcome{kind: game.Crash, detail: "killed by signal 11"}
	}
	for _, tc := range []struct {
		name, attack string
		opts         map[string]string
		adjust       func(*match.Runner)
		other        string
		want         outcome
	}{
		// Creating a process, running a program or a 32-bit system call: killed with SIGSYS.
		{name: "fork bomb", attack: "fork", want: outcome{kind: game.Forbidden, detail: sigsys}},
		{name: "exec itself", attack: "exec /bot/bot", want: outcome{kind: game.Forbidden, detail: sigsys}},
		{name: "exec the launcher", attack: "exec /judge/init", want: outcome{kind: game.Forbidden, detail: sigsys}},
		{name: "fileless exec", attack: "fileless", want: outcome{kind: game.Forbidden, detail: sigsys}},
		{name: "32-bit system call", attack: "int80", want: int80},
		// Memory.
		// Near its memory limit a bot spends CPU in the kernel's reclaim: with the usual
		// time limit it may run out of time first, which would be fair but is not this test.
		{name: "heap bomb", attack: "alloc 512", opts: map[string]string{"memory": "32", "limit": "2s"}, want: outcome{kind: game.Memory, detail: "out of memory"}},
		// Shared memory is charged to the bot that touches it; there is no tmpfs to fill.
		{name: "System V shared memory bomb", attack: "shm 512", opts: map[string]string{"limit": "2s"}, want: outcome{kind: game.Memory, detail: "out of memory"}},
		{name: "tmpfs bomb", attack: "fill /dev/shm 512", want: outcome{answer: "fill 0 " + sandboxtest.ReadOnly()}},
		{name: "stack bomb", attack: "recurse", want: outcome{kind: game.Crash, detail: "signal 11"}},
		// Time.
		{name: "CPU burn", attack: "burn 3000", want: outcome{kind: game.Timeout, detail: "500 ms CPU"}},
		// By the process's CPU clock, all threads together: burning for a wall time would use less
		// than the limit on a loaded machine, and be right not to be stopped.
		{name: "multi-threaded CPU burn", attack: "burnwith 3000 3", want: outcome{kind: game.Timeout, detail: "500 ms CPU"}},
		{name: "sleep", attack: "sleep 5000", want: outcome{kind: game.Timeout, detail: "wall clock"}},
		{name: "SIGSTOP to itself", attack: "selfstop", want: selfstop},
		{name: "never reads its input", attack: "deaf", want: outcome{kind: game.Timeout, detail: "wall clock"}},
		// Output and protocol.
		{name: "stdout flood", attack: "flood", adjust: smallStdout, want: outcome{kind: game.OutputLimit, detail: "32768 bytes"}},
		{name: "a 100 MiB line", attack: "bigline 100", want: outcome{kind: game.Protocol, detail: "longer than 1048576 bytes"}},
		{name: "no newline", attack: "noline", want: outcome{kind: game.Timeout, detail: "wall clock"}},
		{name: "stderr flood", attack: "errflood", want: outcome{answer: "done"}},
		// The game is given the bytes as they came, and the replay holds them exactly (the
		// answers are read from it, and matchtest.Play re-judges it).
		{name: "NUL and invalid UTF-8", attack: "nul", want: outcome{answer: "a\x00b\xff\xfe"}},
		// Ending early.
		{name: "close stdout", attack: "close", want: outcome{kind: game.Crash, detail: "closed its output and kept running"}},
		{name: "exit 0", attack: "exit 0", want: outcome{kind: game.Crash, detail: "exited: exit status 0"}},
		{name: "segfault", attack: "segv", want: outcome{kind: game.Crash, detail: "signal 11"}},
		// Refused, and the bot goes on.
		{name: "10k threads", attack: "threads 10000", want: threads},
		{name: "open-file exhaustion", attack: "files", want: outcome{answer: "files 61"}},
		{name: "write /tmp", attack: "write /tmp/x", want: outcome{answer: "write /tmp/x " + sandboxtest.ReadOnly()}},
		{name: "unshare", attack: "try unshare", want: outcome{answer: "try unshare Operation not permitted"}},
		{name: "setuid", attack: "try setuid", want: outcome{answer: "try setuid Operation not permitted"}},
		{name: "ptrace", attack: "try ptrace", want: outcome{answer: "try ptrace Operation not permitted"}},
		{name: "network egress", attack: "route 1.1.1.1 53", want: outcome{answer: "route 1.1.1.1:53 " + sandboxtest.NoRoute()}},
		{name: "spin between turns", attack: "spin", want: outcome{answer: "spinning"}},
		// Player 0 binds an abstract socket at turn 1; player 1 cannot reach it at turn 2.
		{name: "reach the other bot", attack: "dial judge-redteam", other: "listen judge-redteam,echo 2,echo 3", want: outcome{answer: "dial Connection refused"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc := *r
			if tc.adjust != nil {
				tc.adjust(&rc)
			}
			attack(t, &rc, tc.opts, tc.other, probeDir, tc.attack, tc.want)
		})
	}
}

// A match leaves nothing for the next: the first match's attacker tries to leave files, an
// abstract socket, a shared memory segment and a spinning thread behind (and to outlive its
// match); in the second a probe looks for them and checks its speed.
func TestNothingPersistsToTheNextMatch(t *testing.T) {
	sandboxtest.Alone(t, "it compares a bot's CPU with the wall clock")
	// Used once, each bot's container is removed after its match; used again (the daemon's
	// default under runc), the attacker's own container serves it in the next match, reset.
	for _, reuse := range []bool{false, true} {
		t.Run(map[bool]string{false: "new containers", true: "containers used again"}[reuse], func(t *testing.T) {
			nothingPersists(t, reuse)
		})
	}
}

func nothingPersists(t *testing.T, reuse bool) {
	r := runner(t)
	e := matchtest.Engine(r)
	if reuse {
		e.Reuse(4)
		defer e.Reuse(0)
	}
	filesLeft := func() {
		if !reuse {
			noFilesLeft(t, r)
		}
	}
	// Every bot of both matches on one core: a spinning thread left behind would halve the
	// second match's speed.
	r.Limits.CPUSet = "0"
	look := "ls /,ls /tmp,ls /work,ls /dev/shm"
	leave := look + ",write /x,write /tmp/x,write /work/x,write /dev/shm/x,listen judge-persist,dial judge-persist,shm 16,lines /proc/sysvipc/shm,spin,linger"
	_, rp := matchtest.Play(t, r, script{}, 7, map[string]string{"p0": honest, "p1": leave}, probeDir, probeDir)
	filesLeft()
	before := answers(rp, 1)
	// gVisor shows no /proc/sysvipc; its segments live in each sandbox's own kernel anyway.
	segments, noSegment := "lines 2", "lines 1" // the header, and one segment or none
	if sandboxtest.GVisor() {
		segments, noSegment = "lines No such file or directory", "lines No such file or directory"
	}
	set := []string{"listen ok", "dial connected", "shm touched", segments, "spinning", "lingering"}
	if len(before) != strings.Count(leave, ",")+1 || !slices.Equal(before[len(before)-len(set):], set) {
		t.Fatalf("the first match's attacker could not set up (the test would prove nothing): %q", before)
	}
	e.Settle()
	if kept := len(e.Spares()); reuse && !sandboxtest.GVisor() && kept != 2 {
		t.Fatalf("%d containers kept for the next match, want both players'", kept)
	}

	// The attacker, p1, looks now: in its own container again when containers are used again.
	res, rp := matchtest.Play(t, r, script{}, 7, map[string]string{"p0": honest, "p1": look + ",dial judge-persist,lines /proc/sysvipc/shm,burn 400"}, probeDir, probeDir)
	filesLeft()
	after := answers(rp, 1)
	if len(after) != 7 {
		t.Fatalf("the second match's probe answered %q", after)
	}
	for i, cmd := range strings.Split(look, ",") {
		if sortList(after[i]) != sortList(before[i]) {
			t.Errorf("%s: %q after the attack, %q before", cmd, after[i], before[i])
		}
	}
	if got := after[4]; got != "dial Connection refused" {
		t.Errorf("the first match's socket is still there: %q", got)
	}
	if got := after[5]; got != noSegment {
		t.Errorf("the first match's shared memory segment is still there: %q", got)
	}
	if p := res.Players[1]; p.Fault != nil || p.CPUms < 380 || p.WallMs > p.CPUms+100 {
		t.Errorf("burning 400 ms: %d ms CPU in %d ms of wall time (fault %v); want no more wall time than CPU time", p.CPUms, p.WallMs, p.Fault)
	}
	if reuse {
		e.Reuse(0)
		e.Settle()
		noFilesLeft(t, r)
	}
}

// sortList sorts the entries of an "ls" answer.
func sortList(ls string) string {
	items := strings.Split(ls, ",")
	slices.Sort(items)
	return strings.Join(items, ",")
}

// The attacks whose outcome depends on the language's runtime, made by a bot of each
// language (sandbox/testdata/hostile; the C++ probe's are above).
func TestEachLanguagesHostileBot(t *testing.T) {
	r := runner(t)
	ro, noRoute := sandboxtest.ReadOnly(), sandboxtest.NoRoute()
	// How Node names the errors (its code).
	errnoName := map[string]string{"Read-only file system": "EROFS", "Permission denied": "EACCES",
		"Network is unreachable": "ENETUNREACH", "No route to host": "EHOSTUNREACH"}
	// Under gVisor the memory limit also holds gVisor's kernel, which keeps each thread's
	// state: the JVM's heap and ten thousand threads meet the container's limit first. And
	// Go's runtime, which handles every signal, reports a trapped spawn itself (see the
	// launcher's --trap).
	oom := &outcome{kind: game.Memory, detail: "out of memory"}
	// A thread bomb there burns CPU in gVisor's kernel as it takes memory: whichever limit
	// it meets first ends it.
	threadBomb := &outcome{kind: game.Memory, orKind: game.Timeout}
	for _, tc := range []struct {
		lang, attack string
		want         outcome
		gvisor       *outcome // the outcome under gVisor, when it differs
	}{
		// The JVM's heap (60% of the memory limit) runs out before the container's memory:
		// OutOfMemoryError, and the JVM exits with status 1. Under gVisor on a loaded machine
		// its collector near the limit is Mono's (below): a CI run saw it use its 6 s of CPU
		// first ("used 6004 ms CPU"); either limit ends it.
		{"java", "alloc 512", outcome{kind: game.Crash, detail: `exited: exit status 1; stderr: Exception in thread "main" java.lang.OutOfMemoryError: Java heap space`}, &outcome{kind: game.Memory, detail: "out of memory", or: &outcome{kind: game.Timeout, detail: "CPU limit"}}},
		// The thread that cannot start is an error the bot catches; the JVM's own warning
		// goes to stderr (on stdout the game would read it as the bot's answers).
		{"java", "threads 10000", outcome{answer: "threads 50 java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached"}, threadBomb},
		{"java", "spawn", outcome{kind: game.Forbidden, detail: sigsys}, nil},
		{"java", "write /tmp/x", outcome{answer: "write java.io.FileNotFoundException: /tmp/x (" + ro + ")"}, nil},
		{"go", "alloc 512", *oom, nil},
		// The runtime aborts when it cannot create an OS thread.
		{"go", "threads 10000", outcome{kind: game.Crash, detail: "exited: exit status 2; stderr: runtime: failed to create new OS thread"}, threadBomb},
		{"go", "spawn", outcome{kind: game.Forbidden, detail: sigsys}, &outcome{kind: game.Crash, detail: "exited: exit status 2; stderr: SIGSYS: bad system call"}},
		{"go", "write /tmp/x", outcome{answer: "write /tmp/x open /tmp/x: " + strings.ToLower(ro)}, nil},
		{"pascal", "alloc 512", *oom, nil},
		// A statically linked Free Pascal program has no thread manager (that needs cthreads,
		// hence libc): its first thread is runtime error 232.
		{"pascal", "threads 10000", outcome{kind: game.Crash, detail: "exited: exit status 232; stderr: This binary has no thread support compiled in."}, nil},
		{"pascal", "spawn", outcome{kind: game.Forbidden, detail: sigsys}, nil},
		{"pascal", "write /tmp/x", outcome{answer: "write /tmp/x " + ro}, nil},
		// The new languages' runtimes each end an attack their own way; none gets out.
		{"python", "alloc 512", *oom, nil},
		{"python", "threads 10000", outcome{answer: `threads 63 RuntimeError("can't start new thread")`}, threadBomb},
		{"python", "spawn", outcome{kind: game.Forbidden, detail: sigsys}, nil},
		{"python", "system", outcome{kind: game.Forbidden, detail: sigsys}, nil},
		{"python", "write /tmp/x", outcome{answer: "write " + ro}, nil},
		{"python", "net", outcome{answer: "net " + noRoute}, nil},
		{"python", "env", outcome{answer: "env HOME,HOSTNAME,PATH,PYTHONDONTWRITEBYTECODE,PYTHONHASHSEED,PYTHONUNBUFFERED"}, nil},
		// Under gVisor, V8's collector near the limit is Mono's (below): a CI run saw the
		// bomb use its 6 s of CPU before the memory limit; either limit ends it.
		{"javascript", "alloc 512", *oom, &outcome{kind: game.Memory, orKind: game.Timeout}},
		// Each worker is a JavaScript engine of its own: starting them uses up the CPU
		// limit, or the memory, mostly before the pids limit. On a loaded machine the pids
		// limit came first (CI runs: "threads 57 Error: EAGAIN"), and the workers already
		// started used up the next move's CPU, or did not: contained every way.
		{"javascript", "threads 10000", outcome{kind: game.Memory, orKind: game.Timeout,
			or: &outcome{kind: game.Timeout, turn: 3, answer: "Error: EAGAIN",
				or: &outcome{answer: "Error: EAGAIN", partial: true}}}, nil},
		{"javascript", "spawn", outcome{kind: game.Forbidden, detail: sigsys}, nil},
		{"javascript", "write /tmp/x", outcome{answer: "write " + errnoName[ro]}, nil},
		{"javascript", "net", outcome{answer: "net " + errnoName[noRoute]}, nil},
		{"javascript", "env", outcome{answer: "env HOME,HOSTNAME,PATH"}, nil},
		{"rust", "alloc 512", *oom, nil},
		{"rust", "threads 10000", outcome{answer: "threads 63 Resource temporarily unavailable (os error 11)"}, threadBomb},
		{"rust", "spawn", outcome{kind: game.Forbidden, detail: sigsys}, nil},
		{"rust", "write /tmp/x", outcome{answer: "write " + ro}, nil},
		{"rust", "net", outcome{answer: "net " + noRoute}, nil},
		{"rust", "env", outcome{answer: "env HOME,HOSTNAME,PATH"}, nil},
		// Mono's collector works ever harder as the heap nears the limit: whichever limit it
		// meets first ends it.
		{"csharp", "alloc 512", outcome{kind: game.Memory, orKind: game.Timeout}, nil},
		{"csharp", "threads 10000", outcome{answer: "threads 61 ExecutionEngineException: Couldn't create thread. Error 0x0"}, threadBomb},
		{"csharp", "spawn", outcome{kind: game.Forbidden, detail: sigsys}, nil},
		{"csharp", "write /tmp/x", outcome{answer: `write UnauthorizedAccessException: Access to the path "/tmp/x" is denied.`}, nil},
		{"csharp", "net", outcome{answer: "net " + noRoute}, nil},
		{"csharp", "env", outcome{answer: "env HOME,HOSTNAME,PATH"}, nil},
	} {
		if tc.gvisor != nil && sandboxtest.GVisor() {
			tc.want = *tc.gvisor
		}
		t.Run(tc.lang+" "+tc.attack, func(t *testing.T) {
			// Time enough for the memory bomb to meet the memory limit (see above); gVisor's
			// kernel spends CPU of the bot's on each page the bomb touches.
			limit := "2s"
			if sandboxtest.GVisor() {
				limit = "6s"
			}
			attack(t, r, map[string]string{"limit": limit}, "", "sandbox/testdata/hostile/"+tc.lang, tc.attack, tc.want)
		})
	}
}
