package ontherun

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/game"
)

// exampleMap is the page's example playing field (8 cities).
const exampleMap = `8
C 1-2
C 1-5
C 2-5
C 3-4
C 3-6
C 4-7
C 5-8
C 6-7
C 6-8
T 1-8
T 2-3
T 3-4
T 3-8
P 1-4
END
`

func TestParseExample(t *testing.T) {
	m, err := parseMap(exampleMap)
	if err != nil {
		t.Fatal(err)
	}
	if m.n != 8 || len(m.conns) != 14 || m.xy != nil {
		t.Fatalf("n=%d conns=%d xy=%v", m.n, len(m.conns), m.xy)
	}
	if got := string(m.connectTxt()); got != exampleMap {
		t.Errorf("connect.txt round trip:\n%s", got)
	}
	for _, c := range []struct {
		kind transport
		a, b int
		want bool
	}{
		{car, 1, 2, true}, {car, 2, 1, true}, {train, 1, 8, true}, {car, 1, 8, false},
		{plane, 4, 1, true}, {plane, 1, 2, false}, {train, 3, 4, true}, {car, 0, 1, false},
		{car, 1, 9, false}, {car, 1, 1, false}, {transport(7), 1, 2, false},
	} {
		if got := m.linked(c.kind, c.a, c.b); got != c.want {
			t.Errorf("linked(%d, %d, %d) = %v", c.kind, c.a, c.b, got)
		}
	}
	if !m.adjacent(8, 1) || !m.adjacent(4, 1) || m.adjacent(7, 1) || m.adjacent(-1, 300) {
		t.Error("adjacent is wrong")
	}
}

func TestParseTolerates(t *testing.T) {
	for name, text := range map[string]string{
		// The demonstration files carry applet data after END.
		"data after END":   exampleMap + "1 20 30\n2 40 50\nanything at all\nC 99-100\n",
		"CRLF and spaces":  strings.ReplaceAll(strings.ReplaceAll(exampleMap, "\n", " \r\n"), "C ", "  C  "),
		"blank lines":      strings.ReplaceAll(exampleMap, "\n", "\n\n"),
		"no final newline": strings.TrimSuffix(exampleMap, "\n"),
	} {
		m, err := parseMap(text)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := string(m.connectTxt()); got != exampleMap {
			t.Errorf("%s: connect.txt is\n%s", name, got)
		}
	}
}

func TestParseRejects(t *testing.T) {
	replace := func(old, new string) string { return strings.Replace(exampleMap, old, new, 1) }
	for _, c := range []struct {
		name, text, want string
	}{
		{"empty", "", "empty"},
		{"only spaces", " \n \n", "empty"},
		{"count not a number", replace("8\n", "eight\n"), "not a number of cities"},
		{"too many cities", replace("8\n", "201\n"), "201 cities"},
		{"too few cities", "4\nC 1-2\nC 2-3\nC 3-4\nC 4-1\nEND\n", "4 cities"},
		{"no END", strings.TrimSuffix(exampleMap, "END\n"), "no END"},
		{"lowercase end", replace("END", "end"), "not a connection"},
		{"bad type", replace("T 2-3", "B 2-3"), "type is one of"},
		{"lowercase type", replace("T 2-3", "t 2-3"), "type is one of"},
		{"no dash", replace("T 2-3", "T 2 3"), "not a connection"},
		{"missing city", replace("T 2-3", "T 2-"), "not a connection"},
		{"junk city", replace("T 2-3", "T 2-x"), "not a connection"},
		{"label zero", replace("T 2-3", "T 0-3"), "labelled 1..8"},
		{"label too big", replace("T 2-3", "T 2-9"), "labelled 1..8"},
		{"negative label", replace("T 2-3", "T 2--3"), "labelled 1..8"},
		{"self-loop", replace("T 2-3", "T 3-3"), "to itself"},
		{"duplicate", replace("T 2-3", "T 3-2\nT 2-3"), "listed twice"},
		{"one car connection", replace("C 6-7\n", ""), "city 7 has 1 car"},
		{"not car-connected", "6\nC 1-2\nC 2-3\nC 3-1\nC 4-5\nC 5-6\nC 6-4\nEND\n", "city 4 cannot be reached"},
		{"plane city without train", replace("P 1-4", "P 1-4\nP 5-6"), "city 5 has a plane connection but no train"},
		{"fields", replace("C 1-2", "C 1-2 extra"), "not a connection"},
	} {
		_, err := parseMap(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestClip(t *testing.T) {
	if got := clip(strings.Repeat("x", 100)); len(got) != 43 || !strings.HasSuffix(got, "...") {
		t.Errorf("clip: %q", got)
	}
	if clip("short") != "short" {
		t.Error("clip changed a short text")
	}
}

// mapText writes a connect.txt for n cities from lines like "C 1-2".
func mapText(n int, conns ...string) string {
	return fmt.Sprintf("%d\n%s\nEND\n", n, strings.Join(conns, "\n"))
}

// pairs is every connection of the type between the cities as and those of bs (all pairs
// within as when bs is nil).
func pairs(kind string, as, bs []int) []string {
	var out []string
	for x, a := range as {
		if bs == nil {
			for _, b := range as[x+1:] {
				out = append(out, fmt.Sprintf("%s %d-%d", kind, a, b))
			}
			continue
		}
		for _, b := range bs {
			out = append(out, fmt.Sprintf("%s %d-%d", kind, a, b))
		}
	}
	return out
}

// TestMapPlanarity: an organiser's map must keep each connection type planar on its own.
func TestMapPlanarity(t *testing.T) {
	ring := func(n int) []string { // a car ring 1..n, which every map below needs
		var out []string
		for c := 1; c <= n; c++ {
			out = append(out, fmt.Sprintf("C %d-%d", c, c%n+1))
		}
		return out
	}
	// Every city of a K5 by car: each has four car connections and all are connected.
	k5Cars := mapText(5, pairs("C", []int{1, 2, 3, 4, 5}, nil)...)
	// K5 by car among cities 2..6 of a larger map, the rest a ring.
	k5CarsInside := mapText(12, slices.Concat(ring(12), pairs("C", []int{2, 4, 6, 8, 10}, nil))...)
	// A hexagon by car, its three long diagonals by car too: the utility graph K3,3.
	k33Cars := mapText(6, slices.Concat(ring(6), []string{"C 1-4", "C 2-5", "C 3-6"})...)
	// K3,3 by train on a car ring.
	k33Trains := mapText(8, slices.Concat(ring(8), pairs("T", []int{1, 3, 5}, []int{2, 4, 6}))...)
	// K5 by plane, its cities joined by a train line.
	k5Planes := mapText(7, slices.Concat(ring(7), []string{"T 1-3", "T 3-5", "T 5-2", "T 2-4"},
		pairs("P", []int{1, 2, 3, 4, 5}, nil))...)
	// The car hexagon with its long diagonals by train: the union is K3,3, but each type on
	// its own is planar, which is all the page promises.
	unionOnly := mapText(6, slices.Concat(ring(6), []string{"T 1-4", "T 2-5", "T 3-6"})...)
	// K5 spread over the types, no type alone non-planar.
	spread := mapText(5, slices.Concat(ring(5), []string{"T 1-3", "T 1-4", "T 2-4", "T 2-5", "P 3-5"})...)
	// The train layer is K4 plus a K3,3 in another block.
	k33TrainBlock := mapText(14, slices.Concat(ring(14), pairs("T", []int{1, 2, 3, 4}, nil),
		pairs("T", []int{8, 10, 12}, []int{9, 11, 13}))...)

	for _, c := range []struct {
		name, text, want string
	}{
		{"K5 by car", k5Cars, "the car connections are not planar"},
		{"K5 by car inside a ring", k5CarsInside, "the car connections are not planar"},
		{"K3,3 by car", k33Cars, "the car connections are not planar"},
		{"K3,3 by train", k33Trains, "the train connections are not planar"},
		{"K3,3 by train in one block of several", k33TrainBlock, "the train connections are not planar"},
		{"K5 by plane", k5Planes, "the plane connections are not planar"},
		{"K3,3 only over two types", unionOnly, ""},
		{"K5 only over three types", spread, ""},
		{"the example", exampleMap, ""},
	} {
		_, err := parseMap(c.text)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: parseMap error %v, want %q", c.name, err, c.want)
		}
		// Given as the map option, it is an option error naming the option.
		_, err = New().New(game.Config{Seed: 1, Players: 2, Options: map[string]string{"map": c.text}})
		var oe *game.OptionError
		if c.want == "" && err != nil || c.want != "" && (!errors.As(err, &oe) || !strings.Contains(err.Error(), "option map: "+c.want)) {
			t.Errorf("%s: New error %v, want an option error with %q", c.name, err, c.want)
		}
	}
}
