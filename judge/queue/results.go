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

// PublishResult stores the result of job id on judge.results.<id>. Its de-duplication id is
// "result-"+id, so a job judged twice (redelivered after a daemon lost its connection before
// acking) keeps its first result within the dedup window. Retries like Submit.
func (q *Queue) PublishResult(ctx context.Context, id string, result []byte) error {
	if err := job.ValidID(id); err != nil {
		return err
	}
	ack, err := q.publish(ctx, "publish result "+id, q.resultsPrefix+id, result,
		jetstream.WithMsgID("result-"+id), jetstream.WithExpectStream(q.resultsStream))
	if err == nil && ack.Duplicate {
		// Another daemon judged the job too (this one lost its connection past AckWait): the
		// stored result stays the only one.
		q.log.Info("queue: a result of this job is already stored: it is kept, this one dropped", "job", id)
	}
	return err
}

// Result returns the stored result of job id, and false when there is none (not judged yet,
// or expired after ResultsMaxAge).
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
	if err != nil {
		return nil, false, fmt.Errorf("queue: result %s: %w", id, err)
	}
	return m.Data, true, nil
}

// Results calls fn with every stored result, oldest first: of every job when id is "", else
// of that one job. Without follow it returns once the stored ones are done; with follow it
// goes on with results published later until ctx is done, and then returns ctx.Err(). An
// error from fn stops it and is returned as is.
func (q *Queue) Results(ctx context.Context, id string, follow bool, fn func(id string, result []byte) error) error {
	filter := q.resultsPrefix + ">"
	if id != "" {
		if err := job.ValidID(id); err != nil {
			return err
		}
		filter = q.resultsPrefix + id
	}
	// An ordered consumer is ephemeral and recreated by the client after a reconnect, so a
	// reader leaves nothing behind on the server and follows across server restarts.
	oc, err := q.js.OrderedConsumer(ctx, q.resultsStream, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{filter},
		DeliverPolicy:  jetstream.DeliverAllPolicy,
	})
	if err != nil {
		return fmt.Errorf("queue: results: %w", err)
	}
	if info := oc.CachedInfo(); !follow && info != nil && info.NumPending == 0 {
		return nil
	}
	it, err := oc.Messages()
	if err != nil {
		return fmt.Errorf("queue: results: %w", err)
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
				info, ierr := oc.Info(ctx)
				if idle++; ierr == nil && info.NumPending == 0 || idle >= resultsIdleChecks {
					return nil
				}
				continue
			}
			return fmt.Errorf("queue: results: %w", err)
		}
		idle = 0
		if err := fn(strings.TrimPrefix(m.Subject(), q.resultsPrefix), m.Data()); err != nil {
			return err
		}
		if !follow {
			if meta, err := m.Metadata(); err == nil && meta.NumPending == 0 {
				return nil
			}
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
