package referee

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/botjudge/judge/judge/game"
)

// Conn is the referee program as the judge reaches it: Exchange writes one line (without its
// "\n") and returns the one line the referee answers. Its errors (the referee ended, ran out
// of time) end the match as the referee's.
type Conn interface {
	Exchange(line []byte) ([]byte, error)
}

// MaxLine is the longest line a referee may write, in bytes: a match's setup, with its world
// and files, is the longest.
const MaxLine = 16 << 20

// NewConn is a Conn over a program's stdout (r) and stdin (w).
func NewConn(r io.Reader, w io.Writer) Conn {
	br := bufio.NewReaderSize(r, 64<<10)
	return &streamConn{r: br, w: w}
}

type streamConn struct {
	r *bufio.Reader
	w io.Writer
}

func (c *streamConn) Exchange(line []byte) ([]byte, error) {
	if _, err := c.w.Write(append(line, '\n')); err != nil {
		return nil, err
	}
	var out []byte
	for {
		part, err := c.r.ReadSlice('\n')
		out = append(out, part...)
		if len(out) > MaxLine {
			return nil, fmt.Errorf("a line longer than %d bytes", MaxLine)
		}
		switch {
		case err == nil:
			return bytes.TrimSuffix(out, []byte("\n")), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(out) > 0:
			return nil, errors.New("its output ended in the middle of a line")
		case errors.Is(err, io.EOF):
			return nil, errors.New("its output ended")
		default:
			return nil, err
		}
	}
}

// Match is a game.Match played by a referee program: every step of the rules is the
// referee's, and everything the judge relies on is checked here. A referee that breaks the
// protocol ends the match: Next reports it over, and Err says why (an *Error).
type Match struct {
	conn    Conn
	players int
	setup   game.Setup
	step    int    // the referee's answers so far, the one being read included (1: to the start)
	to      string // what the answer being read answers, in words
	queue   []request
	pending bool // queue[0] is a request sent to a player, waiting for its Reply
	end     *done
	faults  []*game.Fault
	view    *view
	err     error
}

// Start starts a match on the referee at conn: it sends the start and reads the setup. A
// referee that refuses the options gives a *game.OptionError; one that breaks the protocol an
// *Error. A match whose referee draws pictures (a view in its setup) is also a game.Viewer.
func Start(conn Conn, c game.Config) (game.Match, error) {
	m := &Match{conn: conn, players: c.Players, faults: make([]*game.Fault, c.Players)}
	opts := c.Options
	if opts == nil {
		opts = map[string]string{}
	}
	m.to = "the start"
	a, err := m.ask(start{Type: typeStart, Seed: c.Seed, Players: c.Players, Options: opts})
	if err != nil {
		return nil, err
	}
	switch a.Type {
	case typeError:
		if len(a.Problems) == 0 {
			return nil, m.fail("it refused the match and said nothing of why", nil)
		}
		return nil, &game.OptionError{Problems: a.Problems}
	case typeSetup:
	default:
		return nil, m.fail(fmt.Sprintf("its answer to start is a %q, not a setup or an error", a.Type), nil)
	}
	if err := m.takeSetup(a); err != nil {
		return nil, err
	}
	if err := m.takeNext(a); err != nil {
		return nil, err
	}
	if a.View != nil {
		return &viewMatch{m}, nil
	}
	return m, nil
}

// viewMatch is a Match whose referee draws pictures.
type viewMatch struct{ *Match }

// View is the referee's last picture: after the last reply, or the last notice delivered.
func (m *viewMatch) View() game.View {
	v := game.View{Scores: []float64{}}
	if m.view != nil {
		v.Scores, v.State = m.view.Scores, m.view.State
	}
	return v
}

// Err is why the referee ended the match early (an *Error), or nil.
func (m *Match) Err() error { return m.err }

func (m *Match) fail(msg string, err error) error {
	if m.err == nil {
		m.err = &Error{Step: m.step, To: m.to, Msg: msg, Err: err}
	}
	return m.err
}

// ask sends msg and reads the referee's answer.
func (m *Match) ask(msg any) (answer, error) {
	m.step++
	line, err := json.Marshal(msg)
	if err != nil {
		return answer{}, m.fail("the judge could not write its message", err)
	}
	out, err := m.conn.Exchange(line)
	if err != nil {
		return answer{}, m.fail("no answer", err)
	}
	var a answer
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return answer{}, m.fail(fmt.Sprintf("its answer (%d bytes) is not the protocol's JSON: %.200q", len(out), out), err)
	}
	if dec.More() {
		return answer{}, m.fail(fmt.Sprintf("its answer has more than one JSON value: %.200q", out), nil)
	}
	return a, nil
}

func (m *Match) takeSetup(a answer) error {
	if a.Memory < 0 {
		return m.fail(fmt.Sprintf("a memory limit of %d bytes", a.Memory), nil)
	}
	if a.Files != nil && len(a.Files) != m.players {
		return m.fail(fmt.Sprintf("files for %d players, the match has %d", len(a.Files), m.players), nil)
	}
	m.setup = game.Setup{Options: a.Options, Memory: a.Memory}
	if m.setup.Options == nil {
		m.setup.Options = map[string]string{}
	}
	if a.Files != nil {
		m.setup.Files = make([]map[string][]byte, m.players)
		for i, fs := range a.Files {
			m.setup.Files[i] = map[string][]byte{}
			for name, text := range fs {
				if name == "" || strings.ContainsAny(name, "/\\\x00") || name == "." || name == ".." {
					return m.fail(fmt.Sprintf("player %d's file is named %q: a file name, not a path", i, name), nil)
				}
				m.setup.Files[i][name] = []byte(text)
			}
		}
	}
	if len(a.World) > 0 && !bytes.Equal(a.World, []byte("null")) {
		m.setup.World = a.World
	}
	m.view = a.View
	return nil
}

// takeNext checks and queues what comes next: notices, then one request that waits for an
// answer, or the end.
func (m *Match) takeNext(a answer) error {
	for i, r := range a.Next {
		switch {
		case r.Player < 0 || r.Player >= m.players:
			return m.fail(fmt.Sprintf("a request to player %d: the match has players 0 to %d", r.Player, m.players-1), nil)
		case r.Expect < 0 || r.LimitUS < 0:
			return m.fail(fmt.Sprintf("a request that expects %d lines within %d us", r.Expect, r.LimitUS), nil)
		case r.Send != "" && !strings.HasSuffix(r.Send, "\n"):
			return m.fail(fmt.Sprintf("a request whose text does not end its last line: %.100q", r.Send), nil)
		case r.Ready != "" && r.Expect != 0:
			return m.fail("a request that waits for a ready line and for lines", nil)
		case r.Ready != "" && strings.ContainsAny(r.Ready, "\n\r"):
			return m.fail(fmt.Sprintf("a ready line of more than one line: %q", r.Ready), nil)
		case waits(r) && i != len(a.Next)-1:
			return m.fail("a request that waits for an answer before the end of next: only the last may", nil)
		case waits(r) && r.LimitUS == 0:
			return m.fail(fmt.Sprintf("a request to player %d with no time limit", r.Player), nil)
		}
	}
	last := len(a.Next) > 0 && waits(a.Next[len(a.Next)-1])
	switch {
	case last && a.Done != nil:
		return m.fail("it ends the match and waits for an answer at once", nil)
	case !last && a.Done == nil:
		return m.fail("it neither waits for an answer nor ends the match", nil)
	case a.Done != nil:
		if len(a.Done.Scores) != m.players {
			return m.fail(fmt.Sprintf("%d scores, the match has %d players", len(a.Done.Scores), m.players), nil)
		}
		if a.Done.Ranks != nil {
			if len(a.Done.Ranks) != m.players {
				return m.fail(fmt.Sprintf("%d ranks, the match has %d players", len(a.Done.Ranks), m.players), nil)
			}
			for i, r := range a.Done.Ranks {
				if r < 1 || r > m.players {
					return m.fail(fmt.Sprintf("player %d ranked %d of %d", i, r, m.players), nil)
				}
			}
		}
		m.end = a.Done
	}
	m.queue = append(m.queue, a.Next...)
	return nil
}

func waits(r request) bool { return r.Expect > 0 || r.Ready != "" }

func (r request) game() game.Request {
	return game.Request{Player: r.Player, Turn: r.Turn, Send: r.Send, Expect: r.Expect, Ready: r.Ready,
		Limit: time.Duration(r.LimitUS) * time.Microsecond, Intro: r.Intro}
}

// Setup is the referee's setup.
func (m *Match) Setup() game.Setup { return m.setup }

// Next is the referee's next request: a notice is delivered as it is returned; a request
// that waits for an answer stays until Reply.
func (m *Match) Next() (game.Request, bool) {
	if m.err == nil && len(m.queue) == 0 && m.end == nil {
		m.fail("nothing comes next, and the match has not ended", nil)
	}
	if m.err != nil || len(m.queue) == 0 {
		return game.Request{}, true
	}
	r := m.queue[0]
	if waits(r) {
		m.pending = true
		return r.game(), false
	}
	m.queue = m.queue[1:]
	if r.View != nil {
		m.view = r.View
	}
	return r.game(), false
}

// refereeKinds are the faults a referee declares; the others only the judge sees.
var refereeKinds = map[game.FaultKind]bool{game.Protocol: true, game.IllegalMove: true, game.Timeout: true}

// Reply tells the referee what came of the request it waits for, and returns its verdict:
// the judge's fault when there was one, else the rule the answer broke, or nil.
func (m *Match) Reply(r game.Reply) *game.Fault {
	if m.err != nil || !m.pending {
		if m.err == nil {
			m.fail("the judge replied to no request", nil)
		}
		return r.Fault
	}
	req := m.queue[0]
	m.queue, m.pending = m.queue[1:], false
	lines := make([]string, len(r.Lines))
	for i, l := range r.Lines {
		lines[i] = strings.ToValidUTF8(l, string(utf8.RuneError))
	}
	m.to = fmt.Sprintf("player %d's reply at turn %d", req.Player, req.Turn)
	a, err := m.ask(reply{Type: typeReply, Player: req.Player, Turn: req.Turn, Lines: lines, Fault: r.Fault, CPUus: r.CPU.Microseconds()})
	if err != nil {
		return r.Fault
	}
	if a.Type != typeJudged {
		m.fail(fmt.Sprintf("its answer to a reply is a %q, not judged", a.Type), nil)
		return r.Fault
	}
	verdict := r.Fault
	switch {
	case r.Fault != nil && a.Fault != nil && a.Fault.Kind != r.Fault.Kind:
		m.fail(fmt.Sprintf("player %d's %s judged as %s", req.Player, r.Fault.Kind, a.Fault.Kind), nil)
		return r.Fault
	case r.Fault == nil && a.Fault != nil:
		if !refereeKinds[a.Fault.Kind] {
			m.fail(fmt.Sprintf("a fault of kind %q: a referee declares protocol, illegal_move or timeout", a.Fault.Kind), nil)
			return nil
		}
		if m.faults[req.Player] != nil {
			m.fail(fmt.Sprintf("a fault for player %d, out since turn %d", req.Player, m.faults[req.Player].Turn), nil)
			return nil
		}
		verdict = &game.Fault{Kind: a.Fault.Kind, Turn: req.Turn, Detail: a.Fault.Detail}
	}
	if verdict != nil && m.faults[req.Player] == nil {
		f := *verdict
		m.faults[req.Player] = &f
	}
	if a.View != nil {
		m.view = a.View
	}
	m.takeNext(a) // a breach ends the match (Err); the verdict stands
	return verdict
}

// Result is the referee's end of the match: its scores and ranks, the winner the one ranked
// first alone, and each player's first fault.
func (m *Match) Result() game.Result {
	if m.end == nil {
		return game.Result{}
	}
	ranks := m.end.Ranks
	if ranks == nil {
		ranks = game.RankByScore(m.end.Scores)
	}
	return game.Ranks(m.end.Scores, ranks, m.faults)
}
