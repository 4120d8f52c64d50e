package langwars

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
)

func lines(l ...string) game.Reply { return game.Reply{Lines: l, CPU: time.Millisecond} }

// readyOr answers READY requests with READY and turn requests with turn(req).
func readyOr(turn func(game.Request) game.Reply) func(game.Request) game.Reply {
	return func(req game.Request) game.Reply {
		if req.Ready != "" {
			return lines("READY")
		}
		return turn(req)
	}
}

// constant makes every player p pick language p on every pick.
func constant(req game.Request) game.Reply {
	d := strings.Repeat(" "+strconv.Itoa(req.Player), picksOf(req.Turn))
	return lines(d[1:])
}

// The conformance suite, with the page's defaults: 10 turns.
func TestConformance(t *testing.T) {
	gametest.Conformance(t, New(), gametest.Case{Words: []string{"0", "1", "2", "3", "4", "5", "6", "7", "0 1 2 3 4", "7 7"}, Defaults: "turns=10 time=1s ready=5s memory=256"})
}

func FuzzAnswers(f *testing.F) { gametest.FuzzAnswers(f, New(), "1 2 3 4 5", "0 0", "8") }

func TestOptions(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 1})
	s := m.Setup()
	want := map[string]string{"turns": "10", "time": "1s", "ready": "5s", "memory": "256"}
	if !reflect.DeepEqual(s.Options, want) {
		t.Errorf("options %v, want %v", s.Options, want)
	}
	if s.Memory != 256<<20 {
		t.Errorf("memory %d", s.Memory)
	}
	if s.Files != nil {
		t.Errorf("files %v", s.Files)
	}

	m = gametest.Match[*match](t, New(), game.Config{Seed: 1, Options: map[string]string{"turns": "3", "time": "250ms", "ready": "2s", "memory": "64"}})
	s = m.Setup()
	if s.Memory != 64<<20 || s.Options["turns"] != "3" || s.Options["time"] != "250ms" || s.Options["ready"] != "2s" {
		t.Errorf("setup %+v", s)
	}
	var turns []int
	for _, x := range gametest.Drive(t, m, readyOr(constant)) {
		switch {
		case x.Request.Ready != "":
			if x.Request.Limit != 2*time.Second {
				t.Errorf("READY limit %v", x.Request.Limit)
			}
		case x.Request.Expect == 1:
			if x.Request.Limit != 250*time.Millisecond {
				t.Errorf("turn %d limit %v", x.Request.Turn, x.Request.Limit)
			}
			if x.Request.Player == 0 {
				turns = append(turns, x.Request.Turn)
			}
		}
	}
	if !slices.Equal(turns, []int{1, 2, 3}) {
		t.Errorf("turns played %v", turns)
	}

	// Setup.Options recreate the match; changing the returned setup changes nothing.
	s.Options["turns"] = "9"
	if m.Setup().Options["turns"] != "3" {
		t.Error("Setup returned the match's own options map")
	}

	for _, bad := range []map[string]string{
		{"turns": "0"}, {"turns": "101"}, {"turns": "ten"}, {"time": "0s"}, {"time": "1"},
		{"time": "2m"}, {"ready": "5ms"}, {"memory": "8"}, {"memory": "5000"}, {"colour": "red"},
	} {
		_, err := New().New(game.Config{Seed: 1, Players: 4, Options: bad})
		var oe *game.OptionError
		if !errors.As(err, &oe) {
			t.Errorf("options %v: %v, want an option error", bad, err)
		}
	}
}

func TestSetupWorldAndDeterminism(t *testing.T) {
	seen := map[int]bool{}
	differs := false
	first := gametest.Match[*match](t, New(), game.Config{Seed: 0}).attention
	for seed := range uint64(200) {
		a := gametest.Match[*match](t, New(), game.Config{Seed: seed})
		b := gametest.Match[*match](t, New(), game.Config{Seed: seed, Options: map[string]string{"time": "2s"}})
		if a.attention != b.attention {
			t.Fatalf("seed %d: attention %v then %v", seed, a.attention, b.attention)
		}
		if a.attention != first {
			differs = true
		}
		for _, v := range a.attention {
			if v < 3 || v > 6 {
				t.Fatalf("seed %d: attention %v out of 3..6", seed, a.attention)
			}
			seen[v] = true
		}
		w, ok := a.Setup().World.(World)
		if !ok || !slices.Equal(w.Attention, a.attention[:]) {
			t.Fatalf("world %#v, attention %v", a.Setup().World, a.attention)
		}
	}
	if len(seen) != 4 || !differs {
		t.Errorf("attention values seen %v; seeds differ: %v", seen, differs)
	}
	j, err := json.Marshal(gametest.Match[*match](t, New(), game.Config{Seed: 5}).Setup().World)
	if err != nil || !strings.HasPrefix(string(j), `{"attention":[`) {
		t.Errorf("world JSON %s %v", j, err)
	}

	// The same seed and answers give the same transcript and result.
	play := func() ([]gametest.Exchange, game.Result) {
		m := gametest.Match[*match](t, New(), game.Config{Seed: 77})
		r := rand.New(rand.NewPCG(1, 2))
		log := gametest.Drive(t, m, readyOr(func(req game.Request) game.Reply {
			return lines(randomPicks(r, picksOf(req.Turn)))
		}))
		return log, m.Result()
	}
	log1, res1 := play()
	log2, res2 := play()
	if !reflect.DeepEqual(log1, log2) || !reflect.DeepEqual(res1, res2) {
		t.Error("the same seed and answers played differently")
	}
}

func randomPicks(r *rand.Rand, n int) string {
	f := make([]string, n)
	for i := range f {
		f[i] = strconv.Itoa(r.IntN(numLangs))
	}
	return strings.Join(f, " ")
}

// TestTranscript plays three turns (workday, holiday, workday) with fixed picks and checks
// every request and the exact text of several.
func TestTranscript(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 3, Options: map[string]string{"turns": "3"}})
	picks := map[string]string{
		"0/1": "0 0 1 2 3", "1/1": "1 1 1 1 1", "2/1": "7 6 5 4 3", "3/1": "2 2 2 0 0",
		"0/2": "4 4", "1/2": "5 6", "2/2": "7 7", "3/2": "4 0",
		"0/3": "0 0 0 0 0", "1/3": "1 1 1 1 1", "2/3": "2 2 2 2 2", "3/3": "3 3 3 3 3",
	}
	log := gametest.Drive(t, m, readyOr(func(req game.Request) game.Reply {
		return lines(picks[fmt.Sprintf("%d/%d", req.Player, req.Turn)])
	}))
	var att []string
	for _, a := range m.attention {
		att = append(att, strconv.Itoa(a))
	}
	settings := "3 4 8\n" + strings.Join(att, " ") + "\n"
	var got []string
	for _, x := range log {
		if x.Verdict != nil {
			t.Errorf("fault %v", x.Verdict)
		}
		got = append(got, fmt.Sprintf("p%d t%d expect %d ready %q limit %v", x.Request.Player, x.Request.Turn, x.Request.Expect, x.Request.Ready, x.Request.Limit))
	}
	var want []string
	for p := range 4 {
		want = append(want, fmt.Sprintf("p%d t0 expect 0 ready \"READY\" limit 5s", p))
	}
	for p := range 4 {
		want = append(want, fmt.Sprintf("p%d t0 expect 0 ready \"\" limit 0s", p))
	}
	for turn := 1; turn <= 3; turn++ {
		for p := range 4 {
			want = append(want, fmt.Sprintf("p%d t%d expect 1 ready \"\" limit 1s", p, turn))
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for p := range 4 {
		if log[p].Request.Send != "" {
			t.Errorf("READY request to %d sends %q", p, log[p].Request.Send)
		}
		if log[4+p].Request.Send != settings {
			t.Errorf("settings to %d: %q, want %q", p, log[4+p].Request.Send, settings)
		}
	}
	zeros := strings.Repeat("0 0 0 0\n", 8) + "0 0 0 0 0 0 0 0\n"
	sends := map[string]string{
		// Turn 1: nothing yet; the P line is all zeros.
		"3/1": "1 W\n" + zeros + "0 0 0 0 0 0 0 0\n",
		// Turn 2, a holiday, to player 1: columns 1, 0, 2, 3; no P line.
		"1/2": "2 H\n" +
			"0 2 0 2\n" + // language 0: player 0 twice, player 3 twice
			"5 1 0 0\n" +
			"0 1 0 3\n" +
			"0 1 1 0\n" +
			"0 0 1 0\n" +
			"0 0 1 0\n" +
			"0 0 1 0\n" +
			"0 0 1 0\n" +
			"0 5 0 0 0 0 0 0\n",
		// Turn 3, a workday, to player 2: columns 2, 0, 1, 3. The holiday's picks are not
		// revealed, but count in the real line and make the P line.
		"2/3": "3 W\n" +
			"0 2 0 2\n" +
			"0 1 5 0\n" +
			"0 1 0 3\n" +
			"1 1 0 0\n" +
			"1 0 0 0\n" +
			"1 0 0 0\n" +
			"1 0 0 0\n" +
			"1 0 0 0\n" +
			"0 0 0 1 1 1 1 3\n" +
			"1 0 0 0 3 1 1 2\n",
		// Player 0 at turn 3: its real line counts its holiday picks 4 4.
		"0/3": "3 W\n" +
			"2 0 0 2\n" +
			"1 5 0 0\n" +
			"1 0 0 3\n" +
			"1 0 1 0\n" +
			"0 0 1 0\n" +
			"0 0 1 0\n" +
			"0 0 1 0\n" +
			"0 0 1 0\n" +
			"2 1 1 1 2 0 0 0\n" +
			"1 0 0 0 3 1 1 2\n",
	}
	for _, x := range log {
		if want, ok := sends[fmt.Sprintf("%d/%d", x.Request.Player, x.Request.Turn)]; ok && x.Request.Expect == 1 && x.Request.Send != want {
			t.Errorf("player %d turn %d was sent:\n%s\nwant:\n%s", x.Request.Player, x.Request.Turn, x.Request.Send, want)
		}
	}
	wantReal := [numLangs][numPlayers]int{
		{7, 0, 0, 3}, {1, 10, 0, 0}, {1, 0, 5, 3}, {1, 0, 1, 5},
		{2, 0, 1, 1}, {0, 1, 1, 0}, {0, 1, 1, 0}, {0, 0, 3, 0},
	}
	if m.real != wantReal {
		t.Errorf("real believers %v, want %v", m.real, wantReal)
	}
	res := m.Result()
	vp := victoryPoints12(m.attention, wantReal)
	for p := range 4 {
		if res.Scores[p] != float64(vp[p])/12 {
			t.Errorf("player %d score %v, want %v/12", p, res.Scores[p], vp[p])
		}
	}
}

// TestViewsMatchAModel plays random picks and checks, from the players' side, every line they
// are sent against a model kept from the picks alone.
func TestViewsMatchAModel(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 9))
		m := gametest.Match[*match](t, New(), game.Config{Seed: seed})
		var revealed, real [numLangs][numPlayers]int
		var lastHoliday [numLangs]int
		var turnPicks [numPlayers][]int
		lastTurn := 0
		apply := func(turn int) {
			var prop [numLangs]int
			for p, ps := range turnPicks {
				for _, l := range ps {
					real[l][p]++
					if turn%2 == 1 {
						revealed[l][p]++
					}
					prop[l]++
				}
			}
			if turn%2 == 0 {
				lastHoliday = prop
			}
		}
		gametest.Drive(t, m, readyOr(func(req game.Request) game.Reply {
			if req.Turn != lastTurn {
				if lastTurn > 0 {
					apply(lastTurn)
				}
				lastTurn = req.Turn
			}
			p := req.Player
			in := strings.Split(strings.TrimSuffix(req.Send, "\n"), "\n")
			d := "W"
			if req.Turn%2 == 0 {
				d = "H"
			}
			want := []string{fmt.Sprintf("%d %s", req.Turn, d)}
			for l := range numLangs {
				cols := []string{strconv.Itoa(revealed[l][p])}
				for q := range numPlayers {
					if q != p {
						cols = append(cols, strconv.Itoa(revealed[l][q]))
					}
				}
				want = append(want, strings.Join(cols, " "))
			}
			var own, hol []string
			for l := range numLangs {
				own = append(own, strconv.Itoa(real[l][p]))
				hol = append(hol, strconv.Itoa(lastHoliday[l]))
			}
			want = append(want, strings.Join(own, " "))
			if d == "W" {
				want = append(want, strings.Join(hol, " "))
			}
			if !slices.Equal(in, want) {
				t.Fatalf("seed %d: player %d turn %d was sent %q, want %q", seed, p, req.Turn, in, want)
			}
			n := picksOf(req.Turn)
			ps := make([]int, n)
			for i := range ps {
				ps[i] = r.IntN(numLangs)
			}
			turnPicks[p] = ps
			s := make([]string, n)
			for i, l := range ps {
				s[i] = strconv.Itoa(l)
			}
			return lines(strings.Join(s, " "))
		}))
		apply(lastTurn)
		if m.real != real || m.revealed != revealed {
			t.Fatalf("seed %d: the match's counts differ from the model", seed)
		}
	}
}

func TestPickCounts(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 1})
	var wd, hd int
	log := gametest.Drive(t, m, readyOr(func(req game.Request) game.Reply {
		// Ten picks of the player's language every turn: only 5 or 2 count.
		return lines(strings.TrimSpace(strings.Repeat(strconv.Itoa(req.Player)+" ", 10)))
	}))
	for _, x := range log {
		if x.Request.Expect == 1 {
			if workday(x.Request.Turn) {
				wd++
			} else {
				hd++
			}
		}
	}
	if wd != 20 || hd != 20 {
		t.Errorf("%d workday and %d holiday requests", wd, hd)
	}
	for l := range numLangs {
		for p := range numPlayers {
			want, wantRev := 0, 0
			if l == p {
				want, wantRev = 5*5+5*2, 5*5
			}
			if m.real[l][p] != want || m.revealed[l][p] != wantRev {
				t.Errorf("language %d player %d: real %d revealed %d, want %d %d", l, p, m.real[l][p], m.revealed[l][p], want, wantRev)
			}
		}
	}
}

func TestParsePicks(t *testing.T) {
	for _, c := range []struct {
		line string
		n    int
		want []int
	}{
		{"1 2 3 4 5", 5, []int{1, 2, 3, 4, 5}},
		{"  7\t6  5 4 3 \r", 5, []int{7, 6, 5, 4, 3}},
		{"3 5", 2, []int{3, 5}},
		// Not integers.
		{"a 2 3.0 4 x5", 5, []int{0, 2, 0, 4, 0}},
		{"1,2 3", 2, []int{0, 3}},
		// Out of range.
		{"8 -1 99999999999999999999 7 0", 5, []int{0, 0, 0, 7, 0}},
		// Missing picks.
		{"6", 5, []int{6, 0, 0, 0, 0}},
		{"", 2, []int{0, 0}},
		{"   ", 5, []int{0, 0, 0, 0, 0}},
		// Extra picks are ignored.
		{"1 2 3 4 5 6 7", 5, []int{1, 2, 3, 4, 5}},
		{"6 6 6 6 6", 2, []int{6, 6}},
		// Leading zeros and a sign are still integers.
		{"07 +3", 2, []int{7, 3}},
	} {
		if got := parsePicks(c.line, c.n); !slices.Equal(got, c.want) {
			t.Errorf("parsePicks(%q, %d) = %v, want %v", c.line, c.n, got, c.want)
		}
	}
}

// TestLenientAnswersInAMatch: bad answers count as language 0 and are no fault.
func TestLenientAnswersInAMatch(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 4, Options: map[string]string{"turns": "2"}})
	answers := map[string]game.Reply{
		"0/1": lines("x y z"),         // all language 0
		"1/1": lines("1 9"),           // 1, then 0 0 0 0
		"2/1": lines(),                // no line at all: all 0
		"3/1": lines("3 3 3 3 3 3 3"), // five 3s
		"0/2": lines("7 7 7"),         // two 7s
		"1/2": lines("-7 1"),          // 0, 1
		"2/2": lines("2"),             // 2, 0
		"3/2": lines("3.5 3"),         // 0, 3
	}
	for _, x := range gametest.Drive(t, m, readyOr(func(req game.Request) game.Reply {
		return answers[fmt.Sprintf("%d/%d", req.Player, req.Turn)]
	})) {
		if x.Verdict != nil {
			t.Errorf("fault %v", x.Verdict)
		}
	}
	want := [numLangs][numPlayers]int{
		{5, 5, 6, 1}, {0, 2, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 6},
		{}, {}, {}, {2, 0, 0, 0},
	}
	if m.real != want {
		t.Errorf("real %v, want %v", m.real, want)
	}
	if res := m.Result(); slices.ContainsFunc(res.Faults, func(f *game.Fault) bool { return f != nil }) {
		t.Errorf("faults %v", res.Faults)
	}
}

// TestFaultPicksZero: a player that times out, crashes or never prints READY is sent nothing
// more and picks language 0 on every pick from then on, the failed answer's included.
func TestFaultPicksZero(t *testing.T) {
	for _, c := range []struct {
		name string
		kind game.FaultKind
		turn int // 0: at READY
	}{
		{"timeout-at-ready", game.Timeout, 0},
		{"crash-at-ready", game.Crash, 0},
		{"compile-error", game.CompileError, 0},
		{"timeout-turn-1", game.Timeout, 1},
		{"crash-turn-4", game.Crash, 4},
		{"timeout-turn-7", game.Timeout, 7},
		{"memory-turn-10", game.Memory, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			const bad = 2
			m := gametest.Match[*match](t, New(), game.Config{Seed: 11})
			log := gametest.Drive(t, m, func(req game.Request) game.Reply {
				if req.Player == bad && req.Turn == c.turn {
					return game.Reply{Fault: &game.Fault{Kind: c.kind, Turn: req.Turn, Detail: "test"}}
				}
				if req.Ready != "" {
					return lines("READY")
				}
				// Everyone picks language 7 (never 0), so the faulty player's 0s stand out.
				return lines("7 7 7 7 7")
			})
			var sentAfter int
			for i, x := range log {
				if x.Request.Player == bad && x.Verdict != nil {
					if x.Verdict.Kind != c.kind || x.Verdict.Turn != c.turn {
						t.Errorf("verdict %+v", x.Verdict)
					}
					for _, y := range log[i+1:] {
						if y.Request.Player == bad {
							sentAfter++
						}
					}
				}
			}
			if sentAfter != 0 {
				t.Errorf("the stopped player was sent %d more requests", sentAfter)
			}
			// Its real believers: 7s before the fault, then 0s for every later pick.
			var want7, want0 int
			for turn := 1; turn <= 10; turn++ {
				if turn < c.turn {
					want7 += picksOf(turn)
				} else {
					want0 += picksOf(turn)
				}
			}
			if m.real[7][bad] != want7 || m.real[0][bad] != want0 {
				t.Errorf("player %d: %d of language 7 and %d of language 0, want %d and %d", bad, m.real[7][bad], m.real[0][bad], want7, want0)
			}
			// The others still see the stopped player: on a workday, its revealed 0s.
			for _, x := range log {
				if x.Request.Player == 0 && x.Request.Turn == 9 {
					row0 := strings.Split(x.Request.Send, "\n")[1]
					wantRev := 0
					for turn := max(c.turn, 1); turn < 9; turn++ {
						if workday(turn) {
							wantRev += workdayPicks
						}
					}
					if row0 != fmt.Sprintf("0 0 %d 0", wantRev) {
						t.Errorf("player 0 sees language 0 as %q at turn 9, want player 2's %d", row0, wantRev)
					}
				}
			}
			res := m.Result()
			if res.Faults[bad] == nil || res.Faults[bad].Kind != c.kind {
				t.Errorf("faults %v", res.Faults)
			}
			for p, f := range res.Faults {
				if p != bad && f != nil {
					t.Errorf("player %d faulted: %v", p, f)
				}
			}
		})
	}
}

// TestReadyAndSettings: READY is asked of every player first, in id order, with the ready
// limit and nothing sent; the settings follow as notices, to the players still running.
func TestReadyAndSettings(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 6, Options: map[string]string{"ready": "3s"}})
	// Reply with nothing pending changes nothing.
	if f := m.Reply(lines("READY")); f != nil {
		t.Errorf("a reply to nothing: %v", f)
	}
	log := gametest.Drive(t, m, func(req game.Request) game.Reply {
		switch {
		case req.Ready != "" && req.Player == 1:
			return game.Reply{Fault: &game.Fault{Kind: game.Timeout, Turn: 0, Detail: "no READY"}}
		case req.Ready != "":
			return lines("READY")
		}
		return constant(req)
	})
	for p := range 4 {
		x := log[p]
		if x.Request.Player != p || x.Request.Ready != "READY" || x.Request.Limit != 3*time.Second || x.Request.Send != "" || x.Request.Turn != 0 {
			t.Errorf("request %d: %+v", p, x.Request)
		}
	}
	var notices []int
	for _, x := range log[4:] {
		if x.Request.Expect == 0 {
			notices = append(notices, x.Request.Player)
			if !strings.HasPrefix(x.Request.Send, "10 4 8\n") {
				t.Errorf("settings %q", x.Request.Send)
			}
		}
	}
	if !slices.Equal(notices, []int{0, 2, 3}) {
		t.Errorf("settings sent to %v, want 0 2 3", notices)
	}
	if n := len(log); n != 4+3+10*3 {
		t.Errorf("%d exchanges", n)
	}
	if m.real[0][1] != 35 {
		t.Errorf("player 1 gathered %d of language 0, want 35", m.real[0][1])
	}
}

// TestVictoryPoints checks the exact victory points (times 12) per language: the most
// believers gain the attention degree, the fewest lose it, ties share.
func TestVictoryPoints(t *testing.T) {
	one := func(a int, counts [4]int) [4]int {
		var att [numLangs]int
		var real [numLangs][numPlayers]int
		att[0], real[0] = a, counts
		return victoryPoints12(att, real)
	}
	for _, c := range []struct {
		name   string
		a      int
		counts [4]int
		want   [4]int // times 12
	}{
		{"one best one worst", 6, [4]int{3, 2, 1, 0}, [4]int{72, 0, 0, -72}},
		{"two share the top", 6, [4]int{3, 3, 1, 0}, [4]int{36, 36, 0, -72}},
		{"three share the top", 4, [4]int{2, 2, 2, 1}, [4]int{16, 16, 16, -48}},
		{"three share the bottom", 5, [4]int{5, 0, 0, 0}, [4]int{60, -20, -20, -20}},
		{"two share the bottom", 3, [4]int{4, 1, 2, 1}, [4]int{36, -18, 0, -18}},
		{"ties at top and bottom", 3, [4]int{2, 0, 2, 0}, [4]int{18, -18, 18, -18}},
		{"all four equal", 5, [4]int{4, 4, 4, 4}, [4]int{0, 0, 0, 0}},
		{"all four zero", 6, [4]int{}, [4]int{0, 0, 0, 0}},
	} {
		if got := one(c.a, c.counts); got != c.want {
			t.Errorf("%s: attention %d counts %v: %v, want %v", c.name, c.a, c.counts, got, c.want)
		}
	}
	// Shares are exact: 5 split three ways is 20/12, the float nearest 5/3.
	m := gametest.Match[*match](t, New(), game.Config{Seed: 1})
	m.attention = [numLangs]int{5, 3, 3, 3, 3, 3, 3, 3}
	m.real = [numLangs][numPlayers]int{{0, 1, 1, 1}}
	res := m.Result()
	if res.Scores[0] != -5 || res.Scores[1] != 5.0/3 {
		t.Errorf("scores %v", res.Scores)
	}
	if !slices.Equal(res.Ranks, []int{4, 1, 1, 1}) || res.Winner != nil {
		t.Errorf("ranks %v winner %v", res.Ranks, res.Winner)
	}
}

// TestResults: whole results (scores as decimals, ranks, winner or draw) from final counts.
func TestResults(t *testing.T) {
	att := [numLangs]int{6, 5, 4, 3, 3, 4, 5, 6}
	for _, c := range []struct {
		name   string
		real   [numLangs][numPlayers]int
		scores []float64
		ranks  []int
		winner int // -1: draw
	}{
		{
			name: "two share the top score",
			// Language 0: player 0 best, 3 worst; language 1: 1 and 2 share the top, 0 worst;
			// the rest all equal (zero).
			real:   [numLangs][numPlayers]int{{9, 5, 5, 1}, {0, 4, 4, 3}},
			scores: []float64{6 - 5, 2.5, 2.5, -6},
			ranks:  []int{3, 1, 1, 4},
			winner: -1,
		},
		{
			name:   "one winner, the others share the losses",
			real:   [numLangs][numPlayers]int{{3, 0, 0, 0}, {3, 0, 0, 0}},
			scores: []float64{11, -11.0 / 3, -11.0 / 3, -11.0 / 3},
			ranks:  []int{1, 2, 2, 2},
			winner: 0,
		},
		{
			name: "a draw between the two best",
			// Language 7 (6): 2 and 3 share the top, 0 and 1 the bottom; language 6 (5):
			// player 0 best, player 1 worst; language 5 (4): player 1 best, player 0 worst.
			real:   [numLangs][numPlayers]int{5: {0, 3, 1, 1}, 6: {3, 0, 1, 1}, 7: {1, 1, 2, 2}},
			scores: []float64{-3 + 5 - 4, -3 - 5 + 4, 3, 3},
			ranks:  []int{3, 4, 1, 1},
			winner: -1,
		},
		{
			name:   "all four equal",
			real:   [numLangs][numPlayers]int{{2, 2, 2, 2}, {1, 1, 1, 1}},
			scores: []float64{0, 0, 0, 0},
			ranks:  []int{1, 1, 1, 1},
			winner: -1,
		},
		{
			name: "ties at the top and the bottom",
			// Language 0 (6): 0 and 1 best, 2 and 3 worst; language 3 (3): 3 best, 2 worst.
			real:   [numLangs][numPlayers]int{0: {4, 4, 1, 1}, 3: {1, 1, 0, 2}},
			scores: []float64{3, 3, -3 - 3, -3 + 3},
			ranks:  []int{1, 1, 4, 3},
			winner: -1,
		},
	} {
		m := gametest.Match[*match](t, New(), game.Config{Seed: 1})
		m.attention, m.real = att, c.real
		res := m.Result()
		if !slices.Equal(res.Scores, c.scores) || !slices.Equal(res.Ranks, c.ranks) {
			t.Errorf("%s: scores %v ranks %v, want %v %v", c.name, res.Scores, res.Ranks, c.scores, c.ranks)
		}
		switch {
		case c.winner < 0 && res.Winner != nil:
			t.Errorf("%s: winner %d, want a draw", c.name, *res.Winner)
		case c.winner >= 0 && (res.Winner == nil || *res.Winner != c.winner):
			t.Errorf("%s: winner %v, want %d", c.name, res.Winner, c.winner)
		}
		var sum float64
		for _, s := range res.Scores {
			sum += s
		}
		if sum > 1e-9 || sum < -1e-9 {
			t.Errorf("%s: scores sum to %v", c.name, sum)
		}
	}
}

// TestFullGameScore: every player always picks its own language p. Player p then has the
// most of language p alone and shares the bottom of the other three players' languages with
// two others; languages 4..7 are nobody's: all equal, worth nothing.
func TestFullGameScore(t *testing.T) {
	m := gametest.Match[*match](t, New(), game.Config{Seed: 21})
	gametest.Drive(t, m, readyOr(constant))
	res := m.Result()
	a := m.attention
	for p := range 4 {
		vp := 12 * a[p]
		for q := range 4 {
			if q != p {
				vp -= 4 * a[q]
			}
		}
		if res.Scores[p] != float64(vp)/12 {
			t.Errorf("player %d: %v, want %d/12", p, res.Scores[p], vp)
		}
	}
	if res.Ranks == nil || len(res.Faults) != 4 {
		t.Errorf("result %+v", res)
	}
}

// BenchmarkReferee plays a whole match against scripted random answers: the rules alone.
func BenchmarkReferee(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < b.N; i++ {
		g, err := New().New(game.Config{Seed: uint64(i), Players: 4})
		if err != nil {
			b.Fatal(err)
		}
		for {
			req, done := g.Next()
			if done {
				break
			}
			switch {
			case req.Ready != "":
				g.Reply(game.Reply{Lines: []string{"READY"}})
			case req.Expect > 0:
				g.Reply(game.Reply{Lines: []string{randomPicks(r, picksOf(req.Turn))}})
			}
		}
		g.Result()
	}
}

// TestAnswerWhitespace: surrounding ASCII whitespace (spaces, tabs, "\r", "\v", "\f") around
// the picks is ignored and runs of it separate them, as game.TrimLine and game.Fields say; a
// Unicode space such as U+00A0 or U+2003 is part of a pick, which then is no integer and
// counts as language 0 (never a fault).
func TestAnswerWhitespace(t *testing.T) {
	for _, c := range []struct {
		name, line string
		want       []int
	}{
		{"plain", "1 2 3 4 5", []int{1, 2, 3, 4, 5}},
		{"spaces, tabs and a trailing CR", " \t1 2\t3  4 5\t \r", []int{1, 2, 3, 4, 5}},
		{"a trailing CR only", "1 2 3 4 5\r", []int{1, 2, 3, 4, 5}},
		{"vertical tabs and form feeds", "\v1\f2 3\v4 5\f", []int{1, 2, 3, 4, 5}},
		{"no-break spaces around", "\u00a01 2 3 4 5\u00a0", []int{0, 2, 3, 4, 0}},
		{"no-break spaces around, spaced", "\u00a0 1 2 3 4 5 \u00a0", []int{0, 1, 2, 3, 4}},
		{"a no-break space between", "1\u00a02 3 4 5", []int{0, 3, 4, 5, 0}},
		{"an em space before", "\u20031 2 3 4 5", []int{0, 2, 3, 4, 5}},
		{"a next-line character after", "1 2 3 4 5\u0085", []int{1, 2, 3, 4, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := parsePicks(c.line, workdayPicks); !slices.Equal(got, c.want) {
				t.Errorf("parsePicks(%q) = %v, want %v", c.line, got, c.want)
			}
			// Through a match: player 0's picks of turn 1 become its believers; no fault.
			m := gametest.Match[*match](t, New(), game.Config{Seed: 3, Options: map[string]string{"turns": "1"}})
			for _, x := range gametest.Drive(t, m, readyOr(func(req game.Request) game.Reply {
				if req.Player == 0 {
					return lines(c.line)
				}
				return lines("7 7 7 7 7")
			})) {
				if x.Verdict != nil {
					t.Errorf("fault %v", x.Verdict)
				}
			}
			var want [numLangs]int
			for _, l := range c.want {
				want[l]++
			}
			for l := range numLangs {
				if m.real[l][0] != want[l] || m.revealed[l][0] != want[l] {
					t.Errorf("%q: language %d has %d real and %d revealed believers of player 0, want %d", c.line, l, m.real[l][0], m.revealed[l][0], want[l])
				}
			}
		})
	}
}
