package schedule

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// randomRound is a random Swiss situation: n entrants with sparse, shuffled indices, tied
// points, seat and bye records, and a history of the given density (pairs that met meet
// 1 to 3 times, keys in either order).
func randomRound(r *rand.Rand, n int, density float64) ([]Standing, map[[2]int]int) {
	ids := r.Perm(3 * n)[:n]
	st := make([]Standing, n)
	for i := range st {
		st[i] = Standing{Entrant: ids[i], Points: r.IntN(4), TieBreak: r.IntN(2), Seat0: r.IntN(4), Seat1: r.IntN(4), Byes: r.IntN(3)}
	}
	played := map[[2]int]int{}
	for i := range ids {
		for j := i + 1; j < n; j++ {
			if r.Float64() < density {
				a, b := ids[i], ids[j]
				if r.IntN(2) == 0 {
					a, b = b, a
				}
				played[[2]int{a, b}] += 1 + r.IntN(3)
			}
		}
	}
	return st, played
}

// expectSwiss is what SwissRound's documentation promises, found by exhaustive search: the
// least meeting limit, the lowest-ranked fewest-byes entrant to sit out, and the pairing the
// plain backtracking finds first. Pairs and bye are ranks.
func expectSwiss(ranked []Standing, played map[[2]int]int) (pairs [][2]int, bye int) {
	n := len(ranked)
	met := func(p, q int) int {
		a, b := ranked[p].Entrant, ranked[q].Entrant
		return played[[2]int{a, b}] + played[[2]int{b, a}]
	}
	levels := []int{0}
	for p := 0; p < n; p++ {
		for q := p + 1; q < n; q++ {
			levels = append(levels, met(p, q))
		}
	}
	slices.Sort(levels)
	levels = slices.Compact(levels)
	var first func(free []bool, limit int) ([][2]int, bool)
	first = func(free []bool, limit int) ([][2]int, bool) {
		x := slices.Index(free, true)
		if x < 0 {
			return nil, true
		}
		free[x] = false
		defer func() { free[x] = true }()
		for y := x + 1; y < n; y++ {
			if !free[y] || met(x, y) > limit {
				continue
			}
			free[y] = false
			rest, ok := first(free, limit)
			free[y] = true
			if ok {
				return append([][2]int{{x, y}}, rest...), true
			}
		}
		return nil, false
	}
	fewest := 1 << 30
	for _, s := range ranked {
		fewest = min(fewest, s.Byes)
	}
	for _, limit := range levels {
		free := make([]bool, n)
		for i := range free {
			free[i] = true
		}
		if n%2 == 0 {
			if p, ok := first(free, limit); ok {
				return p, -1
			}
			continue
		}
		for b := n - 1; b >= 0; b-- {
			if ranked[b].Byes != fewest {
				continue
			}
			free[b] = false
			p, ok := first(free, limit)
			free[b] = true
			if ok {
				return p, b
			}
		}
	}
	panic("no pairing")
}

// checkSwiss checks a round against the promises that do not need the search: everyone
// once (or the bye), the bye to someone with the fewest byes, seats by balance.
func checkSwiss(t *testing.T, st []Standing, ms []Match, bye, round int, seed uint64) {
	t.Helper()
	by := map[int]Standing{}
	fewest := 1 << 30
	for _, s := range st {
		by[s.Entrant] = s
		fewest = min(fewest, s.Byes)
	}
	seen := map[int]bool{}
	for i, m := range ms {
		if m.Round != round || m.Index != i+1 || m.Seed != Seed(seed, round, i+1) || len(m.Seats) != 2 {
			t.Fatalf("%+v: malformed", m)
		}
		for _, e := range m.Seats {
			if _, ok := by[e]; !ok || seen[e] {
				t.Fatalf("%+v: entrant %d unknown or paired twice", m, e)
			}
			seen[e] = true
		}
		a, b := by[m.Seats[0]], by[m.Seats[1]]
		if a.Seat0-a.Seat1 > b.Seat0-b.Seat1 {
			t.Fatalf("%+v: seat 0 to %+v over %+v", m, a, b)
		}
	}
	if len(st)%2 == 0 {
		if bye != NoBye {
			t.Fatalf("bye %d with an even number", bye)
		}
	} else {
		if _, ok := by[bye]; !ok || seen[bye] {
			t.Fatalf("bye %d unknown or paired", bye)
		}
		if by[bye].Byes != fewest {
			t.Fatalf("bye to %+v, who has had more byes than %d", by[bye], fewest)
		}
		seen[bye] = true
	}
	if len(seen) != len(st) {
		t.Fatalf("%d of %d entrants paired or given the bye", len(seen), len(st))
	}
}

// TestSwissAgainstSearch compares SwissRound with the exhaustive search over many random
// standings and histories, sparse to dense.
func TestSwissAgainstSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	rematchFree, forced := 0, 0
	for trial := 0; trial < 4000; trial++ {
		n := r.IntN(12)
		density := []float64{0, 0.2, 0.5, 0.8, 0.95}[r.IntN(5)]
		st, played := randomRound(r, n, density)
		round, seed := 1+r.IntN(9), r.Uint64()
		ms, bye, err := SwissRound(st, played, round, seed)
		if err != nil {
			t.Fatal(err)
		}
		checkSwiss(t, st, ms, bye, round, seed)

		ranked := swissOrder(st, round, seed)
		pairs, byePos := expectSwiss(ranked, played)
		wantBye := NoBye
		if byePos >= 0 {
			wantBye = ranked[byePos].Entrant
		}
		got := make([][2]int, len(ms))
		for i, m := range ms {
			a, b := m.Seats[0], m.Seats[1]
			got[i] = [2]int{slices.IndexFunc(ranked, func(s Standing) bool { return s.Entrant == a }),
				slices.IndexFunc(ranked, func(s Standing) bool { return s.Entrant == b })}
			if got[i][0] > got[i][1] {
				got[i][0], got[i][1] = got[i][1], got[i][0]
			}
		}
		if bye != wantBye || len(got) != len(pairs) || len(got) > 0 && !reflect.DeepEqual(got, pairs) {
			t.Fatalf("trial %d n=%d: got %v bye %d, want %v bye %d", trial, n, got, bye, pairs, wantBye)
		}
		rematch := false
		for _, m := range ms {
			rematch = rematch || played[[2]int{m.Seats[0], m.Seats[1]}]+played[[2]int{m.Seats[1], m.Seats[0]}] > 0
		}
		if rematch {
			forced++
		} else {
			rematchFree++
		}
	}
	t.Logf("4000 random rounds: %d without a rematch, %d where every pairing needs one", rematchFree, forced)
}

// TestSwissTournament plays whole random tournaments: no rematch while one is avoidable by
// Dirac's theorem, byes spread, seats near balance.
func TestSwissTournament(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	worstSeat := 0
	for n := 1; n <= 41; n++ {
		for _, seed := range []uint64{1, 99} {
			st := make([]Standing, n)
			for i := range st {
				st[i].Entrant = i
			}
			played := map[[2]int]int{}
			for round := 1; round <= n+3; round++ {
				ms, bye, err := SwissRound(st, played, round, seed)
				if err != nil {
					t.Fatal(err)
				}
				checkSwiss(t, st, ms, bye, round, seed)
				// Everyone has met at most round-1 others: among m = n rounded down to even
				// entrants, the unplayed pairs leave each at least m-round others, and a
				// graph of minimum degree m/2 has a perfect matching (Dirac).
				if m := n - n%2; round <= m/2 {
					for _, mt := range ms {
						if played[[2]int{mt.Seats[0], mt.Seats[1]}]+played[[2]int{mt.Seats[1], mt.Seats[0]}] > 0 {
							t.Fatalf("n=%d round %d: rematch %v", n, round, mt.Seats)
						}
					}
				}
				if bye != NoBye {
					st[bye].Byes++
					st[bye].Points += 2
				}
				for _, mt := range ms {
					a, b := mt.Seats[0], mt.Seats[1]
					played[[2]int{a, b}]++
					st[a].Seat0++
					st[b].Seat1++
					switch r.IntN(3) {
					case 0:
						st[a].Points += 2
					case 1:
						st[b].Points += 2
					default:
						st[a].Points++
						st[b].Points++
					}
				}
				byes := make([]int, n)
				for i, s := range st {
					byes[i] = s.Byes
					worstSeat = max(worstSeat, s.Seat0-s.Seat1, s.Seat1-s.Seat0)
				}
				if n > 0 && slices.Max(byes)-slices.Min(byes) > 1 {
					t.Fatalf("n=%d round %d: byes %v", n, round, byes)
				}
			}
		}
	}
	t.Logf("largest seat imbalance |seat0 - seat1| seen: %d", worstSeat)
	if worstSeat > 3 {
		t.Fatalf("seat imbalance %d", worstSeat)
	}
}

// TestSwissLarge checks that a large, dense history does not make pairing slow.
func TestSwissLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{199, 200} {
		st, played := randomRound(r, n, 0.9)
		ms, bye, err := SwissRound(st, played, 3, 11)
		if err != nil {
			t.Fatal(err)
		}
		checkSwiss(t, st, ms, bye, 3, 11)
	}
}

func TestSwissDeterminism(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	st, played := randomRound(r, 15, 0.3)
	a, abye, _ := SwissRound(st, played, 4, 77)
	b, bbye, _ := SwissRound(slices.Clone(st), played, 4, 77)
	if !reflect.DeepEqual(a, b) || abye != bbye {
		t.Fatal("two runs differ")
	}
	// Shuffling the input does not change the round: only the seed breaks ties.
	shuffled := slices.Clone(st)
	r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	c, cbye, _ := SwissRound(shuffled, played, 4, 77)
	if !reflect.DeepEqual(a, c) || abye != cbye {
		t.Fatal("the order of the standing changes the round")
	}
}

func TestSwissErrors(t *testing.T) {
	for _, c := range []struct {
		st    []Standing
		round int
		want  string
	}{
		{[]Standing{{Entrant: 1}, {Entrant: 1}}, 1, "twice"},
		{[]Standing{{Entrant: -1}, {Entrant: 1}}, 1, "negative"},
		{[]Standing{{Entrant: 0}, {Entrant: 1}}, 0, "round 0"},
	} {
		_, _, err := SwissRound(c.st, nil, c.round, 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v round %d: %v, want an error with %q", c.st, c.round, err, c.want)
		}
	}
	ms, bye, err := SwissRound(nil, nil, 1, 1)
	if err != nil || len(ms) != 0 || bye != NoBye {
		t.Errorf("no entrants: %v %d %v", ms, bye, err)
	}
	ms, bye, err = SwissRound([]Standing{{Entrant: 5}}, nil, 1, 1)
	if err != nil || len(ms) != 0 || bye != 5 {
		t.Errorf("one entrant: %v %d %v", ms, bye, err)
	}
}

// TestMatcher checks Edmonds' algorithm against exhaustive search on random graphs.
func TestMatcher(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var best func(adj []bool, n int, free []bool) int
	best = func(adj []bool, n int, free []bool) int {
		x := slices.Index(free, true)
		if x < 0 {
			return 0
		}
		free[x] = false
		b := best(adj, n, free) // x unmatched
		for y := x + 1; y < n; y++ {
			if free[y] && adj[x*n+y] {
				free[y] = false
				b = max(b, 1+best(adj, n, free))
				free[y] = true
			}
		}
		free[x] = true
		return b
	}
	for trial := 0; trial < 3000; trial++ {
		n := r.IntN(12)
		p := r.Float64()
		adj := make([]bool, n*n)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if r.Float64() < p {
					adj[i*n+j], adj[j*n+i] = true, true
				}
			}
		}
		free := make([]bool, n)
		for i := range free {
			free[i] = true
		}
		m := newMatcher(n, adj)
		got, want := m.maximum(), best(adj, n, free)
		if got != want {
			t.Fatalf("trial %d: matching of %d, want %d (%s)", trial, got, want, fmt.Sprint(adj))
		}
		for v, u := range m.mate {
			if u >= 0 && (m.mate[u] != v || !adj[v*n+u]) {
				t.Fatalf("trial %d: bad matching %v", trial, m.mate)
			}
		}
	}
}
