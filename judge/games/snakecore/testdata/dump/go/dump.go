// Prints what package snake reads from each request, in the layout of the library tests.
package main

import (
	"bufio"
	"fmt"
	"os"

	"bot/snake"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	turn := 0
	for {
		kind, a, err := snake.ReadRequest(r)
		if err != nil {
			return
		}
		if kind == "getName" {
			fmt.Fprintf(w, "name %s\n", snake.CleanName("a name that is much longer than thirty-two bytes\t"))
			continue
		}
		turn++
		a.Turn = turn
		fmt.Fprintf(w, "turn %d size %d pythons %d\n", a.Turn, a.Size, len(a.Pythons))
		for _, row := range a.Rows {
			fmt.Fprintln(w, row)
		}
		for k := range a.Pythons {
			p := &a.Pythons[k]
			fmt.Fprintf(w, "py %d %d %d", k, p.Protection, p.Len())
			for _, q := range p.Parts {
				fmt.Fprintf(w, " %d,%d", q.X, q.Y)
			}
			fmt.Fprint(w, " |")
			for _, q := range p.Parts {
				fmt.Fprintf(w, " %d:%d", a.Owner(q.X, q.Y), a.PartIndex(q.X, q.Y))
			}
			fmt.Fprintf(w, " head %d,%d tail %d,%d\n", p.Head().X, p.Head().Y, p.Tail().X, p.Tail().Y)
		}
		free, empty := 0, 0
		for y := 0; y < a.Size; y++ {
			for x := 0; x < a.Size; x++ {
				if a.IsFreeBlock(x, y) {
					free++
				}
				if a.IsEmpty(x, y) {
					empty++
				}
			}
		}
		fmt.Fprintf(w, "free %d empty %d edge %c%c%c\n", free, empty, a.Cell(-1, 0), a.Cell(0, a.Size), a.At(a.Me().Head()))
	}
}
