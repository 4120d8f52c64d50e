package queue

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// setup creates or updates everything the queue uses. It is idempotent, so it runs on every
// Open (several daemons may race here; identical configurations make that harmless) and again
// when the consumer turns out to be gone. A cluster that is still electing its leader drops
// requests unanswered, so each attempt is short and setup tries again until ctx is done.
func (q *Queue) setup(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		timeout := setupTimeout
		if q.o.Cluster.Listen != "" {
			timeout = clusterSetupTimeout // the other machines are starting too
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	for {
		actx, cancel := context.WithTimeout(ctx, setupAttemptTimeout)
		var err error
		if q.o.ReadOnly {
			err = q.lookUp(actx)
		} else {
			err = q.setupOnce(actx)
		}
		cancel()
		if err == nil || ctx.Err() != nil || errors.Is(err, jetstream.ErrStreamNotFound) {
			return err
		}
		q.log.Debug("queue: setting up the streams, again", "err", err)
		select {
		case <-ctx.Done():
			return err
		case <-time.After(retryMin):
		}
	}
}

func (q *Queue) setupOnce(ctx context.Context) error {
	_, err := q.stream(ctx, jetstream.StreamConfig{
		Name:        q.jobsStream,
		Description: "judge jobs: a work queue, each job taken by one daemon",
		Subjects:    q.jobsSubjects,
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		Duplicates:  q.o.DedupWindow,
	})
	if err != nil {
		return err
	}
	results, err := q.stream(ctx, jetstream.StreamConfig{
		Name:              q.resultsStream,
		Description:       "judge results: the last result of each job id",
		Subjects:          []string{q.resultsPrefix + ">"},
		Retention:         jetstream.LimitsPolicy,
		Storage:           jetstream.FileStorage,
		MaxMsgsPerSubject: 1,
		Duplicates:        q.o.DedupWindow,
	})
	if err != nil {
		return err
	}
	var consumers []jetstream.Consumer
	for l := range lanes {
		c, err := q.jobsConsumer(ctx, l.consumer(), "judge daemons; each pulls one job at a time, of this lane when no earlier lane has one", q.jobsSubjects[l])
		if err != nil {
			return err
		}
		consumers = append(consumers, c)
	}
	objects := map[string]jetstream.ObjectStore{}
	for name, bucket := range q.buckets {
		replicas := q.o.Replicas
		if obs, err := q.js.ObjectStore(ctx, bucket); err == nil {
			if st, err := obs.Status(ctx); err == nil {
				replicas = q.replicas("object store "+bucket, st.Replicas())
			}
		}
		obs, err := q.js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
			Bucket:   bucket,
			Storage:  jetstream.FileStorage,
			Replicas: replicas,
		})
		if err != nil {
			return q.replicasErr("object store "+bucket, err)
		}
		objects[name] = obs
	}
	q.mu.Lock()
	q.consumers = consumers
	q.results = results
	q.objects = objects
	q.mu.Unlock()
	return nil
}

// jobsConsumer creates or updates the daemons' shared consumer name of the jobs of subject.
func (q *Queue) jobsConsumer(ctx context.Context, name, description, subject string) (jetstream.Consumer, error) {
	c, err := q.js.CreateOrUpdateConsumer(ctx, q.jobsStream, jetstream.ConsumerConfig{
		Durable:       name,
		Description:   description,
		DeliverPolicy: jetstream.DeliverAllPolicy,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       q.o.AckWait,
		MaxDeliver:    q.o.MaxDeliver,
		MaxAckPending: maxAckPending,
		FilterSubject: subject,
	})
	if err != nil {
		return nil, fmt.Errorf("queue: consumer %s on %s: %w", name, q.jobsStream, err)
	}
	return c, nil
}

// lookUp finds the results stream and the object stores that exist, for a Queue opened
// ReadOnly: nothing is created or changed.
func (q *Queue) lookUp(ctx context.Context) error {
	results, err := q.js.Stream(ctx, q.resultsStream)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return fmt.Errorf("queue: %s has no results stream %s: no judge has published a result there: %w", q.where(), q.resultsStream, err)
	}
	if err != nil {
		return fmt.Errorf("queue: stream %s: %w", q.resultsStream, err)
	}
	objects := map[string]jetstream.ObjectStore{}
	for name, bucket := range q.buckets {
		obs, err := q.js.ObjectStore(ctx, bucket)
		if errors.Is(err, jetstream.ErrBucketNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("queue: object store %s: %w", bucket, err)
		}
		objects[name] = obs
	}
	q.mu.Lock()
	q.results = results
	q.objects = objects
	q.mu.Unlock()
	return nil
}

// where names the server for messages: its URL, or the store of an in-process one.
func (q *Queue) where() string {
	if q.url == "" && q.srv != nil {
		return "the in-process NATS server on " + q.o.StoreDir
	}
	return q.url
}

// stream creates or updates a stream with the queue's replicas.
func (q *Queue) stream(ctx context.Context, cfg jetstream.StreamConfig) (jetstream.Stream, error) {
	cfg.Replicas = q.o.Replicas
	if s, err := q.js.Stream(ctx, cfg.Name); err == nil {
		cfg.Replicas = q.replicas("stream "+cfg.Name, s.CachedInfo().Config.Replicas)
	}
	s, err := q.js.CreateOrUpdateStream(ctx, cfg)
	if err != nil {
		return nil, q.replicasErr("stream "+cfg.Name, err)
	}
	return s, nil
}

// replicas is the number of replicas to give what, which exists with had: the queue's when
// that is more (the change is logged), else had. A queue never takes replicas away: a
// command run with the default of one must not strip a cluster's streams of theirs.
func (q *Queue) replicas(what string, had int) int {
	switch {
	case had < q.o.Replicas:
		q.log.Warn("queue: adding replicas to "+what, "had", had, "replicas", q.o.Replicas)
		return q.o.Replicas
	case had > q.o.Replicas && q.o.Replicas > 1:
		q.log.Warn("queue: "+what+" has more replicas than nats.replicas asks: kept", "has", had, "replicas", q.o.Replicas)
	}
	return had
}

// replicasErr explains a failure to create or update what: with more than one replica, the
// usual cause is a server that is not in a JetStream cluster of that many servers.
func (q *Queue) replicasErr(what string, err error) error {
	if q.o.Replicas > 1 {
		return fmt.Errorf("queue: %s with %d replicas (nats.replicas): %w; the server must be in a JetStream cluster of at least %d servers, all up",
			what, q.o.Replicas, err, q.o.Replicas)
	}
	return fmt.Errorf("queue: %s: %w", what, err)
}
