package amazes

import (
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/game"
)

// walled is a maze with every edge a wall: not a valid maze, but a clean canvas for
// the knowledge rules, which only read the walls.
func walled() *Maze {
	m := &Maze{}
	for e := range m.wall {
		m.wall[e] = true
	}
	return m
}

// open removes the wall on side d of square (r, c).
func (m *Maze) open(r, c int, d dir) *Maze {
	m.wall[edgeOf(square(r, c), d)] = false
	return m
}

// comb is a valid maze: every row an open corridor from column 1 to 25, joined by a
// spine down column 1. A player sees its whole row, which makes outcomes easy to count.
func comb() *Maze {
	m := walled()
	for r := 0; r < size; r++ {
		for c := 1; c < size; c++ {
			m.open(r, c, west)
		}
		if r > 0 {
			m.open(r, 0, north)
		}
	}
	return m
}

// at is a place from 0-based row and column.
func at(r, c int, d dir) place { return place{square(r, c), d} }

// withStarts sets the starts and returns the maze's text, as the maze option takes it.
func withStarts(m *Maze, red, blue place) string {
	m.starts = [2]place{red, blue}
	return m.String()
}

func TestGeneratorProperties(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		m := generate(game.NewRand(seed))
		if err := m.validate(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		// A spanning tree of 625 squares has 624 openings; more means loops.
		openings := 0
		for e := range m.wall {
			if !m.wall[e] {
				openings++
			}
		}
		if openings <= numSquares-1 {
			t.Errorf("seed %d: %d openings, no loops", seed, openings)
		}
		if d := dist2(m.starts[0].sq, m.starts[1].sq); d < minStartDist2 {
			t.Errorf("seed %d: starts %d apart (squared), want >= %d", seed, d, minStartDist2)
		}
		for p, st := range m.starts {
			if m.wallAt(st.sq, st.dir.back()) {
				t.Errorf("seed %d: player %d has a wall behind it", seed, p)
			}
		}
		back, err := ParseMaze(m.String())
		if err != nil {
			t.Fatalf("seed %d: round trip: %v", seed, err)
		}
		if *back != *m {
			t.Fatalf("seed %d: round trip changed the maze", seed)
		}
	}
}

func TestGeneratorVaries(t *testing.T) {
	a, b := generate(game.NewRand(1)), generate(game.NewRand(2))
	if *a == *b {
		t.Fatal("seeds 1 and 2 give the same maze")
	}
	if *a != *generate(game.NewRand(1)) {
		t.Fatal("seed 1 gives two different mazes")
	}
	dirs := map[dir]bool{}
	for seed := uint64(0); seed < 100; seed++ {
		dirs[generate(game.NewRand(seed)).starts[0].dir] = true
	}
	if len(dirs) != 4 {
		t.Errorf("Red faced only %d directions in 100 mazes", len(dirs))
	}
}

func TestParseMazeLayout(t *testing.T) {
	text := withStarts(comb(), at(4, 5, east), at(19, 20, west))
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) != 53 || lines[0] != "5 6 E" || lines[1] != "20 21 W" {
		t.Fatalf("layout: %d lines, starting %q %q", len(lines), lines[0], lines[1])
	}
	// Line 3 is the top edge, line 4 row 1's vertical walls (only the outer two), line 5
	// the walls under row 1 (open at the spine).
	if lines[2] != strings.Repeat("1", 25) || lines[3] != "1"+strings.Repeat("0", 24)+"1" || lines[4] != "0"+strings.Repeat("1", 24) {
		t.Fatalf("layout lines 3-5:\n%s\n%s\n%s", lines[2], lines[3], lines[4])
	}
	spaced := make([]string, len(lines))
	for i, l := range lines {
		if i < 2 {
			spaced[i] = "  " + l + " "
		} else {
			spaced[i] = strings.Join(strings.Split(l, ""), " ")
		}
	}
	variants := map[string]string{
		"plain":        text,
		"spaced flags": strings.Join(spaced, "\n"),
		"CRLF":         strings.ReplaceAll(text, "\n", "\r\n"),
		"blank lines":  "\n" + strings.Join(lines[:2], "\n") + "\n\n" + strings.Join(lines[2:], "\n") + "\n\n",
		"lower dir":    strings.Replace(text, "5 6 E", "5 6 e", 1),
	}
	for name, v := range variants {
		m, err := ParseMaze(v)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if m.String() != text {
			t.Errorf("%s: round trip differs", name)
		}
	}
}

func TestParseMazeRejects(t *testing.T) {
	good := withStarts(comb(), at(4, 5, east), at(19, 20, west))
	lines := strings.Split(strings.TrimSuffix(good, "\n"), "\n")
	edit := func(i int, s string) string {
		l := append([]string(nil), lines...)
		l[i] = s
		return strings.Join(l, "\n")
	}
	mazeText := func(change func(m *Maze)) string {
		m := comb()
		change(m)
		return withStarts(m, at(4, 5, east), at(19, 20, west))
	}
	cases := []struct{ name, text, want string }{
		{"empty", "\n\n", "non-blank lines"},
		{"line missing", strings.Join(lines[:52], "\n"), "non-blank lines"},
		{"extra line", good + "0\n", "non-blank lines"},
		{"start fields", edit(0, "5 6"), "row col dir"},
		{"start not a number", edit(0, "a 6 E"), "1..25"},
		{"start row 0", edit(0, "0 6 E"), "1..25"},
		{"start col 26", edit(1, "20 26 W"), "1..25"},
		{"start dir", edit(0, "5 6 X"), "N E S W"},
		{"start dir two letters", edit(0, "5 6 NE"), "N E S W"},
		{"flag count", edit(2, strings.Repeat("1", 24)), "want 25 horizontal"},
		{"vertical flag count", edit(3, strings.Repeat("1", 25)), "want 26 vertical"},
		{"flag char", edit(2, strings.Repeat("1", 24)+"2"), "0 or 1"},
		{"outer edge open", edit(2, "0"+strings.Repeat("1", 24)), "outer edges"},
		{"right edge open", mazeText(func(m *Maze) { m.open(7, 24, east) }), "outer edges"},
		{"disconnected", mazeText(func(m *Maze) { m.wall[hEdge(1, 0)] = true }), "not all squares are connected"},
		{"open corner", mazeText(func(m *Maze) { m.open(1, 5, south).open(1, 6, south) }), "touches no wall"},
		{"wall behind", edit(0, "5 6 N"), "wall directly behind"},
		{"same starts", edit(1, "5 6 E"), "same square"},
	}
	for _, c := range cases {
		_, err := ParseMaze(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
}
