package ontherun

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
)

// The in-test bots play random legal moves, knowing only what a real bot knows: connect.txt
// and the lines they are sent. They fail the test when those lines break the protocol.

type fugitiveBot struct {
	t     *testing.T
	r     *rand.Rand
	m     *worldMap
	in    []string // lines sent and not yet read
	role  bool
	pos   int
	dets  []int
	quits int
}

func (b *fugitiveBot) read() string {
	b.t.Helper()
	if len(b.in) == 0 {
		b.t.Fatal("fugitive: reading past its input")
	}
	l := b.in[0]
	b.in = b.in[1:]
	return l
}

func (b *fugitiveBot) number() int {
	b.t.Helper()
	l := b.read()
	c, err := strconv.Atoi(l)
	if err != nil || !b.m.city(c) {
		b.t.Fatalf("fugitive: %q is no city", l)
	}
	return c
}

// take reads what it was sent; when asked, it answers.
func (b *fugitiveBot) take(req game.Request) []string {
	b.t.Helper()
	b.in = append(b.in, splitLines(b.t, req.Send)...)
	if !b.role {
		if b.read() != "Fugitive" {
			b.t.Fatal("fugitive: no role line")
		}
		b.role = true
	}
	if len(b.in) > 0 && b.in[0] == "Quit" {
		b.read()
		b.quits++
		return nil
	}
	if req.Expect == 0 {
		return nil
	}
	if req.Turn == 0 || req.Turn > 1 {
		b.dets = b.dets[:0]
		for range numDetectives {
			b.dets = append(b.dets, b.number())
		}
	}
	if len(b.in) > 0 {
		b.t.Fatalf("fugitive: unread input %q", b.in)
	}
	if req.Turn == 0 {
		for {
			c := 1 + b.r.IntN(b.m.n)
			if !slices.Contains(b.dets, c) {
				b.pos = c
				return []string{strconv.Itoa(c)}
			}
		}
	}
	// Prefer a city with no detective next to it, then one without a detective, then any.
	type move struct {
		kind transport
		to   int
	}
	var safe, free, all []move
	for k := range numTransports {
		for _, c := range b.m.nbrs[k][b.pos] {
			mv := move{k, c}
			all = append(all, mv)
			if slices.Contains(b.dets, c) {
				continue
			}
			free = append(free, mv)
			if !slices.ContainsFunc(b.dets, func(d int) bool { return b.m.adjacent(d, c) }) {
				safe = append(safe, mv)
			}
		}
	}
	pick := all
	if len(safe) > 0 && b.r.IntN(4) > 0 {
		pick = safe
	} else if len(free) > 0 {
		pick = free
	}
	mv := pick[b.r.IntN(len(pick))]
	b.pos = mv.to
	return []string{mv.kind.letter() + " " + strconv.Itoa(mv.to)}
}

type detectivesBot struct {
	t        *testing.T
	r        *rand.Rand
	m        *worldMap
	in       []string
	role     bool
	dets     []int
	possible map[int]bool // where the Fugitive may be
	quits    int
}

func (b *detectivesBot) read() string {
	b.t.Helper()
	if len(b.in) == 0 {
		b.t.Fatal("detectives: reading past their input")
	}
	l := b.in[0]
	b.in = b.in[1:]
	return l
}

func (b *detectivesBot) take(req game.Request) []string {
	b.t.Helper()
	b.in = append(b.in, splitLines(b.t, req.Send)...)
	if !b.role {
		if b.read() != "Detectives" {
			b.t.Fatal("detectives: no role line")
		}
		b.role = true
		var out []string
		for _, k := range b.r.Perm(b.m.n)[:numDetectives] {
			b.dets = append(b.dets, k+1)
			out = append(out, strconv.Itoa(k+1))
		}
		return out
	}
	if len(b.in) > 0 && b.in[0] == "Quit" {
		b.read()
		b.quits++
		return nil
	}
	if req.Expect == 0 {
		// The Fugitive's start city.
		c, err := strconv.Atoi(b.read())
		if err != nil || !b.m.city(c) || req.Turn != 0 {
			b.t.Fatalf("detectives: bad start notice %q", req.Send)
		}
		b.possible = map[int]bool{c: true}
		return nil
	}
	f := strings.Fields(b.read())
	kind, ok := transport(0), false
	if len(f) >= 1 {
		kind, ok = transportOf(f[0])
	}
	announced := req.Turn%turnsPerRound == 0
	if !ok || (len(f) == 2) != announced || len(f) > 2 || len(b.in) > 0 {
		b.t.Fatalf("detectives: bad turn %d input %q", req.Turn, req.Send)
	}
	next := map[int]bool{}
	for c := range b.possible {
		for _, d := range b.m.nbrs[kind][c] {
			if !slices.Contains(b.dets, d) {
				next[d] = true
			}
		}
	}
	if announced {
		c, err := strconv.Atoi(f[1])
		if err != nil || !next[c] {
			b.t.Fatalf("detectives: announced %q is not where the Fugitive can be (%v)", f[1], next)
		}
		next = map[int]bool{c: true}
	}
	b.possible = next
	moves := b.assign(0, map[int]bool{})
	if moves == nil {
		b.t.Fatalf("detectives: no legal move from %v", b.dets)
	}
	b.dets = moves
	var out []string
	for _, c := range moves {
		out = append(out, strconv.Itoa(c))
		delete(b.possible, c)
	}
	return out
}

// assign finds distinct moves for detectives k.., trying the Fugitive's possible cities first.
func (b *detectivesBot) assign(k int, taken map[int]bool) []int {
	if k == numDetectives {
		return []int{}
	}
	var options []int
	for t := range numTransports {
		for _, c := range b.m.nbrs[t][b.dets[k]] {
			if !taken[c] && !slices.Contains(options, c) {
				options = append(options, c)
			}
		}
	}
	b.r.Shuffle(len(options), func(i, j int) { options[i], options[j] = options[j], options[i] })
	slices.SortStableFunc(options, func(x, y int) int {
		return boolRank(b.possible[y]) - boolRank(b.possible[x])
	})
	for _, c := range options {
		taken[c] = true
		if rest := b.assign(k+1, taken); rest != nil {
			return append([]int{c}, rest...)
		}
		delete(taken, c)
	}
	return nil
}

func boolRank(v bool) int {
	if v {
		return 1
	}
	return 0
}

func splitLines(t *testing.T, s string) []string {
	t.Helper()
	if s == "" {
		return nil
	}
	if !strings.HasSuffix(s, "\n") {
		t.Fatalf("send %q is not complete lines", s)
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// playBots plays one match with the random bots; it returns the transcript and the result.
func playBots(t *testing.T, seed uint64, opts map[string]string) (string, game.Result, *match) {
	t.Helper()
	m := gametest.Match[*match](t, New(), game.Config{Seed: seed, Options: opts})
	s := m.Setup()
	var maps [2]*worldMap
	for p := range 2 {
		var err error
		if maps[p], err = parseMap(string(s.Files[p]["connect.txt"])); err != nil {
			t.Fatalf("player %d connect.txt: %v", p, err)
		}
	}
	r := game.NewRand(seed + 1)
	fb := &fugitiveBot{t: t, r: r, m: maps[fugitive]}
	db := &detectivesBot{t: t, r: r, m: maps[detectives]}
	var b strings.Builder
	for range 1000 {
		req, done := m.Next()
		if done {
			break
		}
		var lines []string
		if req.Player == fugitive {
			lines = fb.take(req)
		} else {
			lines = db.take(req)
		}
		if len(lines) != req.Expect {
			t.Fatalf("bot %d answered %d lines to %+v", req.Player, len(lines), req)
		}
		fmt.Fprintf(&b, "%d/%d %q -> %q\n", req.Player, req.Turn, req.Send, lines)
		if f := m.Reply(game.Reply{Lines: lines}); f != nil {
			t.Fatalf("seed %d: legal move judged a fault: %v\n%s", seed, f, b.String())
		}
	}
	if _, done := m.Next(); !done {
		t.Fatal("the game did not end")
	}
	res := m.Result()
	if res.Scores[0]+res.Scores[1] != totalPoints || res.Faults[0] != nil || res.Faults[1] != nil {
		t.Fatalf("seed %d: result %+v", seed, res)
	}
	// Quit is told exactly when the game ends before its last turn.
	wantQuits := 1
	if res.Scores[0] == totalPoints {
		wantQuits = 0
	}
	if fb.quits != wantQuits || db.quits != wantQuits {
		t.Errorf("seed %d: quits %d %d, want %d (%s)", seed, fb.quits, db.quits, wantQuits, m.ending)
	}
	return b.String(), res, m
}

func TestRandomGames(t *testing.T) {
	seeds := 60
	if testing.Short() {
		seeds = 10
	}
	endings := map[string]int{}
	for seed := range uint64(seeds) {
		opts := map[string]string{"cities": strconv.Itoa(10 + int(seed*37%191))}
		if seed%5 == 0 {
			opts = nil // the default 200 cities
		}
		_, res, m := playBots(t, seed, opts)
		switch {
		case res.Scores[0] == totalPoints:
			endings["escape"]++
		case strings.Contains(m.ending, "moved onto"):
			endings["walked in"]++
		default:
			endings["caught"]++
		}
	}
	t.Logf("endings over %d games: %v", seeds, endings)
	if endings["caught"] == 0 || endings["escape"] == 0 {
		t.Errorf("the bots never reached some endings: %v", endings)
	}
}

// TestDeterminism: the same seed gives the same map and the same requests; another seed not.
func TestDeterminism(t *testing.T) {
	a, resA, mA := playBots(t, 77, nil)
	b, resB, mB := playBots(t, 77, nil)
	if a != b || !slices.Equal(resA.Scores, resB.Scores) {
		t.Error("the same seed played two different games")
	}
	if string(mA.world.connectTxt()) != string(mB.world.connectTxt()) {
		t.Error("the same seed made two maps")
	}
	c, _, mC := playBots(t, 78, nil)
	if string(mA.world.connectTxt()) == string(mC.world.connectTxt()) || a == c {
		t.Error("two seeds made the same game")
	}
}

// FuzzAnswersMidGame feeds arbitrary lines at every stage of a game: the match must judge them
// (accept or fault) without panicking, and a faulty game must end.
func FuzzAnswersMidGame(f *testing.F) {
	for _, s := range []string{"", "C 2", "3", "\x00", "P 99999999999999999999", "C -0", "+2", "T\t3", "٣", "C 2\r", strings.Repeat("9", 500)} {
		for stage := range 8 {
			f.Add(uint8(stage), s, s)
		}
	}
	f.Fuzz(func(t *testing.T, stage uint8, a, b string) {
		m := exampleMatch(t)
		k := 0
		for range 300 {
			req, done := m.Next()
			if done {
				return
			}
			r := script{catchTurn: 40}.answer(req)
			if req.Expect == 0 {
				r = game.Reply{}
			} else if k++; k == int(stage%8)+1 {
				r.Lines = append([]string{a, b}[:min(2, req.Expect)], r.Lines[min(2, len(r.Lines)):]...)
			}
			m.Reply(r)
		}
		t.Fatal("the game did not end")
	})
}
