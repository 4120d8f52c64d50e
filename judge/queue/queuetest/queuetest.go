// Package queuetest runs a real NATS JetStream cluster for tests: nodes in processes of their
// own (the judge's embedded server, judge/queue/queuetest/natsnode), which a test kills with
// SIGKILL and starts again, as machines that die and come back.
package queuetest

import (
	"bufio"
	"cmp"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Cluster is a running test cluster.
type Cluster struct {
	t     testing.TB
	bin   string
	nodes []*Node
	// common are the arguments every node takes (replicas, ack wait).
	common []string
	// Host is the address the nodes take clients on.
	Host string
}

// Node is one server of the cluster.
type Node struct {
	Name, Client, Route, Store string
	args                       []string

	mu  sync.Mutex
	cmd *exec.Cmd
	log *Buffer
}

// Options are a test cluster's.
type Options struct {
	// Nodes is the number of servers, default 3 (1: a server in no cluster); Replicas of each
	// stream, default Nodes.
	Nodes, Replicas int
	// Listen is the address the nodes take clients on, default 127.0.0.1; the address of
	// this machine's end of a veth pair lets a network namespace of the test's reach them.
	Listen string
	// AckWait is the jobs consumer's, which every node sets when it starts: the daemons'.
	AckWait time.Duration
}

// StartCluster starts a cluster. It fails the test when the cluster does not come up within a
// minute.
func StartCluster(t testing.TB, o Options) *Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("a NATS cluster of processes; skipped under -short")
	}
	_, file, _, _ := runtime.Caller(0)
	bin := filepath.Join(t.TempDir(), "natsnode")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(filepath.Dir(file), "natsnode")).CombinedOutput(); err != nil {
		t.Fatalf("building natsnode: %v\n%s", err, out)
	}
	n, listen := cmp.Or(o.Nodes, 3), cmp.Or(o.Listen, "127.0.0.1")
	replicas := cmp.Or(o.Replicas, n)
	c := &Cluster{t: t, bin: bin, Host: listen, common: []string{"-replicas", fmt.Sprint(replicas)}}
	if o.AckWait > 0 {
		c.common = append(c.common, "-ack-wait", o.AckWait.String())
	}
	ports := FreePorts(t, 2*n)
	clients, routes := ports[:n], ports[n:]
	var all []string
	for _, p := range routes {
		all = append(all, fmt.Sprintf("127.0.0.1:%d", p))
	}
	if n == 1 { // one node is a server of its own, as the embedded default is
		all = nil
	}
	for i := range n {
		c.nodes = append(c.nodes, c.node(clients[i], routes[i], all))
	}
	t.Cleanup(c.stop)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, nd := range c.nodes {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = c.start(nd) }()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// FreePorts are n loopback TCP ports free now, taken below the kernel's ephemeral range
// (ip_local_port_range): a port picked from ":0" is in that range, and a node's outgoing route
// connection can take it as its source port before the node meant to listen there does.
func FreePorts(t testing.TB, n int) []int {
	t.Helper()
	low := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if v, err := strconv.Atoi(f[0]); err == nil && v > 12000 {
				low = v
			}
		}
	}
	const base = 10000
	var ls []net.Listener
	var ports []int
	first := base + rand.IntN(low-base)
	for i := 0; len(ports) < n && i < low-base; i++ {
		p := base + (first-base+i)%(low-base)
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			continue // in use
		}
		ls = append(ls, l)
		ports = append(ports, p)
	}
	for _, l := range ls {
		l.Close()
	}
	if len(ports) < n {
		t.Fatalf("found %d free ports below %d, want %d", len(ports), low, n)
	}
	return ports
}

// FreeAddr is a loopback address no one listens on now, for a server's listen address.
func FreeAddr(t testing.TB) string {
	t.Helper()
	return fmt.Sprintf("127.0.0.1:%d", FreePorts(t, 1)[0])
}

// start runs nd and waits until it says it is ready (its streams exist).
func (c *Cluster) start(nd *Node) error {
	cmd := exec.Command(c.bin, nd.args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	log := &Buffer{}
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		return err
	}
	nd.mu.Lock()
	nd.cmd, nd.log = cmd, log
	nd.mu.Unlock()
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		ok := sc.Scan() && sc.Text() == "ready"
		ready <- ok
		for sc.Scan() {
		}
	}()
	select {
	case ok := <-ready:
		if !ok {
			cmd.Wait()
			return fmt.Errorf("node %s did not start: %s", nd.Name, log.String())
		}
		return nil
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		return fmt.Errorf("node %s not ready after a minute: %s", nd.Name, log.String())
	}
}

// Buffer is a process's log, written by its output's copier and read by the test.
type Buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *Buffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// String is what was written so far.
func (w *Buffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// Nodes are the cluster's nodes.
func (c *Cluster) Nodes() []*Node { return c.nodes }

// URLs are the nodes' client URLs, comma-separated, first first: what nats.url takes. A
// client connects to the first it can and learns the others.
func (c *Cluster) URLs(first int) string {
	var urls []string
	for i := range c.nodes {
		urls = append(urls, "nats://"+c.nodes[(first+i)%len(c.nodes)].Client)
	}
	return strings.Join(urls, ",")
}

// Kill kills node i with SIGKILL: its process ends at once, with whatever it had not
// written to disk.
func (c *Cluster) Kill(i int) {
	nd := c.nodes[i]
	nd.mu.Lock()
	cmd := nd.cmd
	nd.cmd = nil
	nd.mu.Unlock()
	if cmd != nil {
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
	}
}

// Restart starts node i again on its store and addresses; it fails the test when the node
// does not come back.
func (c *Cluster) Restart(i int) {
	c.t.Helper()
	if err := c.start(c.nodes[i]); err != nil {
		c.t.Fatal(err)
	}
}

// node is the next node, taking clients on port client of the cluster's host and routes on
// port route, in a cluster of routes (none: a server of its own).
func (c *Cluster) node(client, route int, routes []string) *Node {
	nd := &Node{Name: fmt.Sprintf("n%d", len(c.nodes)+1), Client: fmt.Sprintf("%s:%d", c.Host, client),
		Route: fmt.Sprintf("127.0.0.1:%d", route), Store: c.t.TempDir()}
	nd.args = append([]string{"-listen", nd.Client, "-store", nd.Store, "-name", nd.Name}, c.common...)
	if len(routes) > 0 {
		nd.args = append(nd.args, "-cluster", nd.Route, "-routes", strings.Join(routes, ","))
	}
	return nd
}

// Add starts a new node: a new name, an empty store, new addresses, the cluster's routes and
// its own, and replaces to remove from the cluster's peers (nats.cluster.replaces), names of
// nodes lost for good whose place it takes. It returns the new node's index, or why it did
// not start.
func (c *Cluster) Add(replaces ...string) (int, error) {
	ports := FreePorts(c.t, 2)
	var routes []string
	for _, other := range c.nodes {
		routes = append(routes, other.Route)
	}
	routes = append(routes, fmt.Sprintf("127.0.0.1:%d", ports[1]))
	nd := c.node(ports[0], ports[1], routes)
	nd.args = append(nd.args, "-replaces", strings.Join(replaces, ","))
	c.nodes = append(c.nodes, nd)
	return len(c.nodes) - 1, c.start(nd)
}

// Leader is the index of the node leading stream, or -1 when none does yet.
func (c *Cluster) Leader(ctx context.Context, stream string) (int, error) {
	nc, err := nats.Connect(c.URLs(0))
	if err != nil {
		return -1, err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return -1, err
	}
	s, err := js.Stream(ctx, stream)
	if err != nil {
		return -1, err
	}
	if cl := s.CachedInfo().Cluster; cl != nil {
		for i, nd := range c.nodes {
			if nd.Name == cl.Leader {
				return i, nil
			}
		}
	}
	return -1, nil
}

func (c *Cluster) stop() {
	for i := range c.nodes {
		c.Kill(i)
	}
}

// Log is what node i has logged (warnings and errors), for a failing test's report.
func (c *Cluster) Log(i int) string {
	nd := c.nodes[i]
	nd.mu.Lock()
	log := nd.log
	nd.mu.Unlock()
	if log == nil {
		return ""
	}
	return log.String()
}

// Main runs a package's tests, under -short with more of them side by side than go test's
// default of one per core (-parallel), unless -parallel is given: there the queue's and the
// portal's tests mostly wait on a NATS server's timers (ack waits, reconnects, the ladder's
// ticks), not for a CPU, and two at a time left the cores idle (BENCHMARKS.md). Without
// -short their browsers and the other lane's bots want the cores: the default stays.
func Main(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if testing.Short() && !given {
		flag.Set("test.parallel", strconv.Itoa(waitBoundParallel*runtime.GOMAXPROCS(0)))
	}
	os.Exit(m.Run())
}

// waitBoundParallel is how many tests per core Main runs side by side.
const waitBoundParallel = 4
