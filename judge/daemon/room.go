package daemon

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/botjudge/judge/judge/disk"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/sandbox"
)

// Room is what judging needs of the machine beside the engine and the queue: room on the disk
// the judge writes to (data_dir, the temporary directory) and in the NATS store, open files
// under the judge's limit, memory. Lacking it is neither the job's fault nor lasting:
//   - a job that fails for want of it is handed back with back-off (on its last attempt kept,
//     and judged again here once there is room), never failed, and the daemon takes no job
//     until there is room again (paused);
//   - short of open files or memory, a worker does not start a match beside those running
//     (fewer workers), and with none running one goes on: the judge degrades to one match
//     at a time rather than stop, and no running bot pays for it.
// Each is said once in the log, and in the metrics: judge_paused{reason},
// judge_workers_waiting.

// What the judge lacks: the reasons it pauses.
const (
	lackDisk   = "disk"   // a directory the judge writes to is full
	lackNATS   = "nats"   // the NATS store is at its limit (queue.StoreFull)
	lackFiles  = "files"  // the judge's open files reached their limit
	lackMemory = "memory" // the machine refused the judge memory
)

// lacking says what err found lacking, or "" when err is not about room.
func lacking(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return lackDisk
	case queue.StoreFull(err):
		return lackNATS
	case errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENFILE):
		return lackFiles
	case errors.Is(err, syscall.ENOMEM):
		return lackMemory
	}
	// The engine's errors, which come as text, carry their errno from the sandbox.
	return ""
}

// RoomNeeded is what each of Options.Dirs must have free before judging resumes after its
// disk was full: a match's files, its replay and a build's artifact, with room to spare.
const RoomNeeded = 64 << 20

// DefaultRoomEvery is how often a daemon that lacks room looks for it again.
const DefaultRoomEvery = 5 * time.Second

// memoryPerMatch is what one more match may need of the machine's memory: two bots at the
// default memory limit (its open files: sandbox.FilesPerMatch).
const memoryPerMatch = 512 << 20

// headroom says why the judge should not start another match beside those running: its open
// files near their limit, or the machine's available memory low; nil when it has room.
func headroom() error {
	if !sandbox.FilesLeft(sandbox.FilesPerMatch) {
		open, limit, _ := sandbox.OpenFiles()
		return fmt.Errorf("%s: %d open of the judge's limit of %d, and a match may need %d more", lackFiles, open, limit, sandbox.FilesPerMatch)
	}
	if avail, err := memAvailable(); err == nil && avail < memoryPerMatch {
		return fmt.Errorf("%s: %d MiB available, and a match may need %d MiB", lackMemory, avail>>20, memoryPerMatch>>20)
	}
	return nil
}

// memAvailable is the kernel's estimate of the memory available to start new work.
func memAvailable() (uint64, error) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kib, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kib << 10, err
		}
	}
	return 0, errors.New("no MemAvailable in /proc/meminfo")
}

// pause is a daemon's record of the room it lacks.
type pause struct {
	mu     sync.Mutex
	reason string // a lack*, or "" when it lacks nothing
	since  time.Time
	cause  error
	// waiting counts the workers that wait for headroom (fewer workers); said tells whether
	// the log has said so since they last all went on.
	waiting int
	said    bool
}

// noRoom records that err found reason lacking: the first worker to see it says so.
func (d *Daemon) noRoom(log *slog.Logger, reason string, err error) {
	p := &d.pause
	p.mu.Lock()
	first := p.reason == ""
	if first {
		p.reason, p.since, p.cause = reason, time.Now(), err
	}
	p.mu.Unlock()
	d.o.Metrics.Paused.WithLabelValues(reason).Set(1)
	if first {
		log.Error("daemon: paused: no room to judge until there is again; jobs are handed back, not failed",
			"reason", reason, "dirs", strings.Join(d.o.Dirs, " "), "room_needed_mib", RoomNeeded>>20, "err", err)
	}
}

// Paused says why the daemon takes no job, or nil: what it lacks, since when, and the error
// that said so. /healthz answers it, so that an organiser's health check sees a full disk.
func (d *Daemon) Paused() error {
	p := &d.pause
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.reason == "" {
		return nil
	}
	return fmt.Errorf("paused for %s: no room (%s) to judge: %v", time.Since(p.since).Round(time.Second), p.reason, p.cause)
}

// room clears the record: a job went through, or there is room again.
func (d *Daemon) room(why string) {
	p := &d.pause
	p.mu.Lock()
	reason, since := p.reason, p.since
	p.reason = ""
	p.mu.Unlock()
	if reason == "" {
		return
	}
	d.o.Metrics.Paused.WithLabelValues(reason).Set(0)
	d.o.Log.Info("daemon: room again: judging resumes", "reason", reason, "why", why, "paused", time.Since(since).Round(time.Second))
}

// waitForRoom returns once the daemon lacks nothing it paused for, or false when ctx ends
// first. A full disk has room once each of Options.Dirs has RoomNeeded free; open files and
// memory once Headroom says so or no match runs but the caller's own (mine: 1 for a worker
// holding its job, 0 for one between jobs); a full NATS store, which the daemon cannot
// measure, is tried again after RoomEvery (the next job's writes tell).
func (d *Daemon) waitForRoom(ctx context.Context, mine int32) bool {
	for {
		d.pause.mu.Lock()
		reason := d.pause.reason
		d.pause.mu.Unlock()
		if reason == "" {
			return true
		}
		if !sleep(ctx, d.o.RoomEvery) {
			return false
		}
		switch reason {
		case lackNATS:
			d.room("trying the NATS store again")
		case lackDisk:
			if dir, err := lacksRoom(d.o.Dirs); err != nil {
				d.o.Log.Debug("daemon: still no room", "dir", dir, "err", err)
			} else {
				d.room("each directory has room")
			}
		default:
			if d.running.Load() <= mine || d.o.Headroom() == nil {
				d.room("open files and memory have room")
			}
		}
	}
}

// admit returns once this worker may start a match, counted as running from then on (done
// uncounts it): at once when the judge has headroom or runs no match, else when one of those
// becomes true; false when ctx ends first. A worker idle in the queue's Next counts: the one
// match the judge runs when it lacks headroom may be waiting for its job.
func (d *Daemon) admit(ctx context.Context) bool {
	p := &d.pause
	try := func() (bool, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		err := d.o.Headroom()
		if err == nil || d.running.Load() == 0 {
			d.running.Add(1)
			return true, nil
		}
		return false, err
	}
	ok, err := try()
	if ok {
		return true
	}
	p.mu.Lock()
	p.waiting++
	if !p.said {
		p.said = true
		d.o.Log.Warn("daemon: fewer workers: a match waits for room to start beside those running", "why", err)
	}
	p.mu.Unlock()
	d.o.Metrics.WorkersWaiting.Inc()
	defer func() {
		d.o.Metrics.WorkersWaiting.Dec()
		p.mu.Lock()
		if p.waiting--; p.waiting == 0 && p.said {
			p.said = false
			d.o.Log.Info("daemon: every worker may start a match again")
		}
		p.mu.Unlock()
	}()
	for !ok {
		if !sleep(ctx, d.o.RoomEvery) {
			return false
		}
		ok, _ = try()
	}
	return true
}

// done uncounts a match admit counted.
func (d *Daemon) done() { d.running.Add(-1) }

// lacksRoom is the first of dirs with less than RoomNeeded free, and why.
func lacksRoom(dirs []string) (string, error) {
	for _, dir := range dirs {
		free, err := disk.Free(dir)
		if err != nil {
			return dir, err
		}
		if free < RoomNeeded {
			return dir, fmt.Errorf("%d MiB free, %d MiB needed", free>>20, RoomNeeded>>20)
		}
	}
	return "", nil
}
