package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// publish sends one message to a stream and returns its acknowledgement, retrying failures
// that leave the message possibly unsent (no connection, no stream leader yet, a lost
// acknowledgement) until ctx is done. The retry is safe only because every message the queue
// publishes carries a de-duplication id: a retried message that was in fact stored is
// acknowledged as a duplicate instead of stored twice.
func (q *Queue) publish(ctx context.Context, what string, msg *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	if q.o.ReadOnly {
		return nil, fmt.Errorf("queue: %s: %w", what, ErrReadOnly)
	}
	wait := retryMin
	for attempt := 1; ; attempt++ {
		if err := q.closedErr(); err != nil {
			return nil, err
		}
		actx, cancel := context.WithTimeout(ctx, publishAttemptTimeout)
		ack, err := q.js.PublishMsg(actx, msg, opts...)
		cancel()
		if err == nil {
			return ack, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("queue: %s: %w (last error: %v)", what, ctx.Err(), err)
		}
		if errors.Is(err, nats.ErrMaxPayload) {
			return nil, fmt.Errorf("queue: %s: %d bytes is too large: the server takes messages of at most %d bytes (%w)",
				what, len(msg.Data), q.nc.MaxPayload(), err)
		}
		if !transient(err) {
			return nil, fmt.Errorf("queue: %s: %w", what, err)
		}
		// One warning per publish: an outage is already logged as a disconnect, and the
		// retries until it ends say nothing new.
		level := slog.LevelDebug
		if attempt == 1 {
			level = slog.LevelWarn
		}
		q.log.Log(ctx, level, "queue: publish failed, retrying until it goes through", "what", what, "err", err, "retry_in", wait)
		if serr := sleep(ctx, wait); serr != nil {
			return nil, fmt.Errorf("queue: %s: %w (last error: %v)", what, serr, err)
		}
		wait = min(2*wait, retryMax)
	}
}

const (
	// publishAttemptTimeout bounds one publish attempt: long enough for a loaded server's
	// acknowledgement, short enough that a lost one is retried promptly.
	publishAttemptTimeout = 5 * time.Second
	retryMin              = 100 * time.Millisecond
	retryMax              = 2 * time.Second
)

// transient reports errors after which the same request may succeed later: the connection
// is down or coming back, or the server has not (re)loaded the stream yet.
func transient(err error) bool {
	for _, t := range []error{
		nats.ErrTimeout,
		context.DeadlineExceeded,
		nats.ErrNoResponders,
		jetstream.ErrNoStreamResponse,
		nats.ErrReconnectBufExceeded,
		nats.ErrConnectionReconnecting,
		nats.ErrDisconnected,
		nats.ErrNoServers,
		jetstream.ErrJetStreamNotEnabled,
	} {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}

// sleep waits d or until ctx is done, whichever is first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
