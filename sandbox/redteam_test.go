package sandbox_test

import (
	"context"
	"errors"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// The red-team suite: what a hostile bot tries at run time, and what it gets. Each case names
// the attack class of SECURITY.md.

func TestKernelSurfaceIsRefused(t *testing.T) {
	p := probe(t, nil)
	for _, call := range []string{"unshare", "mount", "bpf", "userfaultfd", "perf", "keyctl", "setuid", "chroot", "vsock", "io_uring"} {
		got := mustAsk(t, p, "try "+call)
		if strings.HasSuffix(got, "succeeded") || strings.HasSuffix(got, "unknown") {
			t.Errorf("%s: %q", call, got)
		}
	}
	// Docker allows these; the judge's profile answers EPERM. The process_vm calls are made
	// on the bot's own memory, which they could otherwise always reach.
	for _, call := range []string{"ptrace", "process_vm_readv", "process_vm_writev"} {
		if got, want := mustAsk(t, p, "try "+call), "try "+call+" Operation not permitted"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

// Network egress, one destination at a time. A UDP connect makes the kernel look up a route
// and sends nothing, so it asks whether a packet could leave without sending one (tests send
// nothing beyond loopback). Only loopback exists, so nothing has a route.
func TestNoRouteOut(t *testing.T) {
	gateway := "172.17.0.1" // the engine's default bridge
	if i, err := net.InterfaceByName("docker0"); err == nil {
		addrs, _ := i.Addrs()
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil {
				gateway = n.IP.String()
				break
			}
		}
	}
	p := probe(t, nil)
	noRoute := sandboxtest.NoRoute()
	for _, tc := range []struct{ what, cmd, want string }{
		{"the bridge gateway", "route " + gateway + " 53", noRoute},
		{"the engine's TCP port", "route " + gateway + " 2375", noRoute},
		{"the engine's TLS port", "route " + gateway + " 2376", noRoute},
		{"the link-local metadata address", "route 169.254.169.254 80", noRoute},
		{"a public address", "route 1.1.1.1 53", noRoute},
		// Its own loopback: the route exists (so the check above can tell), and no engine
		// listens there.
		{"its loopback", "route 127.0.0.1 2375", "found"},
		{"the engine's port on its loopback", "tcp 127.0.0.1 2375", "Connection refused"},
	} {
		f := strings.Fields(tc.cmd) // "route ADDR PORT" answers "route ADDR:PORT result"
		if got, want := mustAsk(t, p, tc.cmd), f[0]+" "+f[1]+":"+f[2]+" "+tc.want; got != want {
			t.Errorf("%s: got %q, want %q", tc.what, got, want)
		}
	}
}

// A tmpfs is memory outside the bot's heap; a bot finds none it may write: /tmp and /dev/shm
// are empty read-only mounts (which also keep gVisor from mounting writable ones of its
// own), and the engine's /dev is root's. Writing is refused, not fatal.
func TestTmpfsBombHasNowhereToWrite(t *testing.T) {
	p := probe(t, nil)
	readOnly := sandboxtest.ReadOnly()
	for dir, why := range map[string]string{
		"/dev/shm": readOnly,
		"/tmp":     readOnly,
		"/":        readOnly,
		"/work":    readOnly,
		"/dev":     "Permission denied",
	} {
		if got, want := mustAsk(t, p, "fill "+dir+" 512"), "fill 0 "+why; got != want {
			t.Errorf("%s: got %q, want %q", dir, got, want)
		}
	}
	if got := mustAsk(t, p, "echo still here"); got != "echo still here" {
		t.Errorf("after the tmpfs bomb the bot answers %q", got)
	}
}

func TestNoPrivileges(t *testing.T) {
	p := probe(t, nil)
	if got := mustAsk(t, p, "caps"); got != "caps 0000000000000000 uid 65534" {
		t.Errorf("want no capabilities as nobody, got %q", got)
	}
}

func TestNothingToSee(t *testing.T) {
	p := probe(t, nil)
	for _, tc := range []struct{ cmd, want string }{
		// The root holds the bot, the launcher, its pipes and the kernel's views; no Docker
		// socket, no host mount, no other bot's code.
		{"ls /", "ls bot,dev,etc,judge,proc,sys,tmp,work,"},
		{"ls /tmp", "ls "},
		{"ls /judge", "ls init,io,"},
		{"ls /work", "ls "},
		{"ls /run", "ls No such file or directory"},
		{"ls /var/run", "ls No such file or directory"},
		{"ls /dev/shm", "ls "},
	} {
		got := mustAsk(t, p, tc.cmd)
		if strings.HasSuffix(got, ",") {
			got = sortedList(got)
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.cmd, got, tc.want)
		}
	}
	env := strings.Split(strings.TrimPrefix(mustAsk(t, p, "env"), "env "), ",")
	for _, kv := range env {
		if kv != "" && !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "HOSTNAME=") && !strings.HasPrefix(kv, "HOME=") {
			t.Errorf("the bot's environment has %q", kv)
		}
	}
	// Its own PID namespace: the only processes it can see are itself and the launcher (1),
	// which serves it under runc and relays its stdout under gVisor.
	var pids []string
	self := strings.TrimPrefix(mustAsk(t, p, "pid"), "pid ")
	for _, e := range strings.Split(strings.TrimPrefix(mustAsk(t, p, "ls /proc"), "ls "), ",") {
		if _, err := strconv.Atoi(e); err == nil && e != self {
			pids = append(pids, e)
		}
	}
	if got, want := strings.Join(pids, ","), "1"; got != want {
		t.Errorf("processes visible besides itself: %s, want %s", got, want)
	}
}

func sortedList(s string) string {
	items := strings.Split(strings.TrimSuffix(strings.TrimPrefix(s, "ls "), ","), ",")
	var keep []string
	for _, i := range items {
		if i != ".dockerenv" { // the engine's marker file, empty
			keep = append(keep, i)
		}
	}
	for i := range keep {
		for j := i + 1; j < len(keep); j++ {
			if keep[j] < keep[i] {
				keep[i], keep[j] = keep[j], keep[i]
			}
		}
	}
	return "ls " + strings.Join(keep, ",") + ","
}

func TestThreadAndFileExhaustion(t *testing.T) {
	p := probe(t, nil)
	if sandboxtest.GVisor() {
		// gVisor's threads are its own kernel's, not the host's, so the pids limit does not
		// count them (the host's tasks stay bounded: the sandbox's kernel is what the pids
		// cgroup holds). Ten thousand threads meet the memory or the CPU limit instead.
		_, _, err := ask(t, p, "threads 10000", normal)
		if errors.Is(err, sandbox.ErrClosed) {
			if x := waitExit(t, p); !x.OOM {
				t.Errorf("threads 10000 under gVisor: want the memory limit, got %v", x)
			}
		} else if !errors.Is(err, sandbox.ErrCPULimit) {
			t.Errorf("threads 10000 under gVisor: want the memory or the CPU limit, got %v", err)
		}
		return
	}
	n, _ := strconv.Atoi(strings.TrimPrefix(mustAsk(t, p, "threads 10000"), "threads "))
	if n >= 64 || n < 10 {
		t.Errorf("started %d threads: want some, but fewer than the pids limit of 64", n)
	}
	f, _ := strconv.Atoi(strings.TrimPrefix(mustAsk(t, p, "files"), "files "))
	if f >= 64 {
		t.Errorf("opened %d files: want fewer than the nofile limit of 64", f)
	}
	if got := mustAsk(t, p, "echo still here"); got != "echo still here" {
		t.Errorf("after exhausting its limits the bot answers %q", got)
	}
}

func TestMultiThreadedBurnIsChargedAndCapped(t *testing.T) {
	sandboxtest.Alone(t, "it times a burn on every core")
	p := probe(t, nil)
	start := time.Now()
	_, turn, err := ask(t, p, "burnmt 4 600", sandbox.TurnLimits{CPU: 5 * time.Second, Wall: 10 * time.Second})
	wall := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	// Four threads for 600 ms of wall time: the quota of one core caps them at ~600 ms of CPU
	// in all, and all of it is charged.
	if turn.CPU < 450*time.Millisecond || turn.CPU > wall+100*time.Millisecond {
		t.Errorf("4 threads burning for %v of wall time were charged %v of CPU", wall, turn.CPU)
	}
}

func TestProtocolAbuse(t *testing.T) {
	t.Run("no newline", func(t *testing.T) {
		p := probe(t, nil)
		if _, _, err := ask(t, p, "noline", sandbox.TurnLimits{CPU: time.Second, Wall: 2 * time.Second}); !errors.Is(err, sandbox.ErrWallLimit) {
			t.Errorf("want ErrWallLimit, got %v", err)
		}
	})
	t.Run("NUL and invalid UTF-8 pass through unchanged", func(t *testing.T) {
		p := probe(t, nil)
		got, _, err := ask(t, p, "nul", normal)
		if err != nil || got != "a\x00b\xff\xfe" {
			t.Errorf("got %q, %v", got, err)
		}
	})
	t.Run("never reads its input", func(t *testing.T) {
		p := probe(t, nil)
		mustAsk(t, p, "echo x")
		p.Thaw()
		if err := p.Send([]byte("deaf\n"), time.Now().Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		big := []byte(strings.Repeat("x", 1<<20) + "\n")
		start := time.Now()
		if err := p.Send(big, time.Now().Add(time.Second)); !errors.Is(err, sandbox.ErrWallLimit) {
			t.Errorf("writing 1 MiB to a bot that does not read: want ErrWallLimit, got %v", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("the write took %v", d)
		}
	})
	t.Run("SIGSTOP to itself", func(t *testing.T) {
		p := probe(t, nil)
		got, _, err := ask(t, p, "selfstop", sandbox.TurnLimits{CPU: time.Second, Wall: 2 * time.Second})
		// The bot stops and runs out of time (it is not its PID namespace's init, whose
		// SIGSTOP to itself the kernel would drop: the launcher is); it never hangs the match.
		if !errors.Is(err, sandbox.ErrWallLimit) {
			t.Errorf("got %q, %v", got, err)
		}
	})
}

func TestStackBombCrashes(t *testing.T) {
	p := probe(t, nil)
	if _, _, err := ask(t, p, "recurse", normal); !errors.Is(err, sandbox.ErrClosed) {
		t.Fatalf("want the bot gone, got %v", err)
	}
	if x := waitExit(t, p); x.Signal != 11 && !x.OOM {
		t.Errorf("unbounded recursion: want SIGSEGV or OOM, got %v", x)
	}
}

// Compile-time attacks: the compiler runs in its own sandbox, so what it can reach is its
// own image; what it can do is bounded by the build limits.
func TestCompileTimeAttacks(t *testing.T) {
	sandboxtest.Alone(t, "it times compilations against their limits")
	e := sandboxtest.Engine(t)
	b := sandboxtest.Builder(t, e)
	b.Limits.Timeout = 10 * time.Second
	for _, tc := range []struct {
		name, file, src, reason string
	}{
		// The preprocessor reads /dev/random until the compiler's memory limit kills it.
		{"include /dev/random", "a.cpp", "#include \"/dev/random\"\nint main(){}\n", "out of memory"},
		// The compiler runs as nobody in its own image: even its own /etc/shadow is closed.
		{"incbin of a root-only file", "a.cpp", "__asm__(\".incbin \\\"/etc/shadow\\\"\");\nint main(){}\n", "/etc/shadow"},
		{"Go module download", "main.go", "package main\nimport _ \"github.com/x/y\"\nfunc main(){}\n", "github.com/x/y"},
		{"cgo", "main.go", "package main\n// #include <stdio.h>\nimport \"C\"\nfunc main(){}\n", "build constraints exclude all Go files"},
		{"planted fpc.cfg is ignored", "fpc.cfg", "-Fu/nonexistent\n#INCLUDE /etc/shadow\n", ""},
		// A constexpr loop of 2^40 steps: stopped by the compiler's own operation limit or by
		// the build's wall limit, whichever comes first.
		{"constexpr bomb", "a.cpp", "constexpr long f(){long s=0;for(long i=0;i<(1L<<40);i++)s+=i;return s;}\nconstexpr long x=f();\nint main(){return x!=0;}\n", "constexpr"},
		// A 1 GiB initialised array: the assembler is stopped by the compile container's file
		// size limit (the artifact limit, 64 MiB) before it can fill the scratch space.
		{"gigantic object file", "a.cpp", "char big[1<<30]={1};\nint main(){return big[7];}\n", "File size limit exceeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string][]byte{tc.file: []byte(tc.src)}
			lang := "cpp"
			switch {
			case strings.HasSuffix(tc.file, ".go"):
				lang = "go"
			case tc.file == "fpc.cfg":
				lang = "pascal"
				files["p.pas"] = []byte("program p; begin writeln('ok') end.\n")
			}
			start := time.Now()
			res, err := b.Build(context.Background(), submission.Submission{Lang: lang, Files: files})
			if err != nil {
				t.Fatal(err)
			}
			if time.Since(start) > 15*time.Second {
				t.Errorf("the build took %v", time.Since(start))
			}
			if tc.reason == "" {
				if !res.OK {
					t.Errorf("want the planted file ignored and the build fine:\n%s", res.Log)
				}
				return
			}
			if res.OK || !strings.Contains(res.Log, tc.reason) {
				t.Errorf("want a failed build mentioning %q, got ok=%v:\n%s", tc.reason, res.OK, res.Log)
			}
		})
	}
}

func TestFilelessExecKillsTheBot(t *testing.T) {
	p := probe(t, nil)
	if _, _, err := ask(t, p, "fileless", normal); !errors.Is(err, sandbox.ErrClosed) {
		t.Fatalf("want the bot gone, got %v", err)
	}
	if x := waitExit(t, p); x.Signal != 31 {
		t.Errorf("fexecve of a memfd: want SIGSYS, got %v", x)
	}
}

func TestThirtyTwoBitCallsKillTheBot(t *testing.T) {
	e := sandboxtest.Engine(t)
	want := 31 // SIGSYS: the filters
	if !sandboxtest.HostHas32BitCalls(t, sandboxtest.Build(t, sandboxtest.Builder(t, e), "sandbox/testdata/probe")) {
		want = 11 // the kernel has no 32-bit ABI: the call faults before any filter
	}
	p := probe(t, nil)
	if _, _, err := ask(t, p, "int80", normal); !errors.Is(err, sandbox.ErrClosed) {
		t.Fatalf("want the bot gone, got %v", err)
	}
	if x := waitExit(t, p); x.Signal != want {
		t.Errorf("int 0x80: want signal %d, got %v", want, x)
	}
}

func TestNoDevicesToAbuse(t *testing.T) {
	p := probe(t, nil)
	devs := strings.Split(strings.TrimPrefix(mustAsk(t, p, "ls /dev"), "ls "), ",")
	for _, d := range devs {
		switch d {
		case "mem", "kmem", "port", "kmsg", "sda", "vda", "kvm", "loop0":
			t.Errorf("/dev/%s is there", d)
		case "fuse", "net":
			// gVisor's /dev always has its own fuse and net/tun: devices of its kernel, with
			// no host device behind them, that need CAP_SYS_ADMIN or CAP_NET_ADMIN to use.
			if !sandboxtest.GVisor() {
				t.Errorf("/dev/%s is there", d)
			}
		}
	}
	for _, d := range []string{"mem", "kmsg"} {
		if got := mustAsk(t, p, "cat /dev/"+d); !strings.Contains(got, "No such file") {
			t.Errorf("reading /dev/%s: %q", d, got)
		}
	}
}

// Two bots of one match cannot reach each other: each has its own network namespace, so an
// abstract unix socket one binds is not there for the other.
func TestBotsCannotTalkToEachOther(t *testing.T) {
	a, b := probe(t, nil), probe(t, nil)
	if got := mustAsk(t, a, "listen judge-redteam"); got != "listen ok" {
		t.Fatalf("bot a: %q", got)
	}
	if got := mustAsk(t, b, "dial judge-redteam"); got != "dial Connection refused" {
		t.Errorf("bot b reached bot a's socket: %q", got)
	}
	if got := mustAsk(t, a, "dial judge-redteam"); got != "dial connected" {
		t.Errorf("bot a cannot reach its own socket (the test would prove nothing): %q", got)
	}
}

// Creating a process the way each language's library does it (Java's Runtime.exec, Go's
// os/exec, Free Pascal's ExecuteProcess) is killed by the sandbox like a plain fork. Every
// language has its hostile bot in sandbox/testdata/hostile, but C++, whose probe is the C++
// one (sandbox/testdata/probe).
func TestEachLanguagesSpawnIsForbidden(t *testing.T) {
	e := sandboxtest.Engine(t)
	b := sandboxtest.Builder(t, e)
	for _, lang := range images.LangNames() {
		if lang == "cpp" {
			continue
		}
		t.Run(lang, func(t *testing.T) {
			res := sandboxtest.Build(t, b, "sandbox/testdata/hostile/"+lang)
			p := sandboxtest.Start(t, e, sandboxtest.Spec(res))
			turn, err := p.Exchange([]byte("spawn\n"), 1, sandbox.TurnLimits{CPU: 5 * time.Second, Wall: 15 * time.Second})
			if !errors.Is(err, sandbox.ErrClosed) {
				t.Fatalf("want the bot killed, got %v, answer %q", err, turn.Lines)
			}
			x := waitExit(t, p)
			if lang == "go" && sandboxtest.GVisor() {
				// The trap raises SIGSYS (see the launcher); Go's runtime handles every
				// signal, so it is Go that reports the banned call and exits with status 2.
				if x.Code != 2 || !strings.HasPrefix(string(p.Stderr()), "SIGSYS: bad system call") {
					t.Errorf("want Go's SIGSYS report and status 2, got %v (stderr %.200q)", x, p.Stderr())
				}
				return
			}
			if x.Signal != 31 {
				t.Errorf("want SIGSYS, got %v (stderr %q)", x, p.Stderr())
			}
		})
	}
}

func TestPinnedToItsCore(t *testing.T) {
	sandboxtest.Alone(t, "it checks which core a bot burns on")
	p := probe(t, func(s *sandbox.RunSpec) { s.Limits.CPUSet = "1" })
	want := "cpus 1"
	if sandboxtest.GVisor() {
		want = "cpus 0" // gVisor's kernel numbers its own CPUs: one host core makes one CPU
	}
	if got := mustAsk(t, p, "cpus"); got != want {
		t.Errorf("pinned to core 1: %q", got)
	}
}

// What a Pascal program includes at compile time ({$I file}, {$I %VAR%}) comes from the
// compile container: its own files and its own environment, never the host's.
func TestPascalIncludesSeeOnlyTheCompileContainer(t *testing.T) {
	e := sandboxtest.Engine(t)
	b := sandboxtest.Builder(t, e)
	src := "program p;\nconst home = {$I %HOME%}; host = '{$I /etc/hostname}';\nvar s: string;\nbegin\n  readln(s);\n  writeln(home, ' ', host);\nend.\n"
	res, err := b.Build(context.Background(), submission.Submission{Lang: "pascal", Files: map[string][]byte{"p.pas": []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK {
		// An include of a file that is not there fails the build: nothing of the host leaks.
		if !strings.Contains(res.Log, "hostname") {
			t.Fatalf("build failed for another reason:\n%s", res.Log)
		}
		return
	}
	p := sandboxtest.Start(t, e, sandboxtest.Spec(res))
	got, _, err := ask(t, p, "go", normal)
	host, _ := os.Hostname()
	if err != nil || !strings.HasPrefix(got, "/tmp ") || (host != "" && strings.Contains(got, host)) {
		t.Errorf("compiled in: %q (%v, stderr %q); want the compile container's HOME (/tmp) and not this host's name %q", got, err, p.Stderr(), host)
	}
}

func TestJavaGUIIsHeadless(t *testing.T) {
	e := sandboxtest.Engine(t)
	res := sandboxtest.Build(t, sandboxtest.Builder(t, e), "sandbox/testdata/awt")
	p := sandboxtest.Start(t, e, sandboxtest.Spec(res))
	turn, err := p.Exchange([]byte("go\n"), 1, sandbox.TurnLimits{CPU: 10 * time.Second, Wall: 20 * time.Second})
	if err != nil {
		t.Fatalf("%v (stderr %q)", err, p.Stderr())
	}
	if got := string(turn.Lines[0]); !strings.HasPrefix(got, "no window: java.awt.HeadlessException") {
		t.Errorf("got %q", got)
	}
}
