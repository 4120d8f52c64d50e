package daemon_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
)

// The daemon's failure policy with a fake queue and a fake runner: what it publishes and how
// it settles each job, for every way a job can end, without NATS or Docker. daemon_test.go
// plays the same through a real NATS server and real matches.

// fakeMsg is a delivered job message; settled receives how it was settled.
type fakeMsg struct {
	jetstream.Msg // the methods the daemon does not use
	id            string
	data          []byte
	delivered     uint64
	subject       string // "jobs.fake" when empty: a subject of no lane
	settled       chan string
}

func (m *fakeMsg) Metadata() (*jetstream.MsgMetadata, error) {
	return &jetstream.MsgMetadata{Sequence: jetstream.SequencePair{Stream: 7}, NumDelivered: m.delivered, Timestamp: time.Now()}, nil
}
func (m *fakeMsg) Headers() nats.Header {
	return nats.Header{jetstream.MsgIDHeader: []string{m.id}}
}
func (m *fakeMsg) Data() []byte                       { return m.data }
func (m *fakeMsg) Subject() string                    { return cmp.Or(m.subject, "jobs.fake") }
func (m *fakeMsg) InProgress() error                  { return nil }
func (m *fakeMsg) DoubleAck(context.Context) error    { m.settled <- "ack"; return nil }
func (m *fakeMsg) Nak() error                         { m.settled <- "nak"; return nil }
func (m *fakeMsg) NakWithDelay(d time.Duration) error { m.settled <- "nak " + d.String(); return nil }
func (m *fakeMsg) Term() error                        { m.settled <- "term"; return nil }
func (m *fakeMsg) TermWithReason(string) error        { m.settled <- "term"; return nil }

// fakeQueue hands out one job, then waits; it keeps what is published.
type fakeQueue struct {
	mu        sync.Mutex
	next      chan jetstream.Msg
	results   map[string][]byte
	objects   map[string]string
	metas     map[string]map[string]string // objects' metadata, by bucket/key
	failPubs  int                          // PublishResult fails this many times
	published []result.Result
	lanes     map[string]queue.Lane // of the results, by job id
}

// maxDeliver is the fake consumer's MaxDeliver.
const maxDeliver = 3

func (q *fakeQueue) Next(ctx context.Context) (*queue.Delivery, error) {
	select {
	case m := <-q.next:
		return queue.NewDelivery(m, maxDeliver)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func newFakeQueue() *fakeQueue {
	return &fakeQueue{next: make(chan jetstream.Msg, 1), results: map[string][]byte{}, objects: map[string]string{}, metas: map[string]map[string]string{}}
}

func (q *fakeQueue) Result(_ context.Context, id string) ([]byte, bool, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	r, ok := q.results[id]
	return r, ok, nil
}

func (q *fakeQueue) PublishResult(_ context.Context, lane queue.Lane, id string, data []byte) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.failPubs > 0 {
		q.failPubs--
		return errors.New("the results stream is unavailable")
	}
	q.results[id] = data
	if q.lanes == nil {
		q.lanes = map[string]queue.Lane{}
	}
	q.lanes[id] = lane
	var r result.Result
	json.Unmarshal(data, &r)
	q.published = append(q.published, r)
	return nil
}

func (q *fakeQueue) PutObjectMeta(_ context.Context, bucket, key string, meta map[string]string, r io.Reader) error {
	b, _ := io.ReadAll(r)
	q.mu.Lock()
	defer q.mu.Unlock()
	q.objects[bucket+"/"+key] = string(b)
	q.metas[bucket+"/"+key] = meta
	return nil
}

func (q *fakeQueue) URL() string { return "fake://" }

func (q *fakeQueue) Started(string)                  {}
func (q *fakeQueue) Live(string) (io.Writer, func()) { return io.Discard, func() {} }

// fakeRunner plays every match as play says, and builds every build job.
type fakeRunner struct {
	play   func(match.Job) (result.Result, error)
	calls  int
	builds int
}

func (r *fakeRunner) Build(_ context.Context, j match.Job) (result.Result, error) {
	r.builds++
	res := result.Result{Version: result.Version, ID: j.ID, Game: j.Game.Name(), Status: result.StatusOK}
	for _, p := range j.Players {
		res.Players = append(res.Players, result.Player{Name: p.Name, Lang: p.Submission.Lang, Build: result.Build{OK: true}})
	}
	return res, nil
}

func (r *fakeRunner) Play(_ context.Context, j match.Job) (result.Result, error) {
	r.calls++
	return r.play(j)
}

// judged is the result of a match judged: player 0 won.
func judged(j match.Job) (result.Result, error) {
	winner := 0
	return result.Result{Version: result.Version, ID: j.ID, Game: j.Game.Name(), Seed: j.Seed, Status: result.StatusOK,
		Winner: &winner, Players: []result.Player{{Name: "a", Score: 1, Rank: 1}, {Name: "b", Rank: 2}}}, nil
}

// fails is a runner that cannot judge the match, with err.
func fails(err error) func(match.Job) (result.Result, error) {
	return func(match.Job) (result.Result, error) { return result.Result{}, err }
}

// aJob is a valid job of id for Amazes.
func aJob(id string) []byte {
	b, _ := json.Marshal(job.Job{Version: job.Version, ID: id, Game: "amazes", Players: []job.Player{
		{Name: "a", Lang: "cpp", Files: map[string]string{"a.cpp": "int main(){}"}},
		{Name: "b", Lang: "cpp", Files: map[string]string{"b.cpp": "int main(){}"}}}})
	return b
}

// serveOne runs a daemon on q and r until it has settled one delivery of data (the attempt
// delivered), and returns how it settled it.
func serveOne(t *testing.T, q *fakeQueue, r daemon.Runner, id string, data []byte, delivered uint64) string {
	t.Helper()
	return serveMsg(t, q, r, &fakeMsg{id: id, data: data, delivered: delivered})
}

// serveMsg runs a daemon on q and r until it has settled m, and returns how it settled it.
func serveMsg(t *testing.T, q *fakeQueue, r daemon.Runner, m *fakeMsg) string {
	t.Helper()
	d, err := daemon.New(daemon.Options{Queue: q, Runners: []daemon.Runner{r}, Jobs: job.Rules{Game: games.Lookup, Langs: images.LangNames(), MaxSource: 1 << 20},
		Backoff: []time.Duration{5 * time.Second, 30 * time.Second}, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	m.settled = make(chan string, 4)
	q.next <- m
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	select {
	case how := <-m.settled:
		return how
	case <-time.After(10 * time.Second):
		t.Fatal("the job was not settled")
		return ""
	}
}

func TestFailurePolicyWithFakes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		data      []byte
		play      func(match.Job) (result.Result, error)
		delivered uint64
		settled   string
		code      result.Code // of the error result published; "" for a judged one, "-" for none
	}{
		{"judged", aJob("m1"), judged, 1, "ack", ""},
		{"not a job", []byte(`{"version":`), judged, 1, "term", result.InvalidJob},
		// A newer judge's job goes back for a daemon that reads it, and fails only at the end.
		{"a field of a newer judge", []byte(strings.Replace(string(aJob("m1")), `"players":[`, `"priority":3,"players":[`, 1)), judged, 1, "nak 5s", "-"},
		{"a newer version", []byte(strings.Replace(string(aJob("m1")), `"version":1`, `"version":2`, 1)), judged, 2, "nak 30s", "-"},
		{"a field of a newer judge, the last time", []byte(strings.Replace(string(aJob("m1")), `"players":[`, `"priority":3,"players":[`, 1)), judged, maxDeliver, "term", result.InvalidJob},
		{"unknown game", []byte(strings.Replace(string(aJob("m1")), "amazes", "chess", 1)), judged, 1, "term", result.UnknownGame},
		{"a bad option", aJob("m1"), fails(result.Errorf(result.BadOption, "option turns: 999 is out of range 1..150")), 1, "term", result.BadOption},
		{"the judge failed", aJob("m1"), fails(errors.New("the engine is gone")), 1, "nak 5s", "-"},
		{"the judge failed again", aJob("m1"), fails(errors.New("the engine is gone")), 2, "nak 30s", "-"},
		{"the judge failed the last time", aJob("m1"), fails(errors.New("the engine is gone")), maxDeliver, "term", result.Infrastructure},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := newFakeQueue()
			how := serveOne(t, q, &fakeRunner{play: tc.play}, "m1", tc.data, tc.delivered)
			if how != tc.settled {
				t.Errorf("settled %q, want %q", how, tc.settled)
			}
			switch {
			case tc.code == "-":
				if len(q.published) != 0 {
					t.Errorf("published %+v; want nothing before the job's last attempt", q.published)
				}
			case len(q.published) != 1:
				t.Fatalf("published %d results, want 1", len(q.published))
			case tc.code == "":
				if r := q.published[0]; r.Status != result.StatusOK || r.Replay != "replays/m1.jsonl" {
					t.Errorf("published %+v; want the judged result with its replay stored", r)
				}
			default:
				if r := q.published[0]; r.Status != result.StatusError || r.Error == nil || r.Error.Code != tc.code || r.ID != "m1" {
					t.Errorf("published %+v; want a %s error result for m1", r, tc.code)
				}
			}
		})
	}
}

// A build job is built, not played: its result has no replay, and none is stored.
func TestBuildJobWithFakes(t *testing.T) {
	q := newFakeQueue()
	r := &fakeRunner{play: judged}
	one := strings.Replace(string(aJob("b1")), `"players":[`, `"kind":"build","players":[`, 1)
	if how := serveOne(t, q, r, "b1", []byte(one), 1); how != "ack" || r.calls != 0 || r.builds != 1 {
		t.Fatalf("a build job: settled %q after %d matches and %d builds; want ack, 0 and 1", how, r.calls, r.builds)
	}
	if len(q.published) != 1 || q.published[0].Replay != "" || len(q.objects) != 0 || len(q.published[0].Players) != 2 {
		t.Errorf("published %+v, stored %d objects; want the builds' result with no replay", q.published, len(q.objects))
	}
}

// A job whose result is already stored (its judge died after publishing) is acknowledged
// without being judged again; a result that cannot be published leaves the job to come back.
func TestNothingLostNothingTwiceWithFakes(t *testing.T) {
	q := newFakeQueue()
	q.results["m1"] = []byte(`{"status":"ok"}`)
	r := &fakeRunner{play: judged}
	if how := serveOne(t, q, r, "m1", aJob("m1"), 2); how != "ack" || r.calls != 0 {
		t.Errorf("a job already judged: settled %q after %d matches; want ack and none", how, r.calls)
	}
	// On its last attempt too: a job handed back then would never come again.
	q = newFakeQueue()
	q.failPubs = 2
	r = &fakeRunner{play: judged}
	if how := serveOne(t, q, r, "m2", aJob("m2"), maxDeliver); how != "ack" || len(q.published) != 1 || r.calls != 1 {
		t.Errorf("a result that could not be published at first: settled %q, %d published after %d matches; want it published again and acked, the match played once",
			how, len(q.published), r.calls)
	}
}

// The replay and the result record the lane their job came on, which decides how long they
// are kept; of a job of no lane's subject, both record the main lane (kept for good).
func TestReplayRecordsItsLaneWithFakes(t *testing.T) {
	for _, tc := range []struct {
		subject string
		lane    string
		result  queue.Lane
	}{
		{"judge.jobs", "main", queue.LaneMain},
		{"judge.jobs.low", "test", queue.LaneTest},
		{"contest-7.jobs.ladder", "ladder", queue.LaneLadder},
		{"jobs.fake", "main", queue.LaneMain},
	} {
		t.Run(tc.subject, func(t *testing.T) {
			q := newFakeQueue()
			if how := serveMsg(t, q, &fakeRunner{play: judged}, &fakeMsg{id: "m1", data: aJob("m1"), delivered: 2, subject: tc.subject}); how != "ack" {
				t.Fatalf("settled %q, want ack", how)
			}
			meta, ok := q.metas["replays/m1@2.jsonl"]
			if !ok {
				t.Fatalf("no replay stored as replays/m1@2.jsonl: %v", q.objects)
			}
			if got := meta[queue.MetaLane]; got != tc.lane {
				t.Errorf("the replay's metadata %v; want lane %q", meta, tc.lane)
			}
			if got, ok := q.lanes["m1"]; !ok || got != tc.result {
				t.Errorf("the result's lane %v (published: %v); want %v", got, ok, tc.result)
			}
		})
	}
}
