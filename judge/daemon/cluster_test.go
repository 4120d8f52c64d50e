package daemon_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/queue/queuetest"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// streamState is a stream's state on the cluster at urls: how many messages it holds and the
// last sequence it gave (every result ever stored, replaced ones included).
func streamState(t *testing.T, urls, stream string) jetstream.StreamState {
	t.Helper()
	nc, err := nats.Connect(urls)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := js.Stream(ctx, stream)
	if err != nil {
		t.Fatal(err)
	}
	return s.CachedInfo().State
}

// On a 3-node JetStream cluster with every stream on 3 replicas, three daemons, each on a
// node of its own, judge 30 jobs while a node is killed with SIGKILL mid-run and started
// again: first a node that does not lead the jobs stream, then the one that does. Every job
// gets one result, none is lost, and none gets a second result.
func TestClusterSurvivesANodeLoss(t *testing.T) {
	sandboxtest.Engine(t)
	for _, tc := range []struct {
		name   string
		leader bool
	}{{"follower", false}, {"jobs-leader", true}} {
		t.Run(tc.name, func(t *testing.T) {
			// An AckWait longer than a node's failover, as in a deployment (60 s by default):
			// a daemon whose node dies reconnects to another and reports progress before its
			// job is due again, so that no job is judged twice. (With one shorter than the
			// failover, the job would be judged again, and its second result dropped.)
			const ack = 15 * time.Second
			c := queuetest.StartCluster(t, queuetest.Options{AckWait: ack})
			var ms []*daemon.Metrics
			for i := range 3 {
				m := daemon.NewMetrics()
				t.Cleanup(runDaemonOn(t, clientAck(t, c.URLs(i), ack), m, ack))
				ms = append(ms, m)
			}
			q := clientAck(t, c.URLs(0), ack)
			const n = 30
			var ids []string
			for i := range n {
				id := fmt.Sprintf("%s-%d", tc.name, i)
				ids = append(ids, id)
				submit(t, q, id, jobJSON(t, id, "amazes", map[string]string{"turns": "20"}, "bots/amazes/cpp", "bots/amazes/cpp"))
			}
			// Kill a node once the daemons are well into the jobs.
			for done := 0; done < n/4; time.Sleep(100 * time.Millisecond) {
				done = 0
				for _, m := range ms {
					done += int(counter(m, "ok"))
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			leader, err := c.Leader(ctx, "JUDGE_JOBS")
			cancel()
			if err != nil || leader < 0 {
				t.Fatalf("the jobs stream's leader: %d, %v", leader, err)
			}
			victim := (leader + 1) % 3
			if tc.leader {
				victim = leader
			}
			t.Logf("killing node %s (the jobs stream's leader is %s)", c.Nodes()[victim].Name, c.Nodes()[leader].Name)
			c.Kill(victim)
			time.Sleep(3 * time.Second)
			c.Restart(victim)

			rs := results(t, q, 4*time.Minute, ids...)
			for id, r := range rs {
				if r.Status != result.StatusOK {
					t.Errorf("%s: %s %+v", id, r.Status, r.Error)
				}
			}
			time.Sleep(ack + time.Second) // a second delivery, if any, would be judged by now
			judged := 0.0
			for _, m := range ms {
				judged += counter(m, "ok")
			}
			// Delivery is at least once: a daemon whose node's failover outlasts AckWait may
			// judge its job again, but a job never has a second result (the result's
			// de-duplication id), which is what an organiser sees.
			st := streamState(t, c.URLs(0), "JUDGE_RESULTS")
			if judged < n || st.Msgs != n || st.LastSeq != n {
				t.Errorf("judged %v times, %d results stored of %d ever stored; want %d results, each stored once", judged, st.Msgs, st.LastSeq, n)
			}
			t.Logf("%d jobs: judged %v times, %d results stored", n, judged, st.Msgs)
			if t.Failed() {
				for i := range c.Nodes() {
					t.Logf("node %d: %s", i, c.Log(i))
				}
			}
		})
	}
}
