package openskill

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func defaults(n int) []Rating {
	rs := make([]Rating, n)
	for i := range rs {
		rs[i] = New()
	}
	return rs
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// TestPublishedValues checks against the values published by openskill.js
// for a single 4-player game from the defaults, ranked [4,1,3,2].
func TestPublishedValues(t *testing.T) {
	got := Default().Rate(defaults(4), []int{4, 1, 3, 2})
	for i, r := range got {
		t.Logf("player %d: mu %.6f sigma %.6f ordinal %.6f", i, r.Mu, r.Sigma, r.Ordinal())
	}
	want := []struct {
		player    int
		mu, sigma float64
	}{
		{0, 20.963, 8.084},
		{1, 27.795, 8.263},
	}
	for _, w := range want {
		r := got[w.player]
		if round3(r.Mu) != w.mu || round3(r.Sigma) != w.sigma {
			t.Errorf("player %d: got mu %.6f sigma %.6f, want %.3f %.3f", w.player, r.Mu, r.Sigma, w.mu, w.sigma)
		}
	}
	// Players 2 (3rd) and 3 (2nd) must lie between the last and the winner,
	// and in finishing order.
	if !(got[0].Mu < got[2].Mu && got[2].Mu < got[3].Mu && got[3].Mu < got[1].Mu) {
		t.Errorf("means not in finishing order: %+v", got)
	}
}

func TestTable(t *testing.T) {
	tests := []struct {
		name  string
		in    []Rating
		ranks []int
		check func(t *testing.T, in, out []Rating)
	}{
		{
			name:  "two players winner and loser symmetric",
			in:    defaults(2),
			ranks: []int{1, 2},
			check: func(t *testing.T, in, out []Rating) {
				gain := out[0].Mu - in[0].Mu
				loss := out[1].Mu - in[1].Mu
				if gain <= 0 || loss >= 0 {
					t.Fatalf("winner gain %v, loser change %v", gain, loss)
				}
				if math.Abs(gain+loss) > 1e-12 {
					t.Errorf("not symmetric: gain %v loss %v", gain, loss)
				}
				if math.Abs(out[0].Sigma-out[1].Sigma) > 1e-12 {
					t.Errorf("sigmas differ: %v %v", out[0].Sigma, out[1].Sigma)
				}
			},
		},
		{
			name:  "two players ranks are only ordinal",
			in:    defaults(2),
			ranks: []int{7, 3},
			check: func(t *testing.T, in, out []Rating) {
				want := Default().Rate(defaults(2), []int{2, 1})
				if !approxEqual(out, want, 0) {
					t.Errorf("got %+v, want %+v", out, want)
				}
			},
		},
		{
			name:  "tie at the top",
			in:    defaults(4),
			ranks: []int{1, 1, 3, 4},
			check: func(t *testing.T, in, out []Rating) {
				if out[0] != out[1] {
					t.Errorf("tied players differ: %+v vs %+v", out[0], out[1])
				}
				// A known property of the paper's tie handling (also seen in
				// openskill.js): the two tied winners share the first stage,
				// so from equal priors the 3rd-placed player ends level with
				// them (omega = 1/4 * sigma^2/c for all three) while the
				// last player loses. Finishing order is still never inverted.
				if math.Abs(out[0].Mu-out[2].Mu) > 1e-12 || !(out[2].Mu > out[3].Mu) {
					t.Errorf("unexpected means: %+v", out)
				}
			},
		},
		{
			name:  "tie in the middle",
			in:    defaults(4),
			ranks: []int{1, 2, 2, 3},
			check: func(t *testing.T, in, out []Rating) {
				if out[1] != out[2] {
					t.Errorf("tied players differ: %+v vs %+v", out[1], out[2])
				}
			},
		},
		{
			name:  "tie between unequal players moves them towards each other",
			in:    []Rating{{Mu: 30, Sigma: 6}, {Mu: 20, Sigma: 6}},
			ranks: []int{1, 1},
			check: func(t *testing.T, in, out []Rating) {
				if !(out[0].Mu < in[0].Mu && out[1].Mu > in[1].Mu) {
					t.Errorf("got %+v", out)
				}
			},
		},
		{
			name:  "all tied equal ratings is a no-op on mu",
			in:    defaults(3),
			ranks: []int{1, 1, 1},
			check: func(t *testing.T, in, out []Rating) {
				for i := range out {
					if math.Abs(out[i].Mu-in[i].Mu) > 1e-12 {
						t.Errorf("player %d mu moved to %v", i, out[i].Mu)
					}
				}
			},
		},
		{
			name:  "single player unchanged",
			in:    []Rating{{Mu: 30, Sigma: 2}},
			ranks: []int{1},
			check: func(t *testing.T, in, out []Rating) {
				if out[0] != in[0] {
					t.Errorf("got %+v", out[0])
				}
			},
		},
		{
			name:  "empty game",
			in:    nil,
			ranks: nil,
			check: func(t *testing.T, in, out []Rating) {
				if len(out) != 0 {
					t.Errorf("got %+v", out)
				}
			},
		},
		{
			name:  "upset moves more than expected result",
			in:    []Rating{{Mu: 35, Sigma: 4}, {Mu: 15, Sigma: 4}},
			ranks: []int{2, 1},
			check: func(t *testing.T, in, out []Rating) {
				expected := Default().Rate(in, []int{1, 2})
				upset := out[1].Mu - in[1].Mu
				normal := expected[0].Mu - in[0].Mu
				if upset <= normal {
					t.Errorf("upset gain %v <= expected-result gain %v", upset, normal)
				}
			},
		},
		{
			name:  "huge means do not overflow",
			in:    []Rating{{Mu: 1e5, Sigma: 8}, {Mu: 1e5 - 10, Sigma: 8}},
			ranks: []int{2, 1},
			check: func(t *testing.T, in, out []Rating) {
				for _, r := range out {
					if math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || math.IsNaN(r.Sigma) {
						t.Fatalf("non-finite result %+v", out)
					}
				}
				if out[1].Mu <= in[1].Mu {
					t.Errorf("winner did not gain: %+v", out)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]Rating(nil), tc.in...)
			ranks := append([]int(nil), tc.ranks...)
			out := Default().Rate(tc.in, tc.ranks)
			if len(out) != len(tc.in) {
				t.Fatalf("got %d ratings for %d players", len(out), len(tc.in))
			}
			for i := range in {
				if in[i] != tc.in[i] || ranks[i] != tc.ranks[i] {
					t.Fatalf("inputs modified")
				}
			}
			tc.check(t, tc.in, out)
		})
	}
}

func approxEqual(a, b []Rating, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i].Mu-b[i].Mu) > tol || math.Abs(a[i].Sigma-b[i].Sigma) > tol {
			return false
		}
	}
	return true
}

// randomGame returns n random ratings and ranks (with occasional ties).
func randomGame(rng *rand.Rand, n int) ([]Rating, []int) {
	rs := make([]Rating, n)
	ranks := make([]int, n)
	for i := range rs {
		rs[i] = Rating{Mu: 10 + 30*rng.Float64(), Sigma: 0.5 + 8*rng.Float64()}
		ranks[i] = 1 + rng.IntN(n)
	}
	return rs, ranks
}

func TestSigmaNeverIncreases(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := Default()
	for g := range 2000 {
		in, ranks := randomGame(rng, 2+rng.IntN(7))
		out := m.Rate(in, ranks)
		for i := range out {
			if out[i].Sigma > in[i].Sigma || out[i].Sigma <= 0 {
				t.Fatalf("game %d player %d: sigma %v -> %v", g, i, in[i].Sigma, out[i].Sigma)
			}
		}
	}
}

func TestPermutationInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := Default()
	for g := range 500 {
		n := 2 + rng.IntN(7)
		in, ranks := randomGame(rng, n)
		out := m.Rate(in, ranks)
		perm := rng.Perm(n)
		pin := make([]Rating, n)
		pranks := make([]int, n)
		for k, p := range perm {
			pin[k], pranks[k] = in[p], ranks[p]
		}
		pout := m.Rate(pin, pranks)
		for k, p := range perm {
			if !approxEqual([]Rating{pout[k]}, []Rating{out[p]}, 1e-12) {
				t.Fatalf("game %d: permuted player %d got %+v, want %+v", g, p, pout[k], out[p])
			}
		}
	}
}

func TestKappaFloor(t *testing.T) {
	// An extreme kappa makes the floor bind: sigma shrinks by exactly
	// sqrt(kappa) when the computed factor would be smaller.
	m := Model{Beta: DefaultBeta, Kappa: 0.99}
	out := m.Rate(defaults(2), []int{1, 2})
	want := DefaultSigma * math.Sqrt(0.99)
	for i, r := range out {
		if math.Abs(r.Sigma-want) > 1e-12 {
			t.Errorf("player %d sigma %v, want %v", i, r.Sigma, want)
		}
	}
}

func TestRatePanicsOnLengthMismatch(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	Default().Rate(defaults(2), []int{1})
}

func TestNewAndOrdinal(t *testing.T) {
	r := New()
	if r.Mu != 25 || math.Abs(r.Sigma-25.0/3) > 1e-15 {
		t.Errorf("New() = %+v", r)
	}
	if math.Abs(r.Ordinal()) > 1e-12 {
		t.Errorf("Ordinal of prior = %v, want 0", r.Ordinal())
	}
	if got := (Rating{Mu: 30, Sigma: 2}).Ordinal(); got != 24 {
		t.Errorf("Ordinal = %v, want 24", got)
	}
	if m := Default(); math.Abs(m.Beta-25.0/6) > 1e-15 || m.Kappa != 0.0001 {
		t.Errorf("Default() = %+v", m)
	}
}

func ExampleModel_Rate() {
	players := []Rating{New(), New(), New(), New()}
	after := Default().Rate(players, []int{4, 1, 3, 2})
	for i, r := range after {
		fmt.Printf("player %d: mu %.3f sigma %.3f\n", i, r.Mu, r.Sigma)
	}
	// Output:
	// player 0: mu 20.963 sigma 8.084
	// player 1: mu 27.795 sigma 8.263
	// player 2: mu 24.689 sigma 8.084
	// player 3: mu 26.553 sigma 8.179
}
