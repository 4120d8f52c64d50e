package daemon_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/queue/queuetest"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
)

// host is a network namespace of the test's own, joined to this machine by a veth pair: a
// machine of its own on the network 10.213.N.0/30, which the test can cut off and join again.
type host struct {
	ns, outside, inside string
	gateway, addr       string
}

func ip(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
		t.Fatalf("ip %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func newHost(t *testing.T) *host {
	t.Helper()
	_, errIP := exec.LookPath("ip")
	_, errNS := exec.LookPath("nsenter")
	if errIP != nil || errNS != nil || os.Geteuid() != 0 {
		if os.Getenv("JUDGE_REQUIRE_DOCKER") != "" {
			t.Fatal("a partition test needs root, iproute2 (ip netns, veth) and nsenter")
		}
		t.Skip("needs root, iproute2 and nsenter")
	}
	n := os.Getpid() % 250
	h := &host{ns: fmt.Sprintf("judgetest%d", n), outside: fmt.Sprintf("jt%dh", n), inside: fmt.Sprintf("jt%dn", n),
		gateway: fmt.Sprintf("10.213.%d.1", n), addr: fmt.Sprintf("10.213.%d.2", n)}
	exec.Command("ip", "netns", "del", h.ns).Run() // left by a killed run
	exec.Command("ip", "link", "del", h.outside).Run()
	ip(t, "netns", "add", h.ns)
	t.Cleanup(func() {
		exec.Command("ip", "netns", "del", h.ns).Run()
		exec.Command("ip", "link", "del", h.outside).Run()
	})
	ip(t, "link", "add", h.outside, "type", "veth", "peer", "name", h.inside)
	ip(t, "link", "set", h.inside, "netns", h.ns)
	ip(t, "addr", "add", h.gateway+"/30", "dev", h.outside)
	ip(t, "link", "set", h.outside, "up")
	ip(t, "netns", "exec", h.ns, "ip", "addr", "add", h.addr+"/30", "dev", h.inside)
	ip(t, "netns", "exec", h.ns, "ip", "link", "set", h.inside, "up")
	ip(t, "netns", "exec", h.ns, "ip", "link", "set", "lo", "up")
	return h
}

// cut takes the host off the network (its link goes down: packets are lost, nothing is
// reset), heal puts it back.
func (h *host) cut(t *testing.T)  { ip(t, "netns", "exec", h.ns, "ip", "link", "set", h.inside, "down") }
func (h *host) heal(t *testing.T) { ip(t, "netns", "exec", h.ns, "ip", "link", "set", h.inside, "up") }

// A daemon on a machine of its own is cut off from the cluster in the middle of a match:
// its job is delivered again, after AckWait, to a daemon that can still reach the cluster,
// which judges it. The cut-off daemon finishes its match and keeps trying to store it; when
// the partition heals, its late result is delivered and does not become a second result.
func TestPartitionedDaemon(t *testing.T) {
	before := containers(t)
	h := newHost(t)
	// The nodes take clients on this machine's end of the veth pair only: the test's own
	// network, reachable from the namespace and from here.
	c := queuetest.StartCluster(t, queuetest.Options{Listen: h.gateway, AckWait: ackWait})
	q := client(t, c.URLs(0))

	bin := buildJudge(t)
	// nsenter, not ip netns exec: that mounts a /sys of the namespace's own, without the
	// host's cgroups, which the judge reads.
	cmd := exec.Command("nsenter", "--net=/var/run/netns/"+h.ns, bin, "serve")
	cmd.Env = append(os.Environ(), "JUDGE_NATS_URL="+c.URLs(0), "JUDGE_DATA_DIR="+t.TempDir(),
		"JUDGE_SERVE_ACK_WAIT="+ackWait.String(), "JUDGE_SERVE_HTTP=off", "JUDGE_SERVE_WORKERS=1", "JUDGE_LOG_LEVEL=info")
	var logs queuetest.Buffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop := func() { once.Do(func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }) }
	defer stop()

	// The broken fugitive sleeps at its second move: the match runs ~15 s (the wall cap).
	submit(t, q, "cut", jobJSON(t, "cut", "ontherun", nil, "bots/ontherun/broken", "bots/ontherun/cpp"))
	deadline := time.Now().Add(2 * time.Minute)
	for len(containers(t)) < len(before)+2 {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon on the other machine never started the match\n%s", logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	h.cut(t)
	cutAt := time.Now()
	m := startDaemon(t, c.URLs(0))
	r := results(t, q, 3*time.Minute, "cut")["cut"]
	if r.Status != result.StatusOK || r.Players[0].Fault == nil || r.Players[0].Fault.Kind != "timeout" {
		t.Errorf("result: %+v", r)
	}
	if counter(m, "ok") != 1 {
		t.Errorf("the daemon that can reach the cluster judged the job %v times; want once", counter(m, "ok"))
	}
	t.Logf("judged again %v after the partition", time.Since(cutAt).Round(time.Second))

	// The cut-off daemon has finished its match by now, and cannot store it.
	for !strings.Contains(logs.String(), "storing the replay failed: trying again") {
		if time.Since(cutAt) > 2*time.Minute {
			t.Fatalf("the cut-off daemon never finished its match\n%s", logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	h.heal(t)
	for !strings.Contains(logs.String(), "already stored: it is kept, this one dropped") {
		if time.Since(cutAt) > 3*time.Minute {
			t.Fatalf("the cut-off daemon never delivered its late result\n%s", logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	st := streamState(t, c.URLs(0), "JUDGE_RESULTS")
	if st.Msgs != 1 || st.LastSeq != 1 {
		t.Errorf("%d results stored of %d ever stored; want 1", st.Msgs, st.LastSeq)
	}
	// The stored result's replay is its own match's, not the late one's.
	var rep bytes.Buffer
	key := strings.TrimPrefix(r.Replay, queue.BucketReplays+"/")
	if ok, err := q.GetObject(context.Background(), queue.BucketReplays, key, &rep); !ok || err != nil {
		t.Fatalf("the replay %s: %v %v", r.Replay, ok, err)
	}
	rp, err := replay.Read(&rep)
	if err != nil || !rp.Result.Judge.Started.Equal(r.Judge.Started) {
		t.Errorf("the replay %s (%v) is of the match started at %v; the result's started at %v", r.Replay, err, rp.Result.Judge.Started, r.Judge.Started)
	}
	stop()
	noContainersLeft(t, before)
}
