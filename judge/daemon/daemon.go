// Package daemon is `judge serve`: it takes match jobs from the queue one at a time per
// worker, judges them, publishes each result, and only then acknowledges the job, so a job is
// never lost and never judged twice:
//
//   - a job that cannot be judged as given (bad JSON, unknown game, bad option, ...) gets an
//     error result naming the problem and is terminated, never redelivered;
//   - a job whose result is already stored (its earlier judge died after publishing) is
//     acknowledged without judging it again;
//   - an infrastructure failure (engine down, image missing) is retried with back-off, and on
//     the last attempt answered with an infrastructure error result;
//   - storage with no room (the disk the judge writes to, the NATS store) hands the job back
//     with back-off, or keeps it on its last attempt, and pauses the daemon until there is
//     room again (room.go);
//   - a result that cannot be published is kept, the job held, and published again until it
//     goes through: the match is not judged again for the queue's sake;
//   - on shutdown, running matches get a grace period, then are handed back (nak) for another
//     daemon; their containers are removed either way.
package daemon

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/submission"
)

// Queue is what the daemon needs of the work queue: a *queue.Queue.
type Queue interface {
	// Next waits for a job.
	Next(ctx context.Context) (*queue.Delivery, error)
	// Result is the stored result of job id, if any.
	Result(ctx context.Context, id string) ([]byte, bool, error)
	// PublishResult stores the result of job id, of lane, which decides how long it is kept.
	PublishResult(ctx context.Context, lane queue.Lane, id string, result []byte) error
	// PutObjectMeta stores an object with metadata: a replay with its lane.
	PutObjectMeta(ctx context.Context, bucket, key string, meta map[string]string, r io.Reader) error
	// Started tells listeners (the portal) that a job is begun; a hint, not stored.
	Started(id string)
	// Live is where a match's replay lines go as they are written, to its watchers (a
	// queue.LiveTee: it never fails or slows the match), and the stop for when it is over.
	Live(id string) (io.Writer, func())
	URL() string
}

// Runner plays matches and builds players: a *match.Runner.
type Runner interface {
	Play(ctx context.Context, j match.Job) (result.Result, error)
	Build(ctx context.Context, j match.Job) (result.Result, error)
}

// Options configure a daemon.
type Options struct {
	Queue Queue
	// Runners play the matches: worker i plays with Runners[i % len(Runners)], so that each
	// worker's bots can have a core of their own (match.Runner's Limits.CPUSet).
	Runners []Runner
	// Jobs are what a job is checked against: the games and languages, the largest sources.
	Jobs job.Rules
	// Workers is how many matches run at once.
	Workers int
	// Grace is how long running matches may go on after shutdown begins.
	Grace time.Duration
	// Heartbeat is how often a running job is reported in progress; it must be well below
	// the queue's ack wait.
	Heartbeat time.Duration
	// Backoff is the wait before retrying after an infrastructure failure, by attempt.
	Backoff []time.Duration
	// Dirs are the directories the daemon's judging writes to (data_dir, the temporary
	// directory): after a full disk, judging resumes once each has RoomNeeded free.
	Dirs []string
	// RoomEvery is how often a daemon that lacks room looks for it again (DefaultRoomEvery).
	RoomEvery time.Duration
	// Headroom says why the judge should not start another match beside those running (its
	// open files near their limit, the machine's memory low), or nil; by default it reads
	// the process's and the machine's figures.
	Headroom func() error
	Metrics  *Metrics
	Log      *slog.Logger
}

// Daemon judges jobs from the queue.
type Daemon struct {
	o       Options
	pause   pause
	running atomic.Int32 // matches admitted (admit)
}

// New checks the options and makes a daemon.
func New(o Options) (*Daemon, error) {
	if o.Queue == nil || len(o.Runners) == 0 || o.Jobs.Game == nil || len(o.Jobs.Langs) == 0 || o.Jobs.MaxSource <= 0 {
		return nil, errors.New("daemon: Queue, Runners and Jobs (games, languages, largest sources) are required")
	}
	if o.Workers <= 0 {
		o.Workers = 1
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = 10 * time.Second
	}
	if len(o.Backoff) == 0 {
		o.Backoff = []time.Duration{5 * time.Second, 30 * time.Second, 2 * time.Minute}
	}
	if o.RoomEvery <= 0 {
		o.RoomEvery = DefaultRoomEvery
	}
	if o.Headroom == nil {
		o.Headroom = headroom
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Metrics == nil {
		o.Metrics = NewMetrics()
	}
	return &Daemon{o: o}, nil
}

// Run serves until ctx is cancelled, then waits for the running matches (up to the grace
// period) and returns.
func (d *Daemon) Run(ctx context.Context) error {
	// Matches run on their own context: shutdown stops taking jobs at once, but lets the
	// running ones finish within the grace period.
	work, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()
	var wg sync.WaitGroup
	for i := 0; i < d.o.Workers; i++ {
		runner := d.o.Runners[i%len(d.o.Runners)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.worker(ctx, work, runner)
		}()
	}
	d.o.Log.Info("daemon: serving", "workers", d.o.Workers, "queue", d.o.Queue.URL())
	<-ctx.Done()
	d.o.Log.Info("daemon: stopping: no new jobs; waiting for running matches", "grace", d.o.Grace)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d.o.Grace):
		d.o.Log.Warn("daemon: grace period over: handing running jobs back")
		cancelWork()
		<-done
	}
	return nil
}

func (d *Daemon) worker(ctx, work context.Context, runner Runner) {
	for {
		if !d.waitForRoom(ctx, 0) || !d.admit(ctx) {
			return
		}
		dl, err := d.o.Queue.Next(ctx)
		if err != nil {
			d.done()
			if ctx.Err() != nil {
				return
			}
			d.o.Log.Error("daemon: taking a job", "err", err)
			if !sleep(ctx, time.Second) {
				return
			}
			continue
		}
		d.o.Metrics.QueueLag.Set(float64(dl.Pending))
		d.o.Metrics.Wait.Observe(time.Since(dl.Published).Seconds())
		d.handle(work, dl, runner)
		d.done()
	}
}

// handle judges one delivery and settles it: ack, nak or term.
func (d *Daemon) handle(ctx context.Context, dl *queue.Delivery, runner Runner) {
	log := d.o.Log.With("job", dl.ID, "attempt", dl.NumDelivered)
	j, g, err := job.Parse(dl.Data, d.o.Jobs)
	if err != nil {
		id := j.ID
		if job.ValidID(id) != nil {
			id = dl.ID // the id it was submitted under
		}
		if job.ValidID(id) != nil {
			id = fmt.Sprintf("invalid-%d", dl.Seq)
		}
		var newer *job.NewerError
		if errors.As(err, &newer) && !dl.LastAttempt() {
			wait := d.backoff(dl)
			log.Warn("daemon: a job of a newer judge: handed back for another daemon", "id", id, "err", err, "retry_in", wait)
			d.o.Metrics.Jobs.WithLabelValues("handed_back").Inc()
			d.settle(log, func() error { return dl.Nak(wait) })
			return
		}
		log.Warn("daemon: invalid job", "id", id, "err", err)
		d.answer(ctx, log, dl, result.Failed(id, j.Game, 0, err), false)
		return
	}
	log = log.With("game", j.Game)
	if _, found, err := d.o.Queue.Result(ctx, j.ID); err == nil && found {
		log.Info("daemon: already judged: acknowledging without judging again")
		d.o.Metrics.Jobs.WithLabelValues("duplicate").Inc()
		d.settle(log, func() error { return dl.Ack(context.WithoutCancel(ctx)) })
		return
	}

	d.o.Queue.Started(j.ID)
	stop := d.heartbeat(ctx, dl, log)
	res, err := d.judge(ctx, log, j, g, dl, runner)
	stop()
	if err == nil {
		winner := "draw"
		if res.Winner != nil {
			winner = fmt.Sprint(*res.Winner)
		}
		log.Info("daemon: judged", "winner", winner, "ms", res.Judge.Finished.Sub(res.Judge.Started).Milliseconds())
		d.answer(ctx, log, dl, res, true)
		return
	}
	code := result.AsError(err).Code
	switch {
	case code != result.Infrastructure:
		log.Warn("daemon: job cannot be judged", "code", code, "err", err)
		d.answer(ctx, log, dl, result.Failed(j.ID, j.Game, seedOf(j), err), false)
	case ctx.Err() != nil:
		log.Warn("daemon: shutting down: handing the job back", "err", err)
		d.o.Metrics.Jobs.WithLabelValues("handed_back").Inc()
		d.settle(log, func() error { return dl.Nak(0) })
	case lacking(err) != "":
		d.noRoom(log, lacking(err), err)
		d.o.Metrics.Jobs.WithLabelValues("handed_back").Inc()
		if !dl.LastAttempt() {
			wait := d.backoff(dl)
			log.Warn("daemon: no room to judge the job: handed back", "err", err, "retry_in", wait)
			d.settle(log, func() error { return dl.Nak(wait) })
			return
		}
		// Handed back on its last attempt, the job would never come again: it is kept,
		// and judged again here once there is room.
		log.Warn("daemon: no room to judge the job on its last attempt: kept until there is room", "err", err)
		stop := d.heartbeat(ctx, dl, log)
		ok := d.waitForRoom(ctx, 1)
		stop()
		if !ok {
			d.settle(log, func() error { return dl.Nak(0) })
			return
		}
		d.handle(ctx, dl, runner)
	case dl.LastAttempt():
		log.Error("daemon: infrastructure failure on the last attempt: giving up", "err", err)
		d.answer(ctx, log, dl, result.Failed(j.ID, j.Game, seedOf(j), err), false)
	default:
		wait := d.backoff(dl)
		log.Error("daemon: infrastructure failure: will retry", "err", err, "retry_in", wait)
		d.o.Metrics.Jobs.WithLabelValues("retried").Inc()
		d.settle(log, func() error { return dl.Nak(wait) })
	}
}

// backoff is how long a job handed back waits before its next attempt: the back-off of its
// attempt, the last one's for every attempt after.
func (d *Daemon) backoff(dl *queue.Delivery) time.Duration {
	return d.o.Backoff[min(int(dl.NumDelivered)-1, len(d.o.Backoff)-1)]
}

// judge plays the job's match and stores its replay.
func (d *Daemon) judge(ctx context.Context, log *slog.Logger, j job.Job, g game.Game, dl *queue.Delivery, runner Runner) (result.Result, error) {
	mj, err := matchJob(j, g, randomSeed())
	if err != nil {
		return result.Result{}, err
	}
	if j.Kind == job.KindBuild {
		return runner.Build(ctx, mj)
	}
	// The replay goes to a file through a buffer of a fixed size: a match's moves cost the
	// same however long it has run, where a growing buffer would copy itself over and over.
	// The file is unlinked at once, and read through f: a judge killed mid-match leaves none.
	f, err := os.CreateTemp("", "judge-replay-*.jsonl")
	if err != nil {
		return result.Result{}, fmt.Errorf("making the replay's file: %w", err)
	}
	os.Remove(f.Name())
	defer f.Close()
	rep := bufio.NewWriterSize(f, 64<<10)
	live, stop := d.o.Queue.Live(j.ID)
	defer stop()
	mj.Replay = io.MultiWriter(rep, live)
	start := time.Now()
	res, err := runner.Play(ctx, mj)
	if err != nil {
		return res, err
	}
	if err := rep.Flush(); err != nil {
		return res, fmt.Errorf("writing the replay: %w", err)
	}
	size, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return res, fmt.Errorf("writing the replay: %w", err)
	}
	d.o.Metrics.MatchSeconds.WithLabelValues(j.Game).Observe(time.Since(start).Seconds())
	for _, p := range res.Players {
		if !p.Build.Cached {
			d.o.Metrics.BuildSeconds.WithLabelValues(p.Lang).Observe(float64(p.Build.MS) / 1000)
		}
		if p.Fault != nil {
			d.o.Metrics.Faults.WithLabelValues(string(p.Fault.Kind)).Inc()
		}
	}
	// Each delivery stores a replay of its own: a daemon cut off from the queue past
	// AckWait may still store its replay late, and must not replace the one that the
	// stored result (another delivery's) describes.
	key := j.ID + ".jsonl"
	if dl.NumDelivered > 1 {
		key = fmt.Sprintf("%s@%d.jsonl", j.ID, dl.NumDelivered)
	}
	// The lane decides how long the replay is kept: the main lane's for good, the test and
	// ladder lanes' for nats.replays_max_age (queue.ExpireReplays).
	meta := map[string]string{queue.MetaLane: dl.Lane.String()}
	if err := d.store(ctx, log, key, meta, io.NewSectionReader(f, 0, size)); err != nil {
		return res, fmt.Errorf("storing the replay: %w", err)
	}
	res.Replay = queue.BucketReplays + "/" + key
	return res, nil
}

// publishTimeout bounds one publishing of a result, the queue's retries included;
// publishRetry is the wait before the daemon publishes it again.
const (
	publishTimeout = time.Minute
	publishRetry   = time.Second
)

// storeTimeout bounds the storing of a replay, tries included, as publishTimeout bounds the
// publishing of a result: a judged match is not thrown away for a short loss of the network.
const (
	storeTimeout    = time.Minute
	storeTryTimeout = 15 * time.Second
)

// store puts a replay in the replay store, trying again (from the start: a put of the same
// key replaces it) until it is stored or storeTimeout has passed; a shutdown does not stop
// it, the match being over.
func (d *Daemon) store(ctx context.Context, log *slog.Logger, key string, meta map[string]string, data *io.SectionReader) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	for {
		// A connection that went silent (a partition) blocks a put rather than failing it:
		// each try has a time of its own.
		actx, acancel := context.WithTimeout(ctx, storeTryTimeout)
		err := d.o.Queue.PutObjectMeta(actx, queue.BucketReplays, key, meta, io.NewSectionReader(data, 0, data.Size()))
		acancel()
		if err == nil || ctx.Err() != nil {
			return err
		}
		log.Warn("daemon: storing the replay failed: trying again", "err", err)
		if !sleep(ctx, time.Second) {
			return err
		}
	}
}

// answer publishes a result, then acknowledges (judged) or terminates (not judgeable) the
// job. A result that cannot be published is kept and published again, the job held, until it
// goes through: handed back, the job would be judged again, and on its last attempt it would
// never come back. Only a shutdown hands it back, the result lost and the job not.
func (d *Daemon) answer(ctx context.Context, log *slog.Logger, dl *queue.Delivery, res result.Result, judged bool) {
	data, err := json.Marshal(res)
	if err != nil {
		log.Error("daemon: the result cannot be written as JSON: the job is handed back", "err", err)
		d.settle(log, func() error { return dl.Nak(time.Second) })
		return
	}
	publish := func() error {
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), publishTimeout)
		defer cancel()
		return d.o.Queue.PublishResult(pctx, dl.Lane, res.ID, data)
	}
	if err := publish(); err != nil {
		stop := d.heartbeat(ctx, dl, log)
		for tries := 1; err != nil; tries++ {
			if reason := lacking(err); reason != "" {
				d.noRoom(log, reason, err)
			}
			if tries == 1 {
				log.Error("daemon: publishing the result failed: the job is held and the result published again until it goes through", "err", err, "every", publishRetry)
			} else {
				log.Debug("daemon: publishing the result failed again", "tries", tries, "err", err)
			}
			if !sleep(ctx, publishRetry) {
				stop()
				log.Warn("daemon: shutting down with a result not published: the job is handed back")
				d.o.Metrics.Jobs.WithLabelValues("handed_back").Inc()
				d.settle(log, func() error { return dl.Nak(0) })
				return
			}
			if err = publish(); err == nil {
				log.Info("daemon: the result is published", "tries", tries+1)
			}
		}
		stop()
	}
	d.room("a result was published")
	if judged {
		d.o.Metrics.Jobs.WithLabelValues("ok").Inc()
		// The match is over and its result published: a shutdown does not stop the ack.
		d.settle(log, func() error { return dl.Ack(context.WithoutCancel(ctx)) })
		return
	}
	d.o.Metrics.Jobs.WithLabelValues(string(res.Error.Code)).Inc()
	d.settle(log, dl.Term)
}

func (d *Daemon) settle(log *slog.Logger, f func() error) {
	if err := f(); err != nil {
		log.Error("daemon: settling the job with the queue failed (it will be redelivered and found judged)", "err", err)
	}
}

// heartbeat keeps a long match from being redelivered while it runs.
func (d *Daemon) heartbeat(ctx context.Context, dl *queue.Delivery, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(d.o.Heartbeat)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := dl.InProgress(); err != nil {
					log.Warn("daemon: reporting progress failed", "err", err)
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}

// matchJob is the runner's job of a parsed job and its game; seed is used when the match has
// none.
func matchJob(j job.Job, g game.Game, seed uint64) (match.Job, error) {
	opts, err := j.StringOptions()
	if err != nil {
		return match.Job{}, err
	}
	if j.Seed != nil {
		seed = *j.Seed
	}
	m := match.Job{ID: j.ID, Game: g, Seed: seed, Options: opts}
	for _, p := range j.Players {
		m.Players = append(m.Players, match.Entrant{Name: p.Name, Submission: submission.Submission{Lang: p.Lang, Files: p.Sources()}})
	}
	return m, nil
}

func seedOf(j job.Job) uint64 {
	if j.Seed != nil {
		return *j.Seed
	}
	return 0
}

// sleep waits for d or until ctx is done, and reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// randomSeed draws a seed below 2^53, so that it survives JSON readers that use doubles.
func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]) >> 11
}
