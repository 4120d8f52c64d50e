package portal

import (
	"bytes"
	"context"
	"errors"
	"net/http"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/view"
)

// A match under way, watched: GET /api/v1/matches/{id}/live streams its replay lines as
// server-sent events, one event a line (event: header, move, stderr or result; data: the
// line), from its first, as the daemon playing it writes them (queue.WatchLive: nothing is
// polled or stored), with what the caller may not see of the replay left out as in its download
// (other players' stderr, their drawings included). The stream ends after the result. A match
// already judged streams its stored replay the same way (its pictures too); one no judge plays
// yet is 409 not_live. A watcher that reads too slowly is dropped: the match never waits for it.

func (s *Server) apiLive(w http.ResponseWriter, r *http.Request, c caller) error {
	m, err := s.engine.Watchable(r.Context(), c.actor(), r.PathValue("id"))
	if err != nil {
		return err
	}
	keep := func(i int) bool { return c.actor().Sees(m, i) }
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	var lines <-chan queue.LiveLine
	if m.Result != nil { // over: its stored replay, as its lines would have come
		_, data, err := s.replay(ctx, c, m.ID)
		if err != nil {
			return err
		}
		lines = replayLines(ctx, data)
	} else {
		lines, err = s.c.Queue.WatchLive(ctx, m.ID, view.LiveBuffer)
		if errors.Is(err, queue.ErrNotLive) {
			return api.Errorf(api.CodeNotLive, "match %s is not being played now: watch it once a judge plays it, or read its replay once it is over", m.ID)
		}
		if err != nil {
			return err
		}
	}
	view.StreamEvents(ctx, w, lines, view.EventOptions{Frames: r.URL.Query().Get("frames") != "", Lookup: s.c.Games,
		Line: func(line []byte) ([]byte, string, error) { return privateLine(line, keep) },
		Stop: s.stopping}) // a portal shutting down ends it: the viewer asks again, of another one
	return nil
}

// replayLines sends a stored replay's lines until ctx is done.
func replayLines(ctx context.Context, data []byte) <-chan queue.LiveLine {
	lines := make(chan queue.LiveLine)
	go func() {
		defer close(lines)
		n := 0
		for line := range bytes.Lines(data) {
			if line = bytes.TrimSpace(line); len(line) == 0 {
				continue
			}
			select {
			case lines <- queue.LiveLine{N: n, Data: line}:
				n++
			case <-ctx.Done():
				return
			}
		}
	}()
	return lines
}
