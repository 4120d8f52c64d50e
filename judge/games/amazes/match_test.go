package amazes

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
)

// bot answers a request; tests' bots may look at the match (an oracle bot does).
type bot func(m *match, req game.Request) game.Reply

func line(s string) game.Reply { return game.Reply{Lines: []string{s}} }

func answer(s string) bot { return func(*match, game.Request) game.Reply { return line(s) } }

// script answers its lines in order, then T.
func script(lines ...string) bot {
	return func(*match, game.Request) game.Reply {
		if len(lines) == 0 {
			return line("T")
		}
		l := lines[0]
		lines = lines[1:]
		return line(l)
	}
}

func start(t *testing.T, seed uint64, opts map[string]string) *match {
	t.Helper()
	return gametest.Start(t, New(), game.Config{Seed: seed, Options: opts}).(*match)
}

// onComb starts a match on the comb maze with the given starts and options.
func onComb(t *testing.T, red, blue place, opts map[string]string) *match {
	t.Helper()
	all := map[string]string{"maze": withStarts(comb(), red, blue)}
	for k, v := range opts {
		all[k] = v
	}
	return start(t, 1, all)
}

// play drives the match to its end as the referee would (gametest.Drive), returning every
// request and each player's fault as Reply returned it.
func play(t *testing.T, m *match, bots [2]bot) ([]game.Request, [2]*game.Fault) {
	t.Helper()
	var reqs []game.Request
	var faults [2]*game.Fault
	for _, x := range gametest.Drive(t, m, func(req game.Request) game.Reply { return bots[req.Player](m, req) }) {
		p := x.Request.Player
		reqs = append(reqs, x.Request)
		if x.Request.Expect > 0 && faults[p] != nil {
			t.Fatalf("request %d to player %d after its fault", len(reqs), p)
		}
		if x.Verdict != nil {
			faults[p] = x.Verdict
		}
	}
	return reqs, faults
}

// allDiscovered makes player p know every square, without scoring them.
func allDiscovered(m *match, p int) {
	k := &m.know[p]
	for s := range k.disc {
		k.disc[s] = true
	}
	k.count = numSquares
}

// The conformance suite, with the page's defaults: 150 turns and 30 s of CPU time for the whole
// game.
func TestConformance(t *testing.T) {
	gametest.Conformance(t, New(), gametest.Case{Words: []string{"F", "L", "R", "T", "FF", "LFR", "TF"}, Defaults: "turns=150 time=30s memory=256 maze="})
}

func FuzzAnswers(f *testing.F) { gametest.FuzzAnswers(f, New(), "F", "LF", "T") }

func TestOptions(t *testing.T) {
	m := start(t, 5, nil)
	s := m.Setup()
	if want := map[string]string{"turns": "150", "time": "30s", "memory": "256", "maze": ""}; !reflect.DeepEqual(s.Options, want) {
		t.Errorf("setup options %v, want %v", s.Options, want)
	}
	if s.Memory != 256<<20 || len(s.Files) != 0 {
		t.Errorf("memory %d, files %v", s.Memory, s.Files)
	}
	js, err := json.Marshal(s.World)
	if err != nil || !strings.Contains(string(js), `"maze":"`) || !strings.Contains(string(js), `"starts":[{"row":`) {
		t.Errorf("world %s, %v", js, err)
	}
	if w := s.World.(World); w.Maze != m.maze.String() || len(w.Starts) != 2 {
		t.Errorf("world does not describe the maze")
	}
	// The setup's options recreate the match, and a given maze is kept as given.
	again := start(t, 5, s.Options)
	if *again.maze != *m.maze {
		t.Error("setup options do not recreate the maze")
	}
	text := withStarts(comb(), at(4, 5, east), at(19, 20, west))
	m = start(t, 5, map[string]string{"turns": "10", "time": "2s", "memory": "64", "maze": text})
	if m.turns != 10 || m.budget != 2*time.Second || m.Setup().Memory != 64<<20 || m.Setup().Options["maze"] != text || m.maze.String() != text {
		t.Error("options not applied")
	}

	bad := []struct{ opts map[string]string }{
		{map[string]string{"turns": "0"}},
		{map[string]string{"turns": "151"}},
		{map[string]string{"turns": "ten"}},
		{map[string]string{"time": "soon"}},
		{map[string]string{"time": "0s"}},
		{map[string]string{"memory": "8"}},
		{map[string]string{"memory": "5000"}},
		{map[string]string{"maze": "1 1 N"}},
		{map[string]string{"colour": "red"}},
	}
	for _, b := range bad {
		_, err := New().New(game.Config{Seed: 1, Players: 2, Options: b.opts})
		var oe *game.OptionError
		if !errors.As(err, &oe) {
			t.Errorf("%v: got %v, want an option error", b.opts, err)
			continue
		}
		for k := range b.opts {
			if !strings.Contains(err.Error(), k) {
				t.Errorf("%v: %q does not name the option", b.opts, err)
			}
		}
	}
}

func TestFirstRequests(t *testing.T) {
	m := onComb(t, at(5, 5, east), at(20, 20, west), nil)
	req, done := m.Next()
	want := game.Request{Player: 0, Turn: 1, Send: "Start\n" + strings.Repeat("N", 19) + "W\nW\nNNNNBW\nW\n450\n", Expect: 1, Limit: 30 * time.Second}
	if done || req != want {
		t.Fatalf("Red's first request\n%+v\nwant\n%+v", req, want)
	}
	// The row and the two squares beside the spine, all before Blue: 2 points each.
	if m.points[0] != 54 || m.know[0].count != 27 {
		t.Fatalf("Red has %d points for %d squares, want 54 for 27", m.points[0], m.know[0].count)
	}
	if again, _ := m.Next(); again != req || m.points[0] != 54 {
		t.Fatal("asking again changed the request or the points")
	}
	if f := m.Reply(line("F")); f != nil {
		t.Fatal(f)
	}
	req, _ = m.Next()
	want = game.Request{Player: 1, Turn: 1, Send: strings.Repeat("N", 19) + "BW\nW\nNNNNW\nW\n421\n", Expect: 1, Limit: 30 * time.Second}
	if req != want {
		t.Fatalf("Blue's first request\n%+v\nwant\n%+v", req, want)
	}
	m.Reply(line(" F \r"))
	if req, _ = m.Next(); req.Player != 0 || req.Turn != 2 || strings.HasPrefix(req.Send, "Start") {
		t.Fatalf("Red's second request %+v", req)
	}
	if f := m.Reply(game.Reply{}); f == nil || f.Kind != game.Protocol || f.Detail != "no move line" {
		t.Fatalf("a reply without a line: %+v", f)
	}
	if f := m.Reply(line("FFX")); f != nil {
		t.Fatalf("a reply with no request out was judged: %+v", f)
	}
}

func TestMoves(t *testing.T) {
	red := at(5, 5, east)
	cases := []struct {
		name   string
		blue   place
		line   string
		end    place
		points int // Red's after its first turn; 54 from what it saw
	}{
		{"one step", at(20, 20, west), "F", at(5, 6, east), 53},
		{"wall mid-line: the rest is dropped, every letter paid", at(20, 20, west), "FFLFF", at(5, 7, east), 49},
		{"wall at the row's end", at(20, 20, west), "TFFFFFF", at(5, 0, west), 47},
		{"new square walked over", at(20, 20, west), "TFFFFRF", at(3, 0, north), 54 - 7 + 2},
		{"back to the start: the jury's extra T", at(20, 20, west), "FT", at(5, 6, east), 52},
		{"first step into a wall: still the extra T", at(20, 20, west), "L", at(5, 4, west), 53},
		{"256 letters into a wall", at(20, 20, west), strings.Repeat("R", 256), at(5, 4, west), 54 - 256},
		{"capture", at(5, 7, west), "FF", at(5, 7, east), 54 - 2 + 100},
		{"capture by the extra T", at(5, 4, west), "L", at(5, 4, west), 54 - 1 + 100},
		{"passing the opponent is no capture", at(5, 7, west), "FFF", at(5, 8, east), 54 - 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := onComb(t, red, c.blue, nil)
			m.Next()
			if f := m.Reply(line(c.line)); f != nil {
				t.Fatal(f)
			}
			if m.at[0] != c.end || m.points[0] != c.points {
				t.Fatalf("Red at %v with %d points, want %v with %d", m.at[0], m.points[0], c.end, c.points)
			}
		})
	}
}

func TestFaults(t *testing.T) {
	timeout := &game.Fault{Kind: game.Timeout, Turn: 1, Detail: "no answer after 30000 ms CPU"}
	cases := []struct {
		name  string
		reply game.Reply
		kind  game.FaultKind
	}{
		{"257 letters", line(strings.Repeat("F", 257)), game.IllegalMove},
		{"empty line", line(""), game.IllegalMove},
		{"only spaces", line("   "), game.IllegalMove},
		{"other letter", line("FFX"), game.Protocol},
		{"lower case", line("ff"), game.Protocol},
		{"space inside", line("F F"), game.Protocol},
		{"control byte", line("F\x00"), game.Protocol},
		{"not ASCII", line("FÄ"), game.Protocol},
		{"invalid UTF-8", line("F\xff\xfe"), game.Protocol},
		{"no line", game.Reply{}, game.Protocol},
		{"timeout from the referee", game.Reply{Fault: timeout}, game.Timeout},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := onComb(t, at(5, 5, east), at(20, 20, west), map[string]string{"turns": "3"})
			m.Next()
			f := m.Reply(c.reply)
			if f == nil || f.Kind != c.kind || f.Turn != 1 || f.Detail == "" {
				t.Fatalf("fault %+v, want kind %s at turn 1", f, c.kind)
			}
			if c.reply.Fault != nil && f != c.reply.Fault {
				t.Fatal("the referee's fault is not returned as is")
			}
			// The jury plays T for Red from this turn on; Blue plays all its turns.
			var redAt []place
			reqs, _ := play(t, m, [2]bot{nil, func(m *match, _ game.Request) game.Reply {
				redAt = append(redAt, m.at[0])
				return line("F")
			}})
			if len(reqs) != 3 {
				t.Fatalf("%d requests after the fault, want Blue's 3", len(reqs))
			}
			if want := []place{at(5, 4, west), at(5, 5, east), at(5, 4, west)}; !reflect.DeepEqual(redAt, want) {
				t.Fatalf("Red moved %v, want back and forth %v", redAt, want)
			}
			res := m.Result()
			if res.Scores[0] != 0 || res.Faults[0] != f || res.Faults[1] != nil || res.Winner == nil || *res.Winner != 1 {
				t.Fatalf("result %+v", res)
			}
		})
	}
	// A fault's detail names the offending character readably.
	_, f := parseMove([]string{"FRÄ"}, 7)
	if f.Turn != 7 || !strings.Contains(f.Detail, `'Ä'`) || !strings.Contains(f.Detail, "position 3") {
		t.Errorf("detail %q", f.Detail)
	}
}

func TestSuddenDeath(t *testing.T) {
	t.Run("Red ends on Blue knowing every square", func(t *testing.T) {
		m := onComb(t, at(5, 5, east), at(5, 7, west), nil)
		allDiscovered(m, 0)
		m.points[0] = 300
		reqs, _ := play(t, m, [2]bot{answer("FF"), answer("T")})
		if len(reqs) != 2 || reqs[1] != (game.Request{Player: 1, Turn: 1, Send: "Quit\n"}) {
			t.Fatalf("requests %+v, want Red's turn and Blue's Quit", reqs)
		}
		res := m.Result()
		if !reflect.DeepEqual(res.Scores, []float64{596, 0}) || *res.Winner != 0 {
			t.Fatalf("result %+v, want (300-2)*2 to 0", res)
		}
	})
	t.Run("on the last turn nobody is left to tell", func(t *testing.T) {
		m := onComb(t, at(5, 5, east), at(5, 8, west), map[string]string{"turns": "1"})
		allDiscovered(m, 1)
		m.points[1] = 100
		reqs, _ := play(t, m, [2]bot{answer("F"), answer("FF")})
		if len(reqs) != 2 {
			t.Fatalf("requests %+v, want one turn each and no Quit", reqs)
		}
		if res := m.Result(); !reflect.DeepEqual(res.Scores, []float64{0, 196}) {
			t.Fatalf("scores %v", res.Scores)
		}
	})
	t.Run("a faulted opponent gets no Quit", func(t *testing.T) {
		m := onComb(t, at(5, 5, east), at(5, 9, west), nil)
		allDiscovered(m, 0)
		m.points[0] = 300
		reqs, _ := play(t, m, [2]bot{script("F", "FFFF"), func(*match, game.Request) game.Reply {
			return game.Reply{Fault: &game.Fault{Kind: game.Crash, Turn: 1}}
		}})
		if len(reqs) != 3 {
			t.Fatalf("%d requests, want Red, Blue, Red", len(reqs))
		}
		if res := m.Result(); !reflect.DeepEqual(res.Scores, []float64{590, 0}) {
			t.Fatalf("scores %v", res.Scores)
		}
	})
	t.Run("a faulted player's jury moves take nothing", func(t *testing.T) {
		m := onComb(t, at(5, 5, east), at(5, 7, west), map[string]string{"turns": "3"})
		allDiscovered(m, 0)
		// Red faults at once and its jury T takes it to (5,4); Blue walks to (5,5), where
		// the next jury T brings Red, knowing every square: no sudden death.
		reqs, _ := play(t, m, [2]bot{answer("?"), script("FF", "F", "F")})
		if len(reqs) != 4 || m.points[1] <= 0 {
			t.Fatalf("%d requests, Blue's points %d: want Red's and Blue's 3", len(reqs), m.points[1])
		}
	})
}

// A bot that knows the maze explores it all, then walks onto its opponent.
func TestSuddenDeathPlayed(t *testing.T) {
	m := start(t, 3, nil)
	var before, cost int
	explorer := func(m *match, req game.Request) game.Reply {
		p := req.Player
		k := &m.know[p]
		cur := m.at[p]
		seen := k.disc
		target := func(s int) bool { return !seen[s] }
		if k.count == numSquares {
			target = func(s int) bool { return s == m.at[1-p].sq }
		}
		var moves []byte
		for len(moves) < maxLine {
			path := shortest(m.maze, cur.sq, target)
			if len(path) == 0 {
				break
			}
			for _, d := range path[:min(len(path), maxLine-len(moves))] {
				moves = append(moves, letter(cur.dir, d))
				cur = place{neighbour(cur.sq, d), d}
				seen[cur.sq] = true
			}
			if k.count == numSquares {
				break
			}
		}
		if len(moves) == 0 {
			moves = []byte{'T'}
		}
		before, cost = m.points[p], len(moves)
		return line(string(moves))
	}
	reqs, faults := play(t, m, [2]bot{explorer, answer("T")})
	last := reqs[len(reqs)-1]
	if last.Player != 1 || last.Send != "Quit\n" || last.Expect != 0 || faults != [2]*game.Fault{} {
		t.Fatalf("last request %+v, faults %v: want Blue's Quit", last, faults)
	}
	if len(reqs) > 2*turnsOpt.Default {
		t.Fatalf("%d requests", len(reqs))
	}
	res := m.Result()
	if want := float64(min(2*(before-cost), maxScore)); res.Scores[0] != want || res.Scores[1] != 0 {
		t.Fatalf("scores %v, want %v to 0", res.Scores, want)
	}
	t.Logf("sudden death at Red's turn %d, points %d", m.played[0], m.points[0])
}

// shortest is the directions of a shortest path from s to the nearest square that is a
// target, or nil.
func shortest(mz *Maze, s int, target func(int) bool) []dir {
	var from [numSquares]int
	var how [numSquares]dir
	for i := range from {
		from[i] = -1
	}
	from[s] = s
	queue := []int{s}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		if q != s && target(q) {
			var path []dir
			for ; q != s; q = from[q] {
				path = append([]dir{how[q]}, path...)
			}
			return path
		}
		for d := north; d <= west; d++ {
			if n := neighbour(q, d); n >= 0 && from[n] < 0 && !mz.wallAt(q, d) {
				from[n], how[n] = q, d
				queue = append(queue, n)
			}
		}
	}
	return nil
}

// letter is the move letter that steps towards d when facing f.
func letter(f, d dir) byte {
	switch d {
	case f:
		return 'F'
	case f.back():
		return 'T'
	case f.right():
		return 'R'
	}
	return 'L'
}

func TestScoreClamp(t *testing.T) {
	m := onComb(t, at(5, 5, east), at(20, 20, west), map[string]string{"turns": "1"})
	m.points[0] = 5000
	play(t, m, [2]bot{answer("F"), answer("F")})
	if res := m.Result(); res.Scores[0] != 1000 || res.Scores[1] != 53 {
		t.Fatalf("scores %v, want 1000 and 53", res.Scores)
	}
	m = onComb(t, at(5, 5, east), at(20, 20, west), map[string]string{"turns": "1"})
	play(t, m, [2]bot{answer(strings.Repeat("R", 256)), answer("F")})
	if res := m.Result(); m.points[0] != 54-256 || res.Scores[0] != 0 || res.Faults[0] != nil || *res.Winner != 1 {
		t.Fatalf("points %d, result %+v", m.points[0], res)
	}
}

func TestTimeBudget(t *testing.T) {
	m := onComb(t, at(5, 5, east), at(20, 20, west), map[string]string{"time": "10s"})
	var limits []time.Duration
	cpu := []time.Duration{3 * time.Second, 10 * time.Second, time.Second, 0}
	for i := range cpu {
		req, _ := m.Next()
		limits = append(limits, req.Limit)
		m.Reply(game.Reply{Lines: []string{"F"}, CPU: cpu[i]})
	}
	req, _ := m.Next()
	limits = append(limits, req.Limit)
	// Red 10, Blue 10, Red 7, Blue used up (never 0: that would mean no limit), Red 6.
	want := []time.Duration{10 * time.Second, 10 * time.Second, 7 * time.Second, time.Nanosecond, 6 * time.Second}
	if !reflect.DeepEqual(limits, want) {
		t.Fatalf("limits %v, want %v", limits, want)
	}
}

// wallFollower keeps a wall on its right, using only the corridor lines; every fifth
// turn it prefers its left so that it does not circle an island forever.
func wallFollower(_ *match, req game.Request) game.Reply {
	lines := strings.Split(strings.TrimSuffix(req.Send, "\n"), "\n")
	if lines[0] == "Start" {
		lines = lines[1:]
	}
	order := []int{1, 0, 3, 2}
	if req.Turn%5 == 0 {
		order = []int{3, 0, 1, 2}
	}
	for _, d := range order {
		if lines[d] != "W" {
			return line("FRTL"[d : d+1])
		}
	}
	return line("T")
}

func TestFullGame(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		for name, b := range map[string]bot{"wall follower": wallFollower, "always F": answer("F")} {
			m := start(t, seed, nil)
			reqs, faults := play(t, m, [2]bot{b, b})
			if len(reqs) != 2*turnsOpt.Default || faults != [2]*game.Fault{} {
				t.Fatalf("seed %d, %s: %d requests, faults %v", seed, name, len(reqs), faults)
			}
			for i, r := range reqs {
				if r.Player != i%2 || r.Turn != i/2+1 || r.Expect != 1 || strings.HasPrefix(r.Send, "Start\n") != (i == 0) {
					t.Fatalf("seed %d, %s: request %d is %+v", seed, name, i, r)
				}
				if n := strings.Count(r.Send, "\n"); n != 5+btoi(i == 0) {
					t.Fatalf("seed %d, %s: request %d has %d lines", seed, name, i, n)
				}
			}
			res := m.Result()
			for p, s := range res.Scores {
				if s < 0 || s > maxScore || s != float64(min(max(m.points[p], 0), maxScore)) {
					t.Fatalf("seed %d, %s: scores %v for points %v", seed, name, res.Scores, m.points)
				}
			}
			if name == "wall follower" && res.Scores[0]+res.Scores[1] == 0 {
				t.Fatalf("seed %d: a wall follower scored nothing: %v", seed, m.points)
			}
			t.Logf("seed %d, %s: points %v, squares %d %d", seed, name, m.points, m.know[0].count, m.know[1].count)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestDeterminism(t *testing.T) {
	run := func(seed uint64) ([]game.Request, game.Result, any) {
		m := start(t, seed, nil)
		reqs, _ := play(t, m, [2]bot{wallFollower, wallFollower})
		return reqs, m.Result(), m.Setup().World
	}
	r1, res1, w1 := run(42)
	r2, res2, w2 := run(42)
	if !reflect.DeepEqual(r1, r2) || !reflect.DeepEqual(res1, res2) || !reflect.DeepEqual(w1, w2) {
		t.Fatal("the same seed played differently")
	}
	if _, _, w3 := run(43); reflect.DeepEqual(w1, w3) {
		t.Fatal("seeds 42 and 43 gave the same maze")
	}
}

// Bots are hostile: whatever they write, the match must neither panic nor ask a
// faulted bot again, and must end.
func TestHostileBots(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	junk := func(*match, game.Request) game.Reply {
		var b []byte
		n := rng.IntN(300)
		if rng.IntN(4) == 0 {
			n = 1000 + rng.IntN(5000)
		}
		for range n {
			if rng.IntN(10) < 8 {
				b = append(b, "FTLR"[rng.IntN(4)])
			} else {
				b = append(b, byte(rng.IntN(256)))
			}
		}
		r := game.Reply{CPU: time.Duration(rng.IntN(int(time.Second)))}
		switch rng.IntN(6) {
		case 0:
		case 1:
			r.Lines = []string{string(b), "extra"}
		default:
			r.Lines = []string{string(b)}
		}
		return r
	}
	for seed := uint64(0); seed < 50; seed++ {
		m := start(t, seed, map[string]string{"turns": "20"})
		_, faults := play(t, m, [2]bot{junk, junk})
		res := m.Result()
		for p := range 2 {
			if (faults[p] != nil) != (res.Faults[p] != nil) || (faults[p] != nil && res.Scores[p] != 0) {
				t.Fatalf("seed %d: faults %v, result %+v", seed, faults, res)
			}
		}
	}
}

// TestAnswerWhitespace: surrounding ASCII whitespace (spaces, tabs, "\r", "\v", "\f") around
// a move line is ignored, as game.TrimLine says; a Unicode space such as U+00A0 or U+2003 is
// part of the answer, so the line holds a character other than F T L R: a protocol fault.
func TestAnswerWhitespace(t *testing.T) {
	cases := []struct {
		name   string
		line   string
		end    place // Red's place after its turn, when accepted
		points int   // Red's points after its turn, when accepted
		fault  game.FaultKind
	}{
		{"plain", "FF", at(5, 7, east), 54 - 2, ""},
		{"spaces, tabs and a trailing CR", " \t FF\t \r", at(5, 7, east), 54 - 2, ""},
		{"a trailing CR only", "FF\r", at(5, 7, east), 54 - 2, ""},
		{"vertical tab and form feed", "\v\fFF\f\v", at(5, 7, east), 54 - 2, ""},
		{"one letter with a CR", "F\r", at(5, 6, east), 54 - 1, ""},
		{"no-break spaces around", "\u00a0FF\u00a0", place{}, 0, game.Protocol},
		{"a no-break space after", "FF\u00a0", place{}, 0, game.Protocol},
		{"an em space before", "\u2003FF", place{}, 0, game.Protocol},
		{"a next-line character after", "FF\u0085", place{}, 0, game.Protocol},
		{"only a no-break space", "\u00a0", place{}, 0, game.Protocol},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := onComb(t, at(5, 5, east), at(20, 20, west), nil)
			m.Next()
			f := m.Reply(line(c.line))
			if c.fault == "" {
				if f != nil {
					t.Fatalf("%q judged %v", c.line, f)
				}
				if m.at[0] != c.end || m.points[0] != c.points {
					t.Fatalf("%q: Red at %v with %d points, want %v with %d", c.line, m.at[0], m.points[0], c.end, c.points)
				}
				return
			}
			if f == nil || f.Kind != c.fault || f.Turn != 1 || !strings.Contains(f.Detail, "is not one of F T L R") {
				t.Fatalf("%q: fault %+v, want %s naming the character", c.line, f, c.fault)
			}
			if res := m.Result(); res.Faults[0] != f || res.Scores[0] != 0 {
				t.Fatalf("%q: result %+v", c.line, res)
			}
		})
	}
}
