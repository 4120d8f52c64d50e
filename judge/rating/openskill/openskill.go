// Package openskill implements the Weng-Lin Bayesian approximation for
// online ranking with the Plackett-Luce model.
//
// The update rules are written from the published paper, Ruby C. Weng and
// Chih-Jen Lin, "A Bayesian Approximation Method for Online Ranking",
// Journal of Machine Learning Research 12 (2011), Algorithm 4
// (Plackett-Luce), and not copied from any existing implementation. The
// defaults (mu = 25, sigma = 25/3, beta = sigma/2, kappa = 0.0001,
// gamma_i = sigma_i/c) are the ones used in the paper's experiments and by
// the openskill family of libraries, so that ratings computed here are
// numerically comparable with theirs.
//
// Every player is treated as a one-player team: bot games are free-for-all,
// so the paper's team aggregation (sums of means and variances over team
// members) reduces to the player's own mean and variance.
//
// Ties follow the paper: the players tied with q (the set A_q) share the
// Plackett-Luce stage in which q is chosen, each with weight 1/|A_q|. Tied
// players with equal prior ratings therefore receive identical updates;
// tied players with different ratings do not (the stronger one, having
// failed to beat the weaker, loses mu), which is the Bayesian answer. One
// consequence of sharing a stage is that a tie for first can leave the tied
// players no higher than the player placed just after them; this is the
// published model, not a bug, and it is kept for parity with openskill.
//
// The package is pure: no I/O, no global state, and inputs are never
// modified.
package openskill

import (
	"fmt"
	"math"
)

// Default prior and model parameters. They are exported so callers (and
// stored tournament metadata) can name the exact constants a rating was
// computed with.
const (
	// DefaultMu is the prior mean skill of a new player.
	DefaultMu = 25.0
	// DefaultSigma is the prior standard deviation of a new player's skill;
	// mu - 3*sigma is then 0, so a new player's Ordinal starts at zero.
	DefaultSigma = DefaultMu / 3
	// DefaultBeta is the performance noise: how far a single game's
	// performance may stray from the underlying skill.
	DefaultBeta = DefaultSigma / 2
	// DefaultKappa is the lower bound on the variance shrink factor. It
	// keeps sigma strictly positive, so a player's rating can always move
	// again after a run of surprising results.
	DefaultKappa = 0.0001
)

// Rating is a player's skill belief: a normal distribution with mean Mu and
// standard deviation Sigma.
type Rating struct {
	Mu, Sigma float64
}

// New returns the prior rating for a player who has not played yet.
func New() Rating {
	return Rating{Mu: DefaultMu, Sigma: DefaultSigma}
}

// Ordinal is the conservative skill estimate Mu - 3*Sigma. Leaderboards
// should sort by it rather than by Mu so that a player with few games (large
// Sigma) cannot top the table on one lucky result.
func (r Rating) Ordinal() float64 {
	return r.Mu - 3*r.Sigma
}

// Model holds the parameters of the Plackett-Luce update that are not part
// of any player's rating.
type Model struct {
	// Beta is the standard deviation of game performance around skill.
	// Larger values mean a single game says less, so updates are smaller.
	Beta float64
	// Kappa is the lower bound on the factor that multiplies a player's
	// variance after a game (the paper's kappa); it must be positive.
	Kappa float64
}

// Default returns the model with the paper's and openskill's defaults,
// Beta = 25/6 and Kappa = 0.0001.
func Default() Model {
	return Model{Beta: DefaultBeta, Kappa: DefaultKappa}
}

// Rate applies one game to the players' ratings and returns their new
// ratings in the same order. ranks[i] is the finishing position of player i:
// lower is better (1 = winner), only the order matters, and equal ranks are
// ties. Tied players with equal prior ratings get identical updates.
//
// The inputs are not modified. Rate panics if the slices have different
// lengths, because that is always a programming error in the caller.
// Games with fewer than two players leave ratings unchanged.
func (m Model) Rate(ratings []Rating, ranks []int) []Rating {
	if len(ratings) != len(ranks) {
		panic(fmt.Sprintf("openskill: %d ratings but %d ranks", len(ratings), len(ranks)))
	}
	n := len(ratings)
	out := make([]Rating, n)
	copy(out, ratings)
	if n < 2 {
		return out
	}

	// c is the common scale of the game: total performance variance over
	// all players (paper: c^2 = sum_i (sigma_i^2 + beta^2)).
	beta2 := m.Beta * m.Beta
	var c2 float64
	maxMu := math.Inf(-1)
	for _, r := range ratings {
		c2 += r.Sigma*r.Sigma + beta2
		maxMu = math.Max(maxMu, r.Mu)
	}
	c := math.Sqrt(c2)

	// e[i] = exp(mu_i/c). Only ratios e[i]/C_q are used, so shifting every
	// exponent by max mu is exact in theory and prevents overflow when mu
	// values are large.
	e := make([]float64, n)
	for i, r := range ratings {
		e[i] = math.Exp((r.Mu - maxMu) / c)
	}

	// sumQ[q] is the paper's C_q = sum over s with r(s) >= r(q) of exp(mu_s/c):
	// the Plackett-Luce normaliser for the "stage" at which q is chosen,
	// i.e. q and everyone who finished no better than q.
	// tied[q] is the paper's A_q = |{s : r(s) = r(q)}|; dividing by it
	// shares a tied stage equally among the tied players, which is what makes
	// tied players' updates equal.
	sumQ := make([]float64, n)
	tied := make([]float64, n)
	for q := range n {
		for s := range n {
			if ranks[s] >= ranks[q] {
				sumQ[q] += e[s]
			}
			if ranks[s] == ranks[q] {
				tied[q]++
			}
		}
	}

	for i, r := range ratings {
		// Sum over every stage q at which i was still in contention,
		// i.e. r(q) <= r(i).
		var omega, delta float64
		for q := range n {
			if ranks[q] > ranks[i] {
				continue
			}
			p := e[i] / sumQ[q] // probability that i is picked at stage q
			if q == i {
				omega += (1 - p) / tied[q]
			} else {
				omega -= p / tied[q]
			}
			delta += p * (1 - p) / tied[q]
		}
		sigma2 := r.Sigma * r.Sigma
		// gamma_i = sigma_i/c damps the variance update; it is the choice
		// used in the paper's experiments and openskill's default.
		gamma := r.Sigma / c
		omega *= sigma2 / c
		delta *= gamma * sigma2 / c2
		// With one-player teams sigma_j^2/sigma_i^2 = 1, so the team update
		// applies to the player directly.
		out[i].Mu = r.Mu + omega
		out[i].Sigma = r.Sigma * math.Sqrt(math.Max(1-delta, m.Kappa))
	}
	return out
}
