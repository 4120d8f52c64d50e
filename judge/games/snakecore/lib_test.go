package snakecore

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
	"github.com/botjudge/judge/judge/games/snakecore/lib/go/snake"
)

func TestLibraryFiles(t *testing.T) {
	lib := New().(game.Library)
	want := map[string][]string{
		"cpp":    {"Snake.h"},
		"pascal": {"Snake.pas"},
		"java":   {"AreaInfo.java", "Jbot.java", "JbotRunner.java"},
		"go":     {"snake/snake.go"},
	}
	for lang, names := range want {
		files := lib.Library(lang)
		var got []string
		for n, data := range files {
			got = append(got, n)
			if len(data) == 0 {
				t.Errorf("%s: %s is empty", lang, n)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, names) {
			t.Errorf("%s: files %v, want %v", lang, got, names)
		}
	}
	if lib.Library("cobol") != nil {
		t.Error("a library for an unknown language")
	}
	// The referee's merge: the library is added, and replaces a file of the same path.
	merged := game.WithLibrary(New(), "cpp", map[string][]byte{"bot.cpp": []byte("x"), "Snake.h": []byte("mine")})
	if string(merged["bot.cpp"]) != "x" || !bytes.Contains(merged["Snake.h"], []byte("namespace snake")) {
		t.Error("WithLibrary does not merge the library")
	}
	// The Pascal unit must not look like a program to the compile step (it picks the one
	// file starting with `program`).
	for _, line := range strings.Split(string(lib.Library("pascal")["Snake.pas"]), "\n") {
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(line)), "program") {
			t.Errorf("Snake.pas has a line starting with program: %q", line)
		}
	}
	// Java: only the runner has a main.
	for n, data := range lib.Library("java") {
		if has := bytes.Contains(data, []byte("public static void main")); has != (n == "JbotRunner.java") {
			t.Errorf("%s: main method %v", n, has)
		}
	}
}

// DumpCase is the input of the library tests (requests of a real game, with a getName at
// the start and in the middle and unknown lines that the libraries skip) and the dump each
// language's testdata/dump program must print for it, computed from the game's state.
func DumpCase(t testing.TB) (input, want string) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 21, Players: 5, Options: map[string]string{"size": "12", "moves": "40"}})
	var in, out strings.Builder
	turn := 0
	answer := answerAll(t)
	for {
		req, done := m.Next()
		if done {
			break
		}
		if req.Player == 2 && req.Turn > 0 {
			turn++
			in.WriteString(req.Send)
			out.WriteString(expectedDump(m.st, req.Player, turn))
			switch turn {
			case 5:
				in.WriteString("getName\r\n")
				out.WriteString("name a name that is much longer than \n")
			case 7:
				in.WriteString("something else\n\n")
			}
		}
		if req.Turn == 0 && req.Player == 0 {
			in.WriteString("getName\n")
			out.WriteString("name a name that is much longer than \n")
		}
		m.Reply(answer(req))
	}
	return in.String(), out.String()
}

// expectedDump is what a dump program prints for player p's request, from the state.
func expectedDump(s *state, p, turn int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "turn %d size %d pythons %d\n", turn, s.n, len(s.pythons))
	for _, r := range s.rows() {
		b.WriteString(r + "\n")
	}
	order := []int{p}
	for q := range s.pythons {
		if q != p {
			order = append(order, q)
		}
	}
	for k, q := range order {
		py := s.pythons[q]
		cellsOf := append([]int{py.head}, make([]int, 0, len(py.body))...)
		for _, x := range py.body {
			cellsOf = append(cellsOf, x.at)
		}
		fmt.Fprintf(&b, "py %d %d %d", k, py.prot, len(cellsOf))
		for _, c := range cellsOf {
			fmt.Fprintf(&b, " %d,%d", c%s.n, c/s.n)
		}
		b.WriteString(" |")
		for i := range cellsOf {
			fmt.Fprintf(&b, " %d:%d", k, i)
		}
		last := cellsOf[len(cellsOf)-1]
		fmt.Fprintf(&b, " head %d,%d tail %d,%d\n", py.head%s.n, py.head/s.n, last%s.n, last/s.n)
	}
	free, empty := 0, 0
	for c := range s.ground {
		if s.block[c] != 0 && s.owner[c] < 0 {
			free++
		}
		if s.char(c) == chEmpty {
			empty++
		}
	}
	fmt.Fprintf(&b, "free %d empty %d edge WWp\n", free, empty)
	return b.String()
}

// TestGoLibraryRun drives snake.RunIO as a bot's main does.
func TestGoLibraryRun(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 4, Players: 2, Options: map[string]string{"moves": "3"}})
	var in strings.Builder
	gametest.Drive(t, m, func(req game.Request) game.Reply {
		in.WriteString(req.Send)
		return game.Reply{Lines: []string{"N"}}
	})
	var out bytes.Buffer
	var turns []int
	err := snake.RunIO(strings.NewReader(in.String()), &out, "go\x01bot", func(a *snake.AreaInfo) byte {
		turns = append(turns, a.Turn)
		return snake.Up
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "go bot\ngo bot\nU\nU\nU\nU\nU\nU\n"; out.String() != want {
		t.Fatalf("output %q, want %q", out.String(), want)
	}
	if !slices.Equal(turns, []int{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("turns %v", turns)
	}
	// A malformed request is an error, not a panic.
	for _, bad := range []string{"getAction\nx\n", "getAction\n2\n..\n.p\n0 2 1 1\n", "getAction\n2\n..\n..\n", "getAction\n2\n..\n.p\n0 1 1\n"} {
		if err := snake.RunIO(strings.NewReader(bad), io.Discard, "x", func(*snake.AreaInfo) byte { return 'N' }); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestLibraryDumps compiles each language's dump program with the host's compiler and the
// library as the judge adds it, and checks that it reads every request as the game wrote
// it. Pascal, which has no host compiler here, is checked in the end-to-end test.
func TestLibraryDumps(t *testing.T) {
	input, want := DumpCase(t)
	for _, lang := range []string{"cpp", "java", "go"} {
		t.Run(lang, func(t *testing.T) {
			argv := hostBuild(t, lang, filepath.Join("testdata", "dump", lang))
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Stdin = strings.NewReader(input)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			got, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v: %s", err, stderr.String())
			}
			CompareDump(t, string(got), want)
		})
	}
}

// CompareDump reports the first line where a dump differs from the expected one.
func CompareDump(t testing.TB, got, want string) {
	t.Helper()
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Fatalf("dump line %d: %q, want %q", i+1, gl, wl)
		}
	}
}

// hostBuild builds a submission directory (plus the game's library, as the referee adds
// it) with the host's compiler and returns the command that runs it; it skips the test
// when the compiler is missing.
func hostBuild(t *testing.T, lang, dir string) []string {
	t.Helper()
	files := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = data
	}
	files = game.WithLibrary(New(), lang, files)
	src := t.TempDir()
	for name, data := range files {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name string, args ...string) {
		t.Helper()
		if _, err := exec.LookPath(name); err != nil {
			t.Skipf("no %s on this host", name)
		}
		cmd := exec.Command(name, args...)
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	switch lang {
	case "cpp":
		var cpps []string
		for name := range files {
			if strings.HasSuffix(name, ".cpp") {
				cpps = append(cpps, name)
			}
		}
		run("g++", append([]string{"-O2", "-std=c++17", "-Wall", "-Werror", "-o", "bot"}, cpps...)...)
		return []string{filepath.Join(src, "bot")}
	case "java":
		if testing.Short() {
			t.Skip("javac and the JVM take seconds a program: under -short the Java library is left to make test")
		}
		var javas []string
		for name := range files {
			javas = append(javas, name)
		}
		run("javac", append([]string{"-Xlint:all", "-Werror", "-d", "classes"}, javas...)...)
		main := "JbotRunner"
		if _, ok := files["Dump.java"]; ok {
			main = "Dump"
		}
		run("jar", "--create", "--file", "bot.jar", "--main-class", main, "-C", "classes", ".")
		return []string{"java", "-jar", filepath.Join(src, "bot.jar")}
	case "go":
		if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module bot\n\ngo 1.21\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv("GOTOOLCHAIN", "local")
		t.Setenv("GOFLAGS", "")
		t.Setenv("GOPROXY", "off")
		run("go", "vet", ".")
		run("go", "build", "-o", "bot", ".")
		return []string{filepath.Join(src, "bot")}
	}
	t.Fatalf("no host build for %s", lang)
	return nil
}

// TestJavaRunner: JbotRunner plays the one concrete subclass of Jbot in its jar (a
// top-level one when there are nested ones too) and refuses to guess among several or none.
func TestJavaRunner(t *testing.T) {
	for _, c := range []struct {
		dir, out string
		ok       bool
	}{
		{"nested", "nested\n", true},
		{"two", "need exactly one concrete class extending Jbot, found 2", false},
		{"none", "need exactly one concrete class extending Jbot, found 0", false},
	} {
		t.Run(c.dir, func(t *testing.T) {
			argv := hostBuild(t, "java", filepath.Join("testdata", "jbot", c.dir))
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Stdin = strings.NewReader("getName\n")
			out, err := cmd.CombinedOutput()
			if (err == nil) != c.ok || !strings.Contains(string(out), c.out) {
				t.Fatalf("output %q, error %v; want %q", out, err, c.out)
			}
		})
	}
}

// proc is a bot running on the host, for playing through the game without the sandbox.
type proc struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func startProc(t *testing.T, argv []string) *proc {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, in: in, lines: make(chan string, 16)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.lines <- strings.TrimSuffix(sc.Text(), "\r")
		}
		close(p.lines)
	}()
	t.Cleanup(func() {
		p.in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s exited: %v", argv[0], err)
			}
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			t.Errorf("%s did not exit at the end of its input", argv[0])
		}
	})
	return p
}

// ask sends a request and reads the answer's lines; a missing answer is a fault.
func (p *proc) ask(req game.Request) game.Reply {
	if _, err := io.WriteString(p.in, req.Send); err != nil {
		return game.Reply{Fault: &game.Fault{Kind: game.Crash, Turn: req.Turn, Detail: err.Error()}}
	}
	var r game.Reply
	wait := 5 * time.Second
	if req.Turn == 0 {
		wait = 20 * time.Second
	}
	for len(r.Lines) < req.Expect {
		select {
		case l, ok := <-p.lines:
			if !ok {
				return game.Reply{Fault: &game.Fault{Kind: game.Crash, Turn: req.Turn, Detail: "output closed"}}
			}
			r.Lines = append(r.Lines, l)
		case <-time.After(wait):
			return game.Reply{Fault: &game.Fault{Kind: game.Timeout, Turn: req.Turn, Detail: "no answer"}}
		}
	}
	return r
}

// TestSampleBotsOnTheHost plays the C++, Java and Go sample bots, built with the host's
// compilers and the game's library, against each other: they answer every request legally.
func TestSampleBotsOnTheHost(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the sample bots")
	}
	langs := []string{"cpp", "java", "go", "cpp"}
	var procs []*proc
	for _, lang := range langs {
		procs = append(procs, startProc(t, hostBuild(t, lang, filepath.Join("..", "..", "..", "bots", "snakecore", lang))))
	}
	m := gametest.Match[*match](t, New(), game.Config{Seed: 8, Players: len(langs), Options: map[string]string{"moves": "300"}})
	answered := make([]int, len(langs))
	for {
		req, done := m.Next()
		if done {
			break
		}
		if f := m.Reply(procs[req.Player].ask(req)); f != nil {
			t.Fatalf("player %d (%s): %v", req.Player, langs[req.Player], f)
		}
		answered[req.Player]++
	}
	res := m.Result()
	for p := range langs {
		if answered[p] != 301 {
			t.Errorf("player %d answered %d requests", p, answered[p])
		}
	}
	total := 0.0
	for _, s := range res.Scores {
		total += s
	}
	if total == 0 {
		t.Error("nobody scored")
	}
	t.Logf("scores %v ranks %v", res.Scores, res.Ranks)
}
