package rating

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Play is one seat of a match for Separate: the entrant that sat there and the points the
// round's standing rule gave it for the match (its match score, or the points of its place).
type Play struct {
	Entrant int
	Points  float64
}

// Separation says how sure a round is of the order of its entrants: for each pair, how far
// apart their totals are against the noise of the matches that made them.
//
// A round ranks entrants by their total points T_i, so whether i truly stands above j is
// whether E[T_i - T_j] > 0 for the schedule the round played. The matches are independent,
// so the variance of T_i - T_j is the sum over the matches of that of (i's points - j's
// points) in it. Each match is played once, so what to expect of each seat comes from a
// model fitted to the whole round, a logistic regression of the points scaled to [0, 1] by
// the round's lowest and highest:
//
//	E[y] = logistic(a[entrant] + b[seat] + sum of g[opponent]/(seats-1))
//
// fitted by maximum quasi-likelihood (Newton's method on gonum's Cholesky, with a light ridge so that a bot that lost
// every match keeps a finite strength). The logistic keeps what the matches show at the
// ends: a bot that beats another every time adds little doubt, however far apart they are.
//
// The test of "i and j are equally strong" is a score test: the variance of T_i - T_j is the
// sum of the squares of i's and j's residuals (i's less j's in a match of both) against the
// model refitted under that null, their own terms made one, fitted to their seats together.
// Against the fitted strengths instead, a bot that lost by chance would seem more certain to
// lose (its fitted chances near the end of the logistic, where the variance is small), and
// copies of one bot would be "separated" twice as often as allowed. The sum is scaled up by
// the share of the observations the model's parameters took (N/(N-p)), and the difference
// over its standard error read against Student's t with the two entrants' observations less
// one as its degrees of freedom. What the model cannot explain (a bot that does well against
// one opponent and badly against another) stays in the residuals: the errors fall on the
// side of "not separated".
//
// Confidence is the two-sided confidence at which the difference's interval leaves out
// zero, not the one-sided P(i above j): the pair a table shows next to each other was
// picked by their totals, and copies of one bot would otherwise be "separated at 95%" one
// time in ten. Ranks are Holm's step-down over each entrant's comparisons (after Klein,
// Wright and Wieczorek 2020, "A joint confidence region for an overall ranking of
// populations", Applied Statistics 69(3)): the interval holds the entrant's true place
// with at least the stated probability.
type Separation struct {
	n     int
	total []float64
	plays []int
	// p and sign are, for each pair (i*n+j), the two-sided p-value of "i and j are equally
	// strong" and the sign of T_i - T_j.
	p    []float64
	sign []int8
}

// separationRidge is the fit's penalty on every parameter, in the units of the logistic:
// small beside what a round of a few matches an entrant says, it keeps the fit finite when a
// bot lost or won every match.
const separationRidge = 0.01

// Separate measures the separation of n entrants after the matches: each is its seats, in
// seat order. A match with an entrant outside [0, n), or a point that is not a number, is
// skipped.
func Separate(n int, matches [][]Play) Separation {
	s := Separation{n: n, total: make([]float64, n), plays: make([]int, n), p: make([]float64, n*n), sign: make([]int8, n*n)}
	for i := range s.p {
		s.p[i] = 1
	}
	var ms [][]Play
	seats := 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, m := range matches {
		ok := len(m) >= 2
		for _, p := range m {
			ok = ok && p.Entrant >= 0 && p.Entrant < n && !math.IsNaN(p.Points) && !math.IsInf(p.Points, 0)
		}
		if !ok {
			continue
		}
		ms = append(ms, m)
		seats = max(seats, len(m))
		for _, p := range m {
			s.total[p.Entrant] += p.Points
			s.plays[p.Entrant]++
			lo, hi = min(lo, p.Points), max(hi, p.Points)
		}
	}
	for i := range n {
		for j := range n {
			s.sign[i*n+j] = int8(cmp.Compare(s.total[i], s.total[j]))
		}
	}
	if len(ms) == 0 || hi <= lo {
		return s // no match, or every seat the same points: nothing tells anyone apart
	}
	obs, entrants := 0, 0
	for _, k := range s.plays {
		obs += k
		if k > 0 {
			entrants++
		}
	}
	// A game whose matches all hand out the same points in all (a split of 20, places'
	// 3+2+1+0) has one observation a match fewer, and its own and opponents' terms are one.
	constSum, sum0 := true, math.NaN()
	for _, m := range ms {
		var t float64
		for _, p := range m {
			t += p.Points
		}
		if math.IsNaN(sum0) {
			sum0 = t
		}
		constSum = constSum && math.Abs(t-sum0) <= 1e-9*max(1, math.Abs(sum0))
	}
	params, eff := 2*entrants+seats-2, obs
	if constSum {
		params, eff = entrants+seats-2, obs-len(ms)
	}
	df := eff - params
	if df < 1 {
		return s
	}
	x := fitQuasiBinomial(n, seats, ms, lo, hi)
	seen := make([][][2]int, n) // each entrant's seats: (match, seat)
	for i, m := range ms {
		for k, p := range m {
			seen[p.Entrant] = append(seen[p.Entrant], [2]int{i, k})
		}
	}
	scale := float64(eff) / float64(df)
	t := distuv.StudentsT{Mu: 0, Sigma: 1}
	for i := range n {
		for j := i + 1; j < n; j++ {
			d := s.total[i] - s.total[j]
			if s.plays[i] == 0 || s.plays[j] == 0 || d == 0 {
				continue
			}
			v := scale * pooledVariance(n, ms, x, seen[i], seen[j], lo, hi)
			p := 0.0 // the matches left no noise: the order is what they say
			if v > 0 {
				t.Nu = max(1, float64(s.plays[i]+s.plays[j]-1))
				p = 2 * t.Survival(math.Abs(d)/math.Sqrt(v))
			}
			s.p[i*n+j], s.p[j*n+i] = p, p
		}
	}
	return s
}

// pooledVariance is the variance of T_i - T_j were i and j equally strong (the score test's,
// which stays true where the one of the fitted strengths would not: a bot that lost every
// match would have no doubt in it), from the residuals of the seats of i (at) and of j (bt)
// against the model refitted under that null: i's and j's own terms one, fitted to their
// seats together, their opponents' terms their mean.
func pooledVariance(n int, ms [][]Play, x []float64, at, bt [][2]int, lo, hi float64) float64 {
	i, j := ms[at[0][0]][at[0][1]].Entrant, ms[bt[0][0]][bt[0][1]].Entrant
	opp := (x[n+i] + x[n+j]) / 2
	// rest is the part of a seat's logit that is not its own term.
	rest := func(m []Play, k int) float64 {
		e := x[2*n+k]
		w := 1 / float64(len(m)-1)
		for l, q := range m {
			if l != k {
				if q.Entrant == i || q.Entrant == j {
					e += w * opp
				} else {
					e += w * x[n+q.Entrant]
				}
			}
		}
		return e
	}
	type seat struct{ rest, y float64 }
	var seats []seat
	var sumY float64
	for _, list := range [][][2]int{at, bt} {
		for _, mk := range list {
			m, k := ms[mk[0]], mk[1]
			y := (m[k].Points - lo) / (hi - lo)
			seats = append(seats, seat{rest(m, k), y})
			sumY += y
		}
	}
	// The common own term solves sum(mu) = sum(y): Newton's steps, each kept within bounds
	// that bisect what they learn, so that a step can never run away.
	own, lower, upper := (x[i]+x[j])/2, -50.0, 50.0
	for range 60 {
		var f, df float64
		for _, st := range seats {
			mu := logistic(own + st.rest)
			f += mu
			df += mu * (1 - mu)
		}
		f -= sumY
		if f > 0 {
			upper = own
		} else {
			lower = own
		}
		next := own - f/max(df, 1e-12)
		if !(next > lower && next < upper) {
			next = (lower + upper) / 2
		}
		if math.Abs(next-own) < 1e-9 {
			break
		}
		own = next
	}
	residual := func(mk [2]int) float64 {
		m, k := ms[mk[0]], mk[1]
		return m[k].Points - lo - (hi-lo)*logistic(own+rest(m, k))
	}
	var v float64
	a, b := 0, 0
	for a < len(at) || b < len(bt) {
		switch {
		case b == len(bt) || a < len(at) && at[a][0] < bt[b][0]:
			r := residual(at[a])
			v += r * r
			a++
		case a == len(at) || bt[b][0] < at[a][0]:
			r := residual(bt[b])
			v += r * r
			b++
		default: // a match of both
			r := residual(at[a]) - residual(bt[b])
			v += r * r
			a++
			b++
		}
	}
	return v
}

// fitQuasiBinomial fits the model of Separation by Newton's method and returns its terms: a (n), g
// (n) and b (seats).
func fitQuasiBinomial(n, seats int, ms [][]Play, lo, hi float64) []float64 {
	// x holds a (n), g (n) and b (seats).
	eta := func(x []float64, m []Play, k int) float64 {
		e := x[m[k].Entrant] + x[2*n+k]
		w := 1 / float64(len(m)-1)
		for l, q := range m {
			if l != k {
				e += w * x[n+q.Entrant]
			}
		}
		return e
	}
	ys := make([][]float64, len(ms))
	for i, m := range ms {
		ys[i] = make([]float64, len(m))
		for k, p := range m {
			ys[i][k] = (p.Points - lo) / (hi - lo)
		}
	}
	f := func(x []float64) float64 {
		var f float64
		for i, m := range ms {
			for k := range m {
				e, y := eta(x, m, k), ys[i][k]
				// -y log(mu) - (1-y) log(1-mu), with log(1+exp) kept finite.
				f += softplus(e) - y*e
			}
		}
		for _, v := range x {
			f += separationRidge / 2 * v * v
		}
		return f
	}
	// gradHess is the gradient and the Hessian: the sum over the observations of (mu - y) and
	// of mu (1 - mu) times each one's coefficients (and their outer product), and the ridge's.
	size := 2*n + seats
	grad, hess := make([]float64, size), mat.NewSymDense(size, nil)
	idx, coef := make([]int, 0, seats+1), make([]float64, 0, seats+1)
	gradHess := func(x []float64) {
		for j := range size {
			grad[j] = separationRidge * x[j]
			for k := j; k < size; k++ {
				hess.SetSym(j, k, 0)
			}
			hess.SetSym(j, j, separationRidge)
		}
		for i, m := range ms {
			w := 1 / float64(len(m)-1)
			for k, p := range m {
				mu := logistic(eta(x, m, k))
				d, v := mu-ys[i][k], mu*(1-mu)
				idx, coef = append(idx[:0], p.Entrant, 2*n+k), append(coef[:0], 1, 1)
				for l, q := range m {
					if l != k {
						idx, coef = append(idx, n+q.Entrant), append(coef, w)
					}
				}
				for a := range idx {
					grad[idx[a]] += d * coef[a]
					for b := range idx {
						if idx[a] <= idx[b] {
							hess.SetSym(idx[a], idx[b], hess.At(idx[a], idx[b])+v*coef[a]*coef[b])
						}
					}
				}
			}
		}
	}
	// Newton's method, each step halved until it gains (the objective is convex: the ridge
	// keeps the Hessian positive definite, so its Cholesky factor always exists).
	x, next := make([]float64, size), make([]float64, size)
	var chol mat.Cholesky
	step := mat.NewVecDense(size, nil)
	fx := f(x)
	for range 100 {
		gradHess(x)
		if floats.Norm(grad, math.Inf(1)) < 1e-6 || !chol.Factorize(hess) {
			break
		}
		if err := chol.SolveVecTo(step, mat.NewVecDense(size, grad)); err != nil {
			break
		}
		slope := floats.Dot(grad, step.RawVector().Data)
		t := 1.0
		for ; t > 1e-10; t /= 2 {
			for j := range x {
				next[j] = x[j] - t*step.AtVec(j)
			}
			if fn := f(next); fn <= fx-1e-4*t*slope {
				fx = fn
				break
			}
		}
		if t <= 1e-10 {
			break // no step gains
		}
		x, next = next, x
		if t*slope < 1e-12*(1+math.Abs(fx)) {
			break // what it gains is below rounding
		}
	}
	return x
}

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func softplus(x float64) float64 {
	if x > 30 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

// Total is entrant i's total points.
func (s Separation) Total(i int) float64 { return s.total[i] }

// test is the two-sided p-value of "i and j are equally strong" and the sign of T_i - T_j;
// 1 when the round has too few observations to say anything.
func (s Separation) test(i, j int) (p float64, sign int) {
	return s.p[i*s.n+j], int(s.sign[i*s.n+j])
}

// Confidence is how sure the round is that i stands above j: the largest confidence at
// which the interval of their difference leaves out zero, on i's side; 0 when the round put
// them level or j above.
func (s Separation) Confidence(i, j int) float64 {
	p, sign := s.test(i, j)
	if sign <= 0 {
		return 0
	}
	return 1 - p
}

// RankRanges is, for each entrant, the places [best, worst] (from 1) it could truly hold at
// the given confidence: best is 1 plus the entrants known to be above it, worst n less those
// known to be below, by Holm's step-down over its n-1 comparisons at 1 - confidence, so
// that the interval holds its true place (every place it could hold, when others are level
// with it) with at least that probability. An entrant that played no match is compared with
// no one.
func (s Separation) RankRanges(confidence float64) [][2]int {
	out := make([][2]int, s.n)
	for i := range s.n {
		above, below := 0, 0
		for _, j := range s.holm(i, 1-confidence) {
			if _, sign := s.test(i, j); sign > 0 {
				below++
			} else {
				above++
			}
		}
		out[i] = [2]int{1 + above, s.n - below}
	}
	return out
}

// holm are the entrants Holm's step-down over i's n-1 comparisons at alpha tells apart from
// i (above it or below).
func (s Separation) holm(i int, alpha float64) []int {
	type cmpTo struct {
		j int
		p float64
	}
	others := make([]cmpTo, 0, s.n)
	for j := range s.n {
		if j != i {
			p, _ := s.test(i, j)
			others = append(others, cmpTo{j, p})
		}
	}
	slices.SortFunc(others, func(a, b cmpTo) int { return cmp.Compare(a.p, b.p) })
	var out []int
	for k, c := range others {
		if c.p > alpha/float64(len(others)-k) {
			break
		}
		out = append(out, c.j)
	}
	return out
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
