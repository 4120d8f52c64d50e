// Package schedule decides who plays whom in a tournament: which entrants play which
// matches, in which seats, with which game seeds.
//
// It is pure and deterministic: no I/O, no clock, no global random source. Whatever is
// random is drawn from the tournament seed with this package's own SplitMix64, never from
// math/rand, whose streams are not promised to stay the same: a tournament's schedule is
// then the same on every machine and Go version, and can be rebuilt from its seed the way a
// match is replayed from its own.
//
// Entrants are indices 0..n-1. Which bots they stand for, and which were left out (say, for
// not compiling), is the caller's business. Seat order matters (seat 0 moves first, or plays
// another role), so every format balances seats as well as opponents.
//
// Rounds and match indices are one-based, as people count: the first match of the first
// round of "spring" is "spring-1-1".
//
// The formats:
//   - RoundRobin: every pairing (2 seats) or every group of seats (more seats) each round,
//     or a sampled, balanced round when there are too many groups to play them all.
//   - SwissRound: one round of a Swiss tournament for 2-seat games, as the CodeCup runs
//     them: pair by standing, no rematch when one can be avoided, a bye when n is odd.
//   - Final: a round robin among the best entrants, under their own indices.
package schedule

import "strconv"

// Match is one scheduled match.
type Match struct {
	// Round is the match's round, one-based.
	Round int
	// Index is the match's number within its round, one-based: a schedule never holds two
	// matches with the same Round and Index, so their IDs are distinct.
	Index int
	// Seats are the match's entrants in seat order: Seats[0] takes seat 0. No entrant
	// appears twice.
	Seats []int
	// Seed is the game seed of the match: Seed(tournament seed, Round, Index).
	Seed uint64
}

// ID names a match "<tournament>-<round>-<index>", e.g. "spring-1-17", with the one-based
// round and index of Match, so that people can read it and find the match in a table.
func ID(tournament string, round, index int) string {
	return tournament + "-" + strconv.Itoa(round) + "-" + strconv.Itoa(index)
}

// ID is the match's ID in the named tournament (the package's ID).
func (m Match) ID(tournament string) string { return ID(tournament, m.Round, m.Index) }

// Seed is the game seed of match index of round round, derived from the tournament's seed so
// that one number reproduces every match of the tournament:
//
//	Seed = mix(mix(mix(tournamentSeed) ^ round) ^ index) >> 11
//
// where mix(z) is one SplitMix64 output from state z: z += 0x9e3779b97f4a7c15, then
// z = (z ^ z>>30) * 0xbf58476d1ce4e5b9, z = (z ^ z>>27) * 0x94d049bb133111eb, z ^ z>>31
// (round and index as uint64). mix is a bijection, so different tournament seeds give
// different 64-bit values for the same match. The top 53 bits are kept, as the daemon keeps
// its own seeds below 2^53, so that the seed survives JSON readers that hold numbers as
// doubles.
func Seed(tournamentSeed uint64, round, index int) uint64 {
	return mix3(tournamentSeed, round, index) >> 11
}

// golden is SplitMix64's increment: 2^64 divided by the golden ratio.
const golden = 0x9e3779b97f4a7c15

// mix is one SplitMix64 output from state z.
func mix(z uint64) uint64 {
	z += golden
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// mix3 mixes a seed with two numbers (Seed without the truncation).
func mix3(seed uint64, a, b int) uint64 {
	return mix(mix(mix(seed)^uint64(a)) ^ uint64(b))
}

// Salts keep the package's own draws (shuffles, tie-breaks, coin flips) apart from the game
// seeds derived from the same tournament seed.
const (
	saltShuffle = 0x73687566666c65 // "shuffle"
	saltSample  = 0x73616d706c65   // "sample"
	saltRank    = 0x72616e6b       // "rank"
	saltCoin    = 0x636f696e       // "coin"
)

// rng is a SplitMix64 generator: small, fast, and fully specified here, so the schedule does
// not depend on the standard library's random streams.
type rng struct{ s uint64 }

func newRNG(seed uint64) *rng { return &rng{s: seed} }

func (r *rng) next() uint64 {
	r.s += golden
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// intn is uniform in [0, n), n > 0: draws below 2^64 mod n are rejected so that no value is
// favoured.
func (r *rng) intn(n int) int {
	bound := uint64(n)
	threshold := -bound % bound
	for {
		if x := r.next(); x >= threshold {
			return int(x % bound)
		}
	}
}

// shuffle puts the matches in an order drawn from r (Fisher-Yates).
func shuffle(ms []Match, r *rng) {
	for i := len(ms) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		ms[i], ms[j] = ms[j], ms[i]
	}
}

// number gives the matches of one round their indices, in order, and their seeds.
func number(ms []Match, seed uint64) {
	for i := range ms {
		ms[i].Index = i + 1
		ms[i].Seed = Seed(seed, ms[i].Round, ms[i].Index)
	}
}
