package queue

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/job"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// resultsIdleCheck is how long Results without follow waits for the next stored result
// before asking the server whether any is left. The count of results left comes with each
// one, but a result replaced meanwhile (one per id is kept) never arrives, and this keeps
// that from hanging the listing.
const resultsIdleCheck = 2 * time.Second

// resultsIdleChecks bounds the idle checks in a row Results without follow makes: a cluster's
// consumer has been seen to report results pending that it never delivered (a tournament's
// listing on a 3-node cluster hung for 16 minutes); the listing then ends with what came.
const resultsIdleChecks = 3

// PublishResult stores the result of job id, a job of lane, on judge.results.<id>. Its
// de-duplication id is "result-"+id, so a job judged twice (redelivered after a daemon lost
// its connection before acking) keeps its first result within the dedup window. The lane
// goes in its HeaderLane, which decides how long it is kept (ExpireResults). Retries like
// Submit.
func (q *Queue) PublishResult(ctx context.Context, lane Lane, id string, result []byte) error {
	if err := job.ValidID(id); err != nil {
		return err
	}
	msg := &nats.Msg{Subject: q.resultsPrefix + id, Data: result, Header: nats.Header{}}
	msg.Header.Set(HeaderLane, lane.String())
	ack, err := q.publish(ctx, "publish result "+id, msg, jetstream.WithMsgID("result-"+id), jetstream.WithExpectStream(q.resultsStream))
	if err == nil && ack.Duplicate {
		// Another daemon judged the job too (this one lost its connection past AckWait): the
		// stored result stays the only one.
		q.log.Info("queue: a result of this job is already stored: it is kept, this one dropped", "job", id)
	}
	return err
}

// Result returns the stored result of job id, and false when there is none (not judged yet,
// or a test or ladder job's expired after ResultsMaxAge).
func (q *Queue) Result(ctx context.Context, id string) ([]byte, bool, error) {
	if err := job.ValidID(id); err != nil {
		return nil, false, err
	}
	q.mu.Lock()
	results := q.results
	q.mu.Unlock()
	m, err := results.GetLastMsgForSubject(ctx, q.resultsPrefix+id)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, false, nil
	}
	if err != nil && transient(err) {
		return nil, false, fmt.Errorf("queue: result %s: stream %s did not answer: %w (a NATS server may be down or the stream electing its leader: try again in a minute)", id, q.resultsStream, err)
	}
	if err != nil {
		return nil, false, fmt.Errorf("queue: result %s: %w", id, err)
	}
	return m.Data, true, nil
}

// Results calls fn with every stored result, oldest first: of every job when id is "", else
// of that one job. Without follow it returns once the stored ones are done; with follow it
// goes on with results published later until ctx is done, and then returns ctx.Err(). An
// error from fn stops it and is returned as is.
//
// Every request it makes has a deadline of its own, since a caller's ctx may have none
// (`judge results`): the server that holds its consumer may be lost for good, and a request
// to it is then never answered. The listing goes on from where it was on a new consumer
// (the stream still has its results on the other servers); without follow, it gives up
// with an error after resultsAttempts failed consumers.
func (q *Queue) Results(ctx context.Context, id string, follow bool, fn func(id string, result []byte) error) error {
	filter := q.resultsPrefix + ">"
	if id != "" {
		if err := job.ValidID(id); err != nil {
			return err
		}
		filter = q.resultsPrefix + id
	}
	var from uint64 // the stream sequence to go on from, 0 for the first
	wait := time.Second
	for attempt := 1; ; attempt++ {
		err := q.readResults(ctx, filter, follow, false, &from, func(m jetstream.Msg) error {
			return fn(strings.TrimPrefix(m.Subject(), q.resultsPrefix), m.Data())
		})
		var fe fnError
		switch {
		case errors.As(err, &fe):
			return fe.err
		case err == nil:
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case !follow && attempt >= resultsAttempts:
			return fmt.Errorf("queue: results: %w; reading stream %s failed %d times in a row: a NATS server may be down or its streams electing leaders (try again in a minute; `judge store` shows the streams)",
				err, q.resultsStream, attempt)
		}
		q.log.Warn("queue: reading results failed, going on with a new consumer", "stream", q.resultsStream, "err", err, "retry_in", wait)
		if err := sleep(ctx, wait); err != nil {
			return err
		}
		wait = min(2*wait, retryMax)
	}
}

const (
	// resultsAttempts bounds the consumers Results without follow makes in a row that fail.
	resultsAttempts = 3
	// resultsRequestTimeout bounds each request Results makes to the server.
	resultsRequestTimeout = 5 * time.Second
)

// fnError is an error of Results' fn, which ends it as is (never retried).
type fnError struct{ err error }

func (e fnError) Error() string { return e.err.Error() }

// readResults is one consumer's part of Results, from the stream sequence *from (the first
// when 0), which it moves past each result handed to fn; with headersOnly, fn gets each
// result's headers and not its data (ExpireResults).
func (q *Queue) readResults(ctx context.Context, filter string, follow, headersOnly bool, from *uint64, fn func(jetstream.Msg) error) error {
	return q.read(ctx, q.resultsStream, filter, follow, headersOnly, from, fn)
}

// read is readResults of any stream (a key-value bucket's: ExpireKeys).
func (q *Queue) read(ctx context.Context, stream, filter string, follow, headersOnly bool, from *uint64, fn func(jetstream.Msg) error) error {
	cfg := jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{filter},
		DeliverPolicy:  jetstream.DeliverAllPolicy,
		HeadersOnly:    headersOnly,
		// The client recreates the consumer after a reconnect or missed heartbeats, but
		// without a bound on its attempts it does so forever, whatever ctx says: once, and
		// Results makes the next one itself.
		MaxResetAttempts: 1,
	}
	if *from > 0 {
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, *from
	}
	// An ordered consumer is ephemeral and recreated by the client after a reconnect, so a
	// reader leaves nothing behind on the server and follows across server restarts.
	cctx, cancel := context.WithTimeout(ctx, resultsRequestTimeout)
	oc, err := q.js.OrderedConsumer(cctx, stream, cfg)
	cancel()
	if err != nil {
		return fmt.Errorf("consumer of stream %s: %w", stream, err)
	}
	if info := oc.CachedInfo(); !follow && info != nil && info.NumPending == 0 {
		return nil
	}
	it, err := oc.Messages()
	if err != nil {
		return err
	}
	defer it.Stop()
	for idle := 0; ; {
		nctx, cancel := ctx, context.CancelFunc(func() {})
		if !follow {
			nctx, cancel = context.WithTimeout(ctx, resultsIdleCheck)
		}
		m, err := it.Next(jetstream.NextContext(nctx))
		cancel()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			if !follow && errors.Is(err, context.DeadlineExceeded) {
				// The ordered consumer's Info, unlike the client's other calls, adds no
				// deadline of its own: with none, a consumer whose server is gone hangs it
				// (`judge results` after a node was lost).
				ictx, cancel := context.WithTimeout(ctx, resultsRequestTimeout)
				info, ierr := oc.Info(ictx)
				cancel()
				if ierr != nil {
					return fmt.Errorf("results left: %w", ierr)
				}
				if info.NumPending == 0 {
					return nil
				}
				// Results wait and none comes: this consumer is stuck (a cluster just formed
				// or electing), and a new one is the cure, not a listing cut short in silence.
				if idle++; idle >= resultsIdleChecks {
					return fmt.Errorf("%d results left and none delivered in %s", info.NumPending, resultsIdleCheck*resultsIdleChecks)
				}
				continue
			}
			return err
		}
		idle = 0
		meta, merr := m.Metadata()
		if merr == nil {
			*from = meta.Sequence.Stream + 1
		}
		if err := fn(m); err != nil {
			return fnError{err}
		}
		if !follow && merr == nil && meta.NumPending == 0 {
			return nil
		}
	}
}

// Started tells whoever listens (the portal) that a daemon has begun job id. It is a hint,
// not stored: a listener that misses it learns of the job from its result.
func (q *Queue) Started(id string) {
	if job.ValidID(id) == nil {
		q.nc.Publish(q.o.Prefix+".started."+id, nil)
	}
}

// Starts calls fn with the id of every job a daemon begins from now on (Started), until ctx
// is done.
func (q *Queue) Starts(ctx context.Context, fn func(id string)) error {
	prefix := q.o.Prefix + ".started."
	sub, err := q.nc.Subscribe(prefix+">", func(m *nats.Msg) { fn(strings.TrimPrefix(m.Subject, prefix)) })
	if err != nil {
		return fmt.Errorf("queue: starts: %w", err)
	}
	<-ctx.Done()
	sub.Unsubscribe()
	return ctx.Err()
}
