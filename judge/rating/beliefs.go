package rating

import (
	"cmp"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// SeparateBeliefs is the separation of entrants whose strengths are known as independent
// normal beliefs, mean mu[i] and deviation sigma[i] (a rating's, as the ladder's OpenSkill keeps
// them), for a field whose matches are not kept. The test of "i and j are equally strong" is
// that of the difference of the two beliefs: |mu_i - mu_j| / sqrt(sigma_i^2 + sigma_j^2)
// against the standard normal, two-sided, as Separate's is; Confidence and RankRanges read it as
// they read Separate's, so the places of a ladder and of a round are bounded the same way.
// Total is mu. An entrant of sigma 0 or a belief that is not a number is compared with no one.
func SeparateBeliefs(mu, sigma []float64) Separation {
	n := len(mu)
	s := Separation{n: n, total: make([]float64, n), plays: make([]int, n), p: make([]float64, n*n), sign: make([]int8, n*n)}
	copy(s.total, mu)
	ok := func(i int) bool {
		return i < len(sigma) && sigma[i] > 0 && !math.IsNaN(mu[i]) && !math.IsInf(mu[i], 0) && !math.IsInf(sigma[i], 0)
	}
	for i := range n {
		for j := range n {
			s.p[i*n+j] = 1
			s.sign[i*n+j] = int8(cmp.Compare(mu[i], mu[j]))
		}
		if ok(i) {
			s.plays[i] = 1
		}
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if !ok(i) || !ok(j) || mu[i] == mu[j] {
				continue
			}
			z := math.Abs(mu[i]-mu[j]) / math.Hypot(sigma[i], sigma[j])
			p := 2 * distuv.UnitNormal.Survival(z)
			s.p[i*n+j], s.p[j*n+i] = p, p
		}
	}
	return s
}

// Known reports whether the separation is sure, at the confidence, that i stands above j:
// by Holm's step-down over i's comparisons or over j's, as RankRanges counts them. Listing
// the entrants in an order that keeps every such pair in it keeps each one's place inside
// its range.
func (s Separation) Known(confidence float64) [][]bool {
	alpha := 1 - confidence
	out := make([][]bool, s.n)
	for i := range out {
		out[i] = make([]bool, s.n)
	}
	for i := range s.n {
		for _, j := range s.holm(i, alpha) {
			if _, sign := s.test(i, j); sign > 0 {
				out[i][j] = true
			} else {
				out[j][i] = true
			}
		}
	}
	return out
}
