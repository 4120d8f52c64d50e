// Drop the Block sample bot (Go). Prints READY, then answers every turn's input
// (id, T, 6 block rows, 4 player lines "R C D S", EOD) with one action:
//   - fallen, or waiting after an attack (S > 0): N;
//   - standing on a block that is about to fall: the quickest step off it onto a
//     standing block;
//   - an enemy on a standing block in line within 3 blocks: A when facing it,
//     otherwise a move toward it (which turns it; it steps only onto a standing block);
//   - otherwise a step toward the centre onto a standing block (never onto a
//     falling or fallen one), or N.
//
// Deterministic. Exits at end of input.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

const (
	size    = 18
	side    = 3
	blocks  = 6
	players = 4
	letters = "URDL"
)

var (
	dr = [4]int{-1, 0, 1, 0}
	dc = [4]int{0, 1, 0, -1}

	blk            [blocks][blocks]int
	pr, pc, pd, ps [players]int
	id, turn       int
)

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func blockAt(r, c int) int { return blk[r/side][c/side] }

// legal: the move would step (on the board, not onto a fallen block, more than 3 from everyone).
func legal(d int) bool {
	r, c := pr[id]+dr[d], pc[id]+dc[d]
	if r < 0 || r >= size || c < 0 || c >= size || blockAt(r, c) < 0 {
		return false
	}
	for j := 0; j < players; j++ {
		if j != id && pr[j] >= 0 && abs(r-pr[j])+abs(c-pc[j]) <= 3 {
			return false
		}
	}
	return true
}

func safe(d int) bool { return legal(d) && blockAt(pr[id]+dr[d], pc[id]+dc[d]) == 0 }

func decide() byte {
	r, c := pr[id], pc[id]
	if r < 0 || ps[id] > 0 {
		return 'N'
	}
	br, bc := r/side, c/side
	if blk[br][bc] > 0 { // get off a falling block
		best, bestSteps := -1, 0
		for d := 0; d < 4; d++ {
			nr, nc := br+dr[d], bc+dc[d]
			if !legal(d) || nr < 0 || nr >= blocks || nc < 0 || nc >= blocks || blk[nr][nc] != 0 {
				continue
			}
			steps := [4]int{r%side + 1, side - c%side, side - r%side, c%side + 1}
			if best < 0 || steps[d] < bestSteps {
				best, bestSteps = d, steps[d]
			}
		}
		if best >= 0 {
			return letters[best]
		}
	}
	for k := 0; k < 4; k++ { // an enemy in line: attack, or turn to it
		d := (pd[id] + k) % 4
		for j := 0; j < players; j++ {
			if j == id || pr[j] < 0 {
				continue
			}
			qr, qc := pr[j]/side, pc[j]/side
			if blk[qr][qc] != 0 {
				continue
			}
			n := (qr-br)*dr[d] + (qc-bc)*dc[d]
			inLine := (dr[d] != 0 && qc == bc) || (dc[d] != 0 && qr == br)
			if !inLine || n < 1 || n > 3 {
				continue
			}
			if k == 0 {
				return 'A'
			}
			if safe(d) || !legal(d) {
				return letters[d]
			}
		}
	}
	var want []int // toward the centre
	if r < size/2-1 {
		want = append(want, 2)
	} else if r > size/2 {
		want = append(want, 0)
	}
	if c < size/2-1 {
		want = append(want, 1)
	} else if c > size/2 {
		want = append(want, 3)
	}
	for k := range want {
		d := want[(k+turn/players)%len(want)]
		if safe(d) {
			return letters[d]
		}
	}
	return 'N'
}

func atoi(s string) int {
	v, _ := strconv.Atoi(strings.TrimSpace(s))
	return v
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(out, "READY")
	out.Flush()
	next := func() (string, bool) {
		if !in.Scan() {
			return "", false
		}
		return strings.TrimSpace(in.Text()), true
	}
	for {
		line, ok := next()
		if !ok {
			return
		}
		id = atoi(line)
		if line, ok = next(); !ok {
			return
		}
		turn = atoi(line)
		for r := 0; r < blocks; r++ {
			if line, ok = next(); !ok {
				return
			}
			for c, f := range strings.Fields(line) {
				if c < blocks {
					blk[r][c] = atoi(f)
				}
			}
		}
		for p := 0; p < players; p++ {
			if line, ok = next(); !ok {
				return
			}
			f := strings.Fields(line)
			pr[p], pc[p], pd[p], ps[p] = -1, -1, 0, 0
			if len(f) == 4 {
				pr[p], pc[p], ps[p] = atoi(f[0]), atoi(f[1]), atoi(f[3])
				pd[p] = max(strings.Index(letters, f[2]), 0)
			}
		}
		if _, ok = next(); !ok { // EOD
			return
		}
		if id < 0 || id >= players {
			id = 0
		}
		// A dot on its square, a note once fallen (drawn by the viewer: docs/viewer.md, Drawing on the board).
		if pr[id] >= 0 {
			fmt.Fprintln(os.Stderr, "@judge dot", pc[id], pr[id], "layer=sample")
		} else {
			fmt.Fprintln(os.Stderr, "@judge note layer=sample fallen")
		}
		fmt.Fprintf(out, "%c\n", decide())
		out.Flush()
	}
}
