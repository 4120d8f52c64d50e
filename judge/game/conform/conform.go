// Package conform is the conformance checks every game passes, built in or added: what the
// judge relies on in a game.Game, checked by playing it with random answers and faults, with
// no bots and no containers (Check). The games' tests run it through gametest.Conformance;
// `judge game check` runs it on an organiser's game, whose referee is a program of its own.
package conform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
)

// MaxRequests bounds a driven match: one that asks more has not ended.
const MaxRequests = 1_000_000

// Exchange is one request and what came of it.
type Exchange struct {
	Request game.Request
	// Reply is what the player answered; zero for a notice, which gets none.
	Reply game.Reply
	// Verdict is what Reply returned.
	Verdict *game.Fault
}

// Drive plays m to its end as the referee does (gametest.Drive), and returns every exchange,
// or what m broke of what the referee relies on.
func Drive(m game.Match, answer func(game.Request) game.Reply, watch ...func()) ([]Exchange, error) {
	defer end(m)
	looked := func() {
		for _, w := range watch {
			if w != nil {
				w()
			}
		}
	}
	dead := map[int]*game.Fault{}
	var log []Exchange
	for range MaxRequests {
		req, done := m.Next()
		if done {
			// An added game's referee that failed ended the match: why is the problem.
			if e, ok := m.(interface{ Err() error }); ok && e.Err() != nil {
				return log, e.Err()
			}
			if _, over := m.Next(); !over {
				return log, errors.New("Next reported the match over, then asked again")
			}
			return log, nil
		}
		if req.Player < 0 {
			return log, fmt.Errorf("a request to player %d", req.Player)
		}
		if req.Expect < 0 || req.Limit < 0 {
			return log, fmt.Errorf("a request expects %d lines within %v", req.Expect, req.Limit)
		}
		if req.Expect == 0 && req.Ready == "" {
			log = append(log, Exchange{Request: req})
			looked()
			continue
		}
		// A request that expects an answer stays pending until Reply (a notice is delivered
		// when Next returns it).
		if again, _ := m.Next(); !reflect.DeepEqual(again, req) {
			return log, fmt.Errorf("Next changed while a request was pending: %s, then %s", requestJSON(req), requestJSON(again))
		}
		var r game.Reply
		if f := dead[req.Player]; f != nil {
			g := *f
			g.Turn = req.Turn
			r.Fault = &g
		} else {
			r = answer(req)
		}
		v := m.Reply(r)
		if v != nil && dead[req.Player] == nil {
			dead[req.Player] = v
		}
		log = append(log, Exchange{Request: req, Reply: r, Verdict: v})
		looked()
	}
	return log, fmt.Errorf("the match did not end after %d requests", MaxRequests)
}

// Case is what Conformance needs beyond the game itself.
type Case struct {
	// Words make the random answers: lines of one to three of them. Give the game's move
	// letters, numbers and keywords, so that random matches get beyond their first answer.
	Words []string
	// Seeds is how many seeds each random check plays (default 20).
	Seeds int
	// Defaults, when set, are the options' defaults the game must document, as Defaults
	// writes them ("turns=150 time=30s"): its page's.
	Defaults string
}

// Check checks what the judge relies on in game g, and returns every problem it finds
// (errors.Join), or nil:
//   - its description: a lower-case name, 1 <= min <= default <= max players, every option
//     documented once with a help text, a memory option, and the defaults of c.Defaults;
//   - player counts: game.Start takes every count from min to max and refuses the others;
//   - options: every option's documented default is accepted and changes nothing; an unknown
//     option, and any option given a value that is not one, is an *game.OptionError naming
//     it; Setup.Options has every option, and recreates the same Setup;
//   - play: random answers, faults included, end every match within MaxRequests with a
//     result the referee can publish (a score, a rank and a fault slot per player, ranks from
//     1, the winner the player ranked 1 alone, a fault for every player given a verdict), and
//     players that all time out at once each get that fault;
//   - determinism: the same seed, options and answers give the same requests, verdicts and
//     result;
//   - replays: a match written as a replay and read back re-judges to the same result
//     (replay.Verify), as `judge replay verify` does;
//   - pictures, for a game.Viewer: View changes nothing in the match, a picture does not
//     change after it was taken, it has a score per player, and the last one's scores are
//     the result's.
func Check(g game.Game, c Case) error {
	if c.Seeds == 0 {
		c.Seeds = 20
	}
	var p problems
	description(g, &p)
	if got := Defaults(g); c.Defaults != "" && got != c.Defaults {
		p.add("the options' defaults are %q, want %q", got, c.Defaults)
	}
	if len(p) > 0 {
		return errors.Join(p...) // nothing else can be trusted
	}
	playerCounts(g, &p)
	options(g, &p)
	randomPlay(g, c, &p)
	allTimeOut(g, &p)
	views(g, c, &p)
	return errors.Join(p...)
}

func views(g game.Game, c Case, p *problems) {
	lo, hi, _ := g.Players()
	for s := range min(c.Seeds, 5) {
		seed := uint64(s + 1)
		n := lo + s%(hi-lo+1)
		cfg := game.Config{Seed: seed, Players: n}
		m, err := game.Start(g, cfg)
		if err != nil {
			p.add("pictures, seed %d: %v", seed, err)
			return
		}
		v, ok := m.(game.Viewer)
		if !ok {
			return
		}
		var taken []game.View
		var encoded []string
		take := func() error {
			pic := v.View()
			b, err := json.Marshal(pic)
			if err != nil {
				return fmt.Errorf("the picture does not encode: %v", err)
			}
			if len(pic.Scores) != n {
				return fmt.Errorf("the picture has %d scores for %d players", len(pic.Scores), n)
			}
			taken, encoded = append(taken, pic), append(encoded, string(b))
			return nil
		}
		if err := take(); err != nil {
			p.add("pictures, seed %d, before the first request: %v", seed, err)
			return
		}
		answer := RandomAnswers(c.Words, seed)
		var failed error
		log, err := Drive(m, func(req game.Request) game.Reply {
			if failed == nil {
				failed = take() // the picture after the last reply
			}
			return answer(req)
		})
		if err == nil {
			err = failed
		}
		if err == nil {
			err = take()
		}
		if err != nil {
			p.add("pictures, seed %d, %d players: %v", seed, n, err)
			return
		}
		want, err := play(g, cfg, c.Words, seed)
		if err != nil {
			p.add("pictures, seed %d: %v", seed, err)
			return
		}
		if res := m.Result(); !reflect.DeepEqual(log, want.log) || !reflect.DeepEqual(res, want.result) {
			p.add("pictures, seed %d, %d players: taking pictures changed the match (result %s, without pictures %s)", seed, n, resultJSON(res), resultJSON(want.result))
			return
		}
		for i, pic := range taken {
			if b, _ := json.Marshal(pic); string(b) != encoded[i] {
				p.add("pictures, seed %d: picture %d changed after it was taken:\n%s\n%s", seed, i, encoded[i], b)
				return
			}
		}
		if last, res := taken[len(taken)-1].Scores, m.Result().Scores; !reflect.DeepEqual(last, res) {
			p.add("pictures, seed %d, %d players: the last picture's scores are %v, the result's %v", seed, n, last, res)
		}
	}
}

// end ends m's referee program, for an added game: each match Check starts ends with its
// check, so that its programs do not pile up.
func end(m game.Match) {
	if c, ok := m.(io.Closer); ok {
		c.Close()
	}
}

// problems collects what Check finds.
type problems []error

func (p *problems) add(format string, args ...any) { *p = append(*p, fmt.Errorf(format, args...)) }

func randomPlay(g game.Game, c Case, p *problems) {
	min, max, _ := g.Players()
	for s := range c.Seeds {
		seed := uint64(s + 1)
		n := min + s%(max-min+1)
		cfg := game.Config{Seed: seed, Players: n}
		a, err := play(g, cfg, c.Words, seed)
		if err != nil {
			p.add("random answers, seed %d, %d players: %v", seed, n, err)
			return
		}
		b, err := play(g, cfg, c.Words, seed)
		if err != nil {
			p.add("random answers, seed %d, %d players, again: %v", seed, n, err)
			return
		}
		if !reflect.DeepEqual(a, b) {
			p.add("random answers, seed %d, %d players: the same seed and answers gave another match: %s", seed, n, firstDifference(a, b))
			return
		}
		if err := roundTrip(g, cfg, a); err != nil {
			p.add("random answers, seed %d, %d players: %v", seed, n, err)
			return
		}
	}
}

func allTimeOut(g game.Game, p *problems) {
	min, max, _ := g.Players()
	for n := min; n <= max; n++ {
		m, err := game.Start(g, game.Config{Seed: 1, Players: n})
		if err != nil {
			p.add("%d players: %v", n, err)
			return
		}
		log, err := Drive(m, func(req game.Request) game.Reply {
			return game.Reply{Fault: &game.Fault{Kind: game.Timeout, Turn: req.Turn, Detail: "no answer"}}
		})
		if err != nil {
			p.add("%d players all timing out: %v", n, err)
			return
		}
		res := m.Result()
		if err := CheckResult(res, n, log); err != nil {
			p.add("%d players all timing out: %v", n, err)
			return
		}
		for _, x := range log {
			if x.Request.Expect > 0 || x.Request.Ready != "" {
				if f := res.Faults[x.Request.Player]; f == nil || f.Kind != game.Timeout {
					p.add("%d players all timing out: player %d timed out but its fault is %v", n, x.Request.Player, f)
					return
				}
			}
		}
	}
}

func description(g game.Game, p *problems) {
	if !regexp.MustCompile(`^[a-z][a-z0-9-]*$`).MatchString(g.Name()) {
		p.add("name %q: want lower-case letters, digits and '-'", g.Name())
	}
	min, max, def := g.Players()
	if min < 1 || min > def || def > max {
		p.add("players min %d, default %d, max %d", min, def, max)
	}
	seen := map[string]bool{}
	for _, o := range g.Options() {
		if o.Name == "" || seen[o.Name] {
			p.add("option %q is unnamed or twice", o.Name)
		}
		seen[o.Name] = true
		if o.Help == "" {
			p.add("option %s has no help", o.Name)
		}
	}
	if !seen["memory"] {
		p.add("no memory option")
	}
}

func playerCounts(g game.Game, p *problems) {
	min, max, _ := g.Players()
	for n := min; n <= max; n++ {
		if _, err := game.Start(g, game.Config{Seed: 1, Players: n}); err != nil {
			p.add("%d players: %v", n, err)
		}
	}
	for _, n := range []int{0, min - 1, max + 1} {
		if _, err := game.Start(g, game.Config{Seed: 1, Players: n}); err == nil || !strings.Contains(err.Error(), g.Name()) {
			p.add("%d players: %v; want an error naming the game", n, err)
		}
	}
}

func options(g game.Game, p *problems) {
	docs := g.Options()
	_, _, def := g.Players()
	start := func(opts map[string]string) (game.Match, string, bool) {
		m, err := game.Start(g, game.Config{Seed: 7, Players: def, Options: opts})
		if err != nil {
			p.add("options %q: %v", opts, err)
			return nil, "", false
		}
		js, err := setupJSON(m)
		end(m)
		if err != nil {
			p.add("options %q: %v", opts, err)
			return nil, "", false
		}
		return m, js, true
	}
	base, a, ok := start(nil)
	if !ok {
		return
	}
	defaults := map[string]string{}
	for _, o := range docs {
		defaults[o.Name] = o.Default
	}
	if _, b, ok := start(defaults); ok && a != b {
		p.add("the documented defaults given explicitly change the match:\n%s\n%s", a, b)
	}
	got := base.Setup().Options
	for _, o := range docs {
		if v, ok := got[o.Name]; !ok || v != o.Default {
			p.add("Setup.Options[%s] = %q, %v; want the default %q", o.Name, v, ok, o.Default)
		}
	}
	if len(got) != len(docs) {
		p.add("Setup.Options has %d options, the game documents %d", len(got), len(docs))
	}
	if _, b, ok := start(got); ok && a != b {
		p.add("Setup.Options do not recreate the match:\n%s\n%s", a, b)
	}
	// A refusal comes from game.Start, or, for an option that only the match's rules can read
	// (an added game's text option, read by its referee when the match is played), from the
	// match's Err once it is played: a match that says nothing of it took the option.
	refused := func(opts map[string]string, name string) {
		m, err := game.Start(g, game.Config{Seed: 7, Players: def, Options: opts})
		if e, ok := m.(interface{ Err() error }); ok && err == nil {
			m.Next()
			err = e.Err()
			end(m)
		}
		var oe *game.OptionError
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), name) {
			p.add("options %q: %v; want an *game.OptionError naming %s", opts, err, name)
		}
	}
	refused(map[string]string{"no-such-option": "1"}, "no-such-option")
	for _, o := range docs {
		for _, bad := range []string{"x", "-1e999", "\xff"} {
			refused(map[string]string{o.Name: bad}, o.Name)
		}
	}
}

// setupJSON is m's Setup as JSON, after checking its memory limit.
func setupJSON(m game.Match) (string, error) {
	s := m.Setup()
	if e, ok := m.(interface{ Err() error }); ok && e.Err() != nil {
		return "", e.Err() // an added game's referee that failed: why, not its empty setup
	}
	if s.Memory < game.MinMemoryMiB<<20 || s.Memory > game.MaxMemoryMiB<<20 {
		return "", fmt.Errorf("Setup.Memory %d is outside the memory option's bounds", s.Memory)
	}
	b, err := json.Marshal(s)
	if err != nil {
		return "", fmt.Errorf("Setup does not marshal: %v", err)
	}
	return string(b), nil
}

// firstDifference names where two plays of the same match part.
func firstDifference(a, b played) string {
	if a.setup != b.setup {
		return fmt.Sprintf("the setup,\n    first:  %.300s\n    second: %.300s", a.setup, b.setup)
	}
	for i := range min(len(a.log), len(b.log)) {
		x, y := a.log[i], b.log[i]
		switch {
		case !reflect.DeepEqual(x.Request, y.Request):
			return fmt.Sprintf("exchange %d's request,\n    first:  %s\n    second: %s", i+1, requestJSON(x.Request), requestJSON(y.Request))
		case !reflect.DeepEqual(x.Verdict, y.Verdict):
			return fmt.Sprintf("exchange %d's verdict (player %d, turn %d),\n    first:  %s\n    second: %s", i+1, x.Request.Player, x.Request.Turn, asJSON(x.Verdict), asJSON(y.Verdict))
		}
	}
	if len(a.log) != len(b.log) {
		return fmt.Sprintf("%d exchanges, then %d", len(a.log), len(b.log))
	}
	return fmt.Sprintf("the result,\n    first:  %s\n    second: %s", resultJSON(a.result), resultJSON(b.result))
}

// asJSON is v as one line of JSON, as the referee protocol writes it (docs/referee.md).
func asJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%q", fmt.Sprint(v))
	}
	return string(b)
}

// requestJSON is a request in the protocol's words (a referee's "next" entry).
func requestJSON(r game.Request) string {
	return asJSON(struct {
		Player  int    `json:"player"`
		Turn    int    `json:"turn"`
		Send    string `json:"send"`
		Expect  int    `json:"expect"`
		Ready   string `json:"ready,omitempty"`
		LimitUS int64  `json:"limit_us"`
		Intro   bool   `json:"intro,omitempty"`
	}{r.Player, r.Turn, r.Send, r.Expect, r.Ready, r.Limit.Microseconds(), r.Intro})
}

// resultJSON is a result in the protocol's words (its "done", with the winner and faults).
func resultJSON(r game.Result) string {
	return asJSON(struct {
		Scores []float64     `json:"scores"`
		Ranks  []int         `json:"ranks"`
		Winner *int          `json:"winner"`
		Faults []*game.Fault `json:"faults"`
	}{r.Scores, r.Ranks, r.Winner, r.Faults})
}

// played is a match played with random answers.
type played struct {
	setup  string
	log    []Exchange
	result game.Result
}

// RandomAnswers is a random player: lines of one to three words, now and then an empty line
// or junk, or a fault (a time out or a crash); a ready request gets its ready line, sometimes
// after junk. Like the referee's replies, a reply has the lines expected, or a fault. The
// same seed gives the same answers.
func RandomAnswers(words []string, seed uint64) func(game.Request) game.Reply {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	junk := []string{"", " ", "\x00", "\xff\xfe", "READY", strings.Repeat("9", 40), "-1", "\t \r"}
	return func(req game.Request) game.Reply {
		cpu := time.Duration(r.IntN(int(max(req.Limit, time.Microsecond)/time.Microsecond))+1) * time.Microsecond
		switch k := r.IntN(100); {
		case k < 2:
			return game.Reply{Fault: &game.Fault{Kind: game.Timeout, Turn: req.Turn, Detail: "no answer"}, CPU: req.Limit}
		case k < 3:
			return game.Reply{Fault: &game.Fault{Kind: game.Crash, Turn: req.Turn, Detail: "exit status 1"}, CPU: cpu}
		}
		if req.Ready != "" {
			if r.IntN(10) > 0 {
				return game.Reply{Lines: []string{req.Ready}, CPU: cpu}
			}
			return game.Reply{Lines: []string{junk[r.IntN(len(junk))], req.Ready}, CPU: cpu}
		}
		lines := make([]string, req.Expect)
		for i := range lines {
			if len(words) == 0 || r.IntN(20) == 0 {
				lines[i] = junk[r.IntN(len(junk))]
				continue
			}
			ws := make([]string, 1+r.IntN(3))
			for j := range ws {
				ws[j] = words[r.IntN(len(words))]
			}
			lines[i] = strings.Join(ws, " ")
		}
		return game.Reply{Lines: lines, CPU: cpu}
	}
}

func play(g game.Game, cfg game.Config, words []string, seed uint64) (played, error) {
	m, err := game.Start(g, cfg)
	if err != nil {
		return played{}, err
	}
	b, err := json.Marshal(m.Setup())
	if err != nil {
		return played{}, fmt.Errorf("Setup does not marshal: %v", err)
	}
	log, err := Drive(m, RandomAnswers(words, seed))
	if err != nil {
		return played{}, err
	}
	res := m.Result()
	return played{string(b), log, res}, CheckResult(res, cfg.Players, log)
}

// CheckResult checks what the referee publishes of a result of n players, played as log.
func CheckResult(res game.Result, n int, log []Exchange) error {
	if len(res.Scores) != n || len(res.Ranks) != n || len(res.Faults) != n {
		return fmt.Errorf("a result of %d scores, %d ranks and %d faults for %d players", len(res.Scores), len(res.Ranks), len(res.Faults), n)
	}
	for p, rk := range res.Ranks {
		if rk < 1 || rk > n {
			return fmt.Errorf("player %d ranked %d of %d", p, rk, n)
		}
	}
	if !reflect.DeepEqual(res.Winner, game.UniqueWinner(res.Ranks)) {
		return fmt.Errorf("winner %v with ranks %v", res.Winner, res.Ranks)
	}
	first := map[int]*game.Fault{}
	for _, x := range log {
		p := x.Request.Player
		if p >= n {
			return fmt.Errorf("a request to player %d of %d", p, n)
		}
		if x.Verdict != nil && first[p] == nil {
			first[p] = x.Verdict
			if res.Faults[p] == nil {
				return fmt.Errorf("player %d was given the verdict %v, but the result has no fault for it", p, x.Verdict)
			}
		}
	}
	return nil
}

// roundTrip writes the match as the referee writes its replay, reads it back and verifies it.
func roundTrip(g game.Game, cfg game.Config, p played) error {
	m, err := game.Start(g, cfg)
	if err != nil {
		return err
	}
	s := m.Setup()
	end(m)
	var buf bytes.Buffer
	w := replay.NewWriter(&buf)
	h := replay.Header{Game: g.Name(), Seed: cfg.Seed, Options: s.Options, World: s.World}
	for i := range cfg.Players {
		h.Players = append(h.Players, replay.Player{Name: fmt.Sprint("p", i)})
	}
	w.Header(h)
	for _, x := range p.log {
		req := x.Request
		rx := replay.Exchange{Turn: req.Turn, Player: req.Player, Sent: req.Send, Expect: req.Expect,
			Ready: req.Ready, LimitUS: req.Limit.Microseconds()}
		if req.Expect > 0 || req.Ready != "" {
			rx.Received, rx.Fault, rx.Verdict = x.Reply.Lines, x.Reply.Fault, x.Verdict
			rx.CPUus = x.Reply.CPU.Microseconds()
		}
		w.Exchange(rx)
	}
	res := result.Result{Game: g.Name(), Seed: cfg.Seed, Status: "ok", Winner: p.result.Winner}
	for i := range cfg.Players {
		res.Players = append(res.Players, result.Player{Score: p.result.Scores[i], Rank: p.result.Ranks[i], Fault: p.result.Faults[i]})
	}
	w.Result(res)
	if err := w.Err(); err != nil {
		return err
	}
	if _, err := replay.Verify(&buf, func(name string) (game.Game, bool) { return g, name == g.Name() }); err != nil {
		return fmt.Errorf("the match's replay does not verify: %w", err)
	}
	return nil
}

// Defaults is g's options with their defaults as a job writes them ("turns=150 time=30s"),
// for a game's test that its defaults are its page's.
func Defaults(g game.Game) string {
	var kv []string
	for _, o := range g.Options() {
		kv = append(kv, o.Name+"="+o.Default)
	}
	return strings.Join(kv, " ")
}

// Padded is an answer line with whitespace around it (Whitespace).
type Padded struct {
	Name, Line string
	// Same is whether the referee reads Line as the bare answer: ASCII whitespace is trimmed
	// (game.TrimLine), a Unicode space is part of the answer.
	Same bool
}

// Whitespace is answer padded in each way the games' tests try: with ASCII whitespace that
// every game ignores, and with Unicode spaces that make it another answer.
func Whitespace(answer string) []Padded {
	return []Padded{
		{"plain", answer, true},
		{"spaces, tabs and a trailing CR", " \t " + answer + "\t \r", true},
		{"a trailing CR only", answer + "\r", true},
		{"vertical tab and form feed", "\v\f" + answer + "\f\v", true},
		{"no-break spaces around", "\u00a0" + answer + "\u00a0", false},
		{"a no-break space after", answer + "\u00a0", false},
		{"an em space before", "\u2003" + answer, false},
		{"a next-line character after", answer + "\u0085", false},
	}
}
