// Lang Wars sample bot (Go): propagates the languages with the best attention
// to competition ratio.
// It prints READY, reads the settings (turns, players, languages, attention
// degrees), then each turn reads the revealed believers, its own real
// believers and (on workdays) how often each language was propagated in the
// last holiday. It estimates every opponent's believers as the revealed ones
// plus an equal share of the holiday propagations that were not its own. Then,
// pick by pick (5 on a workday, 2 on a holiday), it takes the language with the
// highest attention / (1 + |best opponent's believers - its own|): languages
// it can just win or just keep, weighted by what they are worth (ties: the
// lowest language). It prints the picks on one line, and exits at end of input
// or after the last turn. Deterministic.
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

var scanner = bufio.NewScanner(os.Stdin)

// token returns the next whitespace-separated word; false at end of input.
func word() (string, bool) {
	if !scanner.Scan() {
		return "", false
	}
	return scanner.Text(), true
}

// number returns the next word as an integer; false at end of input or on a non-number.
func integer() (int, bool) {
	w, good := word()
	if !good {
		return 0, false
	}
	val, e := strconv.Atoi(w)
	return val, e == nil
}

func main() {
	scanner.Split(bufio.ScanWords)
	writer := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(writer, "READY")
	writer.Flush()
	rounds, g1 := integer()
	people, g2 := integer()
	count, g3 := integer()
	if !g1 || !g2 || !g3 || people < 2 || count < 1 {
		return
	}
	weight := make([]float64, count)
	festTotals := make([]int, count) // all players' holiday propagations so far
	for i := range weight {
		x, good := integer()
		if !good {
			return
		}
		weight[i] = float64(x)
	}
	for r := 1; r <= rounds; r++ {
		if _, good := integer(); !good {
			return
		}
		kind, good := word()
		if !good {
			return
		}
		shown := make([][]int, count)
		for i := range shown {
			shown[i] = make([]int, people)
			for q := range shown[i] {
				if shown[i][q], good = integer(); !good {
					return
				}
			}
		}
		actual := make([]int, count)
		for i := range actual {
			if actual[i], good = integer(); !good {
				return
			}
		}
		weekday := kind == "W"
		if weekday {
			for i := range festTotals {
				n, good := integer()
				if !good {
					return
				}
				festTotals[i] += n
			}
		}
		own := make([]float64, count)
		rival := make([]float64, count)
		for i := range own {
			// Holiday believers of the others: all holiday picks minus its own.
			unseen := float64(festTotals[i] - (actual[i] - shown[i][0]))
			if unseen < 0 {
				unseen = 0
			}
			own[i] = float64(actual[i])
			for q := 1; q < people; q++ {
				if guess := float64(shown[i][q]) + unseen/float64(people-1); guess > rival[i] {
					rival[i] = guess
				}
			}
		}
		quota := 2
		if weekday {
			quota = 5
		}
		selected := make([]string, 0, quota)
		for m := 0; m < quota; m++ {
			pick, peak := 0, -1.0
			for i := range weight {
				if val := weight[i] / (1 + math.Abs(rival[i]-own[i])); val > peak {
					peak, pick = val, i
				}
			}
			own[pick]++
			selected = append(selected, strconv.Itoa(pick))
		}
		// A note of its picks (listed by the viewer: docs/viewer.md, Drawing on the board).
		fmt.Fprintln(os.Stderr, "@judge note layer=sample picked", strings.Join(selected, " "))
		fmt.Fprintln(writer, strings.Join(selected, " "))
		writer.Flush()
	}
}
