package referee

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"time"

	"github.com/botjudge/judge/judge/game"
)

// Serve is g's rules as a referee program: it reads the judge's lines from in and writes its
// answers to out until the match ends or in does. A referee written in Go can be this and
// nothing more; the judge's tests use it to play every built-in game through the protocol.
func Serve(g game.Game, in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	var m game.Match
	for {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) && len(line) == 0 {
			return nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		var head struct{ Type string }
		if err := json.Unmarshal(line, &head); err != nil {
			return fmt.Errorf("referee: a line that is not JSON: %w", err)
		}
		var a answer
		switch head.Type {
		case typeStart:
			var s start
			if err := json.Unmarshal(line, &s); err != nil {
				return err
			}
			m, err = game.Start(g, game.Config{Seed: s.Seed, Players: s.Players, Options: s.Options})
			var oe *game.OptionError
			switch {
			case errors.As(err, &oe):
				a = answer{Type: typeError, Problems: oe.Problems}
			case err != nil:
				a = answer{Type: typeError, Problems: []string{err.Error()}}
			default:
				a = setupOf(m)
				a.View = viewOf(m)
				next(m, &a)
			}
		case typeReply:
			if m == nil {
				return errors.New("referee: a reply before the start")
			}
			var rp reply
			if err := json.Unmarshal(line, &rp); err != nil {
				return err
			}
			v := m.Reply(game.Reply{Lines: rp.Lines, Fault: rp.Fault, CPU: time.Duration(rp.CPUus) * time.Microsecond})
			a = answer{Type: typeJudged, View: viewOf(m)}
			if v != nil {
				a.Fault = &verdict{Kind: v.Kind, Detail: v.Detail}
			}
			next(m, &a)
		default:
			return fmt.Errorf("referee: a line of type %q", head.Type)
		}
		b, err := json.Marshal(a)
		if err != nil {
			return err
		}
		w.Write(append(b, '\n'))
		if err := w.Flush(); err != nil {
			return err
		}
	}
}

func setupOf(m game.Match) answer {
	s := m.Setup()
	a := answer{Type: typeSetup, Options: maps.Clone(s.Options), Memory: s.Memory}
	if s.Files != nil {
		a.Files = make([]map[string]string, len(s.Files))
		for i, fs := range s.Files {
			a.Files[i] = map[string]string{}
			for name, b := range fs {
				a.Files[i][name] = string(b)
			}
		}
	}
	if s.World != nil {
		a.World, _ = json.Marshal(s.World)
	}
	return a
}

func viewOf(m game.Match) *view {
	v, ok := m.(game.Viewer)
	if !ok {
		return nil
	}
	pic := v.View()
	state, _ := json.Marshal(pic.State)
	return &view{Scores: pic.Scores, State: state}
}

// next fills a's next requests: the notices Next gives, each with the picture once it is
// delivered, up to a request that waits for an answer, or the end.
func next(m game.Match, a *answer) {
	a.Next = []request{}
	for {
		req, over := m.Next()
		if over {
			res := m.Result()
			a.Done = &done{Scores: res.Scores, Ranks: res.Ranks}
			return
		}
		r := request{Player: req.Player, Turn: req.Turn, Send: req.Send, Expect: req.Expect, Ready: req.Ready,
			LimitUS: req.Limit.Microseconds(), Intro: req.Intro}
		if !waits(r) {
			r.View = viewOf(m)
			a.Next = append(a.Next, r)
			continue
		}
		a.Next = append(a.Next, r)
		return
	}
}
