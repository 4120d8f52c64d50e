// The referee of {{.Title}} (rules.md): the judge writes one line of JSON to its stdin, and it
// answers one line on its stdout, as docs/referee.md says. Its stderr is for you: the judge
// keeps the end of it when the referee fails.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// message is a line of the judge's: a start, or a reply.
type message struct {
	Type    string            `json:"type"`
	Seed    uint64            `json:"seed"`
	Players int               `json:"players"`
	Options map[string]string `json:"options"`
	Player  int               `json:"player"`
	Lines   []string          `json:"lines"`
	Fault   *json.RawMessage  `json:"fault"`
}

type request struct {
	Player  int    `json:"player"`
	Turn    int    `json:"turn"`
	Send    string `json:"send"`
	Expect  int    `json:"expect"`
	LimitUS int64  `json:"limit_us"`
}

type verdict struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
}

type view struct {
	Scores []int          `json:"scores"`
	State  map[string]int `json:"state"`
}

// answer is a line of the referee's.
type answer struct {
	Type    string            `json:"type"`
	Options map[string]string `json:"options,omitempty"`
	Memory  int64             `json:"memory,omitempty"`
	Fault   *verdict          `json:"fault"`
	View    view              `json:"view"`
	Next    []request         `json:"next"`
	Done    *struct {
		Scores []int `json:"scores"`
	} `json:"done,omitempty"`
}

type match struct {
	options     map[string]string // every option, the defaults applied, as strings
	seed        uint64
	n, turns    int
	turn, asked int // asked: the player whose answer is awaited this turn
	scores      []int
	out         []bool
	picks       map[int]int
}

// bonus: every random choice comes from the seed, so that the same seed and answers give the
// same match, which is how the judge re-judges a replay.
func (m *match) bonus() int { return int((m.seed%9+uint64(m.turn))%9) + 1 }

func (m *match) view() view {
	return view{Scores: append([]int(nil), m.scores...), State: map[string]int{"turn": m.turn}}
}

// next is what comes next: the request to the next player of the turn, or the end.
func (m *match) next(a *answer) {
	for {
		p := m.asked + 1
		for p < m.n && m.out[p] {
			p++
		}
		if p < m.n {
			m.asked = p
			a.Next = []request{{Player: p, Turn: m.turn, Send: fmt.Sprintf("TURN %d\n", m.turn), Expect: 1, LimitUS: 1000000}}
			return
		}
		best := 0
		for _, v := range m.picks {
			best = max(best, v)
		}
		for q, v := range m.picks {
			if v == best {
				m.scores[q]++
			}
			if v == m.bonus() {
				m.scores[q]++
			}
		}
		m.picks = map[int]int{}
		m.turn++
		m.asked = -1
		allOut := true
		for _, o := range m.out {
			allOut = allOut && o
		}
		if m.turn > m.turns || allOut {
			a.Next = []request{}
			a.Done = &struct {
				Scores []int `json:"scores"`
			}{m.scores}
			return
		}
	}
}

// reply is the verdict on a player's answer: nil, or the rule it broke.
func (m *match) reply(msg message) *verdict {
	p := msg.Player
	if msg.Fault != nil && string(*msg.Fault) != "null" { // a timeout or a crash the judge saw
		m.out[p] = true
		return nil
	}
	line := strings.Trim(msg.Lines[0], " \t\r")
	v, err := strconv.Atoi(line)
	if err != nil || v < 1 || v > 9 || len(line) != 1 {
		m.out[p] = true
		return &verdict{Kind: "illegal_move", Detail: "not a number from 1 to 9"}
	}
	m.picks[p] = v
	return nil
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := json.NewEncoder(os.Stdout)
	var m *match
	for in.Scan() {
		var msg message
		if err := json.Unmarshal(in.Bytes(), &msg); err != nil {
			fmt.Fprintln(os.Stderr, "a line that is not JSON:", err)
			os.Exit(1)
		}
		var a answer
		if msg.Type == "start" {
			turns, _ := strconv.Atoi(msg.Options["turns"])
			memory, _ := strconv.ParseInt(msg.Options["memory"], 10, 64)
			m = &match{options: msg.Options, seed: msg.Seed, n: msg.Players, turns: turns, turn: 1, asked: -1,
				scores: make([]int, msg.Players), out: make([]bool, msg.Players), picks: map[int]int{}}
			a = answer{Type: "setup", Options: m.options, Memory: memory << 20}
		} else {
			a = answer{Type: "judged", Fault: m.reply(msg)}
		}
		m.next(&a)
		a.View = m.view()                     // the picture once the answer is judged
		if err := out.Encode(a); err != nil { // Encode ends the line; stdout is not buffered
			os.Exit(1)
		}
	}
}
