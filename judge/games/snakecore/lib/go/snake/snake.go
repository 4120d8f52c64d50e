// Package snake is the SnakeCore helper library for Go bots. The judge adds it to every Go
// submission for SnakeCore as the directory snake/ of the module "bot", so a bot imports it
// as "bot/snake":
//
//	package main
//
//	import "bot/snake"
//
//	func main() {
//		snake.Run("my bot", func(a *snake.AreaInfo) byte {
//			return snake.None
//		})
//	}
//
// Run answers getName with the name and every getAction with what the function returns,
// and returns at the end of the input. A bot may also read the requests itself with
// ReadRequest, or ignore this package altogether.
//
// Coordinates are x (column) and y (row), from 0 at the top left; Up is y-1.
package snake

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// The actions a bot may answer.
const (
	Up      byte = 'U'
	Left    byte = 'L'
	Down    byte = 'D'
	Right   byte = 'R'
	None    byte = 'N' // skip the move
	Protect byte = 'A' // spend an energy block for 10 moves of protection
)

// Moves are the four moving actions.
var Moves = []byte{Up, Left, Down, Right}

// The characters of the field.
const (
	Wall    byte = 'W'
	Reactor byte = 'R'
	Block   byte = 'b' // an ordinary block, free or in a body
	Energy  byte = 'e' // an energy block, free or in a body
	Head    byte = 'p' // a python's head
	Empty   byte = '.'
)

// Point is a cell.
type Point struct{ X, Y int }

// Step is the cell next to p in the direction of a move action (p itself for any other).
func (p Point) Step(action byte) Point {
	switch action {
	case Up:
		p.Y--
	case Down:
		p.Y++
	case Left:
		p.X--
	case Right:
		p.X++
	}
	return p
}

// Dist is the Manhattan distance between p and q.
func (p Point) Dist(q Point) int { return abs(p.X-q.X) + abs(p.Y-q.Y) }

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Python is one python. Parts[0] is the head, the last part the tail; a python is never
// empty.
type Python struct {
	// Protection is the number of the python's own moves its protection still lasts.
	Protection int
	// Parts are the head and the body's blocks, from the head to the tail.
	Parts []Point
}

// Len is the python's length, head included.
func (p *Python) Len() int { return len(p.Parts) }

// Head is the head's cell.
func (p *Python) Head() Point { return p.Parts[0] }

// Tail is the last part's cell (the head's for a head alone).
func (p *Python) Tail() Point { return p.Parts[len(p.Parts)-1] }

// Body are the body's blocks (all parts but the head).
func (p *Python) Body() []Point { return p.Parts[1:] }

// AreaInfo is one getAction request: the field and the pythons.
type AreaInfo struct {
	// Size is the side of the square field.
	Size int
	// Rows are the field's rows, top first: Rows[y][x] is the cell (x, y).
	Rows []string
	// Pythons are all pythons: Pythons[0] is the bot's own, the others follow in the
	// order of the players' ids.
	Pythons []Python
	// Turn counts the getAction requests read so far, 1 for the first.
	Turn int

	owner, index []int
}

// Me is the bot's own python.
func (a *AreaInfo) Me() *Python { return &a.Pythons[0] }

// Others are the other pythons.
func (a *AreaInfo) Others() []Python { return a.Pythons[1:] }

// Inside reports whether (x, y) is on the field.
func (a *AreaInfo) Inside(x, y int) bool { return x >= 0 && y >= 0 && x < a.Size && y < a.Size }

// Cell is the character of (x, y); off the field it is a Wall.
func (a *AreaInfo) Cell(x, y int) byte {
	if !a.Inside(x, y) {
		return Wall
	}
	return a.Rows[y][x]
}

// At is Cell for a Point.
func (a *AreaInfo) At(p Point) byte { return a.Cell(p.X, p.Y) }

// Owner is the index in Pythons of the python with a part on (x, y), or -1.
func (a *AreaInfo) Owner(x, y int) int {
	if !a.Inside(x, y) {
		return -1
	}
	return a.owner[y*a.Size+x]
}

// PartIndex is the index in its python's Parts of the part on (x, y) (0 for a head), or -1.
func (a *AreaInfo) PartIndex(x, y int) int {
	if !a.Inside(x, y) {
		return -1
	}
	return a.index[y*a.Size+x]
}

// IsFreeBlock reports a block on (x, y) that belongs to no python.
func (a *AreaInfo) IsFreeBlock(x, y int) bool {
	c := a.Cell(x, y)
	return (c == Block || c == Energy) && a.Owner(x, y) < 0
}

// IsEmpty reports an empty cell.
func (a *AreaInfo) IsEmpty(x, y int) bool { return a.Inside(x, y) && a.Cell(x, y) == Empty }

// ErrFormat is returned for a request that is not in the page's format.
var ErrFormat = errors.New("snake: malformed request")

// ReadRequest reads the next request: "getName" (a is nil) or "getAction" with its area.
// Unknown lines are skipped. At the end of the input it returns io.EOF.
func ReadRequest(r *bufio.Reader) (kind string, a *AreaInfo, err error) {
	for {
		line, err := readLine(r)
		if err != nil {
			return "", nil, err
		}
		switch line {
		case "getName":
			return line, nil, nil
		case "getAction":
			a, err := ReadArea(r)
			return line, a, err
		}
	}
}

// ReadArea reads the rest of a getAction request (after its first line). The number of
// python lines is the number of heads on the field.
func ReadArea(r *bufio.Reader) (*AreaInfo, error) {
	line, err := readLine(r)
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(line)
	if err != nil || n <= 0 {
		return nil, fmt.Errorf("%w: %q is not the field size", ErrFormat, line)
	}
	a := &AreaInfo{Size: n, Rows: make([]string, n), owner: make([]int, n*n), index: make([]int, n*n)}
	heads := 0
	for y := 0; y < n; y++ {
		row, err := readRaw(r)
		if err != nil {
			return nil, err
		}
		if len(row) < n {
			row += strings.Repeat(string(Empty), n-len(row))
		}
		a.Rows[y] = row[:n]
		heads += strings.Count(a.Rows[y], string(Head))
	}
	for i := range a.owner {
		a.owner[i], a.index[i] = -1, -1
	}
	for k := 0; k < heads; k++ {
		line, err := readLine(r)
		if err != nil {
			return nil, err
		}
		f := strings.Fields(line)
		v := make([]int, len(f))
		for i, s := range f {
			if v[i], err = strconv.Atoi(s); err != nil {
				return nil, fmt.Errorf("%w: python line %q", ErrFormat, line)
			}
		}
		if len(v) < 2 || v[1] < 1 || len(v) != 2+2*v[1] {
			return nil, fmt.Errorf("%w: python line %q", ErrFormat, line)
		}
		p := Python{Protection: v[0], Parts: make([]Point, v[1])}
		for i := range p.Parts {
			p.Parts[i] = Point{v[2+2*i], v[3+2*i]}
			if x, y := p.Parts[i].X, p.Parts[i].Y; a.Inside(x, y) {
				a.owner[y*n+x], a.index[y*n+x] = k, i
			}
		}
		a.Pythons = append(a.Pythons, p)
	}
	if heads == 0 {
		return nil, fmt.Errorf("%w: no python on the field", ErrFormat)
	}
	return a, nil
}

// readLine reads one line without its end and surrounding spaces; io.EOF at the end.
func readLine(r *bufio.Reader) (string, error) {
	s, err := readRaw(r)
	return strings.TrimSpace(s), err
}

// readRaw reads one line without its end ("\n" or "\r\n"); io.EOF at the end.
func readRaw(r *bufio.Reader) (string, error) {
	s, err := r.ReadString('\n')
	if err != nil && (err != io.EOF || s == "") {
		return "", err
	}
	return strings.TrimRight(s, "\r\n"), nil
}

// Run plays: it answers getName with name (cut to the 32 bytes the page allows, control
// characters made spaces) and each getAction with action's answer, flushing each answer.
// It returns at the end of the input, or with the error of a malformed request.
func Run(name string, action func(a *AreaInfo) byte) error {
	return RunIO(os.Stdin, os.Stdout, name, action)
}

// RunIO is Run on other streams.
func RunIO(in io.Reader, out io.Writer, name string, action func(a *AreaInfo) byte) error {
	r := bufio.NewReader(in)
	w := bufio.NewWriter(out)
	turn := 0
	for {
		kind, a, err := ReadRequest(r)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if kind == "getName" {
			fmt.Fprintln(w, CleanName(name))
		} else {
			turn++
			a.Turn = turn
			fmt.Fprintf(w, "%c\n", action(a))
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
}

// CleanName is the name as the page allows it: at most 32 bytes, characters below 0x20 made
// spaces.
func CleanName(name string) string {
	b := []byte(name)
	if len(b) > 32 {
		b = b[:32]
	}
	for i, c := range b {
		if c < 0x20 {
			b[i] = ' '
		}
	}
	return string(b)
}
