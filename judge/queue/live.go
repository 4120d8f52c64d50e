package queue

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// A match under way is watched live through core NATS, with nothing stored: the daemon that
// plays it publishes each replay line as it writes it (PublishLive) and answers, for those who
// start watching late, with the lines so far (ServeLive); a watcher subscribes, then asks for
// them (WatchLive). Publishing never waits for a watcher: a match costs the same watched or
// not, and a watcher that falls behind loses lines (its connection's slow-consumer limit), never
// the match.

// LiveLine is a replay line of a match under way: N is its index in the replay, from 0.
type LiveLine struct {
	N    int
	Data []byte
}

// liveChunk is the most bytes of lines one history message carries: below any server's
// payload limit (1 MiB by default).
const liveChunk = 512 << 10

func (q *Queue) liveSubject(id string) string {
	return q.o.Prefix + ".live." + hex.EncodeToString([]byte(id))
}

// PublishLive publishes line n of match id's replay to its watchers, if any; the connection
// buffers it, so it does not wait.
func (q *Queue) PublishLive(id string, n int, line []byte) error {
	m := nats.NewMsg(q.liveSubject(id))
	m.Header.Set("Line", strconv.Itoa(n))
	m.Data = line
	return q.nc.PublishMsg(m)
}

// ServeLive answers requests for match id's lines so far with lines(), in chunks, until stop
// is called.
func (q *Queue) ServeLive(id string, lines func() [][]byte) (stop func(), err error) {
	sub, err := q.nc.Subscribe(q.liveSubject(id)+".history", func(req *nats.Msg) {
		all := lines()
		from := 0
		for from < len(all) || from == 0 {
			m := nats.NewMsg(req.Reply)
			m.Header.Set("From", strconv.Itoa(from))
			size := 0
			n := from
			for n < len(all) && (size == 0 || size+len(all[n]) <= liveChunk) {
				m.Data = append(append(m.Data, all[n]...), '\n')
				size += len(all[n]) + 1
				n++
			}
			if n == len(all) {
				m.Header.Set("Last", "1")
			}
			if q.nc.PublishMsg(m) != nil || n == len(all) {
				return
			}
			from = n
		}
	})
	if err != nil {
		return nil, err
	}
	// The server has the subscription before the match's first line: a watcher that comes at
	// once, on another connection, finds it.
	q.nc.FlushTimeout(time.Second)
	return func() { sub.Unsubscribe() }, nil
}

// ErrNotLive is a match no daemon is playing now.
var ErrNotLive = errors.New("no judge is playing the match now")

// WatchLive streams match id's replay lines, from the first, in order, until ctx is done or
// the live stream stops: it subscribes, asks the daemon playing it for the lines so far, and
// then passes each new one. The channel closes when ctx is done; a watcher that reads too
// slowly is dropped (the channel closes early: its buffer, buffered, is full). ErrNotLive when
// no daemon answers within the request's time.
func (q *Queue) WatchLive(ctx context.Context, id string, buffered int) (<-chan LiveLine, error) {
	live := make(chan *nats.Msg, buffered)
	sub, err := q.nc.ChanSubscribe(q.liveSubject(id), live)
	if err != nil {
		return nil, err
	}
	inbox := nats.NewInbox()
	hist := make(chan *nats.Msg, 64)
	hsub, err := q.nc.ChanSubscribe(inbox, hist)
	if err != nil {
		sub.Unsubscribe()
		return nil, err
	}
	stop := func() { sub.Unsubscribe(); hsub.Unsubscribe() }
	if err := q.nc.PublishRequest(q.liveSubject(id)+".history", inbox, nil); err != nil {
		stop()
		return nil, err
	}
	// The history's first chunk says that a daemon plays the match.
	var first *nats.Msg
	rctx, cancel := context.WithTimeout(ctx, liveAsk)
	select {
	case first = <-hist:
	case <-rctx.Done():
	}
	cancel()
	if first != nil && len(first.Data) == 0 && first.Header.Get("Status") == "503" {
		first = nil // the server's answer: nobody serves the match
	}
	if first == nil {
		stop()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, ErrNotLive
	}
	out := make(chan LiveLine, buffered)
	go func() {
		defer close(out)
		defer stop()
		next := 0
		send := func(l LiveLine) bool {
			if l.N != next {
				return l.N < next // an old line (history and live overlap): skip; a gap: stop
			}
			select {
			case out <- l:
				next++
				return true
			default:
				return false // the watcher is too slow: dropped
			}
		}
		for m := first; m != nil; {
			from, _ := strconv.Atoi(m.Header.Get("From"))
			for i, line := range splitLines(m.Data) {
				if !send(LiveLine{N: from + i, Data: line}) {
					return
				}
			}
			if m.Header.Get("Last") != "" {
				break
			}
			select {
			case m = <-hist:
			case <-ctx.Done():
				return
			}
		}
		for {
			select {
			case m := <-live:
				n, err := strconv.Atoi(m.Header.Get("Line"))
				if err != nil || !send(LiveLine{N: n, Data: m.Data}) {
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// liveAsk bounds the wait for the daemon's first answer.
const liveAsk = 2 * time.Second

// splitLines are the lines of a history chunk, each ended by a newline.
func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return append(out, b)
		}
		out, b = append(out, b[:i]), b[i+1:]
	}
	return out
}

// LiveTee is an io.Writer for a match's replay that publishes each complete line it is given
// (PublishLive) and keeps them, for ServeLive's late watchers; it never fails the match: a
// line that cannot be published is lost to the watchers only.
type LiveTee struct {
	q       *Queue
	id      string
	mu      sync.Mutex
	partial []byte
	lines   [][]byte
	size    int
}

// liveKept bounds the bytes a tee keeps for late watchers (the stderr limits bound a replay to
// about this): past it, late watchers are told the match is too long to join.
const liveKept = 16 << 20

// Live is a tee for match id's replay lines (a LiveTee) and its stop, for when the match is
// over.
func (q *Queue) Live(id string) (io.Writer, func()) {
	t := &LiveTee{q: q, id: id}
	stop, err := q.ServeLive(id, t.Lines)
	if err != nil {
		stop = func() {}
	}
	return t, stop
}

func (t *LiveTee) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.partial = append(t.partial, p...)
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		line := append([]byte(nil), t.partial[:i]...)
		t.partial = t.partial[i+1:]
		n := len(t.lines)
		if t.size+len(line) <= liveKept {
			t.lines = append(t.lines, line)
			t.size += len(line)
		} else {
			t.lines = append(t.lines, nil) // past what is kept: a late watcher stops there
		}
		t.q.PublishLive(t.id, n, line)
	}
	return len(p), nil
}

// Lines are the complete lines so far.
func (t *LiveTee) Lines() [][]byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, l := range t.lines {
		if l == nil {
			return t.lines[:i:i]
		}
	}
	return t.lines[:len(t.lines):len(t.lines)]
}
