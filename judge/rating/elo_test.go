package rating

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestDefaultElo(t *testing.T) {
	if e := DefaultElo(); e.K != 32 || e.Start != 1500 {
		t.Errorf("DefaultElo() = %+v", e)
	}
}

func TestEloUpdate(t *testing.T) {
	e := DefaultElo()
	tests := []struct {
		name    string
		a, b, s float64
		wantA   float64
		wantB   float64
		tol     float64
	}{
		{"equal win", 1500, 1500, 1, 1516, 1484, 0},
		{"equal loss", 1500, 1500, 0, 1484, 1516, 0},
		{"equal draw", 1500, 1500, 0.5, 1500, 1500, 0},
		// 400 points apart: expected score 10/11.
		{"favourite wins", 1900, 1500, 1, 1900 + 32.0/11, 1500 - 32.0/11, 1e-9},
		{"favourite draws", 1900, 1500, 0.5, 1900 + 32*(0.5-10.0/11), 1500 - 32*(0.5-10.0/11), 1e-9},
		{"upset", 1500, 1900, 1, 1500 + 32*10.0/11, 1900 - 32*10.0/11, 1e-9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := e.Update(tc.a, tc.b, tc.s)
			if math.Abs(a-tc.wantA) > tc.tol || math.Abs(b-tc.wantB) > tc.tol {
				t.Errorf("Update(%v, %v, %v) = %v, %v; want %v, %v", tc.a, tc.b, tc.s, a, b, tc.wantA, tc.wantB)
			}
			if math.Abs((a+b)-(tc.a+tc.b)) > 1e-9 {
				t.Errorf("not zero-sum: %v + %v", a, b)
			}
		})
	}
}

func TestEloExpected(t *testing.T) {
	e := DefaultElo()
	if got := e.Expected(1500, 1500); got != 0.5 {
		t.Errorf("Expected equal = %v", got)
	}
	if got := e.Expected(1900, 1500); math.Abs(got-10.0/11) > 1e-12 {
		t.Errorf("Expected +400 = %v", got)
	}
	if got := e.Expected(1500, 1900) + e.Expected(1900, 1500); math.Abs(got-1) > 1e-12 {
		t.Errorf("expectations do not sum to 1: %v", got)
	}
}

func TestEloUpdatePanicsOnBadScore(t *testing.T) {
	for _, s := range []float64{-0.1, 1.5, math.NaN()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("score %v: no panic", s)
				}
			}()
			DefaultElo().Update(1500, 1500, s)
		}()
	}
}

func TestEloUpdateRanks(t *testing.T) {
	e := DefaultElo()
	tests := []struct {
		name    string
		ratings []float64
		ranks   []int
		want    []float64
	}{
		{"two players equals Update", []float64{1500, 1500}, []int{1, 2}, []float64{1516, 1484}},
		{"two players tie", []float64{1500, 1500}, []int{1, 1}, []float64{1500, 1500}},
		// K/(n-1) = 16 per pair, and from equal ratings each decided pair
		// moves 16*(1-0.5) = 8: the winner beats two (+16), the middle
		// player wins one and loses one (0), the last loses two (-16).
		{"three players", []float64{1500, 1500, 1500}, []int{2, 1, 3}, []float64{1500, 1516, 1484}},
		{"three players with tie", []float64{1500, 1500, 1500}, []int{1, 1, 3}, []float64{1508, 1508, 1484}},
		{"single player", []float64{1700}, []int{1}, []float64{1700}},
		{"empty", nil, nil, []float64{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]float64(nil), tc.ratings...)
			got := e.UpdateRanks(tc.ratings, tc.ranks)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if math.Abs(got[i]-tc.want[i]) > 1e-9 {
					t.Errorf("got %v, want %v", got, tc.want)
					break
				}
			}
			for i := range in {
				if in[i] != tc.ratings[i] {
					t.Fatal("input modified")
				}
			}
		})
	}
}

func TestEloUpdateRanksBoundedAndZeroSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	e := DefaultElo()
	for range 500 {
		n := 2 + rng.IntN(8)
		ratings := make([]float64, n)
		ranks := make([]int, n)
		var before float64
		for i := range ratings {
			ratings[i] = 1200 + 600*rng.Float64()
			ranks[i] = 1 + rng.IntN(n)
			before += ratings[i]
		}
		got := e.UpdateRanks(ratings, ranks)
		var after float64
		for i := range got {
			after += got[i]
			if math.Abs(got[i]-ratings[i]) > e.K+1e-9 {
				t.Fatalf("player %d moved %v > K", i, got[i]-ratings[i])
			}
		}
		if math.Abs(after-before) > 1e-8 {
			t.Fatalf("not zero-sum: %v -> %v", before, after)
		}
	}
}
