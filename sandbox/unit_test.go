package sandbox

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/moby/profiles/seccomp"
	specs "github.com/opencontainers/runtime-spec/specs-go"
	"golang.org/x/sys/unix"
)

func tarOf(t *testing.T, headers ...tar.Header) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range headers {
		h := h
		body := []byte{}
		if h.Typeflag == tar.TypeReg {
			body = []byte("data")
			h.Size = int64(len(body))
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		tw.Write(body)
	}
	tw.Close()
	return buf.Bytes()
}

func TestExtractArtifactRejectsEscapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		hdr  tar.Header
	}{
		{"symlink", tar.Header{Name: "bot", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}},
		{"hard link", tar.Header{Name: "bot", Typeflag: tar.TypeLink, Linkname: "/etc/passwd"}},
		{"dotdot", tar.Header{Name: "../bot", Typeflag: tar.TypeReg, Mode: 0o755}},
		{"nested dotdot", tar.Header{Name: "a/../../bot", Typeflag: tar.TypeReg, Mode: 0o755}},
		{"absolute", tar.Header{Name: "/tmp/bot", Typeflag: tar.TypeReg, Mode: 0o755}},
		{"device", tar.Header{Name: "mem", Typeflag: tar.TypeChar, Devmajor: 1, Devminor: 1}},
		{"fifo", tar.Header{Name: "fifo", Typeflag: tar.TypeFifo}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "out")
			os.Mkdir(dir, 0o755)
			if err := ExtractArtifact(tarOf(t, tc.hdr), dir); err == nil {
				t.Fatal("accepted")
			}
			entries, _ := os.ReadDir(parent)
			if len(entries) != 1 {
				t.Errorf("something was written beside the artifact: %v", entries)
			}
		})
	}
}

func TestExtractArtifact(t *testing.T) {
	dir := t.TempDir()
	data := tarOf(t,
		tar.Header{Name: "./", Typeflag: tar.TypeDir, Mode: 0o755},
		tar.Header{Name: "./bot", Typeflag: tar.TypeReg, Mode: 0o755},
		tar.Header{Name: "./lib/", Typeflag: tar.TypeDir, Mode: 0o755},
		tar.Header{Name: "./lib/x.jar", Typeflag: tar.TypeReg, Mode: 0o4777},
	)
	if err := ExtractArtifact(data, dir); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, "bot"))
	if err != nil || st.Mode().Perm() != 0o755 {
		t.Errorf("bot: %v %v", st, err)
	}
	st, err = os.Stat(filepath.Join(dir, "lib/x.jar"))
	if err != nil || st.Mode() != 0o755 {
		t.Errorf("setuid must not survive: %v %v", st.Mode(), err)
	}
	if err := ExtractArtifact(tarOf(t, tar.Header{Name: "./", Typeflag: tar.TypeDir}), t.TempDir()); err == nil {
		t.Error("an empty artifact was accepted")
	}
}

func TestCheckFileName(t *testing.T) {
	for name, ok := range map[string]bool{
		"main.cpp": true, "src/a.cpp": true, "a b.java": true,
		"": false, "/abs.cpp": false, "../x.cpp": false, "a/../../x": false, "a/./b": false,
		".": false, "..": false, "a//b": false, "a\\b": false, "a\x00b": false, "a/": false,
	} {
		if err := checkFileName(name); (err == nil) != ok {
			t.Errorf("checkFileName(%q) = %v, want ok=%v", name, err, ok)
		}
	}
}

func TestLineReader(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	r := lineReader{f: pr, limit: 100, max: 10}
	soon := func() time.Time { return time.Now().Add(20 * time.Millisecond) }
	pw.WriteString("one\ntw")
	if l, err := r.readLine(soon()); err != nil || string(l) != "one" {
		t.Fatalf("got %q %v", l, err)
	}
	if _, err := r.readLine(soon()); err != errTimeout {
		t.Fatalf("partial line: want timeout, got %v", err)
	}
	pw.WriteString("o\n")
	if l, err := r.readLine(soon()); err != nil || string(l) != "two" {
		t.Fatalf("got %q %v", l, err)
	}
	pw.WriteString("0123456789\n")
	if l, err := r.readLine(soon()); err != nil || string(l) != "0123456789" {
		t.Fatalf("a line of exactly the limit: got %q %v", l, err)
	}
	pw.WriteString(strings.Repeat("x", 11))
	if _, err := r.readLine(soon()); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("want ErrLineTooLong, got %v", err)
	}

	r = lineReader{f: pr, limit: 30, max: 1000}
	pw.WriteString(strings.Repeat("y", 40))
	if _, err := r.readLine(soon()); !errors.Is(err, ErrOutputLimit) {
		t.Fatalf("want ErrOutputLimit past 30 bytes, got %v", err)
	}

	pr2, pw2, _ := os.Pipe()
	defer pr2.Close()
	pw2.WriteString("last\npartial")
	pw2.Close()
	r = lineReader{f: pr2, limit: 100, max: 100}
	if l, err := r.readLine(soon()); err != nil || string(l) != "last" {
		t.Fatalf("got %q %v", l, err)
	}
	if _, err := r.readLine(soon()); !errors.Is(err, ErrClosed) {
		t.Fatalf("want ErrClosed at end of file, got %v", err)
	}
}

// A launcher killed with its container is lost from the start of its exit, not only once a
// zombie: it reaps its namespace's processes (the bot) on the way.
func TestExiting(t *testing.T) {
	for _, tc := range []struct {
		stat string
		want bool
	}{
		{"6243 (judge-launch) S 6239 6239 1918 0 -1 4194304 100 0", false},
		{"6243 (judge-launch) S 6239 6239 1918 0 -1 4194308 100 0", true}, // PF_EXITING
		{"6243 (judge-launch) D 6239 6239 1918 0 -1 4194308 100 0", true},
		{"6243 (judge-launch) Z 6239 6239 1918 0 -1 4194304 100 0", true},
		{"6243 (judge-launch) X 6239 6239 1918 0 -1 4194304 100 0", true},
		{"6243 (a) S 4) S 6239 6239 1918 0 -1 4194304 100 0", false}, // a name with ") S 4" in it
		{"6243 (judge-launch) S 6239", false},
		{"", false},
	} {
		if got := exiting([]byte(tc.stat)); got != tc.want {
			t.Errorf("exiting(%q) = %v, want %v", tc.stat, got, tc.want)
		}
	}
}

func TestCgroupField(t *testing.T) {
	b := []byte("usage_usec 1234\nuser_usec 1000\nsystem_usec 234\n")
	if v, err := field(b, "usage_usec"); err != nil || v != 1234 {
		t.Errorf("usage_usec = %d, %v", v, err)
	}
	if v, err := field([]byte("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n"), "oom_kill"); err != nil || v != 2 {
		t.Errorf("oom_kill = %d, %v", v, err)
	}
	if _, err := field(b, "nope"); err == nil {
		t.Error("missing field found")
	}
}

func TestSeccompProfileBansProcessesOnly(t *testing.T) {
	p, err := profileJSON(true, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"SCMP_ACT_KILL_PROCESS"`, `"fork"`, `"vfork"`, `"clone"`} {
		if !strings.Contains(p, want) {
			t.Errorf("profile lacks %s", want)
		}
	}
	// The trace calls are in exactly one rule, an EPERM error, and in no rule that allows
	// them (Docker's allow them).
	var prof seccomp.Seccomp
	if err := json.Unmarshal([]byte(p), &prof); err != nil {
		t.Fatal(err)
	}
	for _, call := range []string{"ptrace", "process_vm_readv", "process_vm_writev"} {
		var rules []string
		for _, s := range prof.Syscalls {
			if slices.Contains(s.Names, call) {
				errno := -1
				if s.ErrnoRet != nil {
					errno = int(*s.ErrnoRet)
				}
				rules = append(rules, fmt.Sprintf("%s/%d", s.Action, errno))
			}
		}
		if want := fmt.Sprintf("%s/%d", specs.ActErrno, unix.EPERM); len(rules) != 1 || rules[0] != want {
			t.Errorf("%s: rules %v, want only %s", call, rules, want)
		}
	}
}

// Under gVisor no profile may hold a kill (runsc refuses SCMP_ACT_KILL_PROCESS, and its
// SCMP_ACT_KILL spares the rest of the process) or an errno for clone3 (runsc turns ENOSYS
// into EPERM, and then glibc starts no thread).
func TestGVisorProfilesTrapAndLeaveClone3(t *testing.T) {
	for _, judge := range []bool{true, false} {
		s, err := profileJSON(judge, true)
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Syscalls []struct {
				Names  []string
				Action string
			}
		}
		if err := json.Unmarshal([]byte(s), &p); err != nil {
			t.Fatal(err)
		}
		traps, clone3 := 0, ""
		for _, r := range p.Syscalls {
			if r.Action == "SCMP_ACT_KILL_PROCESS" || r.Action == "SCMP_ACT_KILL" || r.Action == "SCMP_ACT_KILL_THREAD" {
				t.Errorf("judge=%v: %v kills: %s", judge, r.Names, r.Action)
			}
			if r.Action == "SCMP_ACT_TRAP" {
				traps++
			}
			if slices.Contains(r.Names, "clone3") {
				clone3 += r.Action + " "
			}
		}
		// Docker's default also allows clone3 to CAP_SYS_ADMIN, a rule the engine drops.
		if strings.Trim(strings.ReplaceAll(clone3, "SCMP_ACT_ALLOW", ""), " ") != "" || clone3 == "" {
			t.Errorf("judge=%v: clone3 rules %q, want allows only", judge, clone3)
		}
		if judge && traps != 2 { // a new process by clone; fork and vfork
			t.Errorf("the judge's profile for gVisor has %d trap rules, want 2", traps)
		}
	}
}

// A zero Limits or Output is a safe configuration: every field with a default gets it, the
// judge's seccomp profile is the zero value, and what is set stays set.
func TestZeroLimitsAreTheDefaults(t *testing.T) {
	if got := (Limits{}).orDefaults(); got != DefaultLimits() {
		t.Errorf("zero limits: %+v, want the defaults %+v", got, DefaultLimits())
	}
	if DefaultLimits().Seccomp != SeccompJudge || (Limits{}).Seccomp != SeccompJudge {
		t.Error("the judge's seccomp profile is not the default")
	}
	set := Limits{Memory: 1 << 30, CPUSet: "1", Tmpfs: 4 << 20, Network: true, Seccomp: SeccompDocker, Runtime: RuntimeGVisor}
	got := set.orDefaults()
	if got.Memory != 1<<30 || got.CPUSet != "1" || got.Tmpfs != 4<<20 || !got.Network || got.Seccomp != SeccompDocker ||
		got.Runtime != RuntimeGVisor || got.Pids != DefaultLimits().Pids {
		t.Errorf("limits set %+v became %+v", set, got)
	}
	if got := (Output{}).OrDefaults(); got != DefaultOutput() {
		t.Errorf("zero output: %+v, want %+v", got, DefaultOutput())
	}
	if got := (Output{Line: 10}).OrDefaults(); got.Line != 10 || got.Stdout != DefaultOutput().Stdout {
		t.Errorf("output with a line limit: %+v", got)
	}
}

// TakeStderr hands out each byte once, marks where the limit cut the text, on a line of its
// own, then how much more was dropped.
func TestCappedTake(t *testing.T) {
	c := Capped{limit: 10}
	take := func(want string) {
		t.Helper()
		if got := string(c.Take()); got != want {
			t.Errorf("take: %q; want %q", got, want)
		}
	}
	take("")
	c.Write([]byte("ab\n"))
	c.Write([]byte("cd"))
	take("ab\ncd")
	take("")
	c.Write([]byte("efghijk")) // 5 kept, 2 dropped
	take("efghi\n[judge: stderr cut here: the bot's 10 bytes limit; 2 more bytes were not kept]\n")
	take("")
	c.Write([]byte("lmn"))
	take("[judge: 3 more bytes of stderr were not kept]\n")
	take("")
	if got := string(c.Bytes()); got != "ab\ncdefghi" {
		t.Errorf("bytes: %q; want all that was kept, without markers", got)
	}

	// Cut at a line's end, the marker needs no newline of its own; one past an earlier take
	// marks the cut at the start of the next.
	c = Capped{limit: 64 << 10}
	c.Write(bytes.Repeat([]byte("x\n"), 32<<10))
	c.Take()
	c.Write([]byte("yy"))
	take("[judge: stderr cut here: the bot's 64 KiB limit; 2 more bytes were not kept]\n")
	if got := sizeText(1 << 20); got != "1 MiB" {
		t.Errorf("sizeText(1 MiB) = %q", got)
	}
}

// The copy goroutine writes while the judge takes: every byte kept is taken exactly once.
func TestCappedTakeConcurrent(t *testing.T) {
	c := Capped{limit: 1 << 20}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 1000; i++ {
			c.Write([]byte("0123456789"))
		}
	}()
	var all []byte
	for finished := false; !finished; {
		select {
		case <-done:
			finished = true
		default:
		}
		all = append(all, c.Take()...)
	}
	if want := bytes.Repeat([]byte("0123456789"), 1000); !bytes.Equal(all, want) {
		t.Errorf("took %d bytes; want the %d written, in order", len(all), len(want))
	}
}

func TestParseCPUSet(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
	}{
		{"1", []int{1}},
		{"0-3", []int{0, 1, 2, 3}},
		{"1,3-5", []int{1, 3, 4, 5}},
		{" 2 , 0", []int{0, 2}},
		{"", nil},
		{"x", nil},
		{"3-1", nil},
		{"-1", nil},
		{"1-", nil},
	} {
		set, ok := parseCPUSet(tc.in)
		var got []int
		for c := 0; ok && c < 64; c++ {
			if set.IsSet(c) {
				got = append(got, c)
			}
		}
		if ok != (tc.want != nil) || !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %v %v, want %v", tc.in, got, ok, tc.want)
		}
	}
}

// Beside moves the calling thread onto the cores and restores it.
func TestBeside(t *testing.T) {
	var before, during, after unix.CPUSet
	unix.SchedGetaffinity(0, &before)
	if before.Count() < 2 {
		t.Skip("one core")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread() // the same thread throughout: Beside's lock nests in this one
		defer runtime.UnlockOSThread()
		restore := Beside("0")
		unix.SchedGetaffinity(0, &during)
		restore()
		unix.SchedGetaffinity(0, &after)
	}()
	<-done
	if during.Count() != 1 || !during.IsSet(0) {
		t.Errorf("during: %d cores", during.Count())
	}
	if after != before {
		t.Errorf("the thread kept its affinity: %d cores, %d before", after.Count(), before.Count())
	}
}

// The serving launcher's reports, as the attach stream may cut them: each child's end, as
// the engine would report its container's, and a reset that failed.
func TestServingLaunchersReports(t *testing.T) {
	for _, tc := range []struct {
		writes []string
		want   []Exit
		dirty  string
	}{
		{[]string{"exit 0\n"}, []Exit{{Code: 0}}, ""},
		{[]string{"exit 768\n"}, []Exit{{Code: 3}}, ""},                // exit(3)
		{[]string{"exit 9\n"}, []Exit{{Code: 137, Signal: 9}}, ""},     // SIGKILL
		{[]string{"exit 33536\n"}, []Exit{{Code: 131, Signal: 3}}, ""}, // a JVM's exit(131)
		{[]string{"exit 0\nexit 11\n"}, []Exit{{Code: 0}, {Code: 139, Signal: 11}}, ""},
		{[]string{"exit 0\ndirty /tmp\n"}, []Exit{{Code: 0}}, "/tmp"},
		{[]string{"garbage\n", "exit x\n"}, nil, ""},
		{[]string{"ex", "it 0\nexi", "t 9\n"}, []Exit{{Code: 0}, {Code: 137, Signal: 9}}, ""},
	} {
		b := newBox(nil, &Capped{})
		for _, w := range tc.writes {
			b.Write([]byte(w))
		}
		var got []Exit
		for len(b.status) > 0 {
			got = append(got, exitOf(<-b.status))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%q: %v, want %v", tc.writes, got, tc.want)
		}
		if d := b.dirty.Load(); (d == nil) != (tc.dirty == "") || d != nil && *d != tc.dirty {
			t.Errorf("%q: dirty %v, want %q", tc.writes, d, tc.dirty)
		}
	}
}

// A write that the judge's machine fails is the judge's failure; anything else extracting an
// artifact is the artifact's.
func TestHostFault(t *testing.T) {
	for _, tc := range []struct {
		err  error
		host bool
	}{
		{&os.PathError{Op: "write", Path: "/data/artifacts/x/bot", Err: syscall.ENOSPC}, true},
		{fmt.Errorf("artifact: %w", &os.PathError{Op: "open", Path: "x", Err: syscall.EDQUOT}), true},
		{&os.PathError{Op: "write", Path: "x", Err: syscall.EIO}, true},
		{fmt.Errorf("artifact: %w", &os.PathError{Op: "open", Path: "x", Err: syscall.EEXIST}), false},
		{&os.PathError{Op: "mkdir", Path: "x", Err: syscall.ENOTDIR}, false},
		{errors.New("artifact: the compiler produced no file"), false},
	} {
		if got := hostFault(tc.err); got != tc.host {
			t.Errorf("hostFault(%v) = %v, want %v", tc.err, got, tc.host)
		}
	}
}

// FilesLeft counts the judge's open files against its limit.
func TestFilesLeft(t *testing.T) {
	var old unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	defer unix.Setrlimit(unix.RLIMIT_NOFILE, &old)
	open, _, err := OpenFiles()
	if err != nil || open == 0 {
		t.Fatalf("OpenFiles: %d, %v", open, err)
	}
	lim := old
	lim.Cur = open + 10
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if !FilesLeft(5) {
		t.Errorf("FilesLeft(5) with %d open of %d: false", open, lim.Cur)
	}
	if FilesLeft(20) {
		t.Errorf("FilesLeft(20) with %d open of %d: true", open, lim.Cur)
	}
}

func TestInDir(t *testing.T) {
	for _, tc := range []struct {
		path, dir string
		in        bool
	}{
		{"/d/instances/a.lock", "/d", true},
		{"/d/instances/a.lock", "/d/", true},
		{"/data/instances/a.lock", "/d", false},
		{"/d", "/d/x", false},
		{"/other/a.lock", "/d", false},
		{"", "/d", false},
	} {
		if got := inDir(tc.path, tc.dir); got != tc.in {
			t.Errorf("inDir(%q, %q) = %v, want %v", tc.path, tc.dir, got, tc.in)
		}
	}
}

// The engine names the machine's faults in text; the sandbox gives them their errno, so that
// the daemon pauses for a full disk (errors.Is) rather than fail the job, and a bot's own
// error text is left as it is.
func TestEngineErr(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want error
	}{
		{"Error response from daemon: mkdir /var/lib/docker/overlay2/x: no space left on device", syscall.ENOSPC},
		{"Error response from daemon: write /var/lib/docker/x: disk quota exceeded", syscall.EDQUOT},
		{"Error response from daemon: open /proc/self/fd: Too many open files", syscall.EMFILE},
		{"Error response from daemon: fork/exec runc: cannot allocate memory", syscall.ENOMEM},
		{"Error response from daemon: No such image: judge/cpp-run:x", nil},
	} {
		err := engineErr(errors.New(tc.msg))
		if tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%q: %v is not %v", tc.msg, err, tc.want)
		}
		if tc.want == nil && hostFault(err) {
			t.Errorf("%q: %v is a fault of the machine", tc.msg, err)
		}
		if !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: the engine's words are lost: %v", tc.msg, err)
		}
	}
	if engineErr(nil) != nil {
		t.Error("engineErr(nil) is not nil")
	}
}

// A process the engine numbers is the judge's to watch only when that number is the
// container's process here too (the same PID namespace): else ErrOtherPIDs.
func TestSeesProcess(t *testing.T) {
	self, _ := os.ReadFile("/proc/self/cgroup")
	for _, tc := range []struct {
		name string
		pid  int
		id   string
		want error
	}{
		{"no such process here", 1 << 30, "abc", errNoProcess},
		{"a process of another container", os.Getpid(), "0123456789abcdef0123456789abcdef", ErrOtherPIDs},
		{"the container's process", os.Getpid(), "", nil},
	} {
		if err := seesProcess(tc.pid, tc.id); !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("%s: %v, want %v (this process's cgroups: %q)", tc.name, err, tc.want, self)
		}
	}
}

// A judge tells dead only a judge whose lock it can see: held is alive, there and free is
// dead, gone from a directory it sees is dead, in a directory it cannot see (another
// filesystem's: a judge in a container beside one on the host) is alive, its bots spared.
func TestOwnerAlive(t *testing.T) {
	dir := t.TempDir()
	held, free := filepath.Join(dir, "held.lock"), filepath.Join(dir, "free.lock")
	for _, p := range []string{held, free} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(held)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	// ownerAlive's own flock is on a file description of its own: the lock above holds.
	for _, tc := range []struct {
		path string
		want bool
	}{
		{held, true},
		{free, false},
		{filepath.Join(dir, "removed.lock"), false},
		{filepath.Join(dir, "not-here", "instances", "x.lock"), true},
		{"", false},
	} {
		if got := ownerAlive(tc.path); got != tc.want {
			t.Errorf("ownerAlive(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}
