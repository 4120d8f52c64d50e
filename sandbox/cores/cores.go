// Package cores finds the cores a judge's bots may have, one per worker, and leases them
// among the judges of one host, so that no two judges pin bots to the same core.
package cores

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Core is a physical core: the logical CPUs that share it (hyper-thread siblings), of those
// the judge may use.
type Core struct {
	ID   int   // its first logical CPU
	CPUs []int // ascending
}

// Set is the core as a cpuset list ("3", "1,5").
func (c Core) Set() string {
	s := make([]string, len(c.CPUs))
	for i, cpu := range c.CPUs {
		s[i] = strconv.Itoa(cpu)
	}
	return strings.Join(s, ",")
}

// Host is where the topology and the judge's own limits are read: the root of /sys and
// /proc (a test's directory), the CPUs the judge may run on (its affinity, which its
// cpuset cgroup bounds) and its cgroup.
type Host struct {
	Root     string // "" is "/"
	Allowed  []int  // nil: read the process's affinity
	CgroupOf string // the contents of /proc/self/cgroup; "" reads it
}

// Usable is the physical cores the judge may use, in order: logical CPUs that are
// hyper-thread siblings (sysfs core_cpus_list, else thread_siblings_list) count as one, only
// those in the judge's affinity count, and a CPU quota on the judge's cgroup (cgroup v1
// cpu.cfs_quota_us, v2 cpu.max) caps their number at the quota's whole cores (at least one).
func (h Host) Usable() ([]Core, error) {
	allowed := h.Allowed
	if allowed == nil {
		var err error
		if allowed, err = affinity(); err != nil {
			return nil, fmt.Errorf("cores: the judge's CPU affinity: %w", err)
		}
	}
	byID := map[int]*Core{}
	for _, cpu := range allowed {
		siblings, err := h.siblings(cpu)
		if err != nil {
			return nil, err
		}
		id := slices.Min(siblings)
		c := byID[id]
		if c == nil {
			c = &Core{ID: id}
			byID[id] = c
		}
		c.CPUs = append(c.CPUs, cpu)
	}
	var out []Core
	for _, c := range byID {
		slices.Sort(c.CPUs)
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b Core) int { return cmp.Compare(a.ID, b.ID) })
	if q, ok := h.quota(); ok && q < len(out) {
		out = out[:max(q, 1)]
	}
	return out, nil
}

func (h Host) path(p string) string { return filepath.Join(cmp.Or(h.Root, "/"), p) }

// siblings are the logical CPUs that share cpu's core, cpu included.
func (h Host) siblings(cpu int) ([]int, error) {
	dir := h.path(fmt.Sprintf("sys/devices/system/cpu/cpu%d/topology", cpu))
	for _, name := range []string{"core_cpus_list", "thread_siblings_list"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil {
			list, err := ParseList(strings.TrimSpace(string(b)))
			if err != nil {
				return nil, fmt.Errorf("cores: %s/%s: %w", dir, name, err)
			}
			if !slices.Contains(list, cpu) {
				list = append(list, cpu)
			}
			return list, nil
		}
	}
	return []int{cpu}, nil // no topology: each CPU a core of its own
}

// quota is the judge's CPU quota in whole cores, when its cgroup has one.
func (h Host) quota() (int, bool) {
	data := []byte(h.CgroupOf)
	if len(data) == 0 {
		var err error
		if data, err = os.ReadFile(h.path("proc/self/cgroup")); err != nil {
			return 0, false
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[1] == "" { // v2
			if b, err := os.ReadFile(h.path(filepath.Join("sys/fs/cgroup", parts[2], "cpu.max"))); err == nil {
				f := strings.Fields(string(b))
				if len(f) == 2 && f[0] != "max" {
					return cores(f[0], f[1])
				}
			}
			continue
		}
		if !slices.Contains(strings.Split(parts[1], ","), "cpu") {
			continue
		}
		for _, mount := range []string{"cpu", "cpu,cpuacct", "cpuacct,cpu"} {
			dir := h.path(filepath.Join("sys/fs/cgroup", mount, parts[2]))
			q, err1 := os.ReadFile(filepath.Join(dir, "cpu.cfs_quota_us"))
			p, err2 := os.ReadFile(filepath.Join(dir, "cpu.cfs_period_us"))
			if err1 == nil && err2 == nil {
				if strings.TrimSpace(string(q)) == "-1" {
					return 0, false
				}
				return cores(string(q), string(p))
			}
		}
	}
	return 0, false
}

func cores(quota, period string) (int, bool) {
	q, err1 := strconv.ParseFloat(strings.TrimSpace(quota), 64)
	p, err2 := strconv.ParseFloat(strings.TrimSpace(period), 64)
	if err1 != nil || err2 != nil || q <= 0 || p <= 0 {
		return 0, false
	}
	return int(math.Floor(q / p)), true
}

// ParseList reads a CPU list: "1", "0-3", "1,3-5".
func ParseList(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("bad CPU list %q", s)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("bad CPU list %q", s)
			}
		}
		for cpu := a; cpu <= b; cpu++ {
			out = append(out, cpu)
		}
	}
	return out, nil
}

// DefaultLeaseDir is where the judges of a host lease their cores: a directory every judge
// of the host sees, whatever its data directory.
const DefaultLeaseDir = "/run/judge/cores"

// Lease is the cores one judge holds: a lock file per core in the lease directory, locked
// for as long as the judge runs (the kernel lets go of a dead judge's).
type Lease struct {
	Cores []Core
	files []*os.File
}

// Take leases up to want of cores (0: every one free), in order, skipping those another
// judge holds. It fails only when the lease directory cannot be used; a lease with no core
// means every core is held.
func Take(dir string, cores []Core, want int) (*Lease, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cores: the lease directory: %w", err)
	}
	l := &Lease{}
	for _, c := range cores {
		if want > 0 && len(l.Cores) == want {
			break
		}
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("core-%d.lock", c.ID)), os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			l.Release()
			return nil, fmt.Errorf("cores: %w", err)
		}
		if busy, err := tryLock(f); err != nil {
			f.Close()
			if busy {
				continue // another judge's
			}
			l.Release()
			return nil, fmt.Errorf("cores: locking core %d: %w", c.ID, err)
		}
		l.Cores = append(l.Cores, c)
		l.files = append(l.files, f)
	}
	return l, nil
}

// Release gives the cores back.
func (l *Lease) Release() {
	for _, f := range l.files {
		f.Close()
	}
	l.files, l.Cores = nil, nil
}
