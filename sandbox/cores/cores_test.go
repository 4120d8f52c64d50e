package cores

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// host writes a /sys of cpus logical CPUs whose core_cpus_list is siblings[cpu] ("" for
// none), and the cgroup files given (path -> content), under a directory of its own.
func host(t *testing.T, siblings []string, files map[string]string) string {
	root := t.TempDir()
	write := func(p, s string) {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for cpu, s := range siblings {
		if s != "" {
			write(fmt.Sprintf("sys/devices/system/cpu/cpu%d/topology/core_cpus_list", cpu), s+"\n")
		}
	}
	for p, s := range files {
		write(p, s)
	}
	return root
}

func TestUsable(t *testing.T) {
	v1 := "4:cpu,cpuacct:/judge\n3:cpuset:/\n"
	v2 := "0::/judge.slice\n"
	for _, tc := range []struct {
		name     string
		siblings []string
		allowed  []int
		cgroup   string
		files    map[string]string
		want     string
	}{
		{"one core per CPU", []string{"0", "1"}, []int{0, 1}, "", nil, "0 1"},
		{"hyper-thread siblings are one core", []string{"0,2", "1,3", "0,2", "1,3"}, []int{0, 1, 2, 3}, "", nil, "0,2 1,3"},
		{"a range of siblings", []string{"0-1", "0-1", "2-3", "2-3"}, []int{0, 1, 2, 3}, "", nil, "0,1 2,3"},
		{"the affinity bounds them", []string{"0,2", "1,3", "0,2", "1,3"}, []int{1, 3}, "", nil, "1,3"},
		{"half a core pair allowed", []string{"0,2", "1,3", "0,2", "1,3"}, []int{0, 1, 3}, "", nil, "0 1,3"},
		{"no topology: each CPU a core", []string{"", "", ""}, []int{0, 1, 2}, "", nil, "0 1 2"},
		{"a v1 quota of 1.5 cores", []string{"0", "1", "2", "3"}, []int{0, 1, 2, 3}, v1,
			map[string]string{"sys/fs/cgroup/cpu,cpuacct/judge/cpu.cfs_quota_us": "150000\n", "sys/fs/cgroup/cpu,cpuacct/judge/cpu.cfs_period_us": "100000\n"}, "0"},
		{"a v1 quota of -1 is none", []string{"0", "1"}, []int{0, 1}, v1,
			map[string]string{"sys/fs/cgroup/cpu,cpuacct/judge/cpu.cfs_quota_us": "-1\n", "sys/fs/cgroup/cpu,cpuacct/judge/cpu.cfs_period_us": "100000\n"}, "0 1"},
		{"a v2 quota of 2 cores", []string{"0", "1", "2", "3"}, []int{0, 1, 2, 3}, v2,
			map[string]string{"sys/fs/cgroup/judge.slice/cpu.max": "200000 100000\n"}, "0 1"},
		{"a v2 quota of half a core still leaves one", []string{"0", "1"}, []int{0, 1}, v2,
			map[string]string{"sys/fs/cgroup/judge.slice/cpu.max": "50000 100000\n"}, "0"},
		{"v2 max is no quota", []string{"0", "1"}, []int{0, 1}, v2,
			map[string]string{"sys/fs/cgroup/judge.slice/cpu.max": "max 100000\n"}, "0 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := Host{Root: host(t, tc.siblings, tc.files), Allowed: tc.allowed, CgroupOf: tc.cgroup}
			if tc.cgroup == "" {
				h.CgroupOf = "0::/\n"
			}
			got, err := h.Usable()
			if err != nil {
				t.Fatal(err)
			}
			var sets []string
			for _, c := range got {
				sets = append(sets, c.Set())
			}
			if s := fmt.Sprint(sets); s != "["+tc.want+"]" {
				t.Errorf("got %s, want [%s]", s, tc.want)
			}
		})
	}
}

// This machine's own: every allowed CPU is in exactly one core.
func TestUsableHere(t *testing.T) {
	got, err := Host{}.Usable()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatal("no core")
	}
	seen := map[int]bool{}
	for _, c := range got {
		for _, cpu := range c.CPUs {
			if seen[cpu] {
				t.Errorf("CPU %d in two cores", cpu)
			}
			seen[cpu] = true
		}
	}
}

// Two judges of a host never hold the same core; a judge's release (or death: its files
// close) frees its cores for the next.
func TestLease(t *testing.T) {
	dir := t.TempDir()
	all := []Core{{0, []int{0}}, {1, []int{1}}, {2, []int{2}}}
	a, err := Take(dir, all, 2)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Take(dir, all, 0)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(l *Lease) (out []int) {
		for _, c := range l.Cores {
			out = append(out, c.ID)
		}
		return out
	}
	if !slices.Equal(ids(a), []int{0, 1}) || !slices.Equal(ids(b), []int{2}) {
		t.Fatalf("a %v, b %v", ids(a), ids(b))
	}
	c, err := Take(dir, all, 0)
	if err != nil || len(c.Cores) != 0 {
		t.Fatalf("a third judge got %v, %v: every core is held", ids(c), err)
	}
	a.Release()
	if c, err = Take(dir, all, 0); err != nil || !slices.Equal(ids(c), []int{0, 1}) {
		t.Fatalf("after a's release: %v, %v", ids(c), err)
	}
}

func TestParseList(t *testing.T) {
	for in, want := range map[string]string{"1": "[1]", "0-3": "[0 1 2 3]", "1,3-5": "[1 3 4 5]"} {
		got, err := ParseList(in)
		if err != nil || fmt.Sprint(got) != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "a", "3-1", "-1", "1,"} {
		if _, err := ParseList(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
