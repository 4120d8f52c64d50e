package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/queue/queuetest"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// docker runs the docker command (the engine's CLI), failing t on an error.
func docker(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("docker", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("docker %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// imageFrom builds an image of dockerfile (with files, and bin/judge when judge, in its
// context) on the judge's Debian base image, removed at the test's end.
func imageFrom(t *testing.T, name, dockerfile string, judge bool, files map[string]string) string {
	t.Helper()
	base := strings.Fields(docker(t, "images", "judge/base", "--format", "{{.Repository}}:{{.Tag}}"))
	if len(base) == 0 {
		t.Fatal("no judge/base image: judge images build makes it")
	}
	ctx := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(ctx, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ctx, "Dockerfile"), []byte(dockerfile), 0o644); err != nil {
		t.Fatal(err)
	}
	if judge {
		build := exec.Command("go", "build", "-o", filepath.Join(ctx, "bin", "judge"), filepath.Join(sandboxtest.Root(), "cmd", "judge"))
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building the judge: %v\n%s", err, out)
		}
	}
	tag := fmt.Sprintf("judge-test/%s:%d", name, os.Getpid())
	docker(t, "build", "-q", "--build-arg", "BASE="+base[0], "-t", tag, ctx)
	t.Cleanup(func() { exec.Command("docker", "rmi", "-f", tag).Run() })
	return tag
}

// submitTo judges a match of a game of four, its bots in langs, through the judge serving
// NATS at addr, as judge submit --wait does.
func submitTo(t *testing.T, addr string, langs ...string) result.Result {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no judge serves NATS at %s after a minute", addr)
		}
	}
	t.Setenv("JUDGE_NATS_URL", "nats://"+addr)
	bot := func(lang string) string { return filepath.Join(sandboxtest.Root(), "bots", "langwars", lang) }
	args := []string{"submit", "--game", "langwars", "--opt", "turns=2", "--wait", "--json"}
	for _, l := range langs {
		args = append(args, bot(l))
	}
	out, err := runCLIWithin(t, 3*time.Minute, args...)
	var r result.Result
	if i := strings.Index(out, "{"); i < 0 || json.Unmarshal([]byte(out[i:]), &r) != nil {
		t.Fatalf("judge submit: %v\n%s", err, out)
	}
	return r
}

// The daemon's container image (the repository's Dockerfile, as make daemon-image builds it)
// judges a match when run as the Dockerfile says (the host's engine, cgroups and PIDs), its
// bots measured; stopped, it ends cleanly. Run without --pid=host it cannot see its bots, and
// says so in the match's result rather than judge with figures of nothing.
func TestDaemonImage(t *testing.T) {
	sandboxtest.Engine(t)
	dockerfile, err := os.ReadFile(filepath.Join(sandboxtest.Root(), "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	img := imageFrom(t, "daemon", string(dockerfile), true, nil)
	for _, tc := range []struct {
		name    string
		pidHost bool
	}{{"as the Dockerfile says", true}, {"without --pid=host", false}} {
		t.Run(tc.name, func(t *testing.T) {
			data, addr := t.TempDir(), queuetest.FreeAddr(t)
			args := []string{"run", "-d", "--network", "host", "-v", "/var/run/docker.sock:/var/run/docker.sock",
				"-v", "/sys/fs/cgroup:/sys/fs/cgroup", "-v", data + ":" + data, "-e", "JUDGE_DATA_DIR=" + data,
				"-e", "JUDGE_NATS_LISTEN=" + addr, "-e", "JUDGE_SERVE_HTTP=off", "-e", "JUDGE_SERVE_MAX_DELIVER=1"}
			if tc.pidHost {
				args = append(args, "--pid=host")
			}
			id := docker(t, append(args, img, "serve")...)
			defer exec.Command("docker", "rm", "-f", id).Run()
			r := submitTo(t, addr, "cpp", "go", "cpp", "go")
			switch {
			case tc.pidHost && (r.Status != result.StatusOK || len(r.Players) != 4 || r.Players[0].MaxRSSKiB == 0):
				t.Errorf("the match: %+v\n%s", r, docker(t, "logs", id))
			case !tc.pidHost && (r.Error == nil || !strings.Contains(r.Error.Message, "--pid=host")):
				t.Errorf("the match of a judge that cannot see its bots: %+v; want an error saying --pid=host", r)
			}
			docker(t, "stop", "-t", "60", id)
			if code := docker(t, "inspect", id, "--format", "{{.State.ExitCode}}"); code != "0" {
				t.Errorf("the daemon stopped with exit status %s\n%s", code, docker(t, "logs", id))
			}
		})
	}
}

// The systemd units of docs/examples on a machine of their own: a container whose init is
// systemd, with Debian's Docker engine as its docker.service (no machine here boots systemd
// itself, and a daemon in systemd's PID namespace could not see the bots of the host's engine).
// Each unit passes systemd-analyze verify; judge.service, as shipped, starts the daemon, which
// answers /healthz and judges a match of four, its bots measured; killed, systemd starts it
// again; stopped, it stops taking jobs and ends within the unit's stop timeout.
// judge-portal.service serves the portal.
func TestSystemdUnits(t *testing.T) {
	sandboxtest.Engine(t)
	// Copying the toolchain images into the machine's engine (docker save | docker load) holds
	// up the host's engine for seconds: a bot started beside it in the other lane waited past
	// its launcher's 30 s (CI, TestProtocolAbuse).
	sandboxtest.Alone(t, "it loads the toolchain images into another engine")
	// The machine has a cgroup namespace of its own, where the kernel lets no one make a cgroup
	// hierarchy: systemd mounts every controller the host left unmounted (perf_event, hugetlb,
	// net_cls), and one made so outlives the container, in every process's /proc/PID/cgroup,
	// where the host's containerd then cannot place its containers (no OOM kills seen from
	// then on). The engine gives the machine its cgroups read-only; the machine's own engine
	// writes its bots', so its init makes them writable first. Its bridge and iptables rules
	// are the host's business: the bots have no network.
	img := imageFrom(t, "systemd", `ARG BASE
FROM ${BASE}
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends systemd docker.io >/dev/null && rm -rf /var/lib/apt/lists/*
COPY daemon.json /etc/docker/daemon.json
COPY init /init
STOPSIGNAL SIGRTMIN+3
CMD ["/bin/sh", "/init"]
`, false, map[string]string{
		"daemon.json": `{"iptables": false, "ip6tables": false, "bridge": "none"}`,
		"init":        "for d in /sys/fs/cgroup/*/; do mount -o remount,bind,rw \"$d\" || exit 1; done\nexec /lib/systemd/systemd\n",
	})
	// Not --privileged: this machine's own bounding set lacks CAP_SYS_RESOURCE, which that asks
	// for. The engine inside needs to mount (SYS_ADMIN), make its devices (MKNOD), set up the
	// bots' network namespaces (NET_ADMIN) and write their cgroups; its images live in memory.
	// Not the host's network either: an engine without a bridge removes docker0 from the
	// network namespace it runs in.
	before := cgroupHierarchies(t)
	id := docker(t, "run", "-d", "--cgroupns", "private", "--cap-add", "SYS_ADMIN", "--cap-add", "NET_ADMIN", "--cap-add", "MKNOD",
		"--security-opt", "seccomp=unconfined", "--security-opt", "apparmor=unconfined",
		"--tmpfs", "/run", "--tmpfs", "/run/lock", "--tmpfs", "/var/lib/docker:exec", img)
	defer exec.Command("docker", "rm", "-f", id).Run()
	in := func(args ...string) string { return docker(t, append([]string{"exec", id}, args...)...) }
	ip := docker(t, "inspect", "-f", "{{.NetworkSettings.IPAddress}}", id)
	natsAddr, healthAddr, portalAddr := net.JoinHostPort(ip, "4222"), net.JoinHostPort(ip, "9464"), net.JoinHostPort(ip, "8080")
	waitFor(t, time.Minute, "systemd and its docker.service start in the container", func() bool {
		out, _ := exec.Command("docker", "exec", id, "systemctl", "is-active", "docker").CombinedOutput()
		return strings.TrimSpace(string(out)) == "active"
	})
	if after := cgroupHierarchies(t); after != before {
		t.Errorf("the machine changed the host's cgroup hierarchies:\n%s\nthen:\n%s", before, after)
	}
	// The toolchain images, from the host's engine: the machine has no registry either.
	out, err := runCLI(t, "images", "list", "--json")
	var list []struct {
		Lang         string `json:"lang"`
		CompileImage string `json:"compile_image"`
		RunImage     string `json:"run_image"`
	}
	if err != nil || json.Unmarshal([]byte(out), &list) != nil {
		t.Fatalf("judge images list: %v\n%s", err, out)
	}
	for _, l := range list {
		if l.Lang == "cpp" {
			save := exec.Command("docker", "save", l.CompileImage, l.RunImage)
			load := exec.Command("docker", "exec", "-i", id, "docker", "load", "-q")
			load.Stdin, _ = save.StdoutPipe()
			if err := save.Start(); err != nil {
				t.Fatal(err)
			}
			if out, err := load.CombinedOutput(); err != nil || save.Wait() != nil {
				t.Fatalf("loading %s and %s into the machine's engine: %v\n%s", l.CompileImage, l.RunImage, err, out)
			}
		}
	}
	bin := filepath.Join(t.TempDir(), "judge")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(sandboxtest.Root(), "cmd", "judge")).CombinedOutput(); err != nil {
		t.Fatalf("building the judge: %v\n%s", err, out)
	}
	files := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(files, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	in("mkdir", "-p", "/etc/judge", "/etc/systemd/system/judge-portal.service.d")
	for _, cp := range [][2]string{
		{bin, "/usr/local/bin/judge"},
		{filepath.Join(sandboxtest.Root(), "docs", "examples", "judge.service"), "/etc/systemd/system/judge.service"},
		{filepath.Join(sandboxtest.Root(), "docs", "examples", "judge-portal.service"), "/etc/systemd/system/judge-portal.service"},
		{write("judge.yaml", "nats:\n  listen: 0.0.0.0:4222\nserve:\n  http: 0.0.0.0:9464\n  max_deliver: 1\nportal:\n  listen: 0.0.0.0:8080\n"), "/etc/judge/judge.yaml"},
		// The portal beside the daemon: the daemon's NATS server, its own data directory.
		{write("portal.conf", "[Service]\nEnvironment=JUDGE_DATA_DIR=/var/lib/judge-portal\nEnvironment=JUDGE_NATS_URL=nats://127.0.0.1:4222\n"), "/etc/systemd/system/judge-portal.service.d/nats.conf"},
	} {
		docker(t, "cp", cp[0], id+":"+cp[1])
	}
	if out, err := exec.Command("docker", "exec", id, "systemd-analyze", "verify", "/etc/systemd/system/judge.service", "/etc/systemd/system/judge-portal.service").CombinedOutput(); err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	in("systemctl", "daemon-reload")
	in("systemctl", "enable", "--now", "judge")
	healthy := func() bool {
		resp, err := http.Get("http://" + healthAddr + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == 200
	}
	waitFor(t, time.Minute, "judge.service's daemon answers /healthz", healthy)
	if r := submitTo(t, natsAddr, "cpp", "cpp", "cpp", "cpp"); r.Status != result.StatusOK || len(r.Players) != 4 || r.Players[0].MaxRSSKiB == 0 {
		t.Errorf("a match through the unit's daemon: %+v\n%s", r, in("journalctl", "-u", "judge", "--no-pager"))
	}
	pid := in("systemctl", "show", "-p", "MainPID", "--value", "judge")
	in("systemctl", "kill", "--signal=KILL", "judge")
	waitFor(t, time.Minute, "systemd starts the killed daemon again (Restart=on-failure)", func() bool {
		now, _ := exec.Command("docker", "exec", id, "systemctl", "show", "-p", "MainPID", "--value", "judge").Output()
		return strings.TrimSpace(string(now)) != pid && strings.TrimSpace(string(now)) != "0" && healthy()
	})
	in("systemctl", "start", "judge-portal")
	waitFor(t, time.Minute, "judge-portal.service serves the portal", func() bool {
		resp, err := http.Get("http://" + portalAddr + "/rules/amazes")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == 200
	})
	in("systemctl", "stop", "judge-portal", "judge")
	if state := in("systemctl", "show", "-p", "ActiveState", "--value", "judge"); state != "inactive" {
		t.Errorf("judge.service after systemctl stop: %s", state)
	}
	if log := in("journalctl", "-u", "judge", "--no-pager"); !strings.Contains(log, "stopping: no new jobs") {
		t.Errorf("the daemon's log under systemd does not say it stopped taking jobs:\n%s", log)
	}
	if left := in("docker", "ps", "-aq"); left != "" {
		t.Errorf("containers left in the machine's engine after the daemon stopped: %s", left)
	}
}

// cgroupHierarchies are the cgroup hierarchies a process of the host is in.
func cgroupHierarchies(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if f := strings.SplitN(line, ":", 3); len(f) == 3 {
			names = append(names, f[0]+":"+f[1])
		}
	}
	return strings.Join(names, " ")
}
