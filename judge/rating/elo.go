package rating

import (
	"fmt"
	"math"
)

// Default Elo parameters.
const (
	// DefaultK is the classic K-factor for new or lower-rated chess players.
	// Bots play many games, so a fairly large K lets a newly submitted bot
	// reach its level quickly; the price is more noise between games.
	DefaultK = 32.0
	// DefaultStart is the rating given to a bot with no games. 1500 is the
	// conventional centre of the Elo scale and the centre used by the
	// Bradley-Terry fit, so both tables read alike.
	DefaultStart = 1500.0
)

// Elo is an Elo rating system for a live ladder, where ratings must be
// updated one game at a time as results arrive. Unlike the Bradley-Terry
// fit, the outcome depends on the order of games; use it for the running
// ladder, not for final standings.
//
// The zero value has K = 0 and never changes ratings; use DefaultElo.
type Elo struct {
	// K is the maximum rating change from one two-player game.
	K float64
	// Start is the rating of a player with no games.
	Start float64
}

// DefaultElo returns Elo{K: 32, Start: 1500}.
func DefaultElo() Elo {
	return Elo{K: DefaultK, Start: DefaultStart}
}

// Expected returns the expected score of a player rated a against one rated
// b: 1/(1+10^((b-a)/400)). It is the win probability plus half the draw
// probability, so it is directly comparable with a score of 1, 0.5 or 0.
func (e Elo) Expected(a, b float64) float64 {
	return 1 / (1 + math.Pow(10, (b-a)/400))
}

// Update applies one game between players rated a and b, where scoreA is
// a's score (1 win, 0.5 draw, 0 loss; any value in between is accepted for
// partial results). It returns the new ratings. The update is zero-sum, so
// the average rating of the ladder stays at Start.
//
// Update panics if scoreA is outside [0, 1] or NaN: that is a caller bug,
// and silently clamping it would corrupt the ladder.
func (e Elo) Update(a, b, scoreA float64) (newA, newB float64) {
	checkScore(scoreA)
	d := e.K * (scoreA - e.Expected(a, b))
	return a + d, b - d
}

// UpdateRanks applies one multi-player game to ratings and returns the new
// ratings in the same order. ranks[i] is player i's finishing position
// (lower is better, equal ranks are ties). Every pair of players is scored
// as a two-player game (the better-placed player scores 1, tied players
// 0.5), with K scaled by 1/(n-1) so that a player's total change in one
// game is bounded by K regardless of the number of players. All pairs are
// computed from the pre-game ratings, so the result does not depend on the
// order of players.
//
// UpdateRanks panics if the slices have different lengths.
func (e Elo) UpdateRanks(ratings []float64, ranks []int) []float64 {
	if len(ratings) != len(ranks) {
		panic(fmt.Sprintf("rating: %d ratings but %d ranks", len(ratings), len(ranks)))
	}
	n := len(ratings)
	out := make([]float64, n)
	copy(out, ratings)
	if n < 2 {
		return out
	}
	k := e.K / float64(n-1)
	for i := range n {
		for j := i + 1; j < n; j++ {
			s := 0.5
			switch {
			case ranks[i] < ranks[j]:
				s = 1
			case ranks[i] > ranks[j]:
				s = 0
			}
			d := k * (s - e.Expected(ratings[i], ratings[j]))
			out[i] += d
			out[j] -= d
		}
	}
	return out
}

func checkScore(s float64) {
	if !(s >= 0 && s <= 1) {
		panic(fmt.Sprintf("rating: score %v outside [0, 1]", s))
	}
}
