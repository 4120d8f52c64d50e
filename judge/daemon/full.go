package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/botjudge/judge/judge/queue"
)

// Full storage - the disk the judge writes to (data_dir, the temporary directory) with no
// room left, or the NATS store at its limit - is neither the job's fault nor lasting: the
// daemon hands the job back (or, on its last attempt, keeps it), stops taking jobs until
// there is room again, and says so in its log and metrics (judge_storage_full).

// Where storage ran out.
const (
	fullDisk = "disk" // a directory the judge writes to
	fullNATS = "nats" // the NATS store, at its limit (queue.StoreFull)
)

// storageFull says where err found no room to write: fullDisk, fullNATS, or "" when err is
// not about room.
func storageFull(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return fullDisk
	case queue.StoreFull(err):
		return fullNATS
	case strings.Contains(err.Error(), "no space left on device"): // the engine's, as text
		return fullDisk
	}
	return ""
}

// RoomNeeded is what each of Options.Dirs must have free before judging resumes after its
// disk was full: a match's files, its replay and a build's artifact, with room to spare.
const RoomNeeded = 64 << 20

// DefaultRoomEvery is how often a daemon whose storage was full looks for room again.
const DefaultRoomEvery = 5 * time.Second

// full is a daemon's record of its storage being full.
type full struct {
	mu    sync.Mutex
	where string // fullDisk, fullNATS, or "" when there is room
	since time.Time
	cause error
}

// noRoom records that err found no room where: the first worker to see it says so.
func (d *Daemon) noRoom(log *slog.Logger, where string, err error) {
	f := &d.full
	f.mu.Lock()
	first := f.where == ""
	if first {
		f.where, f.since, f.cause = where, time.Now(), err
	}
	f.mu.Unlock()
	d.o.Metrics.StorageFull.WithLabelValues(where).Set(1)
	if first {
		log.Error("daemon: storage full: judging paused until there is room again; jobs are handed back, not failed",
			"where", where, "dirs", strings.Join(d.o.Dirs, " "), "room_needed_mib", RoomNeeded>>20, "err", err)
	}
}

// room clears the record: a job went through, or each directory has room again.
func (d *Daemon) room(why string) {
	f := &d.full
	f.mu.Lock()
	where, since := f.where, f.since
	f.where = ""
	f.mu.Unlock()
	if where == "" {
		return
	}
	d.o.Metrics.StorageFull.WithLabelValues(where).Set(0)
	d.o.Log.Info("daemon: room again: judging resumes", "where", where, "why", why, "paused", time.Since(since).Round(time.Second))
}

// waitForRoom returns once there is room again, or false when ctx ends first. A full disk has
// room once each of Options.Dirs has RoomNeeded free; a full NATS store, which the daemon
// cannot measure, is tried again after RoomEvery (the next job's writes tell).
func (d *Daemon) waitForRoom(ctx context.Context) bool {
	for {
		d.full.mu.Lock()
		where := d.full.where
		d.full.mu.Unlock()
		if where == "" {
			return true
		}
		if !sleep(ctx, d.o.RoomEvery) {
			return false
		}
		switch where {
		case fullNATS:
			d.room("trying the NATS store again")
		case fullDisk:
			if dir, err := lacksRoom(d.o.Dirs); err != nil {
				d.o.Log.Debug("daemon: still no room", "dir", dir, "err", err)
			} else {
				d.room("each directory has room")
			}
		}
	}
}

// lacksRoom is the first of dirs with less than RoomNeeded free, and why.
func lacksRoom(dirs []string) (string, error) {
	for _, dir := range dirs {
		var st unix.Statfs_t
		if err := unix.Statfs(dir, &st); err != nil {
			return dir, err
		}
		if free := st.Bavail * uint64(st.Bsize); free < RoomNeeded {
			return dir, fmt.Errorf("%d MiB free, %d MiB needed", free>>20, RoomNeeded>>20)
		}
	}
	return "", nil
}
