package schedule

import (
	"cmp"
	"fmt"
	"slices"
)

// Standing is one entrant's record before a Swiss round. The caller keeps it from the
// results; the package keeps no state between rounds.
type Standing struct {
	// Entrant is the entrant's index.
	Entrant int
	// Points rank the entrants, most first. They are integers so that ties are exact: score
	// a draw as 1 and a win as 2 (or 3), not as halves.
	Points int
	// TieBreak ranks entrants with equal Points, highest first: the caller's secondary score
	// (the opponents' points, say), or 0 for none.
	TieBreak int
	// Seat0 and Seat1 count the matches the entrant has played in seat 0 and in seat 1.
	Seat0, Seat1 int
	// Byes counts the byes the entrant has had.
	Byes int
}

// NoBye is the bye of a round in which everyone plays.
const NoBye = -1

// SwissRound pairs one round (round >= 1) of a Swiss tournament of a 2-seat game, the
// CodeCup's format: the entrants of standing (those taking part in the round; each once)
// play one match each, except one who gets a bye when their number is odd. played counts
// the matches already played by a pair of entrants; a key may be in either order (both
// orders are added up). It returns the round's matches, top board first, and the entrant
// given the bye, or NoBye. What a bye scores is the caller's decision.
//
// Ranking: Points, then TieBreak, highest first; remaining ties are broken in an order
// drawn from seed and round.
//
// Bye: it goes to an entrant with the fewest byes among standing, so nobody has a second
// bye while someone else has none. Among those, the lowest-ranked one for whom the others
// can still be paired without a rematch; if there is none, the lowest-ranked one that lets
// the pairing below use pairs that have met the fewest times.
//
// Pairing: let t be the least number of earlier meetings such that some pairing uses only
// pairs that have met at most t times (t = 0, no rematch, whenever a rematch-free pairing
// exists). The pairing is the one the classic backtracking over the ranked list finds with
// that limit, as in the Monrad system: the highest-ranked unpaired entrant meets the
// highest-ranked unpaired entrant it can meet such that the others can still be paired, and
// so on down. Edmonds' matching algorithm tells whether the others can still be paired, so
// the search never backtracks and takes polynomial time however tangled the history.
//
// Seats: seat 0 goes to the entrant with the lower Seat0 - Seat1 (who has had seat 0 less),
// so that an entrant's surplus of one seat grows only when it meets an entrant with the
// same surplus; equal balances are settled by a coin drawn from seed, round and board.
func SwissRound(standing []Standing, played map[[2]int]int, round int, seed uint64) (matches []Match, bye int, err error) {
	if round < 1 {
		return nil, NoBye, fmt.Errorf("schedule: round %d: rounds are counted from 1", round)
	}
	seen := make(map[int]bool, len(standing))
	for _, s := range standing {
		if s.Entrant < 0 {
			return nil, NoBye, fmt.Errorf("schedule: entrant %d is negative", s.Entrant)
		}
		if seen[s.Entrant] {
			return nil, NoBye, fmt.Errorf("schedule: entrant %d stands twice", s.Entrant)
		}
		seen[s.Entrant] = true
	}

	ranked := swissOrder(standing, round, seed)
	n := len(ranked)
	met := make([]int, n*n) // by rank
	levels := []int{0}
	for p := range ranked {
		for q := p + 1; q < n; q++ {
			a, b := ranked[p].Entrant, ranked[q].Entrant
			c := played[[2]int{a, b}] + played[[2]int{b, a}]
			met[p*n+q], met[q*n+p] = c, c
			levels = append(levels, c)
		}
	}
	slices.Sort(levels)
	levels = slices.Compact(levels)

	// Bye candidates, lowest-ranked first.
	var cands []int
	if n%2 == 1 {
		fewest := ranked[0].Byes
		for _, s := range ranked {
			fewest = min(fewest, s.Byes)
		}
		for p := n - 1; p >= 0; p-- {
			if ranked[p].Byes == fewest {
				cands = append(cands, p)
			}
		}
	}

	for _, t := range levels {
		adj := make([]bool, n*n)
		for i, c := range met {
			adj[i] = c <= t && i/n != i%n
		}
		m := newMatcher(n, adj)
		if m.maximum() < n/2 {
			continue
		}
		byePos := -1
		if n%2 == 1 {
			for _, b := range cands {
				if m.remove(b, -1) {
					byePos = b
					break
				}
			}
			if byePos < 0 {
				continue
			}
		}
		bye = NoBye
		if byePos >= 0 {
			bye = ranked[byePos].Entrant
		}
		return swissBoards(m, ranked, round, seed), bye, nil
	}
	// At the highest level every pair is allowed, and a complete graph on an even number of
	// vertices (with any one vertex left out when odd) has a perfect matching.
	panic("schedule: no Swiss pairing (cannot happen)")
}

// swissOrder ranks the standing: Points, TieBreak, then a draw from the seed and round.
func swissOrder(standing []Standing, round int, seed uint64) []Standing {
	out := slices.Clone(standing)
	key := func(s Standing) uint64 { return mix3(seed^saltRank, round, s.Entrant) }
	slices.SortFunc(out, func(a, b Standing) int {
		if c := cmp.Compare(b.Points, a.Points); c != 0 {
			return c
		}
		if c := cmp.Compare(b.TieBreak, a.TieBreak); c != 0 {
			return c
		}
		if c := cmp.Compare(key(a), key(b)); c != 0 {
			return c
		}
		return cmp.Compare(a.Entrant, b.Entrant)
	})
	return out
}

// swissBoards pairs the active (ranked) vertices of m, whose matching is perfect on them:
// each highest-ranked unpaired entrant with the highest-ranked partner that leaves a
// perfect matching on the rest. Its mate in the current matching always does, so every
// entrant is paired without backtracking.
func swissBoards(m *matcher, ranked []Standing, round int, seed uint64) []Match {
	n := len(ranked)
	var out []Match
	for x := 0; x < n; x++ {
		if !m.active[x] {
			continue
		}
		for y := x + 1; y < n; y++ {
			if !m.active[y] || !m.adj[x*n+y] || !m.remove(x, y) {
				continue
			}
			a, b := ranked[x], ranked[y]
			index := len(out) + 1
			da, db := a.Seat0-a.Seat1, b.Seat0-b.Seat1
			if db < da || db == da && mix3(seed^saltCoin, round, index)&1 == 1 {
				a, b = b, a
			}
			out = append(out, Match{Round: round, Index: index, Seats: []int{a.Entrant, b.Entrant}, Seed: Seed(seed, round, index)})
			break
		}
	}
	return out
}
