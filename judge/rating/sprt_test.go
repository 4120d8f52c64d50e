package rating

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// A simulated comparison: each pair of games is played with the same seed and the seats
// swapped. A game's expected score for the new version is that of the true Elo difference,
// moved by the seed's favour of seat 0 (b), which the swap takes back: the two games of a
// pair lean opposite ways, as a real seed's do, and a pair's two halves are negatively
// correlated. A fifth of the games are drawn.
type comparison struct {
	elo    float64
	favour float64 // the seat advantage a seed gives, in score
}

func (c comparison) game(r *rand.Rand, s float64) float64 {
	const draws = 0.2
	s = max(draws/2, min(1-draws/2, s))
	switch u := r.Float64(); {
	case u < s-draws/2:
		return 1
	case u < s+draws/2:
		return 0.5
	}
	return 0
}

// pair is the new version's share of a pair's points, and the two games.
func (c comparison) pair(r *rand.Rand) (float64, [2]float64) {
	s, b := EloScore(c.elo), c.favour*(2*r.Float64()-1)
	g := [2]float64{c.game(r, s+b), c.game(r, s-b)}
	return (g[0] + g[1]) / 2, g
}

var pentanomial = []float64{0, 0.25, 0.5, 0.75, 1}
var trinomial = []float64{0, 0.5, 1}

// run plays the test until it decides or max pairs, counting pairs (pentanomial) or games
// one by one; it returns the verdict and the games played.
func (c comparison) run(r *rand.Rand, t SPRT, paired bool, max int) (string, int) {
	counts := Counts{}
	support := pentanomial
	if !paired {
		support = trinomial
	}
	for games := 2; games <= 2*max; games += 2 {
		x, g := c.pair(r)
		if paired {
			counts.Add(x)
		} else {
			counts.Add(g[0])
			counts.Add(g[1])
		}
		if v := t.Decide(t.LLR(counts, support)); v != Undecided {
			return v, games
		}
	}
	return Undecided, 2 * max
}

// The wrong verdicts come no more often than alpha and beta say: "better" at a true difference
// of elo0, "not better" at elo1; paired and unpaired.
func TestSPRTErrorRates(t *testing.T) {
	t.Parallel() // simulations of seconds each: the package runs them side by side
	for _, tc := range []struct {
		name   string
		test   SPRT
		paired bool
	}{
		{"pentanomial, 0 and 50 at 5%", DefaultSPRT, true},
		{"trinomial, 0 and 50 at 5%", DefaultSPRT, false},
		{"pentanomial, 0 and 80 at 1% and 10%", SPRT{Elo0: 0, Elo1: 80, Alpha: 0.01, Beta: 0.1}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, uint64(len(tc.name))))
			runs := simRuns()
			for _, at := range []struct {
				elo   float64
				wrong string
				rate  float64
			}{{tc.test.Elo0, Better, tc.test.Alpha}, {tc.test.Elo1, NotBetter, tc.test.Beta}} {
				c := comparison{elo: at.elo, favour: 0.3}
				wrong, undecided, games := 0, 0, 0
				for range runs {
					v, n := c.run(r, tc.test, tc.paired, 5000)
					games += n
					switch v {
					case at.wrong:
						wrong++
					case Undecided:
						undecided++
					}
				}
				rate := float64(wrong) / float64(runs)
				t.Logf("at %v Elo: %q in %.4f of %d runs (promised %v, the simulation's standard error %.4f), %d undecided, %.0f games on average",
					at.elo, at.wrong, rate, runs, at.rate, math.Sqrt(at.rate*(1-at.rate)/float64(runs)), undecided, float64(games)/float64(runs))
				if rate > rateBound(at.rate, runs) {
					t.Errorf("at %v Elo the test said %q in %.4f of the runs, more than %v", at.elo, at.wrong, rate, at.rate)
				}
			}
		})
	}
}

// Pairs decide sooner than single games, and the sequential test sooner than a test of fixed
// size, at every true difference from none to twice elo1.
func TestSPRTNeedsFewerGames(t *testing.T) {
	t.Parallel() // simulations of seconds each: the package runs them side by side
	test := DefaultSPRT
	r := rand.New(rand.NewPCG(8, 9))
	const runs = 400
	for _, elo := range []float64{0, test.Elo1 / 2, test.Elo1, 2 * test.Elo1} {
		c := comparison{elo: elo, favour: 0.3}
		mean := func(paired bool) float64 {
			games := 0
			for range runs {
				_, n := c.run(r, test, paired, 5000)
				games += n
			}
			return float64(games) / runs
		}
		paired, single := mean(true), mean(false)
		// A fixed-size test of single games, whose variance is a game's at the midpoint.
		s := EloScore((test.Elo0 + test.Elo1) / 2)
		fixed := test.FixedSample(s*(1-s) - 0.2/4)
		t.Logf("at %v Elo: %.0f games in pairs, %.0f one by one, %.0f for a fixed sample", elo, paired, single, fixed)
		if paired > single {
			t.Errorf("at %v Elo pairs took %.0f games, single games %.0f", elo, paired, single)
		}
		if elo != test.Elo1/2 && single > fixed { // at the midpoint the SPRT may take longer
			t.Errorf("at %v Elo the SPRT took %.0f games, a fixed sample %.0f", elo, single, fixed)
		}
	}
}

// The LLR of known counts, worked out by hand: two outcomes, 0 and 1, are a Bernoulli
// whose closest distribution of mean s is s itself, so the LLR is the binomial one.
func TestSPRTBernoulli(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05}
	c := Counts{1: 30, 0: 20}
	s0, s1 := EloScore(0), EloScore(100)
	want := 30*math.Log(s1/s0) + 20*math.Log((1-s1)/(1-s0))
	if got := test.LLR(c, []float64{0, 1}); math.Abs(got-want) > 1e-3 {
		t.Errorf("LLR %v, want %v", got, want)
	}
	lo, hi := test.Bounds()
	if math.Abs(lo+2.944) > 1e-3 || math.Abs(hi-2.944) > 1e-3 {
		t.Errorf("bounds %v %v, want -+2.944 at 5%%", lo, hi)
	}
	if math.Abs(ScoreElo(EloScore(123))-123) > 1e-9 {
		t.Error("ScoreElo is not EloScore's inverse")
	}
}

func TestSPRTCheck(t *testing.T) {
	for _, tc := range []struct {
		test SPRT
		want string
	}{
		{SPRT{Elo0: 10, Elo1: 10, Alpha: 0.05, Beta: 0.05}, "elo1 10 is not above elo0 10"},
		{SPRT{Elo0: 0, Elo1: 10, Alpha: 0, Beta: 0.05}, "alpha 0"},
		{SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.5}, "beta 0.5"},
	} {
		if err := tc.test.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error naming %q", tc.test, err, tc.want)
		}
	}
	if err := DefaultSPRT.Check(); err != nil {
		t.Error(err)
	}
}
