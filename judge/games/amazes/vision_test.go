package amazes

import "testing"

// know marks edges known, as if seen.
func know(k *knowledge, edges ...int) {
	for _, e := range edges {
		k.learn(e)
	}
}

// sides are the edges of square (r, c) on the given sides.
func sides(r, c int, ds ...dir) []int {
	var es []int
	for _, d := range ds {
		es = append(es, edgeOf(square(r, c), d))
	}
	return es
}

// The page's example: W ahead, W right, LLBNW behind, W left, and the two walls found
// because every corner touches a wall.
func TestLookPageExample(t *testing.T) {
	m := walled().open(10, 10, south).open(11, 10, south).open(12, 10, south).open(13, 10, south)
	// Looking south, the player's left is east.
	m.open(11, 10, east).open(12, 10, east).open(13, 10, east).open(13, 10, west)
	var k knowledge
	lines := look(m, at(10, 10, north), &k)
	if want := [4]string{"W", "W", "LLBNW", "W"}; lines != want {
		t.Fatalf("lines %q, want %q", lines, want)
	}
	// Facing east, the same corridor is on the right.
	if got := look(m, at(10, 10, east), nil); got != [4]string{"W", "LLBNW", "W", "W"} {
		t.Fatalf("facing east: %q", got)
	}
	k.infer(m)
	squares := []int{square(10, 10), square(11, 10), square(12, 10), square(13, 10), square(14, 10),
		square(11, 11), square(12, 11), square(13, 11), square(13, 9)}
	for _, s := range squares {
		if !k.disc[s] {
			t.Errorf("square %d,%d not discovered", s/size, s%size)
		}
	}
	if k.count != len(squares) {
		t.Errorf("%d squares discovered, want %d", k.count, len(squares))
	}
	// The corners east of the corridor between rows 11|12 and 12|13 have three openings.
	for _, e := range []int{hEdge(12, 11), hEdge(13, 11)} {
		if !k.known[e] {
			t.Errorf("corner rule: wall %d not discovered", e)
		}
	}
	// Seen: the corridor's side walls and end wall; not seen: the side squares' walls.
	for _, e := range append(sides(14, 10, east, south, west), sides(11, 10, west)...) {
		if !k.known[e] {
			t.Errorf("seen wall %d not discovered", e)
		}
	}
	for _, e := range append(sides(11, 11, north, east), sides(13, 9, west, north)...) {
		if k.known[e] {
			t.Errorf("unseen edge %d discovered", e)
		}
	}
}

func TestDeadEndRules(t *testing.T) {
	type result struct {
		disc, notDisc []int // squares
		known         []int // edges
		count         int
	}
	cases := []struct {
		name string
		maze func() *Maze
		// prepare sets what the player knows before inference.
		prepare func(k *knowledge)
		want    result
	}{{
		name: "three walls",
		maze: func() *Maze { return walled().open(5, 5, east) },
		prepare: func(k *knowledge) {
			know(k, sides(5, 5, north, south, west)...)
		},
		want: result{disc: []int{square(5, 5)}, notDisc: []int{square(5, 6)}, known: sides(5, 5, east), count: 1},
	}, {
		name: "two walls are not enough",
		maze: func() *Maze { return walled().open(5, 5, east).open(5, 5, west) },
		prepare: func(k *knowledge) {
			know(k, sides(5, 5, north, south)...)
		},
		want: result{notDisc: []int{square(5, 5)}, count: 0},
	}, {
		name: "chain: one opening to a dead end and two walls",
		maze: func() *Maze { return walled().open(5, 5, east).open(5, 6, east).open(5, 7, east) },
		prepare: func(k *knowledge) {
			know(k, sides(5, 5, north, south, west)...)
			know(k, sides(5, 6, north, south)...)
			know(k, sides(5, 7, north, south)...)
		},
		want: result{disc: []int{square(5, 5), square(5, 6), square(5, 7)}, notDisc: []int{square(5, 8)},
			known: sides(5, 7, east), count: 3},
	}, {
		name: "chain stops at a square with an unknown wall",
		maze: func() *Maze { return walled().open(5, 5, east).open(5, 6, east).open(5, 7, east) },
		prepare: func(k *knowledge) {
			know(k, sides(5, 5, north, south, west)...)
			know(k, sides(5, 6, north, south)...)
			know(k, sides(5, 7, north)...)
		},
		want: result{disc: []int{square(5, 5), square(5, 6)}, notDisc: []int{square(5, 7)}, count: 2},
	}, {
		// The page's rules are for squares "not yet discovered": a square discovered
		// otherwise is no dead end, so the chain does not pass it.
		name: "chain stops at a square discovered otherwise",
		maze: func() *Maze { return walled().open(5, 5, east).open(5, 6, east).open(5, 7, east) },
		prepare: func(k *knowledge) {
			k.discover(square(5, 6))
			know(k, sides(5, 5, north, south, west)...)
			know(k, sides(5, 6, north, south)...)
			know(k, sides(5, 7, north, south)...)
		},
		want: result{disc: []int{square(5, 5), square(5, 6)}, notDisc: []int{square(5, 7)}, count: 2},
	}, {
		name: "two openings to dead ends and one wall",
		maze: func() *Maze { return walled().open(12, 12, west).open(12, 12, east).open(12, 12, north) },
		prepare: func(k *knowledge) {
			know(k, sides(12, 11, north, south, west)...)
			know(k, sides(12, 13, north, south, east)...)
			know(k, sides(12, 12, south)...)
		},
		want: result{disc: []int{square(12, 11), square(12, 12), square(12, 13)}, notDisc: []int{square(11, 12)},
			known: sides(12, 12, north), count: 3},
	}, {
		name: "three openings to dead ends",
		maze: func() *Maze {
			return walled().open(12, 12, west).open(12, 12, east).open(12, 12, south).open(12, 12, north)
		},
		prepare: func(k *knowledge) {
			know(k, sides(12, 11, north, south, west)...)
			know(k, sides(12, 13, north, south, east)...)
			know(k, sides(13, 12, west, south, east)...)
		},
		want: result{disc: []int{square(12, 11), square(12, 12), square(12, 13), square(13, 12)},
			notDisc: []int{square(11, 12)}, known: sides(12, 12, north), count: 4},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := c.maze()
			var k knowledge
			c.prepare(&k)
			k.infer(m)
			for _, s := range c.want.disc {
				if !k.disc[s] {
					t.Errorf("square %d,%d not discovered", s/size, s%size)
				}
			}
			for _, s := range c.want.notDisc {
				if k.disc[s] {
					t.Errorf("square %d,%d discovered", s/size, s%size)
				}
			}
			for _, e := range c.want.known {
				if !k.known[e] {
					t.Errorf("edge %d not discovered", e)
				}
			}
			if k.count != c.want.count {
				t.Errorf("%d squares discovered in all, want %d", k.count, c.want.count)
			}
		})
	}
}

func TestCornerRule(t *testing.T) {
	m := walled().open(7, 7, east).open(8, 7, east).open(7, 7, south) // three edges meeting at corner (8, 8)
	var k knowledge
	know(&k, vEdge(7, 8), vEdge(8, 8))
	k.infer(m)
	if k.known[hEdge(8, 8)] {
		t.Fatal("two openings at a corner made the fourth edge known")
	}
	know(&k, hEdge(8, 7))
	k.infer(m)
	if !k.known[hEdge(8, 8)] {
		t.Fatal("three openings at a corner did not make the fourth a known wall")
	}
}

// allKnown reports whether every edge of an outer edge is known; noneKnown, none.
func allKnown(k *knowledge, edge func(int) int) bool { return k.knowsLine(edge) }
func noneKnown(k *knowledge, edge func(int) int) bool {
	for x := 0; x < size; x++ {
		if k.known[edge(x)] {
			return false
		}
	}
	return true
}

var (
	leftEdge   = func(r int) int { return vEdge(r, 0) }
	rightEdge  = func(r int) int { return vEdge(r, size) }
	topEdge    = func(c int) int { return hEdge(0, c) }
	bottomEdge = func(c int) int { return hEdge(size, c) }
)

func TestOuterEdges(t *testing.T) {
	t.Run("24 columns are not enough", func(t *testing.T) {
		var k knowledge
		for c := 1; c < size; c++ {
			k.discover(square(12, c))
		}
		k.infer(walled())
		if !noneKnown(&k, leftEdge) || !noneKnown(&k, rightEdge) {
			t.Fatal("outer vertical edges known from 24 columns")
		}
	})
	t.Run("the 25th column known by an open connection", func(t *testing.T) {
		m := walled().open(12, 1, west)
		var k knowledge
		for c := 1; c < size; c++ {
			k.discover(square(12, c))
		}
		know(&k, vEdge(12, 1))
		k.infer(m)
		if !allKnown(&k, leftEdge) || !allKnown(&k, rightEdge) {
			t.Fatal("outer vertical edges not known with all 25 columns")
		}
		if !noneKnown(&k, topEdge) || !noneKnown(&k, bottomEdge) {
			t.Fatal("outer horizontal edges known from one row")
		}
		if k.disc[square(12, 0)] {
			t.Fatal("a square known only to exist was discovered")
		}
	})
	t.Run("all 25 rows", func(t *testing.T) {
		var k knowledge
		for r := 0; r < size; r++ {
			k.discover(square(r, 10))
		}
		k.infer(walled())
		if !allKnown(&k, topEdge) || !allKnown(&k, bottomEdge) {
			t.Fatal("outer horizontal edges not known with all 25 rows")
		}
		if !noneKnown(&k, leftEdge) {
			t.Fatal("outer vertical edges known from one column")
		}
	})
	for _, c := range []struct {
		name       string
		seen, then func(int) int
		untouched  func(int) int
	}{
		{"left edge gives right", leftEdge, rightEdge, topEdge},
		{"right edge gives left", rightEdge, leftEdge, bottomEdge},
		{"top edge gives bottom", topEdge, bottomEdge, leftEdge},
		{"bottom edge gives top", bottomEdge, topEdge, rightEdge},
	} {
		t.Run(c.name, func(t *testing.T) {
			var k knowledge
			for x := 0; x < size-1; x++ {
				k.learn(c.seen(x))
			}
			k.infer(walled())
			if !noneKnown(&k, c.then) {
				t.Fatal("24 walls of an edge gave the opposite edge")
			}
			k.learn(c.seen(size - 1))
			k.infer(walled())
			if !allKnown(&k, c.then) {
				t.Fatal("25 walls of an edge did not give the opposite edge")
			}
			if !noneKnown(&k, c.untouched) {
				t.Fatal("an unrelated edge became known")
			}
		})
	}
	// As in the page's walkthrough: the rows rule finds the top edge, which is a dead
	// end's third wall, and the dead end's way out makes the next square exist.
	t.Run("outer edge completes a dead end", func(t *testing.T) {
		m := walled().open(0, 5, west)
		var k knowledge
		for r := 0; r < size; r++ {
			k.discover(square(r, 10))
		}
		know(&k, sides(0, 5, south, east)...)
		k.infer(m)
		if !k.disc[square(0, 5)] || !k.dead[square(0, 5)] || !k.known[edgeOf(square(0, 5), west)] {
			t.Fatal("the dead end under the top edge was not found")
		}
		if k.disc[square(0, 4)] || !k.exists(m, square(0, 4)) {
			t.Fatal("the square beyond the dead end should exist, not be discovered")
		}
		if k.count != size+1 {
			t.Fatalf("%d squares discovered, want %d", k.count, size+1)
		}
	})
}

// Seeing all 25 columns in one look, the player finds both vertical outer edges; with
// them, the squares at the end of a row become dead ends when their other walls are
// known.
func TestLookFindsOuterEdges(t *testing.T) {
	m := comb()
	var k knowledge
	look(m, at(5, 5, east), &k)
	k.infer(m)
	if !allKnown(&k, leftEdge) || !allKnown(&k, rightEdge) {
		t.Fatal("a whole row seen: the vertical outer edges should be known")
	}
	if !noneKnown(&k, topEdge) {
		t.Fatal("three rows seen: the top edge should be unknown")
	}
	if k.count != 27 {
		t.Fatalf("%d squares discovered, want the row and the two beside the spine", k.count)
	}
	// Looking down the spine sees every row: all four outer edges.
	var k2 knowledge
	look(m, at(5, 0, south), &k2)
	k2.infer(m)
	if !allKnown(&k2, topEdge) || !allKnown(&k2, bottomEdge) || !allKnown(&k2, leftEdge) || !allKnown(&k2, rightEdge) {
		t.Fatal("from the spine all four outer edges should be known")
	}
}
