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

var in = bufio.NewScanner(os.Stdin)

// token returns the next whitespace-separated word; false at end of input.
func token() (string, bool) {
	if !in.Scan() {
		return "", false
	}
	return in.Text(), true
}

// number returns the next word as an integer; false at end of input or on a non-number.
func number() (int, bool) {
	s, ok := token()
	if !ok {
		return 0, false
	}
	v, err := strconv.Atoi(s)
	return v, err == nil
}

func main() {
	out := bufio.NewWriter(os.Stdout)
	in.Split(bufio.ScanWords)
	fmt.Fprintln(out, "READY")
	out.Flush()
	turns, ok1 := number()
	players, ok2 := number()
	langs, ok3 := number()
	if !ok1 || !ok2 || !ok3 || players < 2 || langs < 1 {
		return
	}
	holidayTotal := make([]int, langs) // all players' holiday propagations so far
	attention := make([]float64, langs)
	for l := range attention {
		a, ok := number()
		if !ok {
			return
		}
		attention[l] = float64(a)
	}
	for t := 1; t <= turns; t++ {
		if _, ok := number(); !ok {
			return
		}
		day, ok := token()
		if !ok {
			return
		}
		revealed := make([][]int, langs)
		for l := range revealed {
			revealed[l] = make([]int, players)
			for j := range revealed[l] {
				if revealed[l][j], ok = number(); !ok {
					return
				}
			}
		}
		real := make([]int, langs)
		workday := day == "W"
		for l := range real {
			if real[l], ok = number(); !ok {
				return
			}
		}
		if workday {
			for l := range holidayTotal {
				p, ok := number()
				if !ok {
					return
				}
				holidayTotal[l] += p
			}
		}
		best := make([]float64, langs)
		mine := make([]float64, langs)
		for l := range mine {
			// Holiday believers of the others: all holiday picks minus its own.
			hidden := float64(holidayTotal[l] - (real[l] - revealed[l][0]))
			mine[l] = float64(real[l])
			if hidden < 0 {
				hidden = 0
			}
			for j := 1; j < players; j++ {
				if other := float64(revealed[l][j]) + hidden/float64(players-1); other > best[l] {
					best[l] = other
				}
			}
		}
		picks := 2
		if workday {
			picks = 5
		}
		chosen := make([]string, 0, picks)
		for k := 0; k < picks; k++ {
			choice, top := 0, -1.0
			for l := range attention {
				if v := attention[l] / (1 + math.Abs(best[l]-mine[l])); v > top {
					top, choice = v, l
				}
			}
			chosen = append(chosen, strconv.Itoa(choice))
			mine[choice]++
		}
		// A note of its picks (listed by the viewer: docs/viewer.md, Drawing on the board).
		fmt.Fprintln(out, strings.Join(chosen, " "))
		fmt.Fprintln(os.Stderr, "@judge note layer=sample picked", strings.Join(chosen, " "))
		out.Flush()
	}
}
