package rating

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func mustFit(t *testing.T, n int, results []Result) BTFit {
	t.Helper()
	fit, err := FitBradleyTerry(n, results)
	if err != nil {
		t.Fatal(err)
	}
	if !fit.Converged {
		t.Fatalf("did not converge in %d iterations", fit.Iterations)
	}
	if len(fit.Strength) != n || len(fit.Rating) != n {
		t.Fatalf("got %d strengths, %d ratings for %d players", len(fit.Strength), len(fit.Rating), n)
	}
	for i := range n {
		s, r := fit.Strength[i], fit.Rating[i]
		if !(s > 0) || math.IsInf(s, 0) || math.IsNaN(r) || math.IsInf(r, 0) {
			t.Fatalf("player %d: non-finite strength %v rating %v", i, s, r)
		}
	}
	return fit
}

// repeat returns k copies of r.
func repeat(k int, r Result) []Result {
	return slices.Repeat([]Result{r}, k)
}

// TestBTClosedForm: A (0) beat B (1) three times and lost once. With one
// virtual draw each against the reference (strength 1) the likelihood
// equations are
//
//	3.5 = a*(4/(a+b) + 1/(a+1)),  1.5 = b*(4/(a+b) + 1/(b+1)).
//
// b = 1/a satisfies their sum (a/(a+1) + 1/(a+1) = 1), and substituting
// it into the first gives 3.5(a^2+1)(a+1) = 4a^2(a+1) + a(a^2+1), i.e.
// 3a^3 + a^2 - 5a - 7 = 0, whose real root is found here by bisection.
// The geometric mean of a and 1/a is 1, so the ratings are
// 1500 +/- 400*log10(a).
func TestBTClosedForm(t *testing.T) {
	results := append(repeat(3, Result{Winner: 0, Loser: 1}), Result{Winner: 1, Loser: 0})
	fit := mustFit(t, 2, results)

	cubic := func(a float64) float64 { return 3*a*a*a + a*a - 5*a - 7 }
	lo, hi := 1.0, 2.0
	for range 200 {
		mid := (lo + hi) / 2
		if cubic(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	a := (lo + hi) / 2
	t.Logf("closed form a = %.12f, fitted %.12f %.12f, ratings %.6f %.6f (%d iterations)",
		a, fit.Strength[0], fit.Strength[1], fit.Rating[0], fit.Rating[1], fit.Iterations)

	const tol = 1e-7
	if math.Abs(fit.Strength[0]-a)/a > tol || math.Abs(fit.Strength[1]-1/a)*a > tol {
		t.Errorf("strengths %v, want %v, %v", fit.Strength, a, 1/a)
	}
	wantR := 400 * math.Log10(a)
	if math.Abs(fit.Rating[0]-(1500+wantR)) > 1e-4 || math.Abs(fit.Rating[1]-(1500-wantR)) > 1e-4 {
		t.Errorf("ratings %v, want 1500 +/- %v", fit.Rating, wantR)
	}
}

func TestBTTable(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		results []Result
		check   func(t *testing.T, fit BTFit)
	}{
		{
			name: "no games: everyone 1500",
			n:    3,
			check: func(t *testing.T, fit BTFit) {
				for i := range 3 {
					if fit.Strength[i] != 1 || fit.Rating[i] != 1500 {
						t.Errorf("player %d: %v %v", i, fit.Strength[i], fit.Rating[i])
					}
				}
			},
		},
		{
			name:  "zero players",
			n:     0,
			check: func(t *testing.T, fit BTFit) {},
		},
		{
			name:    "cycle is symmetric",
			n:       3,
			results: []Result{{0, 1, false}, {1, 2, false}, {2, 0, false}},
			check:   allEqual,
		},
		{
			name: "each pair splits is symmetric",
			n:    4,
			results: []Result{
				{0, 1, false}, {1, 0, false}, {0, 2, false}, {2, 0, false}, {0, 3, false}, {3, 0, false},
				{1, 2, false}, {2, 1, false}, {1, 3, false}, {3, 1, false}, {2, 3, false}, {3, 2, false},
			},
			check: allEqual,
		},
		{
			name:    "draws are symmetric",
			n:       2,
			results: []Result{{0, 1, true}, {1, 0, true}, {0, 1, true}},
			check:   allEqual,
		},
		{
			name: "a player beating everyone ranks first and stays finite",
			n:    4,
			results: []Result{
				{2, 0, false}, {2, 1, false}, {2, 3, false},
				{0, 1, false}, {1, 3, false}, {3, 0, false},
			},
			check: func(t *testing.T, fit BTFit) {
				for i := range 4 {
					if i != 2 && fit.Rating[i] >= fit.Rating[2] {
						t.Errorf("player %d (%v) not below unbeaten player 2 (%v)", i, fit.Rating[i], fit.Rating[2])
					}
				}
			},
		},
		{
			name:    "a player who loses everything stays finite and last",
			n:       3,
			results: append(repeat(20, Result{0, 2, false}), repeat(20, Result{1, 2, false})...),
			check: func(t *testing.T, fit BTFit) {
				if !(fit.Rating[2] < fit.Rating[0] && fit.Rating[0] == fit.Rating[1]) {
					t.Errorf("ratings %v", fit.Rating)
				}
			},
		},
		{
			name:    "more evidence, more separation",
			n:       4,
			results: append(repeat(3, Result{0, 1, false}), repeat(30, Result{2, 3, false})...),
			check: func(t *testing.T, fit BTFit) {
				if !(fit.Rating[2]-fit.Rating[3] > fit.Rating[0]-fit.Rating[1]) {
					t.Errorf("ratings %v", fit.Rating)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fit := mustFit(t, tc.n, tc.results)
			var mean float64
			for _, r := range fit.Rating {
				mean += r
			}
			if tc.n > 0 && math.Abs(mean/float64(tc.n)-1500) > 1e-9 {
				t.Errorf("mean rating %v, want 1500", mean/float64(tc.n))
			}
			tc.check(t, fit)
		})
	}
}

func allEqual(t *testing.T, fit BTFit) {
	t.Helper()
	for i := range fit.Rating {
		if math.Abs(fit.Rating[i]-1500) > 1e-6 {
			t.Errorf("ratings %v, want all 1500", fit.Rating)
			return
		}
	}
}

func TestBTOrderIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 8
	// Hidden strengths make results realistic rather than uniform noise.
	hidden := make([]float64, n)
	for i := range hidden {
		hidden[i] = math.Pow(10, rng.Float64()*2)
	}
	var results []Result
	for range 300 {
		i, j := rng.IntN(n), rng.IntN(n)
		if i == j {
			continue
		}
		u := rng.Float64()
		switch p := hidden[i] / (hidden[i] + hidden[j]); {
		case u < 0.1:
			results = append(results, Result{i, j, true})
		case u < 0.1+0.9*p:
			results = append(results, Result{i, j, false})
		default:
			results = append(results, Result{j, i, false})
		}
	}
	want := mustFit(t, n, results)
	for range 20 {
		shuffled := slices.Clone(results)
		rng.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		// Swapping the sides of a draw must not matter either.
		for k := range shuffled {
			if shuffled[k].Draw && rng.IntN(2) == 0 {
				shuffled[k].Winner, shuffled[k].Loser = shuffled[k].Loser, shuffled[k].Winner
			}
		}
		got := mustFit(t, n, shuffled)
		if !slices.Equal(got.Rating, want.Rating) || !slices.Equal(got.Strength, want.Strength) {
			t.Fatalf("order changed the fit:\n got %v\nwant %v", got.Rating, want.Rating)
		}
	}
}

func TestBTErrors(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		results []Result
	}{
		{"negative n", -1, nil},
		{"winner out of range", 2, []Result{{2, 0, false}}},
		{"loser negative", 2, []Result{{0, -1, false}}},
		{"self play", 2, []Result{{1, 1, false}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := FitBradleyTerry(tc.n, tc.results); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestBTInputUntouched(t *testing.T) {
	results := []Result{{0, 1, false}, {1, 2, true}}
	orig := slices.Clone(results)
	mustFit(t, 3, results)
	if !slices.Equal(results, orig) {
		t.Error("input modified")
	}
}
