package portal

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/view"
)

// A match under way, watched: GET /api/v1/matches/{id}/live streams its replay lines as
// server-sent events, one event a line (event: header, move, stderr or result; data: the
// line), from its first, as the daemon playing it writes them (queue.WatchLive: nothing is
// polled or stored), with what the caller may not see of the replay left out as in its download
// (other players' stderr, their drawings included). The stream ends after the result. A match
// already judged streams its stored replay the same way; one no judge plays yet is 409
// not_live. A watcher that reads too slowly is dropped: the match never waits for it.

// liveBuffer is how many lines a watcher may fall behind before it is dropped; liveWrite
// bounds one write to it.
const (
	liveBuffer = 1024
	liveWrite  = 10 * time.Second
	liveBeat   = 15 * time.Second
)

func (s *Server) apiLive(w http.ResponseWriter, r *http.Request, c caller) error {
	m, err := s.engine.Watchable(r.Context(), c.actor(), r.PathValue("id"))
	if err != nil {
		return err
	}
	keep := func(i int) bool { return c.actor().Sees(m, i) }
	if m.Result != nil {
		_, data, err := s.replay(r.Context(), c, m.ID)
		if err != nil {
			return err
		}
		sse := startEvents(w)
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		for sc.Scan() {
			var peek struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(sc.Bytes(), &peek) == nil && !sse.line(peek.Type, sc.Bytes()) {
				return nil
			}
		}
		return nil
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	lines, err := s.c.Queue.WatchLive(ctx, m.ID, liveBuffer)
	if errors.Is(err, queue.ErrNotLive) {
		return api.Errorf(api.CodeNotLive, "match %s is not being played now: watch it once a judge plays it, or read its replay once it is over", m.ID)
	}
	if err != nil {
		return err
	}
	sse := startEvents(w)
	pics := pictures{on: r.URL.Query().Get("frames") != "", lookup: s.c.Games}
	defer pics.close()
	beat := time.NewTicker(liveBeat)
	defer beat.Stop()
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				return nil // dropped, or the stream ended: the client may ask again
			}
			line, kind, err := privateLine(l.Data, keep)
			if err != nil || line == nil {
				continue
			}
			if !sse.line(kind, line) || !pics.after(sse, kind, line) || kind == "result" {
				return nil
			}
		case <-beat.C:
			if !sse.comment("the match goes on") {
				return nil
			}
		case <-ctx.Done():
			return nil
		case <-s.stopping:
			return nil // the portal is shutting down: the viewer asks again, of another one
		}
	}
}

// pictures are the game's pictures of a match watched live, for the viewer (?frames=1): after
// the header and after each exchange, an event "frame" of {"step", "frame"}, the picture
// view.Make would give that step (view.Follow).
type pictures struct {
	on     bool
	lookup func(string) (game.Game, bool)
	f      *view.Follower
	step   int
}

// after sends the picture that follows line, of type kind, if any; false once the client is
// gone.
func (p *pictures) after(sse events, kind string, line []byte) bool {
	if !p.on {
		return true
	}
	var pic json.RawMessage
	switch {
	case kind == "header":
		var h replay.Header
		if json.Unmarshal(line, &h) != nil {
			return true
		}
		f, first, err := view.Follow(h, p.lookup)
		if err != nil {
			p.on = false // no pictures: the viewer shows the exchanges
			return true
		}
		p.f, pic = f, first
	case kind == "move" && p.f != nil:
		var x replay.Exchange
		if json.Unmarshal(line, &x) != nil {
			return true
		}
		b, ok := p.f.Add(x)
		if !ok {
			p.close()
			return true
		}
		p.step++
		pic = b
	default:
		return true
	}
	data, _ := json.Marshal(map[string]any{"step": p.step, "frame": pic})
	return sse.write(fmt.Sprintf("event: frame\ndata: %s\n\n", data))
}

func (p *pictures) close() {
	if p.f != nil {
		p.f.Close()
		p.f = nil
	}
}

// events writes server-sent events, each write bounded by liveWrite: a client that stops
// reading ends its stream, never the portal's goroutine.
type events struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func startEvents(w http.ResponseWriter) events {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	e := events{w, http.NewResponseController(w)}
	e.rc.Flush()
	return e
}

// line sends a replay line as an event named by its type; false once the client is gone.
func (e events) line(kind string, line []byte) bool {
	if kind == "" {
		return true
	}
	return e.write(fmt.Sprintf("event: %s\ndata: %s\n\n", kind, line))
}

func (e events) comment(text string) bool { return e.write(": " + text + "\n\n") }

func (e events) write(s string) bool {
	e.rc.SetWriteDeadline(time.Now().Add(liveWrite))
	if _, err := e.w.Write([]byte(s)); err != nil {
		return false
	}
	return e.rc.Flush() == nil
}
