// Amazes sample bot (Go): a right-hand wall follower.
// Each turn it reads the four corridor lines (ahead, right, behind, left) and the
// squared distance, then takes the first open direction of right, ahead, left,
// behind (one turn in eight, chosen by a fixed-seed generator, it picks a random
// open side or ahead instead, so it cannot circle an island forever). While the
// step lands in a corridor it has just seen, it keeps following the right-hand
// rule along that corridor, so one line may hold several steps (never more than
// 25). It exits on "Quit", at end of input, and after its 150th turn.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

var rngState uint64 = 20100101

// nextRandom is a small fixed-seed linear congruential generator: a number in 0..n-1.
func nextRandom(n int) int {
	rngState = (rngState*1103515245 + 12345) & 0x7FFFFFFF
	return int((rngState >> 16) % uint64(n))
}

var in = bufio.NewReader(os.Stdin)

// readLine returns one line without the trailing "\r" and surrounding spaces; false at end of file.
func readLine() (string, bool) {
	s, err := in.ReadString('\n')
	if err != nil && s == "" {
		return "", false
	}
	return strings.Trim(s, " \t\r\n"), true
}

func main() {
	out := bufio.NewWriter(os.Stdout)
	moveChar := []byte{'F', 'R', 'T', 'L'} // ahead, right, behind, left
	for turn := 1; turn <= 150; turn++ {
		line, ok := readLine()
		if !ok || line == "Quit" {
			return
		}
		if line == "Start" {
			if line, ok = readLine(); !ok || line == "Quit" {
				return
			}
		}
		var corridor [4]string
		corridor[0] = line
		for d := 1; d < 4; d++ {
			if corridor[d], ok = readLine(); !ok {
				return
			}
		}
		if _, ok = readLine(); !ok { // squared distance: not used
			return
		}
		var open [4]bool
		for d := 0; d < 4; d++ {
			if !strings.HasSuffix(corridor[d], "W") {
				corridor[d] += "W"
			}
			open[d] = corridor[d][0] != 'W'
		}

		// First step: right-hand rule (right, ahead, left, behind), sometimes random.
		order := []int{1, 0, 3, 2}
		dir := -1
		for k := 0; k < 4 && dir < 0; k++ {
			if open[order[k]] {
				dir = order[k]
			}
		}
		if nextRandom(8) == 0 {
			var choices []int
			for k := 0; k < 3; k++ {
				if open[order[k]] {
					choices = append(choices, order[k])
				}
			}
			if len(choices) > 0 {
				dir = choices[nextRandom(len(choices))]
			}
		}
		var answer []byte
		if dir < 0 {
			answer = []byte{'T'} // no open side seen at all: just turn around
		} else {
			answer = append(answer, moveChar[dir])
			// Follow the corridor just entered while the next step is known.
			c := corridor[dir]
			i := 0
			for len(answer) < 25 {
				here := c[i]
				right := here == 'R' || here == 'B'
				left := here == 'L' || here == 'B'
				ahead := i+1 < len(c) && c[i+1] != 'W'
				if right {
					answer = append(answer, 'R')
					break
				}
				if ahead {
					answer = append(answer, 'F')
					i++
					continue
				}
				if left {
					answer = append(answer, 'L')
				}
				break // a turn leaves the known corridor, or a dead end
			}
		}
		// A dot on its start square (drawn by the viewer: docs/viewer.md, Drawing on the board).
		fmt.Fprintln(os.Stderr, "@judge dot 0 0 layer=sample")
		out.Write(answer)
		out.WriteByte('\n')
		out.Flush()
	}
}
