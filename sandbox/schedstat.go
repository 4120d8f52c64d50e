package sandbox

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// schedStats reads the scheduler's run_delay of the bot's threads: how long each has been
// ready to run but waiting for a CPU. A frozen bot does not wait: only a bot the machine did
// not give a CPU does. The files are held open, so the reading every turn takes (mark) costs a
// pread per thread; the threads are listed at the first reading (a runtime starts its threads
// while it starts up) and whenever a wall limit is reached (since). 0 when the kernel does not
// keep the figure.
type schedStats struct {
	dir   string              // /proc/PID/task; "" when the bot was not found
	files map[string]*os.File // thread ID -> its schedstat
	base  map[string]int64    // each thread's figure at the last mark
	buf   [128]byte
	// unmarked is the wall time of the turns since the last mark. A turn marks only once it
	// reaches markEvery: since then counts what the bot waited in those turns too, at most
	// markEvery, which is nothing beside a wall limit (seconds).
	unmarked time.Duration
}

// markEvery is how much turn time passes between the run-queue figures' marks (schedStats):
// a fast bot's turns take microseconds, and a mark costs a read per thread.
const markEvery = time.Millisecond

// each calls fn with each known thread's run_delay (ns), after looking for threads started
// since the last look when relist is set. A thread that has ended takes its figure with it.
func (s *schedStats) each(relist bool, fn func(tid string, delay int64)) {
	if s.dir == "" {
		return
	}
	if relist || s.files == nil {
		s.relist()
	}
	for tid, f := range s.files {
		n, _ := f.ReadAt(s.buf[:], 0)
		// "time on CPU (ns) run_delay (ns) timeslices"
		_, rest, _ := bytes.Cut(s.buf[:n], []byte(" "))
		delay, _, _ := bytes.Cut(rest, []byte(" "))
		if v, err := strconv.ParseInt(string(delay), 10, 64); err == nil {
			fn(tid, v)
		}
	}
}

// mark records every thread's figure as the base since measures from (a turn's start), and
// sets unmarked to 0.
func (s *schedStats) mark() {
	if s.base == nil {
		s.base = map[string]int64{}
	}
	clear(s.base)
	s.each(false, func(tid string, v int64) { s.base[tid] = v })
	s.unmarked = 0
}

// since is the longest any one thread has waited since the mark (a thread started since
// counts all of its figure): the longest, not the sum, so that a bot whose threads queue
// behind each other (using its CPU) cannot pass that off as waiting for the machine.
func (s *schedStats) since() time.Duration {
	var most int64
	s.each(true, func(tid string, v int64) { most = max(most, v-s.base[tid]) })
	return time.Duration(most)
}

func (s *schedStats) relist() {
	if s.files == nil {
		s.files = map[string]*os.File{}
	}
	dir, err := os.Open(s.dir)
	if err != nil {
		return // the bot is gone: what is held still reads its last figures, or nothing
	}
	names, _ := dir.Readdirnames(-1)
	dir.Close()
	live := make(map[string]bool, len(names))
	for _, tid := range names {
		live[tid] = true
		if s.files[tid] == nil {
			if f, err := os.Open(s.dir + "/" + tid + "/schedstat"); err == nil {
				s.files[tid] = f
			}
		}
	}
	for tid, f := range s.files {
		if !live[tid] {
			f.Close()
			delete(s.files, tid)
		}
	}
}

func (s *schedStats) close() {
	for _, f := range s.files {
		f.Close()
	}
	s.files = nil
}
