package queue

import (
	"errors"
	"log/slog"
	"net"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/setting"
)

// Options configure the queue. Zero values get the defaults noted. The tagged fields are
// the configuration's nats section; the others are set by the command (Redelivery from
// the serve section, in config.Config.Queue).
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
	// Redelivery is when and how often the daemons' shared consumer delivers a job again.
	Redelivery `mapstructure:"-"`
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
	ReplaysMaxBytes setting.Bytes `mapstructure:"replays_max_bytes"`
	ResultsMaxBytes setting.Bytes `mapstructure:"results_max_bytes"`
	PortalMaxBytes  setting.Bytes `mapstructure:"portal_max_bytes"`
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
	// WaitForServer has Open wait up to 10 s for a server at URL that refuses connections
	// (one restarting: a rolling upgrade, the judge that embeds it started again) rather than
	// fail at once: for the commands that work through the queue, not those that only look
	// whether a judge runs.
	WaitForServer bool `mapstructure:"-"`
	// bare opens the server and creates nothing on it, not even to look: Restore's, which
	// puts the streams there itself.
	bare bool
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

// Redelivery is when and how often the daemons' shared consumer delivers a job again: the
// configuration's serve.ack_wait and serve.max_deliver (in the serve section, the daemons'
// operator's, but settings of the consumer every daemon shares: the last Open wins, so every
// daemon should use the same values).
type Redelivery struct {
	// AckWait is how long a delivered job may go without Ack or InProgress before it is
	// delivered again, default 60s (DefaultAckWait).
	AckWait time.Duration `mapstructure:"ack_wait"`
	// MaxDeliver is how many times a job is delivered at most, default 5 (DefaultMaxDeliver).
	MaxDeliver int `mapstructure:"max_deliver"`
}

// Validate checks d as configured: a job is redelivered no sooner than a second after its
// daemon went silent, and delivered at least once.
func (d Redelivery) Validate() error {
	var errs []error
	if d.AckWait < time.Second {
		errs = append(errs, setting.Invalid("ack_wait", "must be at least 1s (got %v)", d.AckWait))
	}
	return errors.Join(append(errs, setting.Positive("max_deliver", d.MaxDeliver))...)
}

// Validate checks the options that are configuration (the tagged ones), with their
// defaults filled in (as Open does, and the configuration's defaults are): a zero value that
// is a choice of its own (0 keeps forever, 0 bytes has no bound) is valid, one that means the
// default is not. Errors name the field by its key (setting.KeyError).
func (o Options) Validate() error {
	var errs []error
	if o.Listen != "" {
		errs = append(errs, hostPort("listen", o.Listen))
	}
	if o.ReplaysMaxAge < 0 {
		errs = append(errs, setting.Invalid("replays_max_age", "must be 0 (keep them forever) or a duration such as 168h (got %v)", o.ReplaysMaxAge))
	}
	if o.ResultsMaxAge != 0 && o.ResultsMaxAge < defaultDedupWindow {
		errs = append(errs, setting.Invalid("results_max_age", "must be 0 (keep them forever) or at least %v, the time in which a job id submitted again is dropped as a duplicate: its result must outlive it (got %v)",
			defaultDedupWindow, o.ResultsMaxAge))
	}
	errs = append(errs, setting.NotNegative("replays_max_bytes", o.ReplaysMaxBytes), setting.NotNegative("results_max_bytes", o.ResultsMaxBytes),
		setting.NotNegative("portal_max_bytes", o.PortalMaxBytes))
	if o.ArtifactsMaxAge < 0 {
		errs = append(errs, setting.Invalid("artifacts_max_age", "must be 0 (keep them forever) or a duration such as 720h (got %v)", o.ArtifactsMaxAge))
	}
	if o.Replicas < 1 || o.Replicas > 5 {
		errs = append(errs, setting.Invalid("replicas", "must be 1 to 5: JetStream keeps at most 5 (got %d)", o.Replicas))
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
		errs = append(errs, setting.Invalid("cluster.routes", "need cluster.listen, this node's own cluster address"))
	}
	if len(c.Replaces) > 0 && c.Listen == "" {
		errs = append(errs, setting.Invalid("cluster.replaces", "need cluster.listen: only a node of a cluster takes a lost node's place"))
	}
	for _, name := range c.Replaces {
		switch {
		case strings.TrimSpace(name) == "":
			errs = append(errs, setting.Invalid("cluster.replaces", "a server name is empty"))
		case name == o.ServerName:
			errs = append(errs, setting.Invalid("cluster.replaces", "%q is this node's own name: a node that replaces a lost one has a new name", name))
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
		return setting.Invalid(key, "want host:port (got %q)", addr)
	}
	return nil
}

// The defaults of Options, which the judge's configuration starts from.
const (
	DefaultListen     = "127.0.0.1:4222"
	DefaultAckWait    = 60 * time.Second
	DefaultMaxDeliver = 5
	DefaultReplicas   = 1
	DefaultCluster    = "judge"
	// DefaultReplaysMaxAge keeps a week of test and ladder replays: at most 26 GiB for a judge
	// that stores a 46 KB replay (Amazes) every second (docs/operations.md, "The daemon").
	DefaultReplaysMaxAge = 7 * 24 * time.Hour
	// DefaultArtifactsMaxAge keeps a shared compiled bot 30 days from its storing: a daemon
	// that needs an older one compiles it again (docs/operations.md, "The daemon").
	DefaultArtifactsMaxAge = 30 * 24 * time.Hour
	// DefaultResultsMaxAge keeps 30 days of test and ladder results: at most 5 GiB for a
	// judge that publishes a 2 KB result every second (docs/operations.md, "The daemon").
	DefaultResultsMaxAge = 30 * 24 * time.Hour
	// DefaultReplaysMaxBytes, DefaultResultsMaxBytes and DefaultPortalMaxBytes are the
	// stores' bounds: the ages' own at a match a second (above), for a ladder far faster than
	// that; the portal's bucket holds a copy of each of its matches' results.
	DefaultReplaysMaxBytes = 26 << 30
	DefaultResultsMaxBytes = 5 << 30
	DefaultPortalMaxBytes  = 5 << 30
)

var prefixRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
