package sandbox

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"
)

// schedStats reads the scheduler's run_delay of the bot's threads: how long each has been
// ready to run but waiting for a CPU. A frozen bot does not wait: only a bot the machine did
// not give a CPU does. The files are held open, so the reading every turn takes (mark) costs a
// pread per thread; the threads are listed at the first reading (a runtime starts its threads
// while it starts up) and whenever a wall limit is reached (since). 0 when the kernel does not
// keep the figure.
type schedStats struct {
	dir string // /proc/PID/task; "" when the bot was not found
	// procs, when set, is the container's cgroup.procs: under gVisor the bot's threads are
	// not the host's, and every thread of the sandbox (its kernel's and those it runs the
	// bot's code on) is looked at instead of dir's.
	procs string
	files map[string]*os.File // thread's /proc directory -> its schedstat
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
		n, _ := preadOnce(f, s.buf[:])
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

// since is how long the bot has waited for a CPU since the mark (a thread started since
// counts all of its figure). Of the bot's own threads it is the longest any one has waited,
// not the sum, so that a bot whose threads queue behind each other (using its CPU) cannot
// pass that off as waiting for the machine. A gVisor sandbox's threads are not the bot's:
// a bot's thread runs on whichever of them is free, so no one of them carries its wait.
// There it is the sum, but never more than short() says: the CPU time the bot's share would
// have given it and it did not get, which threads queuing behind each other do not leave
// (asked only there: it costs a reading of the bot's CPU).
func (s *schedStats) since(short func() time.Duration) time.Duration {
	var most, sum int64
	s.each(true, func(tid string, v int64) {
		most = max(most, v-s.base[tid])
		sum += v - s.base[tid]
	})
	if s.procs != "" {
		return max(0, min(time.Duration(sum), short()))
	}
	return time.Duration(most)
}

func (s *schedStats) relist() {
	if s.files == nil {
		s.files = map[string]*os.File{}
	}
	threads := s.threads()
	if threads == nil {
		return // the bot is gone: what is held still reads its last figures, or nothing
	}
	live := make(map[string]bool, len(threads))
	for _, t := range threads {
		live[t] = true
		if s.files[t] == nil {
			if f, err := os.Open(t + "/schedstat"); err == nil {
				s.files[t] = f
			}
		}
	}
	for t, f := range s.files {
		if !live[t] {
			f.Close()
			delete(s.files, t)
		}
	}
}

// threads lists the /proc directories of the threads to look at: dir's, or those of every
// process in procs. nil when there are none to be found.
func (s *schedStats) threads() []string {
	dirs := []string{s.dir}
	if s.procs != "" {
		b, err := os.ReadFile(s.procs)
		if err != nil {
			return nil
		}
		dirs = dirs[:0]
		for _, pid := range strings.Fields(string(b)) {
			dirs = append(dirs, "/proc/"+pid+"/task")
		}
	}
	var threads []string
	for _, d := range dirs {
		dir, err := os.Open(d)
		if err != nil {
			continue
		}
		names, _ := dir.Readdirnames(-1)
		dir.Close()
		for _, tid := range names {
			threads = append(threads, d+"/"+tid)
		}
	}
	return threads
}

func (s *schedStats) close() {
	for _, f := range s.files {
		f.Close()
	}
	s.files = nil
}
