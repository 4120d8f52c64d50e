// SnakeCore sample bot (Go), written with the judge's helper library (package "bot/snake",
// which the judge adds to the submission).
// Each move: bite an adjacent unprotected body block of another python when that cuts off
// at least 2 blocks; deliver to an adjacent reactor once the body has 7 blocks; otherwise
// walk (breadth-first search over empty cells, free blocks and the own tail) toward the
// nearest free block, or toward a cell next to a reactor when the body is long enough or no
// free block is reachable. Deterministic; exits at the end of the input (snake.Run).
package main

import (
	"fmt"
	"os"

	"bot/snake"
)

const deliverAt = 7

func main() {
	if err := snake.Run("sample-go", action); err != nil {
		os.Exit(1)
	}
}

func action(a *snake.AreaInfo) byte {
	me := a.Me()
	body := me.Len() - 1
	h := me.Head()
	// A dot on its head (drawn by the viewer: docs/viewer.md, Drawing on the board).
	fmt.Fprintln(os.Stderr, "@judge dot", h.X, h.Y, "layer=sample")
	for _, d := range snake.Moves {
		t := h.Step(d)
		o, i := a.Owner(t.X, t.Y), a.PartIndex(t.X, t.Y)
		if o > 0 && i > 0 && a.Pythons[o].Protection == 0 && i < a.Pythons[o].Len()-1 && a.Pythons[o].Len()-i >= 2 {
			return d
		}
	}
	if body >= deliverAt {
		for _, d := range snake.Moves {
			if a.At(h.Step(d)) == snake.Reactor {
				return d
			}
		}
	}
	goal := freeBlock
	if body >= deliverAt {
		goal = nextToReactor
	}
	if d, ok := toward(a, goal); ok {
		return d
	}
	if body > 0 {
		for _, d := range snake.Moves {
			if a.At(h.Step(d)) == snake.Reactor {
				return d
			}
		}
		if d, ok := toward(a, nextToReactor); ok {
			return d
		}
	}
	for _, d := range snake.Moves {
		if passable(a, h.Step(d)) {
			return d
		}
	}
	return snake.None
}

// passable is a cell the head may step on without a fight: empty, a free block, the own tail.
func passable(a *snake.AreaInfo, p snake.Point) bool {
	if a.IsEmpty(p.X, p.Y) || a.IsFreeBlock(p.X, p.Y) {
		return true
	}
	me := a.Me()
	return me.Len() > 1 && p == me.Tail()
}

func freeBlock(a *snake.AreaInfo, p snake.Point) bool { return a.IsFreeBlock(p.X, p.Y) }

func nextToReactor(a *snake.AreaInfo, p snake.Point) bool {
	for _, d := range snake.Moves {
		if a.At(p.Step(d)) == snake.Reactor {
			return true
		}
	}
	return false
}

// toward is the first move of a shortest path to a goal cell.
func toward(a *snake.AreaInfo, goal func(*snake.AreaInfo, snake.Point) bool) (byte, bool) {
	first := map[snake.Point]byte{}
	var queue []snake.Point
	h := a.Me().Head()
	for _, d := range snake.Moves {
		t := h.Step(d)
		if !passable(a, t) {
			continue
		}
		if goal(a, t) {
			return d, true
		}
		if _, seen := first[t]; !seen {
			first[t] = d
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, d := range snake.Moves {
			t := c.Step(d)
			if _, seen := first[t]; seen || t == h || !passable(a, t) {
				continue
			}
			if goal(a, t) {
				return first[c], true
			}
			first[t] = first[c]
			queue = append(queue, t)
		}
	}
	return 0, false
}
