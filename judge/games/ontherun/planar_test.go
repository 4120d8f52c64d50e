package ontherun

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/botjudge/judge/judge/game"
)

// Graph builders for the planarity tests. Vertices are 0..n-1.

func complete(n int) [][2]int {
	var es [][2]int
	for a := range n {
		for b := a + 1; b < n; b++ {
			es = append(es, [2]int{a, b})
		}
	}
	return es
}

// bipartite is K_{p,q}: 0..p-1 on one side, p..p+q-1 on the other.
func bipartite(p, q int) [][2]int {
	var es [][2]int
	for a := range p {
		for b := range q {
			es = append(es, [2]int{a, p + b})
		}
	}
	return es
}

func cycleGraph(n int) [][2]int {
	var es [][2]int
	for v := range n {
		es = append(es, [2]int{v, (v + 1) % n})
	}
	return es
}

// wheel is a cycle 0..n-1 with a hub n joined to all of it.
func wheel(n int) [][2]int {
	es := cycleGraph(n)
	for v := range n {
		es = append(es, [2]int{n, v})
	}
	return es
}

// grid is the w x h grid graph, vertex x + w*y.
func grid(w, h int) [][2]int {
	var es [][2]int
	for y := range h {
		for x := range w {
			if x+1 < w {
				es = append(es, [2]int{x + w*y, x + 1 + w*y})
			}
			if y+1 < h {
				es = append(es, [2]int{x + w*y, x + w*(y+1)})
			}
		}
	}
	return es
}

// withDiagonals adds both diagonals of the grid cell whose top left corner is (x, y).
func withDiagonals(w int, es [][2]int, x, y int) [][2]int {
	v := func(x, y int) int { return x + w*y }
	return append(slices.Clone(es), [2]int{v(x, y), v(x+1, y+1)}, [2]int{v(x+1, y), v(x, y+1)})
}

// subdivide replaces every edge by a path through k new vertices, numbered from n on.
func subdivide(n int, es [][2]int, k int) (int, [][2]int) {
	var out [][2]int
	for _, e := range es {
		prev := e[0]
		for range k {
			out = append(out, [2]int{prev, n})
			prev = n
			n++
		}
		out = append(out, [2]int{prev, e[1]})
	}
	return n, out
}

// shift renumbers a graph's vertices by d, to place it beside another.
func shift(es [][2]int, d int) [][2]int {
	out := make([][2]int, len(es))
	for k, e := range es {
		out[k] = [2]int{e[0] + d, e[1] + d}
	}
	return out
}

func cat(parts ...[][2]int) [][2]int { return slices.Concat(parts...) }

// petersen is the Petersen graph: an outer 5-cycle, an inner pentagram, and spokes.
func petersen() [][2]int {
	var es [][2]int
	for k := range 5 {
		es = append(es, [2]int{k, (k + 1) % 5}, [2]int{5 + k, 5 + (k+2)%5}, [2]int{k, 5 + k})
	}
	return es
}

// octahedronGraph is K6 without a perfect matching (K2,2,2): 4-regular, 12 = 3V-6 edges.
func octahedronGraph() [][2]int {
	return slices.DeleteFunc(complete(6), func(e [2]int) bool {
		return e == [2]int{0, 1} || e == [2]int{2, 3} || e == [2]int{4, 5}
	})
}

func without(es [][2]int, k int) [][2]int { return slices.Delete(slices.Clone(es), k, k+1) }

// TestPlanarKnownGraphs: graphs whose planarity is textbook knowledge.
func TestPlanarKnownGraphs(t *testing.T) {
	nK33s, k33s := subdivide(6, bipartite(3, 3), 1)
	nK5s, k5s := subdivide(5, complete(5), 2)
	_, k33one := subdivide(6, bipartite(3, 3)[:1], 3) // only the first edge subdivided
	k33one = append(k33one, bipartite(3, 3)[1:]...)
	nPs, petersenS := subdivide(10, petersen(), 1)
	octahedron := octahedronGraph()
	cube := [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}}
	// Three blocks joined at cut vertices and a bridge: K4 on 0..3, a wheel sharing vertex 3,
	// a bridge to a third block, and isolated vertices at the end.
	chain := func(last [][2]int) (int, [][2]int) {
		w := shift(wheel(6), 3) // hub 9, rim 3..8
		return 30, cat(complete(4), w, [][2]int{{9, 10}}, shift(last, 10))
	}
	nChainBad, chainBad := chain(bipartite(3, 3))
	nChainGood, chainGood := chain(without(bipartite(3, 3), 4))
	nChainK5, chainK5 := chain(complete(5))
	star := [][2]int{}
	path := [][2]int{}
	for v := 1; v < 40; v++ {
		star = append(star, [2]int{0, v})
		path = append(path, [2]int{v - 1, v})
	}
	// A random tree on 120 vertices.
	r := rand.New(rand.NewPCG(1, 2))
	var tree [][2]int
	for v := 1; v < 120; v++ {
		tree = append(tree, [2]int{r.IntN(v), v})
	}
	// Several planar components side by side, then one of them made K5.
	forest := cat(cycleGraph(5), shift(complete(4), 5), shift(grid(4, 4), 9), shift(wheel(7), 25))
	for _, c := range []struct {
		name  string
		n     int
		edges [][2]int
		want  bool
	}{
		{"no vertex", 0, nil, true},
		{"one vertex", 1, nil, true},
		{"isolated vertices", 7, nil, true},
		{"one edge", 2, [][2]int{{0, 1}}, true},
		{"triangle", 3, cycleGraph(3), true},
		{"K4", 4, complete(4), true},
		{"K5", 5, complete(5), false},
		{"K5 minus an edge", 5, without(complete(5), 3), true},
		{"K6", 6, complete(6), false},
		{"K3,3", 6, bipartite(3, 3), false},
		{"K3,3 minus an edge", 6, without(bipartite(3, 3), 4), true},
		{"K2,30", 32, bipartite(2, 30), true},
		{"K3,3 subdivided", nK33s, k33s, false},
		{"K3,3 with one edge subdivided", 9, k33one, false},
		{"K5 subdivided twice", nK5s, k5s, false},
		{"Petersen", 10, petersen(), false},
		{"Petersen subdivided", nPs, petersenS, false},
		{"octahedron", 6, octahedron, true},
		{"cube", 8, cube, true},
		{"C4", 4, cycleGraph(4), true},
		{"C5", 5, cycleGraph(5), true},
		{"C200", 200, cycleGraph(200), true},
		{"path", 40, path, true},
		{"star", 40, star, true},
		{"random tree", 120, tree, true},
		{"wheel W4", 5, wheel(4), true},
		{"wheel W5", 6, wheel(5), true},
		{"wheel W30", 31, wheel(30), true},
		{"wheel W199", 200, wheel(199), true},
		{"grid 2x2", 4, grid(2, 2), true},
		{"grid 5x5", 25, grid(5, 5), true},
		{"grid 14x14", 196, grid(14, 14), true},
		{"grid 20x10", 200, grid(20, 10), true},
		// Both diagonals of an inner cell: with the rest of the grid around it, a K5 minor.
		{"grid 5x5, an inner cell crossed", 25, withDiagonals(5, grid(5, 5), 2, 2), false},
		{"grid 14x14, an inner cell crossed", 196, withDiagonals(14, grid(14, 14), 6, 9), false},
		{"grid 4x4, a cell on the side crossed", 16, withDiagonals(4, grid(4, 4), 1, 0), false},
		// A corner cell's diagonal can go round the corner outside the grid.
		{"grid 5x5, a corner cell crossed", 25, withDiagonals(5, grid(5, 5), 0, 0), true},
		{"grid 5x5, one diagonal per cell", 25, gridOneDiagonal(5), true},
		{"planar components", 45, forest, true},
		{"planar components and K5", 50, cat(forest, shift(complete(5), 45)), false},
		{"planar components and K3,3", 51, cat(forest, shift(bipartite(3, 3), 45)), false},
		{"blocks, one of them K3,3", nChainBad, chainBad, false},
		{"blocks, one of them K5", nChainK5, chainK5, false},
		{"blocks, all planar", nChainGood, chainGood, true},
		{"K4 with repeats and loops", 4, cat(complete(4), complete(4), [][2]int{{1, 1}, {3, 2}, {2, 2}}), true},
		{"K5 with repeats and loops", 5, cat(complete(5), [][2]int{{0, 0}, {4, 3}}), false},
	} {
		if got := planar(c.n, c.edges); got != c.want {
			t.Errorf("%s: planar = %v, want %v", c.name, got, c.want)
		}
		// The answer must not depend on how the vertices are numbered.
		for k := range 3 {
			p := rand.New(rand.NewPCG(uint64(k), 9)).Perm(c.n)
			edges := make([][2]int, len(c.edges))
			for x, e := range c.edges {
				edges[x] = [2]int{p[e[0]], p[e[1]]}
			}
			rand.New(rand.NewPCG(uint64(k), 10)).Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
			if got := planar(c.n, edges); got != c.want {
				t.Errorf("%s renumbered (%d): planar = %v, want %v", c.name, k, got, c.want)
			}
		}
	}
}

// gridOneDiagonal is an n x n grid with one diagonal in every cell: a planar graph with many
// triangles, dense enough to need the embedding rather than the edge count.
func gridOneDiagonal(n int) [][2]int {
	es := grid(n, n)
	for y := range n - 1 {
		for x := range n - 1 {
			es = append(es, [2]int{x + n*y, x + 1 + n*(y+1)})
		}
	}
	return es
}

// maximalPlanar is a triangulation of random points in the square, closed over its convex
// hull by an extra vertex joined to every hull vertex: every face, the outer one too, is a
// triangle, so it has exactly 3V-6 edges and any further edge makes it non-planar. Vertices
// are shuffled so that nothing follows the geometry.
func maximalPlanar(t *testing.T, seed uint64, n int) (int, [][2]int) {
	t.Helper()
	r := game.NewRand(seed)
	xy := placeCities(r, n)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	var es [][2]int
	hull := map[int]bool{}
	for _, e := range triangulate(xy, all) {
		es = append(es, [2]int{e.i, e.j})
		// A hull edge has every city on one side of its line.
		pos, neg := false, false
		for _, p := range xy {
			switch orient(xy[e.i], xy[e.j], p) {
			case 1:
				pos = true
			case -1:
				neg = true
			}
		}
		if !pos || !neg {
			hull[e.i], hull[e.j] = true, true
		}
	}
	for v := range hull {
		es = append(es, [2]int{v, n})
	}
	n++
	if len(es) != 3*n-6 {
		t.Fatalf("seed %d: %d vertices, %d edges: not a maximal planar graph", seed, n, len(es))
	}
	p := r.Perm(n)
	for k, e := range es {
		es[k] = [2]int{p[e[0]], p[e[1]]}
	}
	r.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
	return n, es
}

// TestPlanarTriangulations: maximal planar graphs are planar; one edge more is not, which the
// embedding itself must find (embedBlock does not use the edge count); fewer edges are planar.
func TestPlanarTriangulations(t *testing.T) {
	sizes := []int{5, 6, 9, 20, 50, 120, 199}
	seeds := 4
	if testing.Short() {
		seeds = 2
	}
	for _, size := range sizes {
		for seed := range uint64(seeds) {
			n, es := maximalPlanar(t, seed*31+uint64(size), size)
			name := fmt.Sprintf("n=%d seed=%d", n, seed)
			if !planar(n, es) || !embedBlock(n, es) {
				t.Errorf("%s: a triangulation is not planar", name)
			}
			has := map[[2]int]bool{}
			for _, e := range es {
				has[[2]int{min(e[0], e[1]), max(e[0], e[1])}] = true
			}
			r := rand.New(rand.NewPCG(seed, uint64(size)))
			for range 3 {
				a, b := r.IntN(n), r.IntN(n)
				if a == b || has[[2]int{min(a, b), max(a, b)}] {
					continue
				}
				plus := append(slices.Clone(es), [2]int{a, b})
				if planar(n, plus) || embedBlock(n, plus) {
					t.Errorf("%s: a triangulation plus %d-%d is planar", name, a, b)
				}
			}
			// Dropping edges keeps a graph planar (it may fall apart into several blocks).
			fewer := slices.Clone(es)
			r.Shuffle(len(fewer), func(i, j int) { fewer[i], fewer[j] = fewer[j], fewer[i] })
			for _, keep := range []int{len(fewer) - 1, len(fewer) * 3 / 4, len(fewer) / 2} {
				if !planar(n, fewer[:keep]) {
					t.Errorf("%s: %d of a triangulation's edges are not planar", name, keep)
				}
			}
		}
	}
}

// TestPlanarHiddenKuratowski: a random planar map with a subdivided K5 or K3,3 woven into it
// (branch vertices among its cities, each branch a path through new vertices) is not planar,
// though sparse enough to pass the edge count.
func TestPlanarHiddenKuratowski(t *testing.T) {
	for seed := range uint64(8) {
		m, err := generateMap(game.NewRand(seed), 60+int(seed)*15)
		if err != nil {
			t.Fatal(err)
		}
		var base [][2]int
		for _, c := range m.conns {
			if c.kind == car {
				base = append(base, [2]int{c.a - 1, c.b - 1})
			}
		}
		if !planar(m.n, base) {
			t.Fatalf("seed %d: the car layer is not planar", seed)
		}
		r := rand.New(rand.NewPCG(seed, 5))
		for _, k := range []struct {
			name     string
			branches int
			edges    [][2]int
		}{{"K5", 5, complete(5)}, {"K3,3", 6, bipartite(3, 3)}} {
			branch := r.Perm(m.n)[:k.branches]
			es, n := slices.Clone(base), m.n
			for _, e := range k.edges {
				prev := branch[e[0]]
				for range 1 + r.IntN(3) {
					es = append(es, [2]int{prev, n})
					prev = n
					n++
				}
				es = append(es, [2]int{prev, branch[e[1]]})
			}
			if len(es) > 3*n-6 {
				t.Fatalf("seed %d %s: too dense to test the embedding", seed, k.name)
			}
			if planar(n, es) {
				t.Errorf("seed %d: a map with a subdivided %s on cities %v is planar", seed, k.name, branch)
			}
		}
	}
}

// TestPlanarGeneratedMaps: every layer of the generator's maps is planar by this test too.
func TestPlanarGeneratedMaps(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 8
	}
	for seed := range uint64(seeds) {
		n := 10 + int(seed*47%191)
		m, err := generateMap(game.NewRand(seed+500), n)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkPlanar(m.n, m.conns); err != nil {
			t.Errorf("seed %d, %d cities: %v", seed, n, err)
		}
	}
}

// TestPlanarBruteForce compares the test with an independent exhaustive one on many small
// random connected graphs: a connected graph is planar exactly when some rotation system (a
// cyclic order of the edges around each vertex) traces E-V+2 faces (Euler's formula). Only
// graphs within the 3V-6 bound count towards the quota, the others are refused by the count.
func TestPlanarBruteForce(t *testing.T) {
	// The exhaustive search itself knows the smallest cases.
	for _, c := range []struct {
		name  string
		n     int
		edges [][2]int
		want  bool
	}{{"K4", 4, complete(4), true}, {"K5", 5, complete(5), false}, {"K3,3", 6, bipartite(3, 3), false},
		{"K3,3 minus an edge", 6, without(bipartite(3, 3), 0), true}, {"octahedron", 6, octahedronGraph(), true}} {
		if got, ok := rotationPlanar(c.n, c.edges, 1e6); !ok || got != c.want {
			t.Fatalf("exhaustive search: %s planar = %v (%v)", c.name, got, ok)
		}
	}
	r := rand.New(rand.NewPCG(7, 7))
	counts := map[bool]int{}
	for tried := 0; tried < 20000 && (counts[true] < 150 || counts[false] < 60); tried++ {
		n := 6 + r.IntN(3)
		var es [][2]int
		p := 0.35 + 0.35*r.Float64()
		for a := range n {
			for b := a + 1; b < n; b++ {
				if r.Float64() < p {
					es = append(es, [2]int{a, b})
				}
			}
		}
		want, ok := rotationPlanar(n, es, 50000)
		if !ok {
			continue // disconnected, or too many rotation systems to try
		}
		if got := planar(n, es); got != want {
			t.Errorf("%d vertices %v: planar = %v, exhaustive search says %v", n, es, got, want)
		}
		if len(es) <= 3*n-6 && (counts[want] < 150 || !want) {
			counts[want]++
		}
	}
	t.Logf("within the edge bound: planar %d, not planar %d", counts[true], counts[false])
	if counts[true] < 150 || counts[false] < 60 {
		t.Errorf("too few cases of each kind: %v", counts)
	}
}

// rotationPlanar decides a connected graph's planarity (at most 8 vertices) by trying every
// rotation system; ok is false when the graph is not connected or has more than limit
// rotation systems.
func rotationPlanar(n int, es [][2]int, limit int) (planar, ok bool) {
	adj := make([][]int, n)
	for _, e := range es {
		adj[e[0]] = append(adj[e[0]], e[1])
		adj[e[1]] = append(adj[e[1]], e[0])
	}
	seen := make([]bool, n)
	stack := []int{0}
	seen[0] = true
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, v := range adj[u] {
			if !seen[v] {
				seen[v] = true
				stack = append(stack, v)
			}
		}
	}
	if slices.Contains(seen, false) {
		return false, false
	}
	total := 1
	for _, a := range adj {
		for k := 2; k < len(a); k++ {
			total *= k
		}
		if total > limit {
			return false, false
		}
	}
	// Each vertex's rotation: its first neighbour fixed, the others in every order; kept as
	// next[v][u], the neighbour after u around v.
	perms := make([][][8]int, n)
	for v, a := range adj {
		if len(a) == 0 {
			perms[v] = [][8]int{{}}
			continue
		}
		permute(a[1:], func(rest []int) {
			order := append([]int{a[0]}, rest...)
			var next [8]int
			for k, u := range order {
				next[u] = order[(k+1)%len(order)]
			}
			perms[v] = append(perms[v], next)
		})
	}
	wantFaces := len(es) - n + 2
	var next [8][8]int
	var try func(v int) bool
	try = func(v int) bool {
		if v == n {
			return faces(adj, &next) == wantFaces
		}
		for _, p := range perms[v] {
			next[v] = p
			if try(v + 1) {
				return true
			}
		}
		return false
	}
	return try(0), true
}

// faces counts the faces traced by a rotation system: from the dart u->v the face goes on
// with v->w, w the neighbour after u around v.
func faces(adj [][]int, next *[8][8]int) int {
	var used [8][8]bool
	count := 0
	for u, nb := range adj {
		for _, v := range nb {
			if used[u][v] {
				continue
			}
			count++
			for a, b := u, v; !used[a][b]; a, b = b, next[b][a] {
				used[a][b] = true
			}
		}
	}
	return count
}

// permute calls f with every order of s (s is used as scratch and restored).
func permute(s []int, f func([]int)) {
	var rec func(k int)
	rec = func(k int) {
		if k == len(s) {
			f(s)
			return
		}
		for i := k; i < len(s); i++ {
			s[k], s[i] = s[i], s[k]
			rec(k + 1)
			s[k], s[i] = s[i], s[k]
		}
	}
	rec(0)
}

// TestPlanarBlocks: the graph is cut into the right biconnected components.
func TestPlanarBlocks(t *testing.T) {
	// Two triangles sharing vertex 2, a bridge 4-5, a square 5..8, and an isolated vertex 9.
	es := [][2]int{{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 2}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {8, 5}}
	adj := make([][]arc, 10)
	for id, e := range es {
		adj[e[0]] = append(adj[e[0]], arc{e[1], id})
		adj[e[1]] = append(adj[e[1]], arc{e[0], id})
	}
	var got [][]int
	for _, b := range blocks(10, adj) {
		slices.Sort(b)
		got = append(got, b)
	}
	slices.SortFunc(got, slices.Compare)
	want := [][]int{{0, 1, 2}, {3, 4, 5}, {6}, {7, 8, 9, 10}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("blocks %v, want %v", got, want)
	}
}
