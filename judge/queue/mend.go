package queue

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/botjudge/judge/judge/disk"
)

// A write to the store that fails (its disk full) leaves the embedded server's stream
// refusing every later write, and not answering them, until the server restarts: nats-server
// keeps a stream's write error for good. mend restarts the embedded server on its store, on
// the same addresses, once the store's disk has room again, so that an unattended judge goes
// on by itself when space is freed; clients reconnect as after any restart.

// storeRoom is what the store's disk must have free before the server restarts on it.
const storeRoom = 64 << 20

// mendEvery is how often a broken store's disk is looked at for room.
var mendEvery = 5 * time.Second

// mend waits for the embedded server's store to fail a write, then restarts the server once
// there is room; until Close.
func (q *Queue) mend() {
	defer close(q.mended)
	for {
		q.srvMu.Lock()
		srv := q.srv
		q.srvMu.Unlock()
		select {
		case <-srv.writeErr:
		case <-q.stopMend:
			return
		}
		q.log.Error("queue: the embedded NATS server could not write its store (is its disk full?): what is stored there waits; the server restarts on its store once the disk has room",
			"store_dir", q.o.StoreDir, "room_needed_mib", storeRoom>>20)
		// A wait first, each time: a store that fails again at once (an I/O error, not a
		// full disk) restarts every mendEvery at most, not in a loop.
		for {
			select {
			case <-time.After(mendEvery):
			case <-q.stopMend:
				return
			}
			err := hasRoom(q.o.StoreDir)
			if err == nil {
				if err = q.restartServer(); err == nil {
					break
				}
				q.log.Error("queue: restarting the embedded NATS server: trying again", "err", err, "in", mendEvery)
			} else {
				q.log.Debug("queue: no room for the store yet", "err", err)
			}
		}
		q.log.Info("queue: the embedded NATS server restarted on its store: what waited is stored now", "url", q.url)
	}
}

// hasRoom says why dir's disk has less than storeRoom free, or nil.
func hasRoom(dir string) error {
	free, err := disk.Free(dir)
	if err != nil {
		return err
	}
	if free < storeRoom {
		return fmt.Errorf("%s: %d MiB free, %d MiB needed", dir, free>>20, storeRoom>>20)
	}
	return nil
}

// restartServer shuts the embedded server down and starts it again on the same store and
// addresses (a port chosen at random stays that port).
func (q *Queue) restartServer() error {
	q.srvMu.Lock()
	defer q.srvMu.Unlock()
	o := q.o
	u, err := url.Parse(q.url)
	if err != nil {
		return err
	}
	o.Listen = u.Host
	if o.Cluster.Listen != "" {
		if addr := q.srv.ClusterAddr(); addr != nil {
			host, _, _ := net.SplitHostPort(o.Cluster.Listen)
			o.Cluster.Listen = net.JoinHostPort(host, strconv.Itoa(addr.Port))
		}
	}
	if !q.srv.stopped {
		q.srv.shutdown()
		q.srv.stopped = true
	}
	// The port was just let go: another program may take it; mend then tries again.
	srv, err := startServer(o, q.log)
	if err != nil {
		return err
	}
	q.srv = srv
	return nil
}
