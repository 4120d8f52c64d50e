package snakecore

import (
	"bufio"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games/snakecore/lib/go/snake"
)

// The in-process bots read the requests with the Go helper library, as a real Go bot does.

// parse reads a getAction request's text.
func parse(t testing.TB, send string) *snake.AreaInfo {
	t.Helper()
	r := bufio.NewReader(strings.NewReader(send))
	kind, a, err := snake.ReadRequest(r)
	if err != nil || kind != "getAction" {
		t.Fatalf("request %q: %s, %v", clip(send), kind, err)
	}
	if rest, _ := r.ReadString(0); rest != "" {
		t.Fatalf("request has %q after the pythons", clip(rest))
	}
	return a
}

// greedy bites what it can, delivers a body of 6, protects a body of 4 when it carries an
// energy block, and otherwise walks toward the nearest free block (or a reactor).
func greedy(a *snake.AreaInfo) byte {
	me := a.Me()
	h := me.Head()
	body := me.Len() - 1
	for _, d := range snake.Moves {
		t := h.Step(d)
		if o, i := a.Owner(t.X, t.Y), a.PartIndex(t.X, t.Y); o > 0 && i > 0 && i < a.Pythons[o].Len()-1 && a.Pythons[o].Protection == 0 {
			return d
		}
	}
	if body >= 6 {
		for _, d := range snake.Moves {
			if a.At(h.Step(d)) == snake.Reactor {
				return d
			}
		}
	}
	if body >= 4 && me.Protection == 0 {
		for _, p := range me.Body() {
			if a.At(p) == snake.Energy {
				return snake.Protect
			}
		}
	}
	goal := func(p snake.Point) bool { return a.IsFreeBlock(p.X, p.Y) }
	if body >= 6 {
		goal = func(p snake.Point) bool {
			for _, d := range snake.Moves {
				if a.At(p.Step(d)) == snake.Reactor {
					return true
				}
			}
			return false
		}
	}
	pass := func(p snake.Point) bool {
		return a.IsEmpty(p.X, p.Y) || a.IsFreeBlock(p.X, p.Y) || me.Len() > 1 && p == me.Tail()
	}
	first := make([]byte, a.Size*a.Size)
	var queue []snake.Point
	for _, d := range snake.Moves {
		if t := h.Step(d); pass(t) {
			if goal(t) {
				return d
			}
			first[t.Y*a.Size+t.X] = d
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, d := range snake.Moves {
			t := c.Step(d)
			if !pass(t) || first[t.Y*a.Size+t.X] != 0 || t == h {
				continue
			}
			if goal(t) {
				return first[c.Y*a.Size+c.X]
			}
			first[t.Y*a.Size+t.X] = first[c.Y*a.Size+c.X]
			queue = append(queue, t)
		}
	}
	for _, d := range snake.Moves {
		if pass(h.Step(d)) {
			return d
		}
	}
	return snake.None
}

// answerAll answers every request like a well-behaved bot running greedy.
func answerAll(t testing.TB) func(game.Request) game.Reply {
	return func(req game.Request) game.Reply {
		if req.Send == reqName {
			return game.Reply{Lines: []string{"greedy"}, CPU: time.Millisecond}
		}
		return game.Reply{Lines: []string{string(greedy(parse(t, req.Send)))}, CPU: time.Millisecond}
	}
}
