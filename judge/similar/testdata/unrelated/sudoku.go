// Command sudoku solves 9x9 Sudoku puzzles read from standard input.
//
// Each puzzle is 81 cells given as digits, with '0' or '.' for a blank; any other
// characters (spaces, newlines, '|', '-') are ignored. Several puzzles may follow
// each other. The solver uses bitmasks of candidates and always fills the cell
// with the fewest candidates first.
package main

import (
	"bufio"
	"fmt"
	"math/bits"
	"os"
	"strings"
)

type board [81]int

type solver struct {
	b                 board
	rows, cols, boxes [9]uint16
	guesses           int
}

func boxOf(i int) int { return (i/9)/3*3 + (i%9)/3 }

func (s *solver) place(i, d int) {
	m := uint16(1) << d
	s.b[i] = d
	s.rows[i/9] |= m
	s.cols[i%9] |= m
	s.boxes[boxOf(i)] |= m
}

func (s *solver) remove(i, d int) {
	m := ^(uint16(1) << d)
	s.b[i] = 0
	s.rows[i/9] &= m
	s.cols[i%9] &= m
	s.boxes[boxOf(i)] &= m
}

// candidates returns the digits still possible at cell i, as bits 1..9.
func (s *solver) candidates(i int) uint16 {
	used := s.rows[i/9] | s.cols[i%9] | s.boxes[boxOf(i)]
	return ^used & 0x3FE
}

func (s *solver) solve() bool {
	best, bestCount := -1, 10
	for i := 0; i < 81; i++ {
		if s.b[i] != 0 {
			continue
		}
		n := bits.OnesCount16(s.candidates(i))
		if n == 0 {
			return false
		}
		if n < bestCount {
			best, bestCount = i, n
		}
	}
	if best < 0 {
		return true // no blank left
	}
	c := s.candidates(best)
	for d := 1; d <= 9; d++ {
		if c&(1<<d) == 0 {
			continue
		}
		s.guesses++
		s.place(best, d)
		if s.solve() {
			return true
		}
		s.remove(best, d)
	}
	return false
}

func load(cells []int) (*solver, error) {
	s := &solver{}
	for i, d := range cells {
		if d == 0 {
			continue
		}
		if s.candidates(i)&(1<<d) == 0 {
			return nil, fmt.Errorf("digit %d at row %d, column %d clashes", d, i/9+1, i%9+1)
		}
		s.place(i, d)
	}
	return s, nil
}

func (b *board) String() string {
	var sb strings.Builder
	for r := 0; r < 9; r++ {
		if r%3 == 0 && r > 0 {
			sb.WriteString("------+-------+------\n")
		}
		for c := 0; c < 9; c++ {
			if c%3 == 0 && c > 0 {
				sb.WriteString("| ")
			}
			fmt.Fprintf(&sb, "%d ", b[r*9+c])
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

func main() {
	in := bufio.NewReader(os.Stdin)
	var cells []int
	puzzle := 0
	for {
		ch, _, err := in.ReadRune()
		if err != nil {
			break
		}
		switch {
		case ch >= '1' && ch <= '9':
			cells = append(cells, int(ch-'0'))
		case ch == '0' || ch == '.':
			cells = append(cells, 0)
		}
		if len(cells) < 81 {
			continue
		}
		puzzle++
		s, err := load(cells)
		cells = cells[:0]
		if err != nil {
			fmt.Printf("puzzle %d: invalid: %v\n\n", puzzle, err)
			continue
		}
		if !s.solve() {
			fmt.Printf("puzzle %d: no solution\n\n", puzzle)
			continue
		}
		fmt.Printf("puzzle %d: solved with %d guesses\n%s\n", puzzle, s.guesses, s.b.String())
	}
	if len(cells) > 0 {
		fmt.Fprintf(os.Stderr, "sudoku: %d cells left over at end of input\n", len(cells))
		os.Exit(1)
	}
}
