package view

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/replay"
)

// A match under way, watched: its replay lines as server-sent events, one event a line (event:
// header, move, stderr or result; data: the line), from its first, as the daemon playing it
// writes them (queue.WatchLive: nothing polled or stored). With Frames, after the header and
// after each exchange an event "frame" of {"step", "frame"}: the picture Make would give that
// step (Follow); or, once after the header, an event "problem" of {"problem"} saying why there
// are none (an added game whose referee this viewer cannot run). The stream ends after the
// result. Each write is bounded: a watcher that stops reading ends its own stream, and one
// that falls behind is dropped by the queue; the match never waits for either.

// LiveBuffer is how many lines a watcher may fall behind before it is dropped.
const LiveBuffer = 1024

const (
	liveWrite = 10 * time.Second // bounds one write to a watcher
	liveBeat  = 15 * time.Second // a comment this often keeps an idle stream open
)

// EventOptions are how StreamEvents streams a match.
type EventOptions struct {
	// Frames adds the game's pictures, found by Lookup (view.GameKey).
	Frames bool
	Lookup func(string) (game.Game, bool)
	// Line is what the watcher may see of a replay line (nil: a line left out) and its type;
	// nil passes every line.
	Line func([]byte) ([]byte, string, error)
	// Stop ends the stream at once (the server shutting down).
	Stop <-chan struct{}
}

// lineType is a replay line's type.
func lineType(line []byte) ([]byte, string, error) {
	var peek struct {
		Type string `json:"type"`
	}
	err := json.Unmarshal(line, &peek)
	return line, peek.Type, err
}

// StreamEvents streams lines to w as server-sent events until the result, the channel's end
// (the watcher dropped: it may ask again), ctx done or o.Stop.
func StreamEvents(ctx context.Context, w http.ResponseWriter, lines <-chan queue.LiveLine, o EventOptions) {
	filter := o.Line
	if filter == nil {
		filter = lineType
	}
	sse := StartEvents(w)
	pics := pictures{on: o.Frames, lookup: o.Lookup}
	defer pics.close()
	beat := time.NewTicker(liveBeat)
	defer beat.Stop()
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				return
			}
			line, kind, err := filter(l.Data)
			if err != nil || line == nil {
				continue
			}
			if !sse.Line(kind, line) || !pics.after(sse, kind, line) || kind == "result" {
				return
			}
		case <-beat.C:
			if !sse.comment("the match goes on") {
				return
			}
		case <-ctx.Done():
			return
		case <-o.Stop:
			return
		}
	}
}

// pictures are the game's pictures of a match watched live, one after each exchange.
type pictures struct {
	on     bool
	lookup func(string) (game.Game, bool)
	f      *Follower
	step   int
}

// after sends the picture that follows line, of type kind, if any; false once the client is
// gone.
func (p *pictures) after(sse Events, kind string, line []byte) bool {
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
		f, first, err := Follow(h, p.lookup)
		if err != nil { // no pictures: the viewer shows the exchanges, and why
			p.on = false
			data, _ := json.Marshal(map[string]string{"problem": err.Error()})
			return sse.write(fmt.Sprintf("event: problem\ndata: %s\n\n", data))
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

// Events writes server-sent events, each write bounded by liveWrite: a client that stops
// reading ends its stream, never the server's goroutine.
type Events struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

// StartEvents answers 200 with an event stream.
func StartEvents(w http.ResponseWriter) Events {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	e := Events{w, http.NewResponseController(w)}
	e.rc.Flush()
	return e
}

// Line sends a replay line as an event named by its type; false once the client is gone.
func (e Events) Line(kind string, line []byte) bool {
	if kind == "" {
		return true
	}
	return e.write(fmt.Sprintf("event: %s\ndata: %s\n\n", kind, line))
}

func (e Events) comment(text string) bool { return e.write(": " + text + "\n\n") }

func (e Events) write(s string) bool {
	e.rc.SetWriteDeadline(time.Now().Add(liveWrite))
	if _, err := e.w.Write([]byte(s)); err != nil {
		return false
	}
	return e.rc.Flush() == nil
}
