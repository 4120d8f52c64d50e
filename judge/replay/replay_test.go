package replay_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games/ontherun"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
)

// say is a test game for one player, asked "say" twice: an answer "hi" scores a point;
// any other ends the game with a fault whose detail holds the answer as it came, which no
// real game does (they quote it), so that a detail can be invalid UTF-8.
type say struct{}

func (say) Name() string             { return "say" }
func (say) Players() (int, int, int) { return 1, 1, 1 }
func (say) Options() []game.Option   { return nil }
func (say) New(game.Config) (game.Match, error) {
	return &sayMatch{}, nil
}

type sayMatch struct {
	turn  int
	score float64
	fault *game.Fault
}

func (m *sayMatch) Setup() game.Setup { return game.Setup{} }

func (m *sayMatch) Next() (game.Request, bool) {
	if m.turn == 2 || m.fault != nil {
		return game.Request{}, true
	}
	m.turn++
	return game.Request{Turn: m.turn, Send: "say\n", Expect: 1, Limit: time.Second}, false
}

func (m *sayMatch) Reply(r game.Reply) *game.Fault {
	switch {
	case r.Fault != nil:
		m.fault = r.Fault
	case r.Lines[0] != "hi":
		m.fault = &game.Fault{Kind: game.Protocol, Turn: m.turn, Detail: "said " + r.Lines[0]}
	default:
		m.score++
	}
	return m.fault
}

func (m *sayMatch) Result() game.Result {
	return game.Result{Scores: []float64{m.score}, Ranks: []int{1}, Faults: []*game.Fault{m.fault}}
}

// record plays g with the answers given in order (one request's lines each), as the match
// runner does, and returns the replay it writes.
func record(t *testing.T, g game.Game, answers ...[]string) []byte {
	t.Helper()
	_, _, n := g.Players()
	m, err := g.New(game.Config{Seed: 1, Players: n})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := replay.NewWriter(&buf)
	w.Header(replay.Header{Game: g.Name(), Seed: 1, Options: m.Setup().Options, Players: make([]replay.Player, n)})
	for {
		req, done := m.Next()
		if done {
			break
		}
		x := replay.Exchange{Turn: req.Turn, Player: req.Player, Sent: req.Send, Expect: req.Expect, LimitUS: req.Limit.Microseconds()}
		if req.Expect > 0 {
			if len(answers) == 0 {
				t.Fatalf("no answer left for %+v", req)
			}
			x.Received, answers = answers[0], answers[1:]
			x.Verdict = m.Reply(game.Reply{Lines: x.Received})
		}
		w.Exchange(x)
	}
	out := m.Result()
	res := result.Result{Game: g.Name(), Seed: 1, Winner: out.Winner}
	for i := range out.Scores {
		res.Players = append(res.Players, result.Player{Score: out.Scores[i], Rank: out.Ranks[i], Fault: out.Faults[i]})
	}
	w.Result(res)
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func verify(raw []byte, g game.Game) (result.Result, error) {
	return replay.Verify(bytes.NewReader(raw), func(name string) (game.Game, bool) { return g, name == g.Name() })
}

// Every string a replay holds comes back byte for byte; a line that is valid UTF-8, NUL
// included, stays readable, and only one that is not gets its bytes written beside it.
func TestStringsRoundTripByteExact(t *testing.T) {
	h := replay.Header{Game: "say", Seed: 1, Options: map[string]string{"maze": "#\xff#", "size": "3"}, Players: []replay.Player{{Name: "p"}}}
	x := replay.Exchange{Turn: 1, Sent: "go \xfe\n", Ready: "ready\x80", Expect: 3,
		Received: []string{"a\x00b\xff\xfe", "\xff 12", "plain \x00", ""}, Verdict: &game.Fault{Kind: game.Protocol, Turn: 1, Detail: "x"}}
	var buf bytes.Buffer
	w := replay.NewWriter(&buf)
	w.Header(h)
	w.Exchange(x)
	w.Result(result.Result{})
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	rp, err := replay.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	h.Type, h.Version, x.Type = "header", replay.Version, "move"
	if !reflect.DeepEqual(rp.Header, h) {
		t.Errorf("header %#v, wrote %#v", rp.Header, h)
	}
	if len(rp.Exchanges) != 1 || !reflect.DeepEqual(rp.Exchanges[0], x) {
		t.Errorf("exchanges %#v, wrote %#v", rp.Exchanges, x)
	}
	lines := strings.Split(buf.String(), "\n")
	for _, want := range []string{
		`"options":{"maze":"#\ufffd#","size":"3"}`, `"options_base64":{"maze":"I/8j"}`,
	} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("the header has no %s: %s", want, lines[0])
		}
	}
	for _, want := range []string{
		`"sent":"go \ufffd\n"`, `"sent_base64":"Z28g/go="`, `"ready":"ready\ufffd"`, `"ready_base64":"cmVhZHmA"`,
		`"received":["a\u0000b\ufffd\ufffd","\ufffd 12","plain \u0000",""]`, `"received_base64":{"0":"YQBi//4=","1":"/yAxMg=="}`,
	} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("the exchange has no %s: %s", want, lines[1])
		}
	}
}

// On The Run judges a move "\xff 12" an illegal move (a transport that is not C, T or P);
// read as JSON text it would be "\ufffd 12", a protocol fault (no one-letter transport).
func TestAnswerNotUTF8ReJudgesTheSame(t *testing.T) {
	g := ontherun.New()
	raw := record(t, g, []string{"1", "2", "3", "4"}, []string{"5"}, []string{"\xff 12"})
	res, err := verify(raw, g)
	if err != nil {
		t.Fatalf("the replay does not verify: %v", err)
	}
	want := &game.Fault{Kind: game.IllegalMove, Turn: 1, Detail: `"\xff 12": the transport is one of C, T, P`}
	if f := res.Players[0].Fault; !reflect.DeepEqual(f, want) {
		t.Errorf("the fugitive's fault %+v; want %+v", f, want)
	}
}

// A verdict's detail is for people and the replay keeps it as text: a game that puts an
// answer's bytes in it unquoted still verifies.
func TestVerdictDetailNotUTF8Verifies(t *testing.T) {
	raw := record(t, say{}, []string{"hi"}, []string{"\xffho"})
	res, err := verify(raw, say{})
	if err != nil {
		t.Fatalf("the replay does not verify: %v", err)
	}
	want := &game.Fault{Kind: game.Protocol, Turn: 2, Detail: "said \ufffdho"}
	if p := res.Players[0]; p.Score != 1 || !reflect.DeepEqual(p.Fault, want) {
		t.Errorf("score %v, fault %+v; want 1, %+v", p.Score, p.Fault, want)
	}
}

// A replay written before the exact bytes (version 1) reads and verifies.
func TestVersion1ReplayVerifies(t *testing.T) {
	const v1 = `{"type":"header","version":1,"game":"say","seed":1,"options":null,"players":[{"name":"a","lang":"cpp"}]}
{"type":"move","turn":1,"player":0,"sent":"say\n","expect":1,"limit_us":1000000,"received":["hi"],"cpu_ms":0,"cpu_us":0}
{"type":"move","turn":2,"player":0,"sent":"say\n","expect":1,"limit_us":1000000,"received":["\ufffdho"],"cpu_ms":0,"cpu_us":0,"verdict":{"kind":"protocol","turn":2,"detail":"said \ufffdho"}}
{"type":"result","result":{"version":0,"id":"","game":"say","seed":1,"status":"","error":null,"winner":null,"players":[{"name":"","lang":"","build":{"ok":false,"cached":false,"image":"","ms":0,"log":""},"score":1,"rank":1,"fault":{"kind":"protocol","turn":2,"detail":"said \ufffdho"},"moves":0,"cpu_ms":0,"wall_ms":0,"max_rss_kib":0}],"judge":{"version":"","host":"","started":"0001-01-01T00:00:00Z","finished":"0001-01-01T00:00:00Z"}}}
`
	if _, err := verify([]byte(v1), say{}); err != nil {
		t.Errorf("a version 1 replay: %v", err)
	}
	// Version 2 added only the base64 fields, which a replay of valid UTF-8 lacks.
	v2 := strings.Replace(v1, `"version":1`, `"version":2`, 1)
	if _, err := verify([]byte(v2), say{}); err != nil {
		t.Errorf("a version 2 replay: %v", err)
	}
	v4 := strings.Replace(v1, `"version":1`, `"version":4`, 1)
	if _, err := replay.Read(strings.NewReader(v4)); err == nil || !strings.Contains(err.Error(), "version 4") {
		t.Errorf("a replay of version 4 read with error %v; want one naming the version", err)
	}
}

// Stderr lines are attached to the exchanges they name, concatenated, whenever they come
// after them; the replay still verifies (stderr is not judged).
func TestStderrRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := replay.NewWriter(&buf)
	w.Header(replay.Header{Game: "say", Seed: 1, Players: []replay.Player{{Name: "p"}}})
	w.Exchange(replay.Exchange{Turn: 1, Sent: "say\n", Expect: 1, LimitUS: 1e6, Received: []string{"hi"}, Stderr: "starting\n"})
	w.Stderr(0, 0, "turn 1\n")
	w.Exchange(replay.Exchange{Turn: 2, Sent: "say\n", Expect: 1, LimitUS: 1e6, Received: []string{"hi"}})
	w.Stderr(0, 0, "late for turn 1\n")
	w.Stderr(0, 1, "")
	w.Stderr(0, 1, "bye \xff\n")
	w.Result(result.Result{Game: "say", Seed: 1, Players: []result.Player{{Score: 2, Rank: 1}}})
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	raw := buf.String()
	if n := strings.Count(raw, `{"type":"stderr"`); n != 4 {
		t.Errorf("%d stderr lines; want 4 (none for empty text):\n%s", n, raw)
	}
	if strings.Contains(raw, `"type":"move"`) && strings.Contains(strings.Split(raw, "\n")[1], `"stderr"`) {
		t.Errorf("a move line holds stderr: %s", strings.Split(raw, "\n")[1])
	}
	rp, err := replay.Read(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rp.Exchanges[0].Stderr, "starting\nturn 1\nlate for turn 1\n"; got != want {
		t.Errorf("exchange 0's stderr %q; want %q", got, want)
	}
	if got, want := rp.Exchanges[1].Stderr, "bye \ufffd\n"; got != want {
		t.Errorf("exchange 1's stderr %q; want %q", got, want)
	}
	if _, err := verify([]byte(raw), say{}); err != nil {
		t.Errorf("a replay with stderr: %v", err)
	}
}

// A stderr line names an exchange recorded before it, of its own player; the writer refuses
// to write one that does not.
func TestStderrOfAMissingExchangeFails(t *testing.T) {
	const head = `{"type":"header","version":3,"game":"say","seed":1,"options":null,"players":[{"name":"a","lang":"cpp"}]}
{"type":"move","turn":1,"player":0,"sent":"say\n","expect":1,"limit_us":1000000,"received":["hi"],"cpu_ms":0,"cpu_us":0}
`
	const tail = `{"type":"result","result":{"game":"say","seed":1,"players":[{"score":1,"rank":1}]}}
`
	if _, err := replay.Read(strings.NewReader(head + `{"type":"stderr","player":0,"exchange":0,"text":"x"}` + "\n" + tail)); err != nil {
		t.Fatalf("a good stderr line: %v", err)
	}
	line := func(player, exchange int) string {
		return fmt.Sprintf(`{"type":"stderr","player":%d,"exchange":%d,"text":"x"}`+"\n", player, exchange)
	}
	for name, raw := range map[string]string{
		"past the end":     head + line(0, 1) + tail,
		"negative":         head + line(0, -1) + tail,
		"another player":   head + line(1, 0) + tail,
		"after the result": head + tail + line(0, 0),
	} {
		if _, err := replay.Read(strings.NewReader(raw)); err == nil || !strings.Contains(err.Error(), "line ") {
			t.Errorf("stderr %s: read with error %v; want one naming the line", name, err)
		}
	}

	var buf bytes.Buffer
	w := replay.NewWriter(&buf)
	w.Header(replay.Header{Game: "say"})
	w.Stderr(0, 0, "too early")
	if w.Err() == nil {
		t.Error("the writer wrote stderr for an exchange not written")
	}
}

// The exact bytes name lines that are there.
func TestExactBytesOfAMissingLineFail(t *testing.T) {
	var x replay.Exchange
	err := json.Unmarshal([]byte(`{"type":"move","received":["\ufffd"],"received_base64":{"1":"/w=="}}`), &x)
	if err == nil {
		t.Errorf("read %#v", x)
	}
}

// A file that is no replay at all is ErrNotReplay, whatever its first line; a replay cut
// short is not that, and says it did not finish.
func TestNotAReplay(t *testing.T) {
	for _, tc := range []struct {
		text string
		not  bool
		want string
	}{
		{"", true, "the file is empty"},
		{"# A README\n", true, "invalid character"},
		{"{}\n", true, "line 1 has no type"},
		{`{"type":"move"}` + "\n", true, `line 1 is of type "move"`},
		{`{"type":"header","version":3,"game":"amazes"}` + "\n", false, "no result line (the match did not finish)"},
	} {
		_, err := replay.Read(strings.NewReader(tc.text))
		if errors.Is(err, replay.ErrNotReplay) != tc.not || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v; want not a replay %v, saying %q", tc.text, err, tc.not, tc.want)
		}
	}
}
