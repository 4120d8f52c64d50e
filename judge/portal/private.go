package portal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/botjudge/judge/judge/result"
)

// What of a match a contestant may see: everything but other players' stderr and compile
// logs (house bots' included). An organiser sees all.

// privateResult is res with the stderr and compile logs of the seats keep refuses removed.
func privateResult(res result.Result, keep func(i int) bool) result.Result {
	players := make([]result.Player, len(res.Players))
	for i, p := range res.Players {
		if !keep(i) {
			p.Stderr = ""
			p.Build.Log = ""
		}
		players[i] = p
	}
	res.Players = players
	return res
}

// privateReplay copies a replay (JSON lines) from r to w without the stderr lines of the
// players keep refuses, and with the result line's stderr and compile logs of those players
// removed. Other lines pass unchanged.
func privateReplay(w io.Writer, r io.Reader, keep func(i int) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		line, _, err := privateLine(sc.Bytes(), keep)
		if err != nil {
			return err
		}
		if line == nil {
			continue
		}
		// Not append(line, '\n'): line may be the scanner's buffer, and the next line may follow it there.
		if _, err := w.Write(line); err != nil {
			return err
		}
		if _, err := w.Write([]byte{'\n'}); err != nil {
			return err
		}
	}
	return sc.Err()
}

// privateLine is one replay line as privateReplay passes it (nil for a line left out), and
// the line's type.
func privateLine(line []byte, keep func(i int) bool) ([]byte, string, error) {
	var peek struct {
		Type   string `json:"type"`
		Player int    `json:"player"`
	}
	if err := json.Unmarshal(line, &peek); err != nil {
		return nil, "", err
	}
	switch peek.Type {
	case "stderr":
		if !keep(peek.Player) {
			return nil, peek.Type, nil
		}
	case "result":
		var f struct {
			Type   string        `json:"type"`
			Result result.Result `json:"result"`
		}
		if err := json.Unmarshal(line, &f); err != nil {
			return nil, "", err
		}
		f.Result = privateResult(f.Result, keep)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(f); err != nil {
			return nil, "", err
		}
		line = bytes.TrimRight(buf.Bytes(), "\n")
	}
	return line, peek.Type, nil
}
