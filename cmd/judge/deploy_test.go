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

// imageFrom builds an image of dockerfile (with bin/judge in its context when judge) on the
// judge's Debian base image, removed at the test's end.
func imageFrom(t *testing.T, name, dockerfile string, judge bool) string {
	t.Helper()
	base := strings.Fields(docker(t, "images", "judge/base", "--format", "{{.Repository}}:{{.Tag}}"))
	if len(base) == 0 {
		t.Fatal("no judge/base image: judge images build makes it")
	}
	ctx := t.TempDir()
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

// submitTo judges a match of a game of four through the judge serving NATS at addr, as
// judge submit --wait does.
func submitTo(t *testing.T, addr string) result.Result {
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
	out, err := runCLIWithin(t, 3*time.Minute, "submit", "--game", "langwars", "--opt", "turns=2", "--wait", "--json", bot("cpp"), bot("go"), bot("cpp"), bot("go"))
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
	img := imageFrom(t, "daemon", string(dockerfile), true)
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
			r := submitTo(t, addr)
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

// The systemd units of docs/examples, in a container whose init is systemd (no machine here
// boots systemd itself): each passes systemd-analyze verify; judge.service starts the daemon,
// which answers /healthz and takes jobs; killed, systemd starts it again; stopped, it stops
// taking jobs and ends within the unit's stop timeout. judge-portal.service serves the portal.
// There the daemon cannot see its bots (systemd owns a PID namespace of its own, where the
// engine's process numbers are not the bots'), so a match through it is refused as such:
// TestDaemonImage judges one in the engine's PID namespace.
func TestSystemdUnits(t *testing.T) {
	sandboxtest.Engine(t)
	img := imageFrom(t, "systemd", `ARG BASE
FROM ${BASE}
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends systemd >/dev/null && rm -rf /var/lib/apt/lists/*
STOPSIGNAL SIGRTMIN+3
CMD ["/lib/systemd/systemd"]
`, false)
	data, natsAddr, healthAddr, portalAddr := t.TempDir(), queuetest.FreeAddr(t), queuetest.FreeAddr(t), queuetest.FreeAddr(t)
	id := docker(t, "run", "-d", "--cap-add", "SYS_ADMIN", "--security-opt", "seccomp=unconfined", "--security-opt", "apparmor=unconfined",
		"--network", "host", "-v", "/sys/fs/cgroup:/sys/fs/cgroup:ro", "--tmpfs", "/run", "--tmpfs", "/run/lock",
		"-v", "/var/run/docker.sock:/var/run/docker.sock", "-v", data+":"+data, img)
	defer exec.Command("docker", "rm", "-f", id).Run()
	in := func(args ...string) string { return docker(t, append([]string{"exec", id}, args...)...) }
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		if out, _ := exec.Command("docker", "exec", id, "systemctl", "is-system-running").CombinedOutput(); strings.Contains(string(out), "running") || strings.Contains(string(out), "degraded") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("systemd did not start in its container")
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
	in("mkdir", "-p", "/etc/judge", "/etc/systemd/system/judge.service.d", "/etc/systemd/system/judge-portal.service.d")
	for _, cp := range [][2]string{
		{bin, "/usr/local/bin/judge"},
		{filepath.Join(sandboxtest.Root(), "docs", "examples", "judge.service"), "/etc/systemd/system/judge.service"},
		{filepath.Join(sandboxtest.Root(), "docs", "examples", "judge-portal.service"), "/etc/systemd/system/judge-portal.service"},
		// The engine is the host's, reached by its socket: here docker.service only says so.
		{write("docker.service", "[Service]\nType=oneshot\nRemainAfterExit=yes\nExecStart=/usr/bin/test -S /var/run/docker.sock\n"), "/etc/systemd/system/docker.service"},
		{write("judge.yaml", fmt.Sprintf("nats:\n  listen: %s\nserve:\n  http: %s\n  max_deliver: 1\nportal:\n  listen: %s\n", natsAddr, healthAddr, portalAddr)), "/etc/judge/judge.yaml"},
		// The data directory at the same path inside and out: the engine mounts the bots' files from it.
		{write("data.conf", "[Service]\nEnvironment=JUDGE_DATA_DIR="+data+"\n"), "/etc/systemd/system/judge.service.d/data.conf"},
		{write("portal.conf", "[Service]\nEnvironment=JUDGE_DATA_DIR="+data+"-portal\nEnvironment=JUDGE_NATS_URL=nats://"+natsAddr+"\n"), "/etc/systemd/system/judge-portal.service.d/data.conf"},
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
	pid := in("systemctl", "show", "-p", "MainPID", "--value", "judge")
	if r := submitTo(t, natsAddr); r.Error == nil || !strings.Contains(r.Error.Message, "PID namespace") {
		t.Errorf("a match through the unit's daemon: %+v; want it refused, the bots out of its sight", r)
	}
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
}
