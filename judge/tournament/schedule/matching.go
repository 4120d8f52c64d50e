package schedule

// matcher is Edmonds' blossom algorithm for maximum matchings in general graphs, over a
// dense graph of n vertices of which some are active (still to be paired). Swiss pairing
// uses it to know, before committing to a pair, that the rest can still be paired: that
// makes the classic backtracking over the standings polynomial, where the plain search can
// explore exponentially many dead ends before it finds that no pairing avoids a rematch.
type matcher struct {
	n      int
	adj    []bool // adj[u*n+v]: u and v may be paired
	active []bool
	mate   []int // -1 when exposed

	// Scratch of one search.
	parent, base []int
	outer        []bool // even vertices of the alternating tree (in the queue)
	blossom      []bool
	mark         []int // lca stamps
	stamp        int
	queue        []int
}

func newMatcher(n int, adj []bool) *matcher {
	m := &matcher{
		n: n, adj: adj,
		active: make([]bool, n), mate: make([]int, n),
		parent: make([]int, n), base: make([]int, n),
		outer: make([]bool, n), blossom: make([]bool, n), mark: make([]int, n),
	}
	for v := range m.mate {
		m.active[v] = true
		m.mate[v] = -1
	}
	return m
}

// maximum makes the matching of the active vertices maximum and returns its size. One
// search from each exposed vertex is enough: a vertex with no augmenting path never gains
// one by later augmentations.
func (m *matcher) maximum() int {
	for v := 0; v < m.n; v++ {
		if m.active[v] && m.mate[v] < 0 {
			m.augment(v)
		}
	}
	size := 0
	for v := 0; v < m.n; v++ {
		if m.active[v] && m.mate[v] > v {
			size++
		}
	}
	return size
}

// augment looks for an augmenting path from the exposed vertex root and, when there is one,
// flips it, matching root.
func (m *matcher) augment(root int) bool {
	v := m.findPath(root)
	if v < 0 {
		return false
	}
	for v >= 0 {
		pv := m.parent[v]
		ppv := m.mate[pv]
		m.mate[v] = pv
		m.mate[pv] = v
		v = ppv
	}
	return true
}

// findPath grows an alternating tree from root, shrinking odd cycles (blossoms) into their
// base, and returns the exposed vertex an augmenting path reaches, or -1.
func (m *matcher) findPath(root int) int {
	for i := 0; i < m.n; i++ {
		m.outer[i] = false
		m.parent[i] = -1
		m.base[i] = i
	}
	m.outer[root] = true
	m.queue = append(m.queue[:0], root)
	for qh := 0; qh < len(m.queue); qh++ {
		v := m.queue[qh]
		for to := 0; to < m.n; to++ {
			if !m.active[to] || !m.adj[v*m.n+to] || m.base[v] == m.base[to] || m.mate[v] == to {
				continue
			}
			if to == root || m.mate[to] >= 0 && m.parent[m.mate[to]] >= 0 {
				// to is even too: v-to closes a blossom.
				b := m.lca(v, to)
				for i := range m.blossom {
					m.blossom[i] = false
				}
				m.markPath(v, b, to)
				m.markPath(to, b, v)
				for i := 0; i < m.n; i++ {
					if m.blossom[m.base[i]] {
						m.base[i] = b
						if !m.outer[i] {
							m.outer[i] = true
							m.queue = append(m.queue, i)
						}
					}
				}
			} else if m.parent[to] < 0 {
				m.parent[to] = v
				if m.mate[to] < 0 {
					return to
				}
				w := m.mate[to]
				m.outer[w] = true
				m.queue = append(m.queue, w)
			}
		}
	}
	return -1
}

// lca is the base of the blossom closed by the edge a-b: the first common base on their
// paths to the root.
func (m *matcher) lca(a, b int) int {
	m.stamp++
	for {
		a = m.base[a]
		m.mark[a] = m.stamp
		if m.mate[a] < 0 {
			break
		}
		a = m.parent[m.mate[a]]
	}
	for {
		b = m.base[b]
		if m.mark[b] == m.stamp {
			return b
		}
		b = m.parent[m.mate[b]]
	}
}

// markPath marks the blossom's bases on the path from v to its base b, and points the
// parents along it the other way round the cycle, so that augmenting paths can go through.
func (m *matcher) markPath(v, b, child int) {
	for m.base[v] != b {
		m.blossom[m.base[v]] = true
		m.blossom[m.base[m.mate[v]]] = true
		m.parent[v] = child
		child = m.mate[v]
		v = m.parent[m.mate[v]]
	}
}

// remove takes the active vertices x and y out of a matching that is perfect on the active
// vertices (or, with y < 0, x alone out of a maximum matching of an odd active set, which
// leaves one vertex exposed) and keeps it perfect on the rest. It reports whether it could;
// when not, nothing changed. Only the mates freed by the removal (and the exposed vertex) are
// exposed, so a single augmenting path from one of them to the other decides.
func (m *matcher) remove(x, y int) bool {
	saved := append([]int(nil), m.mate...)
	freed := -1
	for _, v := range []int{x, y} {
		if v < 0 {
			continue
		}
		m.active[v] = false
		if p := m.mate[v]; p >= 0 && p != x && p != y {
			m.mate[p] = -1
			freed = p
		}
		m.mate[v] = -1
	}
	if freed >= 0 && !m.augment(freed) {
		copy(m.mate, saved)
		m.active[x] = true
		if y >= 0 {
			m.active[y] = true
		}
		return false
	}
	return true
}
