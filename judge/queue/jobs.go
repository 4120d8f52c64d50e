package queue

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/botjudge/judge/judge/job"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

const (
	// laneWait is the life of one pull request: how long an idle daemon waits for a main
	// job before it looks at the other lanes again (at most this late is a test match taken
	// by an idle judge). Short pulls also mean a pull lost to a server restart is replaced
	// at once.
	laneWait = 250 * time.Millisecond
	// ackTimeout bounds the double ack's round trip.
	ackTimeout = 10 * time.Second
)

// Submit queues a job under id, which is also its de-duplication id: a second Submit of id
// within the dedup window stores nothing and reports duplicate (so does a retry whose
// earlier attempt stored it but lost the acknowledgement). A publish is retried until ctx
// is done: give ctx a deadline when the caller cannot wait for a server to come back.
func (q *Queue) Submit(ctx context.Context, id string, data []byte) (duplicate bool, err error) {
	return q.SubmitTo(ctx, LaneMain, id, data)
}

// SubmitTo queues a job as Submit does in lane: daemons take it only when no job of an
// earlier lane waits (the portal's test matches and its ladder, behind official rounds and
// contestants' builds).
func (q *Queue) SubmitTo(ctx context.Context, lane Lane, id string, data []byte) (duplicate bool, err error) {
	if lane < 0 || lane >= lanes {
		return false, fmt.Errorf("queue: submit job %s: no lane %d", id, lane)
	}
	return q.submit(ctx, id, q.jobsSubjects[lane], data)
}

func (q *Queue) submit(ctx context.Context, id, subject string, data []byte) (duplicate bool, err error) {
	if err := job.ValidID(id); err != nil {
		return false, err
	}
	ack, err := q.publish(ctx, "submit job "+id, &nats.Msg{Subject: subject, Data: data},
		jetstream.WithMsgID(id), jetstream.WithExpectStream(q.jobsStream))
	if err != nil {
		return false, err
	}
	return ack.Duplicate, nil
}

// takeNow is a job c has waiting, without waiting for one. A consumer found gone is made
// again (as Next does for the main one).
func (q *Queue) takeNow(ctx context.Context, c jetstream.Consumer) (jetstream.Msg, bool) {
	batch, err := c.FetchNoWait(1)
	if err != nil {
		return nil, false
	}
	var got jetstream.Msg
	for m := range batch.Messages() {
		got = m
	}
	if err := batch.Error(); got == nil && errors.Is(err, jetstream.ErrConsumerDeleted) {
		q.log.Warn("queue: a jobs consumer is missing, recreating", "err", err)
		if serr := q.setup(ctx); serr != nil {
			q.log.Warn("queue: recreating the jobs consumers failed", "err", serr)
		}
	}
	return got, got != nil
}

// Delivery is one delivery of a job to this daemon. Exactly one of Ack, Nak or Term should
// end it; until then, call InProgress more often than AckWait while working on it.
type Delivery struct {
	// ID is the id the job was submitted under (its de-duplication id), so a job whose
	// bytes cannot be parsed can still be answered with an error result.
	ID string
	// Data is the job as submitted.
	Data []byte
	// Subject is the subject it was published to, and Lane that subject's lane (LaneOf;
	// LaneMain, whose work is kept for good, for a subject that is no lane's).
	Subject string
	Lane    Lane
	// Seq is its sequence number in the jobs stream.
	Seq uint64
	// NumDelivered counts deliveries of this job, this one included: above 1, an earlier
	// attempt crashed, timed out or was Nak'ed.
	NumDelivered uint64
	// Pending is the queue's lag: jobs waiting that no daemon has taken yet.
	Pending uint64
	// Published is when the job was stored in the stream.
	Published time.Time

	msg        jetstream.Msg
	maxDeliver int
}

// LastAttempt reports that this is the final delivery (NumDelivered has reached MaxDeliver as
// this Queue configured it): a Nak now would leave the job undelivered forever, so a daemon
// that cannot judge it should publish an error result and Term it instead.
func (d *Delivery) LastAttempt() bool { return d.NumDelivered >= uint64(d.maxDeliver) }

// InProgress tells the server the job is still being worked on, which restarts its AckWait.
func (d *Delivery) InProgress() error {
	if err := d.msg.InProgress(); err != nil {
		return fmt.Errorf("queue: job %s (seq %d): in progress: %w", d.ID, d.Seq, err)
	}
	return nil
}

// Ack ends the job: the server removes it from the work queue. It waits (within ctx and
// ackTimeout) for the server to confirm, so that a nil error means the job will not come
// back; an error means it may (after AckWait), which the result's de-duplication makes
// harmless.
func (d *Delivery) Ack(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, ackTimeout)
	defer cancel()
	if err := d.msg.DoubleAck(ctx); err != nil {
		return fmt.Errorf("queue: job %s (seq %d): ack: %w", d.ID, d.Seq, err)
	}
	return nil
}

// Nak gives the job back, to be delivered again (to any daemon) after delay, or at once when
// delay <= 0. It counts as a delivery against MaxDeliver.
func (d *Delivery) Nak(delay time.Duration) error {
	var err error
	if delay > 0 {
		err = d.msg.NakWithDelay(delay)
	} else {
		err = d.msg.Nak()
	}
	if err != nil {
		return fmt.Errorf("queue: job %s (seq %d): nak: %w", d.ID, d.Seq, err)
	}
	return nil
}

// Term ends the job without success: it is never delivered again.
func (d *Delivery) Term() error {
	if err := d.msg.Term(); err != nil {
		return fmt.Errorf("queue: job %s (seq %d): term: %w", d.ID, d.Seq, err)
	}
	return nil
}

// Next waits for one job and returns it; it returns ctx.Err() when ctx is done and ErrClosed
// after Close. It takes one job at a time (no prefetch), so a busy daemon leaves the waiting
// jobs to idle ones. Connection loss and server restarts are waited out, not returned.
func (q *Queue) Next(ctx context.Context) (*Delivery, error) {
	if q.o.ReadOnly {
		return nil, fmt.Errorf("queue: next: %w", ErrReadOnly) // a delivery is taken, and changes the stream
	}
	wait := retryMin
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := q.closedErr(); err != nil {
			return nil, err
		}
		q.mu.Lock()
		consumers := q.consumers
		q.mu.Unlock()
		// The lanes in order, a job of a later lane only when no earlier one has one; then a
		// wait for the main lane that is short, so that the later lanes are looked at again
		// soon.
		for _, c := range consumers {
			if m, ok := q.takeNow(ctx, c); ok {
				return q.delivery(m)
			}
		}
		batch, err := consumers[LaneMain].Fetch(1, jetstream.FetchMaxWait(laneWait))
		if err != nil {
			// Mostly "not connected": the pull cannot be sent until the reconnect.
			if err := q.closedErr(); err != nil {
				return nil, err
			}
			q.log.Debug("queue: fetch failed, retrying", "err", err, "retry_in", wait)
			if err := sleep(ctx, wait); err != nil {
				return nil, err
			}
			wait = min(2*wait, retryMax)
			continue
		}
		select {
		case m, ok := <-batch.Messages():
			if ok {
				return q.delivery(m)
			}
		case <-ctx.Done():
			// The pull is still open on the server and may yet deliver a job to us; hand
			// it straight back rather than leave it held until AckWait.
			go func() {
				for m := range batch.Messages() {
					_ = m.Nak()
				}
			}()
			return nil, ctx.Err()
		}
		err = batch.Error()
		if err == nil {
			wait = retryMin // the pull expired with nothing to do
			continue
		}
		if err := q.closedErr(); err != nil {
			return nil, err
		}
		if errors.Is(err, jetstream.ErrConsumerDeleted) || errors.Is(err, nats.ErrNoResponders) {
			// The consumer (or the whole stream) is gone: deleted by hand, or a server
			// that came back with an empty store. Recreate it rather than wait forever.
			q.log.Warn("queue: jobs consumer missing, recreating", "consumer", ConsumerName, "err", err)
			if serr := q.setup(ctx); serr != nil {
				q.log.Warn("queue: recreating the jobs consumer failed", "err", serr)
			}
		} else {
			q.log.Debug("queue: fetch failed, retrying", "err", err, "retry_in", wait)
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
		wait = min(2*wait, retryMax)
	}
}

func (q *Queue) delivery(m jetstream.Msg) (*Delivery, error) { return NewDelivery(m, q.o.MaxDeliver) }

// NewDelivery is the delivery of m, a message of the jobs stream, to a consumer that delivers
// a job at most maxDeliver times. Next makes each Delivery so; a test of a consumer may make
// one of a jetstream.Msg of its own.
func NewDelivery(m jetstream.Msg, maxDeliver int) (*Delivery, error) {
	meta, err := m.Metadata()
	if err != nil {
		// Not a JetStream message: nothing to ack, and nothing sensible to hand out.
		return nil, fmt.Errorf("queue: next: %w", err)
	}
	lane, _ := LaneOf(m.Subject())
	return &Delivery{
		ID:           m.Headers().Get(jetstream.MsgIDHeader),
		Data:         m.Data(),
		Subject:      m.Subject(),
		Lane:         lane,
		Seq:          meta.Sequence.Stream,
		NumDelivered: meta.NumDelivered,
		Pending:      meta.NumPending,
		Published:    meta.Timestamp,
		msg:          m,
		maxDeliver:   maxDeliver,
	}, nil
}
