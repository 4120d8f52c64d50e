// Package queue is the judge's transport: a JetStream work queue of jobs shared by every
// daemon, a results stream that keeps the last result of each job, the five object stores
// the Bucket constants name (build artifacts, replays, toolchain images, the portal's sources,
// added games) and the key-value buckets its callers open (KeyValue: the contests' records,
// the games' catalog). It moves bytes: jobs and results are opaque to it, named by the id the
// caller gives.
//
// Delivery is at least once. A job goes to one daemon at a time; one that is not acked within
// AckWait (a crashed daemon, a lost connection) is delivered again, up to MaxDeliver times.
// Both jobs and results carry a de-duplication id, so a publish retried after a lost
// acknowledgement, or a result published again by a redelivered job, is stored once.
//
// With no URL the queue embeds a NATS server with JetStream in the process, so a single
// machine needs nothing else; other processes (more daemons, the submit and results
// commands) connect to it by its URL.
//
// The administration of those stores - what they hold, their backup, what ages out of them -
// is apart, on Admin (q.Admin()): the transport is what daemons, tournaments and the portal
// use; judge store and judge serve's housekeeping use both.
package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Object store buckets, as PutObject and GetObject name them.
const (
	BucketArtifacts = "artifacts"
	BucketReplays   = "replays"
	// BucketImages holds archives of the toolchain images (`judge images publish`), for
	// daemons that lack them (images.source: nats).
	BucketImages = "images"
	// BucketSources holds the sources the portal was given: submissions and house bots.
	BucketSources = "sources"
	// BucketGames holds the games organisers added (judge/game/catalog), each version under
	// its content hash.
	BucketGames = "games"
)

// ErrClosed is returned by calls on a Queue after Close.
var ErrClosed = errors.New("queue: closed")

// ErrReadOnly is returned by calls that would write to a Queue opened with ReadOnly.
var ErrReadOnly = errors.New("queue: opened read-only")

const (
	defaultPrefix      = "judge"
	defaultDedupWindow = 24 * time.Hour

	// maxAckPending caps jobs out at once across all daemons. Each worker holds one job at
	// a time, so this is a ceiling on workers (a daemon has one per core; plus jobs in flight
	// to a cancelled Next), not a batch size; it only needs to be comfortably large.
	maxAckPending = 4096

	// reconnectWait is short because the usual server is on the same machine or network:
	// a restarted server should see its clients back within a second, not the client's
	// default two.
	reconnectWait = time.Second
	// pingInterval detects a half-open connection (a server host that vanished without a
	// reset) in about a minute instead of the client's default several minutes, after which
	// the reconnect loop takes over.
	pingInterval = 20 * time.Second
	// drainTimeout bounds Close: draining only flushes what is already in flight.
	drainTimeout = 10 * time.Second
	// connectWait is how long Open waits for a NATS server that refuses connections
	// (Options.WaitForServer): one restarting is back within seconds.
	connectWait = 10 * time.Second
	// setupTimeout bounds creating the streams, consumer and buckets when the caller's
	// context has no deadline; setupAttemptTimeout bounds one attempt.
	setupTimeout        = 30 * time.Second
	clusterSetupTimeout = 2 * time.Minute
	setupAttemptTimeout = 5 * time.Second
)

// Queue is a connection to the judge's streams and object stores. It is safe for concurrent
// use.
type Queue struct {
	o   Options
	log *slog.Logger
	url string
	srv *embeddedServer // the embedded server, when this Queue started one
	// srvMu guards srv, which mend replaces; stopMend ends mend, which closes mended.
	srvMu    sync.Mutex
	stopMend chan struct{}
	mended   chan struct{}
	nc       *nats.Conn
	js       jetstream.JetStream

	jobsStream    string
	resultsStream string
	jobsSubjects  []string // by Lane
	resultsPrefix string   // subject prefix of results, "judge.results."
	buckets       map[string]string

	// mu guards the handles setup replaces when it runs again from Next.
	mu        sync.Mutex
	consumers []jetstream.Consumer // by Lane
	results   jetstream.Stream
	objects   map[string]jetstream.ObjectStore
	// swept is, by stream and filter, the sequence before which ExpireResults or ExpireKeys
	// has deleted all it will (sweep): what is left there is kept whatever its age.
	swept map[string]uint64

	closing   atomic.Bool
	closed    chan struct{} // closed by the connection's closed handler
	closeOnce sync.Once
	closeErr  error
}

// Open connects to the NATS server (starting an embedded one when o.URL is empty) and
// creates or updates the streams, the shared consumer and the object stores, so a fresh
// server and one left by an older version both end up as this version expects. The
// connection then reconnects forever: a daemon outlives server restarts.
func Open(ctx context.Context, o Options) (*Queue, error) {
	if o.Listen == "" {
		o.Listen = DefaultListen
	}
	if o.Prefix == "" {
		o.Prefix = defaultPrefix
	}
	if o.AckWait <= 0 {
		o.AckWait = DefaultAckWait
	}
	if o.MaxDeliver <= 0 {
		o.MaxDeliver = DefaultMaxDeliver
	}
	if o.DedupWindow <= 0 {
		o.DedupWindow = defaultDedupWindow
	}
	if o.Replicas == 0 {
		o.Replicas = DefaultReplicas
	}
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if !prefixRE.MatchString(o.Prefix) {
		return nil, fmt.Errorf("queue: prefix %q: only letters, digits, '-' and '_' are allowed", o.Prefix)
	}
	q := &Queue{
		o:             o,
		log:           o.Logger,
		url:           o.URL,
		jobsStream:    strings.ToUpper(o.Prefix) + "_JOBS",
		resultsStream: strings.ToUpper(o.Prefix) + "_RESULTS",
		resultsPrefix: o.Prefix + ".results.",
		buckets: map[string]string{
			BucketArtifacts: o.Prefix + "-" + BucketArtifacts,
			BucketReplays:   o.Prefix + "-" + BucketReplays,
			BucketImages:    o.Prefix + "-" + BucketImages,
			BucketSources:   o.Prefix + "-" + BucketSources,
			BucketGames:     o.Prefix + "-" + BucketGames,
		},
		objects: map[string]jetstream.ObjectStore{},
		closed:  make(chan struct{}),
	}
	for l := range lanes {
		q.jobsSubjects = append(q.jobsSubjects, l.subject(o.Prefix))
	}
	if o.InProcess && o.URL != "" {
		return nil, fmt.Errorf("queue: InProcess is for an embedded server, and a URL (%s) is set", o.URL)
	}
	if o.ReadOnly && o.URL == "" {
		if err := readableStore(o.StoreDir); err != nil {
			return nil, err
		}
	}
	if q.url == "" {
		if len(o.Cluster.Replaces) > 0 {
			if err := lostForGood(ctx, o, q.log); err != nil {
				return nil, err
			}
		}
		srv, err := startServer(o, q.log)
		if err != nil {
			return nil, err
		}
		q.srv = srv
		if !o.InProcess {
			q.url = srv.ClientURL()
		}
	}
	if err := q.connect(ctx); err != nil {
		q.shutdownServer()
		return nil, err
	}
	if o.bare {
		return q, nil
	}
	if err := q.setup(ctx); err != nil {
		q.nc.Close()
		q.shutdownServer()
		return nil, err
	}
	if len(o.Cluster.Replaces) > 0 && q.srv != nil {
		if err := q.replace(ctx, o.Cluster.Replaces); err != nil {
			q.nc.Close()
			q.shutdownServer()
			return nil, err
		}
	}
	if q.srv != nil && !o.InProcess {
		q.stopMend, q.mended = make(chan struct{}), make(chan struct{})
		go q.mend()
	}
	return q, nil
}

// HasStore reports whether dir holds an embedded server's store (a data directory's "nats").
func HasStore(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, server.JetStreamStoreDir))
	return err == nil && fi.IsDir()
}

// readableStore checks that a server started read-only on dir finds a store it can serve
// as it is: one that exists (else the server would make a new one), and not a cluster
// node's, whose streams a lone server would load as its own and rewrite.
func readableStore(dir string) error {
	if dir == "" {
		return fmt.Errorf("queue: embedded server: StoreDir is required")
	}
	if !HasStore(dir) {
		return fmt.Errorf("queue: %s holds no NATS store (no %s directory in it)", dir, server.JetStreamStoreDir)
	}
	if _, err := os.Stat(filepath.Join(dir, server.JetStreamStoreDir, server.DEFAULT_SYSTEM_ACCOUNT, "_js_", "_meta_")); err == nil {
		return fmt.Errorf("queue: %s is the store of a node of a NATS cluster: read it through the cluster (start that node's judge serve, or set nats.url to a node), not alone", dir)
	}
	return nil
}

func (q *Queue) connect(ctx context.Context) error {
	url := q.url
	var inProcess []nats.Option
	if q.o.InProcess {
		url = q.srv.ClientURL() // not dialled: the connection is made in process
		inProcess = append(inProcess, nats.InProcessServer(q.srv))
	}
	opts := append(inProcess,
		nats.Name("judge"),
		// The servers of a cluster are tried in the order nats.url lists them: each
		// machine lists its nearest first.
		nats.DontRandomize(),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(reconnectWait),
		nats.PingInterval(pingInterval),
		nats.DrainTimeout(drainTimeout),
		// No buffering while disconnected: a publish or pull request then fails at once
		// instead of being sent late, after its caller gave up on it. A late pull request
		// would hand a job to an inbox nobody reads (held until AckWait); a late publish
		// would make the caller's timeout a lie. Callers retry instead (see publish).
		nats.ReconnectBufSize(-1),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if q.closing.Load() {
				return
			}
			q.log.Warn("queue: disconnected from NATS, reconnecting", "url", q.url, "err", err)
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			q.log.Info("queue: reconnected to NATS", "url", nc.ConnectedUrl())
		}),
		nats.ClosedHandler(func(*nats.Conn) { close(q.closed) }),
		nats.ErrorHandler(func(_ *nats.Conn, sub *nats.Subscription, err error) {
			subject := ""
			if sub != nil {
				subject = sub.Subject
			}
			q.log.Error("queue: NATS error", "subject", subject, "err", err)
		}),
	)
	nc, err := nats.Connect(url, opts...)
	if errors.Is(err, nats.ErrNoServers) && q.srv == nil && q.o.WaitForServer {
		q.log.Warn("queue: no NATS server answers; waiting for one", "url", q.url, "up_to", connectWait)
		for deadline := time.Now().Add(connectWait); errors.Is(err, nats.ErrNoServers) && time.Now().Before(deadline); {
			if sleep(ctx, 250*time.Millisecond) != nil {
				break
			}
			nc, err = nats.Connect(url, opts...)
		}
	}
	if err != nil {
		return fmt.Errorf("queue: connect to %s: %w", q.where(), err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return fmt.Errorf("queue: jetstream: %w", err)
	}
	q.nc, q.js = nc, js
	return nil
}

// Close drains the connection (what is in flight is flushed; a job delivered and not acked
// goes back to the queue after AckWait) and shuts the embedded server down if this Queue
// started one. Calling it again returns the first call's result.
func (q *Queue) Close() error {
	q.closeOnce.Do(func() {
		q.closing.Store(true)
		if err := q.nc.Drain(); err != nil {
			// Draining needs a live connection; a disconnected one has nothing to flush.
			q.nc.Close()
		}
		select {
		case <-q.closed:
		case <-time.After(drainTimeout + time.Second):
			q.nc.Close()
			q.closeErr = fmt.Errorf("queue: close: drain did not finish in %s", drainTimeout)
		}
		q.shutdownServer()
	})
	return q.closeErr
}

func (q *Queue) shutdownServer() {
	if q.stopMend != nil {
		close(q.stopMend)
		<-q.mended
	}
	q.srvMu.Lock()
	defer q.srvMu.Unlock()
	if q.srv == nil || q.srv.stopped {
		return
	}
	q.srv.shutdown()
	// Housekeeping, as the start is: an interactive command's output is its result.
	q.log.Debug("queue: embedded NATS server stopped", "url", q.url, "store_dir", q.o.StoreDir)
}

// URL is the server URL in use: Options.URL, or the embedded server's client URL, which is
// what other processes pass as their URL; "" for an InProcess server, which takes none.
func (q *Queue) URL() string { return q.url }

// StoreDir is the embedded server's store directory, "" when this Queue runs no server.
func (q *Queue) StoreDir() string {
	if q.srv == nil {
		return ""
	}
	return q.o.StoreDir
}

// closedErr reports ErrClosed once Close has started, so callers looping on the queue stop
// instead of retrying against a connection that will not come back.
func (q *Queue) closedErr() error {
	if q.closing.Load() || q.nc.IsClosed() {
		return ErrClosed
	}
	return nil
}
