package queue

import (
	"cmp"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// serverReadyTimeout bounds the embedded server's start: recovering a large JetStream store
// takes a while, but a server that is not up by then is not coming up (a port in use, a
// locked store).
const serverReadyTimeout = 30 * time.Second

// maxPayload is the embedded server's largest message. Jobs carry their sources inline, and
// the largest default job (SnakeCore's 8 players of build.source_limit, JSON-escaped) is over
// the 8 MiB NATS advises; 32 MiB is the most JetStream's file store takes in one record. The
// margin lets a job over the source limit reach a daemon, whose result names the limit.
const maxPayload = 32 << 20

// embeddedServer is a running embedded server and its hold on its store.
type embeddedServer struct {
	*server.Server
	lock *storeLock
	// writeErr receives when the server fails a write to its store (see mend).
	writeErr <-chan struct{}
	stopped  bool   // shut down by restartServer, whose start of the next one failed
	system   string // the password of this process's user of the system account (replace.go)
}

// shutdown stops the server and then lets its store go.
func (s *embeddedServer) shutdown() {
	s.Shutdown()
	s.WaitForShutdown()
	s.lock.release()
}

// serverOptions are the embedded server's options for o: JetStream storing in o.StoreDir,
// the client address, and the cluster.
func serverOptions(o Options) (*server.Options, error) {
	if o.StoreDir == "" {
		return nil, fmt.Errorf("queue: embedded server: StoreDir is required")
	}
	var host, portText string
	port := 0
	if o.InProcess {
		if o.Cluster.Listen != "" {
			return nil, fmt.Errorf("queue: embedded server: an in-process server cannot be a cluster node")
		}
		portText = "in-process" // in the server's name only
	} else {
		var err error
		host, portText, err = net.SplitHostPort(o.Listen)
		if err != nil {
			return nil, fmt.Errorf("queue: embedded server: listen address %q: %w", o.Listen, err)
		}
		port, err = strconv.Atoi(portText)
		if err != nil || port < -1 || port > 65535 {
			return nil, fmt.Errorf("queue: embedded server: listen address %q: bad port", o.Listen)
		}
		if port == 0 {
			// The server reads 0 as "the default port"; callers asking for 0 mean "any port",
			// which the server spells -1.
			port = server.RANDOM_PORT
		}
	}
	opts := &server.Options{
		ServerName: o.ServerName,
		Host:       host,
		Port:       port,
		DontListen: o.InProcess,
		JetStream:  true,
		StoreDir:   o.StoreDir,
		// The daemon owns the process's signals; the server must not exit or reload on them.
		NoSigs:                 true,
		DisableJetStreamBanner: true,
		MaxPayload:             maxPayload,
	}
	if opts.ServerName == "" {
		// Unique in a cluster of machines, and of servers on one machine (tests).
		hostname, _ := os.Hostname()
		opts.ServerName = cmp.Or(hostname, host) + ":" + portText
	}
	if err := clusterOptions(opts, o.Cluster); err != nil {
		return nil, err
	}
	return opts, nil
}

// startServer starts the embedded NATS server with JetStream storing in o.StoreDir and
// returns it once it accepts clients: on o.Listen, or, with o.InProcess, in this process only.
// The store is locked first: another server running on it is a *StoreInUseError.
func startServer(o Options, log *slog.Logger) (*embeddedServer, error) {
	opts, err := serverOptions(o)
	if err != nil {
		return nil, err
	}
	system := ""
	if len(o.Cluster.Replaces) > 0 {
		system = systemUser(opts)
	}
	lock, err := lockStore(o.StoreDir)
	if err != nil {
		return nil, err
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		lock.release()
		return nil, fmt.Errorf("queue: embedded server: %w", err)
	}
	sl := &serverLogger{log: log.With("component", "nats-server"), writeErr: make(chan struct{}, 1)}
	srv.SetLoggerV2(sl, false, false, false)
	srv.Start()
	where := o.Listen
	if o.InProcess {
		where = "(in process) of " + o.StoreDir
	}
	// Wait in short steps: a server that failed fatally (a port in use) never becomes ready,
	// and its fatal message is the answer, not a timeout.
	deadline := time.Now().Add(serverReadyTimeout)
	for !srv.ReadyForConnections(100 * time.Millisecond) {
		msg := sl.lastFatal()
		if msg == "" && time.Now().Before(deadline) {
			continue
		}
		srv.Shutdown()
		srv.WaitForShutdown()
		lock.release()
		if msg == "" {
			msg = fmt.Sprintf("not ready after %s", serverReadyTimeout)
		}
		return nil, fmt.Errorf("queue: embedded server %s: %s", where, msg)
	}
	url := ""
	if !o.InProcess {
		url = srv.ClientURL()
	}
	if err := lock.record(url); err != nil {
		srv.Shutdown()
		srv.WaitForShutdown()
		lock.release()
		return nil, err
	}
	// Housekeeping: `judge serve` says where it listens itself; an interactive command's
	// output is its result.
	log.Debug("queue: embedded NATS server started", "url", url, "store_dir", o.StoreDir)
	return &embeddedServer{Server: srv, lock: lock, writeErr: sl.writeErr, system: system}, nil
}

// clusterOptions makes the server a node of the cluster c, when c has a Listen address.
func clusterOptions(opts *server.Options, c Cluster) error {
	if c.Listen == "" {
		if len(c.Routes) > 0 {
			return fmt.Errorf("queue: embedded server: cluster routes without a cluster listen address")
		}
		return nil
	}
	host, portText, err := net.SplitHostPort(c.Listen)
	if err != nil {
		return fmt.Errorf("queue: embedded server: cluster listen address %q: %w", c.Listen, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port <= 0 || port > 65535 {
		return fmt.Errorf("queue: embedded server: cluster listen address %q: bad port", c.Listen)
	}
	opts.Cluster = server.ClusterOpts{Name: c.Name, Host: host, Port: port}
	if opts.Cluster.Name == "" {
		opts.Cluster.Name = DefaultCluster
	}
	var routes []string
	for _, r := range c.Routes {
		if !strings.Contains(r, "://") {
			r = "nats-route://" + r
		}
		routes = append(routes, r)
	}
	opts.Routes = server.RoutesFromStr(strings.Join(routes, ","))
	if len(routes) > 0 && len(opts.Routes) != len(routes) {
		return fmt.Errorf("queue: embedded server: cluster routes %q: not all are URLs", c.Routes)
	}
	return nil
}

// serverLogger routes the embedded server's log through slog. The server's notices (its
// start-up banner, JetStream recovery) are routine, so they go to Debug, as does the queue's
// own summary: `judge serve` says where it listens itself.
type serverLogger struct {
	log   *slog.Logger
	mu    sync.Mutex
	fatal string
	// writeErr receives (without blocking) at the server's report of a critical write error.
	writeErr chan struct{}
}

// lastFatal is the server's last fatal message: with a logger that does not exit, a failed
// listen shows up only here, and it is the best explanation for a server that never got ready.
func (l *serverLogger) lastFatal() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.fatal
}

func (l *serverLogger) Noticef(format string, v ...any) { l.log.Debug(fmt.Sprintf(format, v...)) }

func (l *serverLogger) Warnf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	if strings.HasPrefix(msg, "Maximum payloads over") {
		// maxPayload is above NATS's advice on purpose (its comment says why); a warning at
		// every start about a decision made once would teach organisers to ignore warnings.
		l.log.Debug(msg, "max_payload", maxPayload)
		return
	}
	l.log.Warn(msg)
}

func (l *serverLogger) Errorf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	l.log.Error(msg)
	if strings.Contains(msg, "critical write error") || strings.Contains(msg, "Critical write error") {
		select {
		case l.writeErr <- struct{}{}:
		default:
		}
	}
}
func (l *serverLogger) Debugf(format string, v ...any) { l.log.Debug(fmt.Sprintf(format, v...)) }
func (l *serverLogger) Tracef(format string, v ...any) {}

// Fatalf logs and remembers the message but does not exit: an embedded server must not take
// the daemon down with it.
func (l *serverLogger) Fatalf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	l.mu.Lock()
	l.fatal = msg
	l.mu.Unlock()
	l.log.Error(msg)
}
