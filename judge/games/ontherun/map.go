package ontherun

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Map limits. The page caps a map at 200 cities; below 5 the four detectives and the
// fugitive could not all start in different cities.
const (
	maxCities = 200
	minCities = numDetectives + 1
)

// transport is a kind of connection. Its letter is the same in connect.txt and in the moves.
type transport int8

const (
	car transport = iota
	train
	plane
	numTransports
)

func (t transport) letter() string { return "CTP"[t : t+1] }

// name is the transport's word, for messages.
func (t transport) name() string { return [...]string{"car", "train", "plane"}[t] }

// transportOf reads a transport letter. Only the page's uppercase letters count: a bot that
// writes "c" has not written a transport the page knows.
func transportOf(s string) (transport, bool) {
	switch s {
	case "C":
		return car, true
	case "T":
		return train, true
	case "P":
		return plane, true
	}
	return 0, false
}

// connection is one undirected connection between cities a and b (labels 1..n).
type connection struct {
	kind transport
	a, b int
}

// worldMap is a checked playing field: only validate's survivors become one, so its lookups
// can trust the labels in conns.
type worldMap struct {
	n     int
	conns []connection
	// xy holds the generator's coordinates (index label-1); nil for a supplied map, whose
	// geometry is unknown.
	xy [][2]int
	// link[t][a*(n+1)+b] says whether a and b share a connection of type t: the moves are
	// judged by lookups in it, so a hostile label must be range-checked before use.
	link [numTransports][]bool
	// nbrs[t][a] are the cities linked to a by type t, in connection order.
	nbrs [numTransports][][]int
}

// newMap indexes connections that validate has accepted.
func newMap(n int, conns []connection, xy [][2]int) *worldMap {
	m := &worldMap{n: n, conns: conns, xy: xy}
	for t := range numTransports {
		m.link[t] = make([]bool, (n+1)*(n+1))
		m.nbrs[t] = make([][]int, n+1)
	}
	for _, c := range conns {
		m.link[c.kind][c.a*(n+1)+c.b] = true
		m.link[c.kind][c.b*(n+1)+c.a] = true
		m.nbrs[c.kind][c.a] = append(m.nbrs[c.kind][c.a], c.b)
		m.nbrs[c.kind][c.b] = append(m.nbrs[c.kind][c.b], c.a)
	}
	return m
}

// city reports whether c is a label of this map.
func (m *worldMap) city(c int) bool { return c >= 1 && c <= m.n }

// linked reports whether a connection of type t joins a and b.
func (m *worldMap) linked(t transport, a, b int) bool {
	if !m.city(a) || !m.city(b) || t < 0 || t >= numTransports {
		return false
	}
	return m.link[t][a*(m.n+1)+b]
}

// adjacent reports whether any connection joins a and b: detectives may use every type.
func (m *worldMap) adjacent(a, b int) bool {
	for t := range numTransports {
		if m.linked(t, a, b) {
			return true
		}
	}
	return false
}

// validate checks what the page promises about every playing field, except planarity: that
// is checkPlanar's, which parseMap adds for a supplied map. A generated map is planar by
// construction (each layer is drawn without crossings, which the generator's tests check), so
// generating one does not pay for the test.
func validate(n int, conns []connection) error {
	if n < minCities || n > maxCities {
		return fmt.Errorf("%d cities: a map has %d..%d", n, minCities, maxCities)
	}
	seen := make(map[connection]bool, len(conns))
	var has [numTransports][]bool
	for t := range numTransports {
		has[t] = make([]bool, n+1)
	}
	carNbrs := make([][]int, n+1)
	for _, c := range conns {
		if c.kind < 0 || c.kind >= numTransports {
			return fmt.Errorf("connection %d-%d has no transport type", c.a, c.b)
		}
		name := fmt.Sprintf("%s %d-%d", c.kind.letter(), c.a, c.b)
		if c.a < 1 || c.a > n || c.b < 1 || c.b > n {
			return fmt.Errorf("connection %s: cities are labelled 1..%d", name, n)
		}
		if c.a == c.b {
			return fmt.Errorf("connection %s connects a city to itself", name)
		}
		key := c
		if key.a > key.b {
			key.a, key.b = key.b, key.a
		}
		// A repeated connection is harmless to the game but a sign of a broken map file.
		if seen[key] {
			return fmt.Errorf("connection %s is listed twice", name)
		}
		seen[key] = true
		has[c.kind][c.a], has[c.kind][c.b] = true, true
		if c.kind == car {
			carNbrs[c.a] = append(carNbrs[c.a], c.b)
			carNbrs[c.b] = append(carNbrs[c.b], c.a)
		}
	}
	for c := 1; c <= n; c++ {
		if len(carNbrs[c]) < 2 {
			return fmt.Errorf("city %d has %d car connections, at least 2 needed", c, len(carNbrs[c]))
		}
		if has[train][c] && !has[car][c] {
			return fmt.Errorf("city %d has a train connection but no car connection", c)
		}
		if has[plane][c] && !has[train][c] {
			return fmt.Errorf("city %d has a plane connection but no train connection", c)
		}
	}
	reached := make([]bool, n+1)
	reached[1] = true
	queue := []int{1}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, d := range carNbrs[c] {
			if !reached[d] {
				reached[d] = true
				queue = append(queue, d)
			}
		}
	}
	for c := 1; c <= n; c++ {
		if !reached[c] {
			return fmt.Errorf("city %d cannot be reached from city 1 by car", c)
		}
	}
	return nil
}

// parseMap reads a map in connect.txt format. Blank lines and surrounding spaces are
// tolerated because an organiser's file may have been edited by hand; anything after END is
// the demonstration files' applet data and is ignored, as the page says.
func parseMap(text string) (*worldMap, error) {
	lines := strings.Split(text, "\n")
	i := 0
	next := func() (string, int, bool) {
		for i < len(lines) {
			l := strings.TrimSpace(lines[i])
			i++
			if l != "" {
				return l, i, true
			}
		}
		return "", i, false
	}
	first, no, ok := next()
	if !ok {
		return nil, errors.New("the map is empty")
	}
	n, err := strconv.Atoi(first)
	if err != nil {
		return nil, fmt.Errorf("line %d: %q is not a number of cities", no, clip(first))
	}
	if n < minCities || n > maxCities {
		return nil, fmt.Errorf("line %d: %d cities: a map has %d..%d", no, n, minCities, maxCities)
	}
	var conns []connection
	for {
		l, no, ok := next()
		if !ok {
			return nil, errors.New("no END line")
		}
		if l == "END" {
			break
		}
		c, err := parseConnection(l)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", no, err)
		}
		conns = append(conns, c)
	}
	if err := validate(n, conns); err != nil {
		return nil, err
	}
	if err := checkPlanar(n, conns); err != nil {
		return nil, err
	}
	return newMap(n, conns, nil), nil
}

// checkPlanar checks the page's promise that the connections of each type, taken alone, form
// a planar graph: one that can be drawn without two connections crossing. A supplied map has
// no coordinates, so this is decided from the graph alone (planar).
func checkPlanar(n int, conns []connection) error {
	for t := range numTransports {
		var es [][2]int
		for _, c := range conns {
			if c.kind == t {
				es = append(es, [2]int{c.a - 1, c.b - 1})
			}
		}
		if !planar(n, es) {
			return fmt.Errorf("the %s connections are not planar (they cannot be drawn without crossings)", t.name())
		}
	}
	return nil
}

// parseConnection reads "X a-b".
func parseConnection(l string) (connection, error) {
	bad := fmt.Errorf("%q is not a connection like \"C 1-2\"", clip(l))
	f := strings.Fields(l)
	if len(f) != 2 {
		return connection{}, bad
	}
	kind, ok := transportOf(f[0])
	if !ok {
		return connection{}, fmt.Errorf("%q: the type is one of C, T, P", clip(l))
	}
	sa, sb, ok := strings.Cut(f[1], "-")
	if !ok {
		return connection{}, bad
	}
	a, errA := strconv.Atoi(sa)
	b, errB := strconv.Atoi(sb)
	if errA != nil || errB != nil {
		return connection{}, bad
	}
	return connection{kind: kind, a: a, b: b}, nil
}

// connectTxt renders the map as the players' connect.txt: the page's format, nothing after
// END (the page promises the official files have nothing there).
func (m *worldMap) connectTxt() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d\n", m.n)
	for _, c := range m.conns {
		fmt.Fprintf(&b, "%s %d-%d\n", c.kind.letter(), c.a, c.b)
	}
	b.WriteString("END\n")
	return b.Bytes()
}

// clip shortens text quoted in an error or fault: a hostile bot's line may be huge.
func clip(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
