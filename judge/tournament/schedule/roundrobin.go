package schedule

import (
	"fmt"
	"math"
)

// DefaultMaxMatches is the default Options.MaxMatches. With 4 seats a round plays every
// group up to 16 entrants (C(16,4) = 1820) and is sampled from 17 (C(17,4) = 2380).
const DefaultMaxMatches = 2000

// Options configure RoundRobin and Final. The zero value of every field but Seats is a
// usable default.
type Options struct {
	// Seats is the number of seats of a match of the game (2 for Amazes and On The Run, 4 for
	// Drop the Block and Lang Wars, ...). It is required: a default could silently schedule
	// a game with the wrong number of players.
	Seats int
	// Rounds is the number of rounds (default 1). Each round is a complete round robin, or a
	// new sampled round, with its own match seeds.
	Rounds int
	// Seed is the tournament seed, from which every match seed and every random choice of
	// the schedule is derived.
	Seed uint64
	// MaxMatches bounds the matches of one round of a game of more than 2 seats (default
	// DefaultMaxMatches): when there are more groups of Seats entrants than that, the round
	// is sampled. Two-seat rounds always hold every pairing, since their number grows as n²
	// and not as n^Seats.
	MaxMatches int
	// FirstRound is the number of the first round (default 1), so that a later stage (a
	// final, say) can go on numbering rounds, and so naming matches, after an earlier one.
	FirstRound int
}

// withDefaults checks o for n entrants and fills in its defaults.
func (o Options) withDefaults(n int) (Options, error) {
	switch {
	case o.Seats < 2:
		return o, fmt.Errorf("schedule: %d seats: a match has at least 2", o.Seats)
	case n < o.Seats:
		return o, fmt.Errorf("schedule: %d entrants cannot fill a match of %d seats", n, o.Seats)
	case o.Rounds < 0:
		return o, fmt.Errorf("schedule: %d rounds", o.Rounds)
	case o.MaxMatches < 0:
		return o, fmt.Errorf("schedule: MaxMatches %d is negative", o.MaxMatches)
	case o.FirstRound < 0:
		return o, fmt.Errorf("schedule: FirstRound %d is negative", o.FirstRound)
	}
	if o.Rounds == 0 {
		o.Rounds = 1
	}
	if o.MaxMatches == 0 {
		o.MaxMatches = DefaultMaxMatches
	}
	if o.FirstRound == 0 {
		o.FirstRound = 1
	}
	return o, nil
}

// RoundRobin schedules o.Rounds rounds among n entrants, for matches of o.Seats seats. It is
// an error when n < o.Seats. Within a round, matches come in an order drawn from the seed,
// so that a tournament stopped midway has not favoured the low indices. Guarantees:
//
// Two seats: every round holds every ordered pair once, n(n-1) matches: each pair meets
// twice, once in each seat order, and each entrant sits n-1 times in each seat.
//
// More seats, when the C(n, Seats) groups fit o.MaxMatches: every round holds every group
// (set of Seats entrants) exactly once. Rounds come in blocks of Seats rounds; over a
// complete block every group is seated in each of its Seats rotations exactly once, so each
// member of a group sits once in every seat against the same opponents, and each entrant
// sits exactly C(n-1, Seats-1) times in every seat; each round of a complete block is
// balanced on its own (an entrant's counts in two seats differ by at most 1). The rounds
// of an incomplete last block are balanced together. Hence over the whole schedule each
// entrant's counts in any two seats differ by at most 1.
//
// More seats, when there are too many groups: every round holds MaxMatches matches, rounded
// down to a multiple of n/gcd(n, Seats) when that is possible so that every entrant plays
// exactly the same number of matches in every round. Entrants are drawn in cycles (everyone
// once before anyone again), so after every match of the schedule any two entrants' match
// counts differ by at most 1. Each member is the one of its cycle that has met the members
// already drawn for the match least often, ties drawn from the seed, which spreads the
// meetings of pairs evenly (a heuristic: the spread is not bounded). Each round draws new
// groups. Seats are balanced over the whole schedule: an entrant's counts in any two seats
// differ by at most 1. No entrant appears twice in a match.
func RoundRobin(n int, o Options) ([]Match, error) {
	o, err := o.withDefaults(n)
	if err != nil {
		return nil, err
	}
	switch {
	case o.Seats == 2:
		return o.pairs(n), nil
	case binomialFits(n, o.Seats, o.MaxMatches):
		return o.groups(n), nil
	default:
		return o.sampled(n), nil
	}
}

// Final schedules a round robin among the entrants top (say, the best K of a Swiss stage),
// under their own indices: RoundRobin(len(top), o) with entrant i standing for top[i], with
// the same guarantees. With two seats and one round it is the classic double round robin.
// Give the final its own o.Seed, or an o.FirstRound after the earlier stage's rounds, so
// that its matches' seeds and IDs do not repeat the earlier stage's.
func Final(top []int, o Options) ([]Match, error) {
	seen := make(map[int]bool, len(top))
	for _, e := range top {
		if e < 0 {
			return nil, fmt.Errorf("schedule: entrant %d is negative", e)
		}
		if seen[e] {
			return nil, fmt.Errorf("schedule: entrant %d is in the final twice", e)
		}
		seen[e] = true
	}
	ms, err := RoundRobin(len(top), o)
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		for s, e := range m.Seats {
			m.Seats[s] = top[e]
		}
	}
	return ms, nil
}

// pairs is the two-seat round robin: every ordered pair, each round.
func (o Options) pairs(n int) []Match {
	out := make([]Match, 0, o.Rounds*n*(n-1))
	for r := 0; r < o.Rounds; r++ {
		round := o.FirstRound + r
		start := len(out)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if i != j {
					out = append(out, Match{Round: round, Seats: []int{i, j}})
				}
			}
		}
		o.order(out[start:], round)
	}
	return out
}

// groups is the complete round robin of more than two seats: every group each round.
func (o Options) groups(n int) []Match {
	k := o.Seats
	// The base seating of round 1: group g rotated by g, then balanced, so that a single
	// round is as fair as a round can be.
	var base [][]int
	g := 0
	combinations(n, k, func(c []int) {
		base = append(base, rotated(c, g%k))
		g++
	})
	balanceSeats(n, k, base)

	out := make([]Match, 0, o.Rounds*len(base))
	var tail [][]int // the seatings of the incomplete last block
	tailFrom := o.Rounds - o.Rounds%k
	for r := 0; r < o.Rounds; r++ {
		for _, b := range base {
			seats := rotated(b, r%k)
			out = append(out, Match{Round: o.FirstRound + r, Seats: seats})
			if r >= tailFrom {
				tail = append(tail, seats)
			}
		}
	}
	// A complete block sits everyone equally in every seat; what the incomplete one leaves
	// uneven is evened out on its own, leaving the complete blocks' rotations whole.
	balanceSeats(n, k, tail)
	for r := 0; r < o.Rounds; r++ {
		o.order(out[r*len(base):(r+1)*len(base)], o.FirstRound+r)
	}
	return out
}

// sampled is the round robin of more than two seats with too many groups to play them all.
func (o Options) sampled(n int) []Match {
	k := o.Seats
	per := o.MaxMatches
	if step := n / gcd(n, k); step <= per {
		// per*k slots, a multiple of n: every round ends a cycle of draws.
		per -= per % step
	}
	s := newSampler(n, k, newRNG(mix3(o.Seed^saltSample, 0, 0)))
	out := make([]Match, 0, o.Rounds*per)
	for r := 0; r < o.Rounds; r++ {
		for i := 0; i < per; i++ {
			out = append(out, Match{Round: o.FirstRound + r, Seats: s.next()})
		}
	}
	seats := make([][]int, len(out))
	for i := range out {
		seats[i] = out[i].Seats
	}
	balanceSeats(n, k, seats)
	for r := 0; r < o.Rounds; r++ {
		number(out[r*per:(r+1)*per], o.Seed)
	}
	return out
}

// order shuffles one round's matches with the seed and numbers them.
func (o Options) order(ms []Match, round int) {
	shuffle(ms, newRNG(mix3(o.Seed^saltShuffle, round, 0)))
	number(ms, o.Seed)
}

// binomialFits says whether C(n, k) <= limit, without overflowing.
func binomialFits(n, k, limit int) bool {
	c := 1
	for i := 1; i <= k; i++ {
		f := n - k + i
		if c > math.MaxInt/f {
			return false
		}
		// C(n-k+i, i) grows with i (n > k), so the first one over the limit settles it.
		if c = c * f / i; c > limit {
			return false
		}
	}
	return true
}

// combinations calls f with every k-subset of 0..n-1, in lexicographic order; f must copy
// what it keeps.
func combinations(n, k int, f func([]int)) {
	c := make([]int, k)
	for i := range c {
		c[i] = i
	}
	for {
		f(c)
		i := k - 1
		for i >= 0 && c[i] == n-k+i {
			i--
		}
		if i < 0 {
			return
		}
		c[i]++
		for j := i + 1; j < k; j++ {
			c[j] = c[j-1] + 1
		}
	}
}

// rotated is seating c rotated by j: seat s takes c[(s+j) mod k], so over j = 0..k-1 each
// member takes every seat once.
func rotated(c []int, j int) []int {
	k := len(c)
	out := make([]int, k)
	for s := range out {
		out[s] = c[(s+j)%k]
	}
	return out
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// balanceSeats reseats the matches (each a seating of k distinct entrants of 0..n-1) in
// place, keeping who plays in each match, until every entrant's counts in any two seats
// differ by at most 1. Such a seating always exists (de Werra's equitable edge colouring of
// the bipartite entrant-match graph); this finds one.
//
// While an entrant v sits in its most frequent seat a at least twice more than in its least
// frequent seat b, follow matches from v, each from its seat-a entrant to its seat-b
// entrant, to an entrant y that sits in b more often than in a; one is always reachable (over the reachable set, every seat-a place has a seat-b
// partner inside, so the set's a-b surplus is at most 0 while v's is at least 2). Swapping a
// and b along the path moves one a to b at v and one b to a at y and leaves the entrants in
// between as they were. Each swap lowers the sum over entrants and seats of count² by at
// least 2, so it ends; entrants already balanced stay so. Matches already balanced are not
// touched.
func balanceSeats(n, k int, seats [][]int) {
	cnt := make([]int, n*k)
	occ := make([][]int, n) // the matches of each entrant
	for mi, ss := range seats {
		for s, e := range ss {
			cnt[e*k+s]++
			occ[e] = append(occ[e], mi)
		}
	}
	seen := make([]int, n) // BFS stamps
	stamp := 0
	fromV := make([]int, n)
	fromM := make([]int, n)
	var queue []int
	for v := 0; v < n; {
		c := cnt[v*k : (v+1)*k]
		a, b := 0, 0
		for s := range c {
			if c[s] > c[a] {
				a = s
			}
			if c[s] < c[b] {
				b = s
			}
		}
		if c[a]-c[b] < 2 {
			v++
			continue
		}
		stamp++
		seen[v] = stamp
		queue = append(queue[:0], v)
		y := -1
		for qi := 0; qi < len(queue) && y < 0; qi++ {
			u := queue[qi]
			for _, mi := range occ[u] {
				if seats[mi][a] != u {
					continue
				}
				w := seats[mi][b]
				if seen[w] == stamp {
					continue
				}
				seen[w] = stamp
				fromV[w], fromM[w] = u, mi
				if cnt[w*k+a] < cnt[w*k+b] {
					y = w
					break
				}
				queue = append(queue, w)
			}
		}
		if y < 0 {
			panic("schedule: no seat to balance with (cannot happen)")
		}
		for w := y; w != v; w = fromV[w] {
			ss := seats[fromM[w]]
			ss[a], ss[b] = ss[b], ss[a]
		}
		cnt[v*k+a]--
		cnt[v*k+b]++
		cnt[y*k+a]++
		cnt[y*k+b]--
	}
}

// sampler draws the groups of sampled rounds.
type sampler struct {
	n, k int
	rng  *rng
	// pool holds the entrants not yet drawn in the current cycle.
	pool []int
	// meet[a*n+b] counts the matches a and b have shared.
	meet []int32
	// seat[e*k+s] counts e's matches in seat s so far, for the first seating.
	seat []int32
}

func newSampler(n, k int, r *rng) *sampler {
	return &sampler{n: n, k: k, rng: r, meet: make([]int32, n*n), seat: make([]int32, n*k)}
}

// next draws and seats one match.
func (s *sampler) next() []int {
	chosen := make([]int, 0, s.k)
	for len(chosen) < s.k {
		if len(s.pool) == 0 {
			// A new cycle. Members already chosen from the old one stay in the pool for later
			// matches; n >= k leaves someone else to draw.
			for e := 0; e < s.n; e++ {
				s.pool = append(s.pool, e)
			}
		}
		best, bestCost, ties := -1, int32(0), 0
		for pi, e := range s.pool {
			if contains(chosen, e) {
				continue
			}
			var cost int32
			for _, c := range chosen {
				cost += s.meet[e*s.n+c]
			}
			switch {
			case best < 0 || cost < bestCost:
				best, bestCost, ties = pi, cost, 1
			case cost == bestCost:
				// Reservoir sampling: each of the tied entrants is kept with equal chance.
				ties++
				if s.rng.intn(ties) == 0 {
					best = pi
				}
			}
		}
		chosen = append(chosen, s.pool[best])
		last := len(s.pool) - 1
		s.pool[best] = s.pool[last]
		s.pool = s.pool[:last]
	}
	for i, a := range chosen {
		for _, b := range chosen[i+1:] {
			s.meet[a*s.n+b]++
			s.meet[b*s.n+a]++
		}
	}
	return s.seatGreedy(chosen)
}

// seatGreedy seats the members where they have sat least, relative to their matches so far,
// so that seats stay near balance all along the schedule (balanceSeats then makes the whole
// schedule balanced to within 1).
func (s *sampler) seatGreedy(members []int) []int {
	k := s.k
	out := make([]int, k)
	for i := range out {
		out[i] = -1
	}
	placed := make([]bool, k)
	for range members {
		bm, bs, bc := -1, -1, int32(0)
		for mi, m := range members {
			if placed[mi] {
				continue
			}
			var total int32
			for st := 0; st < k; st++ {
				total += s.seat[m*k+st]
			}
			for st := 0; st < k; st++ {
				if out[st] >= 0 {
					continue
				}
				if c := int32(k)*s.seat[m*k+st] - total; bm < 0 || c < bc {
					bm, bs, bc = mi, st, c
				}
			}
		}
		out[bs] = members[bm]
		placed[bm] = true
		s.seat[members[bm]*k+bs]++
	}
	return out
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
