// Package enginetest puts a proxy that can fail in front of the Docker engine's socket, for
// tests of what the judge does when the engine stalls or goes away mid-match.
package enginetest

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// DefaultSocket is the engine's socket on this machine.
const DefaultSocket = "/var/run/docker.sock"

// Proxy forwards each connection made to its unix socket to the engine's, until told to
// fail: Stall holds every byte, both ways, on open connections and new ones until Resume;
// Cut closes every open connection and refuses new ones until Resume. An engine call through
// it therefore hangs (Stall) or fails at once (Cut), as a hung or restarting engine's would.
type Proxy struct {
	path, target string
	ln           net.Listener
	requests     atomic.Int64

	mu   sync.Mutex
	open map[net.Conn]struct{} // both ends of every forwarded connection
	cut  bool
	gate chan struct{} // closed while data may flow; a Stall replaces it with an open one
	// stallAt is a request path's part at which the proxy stalls (StallAt); "" for none.
	stallAt string
	wg      sync.WaitGroup
	close   bool
}

// Start listens on a socket in t.TempDir() and forwards to target (DefaultSocket if "");
// the proxy stops with the test.
func Start(t testing.TB, target string) *Proxy {
	t.Helper()
	if target == "" {
		target = DefaultSocket
	}
	p := &Proxy{path: filepath.Join(t.TempDir(), "engine.sock"), target: target, open: map[net.Conn]struct{}{}, gate: make(chan struct{})}
	close(p.gate)
	ln, err := net.Listen("unix", p.path)
	if err != nil {
		t.Fatalf("enginetest: listening on %s: %v", p.path, err)
	}
	p.ln = ln
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(p.Close)
	return p
}

// Host is the proxy's address as sandbox.Options.Host takes it.
func (p *Proxy) Host() string { return "unix://" + p.path }

// Requests counts the HTTP requests clients sent through the proxy (a stalled one included).
// They are counted from a copy, beside their way to the engine: a request may be answered a
// moment before it is counted.
func (p *Proxy) Requests() int64 { return p.requests.Load() }

// Stall holds all data, on open connections and new ones, until Resume: the engine, as the
// judge sees it, stops answering.
func (p *Proxy) Stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.gate:
		p.gate = make(chan struct{})
	default: // already stalled
	}
}

// StallAt stalls the proxy, as Stall does, once a client sends a request whose path
// contains part (an engine that hangs at one call: "/attach"), before the engine's answer
// reaches the client. Resume ends the stall and disarms it.
func (p *Proxy) StallAt(part string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stallAt = part
}

// Cut closes every open connection (attach streams included) and refuses new ones until
// Resume: the engine, as the judge sees it, is gone. Held data is dropped.
func (p *Proxy) Cut() {
	p.mu.Lock()
	p.cut = true
	conns := p.open
	p.open = map[net.Conn]struct{}{}
	p.mu.Unlock()
	for c := range conns {
		c.Close()
	}
}

// Resume forwards again: held data flows on, new connections are accepted.
func (p *Proxy) Resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut, p.stallAt = false, ""
	select {
	case <-p.gate:
	default:
		close(p.gate)
	}
}

// Close stops the proxy and closes every connection.
func (p *Proxy) Close() {
	p.mu.Lock()
	p.close = true
	p.mu.Unlock()
	p.ln.Close()
	p.Cut()
	p.Resume() // releases copiers held by a Stall
	p.wg.Wait()
}

func (p *Proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		refuse := p.cut || p.close
		p.mu.Unlock()
		if refuse {
			c.Close()
			continue
		}
		up, err := net.Dial("unix", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		if p.cut || p.close { // cut while dialling
			p.mu.Unlock()
			c.Close()
			up.Close()
			continue
		}
		p.open[c], p.open[up] = struct{}{}, struct{}{}
		p.mu.Unlock()
		// The requests are counted from a copy of what the client sends, read as HTTP.
		pr, pw := io.Pipe()
		var ends atomic.Int32
		p.wg.Add(3)
		go func() { defer p.wg.Done(); p.count(pr) }()
		go func() { defer p.wg.Done(); p.pipe(up, c, pw, &ends) }()
		go func() { defer p.wg.Done(); p.pipe(c, up, nil, &ends) }()
	}
}

// pipe copies from src to dst, each chunk once the gate is open, and a copy to tee if not
// nil. At src's end of file it ends dst's writing only: a client ends a container's stdin so
// (a hijacked attach), and the engine's answer still comes the other way. The second of a
// connection's two pipes to end, or one that fails, closes both ends.
func (p *Proxy) pipe(dst, src net.Conn, tee *io.PipeWriter, ends *atomic.Int32) {
	eof := false
	defer func() {
		if tee != nil {
			tee.Close()
		}
		if uc, ok := dst.(*net.UnixConn); eof && ok && ends.Add(1) < 2 {
			uc.CloseWrite()
			return
		}
		dst.Close()
		src.Close()
		p.mu.Lock()
		delete(p.open, dst)
		delete(p.open, src)
		p.mu.Unlock()
	}()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if tee != nil {
				tee.Write(buf[:n])
			}
			p.mu.Lock()
			gate := p.gate
			p.mu.Unlock()
			<-gate
			p.mu.Lock()
			_, live := p.open[src]
			p.mu.Unlock()
			if !live { // cut while held: the data is lost with the connection
				return
			}
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			eof = err == io.EOF
			return
		}
	}
}

// count reads a client's requests from r and counts them, up to one that takes the
// connection over (an attach: what follows is the stream's).
func (p *Proxy) count(r *io.PipeReader) {
	defer io.Copy(io.Discard, r)
	br := bufio.NewReader(r)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		p.requests.Add(1)
		p.mu.Lock()
		at := p.stallAt
		p.mu.Unlock()
		if at != "" && strings.Contains(req.URL.Path, at) {
			p.Stall()
		}
		if req.Header.Get("Upgrade") != "" {
			return
		}
		if _, err := io.Copy(io.Discard, req.Body); err != nil {
			return
		}
	}
}
