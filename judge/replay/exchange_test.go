package replay_test

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games/snakecore"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
)

// jsonLine is x's line as encoding/json writes it: the writer's path before appendExchange,
// and still the definition of its output.
func jsonLine(t testing.TB, x replay.Exchange) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(x); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// allBytes is every byte from lo to hi, in order.
func allBytes(lo, hi int) string {
	var b []byte
	for c := lo; c <= hi; c++ {
		b = append(b, byte(c))
	}
	return string(b)
}

// manyLines is n received lines, those at the indices in bad not UTF-8: encoding/json
// writes their keys in received_base64 in the order of their text ("10" before "2").
func manyLines(n int, bad ...int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = strings.Repeat("N", i%3)
	}
	for _, i := range bad {
		lines[i] = "\xff" + lines[i]
	}
	return lines
}

var tricky = map[string]replay.Exchange{
	"zero":           {},
	"empty received": {Type: "move", Received: []string{}},
	"one empty line": {Type: "move", Received: []string{""}},
	"plain":          {Type: "move", Turn: 3, Player: 1, Sent: "getAction\n30\n..W.\n", Expect: 1, LimitUS: 1e6, Received: []string{"N"}, CPUms: 2, CPUus: 2345},
	"negative and extreme numbers": {Type: "move", Turn: -1, Player: -2, Expect: -3, LimitUS: -1 << 63, CPUms: 1<<63 - 1, CPUus: -9,
		Fault: &game.Fault{Turn: -1 << 63}},
	"ready":                {Type: "move", Ready: "OK", Expect: 0},
	"type not UTF-8":       {Type: "mo\xffve"},
	"sent not UTF-8":       {Type: "move", Sent: "go \xfe\n"},
	"ready not UTF-8":      {Type: "move", Ready: "ready\x80"},
	"received not UTF-8":   {Type: "move", Received: []string{"a\x00b\xff\xfe", "\xff 12", "plain \x00", ""}},
	"stderr not UTF-8":     {Type: "move", Stderr: "bye \xff\n"},
	"fault not UTF-8":      {Type: "move", Fault: &game.Fault{Kind: "cr\xe2\x80ash", Turn: 4, Detail: "\xc0\xafsaid"}},
	"verdict not UTF-8":    {Type: "move", Verdict: &game.Fault{Kind: game.Protocol, Turn: 5, Detail: "said \xffho"}},
	"fault and verdict":    {Type: "move", Fault: &game.Fault{Kind: game.Timeout, Turn: 1}, Verdict: &game.Fault{Kind: game.Timeout, Turn: 1, Detail: "<1 s> & more"}},
	"only not UTF-8":       {Type: "move", Sent: "\xff", Ready: "\x80\x81", Received: []string{"\xfe"}},
	"HTML":                 {Type: "<move>", Sent: "<script>&amp;</script>", Ready: "a>b", Received: []string{"&", "<>"}, Stderr: "&lt;"},
	"line separators":      {Type: "move", Sent: "a\u2028b\u2029c\u2027d\u202ae", Received: []string{"\u2028", "\u2029\xe2\x80"}},
	"control characters":   {Type: "move", Sent: allBytes(0, 0x1f) + "\x7f", Ready: "\x00", Received: []string{"\b\f\n\r\t\v\x00\x1b"}},
	"every byte":           {Type: "move", Sent: allBytes(0, 255), Ready: allBytes(128, 255), Received: []string{allBytes(0, 127), allBytes(0, 255)}},
	"multibyte":            {Type: "move", Sent: "é 😀 \ufffd \U0010ffff", Received: []string{"\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf0\x9f\x98"}},
	"quotes and backslash": {Type: "move", Sent: `"\"\\`, Received: []string{`\u0000`}},
	"very long lines": {Type: "move", Sent: strings.Repeat("getAction\n<W.&b>\u2028\x01", 1<<15),
		Received: []string{strings.Repeat("\xffN", 1<<16), strings.Repeat("A", 1<<17)}},
	"keys in text order":   {Type: "move", Received: manyLines(25, 2, 10, 11, 20, 3, 1, 0, 24)},
	"more bad than stack":  {Type: "move", Received: manyLines(12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)},
	"keys past a hundred":  {Type: "move", Received: manyLines(1200, 1000, 999, 100, 99, 10, 9, 1, 0, 1100, 110, 11)},
	"received all invalid": {Type: "move", Received: manyLines(3, 0, 1, 2)},
}

// The exchange's line is the one encoding/json writes, byte for byte.
func TestAppendExchangeIsEncodingJSON(t *testing.T) {
	for name, x := range tricky {
		if got, want := replay.AppendExchange(nil, x), jsonLine(t, x); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %.300q\nwant %.300q", name, got, want)
		}
	}
}

// A move costs no allocation in the common case (valid UTF-8), a fault included.
func TestAppendExchangeDoesNotAllocate(t *testing.T) {
	for _, name := range []string{"plain", "HTML", "control characters", "fault and verdict", "very long lines"} {
		x := tricky[name]
		x.Received = []string{"N"}
		buf := replay.AppendExchange(nil, x)
		if n := testing.AllocsPerRun(100, func() { buf = replay.AppendExchange(buf[:0], x) }); n != 0 {
			t.Errorf("%s: %v allocations per exchange", name, n)
		}
	}
}

// A replay the writer writes reads back to what was written, the move lines as
// encoding/json writes them; stderr and the fault details, text, with U+FFFD for bytes
// that are not UTF-8.
func TestWriterExchangesReadBack(t *testing.T) {
	var buf bytes.Buffer
	w := replay.NewWriter(&buf)
	w.Header(replay.Header{Game: "say", Seed: 1, Players: []replay.Player{{Name: "p"}}})
	var want []replay.Exchange
	var lines [][]byte
	for name, x := range tricky {
		w.Exchange(x)
		x.Type, x.Stderr = "move", ""
		lines = append(lines, jsonLine(t, x))
		x.Stderr = asText(tricky[name].Stderr)
		for _, f := range []**game.Fault{&x.Fault, &x.Verdict} {
			if *f != nil {
				*f = &game.Fault{Kind: game.FaultKind(asText(string((*f).Kind))), Turn: (*f).Turn, Detail: asText((*f).Detail)}
			}
		}
		want = append(want, x)
	}
	w.Result(result.Result{Game: "say"})
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	moves := 0
	for line := range bytes.Lines(buf.Bytes()) {
		if bytes.HasPrefix(line, []byte(`{"type":"move"`)) {
			if !bytes.Equal(line, lines[moves]) {
				t.Errorf("move %d:\n got %.300q\nwant %.300q", moves, line, lines[moves])
			}
			moves++
		}
	}
	if moves != len(lines) {
		t.Errorf("%d move lines; want %d", moves, len(lines))
	}
	rp, err := replay.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(rp.Exchanges) != len(want) {
		t.Fatalf("read %d exchanges; wrote %d", len(rp.Exchanges), len(want))
	}
	for i, x := range rp.Exchanges {
		if !reflect.DeepEqual(x, want[i]) {
			t.Errorf("exchange %d read %.300v; wrote %.300v", i, x, want[i])
		}
	}
}

// asText is s as a JSON string holds it: each byte that is not UTF-8 as U+FFFD.
func asText(s string) string { return string([]rune(s)) }

func FuzzExchangeEncoding(f *testing.F) {
	for _, x := range tricky {
		// Each received line follows a separator that none holds.
		sep := byte(0)
		for strings.Contains(strings.Join(x.Received, ""), string(sep)) {
			sep++
		}
		var received strings.Builder
		for _, l := range x.Received {
			received.WriteString(string(sep) + l)
		}
		faults, fault := byte(0), &game.Fault{}
		if x.Verdict != nil {
			faults, fault = 2, x.Verdict
		}
		if x.Fault != nil {
			faults, fault = faults|1, x.Fault
		}
		f.Add(x.Type, x.Turn, x.Player, x.Sent, x.Expect, x.Ready, x.LimitUS, received.String(), sep, x.Received == nil,
			x.CPUms, x.CPUus, faults, string(fault.Kind), fault.Turn, fault.Detail, x.Stderr)
	}
	f.Fuzz(func(t *testing.T, typ string, turn, player int, sent string, expect int, ready string, limitUS int64,
		received string, sep byte, nilReceived bool, cpuMS, cpuUS int64, faults byte, kind string, faultTurn int, detail, stderr string) {
		x := replay.Exchange{Type: typ, Turn: turn, Player: player, Sent: sent, Expect: expect, Ready: ready, LimitUS: limitUS,
			Received: strings.Split(received, string(sep))[1:], CPUms: cpuMS, CPUus: cpuUS, Stderr: stderr}
		if nilReceived {
			x.Received = nil
		}
		if faults&1 != 0 {
			x.Fault = &game.Fault{Kind: game.FaultKind(kind), Turn: faultTurn, Detail: detail}
		}
		if faults&2 != 0 { // the strings swapped, so that each is tried in each
			x.Verdict = &game.Fault{Kind: game.FaultKind(detail), Turn: -faultTurn, Detail: kind}
		}
		if got, want := replay.AppendExchange(nil, x), jsonLine(t, x); !bytes.Equal(got, want) {
			t.Errorf("exchange %#v:\n got %q\nwant %q", x, got, want)
		}
	})
}

// snakeCoreMove is a move of a SnakeCore match of four players, some rounds in: a request of
// about 1 KB, most of it the field, and its answer.
func snakeCoreMove(b *testing.B) replay.Exchange {
	m, err := game.Start(snakecore.New(), game.Config{Seed: 1, Players: 4})
	if err != nil {
		b.Fatal(err)
	}
	for {
		req, done := m.Next()
		if done {
			b.Fatal("the match ended")
		}
		answer := "N"
		if req.Intro {
			answer = "bench"
		}
		if req.Turn == 10 {
			return replay.Exchange{Type: "move", Turn: req.Turn, Player: req.Player, Sent: req.Send, Expect: req.Expect,
				LimitUS: req.Limit.Microseconds(), Received: []string{answer}, CPUms: 1, CPUus: 1234}
		}
		m.Reply(game.Reply{Lines: []string{answer}})
	}
}

// The writer's cost per move: json is the path before appendExchange, append the writer's.
func BenchmarkWriterExchange(b *testing.B) {
	x := snakeCoreMove(b)
	b.Run("json", func(b *testing.B) {
		enc := json.NewEncoder(io.Discard)
		b.SetBytes(int64(len(x.Sent)))
		b.ReportAllocs()
		for b.Loop() {
			if err := enc.Encode(x); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("append", func(b *testing.B) {
		w := replay.NewWriter(io.Discard)
		b.SetBytes(int64(len(x.Sent)))
		b.ReportAllocs()
		for b.Loop() {
			w.Exchange(x)
		}
		if err := w.Err(); err != nil {
			b.Fatal(err)
		}
	})
}
