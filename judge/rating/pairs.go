package rating

import (
	"cmp"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// PairRecord is what entrant I did against entrant J: won, drawn and lost (in a match of
// more than two, I finished above J, level with J, below J).
type PairRecord struct {
	I, J             int
	Won, Drawn, Lost int
}

// PairFit is a field's strengths fitted to its results by pair, with their doubt.
type PairFit struct {
	Separation
	// Strength is each entrant's, in logits against the field (i beats j with probability
	// logistic(Strength[i] - Strength[j])); SE the standard error of its difference from the
	// field's mean (Inf for an entrant with no result); Matches its results counted (a match
	// of more than two counts once for each other entrant in it).
	Strength, SE []float64
	Matches      []int
	// cov is the strengths' covariance, scaled (nil when the fit failed).
	cov *mat.SymDense
}

// GapSE is the standard error of Strength[i] - Strength[j] (Inf when either has no result).
func (f PairFit) GapSE(i, j int) float64 {
	if f.cov == nil || f.Matches[i] == 0 || f.Matches[j] == 0 {
		return math.Inf(1)
	}
	return math.Sqrt(max(0, f.cov.At(i, i)+f.cov.At(j, j)-2*f.cov.At(i, j)))
}

// pairRidge is the fit's penalty on every strength, in logits: a prior of deviation 3 logits
// (about 520 Elo) about the field's mean, vague beside any real field, which keeps the fit
// finite and its doubt honest when a version won or lost everything (two wins in two are no
// certainty), and ties a field of unconnected parts to one scale.
const pairRidge = 1.0 / 9

// SeparatePairs fits the strengths of n entrants to their results by pair and says how sure
// it is of their order, for a field whose entrants did not all play the same schedule (a
// ladder): the round's Separate compares totals of one schedule, and cannot.
//
// The model is Bradley-Terry's, P(i above j) = logistic(s_i - s_j), a draw half of each, by
// maximum quasi-likelihood (Newton's method, with a light ridge). The strengths' covariance
// is the inverse of the fit's information, times the dispersion of the results about the
// fit (Pearson's, at least 1) and, for matches of more
// than two (seats), the design effect of the pairs one match makes: an entrant's results
// against the others of one match go together (one that played well beat them all), and for
// exchangeable performances the variance of their sum is (seats+1)/3 times that of as many
// independent ones. The test of "i and j are equally strong" is (s_i - s_j) over the
// standard error of the difference, against Student's t with the results less the strengths
// as degrees of freedom; ranks and confidences read it as Separate's. An entrant with no
// result is compared with no one.
func SeparatePairs(n, seats int, recs []PairRecord) PairFit {
	f := PairFit{Strength: make([]float64, n), SE: make([]float64, n), Matches: make([]int, n)}
	f.Separation = Separation{n: n, total: f.Strength, plays: f.Matches, p: make([]float64, n*n), sign: make([]int8, n*n)}
	for i := range f.p {
		f.p[i] = 1
	}
	type pair struct {
		i, j    int
		n, s, d float64 // results, i's score (a draw half), draws
	}
	var ps []pair
	total := 0.0
	for _, r := range recs {
		k := r.Won + r.Drawn + r.Lost
		if r.I == r.J || r.I < 0 || r.J < 0 || r.I >= n || r.J >= n || k <= 0 || r.Won < 0 || r.Drawn < 0 || r.Lost < 0 {
			continue
		}
		ps = append(ps, pair{r.I, r.J, float64(k), float64(r.Won) + float64(r.Drawn)/2, float64(r.Drawn)})
		f.Matches[r.I] += k
		f.Matches[r.J] += k
		total += float64(k)
	}
	for i := range f.SE {
		f.SE[i] = math.Inf(1)
	}
	if len(ps) == 0 {
		return f
	}
	x := f.Strength
	grad := make([]float64, n)
	hess := mat.NewSymDense(n, nil)
	info := func() {
		for i := range n {
			grad[i] = -pairRidge * x[i]
			for j := i; j < n; j++ {
				hess.SetSym(i, j, 0)
			}
			hess.SetSym(i, i, pairRidge)
		}
		for _, p := range ps {
			mu := logistic(x[p.i] - x[p.j])
			g, w := p.s-p.n*mu, p.n*mu*(1-mu)
			grad[p.i] += g
			grad[p.j] -= g
			hess.SetSym(p.i, p.i, hess.At(p.i, p.i)+w)
			hess.SetSym(p.j, p.j, hess.At(p.j, p.j)+w)
			a, b := min(p.i, p.j), max(p.i, p.j)
			hess.SetSym(a, b, hess.At(a, b)-w)
		}
	}
	var ch mat.Cholesky
	step := mat.NewVecDense(n, nil)
	for range 50 {
		info()
		if !ch.Factorize(hess) {
			return f
		}
		if err := ch.SolveVecTo(step, mat.NewVecDense(n, grad)); err != nil {
			return f
		}
		biggest := 0.0
		for i := range n {
			d := max(-2, min(2, step.AtVec(i))) // a step of more than 2 logits is a fit far off yet
			x[i] += d
			biggest = max(biggest, math.Abs(d))
		}
		if biggest < 1e-10 {
			break
		}
	}
	info()
	if !ch.Factorize(hess) {
		return f
	}
	var cov mat.SymDense
	if err := ch.InverseTo(&cov); err != nil {
		return f
	}
	// Pearson's dispersion of the results about the fit, per result.
	var chi float64
	for _, p := range ps {
		mu := logistic(x[p.i] - x[p.j])
		won := p.s - p.d/2
		lost := p.n - won - p.d
		chi += (won*(1-mu)*(1-mu) + p.d*(0.5-mu)*(0.5-mu) + lost*mu*mu) / (mu * (1 - mu))
	}
	entrants := 0
	for _, k := range f.Matches {
		if k > 0 {
			entrants++
		}
	}
	df := total - float64(entrants-1)
	if df < 1 {
		return f
	}
	// The dispersion is never taken below a coin's: few results that all went one way (bots
	// that play the same every time) would otherwise leave no doubt at all.
	cov.ScaleSym(max(1, chi/df)*float64(max(seats, 2)+1)/3, &cov)
	f.cov = &cov
	// The variance of s_i less the mean of the entrants with results.
	var in []int
	for i, k := range f.Matches {
		if k > 0 {
			in = append(in, i)
		}
	}
	rowMean := make([]float64, n)
	var all float64
	for _, i := range in {
		for _, j := range in {
			rowMean[i] += cov.At(i, j) / float64(len(in))
		}
		all += rowMean[i] / float64(len(in))
	}
	for _, i := range in {
		f.SE[i] = math.Sqrt(max(0, cov.At(i, i)-2*rowMean[i]+all))
	}
	var t interface{ Survival(float64) float64 } = distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	if df > 1000 {
		t = distuv.UnitNormal // within 0.0003 of Student's at the 95% point, and far cheaper
	}
	for i := range n {
		for j := range n {
			f.sign[i*n+j] = int8(cmp.Compare(x[i], x[j]))
		}
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			d := x[i] - x[j]
			if f.Matches[i] == 0 || f.Matches[j] == 0 || d == 0 {
				continue
			}
			p := 0.0
			if se := f.GapSE(i, j); se > 0 {
				p = 2 * t.Survival(math.Abs(d)/se)
			}
			f.p[i*n+j], f.p[j*n+i] = p, p
		}
	}
	return f
}
