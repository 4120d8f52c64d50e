package ontherun

import (
	"fmt"
	"math/big"
	"slices"
	"testing"

	"github.com/botjudge/judge/judge/game"
)

// TestGeneratorProperties checks what the page promises about every playing field on many
// generated maps, planarity included, with geometry written independently of the generator's.
func TestGeneratorProperties(t *testing.T) {
	sizes := []int{10, 11, 12, 17, 30, 64, 100, 150, 199, 200}
	seeds := 12
	if testing.Short() {
		seeds = 3
	}
	for _, n := range sizes {
		for seed := range seeds {
			s := uint64(seed)*1000003 + uint64(n)
			m, err := generateMap(game.NewRand(s), n)
			if err != nil {
				t.Fatalf("n=%d seed=%d: %v", n, s, err)
			}
			checkGenerated(t, fmt.Sprintf("n=%d seed=%d", n, s), m, n)
		}
	}
}

func checkGenerated(t *testing.T, name string, m *worldMap, n int) {
	t.Helper()
	if m.n != n || len(m.xy) != n {
		t.Fatalf("%s: %d cities, %d positions", name, m.n, len(m.xy))
	}
	if err := validate(n, m.conns); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// The players read the map from connect.txt: it must say the same.
	back, err := parseMap(string(m.connectTxt()))
	if err != nil || !slices.Equal(back.conns, m.conns) {
		t.Fatalf("%s: connect.txt does not read back: %v", name, err)
	}
	seen := map[[2]int]bool{}
	for _, p := range m.xy {
		if p[0] < 0 || p[0] >= mapSize || p[1] < 0 || p[1] >= mapSize || seen[p] {
			t.Fatalf("%s: position %v out of the square or shared", name, p)
		}
		seen[p] = true
	}
	var cities [numTransports]int
	for k := range numTransports {
		for c := 1; c <= n; c++ {
			if len(m.nbrs[k][c]) > 0 {
				cities[k]++
			}
		}
	}
	if cities[car] != n || cities[train] >= n || cities[plane] >= cities[train] || cities[plane] < 2 {
		t.Errorf("%s: cities with car %d, train %d, plane %d", name, cities[car], cities[train], cities[plane])
	}
	for k := range numTransports {
		var es [][2]int
		for _, c := range m.conns {
			if c.kind == k {
				es = append(es, [2]int{c.a - 1, c.b - 1})
			}
		}
		for x, e := range es {
			for c := range m.xy {
				if c != e[0] && c != e[1] && pointOnSegment(m.xy[c], m.xy[e[0]], m.xy[e[1]]) {
					t.Errorf("%s: %s %d-%d runs through city %d", name, k.letter(), e[0]+1, e[1]+1, c+1)
				}
			}
			for _, f := range es[:x] {
				if crossing(m.xy, e, f) {
					t.Errorf("%s: %s %d-%d crosses %d-%d", name, k.letter(), e[0]+1, e[1]+1, f[0]+1, f[1]+1)
				}
			}
		}
	}
}

// crossing tells whether two edges of one layer meet anywhere but at a shared end city. It
// solves for the intersection with exact rationals rather than the generator's orientation
// tests, so a mistake in those would not hide itself.
func crossing(xy [][2]int, e, f [2]int) bool {
	p, r := xy[e[0]], sub(xy[e[1]], xy[e[0]])
	q, s := xy[f[0]], sub(xy[f[1]], xy[f[0]])
	shared := e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1]
	den := crossZ(r, s)
	if den == 0 {
		if crossZ(sub(q, p), r) != 0 {
			return false // parallel, apart
		}
		// Collinear: they overlap when the projections of the ends overlap beyond a point
		// (two edges leaving a shared city in opposite directions touch only there).
		dot := func(a [2]int) int64 { return int64(a[0])*int64(r[0]) + int64(a[1])*int64(r[1]) }
		lo, hi := min(dot(sub(q, p)), dot(sub(xy[f[1]], p))), max(dot(sub(q, p)), dot(sub(xy[f[1]], p)))
		start, end := max(lo, 0), min(hi, dot(r))
		return start < end || (start == end && !shared)
	}
	// p + t r = q + u s with t, u in [0, 1].
	t := big.NewRat(crossZ(sub(q, p), s), den)
	u := big.NewRat(crossZ(sub(q, p), r), den)
	zero, one := big.NewRat(0, 1), big.NewRat(1, 1)
	if t.Cmp(zero) < 0 || t.Cmp(one) > 0 || u.Cmp(zero) < 0 || u.Cmp(one) > 0 {
		return false
	}
	// Meeting at an end is fine only when that end is the shared city.
	return !shared
}

func pointOnSegment(c, a, b [2]int) bool {
	if crossZ(sub(c, a), sub(b, a)) != 0 {
		return false
	}
	return min(a[0], b[0]) <= c[0] && c[0] <= max(a[0], b[0]) && min(a[1], b[1]) <= c[1] && c[1] <= max(a[1], b[1])
}

func sub(a, b [2]int) [2]int   { return [2]int{a[0] - b[0], a[1] - b[1]} }
func crossZ(a, b [2]int) int64 { return int64(a[0])*int64(b[1]) - int64(a[1])*int64(b[0]) }

// TestCrossingHelper makes sure the test's own geometry catches what it must.
func TestCrossingHelper(t *testing.T) {
	xy := [][2]int{{0, 0}, {10, 10}, {0, 10}, {10, 0}, {5, 5}, {20, 20}, {3, 0}, {13, 13}}
	for _, c := range []struct {
		e, f [2]int
		want bool
	}{
		{[2]int{0, 1}, [2]int{2, 3}, true},  // an X
		{[2]int{0, 2}, [2]int{0, 3}, false}, // an L at a shared city
		{[2]int{0, 1}, [2]int{1, 5}, false}, // collinear, end to end at the shared city
		{[2]int{0, 1}, [2]int{0, 5}, true},  // collinear, one over the other
		{[2]int{0, 1}, [2]int{4, 5}, true},  // collinear overlap, nothing shared
		{[2]int{0, 3}, [2]int{6, 2}, true},  // T: an end on the other's middle
		{[2]int{2, 3}, [2]int{1, 5}, false}, // apart
		{[2]int{0, 1}, [2]int{5, 7}, false}, // collinear, apart
	} {
		if got := crossing(xy, c.e, c.f); got != c.want {
			t.Errorf("crossing(%v, %v) = %v", c.e, c.f, got)
		}
		// The generator never asks segmentsMeet about edges sharing a city.
		shared := c.e[0] == c.f[0] || c.e[0] == c.f[1] || c.e[1] == c.f[0] || c.e[1] == c.f[1]
		if got := segmentsMeet(xy[c.e[0]], xy[c.e[1]], xy[c.f[0]], xy[c.f[1]]); !shared && got != c.want {
			t.Errorf("segmentsMeet(%v, %v) = %v", c.e, c.f, got)
		}
	}
}

func TestGeneratorDeterminism(t *testing.T) {
	a, errA := generateMap(game.NewRand(42), 200)
	b, errB := generateMap(game.NewRand(42), 200)
	c, errC := generateMap(game.NewRand(43), 200)
	if errA != nil || errB != nil || errC != nil {
		t.Fatal(errA, errB, errC)
	}
	if !slices.Equal(a.conns, b.conns) || !slices.Equal(a.xy, b.xy) {
		t.Error("the same seed made two maps")
	}
	if slices.Equal(a.connectTxt(), c.connectTxt()) {
		t.Error("two seeds made the same map")
	}
}
