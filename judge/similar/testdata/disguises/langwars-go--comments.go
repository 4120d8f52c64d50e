/*
Language propagation bot.

Protocol summary: after READY we get the game parameters, then one block
of numbers per turn; we answer with the indices of the languages we push.
*/
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// shared word scanner over stdin
var in = bufio.NewScanner(os.Stdin)

// next raw word from the input
func token() (string, bool) {
	if !in.Scan() {
		return "", false
	}
	return in.Text(), true
}

// next word parsed as an int
func number() (int, bool) {
	s, ok := token()
	if !ok {
		return 0, false
	}
	v, err := strconv.Atoi(s)
	return v, err == nil
}

func main() {
	in.Split(bufio.ScanWords) // split on any whitespace
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(out, "READY") // handshake
	out.Flush()
	// header: number of turns, players and languages
	turns, ok1 := number()
	players, ok2 := number()
	langs, ok3 := number()
	if !ok1 || !ok2 || !ok3 || players < 2 || langs < 1 {
		return
	}
	attention := make([]float64, langs) // value of each language
	holidayTotal := make([]int, langs)  // running sum of holiday pushes, everyone included
	for l := range attention {
		a, ok := number()
		if !ok {
			return
		}
		attention[l] = float64(a)
	}
	// one iteration per game turn
	for t := 1; t <= turns; t++ {
		if _, ok := number(); !ok {
			return
		}
		day, ok := token() // "W" workday, otherwise holiday
		if !ok {
			return
		}
		revealed := make([][]int, langs) // publicly visible believers, player 0 is us
		for l := range revealed {
			revealed[l] = make([]int, players)
			for j := range revealed[l] {
				if revealed[l][j], ok = number(); !ok {
					return
				}
			}
		}
		real := make([]int, langs) // what we really have
		for l := range real {
			if real[l], ok = number(); !ok {
				return
			}
		}
		workday := day == "W"
		// holiday statistics arrive on the first workday after it
		if workday {
			for l := range holidayTotal {
				p, ok := number()
				if !ok {
					return
				}
				holidayTotal[l] += p
			}
		}
		// estimate the strongest rival per language
		mine := make([]float64, langs)
		best := make([]float64, langs)
		for l := range mine {
			// the part of the holiday pushes made by someone else
			hidden := float64(holidayTotal[l] - (real[l] - revealed[l][0]))
			if hidden < 0 { // clamp
				hidden = 0
			}
			mine[l] = float64(real[l])
			for j := 1; j < players; j++ {
				if other := float64(revealed[l][j]) + hidden/float64(players-1); other > best[l] {
					best[l] = other
				}
			}
		}
		// pushes per turn depend on the kind of day
		picks := 2
		if workday {
			picks = 5
		}
		// greedy choice, re-evaluated after each pick
		chosen := make([]string, 0, picks)
		for k := 0; k < picks; k++ {
			choice, top := 0, -1.0
			for l := range attention {
				if v := attention[l] / (1 + math.Abs(best[l]-mine[l])); v > top {
					top, choice = v, l
				}
			}
			mine[choice]++ // count our own push
			chosen = append(chosen, strconv.Itoa(choice))
		}
		// debug line for the viewer, then the real answer
		fmt.Fprintln(os.Stderr, "@judge note layer=sample picked", strings.Join(chosen, " "))
		fmt.Fprintln(out, strings.Join(chosen, " "))
		out.Flush()
	}
}
