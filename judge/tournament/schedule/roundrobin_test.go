package schedule

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// checkWellFormed checks what every schedule promises: k distinct entrants of 0..n-1 per
// match, rounds numbered from first, indices 1..len within each round in order, seeds
// derived from (seed, round, index), distinct IDs.
func checkWellFormed(t *testing.T, ms []Match, n, k, first, rounds int, seed uint64) {
	t.Helper()
	next := map[int]int{}
	ids := map[string]bool{}
	for _, m := range ms {
		if len(m.Seats) != k {
			t.Fatalf("%v: %d seats, want %d", m, len(m.Seats), k)
		}
		for i, e := range m.Seats {
			if e < 0 || e >= n {
				t.Fatalf("%v: entrant %d out of range", m, e)
			}
			if slices.Contains(m.Seats[:i], e) {
				t.Fatalf("%v: entrant %d twice", m, e)
			}
		}
		if m.Round < first || m.Round >= first+rounds {
			t.Fatalf("%v: round out of %d..%d", m, first, first+rounds-1)
		}
		next[m.Round]++
		if m.Index != next[m.Round] {
			t.Fatalf("%v: index %d, want %d", m, m.Index, next[m.Round])
		}
		if m.Seed != Seed(seed, m.Round, m.Index) {
			t.Fatalf("%v: seed is not Seed(%d, %d, %d)", m, seed, m.Round, m.Index)
		}
		id := m.ID("t")
		if ids[id] {
			t.Fatalf("ID %s twice", id)
		}
		ids[id] = true
	}
	if len(next) != rounds {
		t.Fatalf("%d rounds, want %d", len(next), rounds)
	}
}

// seatCounts is count[e][s]: e's matches in seat s.
func seatCounts(ms []Match, n, k int) [][]int {
	c := make([][]int, n)
	for e := range c {
		c[e] = make([]int, k)
	}
	for _, m := range ms {
		for s, e := range m.Seats {
			c[e][s]++
		}
	}
	return c
}

// seatSpread is the largest difference between an entrant's counts in two seats.
func seatSpread(ms []Match, n, k int) int {
	worst := 0
	for _, c := range seatCounts(ms, n, k) {
		worst = max(worst, slices.Max(c)-slices.Min(c))
	}
	return worst
}

func byRound(ms []Match) map[int][]Match {
	out := map[int][]Match{}
	for _, m := range ms {
		out[m.Round] = append(out[m.Round], m)
	}
	return out
}

func groupKey(seats []int) string {
	s := slices.Clone(seats)
	slices.Sort(s)
	return fmt.Sprint(s)
}

func binomial(n, k int) int {
	c := 1
	for i := 1; i <= k; i++ {
		c = c * (n - k + i) / i
	}
	return c
}

func TestPairs(t *testing.T) {
	for n := 2; n <= 12; n++ {
		for rounds := 1; rounds <= 3; rounds++ {
			seed := uint64(n*100 + rounds)
			ms, err := RoundRobin(n, Options{Seats: 2, Rounds: rounds, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			checkWellFormed(t, ms, n, 2, 1, rounds, seed)
			for r, rm := range byRound(ms) {
				if len(rm) != n*(n-1) {
					t.Fatalf("n=%d round %d: %d matches, want %d", n, r, len(rm), n*(n-1))
				}
				seen := map[[2]int]int{}
				for _, m := range rm {
					seen[[2]int{m.Seats[0], m.Seats[1]}]++
				}
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						if i != j && seen[[2]int{i, j}] != 1 {
							t.Fatalf("n=%d round %d: %d-%d played %d times", n, r, i, j, seen[[2]int{i, j}])
						}
					}
				}
				for e, c := range seatCounts(rm, n, 2) {
					if c[0] != n-1 || c[1] != n-1 {
						t.Fatalf("n=%d round %d: entrant %d seats %v", n, r, e, c)
					}
				}
			}
		}
	}
}

func TestGroups(t *testing.T) {
	for k := 3; k <= 5; k++ {
		for n := k; n <= 9; n++ {
			for rounds := 1; rounds <= 2*k+1; rounds++ {
				name := fmt.Sprintf("k=%d n=%d rounds=%d", k, n, rounds)
				seed := uint64(k*1000 + n*10 + rounds)
				ms, err := RoundRobin(n, Options{Seats: k, Rounds: rounds, Seed: seed, FirstRound: 3})
				if err != nil {
					t.Fatal(err)
				}
				checkWellFormed(t, ms, n, k, 3, rounds, seed)
				groups := binomial(n, k)
				rs := byRound(ms)
				for r, rm := range rs {
					if len(rm) != groups {
						t.Fatalf("%s: round %d has %d matches, want C(%d,%d) = %d", name, r, len(rm), n, k, groups)
					}
					seen := map[string]bool{}
					for _, m := range rm {
						key := groupKey(m.Seats)
						if seen[key] {
							t.Fatalf("%s: round %d plays %s twice", name, r, key)
						}
						seen[key] = true
					}
				}
				if s := seatSpread(ms, n, k); s > 1 {
					t.Fatalf("%s: seat counts differ by %d", name, s)
				}
				// Complete blocks: every group in every rotation, every round balanced.
				for b := 0; b+k <= rounds; b += k {
					var block []Match
					for r := b; r < b+k; r++ {
						rm := rs[3+r]
						if s := seatSpread(rm, n, k); s > 1 {
							t.Fatalf("%s: round %d: seat counts differ by %d", name, 3+r, s)
						}
						block = append(block, rm...)
					}
					c := seatCounts(block, n, k)
					for e := range c {
						for s := range c[e] {
							if c[e][s] != binomial(n-1, k-1) {
								t.Fatalf("%s: block from round %d: entrant %d seats %v, want %d each", name, 3+b, e, c[e], binomial(n-1, k-1))
							}
						}
					}
					where := map[string]map[[2]int]int{} // group -> (entrant, seat) -> count
					for _, m := range block {
						key := groupKey(m.Seats)
						if where[key] == nil {
							where[key] = map[[2]int]int{}
						}
						for s, e := range m.Seats {
							where[key][[2]int{e, s}]++
						}
					}
					for key, w := range where {
						if len(w) != k*k {
							t.Fatalf("%s: block from round %d: group %s does not sit each member in every seat: %v", name, 3+b, key, w)
						}
					}
				}
			}
		}
	}
}

func TestSampledTwentyFour(t *testing.T) {
	const n, k = 20, 4
	ms, err := RoundRobin(n, Options{Seats: k, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	checkWellFormed(t, ms, n, k, 1, 1, 42)
	if len(ms) != DefaultMaxMatches {
		t.Fatalf("%d matches, want %d", len(ms), DefaultMaxMatches)
	}
	for e, c := range seatCounts(ms, n, k) {
		sum := 0
		for _, x := range c {
			sum += x
		}
		if sum != DefaultMaxMatches*k/n {
			t.Fatalf("entrant %d plays %d matches, want %d", e, sum, DefaultMaxMatches*k/n)
		}
	}
	if s := seatSpread(ms, n, k); s > 1 {
		t.Fatalf("seat counts differ by %d", s)
	}
	lo, hi := pairSpread(ms, n)
	t.Logf("n=20 seats=4: 2000 matches, 400 each, pair meetings %d..%d (mean %.1f)", lo, hi, float64(2000*6)/190)
	if hi-lo > 3 {
		t.Fatalf("pair meetings %d..%d", lo, hi)
	}
}

// pairSpread is the fewest and the most meetings of a pair of entrants.
func pairSpread(ms []Match, n int) (lo, hi int) {
	meet := make([]int, n*n)
	for _, m := range ms {
		for i, a := range m.Seats {
			for _, b := range m.Seats[i+1:] {
				meet[min(a, b)*n+max(a, b)]++
			}
		}
	}
	lo = -1
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			c := meet[a*n+b]
			if lo < 0 || c < lo {
				lo = c
			}
			hi = max(hi, c)
		}
	}
	return lo, hi
}

// TestSampled checks the sampled rounds over many sizes: a small MaxMatches makes them
// sample from few entrants.
func TestSampled(t *testing.T) {
	worstPairs := 0
	for _, k := range []int{3, 4, 5, 8} {
		for n := k + 1; n <= 30; n++ {
			for _, limit := range []int{7, 50, 300} {
				if binomial(n, k) <= limit {
					continue
				}
				for rounds := 1; rounds <= 3; rounds++ {
					name := fmt.Sprintf("k=%d n=%d max=%d rounds=%d", k, n, limit, rounds)
					seed := uint64(n*7919 + k*31 + rounds)
					ms, err := RoundRobin(n, Options{Seats: k, Rounds: rounds, MaxMatches: limit, Seed: seed})
					if err != nil {
						t.Fatal(err)
					}
					checkWellFormed(t, ms, n, k, 1, rounds, seed)
					per := limit
					if step := n / gcd(n, k); step <= limit {
						per = limit - limit%step
					}
					if len(ms) != rounds*per {
						t.Fatalf("%s: %d matches, want %d", name, len(ms), rounds*per)
					}
					// Match counts within 1 after every match; equal after every round that
					// ends a cycle.
					count := make([]int, n)
					for i, m := range ms {
						for _, e := range m.Seats {
							count[e]++
						}
						if d := slices.Max(count) - slices.Min(count); d > 1 {
							t.Fatalf("%s: after match %d counts differ by %d", name, i+1, d)
						}
						if (i+1)%per == 0 && per*k%n == 0 && slices.Max(count) != slices.Min(count) {
							t.Fatalf("%s: after round %d counts differ", name, (i+1)/per)
						}
					}
					if s := seatSpread(ms, n, k); s > 1 {
						t.Fatalf("%s: seat counts differ by %d", name, s)
					}
					lo, hi := pairSpread(ms, n)
					worstPairs = max(worstPairs, hi-lo)
				}
			}
		}
	}
	t.Logf("largest spread of pair meetings: %d", worstPairs)
}

// TestBalanceSeats checks the balancer alone on random matches with random seatings.
func TestBalanceSeats(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 500; trial++ {
		k := 2 + r.IntN(6)
		n := k + r.IntN(10)
		seats := make([][]int, r.IntN(200))
		for i := range seats {
			seats[i] = r.Perm(n)[:k]
		}
		before := make([]string, len(seats))
		for i, s := range seats {
			before[i] = groupKey(s)
		}
		balanceSeats(n, k, seats)
		ms := make([]Match, len(seats))
		for i, s := range seats {
			if groupKey(s) != before[i] {
				t.Fatalf("match %d changed players: %s -> %v", i, before[i], s)
			}
			ms[i].Seats = s
		}
		if s := seatSpread(ms, n, k); s > 1 {
			t.Fatalf("trial %d: seat counts differ by %d", trial, s)
		}
	}
}

func TestDeterminism(t *testing.T) {
	for _, c := range []struct{ n, seats, rounds, max int }{
		{7, 2, 2, 0}, {8, 4, 3, 0}, {20, 4, 2, 0}, {12, 5, 1, 100},
	} {
		o := Options{Seats: c.seats, Rounds: c.rounds, MaxMatches: c.max, Seed: 1234}
		a, err := RoundRobin(c.n, o)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := RoundRobin(c.n, o)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%+v: two runs differ", c)
		}
		o.Seed = 1235
		d, _ := RoundRobin(c.n, o)
		if len(d) != len(a) {
			t.Fatalf("%+v: another seed gives %d matches, not %d", c, len(d), len(a))
		}
		same := 0
		for i := range a {
			if a[i].Seed == d[i].Seed {
				t.Fatalf("%+v: match %d has the same seed with another tournament seed", c, i)
			}
			if reflect.DeepEqual(a[i].Seats, d[i].Seats) {
				same++
			}
		}
		if same == len(a) {
			t.Fatalf("%+v: another seed gives the same order", c)
		}
	}
}

func TestIDAndSeed(t *testing.T) {
	if got := ID("spring", 1, 17); got != "spring-1-17" {
		t.Fatalf("ID = %q", got)
	}
	if got := (Match{Round: 2, Index: 3}).ID("final"); got != "final-2-3" {
		t.Fatalf("Match.ID = %q", got)
	}
	// Pinned (checked against the documented formula computed independently): changing the
	// derivation would change every tournament rebuilt from its seed.
	for _, c := range []struct {
		seed         uint64
		round, index int
		want         uint64
	}{
		{0, 1, 1, 0x8ca7232b1f8c3},
		{42, 1, 17, 0x10273f69d08833},
		{1 << 63, 12, 345, 0xd95d205d57658},
	} {
		if got := Seed(c.seed, c.round, c.index); got != c.want {
			t.Errorf("Seed(%d, %d, %d) = %#x, want %#x", c.seed, c.round, c.index, got, c.want)
		}
	}
	// Seeds stay below 2^53 and do not repeat within a large tournament.
	seen := map[uint64]bool{}
	for r := 1; r <= 30; r++ {
		for i := 1; i <= 2000; i++ {
			s := Seed(7, r, i)
			if s >= 1<<53 || seen[s] {
				t.Fatalf("Seed(7, %d, %d) = %d: over 2^53 or repeated", r, i, s)
			}
			seen[s] = true
		}
	}
}

func TestOptionErrors(t *testing.T) {
	for _, c := range []struct {
		n    int
		o    Options
		want string
	}{
		{3, Options{Seats: 4}, "3 entrants"},
		{1, Options{Seats: 2}, "1 entrants"},
		{5, Options{}, "0 seats"},
		{5, Options{Seats: 1}, "1 seats"},
		{5, Options{Seats: 2, Rounds: -1}, "rounds"},
		{5, Options{Seats: 2, MaxMatches: -1}, "MaxMatches"},
		{5, Options{Seats: 2, FirstRound: -1}, "FirstRound"},
	} {
		_, err := RoundRobin(c.n, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("RoundRobin(%d, %+v) = %v, want an error with %q", c.n, c.o, err, c.want)
		}
	}
	if _, err := Final([]int{1, 2, 1}, Options{Seats: 2}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("Final with a duplicate: %v", err)
	}
	if _, err := Final([]int{1, -2}, Options{Seats: 2}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("Final with a negative entrant: %v", err)
	}
	if _, err := Final([]int{4}, Options{Seats: 2}); err == nil {
		t.Errorf("Final with one entrant: no error")
	}
}

func TestFinal(t *testing.T) {
	top := []int{17, 3, 42, 8}
	ms, err := Final(top, Options{Seats: 2, Seed: 9, FirstRound: 12})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 12 {
		t.Fatalf("%d matches, want 12", len(ms))
	}
	seen := map[[2]int]bool{}
	for _, m := range ms {
		if m.Round != 12 || m.Seed != Seed(9, 12, m.Index) {
			t.Fatalf("%+v: wrong round or seed", m)
		}
		p := [2]int{m.Seats[0], m.Seats[1]}
		if !slices.Contains(top, p[0]) || !slices.Contains(top, p[1]) || p[0] == p[1] || seen[p] {
			t.Fatalf("%+v: not a new ordered pair of the top", m)
		}
		seen[p] = true
	}
	ms, err = Final([]int{9, 5, 1, 7, 3}, Options{Seats: 4, Rounds: 4, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 4*5 {
		t.Fatalf("%d matches, want 20", len(ms))
	}
	count := map[[2]int]int{}
	for _, m := range ms {
		for s, e := range m.Seats {
			count[[2]int{e, s}]++
		}
	}
	for _, e := range []int{9, 5, 1, 7, 3} {
		for s := 0; s < 4; s++ {
			if count[[2]int{e, s}] != 4 {
				t.Fatalf("entrant %d sits %d times in seat %d, want 4", e, count[[2]int{e, s}], s)
			}
		}
	}
}
