package ontherun

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
)

// mapSize is the side of the square the generator places cities in. Coordinates are integers
// so that every geometric test (crossings, a city on a road) is exact.
const mapSize = 10000

// Shares of the cities on the train and plane networks: the page says trains cover longer
// distances than cars and that plane cities are generally few.
const (
	trainShare = 0.35
	planeShare = 0.06
)

// Chance that a spare edge of a layer's triangulation is kept on top of the layer's spanning
// tree: more for cars (a road network has loops), fewer for the long-distance layers.
const (
	carExtra   = 0.35
	trainExtra = 0.3
	planeExtra = 0.3
)

// generateMap builds a random map of n cities (minCities..maxCities). It draws everything
// from r, so a seed fixes the map. A draw that fails a check is redrawn; that is rare (only
// degenerate placements), so the bound is there to turn a generator bug into an error
// rather than a hang.
func generateMap(r *rand.Rand, n int) (*worldMap, error) {
	for range 100 {
		xy := placeCities(r, n)
		conns, ok := buildLayers(r, xy)
		if !ok || validate(n, conns) != nil {
			continue
		}
		return newMap(n, conns, xy), nil
	}
	return nil, errors.New("the map generator found no valid map")
}

// placeCities scatters n cities in the square, keeping them apart so roads do not crowd. When
// the spacing cannot be met it is relaxed rather than given up on.
func placeCities(r *rand.Rand, n int) [][2]int {
	const margin = mapSize / 20
	gap := 0.55 * mapSize / math.Sqrt(float64(n))
	xy := make([][2]int, 0, n)
	for tries := 0; len(xy) < n; tries++ {
		if tries > 200*n {
			gap *= 0.9
			tries = 0
		}
		p := [2]int{margin + r.IntN(mapSize-2*margin), margin + r.IntN(mapSize-2*margin)}
		ok := true
		for _, q := range xy {
			if float64(dist2(p, q)) < gap*gap {
				ok = false
				break
			}
		}
		if ok {
			xy = append(xy, p)
		}
	}
	return xy
}

// edge joins cities i and j (indices 0..n-1, i < j); d2 is its squared length.
type edge struct {
	i, j int
	d2   int64
}

// buildLayers draws the three networks. Each is a spanning tree of a triangulation of its
// cities plus some of the triangulation's other short edges: a subgraph of a crossing-free
// graph stays crossing-free, and the tree keeps the layer connected. Only the car layer must
// reach every city and give each two connections; the others connect their own cities.
func buildLayers(r *rand.Rand, xy [][2]int) ([]connection, bool) {
	n := len(xy)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	cars, ok := layer(r, xy, all, carExtra, 2)
	if !ok {
		return nil, false
	}

	nTrain := max(4, int(math.Round(trainShare*float64(n))))
	nPlane := max(2, int(math.Round(planeShare*float64(n))))
	// Train stations are spread out so trains really cover longer distances than cars.
	trainCities := spreadOut(xy, r.Perm(n), nTrain)
	trains, ok := layer(r, xy, trainCities, trainExtra, 1)
	if !ok {
		return nil, false
	}
	// Airports are the train stations farthest from each other: planes are for the longest
	// trips.
	planeCities := farthest(r, xy, trainCities, nPlane)
	planes, ok := layer(r, xy, planeCities, planeExtra, 1)
	if !ok {
		return nil, false
	}

	var conns []connection
	for t, es := range [][]edge{cars, trains, planes} {
		for _, e := range es {
			conns = append(conns, connection{kind: transport(t), a: e.i + 1, b: e.j + 1})
		}
	}
	slices.SortFunc(conns, func(x, y connection) int {
		return cmp.Or(cmp.Compare(x.kind, y.kind), cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b))
	})
	return conns, true
}

// layer builds one network on the given cities: the minimum spanning tree of their greedy
// triangulation, then each city short of minDegree gets its shortest spare edge, then each
// spare edge that is not much longer than the tree's typical edge is kept with chance extra
// (long hull edges would look like a plane route on the road map).
func layer(r *rand.Rand, xy [][2]int, cities []int, extra float64, minDegree int) ([]edge, bool) {
	tri := triangulate(xy, cities)
	parent := make([]int, len(xy))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	used := make([]bool, len(tri))
	degree := make([]int, len(xy))
	var out []edge
	take := func(k int) {
		used[k] = true
		degree[tri[k].i]++
		degree[tri[k].j]++
		out = append(out, tri[k])
	}
	for k, e := range tri { // tri is sorted by length: this is Kruskal's algorithm
		if a, b := find(e.i), find(e.j); a != b {
			parent[a] = b
			take(k)
		}
	}
	if len(out) != len(cities)-1 {
		return nil, false
	}
	for _, c := range cities {
		for k, e := range tri {
			if degree[c] >= minDegree {
				break
			}
			if !used[k] && (e.i == c || e.j == c) {
				take(k)
			}
		}
		if degree[c] < minDegree {
			return nil, false
		}
	}
	slices.SortFunc(out, byLength)
	typical := out[(len(out)-1)/2].d2
	for k, e := range tri {
		if !used[k] && e.d2 <= 4*typical && r.Float64() < extra {
			take(k)
		}
	}
	return out, true
}

// triangulate returns the greedy triangulation of the cities, sorted by length: every pair
// from the shortest up, kept unless it crosses a kept edge or runs through any city of the
// map (a road through a city would be ambiguous on a drawing, whatever its layer). The result
// is crossing-free and, as a maximal one, connected.
func triangulate(xy [][2]int, cities []int) []edge {
	var cand []edge
	for x, i := range cities {
		for _, j := range cities[x+1:] {
			a, b := min(i, j), max(i, j)
			cand = append(cand, edge{i: a, j: b, d2: dist2(xy[a], xy[b])})
		}
	}
	slices.SortFunc(cand, byLength)
	var kept []edge
next:
	for _, e := range cand {
		for _, f := range kept {
			if e.i != f.i && e.i != f.j && e.j != f.i && e.j != f.j &&
				segmentsMeet(xy[e.i], xy[e.j], xy[f.i], xy[f.j]) {
				continue next
			}
		}
		for k, p := range xy {
			if k != e.i && k != e.j && onSegment(p, xy[e.i], xy[e.j]) {
				continue next
			}
		}
		kept = append(kept, e)
	}
	return kept
}

func byLength(x, y edge) int {
	return cmp.Or(cmp.Compare(x.d2, y.d2), cmp.Compare(x.i, y.i), cmp.Compare(x.j, y.j))
}

// spreadOut picks k of the cities in the given order, skipping those close to a picked one
// while it can, then filling up with the skipped ones.
func spreadOut(xy [][2]int, order []int, k int) []int {
	gap := 0.6 * mapSize / math.Sqrt(float64(k))
	var picked, skipped []int
	for _, c := range order {
		ok := len(picked) < k
		for _, p := range picked {
			if float64(dist2(xy[c], xy[p])) < gap*gap {
				ok = false
				break
			}
		}
		if ok {
			picked = append(picked, c)
		} else {
			skipped = append(skipped, c)
		}
	}
	picked = append(picked, skipped[:k-len(picked)]...)
	slices.Sort(picked)
	return picked
}

// farthest picks k of the cities by farthest-point sampling from a random one.
func farthest(r *rand.Rand, xy [][2]int, cities []int, k int) []int {
	picked := []int{cities[r.IntN(len(cities))]}
	for len(picked) < k {
		best, bestD := -1, int64(-1)
		for _, c := range cities {
			d := int64(math.MaxInt64)
			for _, p := range picked {
				d = min(d, dist2(xy[c], xy[p]))
			}
			if d > bestD {
				best, bestD = c, d
			}
		}
		picked = append(picked, best)
	}
	slices.Sort(picked)
	return picked
}

func dist2(p, q [2]int) int64 {
	dx, dy := int64(p[0]-q[0]), int64(p[1]-q[1])
	return dx*dx + dy*dy
}

// orient is the sign of the turn o -> a -> b: positive counter-clockwise, 0 collinear.
func orient(o, a, b [2]int) int {
	v := int64(a[0]-o[0])*int64(b[1]-o[1]) - int64(a[1]-o[1])*int64(b[0]-o[0])
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// onSegment reports whether p lies on the closed segment ab.
func onSegment(p, a, b [2]int) bool {
	return orient(a, b, p) == 0 &&
		min(a[0], b[0]) <= p[0] && p[0] <= max(a[0], b[0]) &&
		min(a[1], b[1]) <= p[1] && p[1] <= max(a[1], b[1])
}

// segmentsMeet reports whether the closed segments ab and cd share any point; touching
// counts, since a road may only meet another at a city both end in.
func segmentsMeet(a, b, c, d [2]int) bool {
	if max(a[0], b[0]) < min(c[0], d[0]) || max(c[0], d[0]) < min(a[0], b[0]) ||
		max(a[1], b[1]) < min(c[1], d[1]) || max(c[1], d[1]) < min(a[1], b[1]) {
		return false
	}
	o1, o2 := orient(a, b, c), orient(a, b, d)
	o3, o4 := orient(c, d, a), orient(c, d, b)
	if o1*o2 < 0 && o3*o4 < 0 {
		return true
	}
	return onSegment(c, a, b) || onSegment(d, a, b) || onSegment(a, c, d) || onSegment(b, c, d)
}
