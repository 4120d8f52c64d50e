package ontherun

import "slices"

// This file decides whether a graph is planar, so that an organiser's map can be held to the
// page's promise that each connection type on its own forms a planar graph. A supplied map
// has no coordinates, so the test is purely combinatorial.

// arc is one end of an undirected edge in an adjacency list: the vertex it leads to and the
// edge's index.
type arc struct{ to, id int }

// planar reports whether the undirected graph on vertices 0..n-1 with the given edges can be
// drawn in the plane without crossings. Self-loops and repeated edges do not change the
// answer and are dropped. Edges naming a vertex outside 0..n-1 are ignored.
//
// A graph is planar exactly when each of its biconnected components (blocks) is, so the
// graph is cut into blocks (Hopcroft and Tarjan's depth-first search with an edge stack) and
// each block is tested alone: a block with V >= 3 vertices and more than 3V-6 edges is
// refused at once (Euler's formula), a block of at most four vertices is planar, and any
// other block goes through the Demoucron-Malgrange-Pertuiset algorithm (embedBlock).
func planar(n int, edges [][2]int) bool {
	adj := make([][]arc, n)
	seen := make(map[[2]int]bool, len(edges))
	var es [][2]int
	for _, e := range edges {
		a, b := min(e[0], e[1]), max(e[0], e[1])
		if a < 0 || b >= n || a == b || seen[[2]int{a, b}] {
			continue
		}
		seen[[2]int{a, b}] = true
		id := len(es)
		es = append(es, [2]int{a, b})
		adj[a] = append(adj[a], arc{b, id})
		adj[b] = append(adj[b], arc{a, id})
	}
	for _, block := range blocks(n, adj) {
		if len(block) < 3 {
			continue // a bridge; two edges never form a block of their own
		}
		// Renumber the block's vertices 0..k-1.
		local := map[int]int{}
		sub := make([][2]int, len(block))
		for x, id := range block {
			for y, v := range es[id] {
				if _, ok := local[v]; !ok {
					local[v] = len(local)
				}
				sub[x][y] = local[v]
			}
		}
		k := len(local)
		if len(sub) > 3*k-6 {
			return false
		}
		if k > 4 && !embedBlock(k, sub) {
			return false
		}
	}
	return true
}

// blocks returns the edge indices of each biconnected component of the graph, by one
// depth-first search that keeps the edges it walks on a stack and pops a block whenever a
// child's subtree reaches no higher than its parent (low(child) >= disc(parent)).
func blocks(n int, adj [][]arc) [][]int {
	disc := make([]int, n) // discovery time, 0 while unvisited
	low := make([]int, n)
	var stack []int
	var out [][]int
	clock := 0
	var visit func(u, parentEdge int)
	visit = func(u, parentEdge int) {
		clock++
		disc[u], low[u] = clock, clock
		for _, a := range adj[u] {
			switch {
			case a.id == parentEdge:
			case disc[a.to] == 0:
				stack = append(stack, a.id)
				visit(a.to, a.id)
				low[u] = min(low[u], low[a.to])
				if low[a.to] >= disc[u] {
					var block []int
					for {
						id := stack[len(stack)-1]
						stack = stack[:len(stack)-1]
						block = append(block, id)
						if id == a.id {
							break
						}
					}
					out = append(out, block)
				}
			case disc[a.to] < disc[u]:
				// A back edge to an ancestor; one to a descendant was pushed from there.
				stack = append(stack, a.id)
				low[u] = min(low[u], disc[a.to])
			}
		}
	}
	for v := range n {
		if disc[v] == 0 {
			visit(v, -1)
		}
	}
	return out
}

// embedBlock is the Demoucron-Malgrange-Pertuiset (DMP) planarity test for a biconnected
// simple graph on vertices 0..k-1 (it does not rely on the 3V-6 bound). It builds a plane
// embedding piece by piece:
//
//  1. Start from any cycle H, embedded with two faces (inside and outside).
//  2. While some edge is not embedded, find the fragments of the graph relative to H: each
//     edge outside H joining two vertices of H, and each connected component of the
//     vertices outside H together with its edges to H. A fragment's attachments are its
//     vertices in H; since the graph is biconnected each fragment has at least two.
//  3. A face is admissible for a fragment when its boundary holds all the fragment's
//     attachments. A fragment with no admissible face proves the graph non-planar. Take a
//     fragment with exactly one admissible face if there is one, else any fragment and any
//     of its admissible faces.
//  4. Embed in that face a path of the fragment between two of its attachments, which
//     splits the face in two, and repeat.
//
// If every edge gets embedded the graph is planar. Every face of H stays a simple cycle
// (H stays biconnected), so a face is kept as its list of vertices in boundary order.
func embedBlock(k int, edges [][2]int) bool {
	adj := make([][]arc, k)
	for id, e := range edges {
		adj[e[0]] = append(adj[e[0]], arc{e[1], id})
		adj[e[1]] = append(adj[e[1]], arc{e[0], id})
	}
	inH := make([]bool, k)
	edgeInH := make([]bool, len(edges))
	cycle, cycleEdges := findCycle(k, adj)
	if cycle == nil {
		return true // a forest; not a block, but planar all the same
	}
	for _, v := range cycle {
		inH[v] = true
	}
	for _, id := range cycleEdges {
		edgeInH[id] = true
	}
	embedded := len(cycleEdges)
	faces := [][]int{cycle, append([]int(nil), cycle...)}
	onFace := [][]bool{mask(k, cycle), mask(k, cycle)}

	comp := make([]int, k)  // component of a vertex outside H
	stamp := make([]int, k) // marks attachments already listed, per fragment
	for embedded < len(edges) {
		frags := fragments(k, adj, edges, inH, edgeInH, comp, stamp)
		chosen, face := -1, -1
		for x, f := range frags {
			count, first := 0, -1
			for fi := range faces {
				if admissible(onFace[fi], f.attach) {
					if count == 0 {
						first = fi
					}
					if count++; count == 2 {
						break
					}
				}
			}
			if count == 0 {
				return false
			}
			if count == 1 || chosen < 0 {
				chosen, face = x, first
			}
			if count == 1 {
				break
			}
		}
		f := frags[chosen]
		var path, pathEdges []int
		if f.chord >= 0 {
			e := edges[f.chord]
			path, pathEdges = []int{e[0], e[1]}, []int{f.chord}
		} else {
			path, pathEdges = fragmentPath(adj, inH, comp, f.comp, f.attach[0], f.attach[1])
		}
		for _, v := range path[1 : len(path)-1] {
			inH[v] = true
		}
		for _, id := range pathEdges {
			edgeInH[id] = true
		}
		embedded += len(pathEdges)
		f1, f2 := splitFace(faces[face], path)
		faces[face], onFace[face] = f1, mask(k, f1)
		faces = append(faces, f2)
		onFace = append(onFace, mask(k, f2))
	}
	return true
}

// fragment is a piece of the graph not yet embedded: a single edge between two embedded
// vertices (chord is its index) or a component of the vertices outside H (comp is its
// number, chord is -1), with its attachments.
type fragment struct {
	chord  int
	comp   int
	attach []int
}

// fragments lists the fragments relative to H, chords first, each component in the order of
// its smallest vertex. It numbers the components in comp (-1 for vertices of H).
func fragments(k int, adj [][]arc, edges [][2]int, inH, edgeInH []bool, comp, stamp []int) []fragment {
	var out []fragment
	for id, e := range edges {
		if !edgeInH[id] && inH[e[0]] && inH[e[1]] {
			out = append(out, fragment{chord: id, comp: -1, attach: []int{e[0], e[1]}})
		}
	}
	for v := range k {
		comp[v], stamp[v] = -1, -1
	}
	n := 0
	for s := range k {
		if inH[s] || comp[s] >= 0 {
			continue
		}
		f := fragment{chord: -1, comp: n}
		comp[s] = n
		queue := []int{s}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, a := range adj[u] {
				switch {
				case inH[a.to]:
					if stamp[a.to] != n {
						stamp[a.to] = n
						f.attach = append(f.attach, a.to)
					}
				case comp[a.to] < 0:
					comp[a.to] = n
					queue = append(queue, a.to)
				}
			}
		}
		out = append(out, f)
		n++
	}
	return out
}

// fragmentPath is a shortest path from attachment a to attachment b through component c:
// its vertices from a to b and its edges.
func fragmentPath(adj [][]arc, inH []bool, comp []int, c, a, b int) (path, edges []int) {
	type step struct{ from, edge int }
	prev := map[int]step{}
	var queue []int
	for _, x := range adj[a] {
		if !inH[x.to] && comp[x.to] == c {
			if _, ok := prev[x.to]; !ok {
				prev[x.to] = step{a, x.id}
				queue = append(queue, x.to)
			}
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, x := range adj[u] {
			if x.to == b {
				// Walk back from u to a.
				path, edges = []int{b}, []int{x.id}
				for v := u; v != a; v = prev[v].from {
					path = append(path, v)
					edges = append(edges, prev[v].edge)
				}
				path = append(path, a)
				slices.Reverse(path)
				slices.Reverse(edges)
				return path, edges
			}
			if _, ok := prev[x.to]; !ok && !inH[x.to] {
				prev[x.to] = step{u, x.id}
				queue = append(queue, x.to)
			}
		}
	}
	panic("ontherun: a fragment's attachments are not joined through it")
}

// splitFace cuts a face (its boundary as a cycle of vertices) along a path whose ends lie on
// it and whose inner vertices are new, returning the two faces on either side of the path.
func splitFace(face, path []int) (f1, f2 []int) {
	u, v := path[0], path[len(path)-1]
	i, j := slices.Index(face, u), slices.Index(face, v)
	inner := path[1 : len(path)-1]
	// f1: from u along the face to v, then back along the path.
	for x := i; ; x = (x + 1) % len(face) {
		f1 = append(f1, face[x])
		if x == j {
			break
		}
	}
	for x := len(inner) - 1; x >= 0; x-- {
		f1 = append(f1, inner[x])
	}
	// f2: from v along the face to u, then along the path.
	for x := j; ; x = (x + 1) % len(face) {
		f2 = append(f2, face[x])
		if x == i {
			break
		}
	}
	f2 = append(f2, inner...)
	return f1, f2
}

// findCycle returns a cycle (its vertices in order and its edges) found by a depth-first
// search from vertex 0, or nil when vertex 0's component has none.
func findCycle(k int, adj [][]arc) (cycle, edges []int) {
	parent := make([]int, k)
	parentEdge := make([]int, k)
	depth := make([]int, k)
	for v := range depth {
		depth[v] = -1
	}
	var visit func(u int) bool
	visit = func(u int) bool {
		for _, a := range adj[u] {
			if a.id == parentEdge[u] {
				continue
			}
			if depth[a.to] < 0 {
				parent[a.to], parentEdge[a.to], depth[a.to] = u, a.id, depth[u]+1
				if visit(a.to) {
					return true
				}
				continue
			}
			if depth[a.to] < depth[u] {
				// A back edge to an ancestor closes a cycle through the tree path.
				edges = append(edges, a.id)
				for v := u; v != a.to; v = parent[v] {
					cycle = append(cycle, v)
					edges = append(edges, parentEdge[v])
				}
				cycle = append(cycle, a.to)
				return true
			}
		}
		return false
	}
	if k == 0 {
		return nil, nil
	}
	depth[0], parentEdge[0] = 0, -1
	visit(0)
	return cycle, edges
}

func admissible(onFace []bool, attach []int) bool {
	for _, v := range attach {
		if !onFace[v] {
			return false
		}
	}
	return true
}

func mask(k int, vs []int) []bool {
	m := make([]bool, k)
	for _, v := range vs {
		m[v] = true
	}
	return m
}
