package queue

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// lockName is the file in a store directory that the process running a server on it holds
// locked. NATS does not lock its store itself, and two servers on one store (a second
// `judge serve` on another port, a `judge view` of the data directory) corrupt it.
const lockName = "judge.lock"

// StoreInUseError is Open's error when another server (in this process or another) runs on
// the store directory. URL says where that server takes clients, so that a reader can go
// there instead.
type StoreInUseError struct {
	Dir string
	// PID is the holding process's, 0 when it has not written it yet.
	PID int
	// URL is the holding server's client URL: "" while it starts, or when it takes no TCP
	// clients (a `judge view` reading the store in its own process).
	URL string
}

func (e *StoreInUseError) Error() string {
	msg := fmt.Sprintf("queue: the NATS store %s is in use by another server", e.Dir)
	if e.PID != 0 {
		msg += fmt.Sprintf(" (process %d", e.PID)
		if e.URL != "" {
			msg += ", clients at " + e.URL
		}
		msg += ")"
	}
	return msg + "; two servers on one store would corrupt it"
}

// lockHolder is what the lock file holds: who has the store, and where its server answers.
type lockHolder struct {
	PID int    `json:"pid"`
	URL string `json:"url,omitempty"`
}

// storeLock is a held lock on a store directory, released by release. The file stays behind:
// removing it would let a process that opened it just before lock the removed file while a
// third locks a new one, both believing they hold the store.
type storeLock struct {
	f    *os.File
	path string
}

// lockStore takes the store directory dir for this process's server, creating dir if need
// be, or reports a *StoreInUseError when another server has it.
func lockStore(dir string) (*storeLock, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("queue: NATS store: %w", err)
	}
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("queue: locking the NATS store: %w", err)
	}
	if busy, err := lockFile(f); err != nil {
		defer f.Close()
		if busy {
			var h lockHolder
			if b, rerr := io.ReadAll(f); rerr == nil {
				_ = json.Unmarshal(b, &h) // half-written while its holder starts: unknown
			}
			return nil, &StoreInUseError{Dir: dir, PID: h.PID, URL: h.URL}
		}
		return nil, fmt.Errorf("queue: locking %s: %w", path, err)
	}
	l := &storeLock{f: f, path: path}
	if err := l.record(""); err != nil {
		l.release()
		return nil, err
	}
	return l, nil
}

// record writes this process's id and its server's client URL into the lock file, for the
// next process that finds the store taken.
func (l *storeLock) record(url string) error {
	b, _ := json.Marshal(lockHolder{PID: os.Getpid(), URL: url})
	b = append(b, '\n')
	if err := l.f.Truncate(0); err != nil {
		return fmt.Errorf("queue: writing %s: %w", l.path, err)
	}
	if _, err := l.f.WriteAt(b, 0); err != nil {
		return fmt.Errorf("queue: writing %s: %w", l.path, err)
	}
	return nil
}

// release lets the store go; the server on it must have shut down.
func (l *storeLock) release() {
	_ = l.f.Truncate(0) // no stale holder for a reader to chase
	l.f.Close()         // closing the file drops the lock
}
