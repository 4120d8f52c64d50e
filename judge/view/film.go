// Package view turns replays into films, what the judge's viewer (judge view, judge replay
// html) plays: the replay's exchanges with the game's picture of the match after each of
// them. The pictures come from the game's own rules (game.Viewer), re-run on the recorded
// answers as `judge replay verify` does, so a renderer only draws: no rule lives in the
// browser.
package view

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
)

// FilmVersion is the film format's version, which the web app checks.
const FilmVersion = 1

// Film is a replay made ready to watch.
type Film struct {
	Version   int               `json:"version"`
	Header    replay.Header     `json:"header"`
	Exchanges []replay.Exchange `json:"exchanges"`
	Result    result.Result     `json:"result"`
	// Frames are the distinct pictures of the match (game.View as JSON); FrameOf gives the
	// one to show at each step: step 0 is before the first exchange, step i+1 after
	// exchange i. A picture that did not change is stored once.
	Frames  []json.RawMessage `json:"frames"`
	FrameOf []int             `json:"frame_of"`
	// Renderer says the game draws its pictures with a script of its own (an added game's
	// renderer), which the page runs in a sandboxed frame (Server's frame/KEY).
	Renderer bool `json:"renderer,omitempty"`
	// Problem says why some steps have no picture (FrameOf holds -1 for them): a game
	// without pictures, or a replay that its game does not re-judge to the end.
	Problem string `json:"problem,omitempty"`
	// Mismatch lists how the replay departs from what its game makes of it: a result or a
	// move that was edited, or rules that changed since. The page shows it above everything
	// else: a replay that does not re-judge must not pass for a true one.
	Mismatch []replay.Difference `json:"mismatch,omitempty"`
}

// replay is the replay f was made of (sharing its exchanges).
func (f *Film) replay() *replay.Replay {
	return &replay.Replay{Header: f.Header, Exchanges: f.Exchanges, Result: f.Result}
}

// GameKey is what a lookup is asked for a replay's game: its name, and for an added game
// (docs/referee.md) its name and the version that judged it, "name@version", so that the
// film is drawn by that version's referee.
func GameKey(h replay.Header) string {
	if h.GameVersion == "" {
		return h.Game
	}
	return h.Game + "@" + h.GameVersion
}

// unknown is why a match of h has no pictures when its game is not found.
func unknown(h replay.Header) string {
	if h.GameVersion != "" {
		return fmt.Sprintf("%s is an added game (version %.12s): its pictures are drawn by its referee, found in the judge's store and run in a sandbox, and this viewer has neither: only the exchanges are shown",
			h.Game, h.GameVersion)
	}
	return fmt.Sprintf("this judge does not know the game %q: only the exchanges are shown", h.Game)
}

// Read reads a replay and makes its film. An error is a file that is not a readable replay;
// a replay that reads but does not re-judge is a film with a Problem.
func Read(r io.Reader, lookup func(string) (game.Game, bool)) (*Film, error) {
	rp, err := replay.Read(r)
	if err != nil {
		return nil, err
	}
	return Make(rp, lookup), nil
}

// Make makes a replay's film.
func Make(rp *replay.Replay, lookup func(string) (game.Game, bool)) *Film {
	f := &Film{Version: FilmVersion, Header: rp.Header, Exchanges: rp.Exchanges, Result: rp.Result,
		Frames: []json.RawMessage{}, FrameOf: make([]int, len(rp.Exchanges)+1)}
	if f.Exchanges == nil {
		f.Exchanges = []replay.Exchange{}
	}
	for i := range f.FrameOf {
		f.FrameOf[i] = -1
	}
	g, ok := lookup(GameKey(rp.Header))
	if !ok {
		f.Problem = unknown(rp.Header)
		return f
	}
	if r, ok := g.(interface{ Renderer() []byte }); ok && len(r.Renderer()) > 0 {
		f.Renderer = true
	}
	var last []byte
	watch := func(step int, m game.Match) {
		v, ok := m.(game.Viewer)
		if !ok {
			return
		}
		b, err := json.Marshal(v.View())
		if err != nil {
			f.Problem = fmt.Sprintf("step %d: the picture does not encode: %v", step, err)
			return
		}
		if !bytes.Equal(b, last) {
			f.Frames = append(f.Frames, b)
			last = b
		}
		if step < len(f.FrameOf) {
			f.FrameOf[step] = len(f.Frames) - 1
		}
	}
	diffs, err := rp.Check(g, watch)
	f.Mismatch = diffs
	switch {
	case err != nil:
		f.Problem = fmt.Sprintf("the replay does not re-judge (%v): the pictures stop where it departs from the game", err)
	case len(diffs) > 0 && f.FrameOf[len(f.FrameOf)-1] < 0:
		f.Problem = "the replay departs from the game: the pictures stop where it does"
	case len(f.Frames) == 0:
		f.Problem = fmt.Sprintf("the game %q draws no pictures: only the exchanges are shown", rp.Header.Game)
	}
	return f
}
