// On The Run sample bot (Go). Reads the map from connect.txt, then plays the
// role named on its first input line.
// Fugitive: starts on the city farthest (fewest connections of any type) from
// the nearest detective; each turn takes the connection whose city is farthest
// from the detectives, never a detective's city unless every move is one.
// Detectives: start on the four cities with the most connections; they keep
// the set of cities where the fugitive can be (its announced city, widened
// each turn along connections of the type it used) and each detective steps to
// the neighbour nearest to that set, the four new cities made distinct by a
// small backtracking search. Exits on "Quit", at end of input, and after its
// 50th move. Deterministic.
package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
)

type link struct {
	typ byte
	to  int
}

var (
	n   int
	adj [][]link // adj[c]: connections of city c (1..n)
	in  = bufio.NewReader(os.Stdin)
	out = bufio.NewWriter(os.Stdout)
)

// readLineOrExit returns one trimmed line; exits (code 0) at end of file or on "Quit".
func readLineOrExit() string {
	s, err := in.ReadString('\n')
	if err != nil && s == "" {
		os.Exit(0)
	}
	s = strings.TrimSpace(s)
	if s == "Quit" {
		os.Exit(0)
	}
	return s
}

// markCity writes a dot on city c, one an answer (drawn by the viewer: docs/viewer.md, Drawing on the board).
func markCity(c int) { fmt.Fprintln(os.Stderr, "@judge dot", c, "0 layer=sample") }

// numbers returns the integers of s in order (any non-digit separates them).
func numbers(s string) []int {
	var v []int
	for i := 0; i < len(s); {
		if s[i] >= '0' && s[i] <= '9' {
			x := 0
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				x = x*10 + int(s[i]-'0')
				i++
			}
			v = append(v, x)
		} else {
			i++
		}
	}
	return v
}

func readMap() {
	data, _ := os.ReadFile("connect.txt")
	lines := strings.Split(string(data), "\n")
	k := 0
	for ; k < len(lines) && n == 0; k++ {
		if v := numbers(lines[k]); len(v) > 0 {
			n = v[0]
		}
	}
	adj = make([][]link, n+1)
	for ; k < len(lines); k++ {
		line := strings.TrimSpace(lines[k])
		if line == "END" {
			break
		}
		v := numbers(line)
		if line == "" || len(v) < 2 {
			continue
		}
		a, b := v[0], v[1]
		if a < 1 || a > n || b < 1 || b > n || a == b {
			continue
		}
		adj[a] = append(adj[a], link{line[0], b})
		adj[b] = append(adj[b], link{line[0], a})
	}
}

// distances returns breadth-first distances (connections of any type) from the cities marked in src.
func distances(src []bool) []int {
	dist := make([]int, n+1)
	var queue []int
	for c := 1; c <= n; c++ {
		dist[c] = 1 << 20
		if src[c] {
			dist[c] = 0
			queue = append(queue, c)
		}
	}
	for q := 0; q < len(queue); q++ {
		for _, l := range adj[queue[q]] {
			if dist[l.to] > dist[queue[q]]+1 {
				dist[l.to] = dist[queue[q]] + 1
				queue = append(queue, l.to)
			}
		}
	}
	return dist
}

func readFour() []int {
	det := make([]int, 4)
	for i := range det {
		if v := numbers(readLineOrExit()); len(v) > 0 {
			det[i] = v[0]
		}
	}
	return det
}

func detectiveMap(det []int) []bool {
	m := make([]bool, n+1)
	for _, d := range det {
		if d >= 1 && d <= n {
			m[d] = true
		}
	}
	return m
}

func playFugitive() {
	det := readFour()
	isDet := detectiveMap(det)
	dist := distances(isDet)
	cur := 0
	for c := 1; c <= n; c++ {
		if !isDet[c] && (cur == 0 || dist[c] > dist[cur]) {
			cur = c
		}
	}
	markCity(cur)
	fmt.Fprintf(out, "%d\n", cur)
	out.Flush()

	for turn := 1; turn <= 50; turn++ {
		isDet = detectiveMap(det)
		dist = distances(isDet)
		best := -1
		for k, l := range adj[cur] {
			if isDet[l.to] {
				continue
			}
			if best < 0 || dist[l.to] > dist[adj[cur][best].to] {
				best = k
			}
		}
		if best < 0 {
			best = 0 // every move ends on a detective: caught anyway
		}
		move := adj[cur][best]
		cur = move.to
		markCity(cur)
		fmt.Fprintf(out, "%c %d\n", move.typ, cur)
		out.Flush()
		if turn == 50 {
			break
		}
		det = readFour()
	}
}

// assign gives detective i (and the following ones) a new city, trying the
// neighbours in the order of choices[i]; false when no distinct assignment exists.
func assign(i int, choices [][]int, target []int, used []bool) bool {
	if i == 4 {
		return true
	}
	for _, c := range choices[i] {
		if used[c] {
			continue
		}
		used[c] = true
		target[i] = c
		if assign(i+1, choices, target, used) {
			return true
		}
		used[c] = false
	}
	return false
}

func playDetectives() {
	// Start on the four cities with the most connections (lowest number on ties).
	det := make([]int, 4)
	taken := make([]bool, n+1)
	for i := 0; i < 4; i++ {
		best := 0
		for c := 1; c <= n; c++ {
			if !taken[c] && (best == 0 || len(adj[c]) > len(adj[best])) {
				best = c
			}
		}
		taken[best] = true
		det[i] = best
		fmt.Fprintf(out, "%d\n", best)
	}
	markCity(det[0])
	out.Flush()

	cand := make([]bool, n+1) // where the fugitive may be
	if v := numbers(readLineOrExit()); len(v) > 0 && v[0] >= 1 && v[0] <= n {
		cand[v[0]] = true
	}

	for turn := 1; turn <= 50; turn++ {
		line := readLineOrExit()
		typ := byte('C')
		if line != "" {
			typ = line[0]
		}
		v := numbers(line)
		isDet := detectiveMap(det)
		next := make([]bool, n+1)
		any := false
		if len(v) > 0 && v[0] >= 1 && v[0] <= n { // announcement turn
			next[v[0]] = true
			any = true
		} else {
			for c := 1; c <= n; c++ {
				if !cand[c] {
					continue
				}
				for _, l := range adj[c] {
					if l.typ == typ && !isDet[l.to] {
						next[l.to] = true
						any = true
					}
				}
			}
		}
		if !any { // lost track: the fugitive may be anywhere
			for c := 1; c <= n; c++ {
				next[c] = !isDet[c]
			}
		}
		cand = next

		// Each detective prefers the neighbours nearest to the possible cities.
		dist := distances(cand)
		choices := make([][]int, 4)
		for i := 0; i < 4; i++ {
			for _, l := range adj[det[i]] {
				choices[i] = append(choices[i], l.to)
			}
			ch := choices[i]
			sort.SliceStable(ch, func(a, b int) bool { return dist[ch[a]] < dist[ch[b]] })
		}
		target := make([]int, 4)
		if !assign(0, choices, target, make([]bool, n+1)) {
			for i := 0; i < 4; i++ {
				target[i] = det[i]
				if len(adj[det[i]]) > 0 {
					target[i] = adj[det[i]][0].to
				}
			}
		}
		for i := 0; i < 4; i++ {
			det[i] = target[i]
			cand[det[i]] = false
			fmt.Fprintf(out, "%d\n", det[i])
		}
		markCity(det[0])
		out.Flush()
	}
}

func main() {
	readMap()
	if readLineOrExit() == "Fugitive" {
		playFugitive()
	} else {
		playDetectives()
	}
}
