package snakecore

import (
	"fmt"
	"slices"
	"testing"

	"github.com/botjudge/judge/judge/game"
)

func TestFieldGeneration(t *testing.T) {
	for _, c := range []struct{ size, walls, players int }{
		{30, 6, 4}, {30, 6, 2}, {30, 6, 8}, {10, 6, 8}, {10, 0, 2}, {20, 30, 8}, {50, 30, 4}, {100, 6, 8}, {13, 17, 5},
	} {
		for seed := uint64(1); seed <= 5; seed++ {
			t.Run(fmt.Sprintf("%dx%d-%d%%-%dp-seed%d", c.size, c.size, c.walls, c.players, seed), func(t *testing.T) {
				s, err := generate(game.NewRand(seed), c.size, c.walls, c.players)
				if err != nil {
					t.Fatal(err)
				}
				check(t, s)
				count := map[byte]int{}
				for _, r := range s.rows() {
					if len(r) != c.size {
						t.Fatalf("row of %d cells", len(r))
					}
					for i := range len(r) {
						count[r[i]]++
					}
				}
				want := map[byte]int{
					chWall: wallCount(c.size, c.walls), chReactor: numReactors,
					chOrdinary: numOrdinary, chEnergy: numEnergy, chHead: c.players,
				}
				want[chEmpty] = c.size*c.size - want[chWall] - numReactors - numOrdinary - numEnergy - c.players
				for ch, n := range want {
					if count[ch] != n {
						t.Errorf("%d cells %q, want %d", count[ch], ch, n)
					}
				}
				for p, py := range s.pythons {
					if len(py.body) != 0 || py.prot != 0 || py.score != 0 {
						t.Errorf("python %d does not start as a head alone", p)
					}
				}
				assertConnected(t, s)
			})
		}
	}
}

// assertConnected checks, by its own flood fill, that the cells that are neither wall nor
// reactor form one region and that every reactor touches one of them.
func assertConnected(t *testing.T, s *state) {
	t.Helper()
	n := s.n
	open := func(x, y int) bool {
		return x >= 0 && y >= 0 && x < n && y < n && s.ground[y*n+x] == chEmpty
	}
	total, start := 0, -1
	for c := range s.ground {
		if s.ground[c] == chEmpty {
			total++
			start = c
		}
	}
	seen := map[int]bool{start: true}
	todo := []int{start}
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		x, y := c%n, c/n
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			if nx, ny := x+d[0], y+d[1]; open(nx, ny) && !seen[ny*n+nx] {
				seen[ny*n+nx] = true
				todo = append(todo, ny*n+nx)
			}
		}
	}
	if len(seen) != total {
		t.Fatalf("open cells are not connected: %d of %d reached", len(seen), total)
	}
	for c := range s.ground {
		if s.ground[c] != chReactor {
			continue
		}
		x, y := c%n, c/n
		if !open(x+1, y) && !open(x-1, y) && !open(x, y+1) && !open(x, y-1) {
			t.Errorf("reactor at %d,%d touches no open cell", x, y)
		}
	}
}

func TestFieldIsDeterministic(t *testing.T) {
	a, _ := generate(game.NewRand(42), 30, 6, 4)
	b, _ := generate(game.NewRand(42), 30, 6, 4)
	c, _ := generate(game.NewRand(43), 30, 6, 4)
	if !slices.Equal(a.rows(), b.rows()) {
		t.Fatal("the same seed made two fields")
	}
	if slices.Equal(a.rows(), c.rows()) {
		t.Fatal("two seeds made the same field")
	}
}

func TestWallCount(t *testing.T) {
	for _, c := range []struct{ n, pct, want int }{{30, 6, 54}, {10, 6, 6}, {13, 6, 10}, {10, 0, 0}, {100, 30, 3000}, {11, 5, 6}} {
		if got := wallCount(c.n, c.pct); got != c.want {
			t.Errorf("wallCount(%d, %d) = %d, want %d", c.n, c.pct, got, c.want)
		}
	}
}
