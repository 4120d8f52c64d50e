// Package replay writes and re-judges replays. A replay is a JSON Lines file: a header
// (game, seed, options, players, images, the generated world), one line per exchange (who,
// what was sent, what came back, the CPU time, any fault), the bots' stderr, and the result.
// Verify re-runs the game's rules on the recorded answers, with no bot, and checks that it
// asks the same questions and reaches the same result: the proof that a judgement is
// deterministic.
//
// A bot's stderr is for its author, not for the judgement (Rejudge and Verify ignore it).
// Each "stderr" line (version 3) holds what one player wrote during one of its exchanges,
// naming it by its index among the exchanges, from 0. It is written when the judge takes it,
// just before the player's next request or at the end, so it follows its exchange, often
// after later ones; Read attaches it to its exchange (Exchange.Stderr), concatenating when
// several name the same. It is text: bytes that are not UTF-8 are written as U+FFFD.
//
// A bot's answer is bytes, and the game judges those bytes, so a replay holds them exactly.
// A JSON string holds any valid UTF-8 exactly (NUL as \u0000), but not bytes that are not
// UTF-8: encoding/json writes each as U+FFFD. A string that is not valid UTF-8 (an answer
// line, what was sent, the ready line, an option's value) is therefore written twice: in its
// usual field as readable text, with U+FFFD for each bad byte, and beside it, base64, its
// exact bytes, which Read takes instead: "sent_base64", "ready_base64", "received_base64"
// (an object from the line's index, from 0, to its bytes) and, in the header,
// "options_base64" (by option name). Version 1 replays, written before, have no such field.
// A fault's detail is text for people (the runner's are valid UTF-8): verdicts and results
// are compared as the replay records them.
package replay

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/result"
)

// Version is the replay format's version: 2 adds the exact bytes of strings that are not
// valid UTF-8 to version 1, 3 the "stderr" lines.
const Version = 3

// Header is the replay's first line.
type Header struct {
	Type    string `json:"type"` // "header"
	Version int    `json:"version"`
	Game    string `json:"game"`
	// GameVersion is an added game's version (docs/referee.md): the content hash of the game
	// directory whose referee judged the match. Built-in games have none.
	GameVersion string            `json:"game_version,omitempty"`
	Seed        uint64            `json:"seed"`
	Options     map[string]string `json:"options"`
	Players     []Player          `json:"players"`
	World       any               `json:"world,omitempty"`
	// Judge is the version of the judge that wrote the replay (as results' judge.version).
	Judge string `json:"judge,omitempty"`
}

// Player identifies a player and the images that built and ran it.
type Player struct {
	Name         string `json:"name"`
	Lang         string `json:"lang"`
	CompileImage string `json:"compile_image,omitempty"`
	RunImage     string `json:"run_image,omitempty"`
	// Toolchain names the compiler that built the player (build.Result.Toolchain).
	Toolchain string `json:"toolchain,omitempty"`
}

// Exchange is one request and what came of it.
type Exchange struct {
	Type     string   `json:"type"` // "move"
	Turn     int      `json:"turn"`
	Player   int      `json:"player"`
	Sent     string   `json:"sent"`
	Expect   int      `json:"expect"`
	Ready    string   `json:"ready,omitempty"`
	LimitUS  int64    `json:"limit_us"`
	Received []string `json:"received"`
	CPUms    int64    `json:"cpu_ms"`
	// CPUus is the exact CPU time fed to the game (its time budgets depend on it).
	CPUus int64 `json:"cpu_us"`
	// Fault is what the referee saw happen (a timeout, a crash); Verdict is the game's
	// judgement of the exchange.
	Fault   *game.Fault `json:"fault,omitempty"`
	Verdict *game.Fault `json:"verdict,omitempty"`
	// Stderr is what the player wrote to stderr during the exchange (see the package
	// comment). A replay holds it on lines of its own: Writer.Exchange writes it so, Read
	// gathers it here.
	Stderr string `json:"stderr,omitempty"`
}

// exact is s's bytes when JSON would not hold s (see the package comment), else nil.
func exact(s string) []byte {
	if utf8.ValidString(s) {
		return nil
	}
	return []byte(s)
}

// exactAll is exact of each string, for those that are not valid UTF-8; nil when none is.
func exactAll[K comparable](all iter.Seq2[K, string]) map[K][]byte {
	var out map[K][]byte
	for k, s := range all {
		if b := exact(s); b != nil {
			if out == nil {
				out = map[K][]byte{}
			}
			out[k] = b
		}
	}
	return out
}

// exactOr is the recorded exact bytes b, or, when there are none, the text s.
func exactOr(b []byte, s string) string {
	if b != nil {
		return string(b)
	}
	return s
}

type plainHeader Header

type headerJSON struct {
	plainHeader
	OptionsBase64 map[string][]byte `json:"options_base64,omitempty"`
}

// MarshalJSON writes the header with the exact bytes of option values that are not valid
// UTF-8 (see the package comment).
func (h Header) MarshalJSON() ([]byte, error) {
	return json.Marshal(headerJSON{plainHeader(h), exactAll(maps.All(h.Options))})
}

// UnmarshalJSON reads a header of either version.
func (h *Header) UnmarshalJSON(b []byte) error {
	var j headerJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*h = Header(j.plainHeader)
	for k, v := range j.OptionsBase64 {
		if _, ok := h.Options[k]; !ok {
			return fmt.Errorf("options_base64 names option %q, which options do not", k)
		}
		h.Options[k] = string(v)
	}
	return nil
}

type plainExchange Exchange

type exchangeJSON struct {
	plainExchange
	SentBase64     []byte         `json:"sent_base64,omitempty"`
	ReadyBase64    []byte         `json:"ready_base64,omitempty"`
	ReceivedBase64 map[int][]byte `json:"received_base64,omitempty"`
}

// MarshalJSON writes the exchange with the exact bytes of its strings that are not valid
// UTF-8 (see the package comment).
func (x Exchange) MarshalJSON() ([]byte, error) {
	return json.Marshal(exchangeJSON{plainExchange(x), exact(x.Sent), exact(x.Ready), exactAll(slices.All(x.Received))})
}

// UnmarshalJSON reads an exchange of either version.
func (x *Exchange) UnmarshalJSON(b []byte) error {
	var j exchangeJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*x = Exchange(j.plainExchange)
	x.Sent, x.Ready = exactOr(j.SentBase64, x.Sent), exactOr(j.ReadyBase64, x.Ready)
	for i, v := range j.ReceivedBase64 {
		if i < 0 || i >= len(x.Received) {
			return fmt.Errorf("received_base64 names line %d of %d", i, len(x.Received))
		}
		x.Received[i] = string(v)
	}
	return nil
}

// appendExchange appends x's line exactly as json.Encoder writes it (through
// Exchange.MarshalJSON, HTML escaping on), without reflection or allocation when x's
// strings are valid UTF-8: the judge writes one per move. The tests hold the two equal.
func appendExchange(b []byte, x Exchange) []byte {
	b = appendString(append(b, `{"type":`...), x.Type)
	b = strconv.AppendInt(append(b, `,"turn":`...), int64(x.Turn), 10)
	b = strconv.AppendInt(append(b, `,"player":`...), int64(x.Player), 10)
	b = appendString(append(b, `,"sent":`...), x.Sent)
	b = strconv.AppendInt(append(b, `,"expect":`...), int64(x.Expect), 10)
	if x.Ready != "" {
		b = appendString(append(b, `,"ready":`...), x.Ready)
	}
	b = strconv.AppendInt(append(b, `,"limit_us":`...), x.LimitUS, 10)
	b = append(b, `,"received":`...)
	if x.Received == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range x.Received {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, s)
		}
		b = append(b, ']')
	}
	b = strconv.AppendInt(append(b, `,"cpu_ms":`...), x.CPUms, 10)
	b = strconv.AppendInt(append(b, `,"cpu_us":`...), x.CPUus, 10)
	b = appendFault(b, `,"fault":`, x.Fault)
	b = appendFault(b, `,"verdict":`, x.Verdict)
	if x.Stderr != "" {
		b = appendString(append(b, `,"stderr":`...), x.Stderr)
	}
	if !utf8.ValidString(x.Sent) {
		b = appendBase64(append(b, `,"sent_base64":`...), x.Sent)
	}
	if !utf8.ValidString(x.Ready) {
		b = appendBase64(append(b, `,"ready_base64":`...), x.Ready)
	}
	var stack [8]int
	bad := stack[:0]
	for i, s := range x.Received {
		if !utf8.ValidString(s) {
			bad = append(bad, i)
		}
	}
	if len(bad) > 0 {
		// encoding/json sorts a map's int keys as text: "10" before "2".
		slices.SortFunc(bad, func(i, j int) int { return strings.Compare(strconv.Itoa(i), strconv.Itoa(j)) })
		b = append(b, `,"received_base64":{`...)
		for k, i := range bad {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(strconv.AppendInt(append(b, '"'), int64(i), 10), `":`...)
			b = appendBase64(b, x.Received[i])
		}
		b = append(b, '}')
	}
	return append(b, "}\n"...)
}

func appendFault(b []byte, key string, f *game.Fault) []byte {
	if f == nil {
		return b
	}
	b = appendString(append(append(b, key...), `{"kind":`...), string(f.Kind))
	b = strconv.AppendInt(append(b, `,"turn":`...), int64(f.Turn), 10)
	return append(appendString(append(b, `,"detail":`...), f.Detail), '}')
}

func appendBase64(b []byte, s string) []byte {
	return append(base64.StdEncoding.AppendEncode(append(b, '"'), []byte(s)), '"')
}

// htmlSafe is the ASCII bytes encoding/json writes as they are when it escapes HTML. It
// spans every byte so that a plain byte costs appendString one look-up.
var htmlSafe = func() (safe [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		safe[c] = !strings.ContainsRune(`"\<>&`, c)
	}
	return safe
}()

// appendString appends s quoted as encoding/json quotes a string when it escapes HTML:
// <, > and & as \u003c..., U+2028 and U+2029 as \u2028 and \u2029, each byte that is not
// UTF-8 as \ufffd.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if htmlSafe[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += n
			continue
		}
		i += n
		start = i
	}
	return append(append(b, s[start:]...), '"')
}

type footer struct {
	Type   string        `json:"type"` // "result"
	Result result.Result `json:"result"`
}

// stderrLine is what one player wrote to stderr during exchange Exchange.
type stderrLine struct {
	Type     string `json:"type"` // "stderr"
	Player   int    `json:"player"`
	Exchange int    `json:"exchange"`
	Text     string `json:"text"`
}

// Writer writes a replay. A nil *Writer writes nothing.
type Writer struct {
	out io.Writer
	// enc writes the rare lines (header, stderr, result) to out, each in one Write as an
	// exchange is, so that they stay in order. An exchange, one per move, is appended to
	// line, reused, by appendExchange: encoding/json was ~15% of the judge's cost per move.
	enc  *json.Encoder
	line []byte
	err  error
	// players are the players of the exchanges written, by index, so that a stderr line
	// names one that is there.
	players []int
}

// NewWriter starts a replay on w.
func NewWriter(w io.Writer) *Writer { return &Writer{out: w, enc: json.NewEncoder(w)} }

func (w *Writer) write(v any) {
	if w == nil || w.err != nil {
		return
	}
	w.err = w.enc.Encode(v)
}

// Header writes the header.
func (w *Writer) Header(h Header) {
	h.Type, h.Version = "header", Version
	w.write(h)
}

// Exchange writes one exchange, and its Stderr, if any, on a line of its own.
func (w *Writer) Exchange(x Exchange) {
	if w == nil {
		return
	}
	x.Type = "move"
	stderr := x.Stderr
	x.Stderr = ""
	if w.err == nil {
		w.line = appendExchange(w.line[:0], x)
		_, w.err = w.out.Write(w.line)
	}
	w.players = append(w.players, x.Player)
	w.Stderr(x.Player, len(w.players)-1, stderr)
}

// Stderr writes what player wrote to stderr during exchange (its index among the exchanges
// written, from 0); empty text writes nothing. An exchange not yet written, or another
// player's, is the writer's error: the replay would not read.
func (w *Writer) Stderr(player, exchange int, text string) {
	if w == nil || w.err != nil || text == "" {
		return
	}
	if exchange < 0 || exchange >= len(w.players) || w.players[exchange] != player {
		w.err = fmt.Errorf("replay: stderr of player %d for exchange %d, which is not one of its %d written", player, exchange, len(w.players))
		return
	}
	w.write(stderrLine{Type: "stderr", Player: player, Exchange: exchange, Text: text})
}

// Result writes the result, the last line.
func (w *Writer) Result(r result.Result) { w.write(footer{Type: "result", Result: r}) }

// Err is the first write error.
func (w *Writer) Err() error {
	if w == nil {
		return nil
	}
	return w.err
}

// Replay is a parsed replay.
type Replay struct {
	Header    Header
	Exchanges []Exchange
	Result    result.Result
}

// ErrNotReplay is a file whose first line is not a replay's header: not a replay at all.
var ErrNotReplay = errors.New("not a replay: a replay's first line is its header, a JSON object of type \"header\"")

// Read parses a replay. A file that is no replay at all is ErrNotReplay.
func Read(r io.Reader) (*Replay, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	rp := &Replay{}
	line, done := 0, false
	for sc.Scan() {
		line++
		if done {
			return nil, fmt.Errorf("replay: line %d: data after the result", line)
		}
		var t struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			if line == 1 {
				return nil, fmt.Errorf("replay: %w (line 1: %w)", ErrNotReplay, err)
			}
			return nil, fmt.Errorf("replay: line %d: %w", line, err)
		}
		var err error
		switch {
		case line == 1 && t.Type == "header":
			err = json.Unmarshal(sc.Bytes(), &rp.Header)
			if err == nil && rp.Header.Version > Version {
				return nil, fmt.Errorf("replay: version %d, newer than this judge reads (%d)", rp.Header.Version, Version)
			}
		case line == 1:
			if t.Type == "" {
				return nil, fmt.Errorf("replay: %w (line 1 has no type)", ErrNotReplay)
			}
			return nil, fmt.Errorf("replay: %w (line 1 is of type %q)", ErrNotReplay, t.Type)
		case t.Type == "move":
			var x Exchange
			err = json.Unmarshal(sc.Bytes(), &x)
			rp.Exchanges = append(rp.Exchanges, x)
		case t.Type == "stderr":
			var l stderrLine
			if err = json.Unmarshal(sc.Bytes(), &l); err == nil {
				err = rp.attach(l)
			}
		case t.Type == "result":
			var f footer
			err = json.Unmarshal(sc.Bytes(), &f)
			rp.Result, done = f.Result, true
		default:
			return nil, fmt.Errorf("replay: line %d: unknown record %q", line, t.Type)
		}
		if err != nil {
			return nil, fmt.Errorf("replay: line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if line == 0 {
		return nil, fmt.Errorf("replay: %w (the file is empty)", ErrNotReplay)
	}
	if !done {
		return nil, errors.New("replay: no result line (the match did not finish)")
	}
	return rp, nil
}

// attach adds a stderr line's text to its exchange, which must come before it.
func (rp *Replay) attach(l stderrLine) error {
	if l.Exchange < 0 || l.Exchange >= len(rp.Exchanges) {
		return fmt.Errorf("stderr for exchange %d, of %d recorded before it", l.Exchange, len(rp.Exchanges))
	}
	x := &rp.Exchanges[l.Exchange]
	if x.Player != l.Player {
		return fmt.Errorf("stderr of player %d for exchange %d, which is player %d's", l.Player, l.Exchange, x.Player)
	}
	x.Stderr += l.Text
	return nil
}

// Rejudge plays the game again from the header, answering every request with the recorded
// answer, and checks that the game asks what was recorded and gives the recorded verdicts.
// It returns the game's result.
func (rp *Replay) Rejudge(g game.Game) (game.Result, error) { return rp.Watch(g, nil) }

// Watch is Rejudge calling watch with the match before the first exchange (step 0) and
// after each exchange i (step i+1), as far as the replay agrees with the game: a viewer draws
// each step of the match from it.
func (rp *Replay) Watch(g game.Game, watch func(step int, m game.Match)) (game.Result, error) {
	h := rp.Header
	m, err := game.Start(g, game.Config{Seed: h.Seed, Players: len(h.Players), Options: h.Options})
	if err != nil {
		// This judge would not have started this match: the header was edited, or comes
		// from a judge whose game takes other options.
		return game.Result{}, mismatch(Difference{Field: "header", Recorded: fmt.Sprintf("a match of %s for %s", h.Game, players(len(h.Players))), Rejudged: "refused: " + err.Error()})
	}
	// An added game's match is a referee program: it ends with the re-judging, whatever
	// stops it.
	if c, ok := m.(io.Closer); ok {
		defer c.Close()
	}
	if watch == nil {
		watch = func(int, game.Match) {}
	}
	watch(0, m)
	for i := 0; ; i++ {
		req, done := m.Next()
		if done {
			// A referee program that failed is no answer about the replay: the error says why.
			if e, ok := m.(interface{ Err() error }); ok && e.Err() != nil {
				return game.Result{}, fmt.Errorf("re-judging: %w", e.Err())
			}
			if i < len(rp.Exchanges) {
				x := rp.Exchanges[i]
				return game.Result{}, mismatch(Difference{Field: fmt.Sprintf("exchange %d", i+1),
					Recorded: fmt.Sprintf("player %d asked at turn %d", x.Player, x.Turn), Rejudged: "the game is over"})
			}
			return m.Result(), nil
		}
		if i >= len(rp.Exchanges) {
			return game.Result{}, mismatch(Difference{Field: fmt.Sprintf("exchange %d", i+1),
				Recorded: "the end of the match", Rejudged: fmt.Sprintf("player %d asked at turn %d", req.Player, req.Turn)})
		}
		x := &rp.Exchanges[i]
		if d := requestDifferences(i, x, req); len(d) > 0 {
			return game.Result{}, mismatch(d...)
		}
		if req.Expect == 0 && req.Ready == "" {
			watch(i+1, m)
			continue
		}
		verdict := m.Reply(game.Reply{Lines: x.Received, Fault: x.Fault, CPU: time.Duration(x.CPUus) * time.Microsecond})
		if !reflect.DeepEqual(asRecorded(verdict), x.Verdict) {
			return game.Result{}, mismatch(Difference{Field: fmt.Sprintf("exchange %d verdict (player %d, turn %d)", i+1, x.Player, x.Turn),
				Recorded: verdictWords(x.Verdict), Rejudged: verdictWords(asRecorded(verdict))})
		}
		watch(i+1, m)
	}
}

// Verify re-judges a replay: it reads it, finds its game with lookup, re-runs the rules on
// the recorded answers (Rejudge), and checks the result against the recorded one.
func Verify(r io.Reader, lookup func(string) (game.Game, bool)) (result.Result, error) {
	rp, err := Read(r)
	if err != nil {
		return result.Result{}, err
	}
	g, ok := lookup(rp.Header.Game)
	if !ok {
		return result.Result{}, fmt.Errorf("replay: unknown game %q", rp.Header.Game)
	}
	d, err := rp.Check(g, nil)
	if err != nil {
		return result.Result{}, err
	}
	if len(d) > 0 {
		return rp.Result, mismatch(d...)
	}
	return rp.Result, nil
}

// asRecorded is f as a replay records it: a fault's detail is not exact (it is for people),
// and encoding/json writes each byte of it that is not UTF-8 as U+FFFD.
func asRecorded(f *game.Fault) *game.Fault {
	if f == nil || utf8.ValidString(f.Detail) {
		return f
	}
	r := *f
	var b strings.Builder
	for _, c := range f.Detail {
		b.WriteRune(c) // an invalid byte comes as one utf8.RuneError
	}
	r.Detail = b.String()
	return &r
}

func faultOrNil(f []*game.Fault, i int) *game.Fault {
	if i < len(f) {
		return f[i]
	}
	return nil
}
