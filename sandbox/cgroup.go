package sandbox

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cgroupRoot is where the host's cgroup hierarchies are mounted. A judge that runs in a
// container needs the host's mounted there too (and the host's PID namespace).
var cgroupRoot = "/sys/fs/cgroup"

// cgroup reads and steers one container's control groups directly through their files:
// one pread for CPU time, one write to freeze, with the files held open, so a move costs
// microseconds rather than an API round trip. Both cgroup v1 (cpuacct, freezer, memory)
// and the unified v2 hierarchy are handled.
type cgroup struct {
	v2        bool
	cpu       *os.File // v1 cpuacct.usage (ns); v2 cpu.stat (usage_usec)
	freezer   *os.File // v1 freezer.state; v2 cgroup.freeze
	memPeak   *os.File // v1 memory.max_usage_in_bytes; v2 memory.peak (may be missing)
	memEvents *os.File // v1 memory.oom_control; v2 memory.events (both count oom_kill)
	procs     string   // the path of cgroup.procs: the container's processes
	weight    string   // the path of v1 cpu.shares, v2 cpu.weight
	buf       [4096]byte
}

// openCgroup finds the cgroups of process pid, the first process of container id, and opens
// their files. It fails when pid's cgroups do not name the container (the PID was reused).
func openCgroup(pid int, id string) (*cgroup, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	if err != nil {
		return nil, fmt.Errorf("sandbox: finding the container's cgroup: %w", err)
	}
	if !bytes.Contains(data, []byte(id)) {
		return nil, fmt.Errorf("sandbox: process %d is not in container %.12s", pid, id)
	}
	paths := map[string]string{} // controller -> path; "" for the unified hierarchy
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[1] == "" {
			paths[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			paths[c] = parts[2]
		}
	}
	c := &cgroup{}
	if _, err := os.Stat(filepath.Join(cgroupRoot, "cgroup.controllers")); err == nil {
		c.v2 = true
		dir := filepath.Join(cgroupRoot, paths[""])
		c.procs = filepath.Join(dir, "cgroup.procs")
		c.weight = filepath.Join(dir, "cpu.weight")
		err = c.open(
			file{&c.cpu, filepath.Join(dir, "cpu.stat"), os.O_RDONLY, true},
			file{&c.freezer, filepath.Join(dir, "cgroup.freeze"), os.O_WRONLY, true},
			file{&c.memPeak, filepath.Join(dir, "memory.peak"), os.O_RDONLY, false},
			file{&c.memEvents, filepath.Join(dir, "memory.events"), os.O_RDONLY, true},
		)
		return c, err
	}
	v1 := func(controller, name string) string {
		p, ok := paths[controller]
		if !ok {
			return ""
		}
		for _, mount := range []string{controller, "cpu,cpuacct", "cpuacct,cpu"} {
			f := filepath.Join(cgroupRoot, mount, p, name)
			if _, err := os.Stat(f); err == nil {
				return f
			}
		}
		return filepath.Join(cgroupRoot, controller, p, name)
	}
	c.procs = v1("cpuacct", "cgroup.procs")
	c.weight = v1("cpu", "cpu.shares")
	err = c.open(
		file{&c.cpu, v1("cpuacct", "cpuacct.usage"), os.O_RDONLY, true},
		file{&c.freezer, v1("freezer", "freezer.state"), os.O_WRONLY, true},
		file{&c.memPeak, v1("memory", "memory.max_usage_in_bytes"), os.O_RDONLY, true},
		file{&c.memEvents, v1("memory", "memory.oom_control"), os.O_RDONLY, true},
	)
	return c, err
}

type file struct {
	f        **os.File
	path     string
	flag     int
	required bool
}

func (c *cgroup) open(files ...file) error {
	for _, f := range files {
		h, err := os.OpenFile(f.path, f.flag, 0)
		if err != nil {
			if !f.required {
				continue
			}
			c.close()
			return fmt.Errorf("sandbox: opening cgroup file (the judge needs the host's %s): %w", cgroupRoot, err)
		}
		*f.f = h
	}
	return nil
}

func (c *cgroup) close() {
	for _, f := range []*os.File{c.cpu, c.freezer, c.memPeak, c.memEvents} {
		if f != nil {
			f.Close()
		}
	}
}

func (c *cgroup) read(f *os.File) ([]byte, error) {
	if f == nil {
		return nil, errors.New("sandbox: cgroup file not available")
	}
	n, err := preadOnce(f, c.buf[:])
	if err != nil {
		return nil, err
	}
	return c.buf[:n], nil
}

// lowest gives the container the least CPU weight there is: against any other container that
// wants a core, it gets about a 500th of it.
func (c *cgroup) lowest() error {
	least := "2" // v1 cpu.shares' least
	if c.v2 {
		least = "1"
	}
	return os.WriteFile(c.weight, []byte(least), 0)
}

// CPU is the CPU time the container has used, all its threads together.
func (c *cgroup) CPU() (time.Duration, error) {
	b, err := c.read(c.cpu)
	if err != nil {
		return 0, err
	}
	if c.v2 {
		v, err := field(b, "usage_usec")
		return time.Duration(v) * time.Microsecond, err
	}
	v, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
	return time.Duration(v), err
}

// Freeze stops (true) or resumes (false) every task of the container. A frozen task uses
// no CPU and cannot be scheduled, so a bot cannot think on another bot's time.
func (c *cgroup) Freeze(frozen bool) error {
	var v string
	switch {
	case c.v2 && frozen:
		v = "1"
	case c.v2:
		v = "0"
	case frozen:
		v = "FROZEN"
	default:
		v = "THAWED"
	}
	_, err := c.freezer.WriteAt([]byte(v), 0)
	return err
}

// PeakMemory is the most memory the container has used, in bytes (0 when the kernel does
// not track it).
func (c *cgroup) PeakMemory() int64 {
	b, err := c.read(c.memPeak)
	if err != nil {
		return 0
	}
	v, _ := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
	return v
}

// OOMKills counts the processes the kernel killed for running out of memory.
func (c *cgroup) OOMKills() int64 {
	b, err := c.read(c.memEvents)
	if err != nil {
		return 0
	}
	v, _ := field(b, "oom_kill")
	return v
}

// field finds "name value" in a flat-keyed cgroup file.
func field(b []byte, name string) (int64, error) {
	for _, line := range bytes.Split(b, []byte("\n")) {
		k, v, ok := bytes.Cut(line, []byte(" "))
		if ok && string(k) == name {
			return strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
		}
	}
	return 0, fmt.Errorf("sandbox: no %s in cgroup file", name)
}
