package rating

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Parameters of the Bradley-Terry fit. They are constants rather than
// options because tournament standings must be reproducible from the game
// list alone.
const (
	// BTPriorDraws is the number of virtual draws each player is given
	// against a fixed reference player of strength 1. Without it a player
	// who won (or lost) every game has an infinite (or zero) maximum
	// likelihood strength and the fit diverges; one draw is enough to keep
	// every strength finite and positive while barely moving players with
	// many games. It also makes the comparison graph connected, which is
	// the condition for the maximum to exist and be unique (Hunter 2004).
	BTPriorDraws = 1.0
	// BTTolerance is the convergence threshold: iteration stops when no
	// strength changes by more than this fraction in one MM step.
	BTTolerance = 1e-9
	// BTMaxIterations bounds the work on pathological inputs. MM converges
	// monotonically but only linearly, and slowly when strengths are very
	// far apart.
	BTMaxIterations = 10000
)

// Result is one two-player game for the Bradley-Terry fit: Winner beat
// Loser, or, if Draw is set, the two drew (the order of Winner and Loser
// then does not matter). Players are indices in [0, n).
type Result struct {
	Winner, Loser int
	Draw          bool
}

// BTFit is the outcome of FitBradleyTerry.
type BTFit struct {
	// Strength is each player's fitted Bradley-Terry strength gamma_i: the
	// model says i beats j with probability gamma_i/(gamma_i+gamma_j).
	// It is on the scale where the reference player of the prior has
	// strength 1.
	Strength []float64
	// Rating is Strength on an Elo-like scale,
	// 1500 + 400*log10(gamma_i/G), where G is the geometric mean strength
	// of the players. The 400*log10 makes the fitted win probability equal
	// to Elo's expected score for the same rating difference, and dividing
	// by G centres the field on 1500 (the mean Rating is exactly 1500, as
	// on a zero-sum Elo ladder that started everyone at 1500).
	Rating []float64
	// Iterations is the number of MM steps taken.
	Iterations int
	// Converged reports whether BTTolerance was reached within
	// BTMaxIterations. If not, the returned values are the last iterate,
	// which is still a valid (if not fully converged) estimate.
	Converged bool
}

// FitBradleyTerry fits a Bradley-Terry model to the results of games among
// n players by maximum likelihood (with the BTPriorDraws prior), using the
// MM algorithm of Hunter (2004), "MM algorithms for generalized
// Bradley-Terry models", Annals of Statistics 32(1), section 2:
//
//	gamma_i <- W_i / sum_j N_ij/(gamma_i + gamma_j)
//
// where W_i is i's number of wins (a draw counts half a win for each side)
// and N_ij the number of games between i and j, the reference player being
// one more opponent with fixed strength 1. Each step cannot decrease the
// likelihood, and it converges to the unique maximum.
//
// Unlike Elo, the fit sees only the totals W_i and N_ij, so the order of
// results does not matter. The totals are sums of halves, which floating
// point adds exactly, and the iteration runs in player order, so shuffling
// results gives bit-for-bit identical output.
//
// A player with no games keeps the reference strength 1, i.e. the prior's
// "no information" value. FitBradleyTerry returns an error if n is negative
// or a result names a player outside [0, n) or the same player twice.
func FitBradleyTerry(n int, results []Result) (BTFit, error) {
	if n < 0 {
		return BTFit{}, errors.New("rating: negative number of players")
	}
	type pair struct{ i, j int }
	wins := make([]float64, n)
	games := make(map[pair]float64)
	for k, r := range results {
		i, j := r.Winner, r.Loser
		if i < 0 || i >= n || j < 0 || j >= n {
			return BTFit{}, fmt.Errorf("rating: result %d: player out of range [0, %d): %d vs %d", k, n, i, j)
		}
		if i == j {
			return BTFit{}, fmt.Errorf("rating: result %d: player %d plays itself", k, i)
		}
		if r.Draw {
			wins[i] += 0.5
			wins[j] += 0.5
		} else {
			wins[i]++
		}
		if i > j {
			i, j = j, i
		}
		games[pair{i, j}]++
	}
	// The prior: BTPriorDraws draws against the reference player.
	for i := range wins {
		wins[i] += BTPriorDraws / 2
	}
	// Iterate over pairs in a fixed order so floating-point sums do not
	// depend on Go's random map order.
	type count struct {
		i, j int
		n    float64
	}
	pairs := make([]count, 0, len(games))
	for p, c := range games {
		pairs = append(pairs, count{p.i, p.j, c})
	}
	slices.SortFunc(pairs, func(a, b count) int {
		return cmp.Or(cmp.Compare(a.i, b.i), cmp.Compare(a.j, b.j))
	})

	gamma := make([]float64, n)
	for i := range gamma {
		gamma[i] = 1
	}
	next := make([]float64, n)
	denom := make([]float64, n)
	fit := BTFit{}
	for fit.Iterations < BTMaxIterations {
		fit.Iterations++
		for i, g := range gamma {
			denom[i] = BTPriorDraws / (g + 1)
		}
		for _, p := range pairs {
			d := p.n / (gamma[p.i] + gamma[p.j])
			denom[p.i] += d
			denom[p.j] += d
		}
		var change float64
		for i := range gamma {
			next[i] = wins[i] / denom[i]
			change = math.Max(change, math.Abs(next[i]-gamma[i])/gamma[i])
		}
		gamma, next = next, gamma
		if change <= BTTolerance {
			fit.Converged = true
			break
		}
	}

	fit.Strength = gamma
	fit.Rating = make([]float64, n)
	var meanLog float64
	for _, g := range gamma {
		meanLog += math.Log10(g)
	}
	if n > 0 {
		meanLog /= float64(n)
	}
	for i, g := range gamma {
		fit.Rating[i] = DefaultStart + 400*(math.Log10(g)-meanLog)
	}
	return fit, nil
}
