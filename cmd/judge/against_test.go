package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// changeLine is Python put before a sample bot's own code: the bot's nth line of output
// (from 1, READY included) becomes "changed", whatever the game.
const changeLine = `import sys as _sys


class _Changed:
    def __init__(self, out, n):
        self.out, self.n, self.buf = out, n, ""

    def write(self, text):
        self.buf += text
        while "\n" in self.buf:
            line, self.buf = self.buf.split("\n", 1)
            self.n -= 1
            self.out.write(("changed" if self.n == 0 else line) + "\n")
        return len(text)

    def flush(self):
        self.out.flush()


_sys.stdout = _Changed(_sys.stdout, %d)
`

// readReplay reads the replay at path.
func readReplay(t *testing.T, path string) *replay.Replay {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rp, err := replay.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return rp
}

// asked is what a replay's exchanges asked and were answered, without the times.
func asked(rp *replay.Replay) []string {
	var out []string
	for _, x := range rp.Exchanges {
		s := fmt.Sprintf("%d %d %q %q", x.Turn, x.Player, x.Sent, x.Received)
		if x.Fault != nil {
			s += " " + string(x.Fault.Kind)
		}
		out = append(out, s)
	}
	return out
}

// Every game: a match of the sample bots played in the sandbox, then played again against
// its replay with each seat's own bot live in turn, is the same match (every exchange, the
// result); a bot whose answer at turn T is changed stops it at T, both answers named.
func TestPlayAgainstTheRecording(t *testing.T) {
	sandboxtest.Engine(t)
	root := sandboxtest.Root()
	higher := filepath.Join("testdata", "games", "higher")
	for _, tc := range []struct {
		game string
		opts []string
		n    int
		bots []string // the seats' bots, Python; the game's sample bot in each when none
	}{
		{"amazes", []string{"--opt", "turns=30"}, 2, nil},
		{"ontherun", nil, 2, nil},
		{"dropblock", []string{"--opt", "turns=80"}, 4, nil},
		{"langwars", []string{"--opt", "turns=4"}, 4, nil},
		{"snakecore", []string{"--opt", "moves=30", "--opt", "players=3"}, 3, nil},
		// An organiser's game, its referee a program in a sandbox of its own: --game DIR.
		{higher, []string{"--opt", "turns=5"}, 4, []string{"seven", "three", "seven", "three"}},
	} {
		t.Run(filepath.Base(tc.game), func(t *testing.T) {
			dir := t.TempDir()
			bots := make([]string, tc.n)
			for i := range bots {
				bots[i] = filepath.Join(root, "bots", tc.game, "python")
				if tc.bots != nil {
					bots[i] = filepath.Join(tc.game, "bots", tc.bots[i])
				}
			}
			var added []string
			if tc.bots != nil {
				added = []string{"--game", tc.game}
			}
			recorded := filepath.Join(dir, "m.jsonl")
			args := append(append([]string{"play", "--game", tc.game, "--seed", "21", "--replay", recorded}, tc.opts...), bots...)
			if err := judge(t, args...); err != nil {
				t.Fatal(err)
			}
			rp := readReplay(t, recorded)
			for seat, bot := range bots {
				again := filepath.Join(dir, fmt.Sprintf("seat%d.jsonl", seat))
				var out bytes.Buffer
				args := append(append([]string{"play", "--against", recorded, "--seat", fmt.Sprint(seat), "--replay", again}, added...), bot)
				if err := judgeTo(t, &out, args...); err != nil {
					t.Fatalf("seat %d live: %v\n%s", seat, err, out.String())
				}
				if want := fmt.Sprintf("seat %d live: the recorded match, exchange for exchange (%d exchanges)", seat, len(rp.Exchanges)); !strings.Contains(out.String(), want) {
					t.Errorf("seat %d live: the output lacks %q:\n%s", seat, want, out.String())
				}
				rp2 := readReplay(t, again)
				if !reflect.DeepEqual(asked(rp2), asked(rp)) {
					t.Errorf("seat %d live: the exchanges differ from the recording's", seat)
				}
				if d := resultDifferences(rp.Result, rp2.Result); len(d) > 0 {
					t.Errorf("seat %d live: the result differs: %v", seat, d)
				}
			}

			// The last seat's bot changed at its middle line of output.
			seat := tc.n - 1
			var lines []int // of the seat's output, the exchange of each line
			for i, x := range rp.Exchanges {
				if x.Player == seat && x.Fault == nil {
					for range x.Received {
						lines = append(lines, i)
					}
				}
			}
			nth := len(lines) / 2
			at := rp.Exchanges[lines[nth]]
			changed := filepath.Join(dir, "changed")
			if err := os.CopyFS(changed, os.DirFS(bots[seat])); err != nil {
				t.Fatal(err)
			}
			main, err := os.ReadFile(filepath.Join(changed, "main.py"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(changed, "main.py"), append(fmt.Appendf(nil, changeLine, nth+1), main...), 0o644); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			err = judgeTo(t, &out, append(append([]string{"play", "--against", recorded, "--seat", fmt.Sprint(seat), "--json"}, added...), changed)...)
			if err == nil || exitCode(err) != 1 {
				t.Fatalf("a changed bot: %v; want exit status 1", err)
			}
			var doc againstJSON
			if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatalf("--json: %v\n%s", err, out.String())
			}
			d := doc.Departure
			if d == nil || !doc.Stopped || d.Exchange != lines[nth] || d.Turn != at.Turn || d.Player != seat ||
				!strings.Contains(d.Played, `"changed"`) || !strings.Contains(d.Recorded, fmt.Sprintf("%q", at.Received[0])) {
				t.Errorf("departed %+v; want at exchange %d, turn %d, recorded %q", d, lines[nth], at.Turn, at.Received)
			}
			if msg := err.Error(); !strings.Contains(msg, fmt.Sprintf("turn %d: player %d answered", at.Turn, seat)) || !strings.Contains(msg, `"changed"`) {
				t.Errorf("the message: %s", msg)
			}
		})
	}
}

// What judge play --against refuses, before anything is built, each named.
func TestPlayAgainstRefuses(t *testing.T) {
	dir := t.TempDir()
	root := sandboxtest.Root()
	bot := filepath.Join(root, "bots", "amazes", "python")
	good := filepath.Join(dir, "m.jsonl")
	rp := `{"type":"header","version":3,"game":"amazes","seed":1,"options":{},"players":[{"name":"a","lang":"cpp"},{"name":"b","lang":"go"}]}` + "\n" +
		`{"type":"result","version":1,"id":"x","game":"amazes","seed":1,"status":"ok","players":[{"name":"a"},{"name":"b"}]}` + "\n"
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("m.jsonl", rp)
	twice := write("twice.jsonl", strings.Replace(rp, `"name":"b"`, `"name":"a"`, 1))
	truncated := write("t.jsonl", strings.SplitAfter(rp, "\n")[0])
	notReplay := write("n.jsonl", "# a README\n")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"not a replay", []string{"--against", notReplay, "--seat", "0", bot}, notReplay + `: replay: not a replay: a replay's first line is its header`},
		{"truncated", []string{"--against", truncated, "--seat", "0", bot}, "no result line (the match did not finish)"},
		{"another game", []string{"--against", good, "--game", "snakecore", "--seat", "0", bot}, "is a replay of amazes"},
		{"no seat", []string{"--against", good, bot}, "--seat: which seat the BOT plays (the replay's: 0 (a), 1 (b))"},
		{"a seat too far", []string{"--against", good, "--seat", "2", bot}, "--seat 2: the replay's seats are 0 (a), 1 (b)"},
		{"a name that is none", []string{"--against", good, "--seat", "c", bot}, "--seat c: no seat of that name"},
		{"a name two seats have", []string{"--against", twice, "--seat", "a", bot}, "--seat a: more than one seat has that name; give the number (0 (a), 1 (a))"},
		{"two bots", []string{"--against", good, "--seat", "a", bot, bot}, "one BOT, the seat's, not 2"},
		{"a seed", []string{"--against", good, "--seat", "0", "--seed", "3", bot}, "--seed and --opt do not go with it"},
		{"a seat without a replay", []string{"--game", "amazes", "--seat", "0", bot, bot}, "go with --against REPLAY"},
		{"no game", []string{bot, bot}, "--game: which game to play (amazes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := judge(t, append([]string{"play"}, tc.args...)...)
			if exitCode(err) != 2 || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v (exit %d); want exit status 2 saying %q", err, exitCode(err), tc.want)
			}
		})
	}
}
