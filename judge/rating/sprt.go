package rating

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// SPRT is a sequential probability ratio test of whether a new version is better than an old
// one, from outcomes that each take one of a few values in [0, 1]: the new version's share of
// the points of a pair of games with the seats swapped (0, 1/4, 1/2, 3/4, 1: pentanomial),
// of one game (0, 1/2, 1), or of a pair of places (the place difference, scaled). H0 says the
// mean outcome is that of an Elo difference of Elo0, H1 that of Elo1, where an Elo
// difference d means a mean of 1/(1+10^(-d/400)).
//
// The log-likelihood ratio is the generalized SPRT's (M. Van den Bergh, "A practical
// introduction to the GSPRT", 2016, the test of the chess engines' Fishtest): the ratio of
// the multinomial likelihoods of the outcomes' counts, under the distribution closest to the
// observed one (most likely) whose mean is each hypothesis's. It stops at Wald's bounds,
// log(beta/(1-alpha)) and log((1-beta)/alpha): accepting H1 ("better") at the upper,
// H0 ("not better") at the lower, which keeps the error rates near alpha and beta.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Verdicts of an SPRT.
const (
	Better    = "better"
	NotBetter = "not_better"
	Undecided = "undecided"
)

// DefaultSPRT is the test `judge compare` runs unless told otherwise: is the new version 50
// Elo better, or no better at all, at 5% error each way.
var DefaultSPRT = SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}

// Check says what is wrong with the test's parameters.
func (t SPRT) Check() error {
	var errs []error
	if !(t.Elo1 > t.Elo0) {
		errs = append(errs, fmt.Errorf("elo1 %v is not above elo0 %v: the test needs a difference to look for", t.Elo1, t.Elo0))
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"alpha", t.Alpha}, {"beta", t.Beta}} {
		if !(p.v > 0 && p.v < 0.5) {
			errs = append(errs, fmt.Errorf("%s %v: want a probability above 0 and below 0.5", p.name, p.v))
		}
	}
	for _, e := range []float64{t.Elo0, t.Elo1} {
		if math.IsNaN(e) || math.Abs(e) >= 2000 {
			errs = append(errs, fmt.Errorf("an Elo difference of %v: want one between -2000 and 2000", e))
		}
	}
	return errors.Join(errs...)
}

// Bounds are the log-likelihood ratios at which the test stops: below lower it says "not
// better", above upper "better".
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// EloScore is the mean outcome of an Elo difference d.
func EloScore(d float64) float64 { return 1 / (1 + math.Pow(10, -d/400)) }

// ScoreElo is the Elo difference of a mean outcome s in (0, 1).
func ScoreElo(s float64) float64 { return -400 * math.Log10(1/s-1) }

// Counts are how often each outcome came: Counts[v] for the value v in [0, 1].
type Counts map[float64]float64

// Add counts one outcome.
func (c Counts) Add(v float64) { c[v]++ }

// N is the number of outcomes counted.
func (c Counts) N() float64 {
	var n float64
	for _, k := range c {
		n += k
	}
	return n
}

// sprtPrior is the count added to each possible outcome before the likelihoods are taken, as
// Fishtest regularizes its counts: without it a run of identical outcomes (a new version that
// won every pair) leaves no distribution with the other hypothesis's mean.
const sprtPrior = 1e-3

// LLR is the log-likelihood ratio of H1 against H0 after the outcomes counted, each one of
// the values support (every value an outcome could take).
func (t SPRT) LLR(c Counts, support []float64) float64 {
	values := slices.Clone(support)
	for v := range c {
		if !slices.Contains(values, v) {
			values = append(values, v)
		}
	}
	slices.Sort(values)
	n := make([]float64, len(values))
	var total float64
	for i, v := range values {
		n[i] = c[v] + sprtPrior
		total += n[i]
	}
	p := make([]float64, len(values))
	for i := range n {
		p[i] = n[i] / total
	}
	q0 := closestWithMean(values, p, EloScore(t.Elo0))
	q1 := closestWithMean(values, p, EloScore(t.Elo1))
	var llr float64
	for i := range values {
		if c[values[i]] > 0 {
			llr += c[values[i]] * math.Log(q1[i]/q0[i])
		}
	}
	return llr
}

// closestWithMean is the distribution over values that is most likely for the observed
// frequencies p among those whose mean is s: q_i = p_i / (1 + lambda (x_i - s)), lambda the
// root in the interval that keeps every q_i positive of sum p_i (x_i - s) / (1 + lambda
// (x_i - s)) = 0, which falls as lambda grows (found by bisection).
func closestWithMean(values, p []float64, s float64) []float64 {
	lo, hi := values[0]-s, values[len(values)-1]-s // every x_i - s lies in [lo, hi], lo < 0 < hi
	if lo >= 0 || hi <= 0 {
		return p // s outside the values: no such distribution; the test cannot tell
	}
	a, b := -1/hi, -1/lo // 1 + lambda d > 0 for every d in [lo, hi]
	g := func(l float64) float64 {
		var sum float64
		for i, x := range values {
			d := x - s
			sum += p[i] * d / (1 + l*d)
		}
		return sum
	}
	// Just inside the interval's ends g is +inf and -inf.
	a, b = a+1e-12*(b-a), b-1e-12*(b-a)
	for range 80 {
		m := (a + b) / 2
		if g(m) > 0 {
			a = m
		} else {
			b = m
		}
	}
	l := (a + b) / 2
	q := make([]float64, len(values))
	var sum float64
	for i, x := range values {
		q[i] = p[i] / (1 + l*(x-s))
		sum += q[i]
	}
	for i := range q {
		q[i] /= sum
	}
	return q
}

// PairOutcome is NEW's share of a pair of matches that differ only in which of NEW and OLD
// sits in the compared seat, from each match's ranks by seat (1 the first): in a game of two,
// NEW sat in seat 0 of a and seat 1 of b, and the share is its points of the two (1 a win,
// 1/2 a draw) over two; in a game of more, NEW sat in seat of a and OLD in seat of b, and the
// share is where NEW finished against where OLD did, scaled to [0, 1].
func PairOutcome(a, b []int, seat int) float64 {
	n := len(a)
	if n == 2 {
		score := func(r []int, k int) float64 {
			switch mine, theirs := r[k], r[1-k]; {
			case mine < theirs:
				return 1
			case mine == theirs:
				return 0.5
			}
			return 0
		}
		return (score(a, 0) + score(b, 1)) / 2
	}
	d := float64(b[seat] - a[seat])
	return (d + float64(n-1)) / float64(2*(n-1))
}

// PairSupport is every outcome PairOutcome can give in a game of n seats.
func PairSupport(n int) []float64 {
	steps := 4
	if n > 2 {
		steps = 2 * (n - 1)
	}
	out := make([]float64, steps+1)
	for i := range out {
		out[i] = float64(i) / float64(steps)
	}
	return out
}

// Decide is the verdict at the log-likelihood ratio llr: better, not better, or undecided
// while it lies between the bounds.
func (t SPRT) Decide(llr float64) string {
	lower, upper := t.Bounds()
	switch {
	case llr >= upper:
		return Better
	case llr <= lower:
		return NotBetter
	}
	return Undecided
}

// Mean is the mean of the outcomes counted, and the interval around it at the confidence
// (a normal approximation, from the outcomes' own variance).
func (c Counts) Mean(confidence float64) (mean, low, high float64) {
	n := c.N()
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	for v, k := range c {
		mean += v * k
	}
	mean /= n
	var ss float64
	for v, k := range c {
		ss += k * (v - mean) * (v - mean)
	}
	if n < 2 {
		return mean, math.Inf(-1), math.Inf(1)
	}
	se := math.Sqrt(ss / (n - 1) / n)
	z := distuv.UnitNormal.Quantile(1 - (1-confidence)/2)
	return mean, mean - z*se, mean + z*se
}

// FixedSample is the number of outcomes a test of fixed size needs for the same error rates
// as t, when each outcome's variance is variance: the z-test of the mean's
// n = ((z_alpha + z_beta) sigma / (s1 - s0))^2.
func (t SPRT) FixedSample(variance float64) float64 {
	za := distuv.UnitNormal.Quantile(1 - t.Alpha)
	zb := distuv.UnitNormal.Quantile(1 - t.Beta)
	d := EloScore(t.Elo1) - EloScore(t.Elo0)
	return math.Pow((za+zb)*math.Sqrt(variance)/d, 2)
}
