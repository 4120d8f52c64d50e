package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/judge/tournament/schedule"
	"github.com/botjudge/judge/judge/tournament/standings"
)

// Queue is what a tournament needs of the work queue: a *queue.Queue.
type Queue interface {
	// Submit publishes a job under its id; a job already submitted is not queued again.
	Submit(ctx context.Context, id string, job []byte) (duplicate bool, err error)
	// Results calls fn with the stored results, oldest first, and with follow the ones
	// published later, until ctx is done.
	Results(ctx context.Context, id string, follow bool, fn func(id string, result []byte) error) error
}

// Builder is what Compile needs: a build of one submission, through the judge's cache, as
// the result reports it.
type Builder func(ctx context.Context, s submission.Submission) (result.Build, error)

// Entrant is a competitor and its submission.
type Entrant struct {
	Name       string
	Submission submission.Submission
	// Build is its compilation, when the tournament compiled it first.
	Build *result.Build
}

// Tournament is a tournament ready to run.
type Tournament struct {
	Spec     Spec
	Game     game.Game
	Entrants []Entrant
	// Progress, when set, is told of every result that settles a match.
	Progress func(Progress)
	// Retry gives the matches the judge failed every time one attempt more
	// (`judge tournament retry --failed`).
	Retry bool
}

// Progress is how far a tournament is: Done of Total matches are settled, Stored of them by
// results that were there when it started (a tournament run again), Failed of them by the
// judge's failure on every attempt; Elapsed since it started.
type Progress struct {
	Done, Total, Stored, Failed int
	Elapsed                     time.Duration
	// PlayingOn is set once a round played until separated has played its schedule: Open
	// pairs of its top places are not yet separated, Extra of Budget more matches are spent.
	PlayingOn           bool
	Open, Extra, Budget int
}

// Compile builds every entrant (through b's cache): a build that fails is kept on the entrant
// and reported; an error is the judge's own.
func (t *Tournament) Compile(ctx context.Context, b Builder) error {
	for i := range t.Entrants {
		e := &t.Entrants[i]
		sub := e.Submission
		sub.Files = game.WithLibrary(t.Game, sub.Lang, sub.Files)
		res, err := b(ctx, sub)
		if err != nil {
			return fmt.Errorf("tournament: compiling %s: %w", e.Name, err)
		}
		e.Build = &res
	}
	return nil
}

// playing are the entrants that play: all, or those that compiled when broken ones are
// excluded. The result maps a playing index to the entrant's.
func (t *Tournament) playing() []int {
	var idx []int
	for i, e := range t.Entrants {
		if t.Spec.Broken == "exclude" && e.Build != nil && !e.Build.OK {
			continue
		}
		idx = append(idx, i)
	}
	return idx
}

// seats is the number of players of each match: Spec.Seats, else the game's default unless
// the options refuse it, else the least count they take. An option may fix the count
// (SnakeCore's players=2), and a tournament of it must not need the default's four.
func (t *Tournament) seats() int {
	if t.Spec.Seats > 0 {
		return t.Spec.Seats
	}
	lo, hi, def := t.Game.Players()
	if lo == hi {
		return def
	}
	takes := func(n int) bool {
		_, err := game.Start(t.Game, game.Config{Seed: t.Spec.Seed, Players: n, Options: t.Spec.Options})
		return err == nil
	}
	if takes(def) {
		return def
	}
	for n := lo; n <= hi; n++ {
		if takes(n) {
			return n
		}
	}
	return def // Check says why the options take no count
}

// Check reports what would stop the tournament, before anything is compiled or published: the
// spec (defaults applied), the seats of a match for the game, entrants enough to fill them, a
// Swiss tournament's two seats, and the options, which the referee of every match would refuse
// (game.Start, for the tournament's seed). Run checks it first.
func (t *Tournament) Check() error {
	spec := t.Spec.WithDefaults()
	if err := spec.Check(); err != nil {
		return err
	}
	seats := t.seats()
	if err := game.CheckPlayers(t.Game, seats); err != nil {
		return fmt.Errorf("tournament: seats: %w", err)
	}
	if len(spec.Entrants) < seats {
		return fmt.Errorf("tournament: %d entrants, and a match of %s needs %d", len(spec.Entrants), t.Game.Name(), seats)
	}
	if spec.Format == Swiss && seats != 2 {
		return fmt.Errorf("tournament: a Swiss tournament is for two-player matches, %s plays %d", t.Game.Name(), seats)
	}
	if _, err := game.Start(t.Game, game.Config{Seed: spec.Seed, Players: seats, Options: spec.Options}); err != nil {
		return fmt.Errorf("tournament: options: %w", err)
	}
	return nil
}

// Run plays the tournament through q: it publishes every match that has no result yet,
// follows the results until each match is settled, and returns the standings. It can be
// stopped at any moment and run again: what was judged stays judged.
func (t *Tournament) Run(ctx context.Context, q Queue) (standings.Outcome, error) {
	if err := t.Check(); err != nil {
		return standings.Outcome{}, err
	}
	t.Spec = t.Spec.WithDefaults()
	players := t.playing()
	if len(players) < t.seats() {
		return standings.Outcome{}, fmt.Errorf("tournament: %d entrants can play, a match of %s needs %d", len(players), t.Game.Name(), t.seats())
	}
	f := &follower{t: t, q: q, slots: map[string]*slot{}, start: time.Now(), changed: make(chan struct{})}
	defer f.close()
	var all []*slot
	opts := schedule.Options{Seats: t.seats(), Rounds: t.Spec.Rounds, Seed: t.Spec.Seed}
	switch t.Spec.Format {
	case RoundRobin:
		ms, err := schedule.RoundRobin(len(players), opts)
		if err != nil {
			return standings.Outcome{}, fmt.Errorf("tournament: %w", err)
		}
		stage := f.add(ms, players)
		if err := f.play(ctx, stage); err != nil {
			return standings.Outcome{}, err
		}
		all = append(all, stage...)
	case Swiss:
		for round := 1; round <= t.Spec.Rounds; round++ {
			ms, err := t.swissRound(all, players, round)
			if err != nil {
				return standings.Outcome{}, err
			}
			stage := f.add(ms, nil) // paired by the tournament's own indices
			if err := f.play(ctx, stage); err != nil {
				return standings.Outcome{}, err
			}
			all = append(all, stage...)
		}
	}
	main, err := t.outcome(all)
	if err != nil {
		return main, err
	}
	out, stage, pool, boundary := main, all, players, (*standings.Doubt)(nil)
	if t.Spec.Final >= 2 {
		// The final: the top K of the main stage play a double round robin, numbered after it.
		k := min(t.Spec.Final, len(main.Standings))
		var top []int
		for _, r := range main.Standings[:k] {
			top = append(top, t.index(r.Name))
		}
		fo := schedule.Options{Seats: t.seats(), Rounds: 2, Seed: t.Spec.Seed, FirstRound: t.lastRound(all) + 1}
		if t.seats() == 2 {
			fo.Rounds = 1 // both orders of every pair: a double round robin
		}
		ms, err := schedule.Final(top, fo)
		if err != nil {
			return standings.Outcome{}, fmt.Errorf("tournament: the final: %w", err)
		}
		final := f.add(ms, nil)
		if err := f.play(ctx, final); err != nil {
			return standings.Outcome{}, err
		}
		mainDoubt := t.doubt(all)
		if out, err = t.nested(main, top, final, append(slices.Clone(all), final...), &mainDoubt); err != nil {
			return out, err
		}
		all, stage, pool, boundary = append(all, final...), final, top, &mainDoubt
	}
	if t.Spec.UntilSeparated {
		return t.untilSeparated(ctx, f, out, all, stage, pool, boundary)
	}
	return out, nil
}

// untilSeparated plays on after the schedule (all, whose last stage, stage, ranked the
// entrants pool first in before) until the top places are separated or the budget is spent.
//
// The contenders are a prefix of before's order: the top places, every entrant that could
// truly hold one of them, the places the top ones could fall to, and one more, so that the
// last top place's pair with the next is among them. They are fixed once the schedule is
// played, and play whole repetitions of a round robin among themselves (a game of more than
// two: whole blocks of seat rotations), so that each contender's standing comes from the
// same matches as every other's: the schedule, and every repetition. They are ranked among
// themselves by all of it; the others stay below them, as the schedule ranked them, as a
// final's do.
func (t *Tournament) untilSeparated(ctx context.Context, f *follower, before standings.Outcome, all, stage []*slot, pool []int, boundary *standings.Doubt) (standings.Outcome, error) {
	top := min(t.Spec.top(), len(pool))
	inPool := map[string]bool{}
	for _, e := range pool {
		inPool[t.Entrants[e].Name] = true
	}
	m := min(max(top+1, t.seats()), len(pool))
	for i, r := range before.Standings {
		if !inPool[r.Name] {
			continue
		}
		if i < top {
			m = max(m, r.RankRange[1])
		}
		if r.RankRange[0] <= top {
			m = max(m, i+1)
		}
	}
	m = min(m, len(pool))
	var contenders []int
	for _, r := range before.Standings[:m] {
		contenders = append(contenders, t.index(r.Name))
	}
	if m < len(pool) {
		d := t.doubt(stage) // the last contender and the next were ranked by the last stage
		boundary = &d
	}
	budget := t.Spec.Budget
	if budget == 0 {
		for _, s := range all {
			if s.bye < 0 {
				budget++
			}
		}
	}
	rotations := 1 // a round of two seats holds both orders of every pair
	if t.seats() > 2 {
		rotations = t.seats()
	}
	out, extras, spent := before, []*slot(nil), 0
	open := t.openPairs(out, top, m)
	f.setOpen(len(open), 0, budget)
	for block := 0; len(open) > 0; block++ {
		ms, err := schedule.Final(contenders, schedule.Options{Seats: t.seats(), Rounds: rotations, Seed: t.Spec.Seed,
			FirstRound: t.lastRound(all) + 1 + block*rotations})
		if err != nil {
			return out, fmt.Errorf("tournament: playing on: %w", err)
		}
		if spent+len(ms) > budget {
			break
		}
		played := f.add(ms, nil)
		if err := f.play(ctx, played); err != nil {
			return out, err
		}
		extras, spent = append(extras, played...), spent+len(ms)
		rankBy := append(slices.Clone(stage), extras...)
		if out, err = t.nested(before, contenders, rankBy, append(slices.Clone(all), extras...), boundary); err != nil {
			return out, err
		}
		open = t.openPairs(out, top, m)
		f.setOpen(len(open), spent, budget)
	}
	out.Unseparated = [][2]string{}
	for _, i := range open {
		out.Unseparated = append(out.Unseparated, [2]string{out.Standings[i].Name, out.Standings[i+1].Name})
	}
	return out, nil
}

// openPairs are the rows i of the top places (with the last top place's pair with the next)
// not yet separated from the row after them, among the first m rows.
func (t *Tournament) openPairs(o standings.Outcome, top, m int) []int {
	var open []int
	for i := 0; i < top && i+1 < m && i+1 < len(o.Standings); i++ {
		if a := o.Standings[i].AboveNext; a == nil || *a <= o.Confidence {
			open = append(open, i)
		}
	}
	return open
}

func (t *Tournament) index(name string) int {
	for i, e := range t.Entrants {
		if e.Name == name {
			return i
		}
	}
	return -1
}

func (t *Tournament) lastRound(all []*slot) int {
	last := 0
	for _, s := range all {
		last = max(last, s.m.Round)
	}
	return last
}

// swissRound pairs a round from the results so far: a win is 2 points, a draw 1, a bye 2;
// ties are broken by the sum of the match scores.
func (t *Tournament) swissRound(played []*slot, players []int, round int) ([]schedule.Match, error) {
	st := map[int]*schedule.Standing{}
	for _, e := range players {
		st[e] = &schedule.Standing{Entrant: e}
	}
	meetings := map[[2]int]int{}
	for _, s := range played {
		if s.bye >= 0 {
			st[s.bye].Byes++
			st[s.bye].Points += 2
			continue
		}
		a, b := s.m.Seats[0], s.m.Seats[1]
		meetings[[2]int{a, b}]++
		st[a].Seat0++
		st[b].Seat1++
		if s.res == nil || s.res.Status != result.StatusOK {
			continue
		}
		for k, p := range s.res.Players {
			e := s.m.Seats[k]
			st[e].TieBreak += int(p.Score)
			switch other := s.res.Players[1-k].Rank; {
			case p.Rank < other:
				st[e].Points += 2
			case p.Rank == other:
				st[e].Points++
			}
		}
	}
	var standing []schedule.Standing
	for _, e := range players {
		standing = append(standing, *st[e])
	}
	ms, bye, err := schedule.SwissRound(standing, meetings, round, t.Spec.Seed)
	if err != nil {
		return nil, fmt.Errorf("tournament: round %d: %w", round, err)
	}
	if bye != schedule.NoBye {
		ms = append(ms, schedule.Match{Round: round, Index: -1, Seats: []int{bye}})
	}
	return ms, nil
}

// slot is a scheduled match and what has come of it.
type slot struct {
	m  schedule.Match
	id string
	// bye is the entrant a Swiss round's bye went to (no match is played), else -1.
	bye int
	// attempt is the attempt published last (1: the match id; then id-r2, ...); res the
	// result that settled it, or the last infrastructure failure.
	attempt int
	res     *result.Result
	settled bool
}

// attemptID is the job id of an attempt at the match.
func (s *slot) attemptID(n int) string {
	if n == 1 {
		return s.id
	}
	return fmt.Sprintf("%s-r%d", s.id, n)
}

// RoundOf is the name of the tournament a match id is of: "spring" of "spring-2-17", "" for
// an id no tournament gives.
func RoundOf(matchID string) string {
	rest, _ := attemptOf(matchID)
	for range 2 {
		i := strings.LastIndex(rest, "-")
		if i <= 0 {
			return ""
		}
		if n := rest[i+1:]; n == "" || strings.Trim(n, "0123456789") != "" {
			return ""
		}
		rest = rest[:i]
	}
	return rest
}

// attemptOf splits an attempt's job id into the match id and the attempt: "t-1-3-r2" is the
// second attempt at "t-1-3", "t-1-3" the first.
func attemptOf(id string) (match string, n int) {
	if i := strings.LastIndex(id, "-r"); i > 0 {
		if n, err := strconv.Atoi(id[i+2:]); err == nil && n > 1 {
			return id[:i], n
		}
	}
	return id, 1
}

// follower publishes matches and follows their results.
type follower struct {
	t     *Tournament
	q     Queue
	mu    sync.Mutex
	slots map[string]*slot // by match id
	total int
	done  int
	start time.Time
	// stored counts the matches settled by the results there before this run; replaying is
	// set while they are read.
	stored    int
	replaying bool
	// failed counts the matches settled by a result that is not judged.
	failed int
	// read is set once the results stored when it started are read; unclaimed are those
	// read of matches with no slot yet, by job id; stopFollowing, once set, stops the reading
	// of the results as they come, which sets followErr when it ends; changed is closed when
	// a slot is settled or following ends.
	read          bool
	unclaimed     map[string]unclaimed
	stopFollowing func()
	followErr     error
	changed       chan struct{}
	// open, extra and budget are a round played until separated: its pairs still open, and
	// the matches it played on and may.
	open, extra, budget int
	playingOn           bool
}

// unclaimed is a result read before its match was scheduled.
type unclaimed struct {
	data   []byte
	stored bool
}

// setOpen records how far a round played until separated is, and reports it.
func (f *follower) setOpen(open, extra, budget int) {
	f.mu.Lock()
	f.open, f.extra, f.budget, f.playingOn = open, extra, budget, true
	f.mu.Unlock()
	f.report()
}

// add makes slots of scheduled matches; players maps the schedule's entrant indices to the
// tournament's (nil: they are the tournament's already).
func (f *follower) add(ms []schedule.Match, players []int) []*slot {
	var out []*slot
	for _, m := range ms {
		if players != nil {
			seats := make([]int, len(m.Seats))
			for k, e := range m.Seats {
				seats[k] = players[e]
			}
			m.Seats = seats
		}
		s := &slot{m: m, id: m.ID(f.t.Spec.Name), bye: -1}
		if m.Index < 0 {
			s.bye, s.settled = m.Seats[0], true
		}
		out = append(out, s)
	}
	return out
}

// maxAttempts is how many times a match is published at most.
func (f *follower) maxAttempts() int {
	n := f.t.Spec.Retries + 1
	if f.t.Retry {
		n++
	}
	return n
}

// play settles every slot of a stage: it publishes what has no result and waits until each
// slot is settled. The results are read once for the whole tournament, not once a stage (a
// round played until separated has a stage a repetition): those stored when it starts, then
// every one as it comes, in the background; a result of a match not scheduled yet (a later
// stage's, from a run before) is kept until its stage is.
func (f *follower) play(ctx context.Context, stage []*slot) error {
	f.mu.Lock()
	var claim []string
	for _, s := range stage {
		f.total++
		if s.bye >= 0 {
			f.done++
			continue
		}
		f.slots[s.id] = s
		for id := range f.unclaimed {
			if m, _ := attemptOf(id); m == s.id {
				claim = append(claim, id)
			}
		}
	}
	f.mu.Unlock()
	slices.Sort(claim) // the first attempt first
	for _, id := range claim {
		f.mu.Lock()
		u := f.unclaimed[id]
		delete(f.unclaimed, id)
		f.mu.Unlock()
		if err := f.takeAs(id, u.data, u.stored); err != nil {
			return err
		}
	}
	if !f.read {
		// What is stored already (a run that was stopped, or daemons that went on without it).
		err := f.q.Results(ctx, "", false, func(id string, data []byte) error { return f.takeAs(id, data, true) })
		if err != nil {
			return fmt.Errorf("tournament: reading the results: %w", err)
		}
		f.read = true
	}
	f.report()
	for _, s := range stage {
		if err := f.publish(ctx, s); err != nil {
			return err
		}
	}
	f.follow(ctx)
	first := 0 // the first slot of the stage not known to be settled: each is looked at once
	for {
		f.mu.Lock()
		changed, err := f.changed, f.followErr
		for first < len(stage) && stage[first].settled {
			first++
		}
		f.mu.Unlock()
		if first == len(stage) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("tournament: following the results: %w", err)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("tournament: following the results: %w", ctx.Err())
		}
	}
}

// follow starts reading the results as they come, once: each settles its slot, or has the
// next attempt published when the judge failed it.
func (f *follower) follow(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopFollowing != nil {
		return
	}
	fctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	f.stopFollowing = func() { cancel(); <-done }
	go func() {
		defer close(done)
		err := f.q.Results(fctx, "", true, func(id string, data []byte) error {
			if err := f.takeAs(id, data, false); err != nil {
				return err
			}
			if s := f.slotOf(id); s != nil && !s.settled {
				return f.publish(fctx, s)
			}
			return nil
		})
		f.mu.Lock()
		if err == nil {
			err = errors.New("the results' stream ended")
		}
		f.followErr = err
		f.notify()
		f.mu.Unlock()
	}()
}

// close stops following the results.
func (f *follower) close() {
	f.mu.Lock()
	stop := f.stopFollowing
	f.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// notify wakes play: a slot was settled, or following failed. f.mu is held.
func (f *follower) notify() {
	if f.changed == nil {
		f.changed = make(chan struct{})
	}
	close(f.changed)
	f.changed = make(chan struct{})
}

var errDone = errors.New("tournament: stage settled")

func (f *follower) setReplaying(on bool) {
	f.mu.Lock()
	f.replaying = on
	f.mu.Unlock()
}

// report tells Progress how far the tournament is.
func (f *follower) report() {
	f.mu.Lock()
	p := Progress{Done: f.done, Total: f.total, Stored: f.stored, Failed: f.failed, Elapsed: time.Since(f.start)}
	if f.playingOn {
		p.PlayingOn, p.Open, p.Extra, p.Budget = true, f.open, f.extra, f.budget
	}
	f.mu.Unlock()
	if f.t.Progress != nil {
		f.t.Progress(p)
	}
}

func (f *follower) slotOf(id string) *slot {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, _ := attemptOf(id)
	return f.slots[m]
}

// take records a result. A judged result, or one the job itself caused (a bad option, ...),
// settles its match whatever the attempt; the judge's failure settles it only on the last
// attempt allowed (publish then sends the next).
func (f *follower) take(id string, data []byte) error {
	f.mu.Lock()
	stored := f.replaying
	f.mu.Unlock()
	return f.takeAs(id, data, stored)
}

// takeAs is take of a result that was stored before this run (stored) or has come since. A
// result of a match with no slot yet is kept for when it has one.
func (f *follower) takeAs(id string, data []byte, stored bool) error {
	f.mu.Lock()
	m, n := attemptOf(id)
	s := f.slots[m]
	if s == nil {
		// Only this tournament's own: the stream holds every round's results.
		if RoundOf(m) == f.t.Spec.Name {
			if f.unclaimed == nil {
				f.unclaimed = map[string]unclaimed{}
			}
			f.unclaimed[id] = unclaimed{slices.Clone(data), stored}
		}
		f.mu.Unlock()
		return nil
	}
	if s.settled {
		f.mu.Unlock()
		return nil
	}
	var res result.Result
	if err := json.Unmarshal(data, &res); err != nil {
		f.mu.Unlock()
		return fmt.Errorf("tournament: the result of %s: %w", id, err)
	}
	// A result stored under this match's id for other players is another round's of the same
	// name (other entrants, or other flags that chose other contenders): never counted.
	if len(res.Players) == len(s.m.Seats) {
		for k, p := range res.Players {
			if want := f.t.Entrants[s.m.Seats[k]].Name; p.Name != want {
				f.mu.Unlock()
				return fmt.Errorf("tournament: match %s was played with %s in seat %d, and this round seats %s there: the store holds another round of the name %s (run it with the entrants and flags it was run with, or give this one another --name)",
					id, p.Name, k, want, f.t.Spec.Name)
			}
		}
	}
	s.res = &res
	s.attempt = max(s.attempt, n)
	if res.Status == result.StatusOK || res.Error == nil || res.Error.Code != result.Infrastructure || s.attempt >= f.maxAttempts() {
		s.settled = true
		f.done++
		if stored {
			f.stored++
		}
		f.notify()
		if res.Status != result.StatusOK {
			f.failed++
		}
	}
	report := s.settled && !stored
	f.mu.Unlock()
	if report {
		f.report()
	}
	return nil
}

// publish sends the attempt a slot waits for: the first, or the next after the judge failed.
func (f *follower) publish(ctx context.Context, s *slot) error {
	f.mu.Lock()
	if s.settled || s.bye >= 0 {
		f.mu.Unlock()
		return nil
	}
	n := max(s.attempt, 1)
	if s.res != nil {
		n = s.attempt + 1 // the last attempt failed (take settles every other result)
	}
	f.mu.Unlock()
	data, err := json.Marshal(f.t.job(s, s.attemptID(n)))
	if err != nil {
		return err
	}
	if _, err := f.q.Submit(ctx, s.attemptID(n), data); err != nil {
		return fmt.Errorf("tournament: publishing %s: %w", s.attemptID(n), err)
	}
	return nil
}

// job is the match's job under id, with its seed: every attempt plays the same match.
func (t *Tournament) job(s *slot, id string) job.Job {
	players := make([]job.Player, len(s.m.Seats))
	for k, e := range s.m.Seats {
		players[k] = job.NewPlayer(t.Entrants[e].Name, t.Entrants[e].Submission.Lang, t.Entrants[e].Submission.Files)
	}
	seed := s.m.Seed
	return job.New(id, t.Game.Name(), &seed, t.Spec.Options, players)
}

// outcome adds up the settled matches into standings.
func (t *Tournament) outcome(slots []*slot) (standings.Outcome, error) {
	return t.outcomeOf(slots, parts{doubt: true, ratings: true})
}

// outcomeOf is outcome with only the parts wanted.
func (t *Tournament) outcomeOf(slots []*slot, want parts) (standings.Outcome, error) {
	o := standings.Outcome{Tournament: t.Spec.Name, Game: t.Game.Name(), Format: t.Spec.Format, Failed: []string{}, Broken: []standings.Broken{},
		Confidence: t.Spec.confidence()}
	for _, e := range t.Entrants {
		if e.Build != nil && !e.Build.OK {
			o.Broken = append(o.Broken, standings.Broken{Name: e.Name, Log: e.Build.Log, Excluded: t.Spec.Broken == "exclude"})
		}
	}
	var ms []standings.Match
	for _, s := range slots {
		if s.bye >= 0 {
			continue
		}
		o.Matches++
		if s.res == nil {
			continue
		}
		if s.res.Status != result.StatusOK {
			if s.res.Error != nil && s.res.Error.Code == result.Infrastructure {
				o.Failed = append(o.Failed, s.id)
			}
			continue
		}
		o.Judged++
		ms = append(ms, standings.Match{ID: s.id, Round: s.m.Round, Index: s.m.Index, Seats: s.m.Seats, Result: *s.res})
	}
	sort.Strings(o.Failed)
	var err error
	o.Standings, err = t.standingsOf(ms, want)
	return o, err
}

// nested ranks the members first, by the matches of rankBy (a final's, or the last stage's
// and those played on), and the others after them as before ranked them; the ratings are of
// every match (all). The last member stands above the next by the matches of boundary.
func (t *Tournament) nested(before standings.Outcome, members []int, rankBy, all []*slot, boundary *standings.Doubt) (standings.Outcome, error) {
	f, err := t.outcomeOf(rankBy, parts{doubt: true})
	if err != nil {
		return before, err
	}
	every, err := t.outcomeOf(all, parts{ratings: true})
	if err != nil {
		return before, err
	}
	rated := map[string]standings.Rating{}
	for _, r := range every.Standings {
		rated[r.Name] = r.Rating
	}
	out := every
	inTop := map[string]bool{}
	for _, e := range members {
		inTop[t.Entrants[e].Name] = true
	}
	var rows []standings.Rated
	for _, r := range f.Standings {
		if inTop[r.Name] {
			if n := len(rows); n == 0 {
				r.Rank = 1
			} else if p := rows[n-1]; p.Points != r.Points || p.Score != r.Score {
				r.Rank = n + 1
			} else {
				r.Rank = p.Rank
			}
			rows = append(rows, r)
		}
	}
	for _, r := range before.Standings {
		if !inTop[r.Name] {
			r.Rank = max(r.Rank, len(members)+1)
			rows = append(rows, r)
		}
	}
	for i := range rows {
		rows[i].Rating = rated[rows[i].Name]
	}
	// The members' places are theirs among themselves; the others' before's, after them.
	k := len(inTop)
	for i := range rows {
		rr := &rows[i].RankRange
		if i < k {
			rr[0], rr[1] = max(rr[0], 1), min(rr[1], k)
		} else {
			rr[0], rr[1] = max(rr[0], k+1), max(rr[1], k+1)
		}
	}
	if k > 0 && k < len(rows) {
		rows[k-1].AboveNext = nil
		if boundary != nil {
			rows[k-1].AboveNext = boundary.Above(rows[k-1].Name, rows[k].Name)
		} else if p := before.Standings; k < len(p) && p[k-1].Name == rows[k-1].Name && p[k].Name == rows[k].Name {
			rows[k-1].AboveNext = p[k-1].AboveNext
		}
	}
	out.Standings = rows
	return out, nil
}

// doubt measures the judged matches of the slots.
func (t *Tournament) doubt(slots []*slot) standings.Doubt {
	var ms []standings.Match
	for _, s := range slots {
		if s.bye < 0 && s.res != nil && s.res.Status == result.StatusOK {
			ms = append(ms, standings.Match{ID: s.id, Seats: s.m.Seats, Result: *s.res})
		}
	}
	return standings.Measure(t.entrantList(), ms, t.scoring(), t.Spec.confidence())
}
