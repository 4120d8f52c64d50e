// Package queue is the judge's transport: a JetStream work queue of jobs shared by every
// daemon, a results stream that keeps the last result of each job, and two object stores
// (build artifacts, replays). It moves bytes: jobs and results are opaque to it, named by the
// id the caller gives.
//
// Delivery is at least once. A job goes to one daemon at a time; one that is not acked within
// AckWait (a crashed daemon, a lost connection) is delivered again, up to MaxDeliver times.
// Both jobs and results carry a de-duplication id, so a publish retried after a lost
// acknowledgement, or a result published again by a redelivered job, is stored once.
//
// With no URL the queue embeds a NATS server with JetStream in the process, so a single
// machine needs nothing else; other processes (more daemons, the submit and results
// commands) connect to it by its URL.
package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/botjudge/judge/config/value"
)

// Options configure the queue. Zero values get the defaults noted. The tagged fields are
// the configuration's nats section; the others are set by the command (AckWait and
// MaxDeliver from serve.ack_wait and serve.max_deliver).
type Options struct {
	// URL is the NATS server to connect to; "" starts an embedded server.
	URL string `mapstructure:"url"`
	// Listen is the embedded server's host:port, default "127.0.0.1:4222"; port -1 (or 0)
	// picks a free port, which URL then reports.
	Listen string `mapstructure:"listen"`
	// StoreDir is the embedded server's JetStream storage directory; required when embedded,
	// and what survives a restart.
	StoreDir string `mapstructure:"store"`
	// Prefix names everything the queue creates, default "judge": streams JUDGE_JOBS and
	// JUDGE_RESULTS, subjects judge.jobs and judge.results.<id>, object stores
	// judge-artifacts, judge-replays and judge-images. Letters, digits, '-' and '_' only, since it is part
	// of stream, subject and bucket names. The consumer is "judges" whatever the prefix.
	Prefix string `mapstructure:"-"`
	// AckWait is how long a delivered job may go without Ack or InProgress before it is
	// delivered again, default 60s. It is a setting of the shared consumer: the last Open
	// wins, so every daemon should use the same value.
	AckWait time.Duration `mapstructure:"-"`
	// MaxDeliver is how many times a job is delivered at most, default 5. Like AckWait, it
	// is set on the shared consumer.
	MaxDeliver int `mapstructure:"-"`
	// DedupWindow is the jobs stream's duplicate window, default 24h: a job id submitted
	// again within it is dropped. It also de-duplicates results.
	DedupWindow time.Duration `mapstructure:"-"`
	// ResultsMaxAge is how long the results of test and ladder jobs are kept, 0 forever. As
	// with ReplaysMaxAge, a Queue deletes nothing by itself: judge serve runs ExpireResults
	// with it every hour. The main lane's results and those that record no lane are kept
	// whatever it is.
	ResultsMaxAge time.Duration `mapstructure:"results_max_age"`
	// Replicas is how many servers of a JetStream cluster keep each stream and object
	// store, default 1 (DefaultReplicas): a single server. With 3, losing any one server
	// loses nothing. A stream that exists with fewer is updated, and the change logged; a
	// server that cannot make the change (not clustered, too few servers) is an error saying
	// so, never a stream silently kept as it was. One with more keeps them: a command run
	// with the default must not take a cluster's replicas away.
	Replicas int `mapstructure:"replicas"`
	// ReplaysMaxAge is how long the replays of test and ladder matches are kept, 0 forever.
	// A Queue deletes nothing by itself: judge serve runs ExpireReplays with it every hour.
	// The main lane's replays (official rounds, tournaments, validations) and those that
	// record no lane are kept whatever it is: standings and results point at them.
	ReplaysMaxAge time.Duration `mapstructure:"replays_max_age"`
	// ArtifactsMaxAge is how long the compiled bots of the shared build cache are kept, 0
	// forever. Like ReplaysMaxAge, judge serve runs ExpireArtifacts with it every hour.
	ArtifactsMaxAge time.Duration `mapstructure:"artifacts_max_age"`
	// ReplaysMaxBytes, ResultsMaxBytes and PortalMaxBytes bound the replays, the results and
	// the portal's key-value bucket, 0 without a bound: beside the ages, judge serve trims
	// each store over its bound every hour (Trim), the oldest test and ladder matches' entries
	// first, so that a ladder faster than expected cannot fill the disk within the ages.
	// What an official round, a tournament, a build or a validation stored is never deleted
	// for room.
	ReplaysMaxBytes value.Bytes `mapstructure:"replays_max_bytes"`
	ResultsMaxBytes value.Bytes `mapstructure:"results_max_bytes"`
	PortalMaxBytes  value.Bytes `mapstructure:"portal_max_bytes"`
	// ServerName names the embedded server, default its listen address; every server of a
	// cluster needs a name of its own.
	ServerName string `mapstructure:"server_name"`
	// Cluster, when its Listen is set, makes the embedded server a node of a NATS cluster:
	// several judge machines then hold the queue together, with no NATS deployment of
	// their own.
	Cluster Cluster `mapstructure:"cluster"`
	// InProcess makes the embedded server take no TCP clients: only this Queue reaches it.
	// A reader of a store (`judge view` of a data directory) needs no port, and one that
	// opened none cannot clash with a `judge serve` listening on it.
	InProcess bool `mapstructure:"-"`
	// ReadOnly opens what exists and creates or changes nothing: no stream, consumer or
	// object store is created or updated, and Submit, PublishResult, PutObject and Next
	// return ErrReadOnly. The results stream must exist; a missing object store holds no
	// objects.
	ReadOnly bool `mapstructure:"-"`
	// Logger receives connection events and the embedded server's log, default
	// slog.Default().
	Logger *slog.Logger `mapstructure:"-"`
}

// Cluster is the embedded server's part in a NATS cluster.
type Cluster struct {
	// Name is the cluster's name, the same on every node, default "judge".
	Name string `mapstructure:"name"`
	// Listen is the host:port the node takes routes from the other nodes on.
	Listen string `mapstructure:"listen"`
	// Routes are the other nodes' cluster addresses ("nats-route://host:port" or
	// "host:port"); a node may list itself too, so that every node has the same list.
	Routes []string `mapstructure:"routes"`
	// Replaces names servers lost for good (server_name) whose place this node takes: once
	// it has joined, it removes them from the cluster's peers (see replace.go).
	Replaces []string `mapstructure:"replaces"`
}

// Validate checks the options that are configuration (the tagged ones); a zero value is
// its default. Errors name the field by its key (value.KeyError).
func (o Options) Validate() error {
	var errs []error
	if o.Listen != "" {
		errs = append(errs, hostPort("listen", o.Listen))
	}
	if o.ReplaysMaxAge < 0 {
		errs = append(errs, value.Invalid("replays_max_age", "must be 0 (keep them forever) or a duration such as 168h (got %v)", o.ReplaysMaxAge))
	}
	if o.ResultsMaxAge != 0 && o.ResultsMaxAge < defaultDedupWindow {
		errs = append(errs, value.Invalid("results_max_age", "must be 0 (keep them forever) or at least %v, the time in which a job id submitted again is dropped as a duplicate: its result must outlive it (got %v)",
			defaultDedupWindow, o.ResultsMaxAge))
	}
	errs = append(errs, value.NotNegative("replays_max_bytes", o.ReplaysMaxBytes), value.NotNegative("results_max_bytes", o.ResultsMaxBytes),
		value.NotNegative("portal_max_bytes", o.PortalMaxBytes))
	if o.ArtifactsMaxAge < 0 {
		errs = append(errs, value.Invalid("artifacts_max_age", "must be 0 (keep them forever) or a duration such as 720h (got %v)", o.ArtifactsMaxAge))
	}
	if o.Replicas < 0 || o.Replicas > 5 {
		errs = append(errs, value.Invalid("replicas", "must be 1 to 5: JetStream keeps at most 5 (got %d)", o.Replicas))
	}
	c := o.Cluster
	switch {
	case c.Listen != "":
		errs = append(errs, hostPort("cluster.listen", c.Listen))
		for _, r := range c.Routes {
			if err := hostPort("cluster.routes", strings.TrimPrefix(r, "nats-route://")); err != nil {
				errs = append(errs, err)
			}
		}
	case len(c.Routes) > 0:
		errs = append(errs, value.Invalid("cluster.routes", "need cluster.listen, this node's own cluster address"))
	}
	if len(c.Replaces) > 0 && c.Listen == "" {
		errs = append(errs, value.Invalid("cluster.replaces", "need cluster.listen: only a node of a cluster takes a lost node's place"))
	}
	for _, name := range c.Replaces {
		switch {
		case strings.TrimSpace(name) == "":
			errs = append(errs, value.Invalid("cluster.replaces", "a server name is empty"))
		case name == o.ServerName:
			errs = append(errs, value.Invalid("cluster.replaces", "%q is this node's own name: a node that replaces a lost one has a new name", name))
		}
	}
	return errors.Join(errs...)
}

// hostPort is an error unless addr is host:port with a port number (0 picks one).
func hostPort(key, addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		var n int
		if n, err = strconv.Atoi(port); err == nil && (n < -1 || n > 65535) {
			err = errors.New("port out of range")
		}
	}
	if err != nil {
		return value.Invalid(key, "want host:port (got %q)", addr)
	}
	return nil
}

// Object store buckets, as PutObject and GetObject name them.
const (
	BucketArtifacts = "artifacts"
	BucketReplays   = "replays"
	// BucketImages holds archives of the toolchain images (`judge images publish`), for
	// daemons that lack them (images.source: nats).
	BucketImages = "images"
	// BucketSources holds the sources the portal was given: submissions and house bots.
	BucketSources = "sources"
)

// ConsumerName is the durable pull consumer every daemon shares, so that each job goes to
// one of them: the consumer of LaneMain. The other lanes' consumers are named after it
// (Lane.consumer).
const ConsumerName = "judges"

// Lane is a priority class of jobs: a daemon takes a job of a lane only when no earlier
// lane has one waiting.
type Lane int

// The lanes, first to last.
const (
	LaneMain   Lane = iota // official rounds, tournaments, builds and validations: judge.jobs
	LaneTest               // contestants' test matches: judge.jobs.low
	LaneLadder             // the ladder's matches, which fill what is left: judge.jobs.ladder
	lanes
)

// subject is the lane's jobs subject under prefix.
func (l Lane) subject(prefix string) string {
	return prefix + [...]string{".jobs", ".jobs.low", ".jobs.ladder"}[l]
}

// String is the lane's name as a replay records it (MetaLane): main, test or ladder.
func (l Lane) String() string {
	if l < 0 || l >= lanes {
		return fmt.Sprintf("lane(%d)", int(l))
	}
	return [...]string{"main", "test", "ladder"}[l]
}

// LaneOf is the lane of a job delivered on subject (Delivery.Subject), whatever the prefix;
// false for a subject that is no lane's.
func LaneOf(subject string) (Lane, bool) {
	prefix, _, ok := strings.Cut(subject, ".") // a prefix has no dots
	for l := range lanes {
		if ok && l.subject(prefix) == subject {
			return l, true
		}
	}
	return 0, false
}

// consumer is the name of the daemons' shared consumer of the lane.
func (l Lane) consumer() string {
	return ConsumerName + [...]string{"", "-low", "-ladder"}[l]
}

// ErrClosed is returned by calls on a Queue after Close.
var ErrClosed = errors.New("queue: closed")

// ErrReadOnly is returned by calls that would write to a Queue opened with ReadOnly.
var ErrReadOnly = errors.New("queue: opened read-only")

// The defaults of Options, which the judge's configuration starts from.
const (
	DefaultListen     = "127.0.0.1:4222"
	DefaultAckWait    = 60 * time.Second
	DefaultMaxDeliver = 5
	DefaultReplicas   = 1
	DefaultCluster    = "judge"
	// DefaultReplaysMaxAge keeps a week of test and ladder replays: at most 26 GiB for a judge
	// that stores a 46 KB replay (Amazes) every second (README, "The daemon").
	DefaultReplaysMaxAge = 7 * 24 * time.Hour
	// DefaultArtifactsMaxAge keeps a shared compiled bot 30 days from its storing: a daemon
	// that needs an older one compiles it again (README, "The daemon").
	DefaultArtifactsMaxAge = 30 * 24 * time.Hour
	// DefaultResultsMaxAge keeps 30 days of test and ladder results: at most 5 GiB for a
	// judge that publishes a 2 KB result every second (README, "The daemon").
	DefaultResultsMaxAge = 30 * 24 * time.Hour
	// DefaultReplaysMaxBytes, DefaultResultsMaxBytes and DefaultPortalMaxBytes are the
	// stores' bounds: the ages' own at a match a second (above), for a ladder far faster than
	// that; the portal's bucket holds a copy of each of its matches' results.
	DefaultReplaysMaxBytes = 26 << 30
	DefaultResultsMaxBytes = 5 << 30
	DefaultPortalMaxBytes  = 5 << 30
)

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
	// setupTimeout bounds creating the streams, consumer and buckets when the caller's
	// context has no deadline; setupAttemptTimeout bounds one attempt.
	setupTimeout        = 30 * time.Second
	clusterSetupTimeout = 2 * time.Minute
	setupAttemptTimeout = 5 * time.Second
)

var prefixRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

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
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	if o.Replicas == 0 {
		o.Replicas = DefaultReplicas
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
			if err := lostForGood(o, q.log); err != nil {
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
	if err := q.connect(); err != nil {
		q.shutdownServer()
		return nil, err
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

func (q *Queue) connect() error {
	url := q.url
	var inProcess []nats.Option
	if q.o.InProcess {
		url = q.srv.ClientURL() // not dialled: the connection is made in process
		inProcess = append(inProcess, nats.InProcessServer(q.srv))
	}
	nc, err := nats.Connect(url, append(inProcess,
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
	)...)
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
