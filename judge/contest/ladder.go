package contest

import (
	"context"
	"errors"
	"maps"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/result"
)

const (
	// ladderTick is how often an engine looks at its contests' ladders for free places; a
	// rated result looks at once.
	ladderTick = 2 * time.Second
	// requeueAfter is how old a pending ladder match must be before an engine that did not
	// queue it (or did, before it restarted) queues it again: the queue's de-duplication
	// makes that harmless, and it saves a match picked by an engine that died before
	// queueing it. It only needs to be longer than picking and queueing take.
	requeueAfter = 5 * time.Second
	// pendingLife is how long a ladder match may stay pending: the queue's de-duplication
	// window, after which queueing it again could play it twice.
	pendingLife = 24 * time.Hour
	// tendEvery is how many ticks apart an engine mends the contestants' lines (tendLines):
	// at its start, and then about a minute apart.
	tendEvery = 30
)

// ladders runs the contests' ladders for one engine: any number of engines run them
// together, through the store's compare-and-set.
type ladders struct {
	e    *Engine
	kick chan struct{}
	mu   sync.Mutex
	rng  *rand.Rand
	// queued are the pending matches this engine has queued (or found queued).
	queued map[string]bool
}

func newLadders(e *Engine) *ladders {
	return &ladders{e: e, kick: make(chan struct{}, 1), rng: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())),
		queued: map[string]bool{}}
}

// run fills the ladders, runs the rounds and plays again the validations the judge could not
// play, until ctx is done.
func (l *ladders) run(ctx context.Context) {
	t := time.NewTicker(ladderTick)
	defer t.Stop()
	for n := 0; ; n++ {
		if err := l.e.revalidate(ctx, n == 0); err != nil && ctx.Err() == nil {
			l.e.c.Log.Warn("contest: playing validations again", "err", err)
		}
		if n%tendEvery == 0 {
			if err := l.e.tendLines(ctx); err != nil && ctx.Err() == nil {
				l.e.c.Log.Warn("contest: mending the contestants' lines", "err", err)
			}
		}
		cs, err := l.e.c.Store.Contests(ctx)
		if err != nil && ctx.Err() == nil {
			l.e.c.Log.Warn("contest: ladder: listing the contests", "err", err)
		}
		for _, c := range cs {
			if err := l.fill(ctx, c); err != nil && ctx.Err() == nil {
				l.e.c.Log.Warn("contest: ladder", "contest", c.Name, "err", err)
			}
			if err := l.e.rounds.resume(ctx, c); err != nil && ctx.Err() == nil {
				l.e.c.Log.Warn("contest: rounds", "contest", c.Name, "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-l.kick:
		}
	}
}

// poke asks run to look again now.
func (l *ladders) poke() {
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// active are the contest's contestants' active versions, and those staged on trial.
func (l *ladders) active(ctx context.Context, contest string) ([]ladder.Version, error) {
	users, err := l.e.c.Store.Users(ctx, contest)
	if err != nil {
		return nil, err
	}
	var out []ladder.Version
	for _, u := range users {
		if u.Active == "" || u.Organiser || u.Disabled {
			continue
		}
		for _, id := range []string{u.Active, u.Staged} {
			if id == "" || (id == u.Staged && id == u.Active) {
				continue
			}
			sub, err := l.e.c.Store.Submission(ctx, id)
			if err != nil {
				return nil, err
			}
			out = append(out, ladder.Version{Sub: sub.ID, Login: sub.Login, Version: sub.Version, Lang: sub.Lang, Staged: id == u.Staged})
		}
	}
	return out, nil
}

// fill brings a contest's ladder up to date with its active versions and picks matches
// for its free places; it queues those and any pending match that may never have been.
func (l *ladders) fill(ctx context.Context, c store.Contest) error {
	_, sz, err := l.e.Sizes(c)
	if err != nil {
		return err
	}
	if !c.Ladder {
		// No new matches, but the pending ones are played and rated.
		if st, err := l.e.c.Store.Ladder(ctx, c.Name); err != nil || len(st.Pending) == 0 {
			return err
		}
	}
	on := laddering(c, time.Now()) // no new matches after the deadline: the round's time
	var active []ladder.Version
	if on {
		var err error
		if active, err = l.active(ctx, c.Name); err != nil {
			return err
		}
	}
	size := ladder.Seats{Least: sz.Least, Want: sz.Want}
	for _, h := range c.House {
		size.House = append(size.House, h.Name)
	}
	var picked map[string][]store.Seat
	st, err := l.e.c.Store.UpdateLadder(ctx, c.Name, func(st *ladder.State) error {
		picked = map[string][]store.Seat{}
		now := time.Now()
		if on {
			st.Sync(active, now)
		}
		for _, id := range st.Expire(now, pendingLife) {
			l.e.c.Log.Warn("contest: ladder: a match pending too long is forgotten", "contest", c.Name, "match", id)
		}
		if !on {
			return nil
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		was := maps.Clone(st.Pending)
		for {
			if _, ok := st.Pick(l.rng, store.NewID("l"), size, c.LadderSettings, now); !ok {
				break
			}
		}
		for id, m := range st.Pending { // a trial's pick is a pair of matches
			if _, ok := was[id]; !ok {
				picked[id] = seatsOf(st, m.Seats)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for id, seats := range picked {
		if err := l.queue(ctx, c, id, st.Pending[id], seats); err != nil {
			return err
		}
	}
	for id, m := range st.Pending {
		if _, ok := picked[id]; ok || l.wasQueued(id) || time.Since(m.Created) < requeueAfter {
			continue
		}
		if err := l.queue(ctx, c, id, m, seatsOf(&st, m.Seats)); err != nil {
			return err
		}
	}
	return nil
}

func (l *ladders) wasQueued(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.queued[id]
}

// seatsOf are the seats of a pending match: submissions, and house bots (ladder.HouseSeat).
func seatsOf(st *ladder.State, subs []string) []store.Seat {
	var seats []store.Seat
	for _, sub := range subs {
		if name, ok := ladder.IsHouseSeat(sub); ok {
			seats = append(seats, store.Seat{House: name})
			continue
		}
		seat := store.Seat{Submission: sub}
		if p := st.Players[sub]; p != nil {
			seat.Login = p.Login
		}
		seats = append(seats, seat)
	}
	return seats
}

// queue stores a ladder match and puts its job on the ladder's lane. Both halves of a trial's
// pair play the seed of the pair's id.
func (l *ladders) queue(ctx context.Context, c store.Contest, id string, p ladder.Pending, seats []store.Seat) error {
	seed := SeedOf(id)
	if p.Pair != "" {
		seed = SeedOf(p.Pair)
	}
	m := store.Match{ID: id, Contest: c.Name, Kind: store.KindLadder, Seats: seats, Seed: seed}
	if _, err := l.e.StartMatch(ctx, c, m); err != nil {
		return err
	}
	l.mu.Lock()
	l.queued[id] = true
	l.mu.Unlock()
	return nil
}

// rate applies a ladder match's result to the ladder, once, and records the players'
// rating history.
func (l *ladders) rate(ctx context.Context, m store.Match, res result.Result) error {
	st, err := l.e.c.Store.Ladder(ctx, m.Contest)
	if err != nil {
		return err
	}
	if _, ok := st.Pending[m.ID]; !ok {
		return nil // rated already
	}
	c, err := l.e.c.Store.Contest(ctx, m.Contest)
	if err != nil {
		return err
	}
	var points map[string]store.Point
	var promote map[string]string
	_, err = l.e.c.Store.UpdateLadder(ctx, m.Contest, func(st *ladder.State) error {
		points = map[string]store.Point{}
		now := time.Now().UTC()
		for _, p := range st.Apply(m.ID, res, c.LadderSettings, now) {
			points[p.Login] = store.Point{Match: m.ID, At: now, Version: p.Version.Version, Mu: p.Mu, Sigma: p.Sigma, Rating: p.Rating()}
		}
		promote = st.Promotions()
		return nil
	})
	if err != nil {
		return err
	}
	var errs []error
	for login, p := range points {
		errs = append(errs, l.e.c.Store.AddHistory(ctx, m.Contest, login, p))
	}
	if c.LadderSettings.AutoPromote {
		errs = append(errs, l.promote(ctx, c, promote))
	}
	l.mu.Lock()
	delete(l.queued, m.ID)
	l.mu.Unlock()
	l.poke()
	return errors.Join(errs...)
}

// promote makes active the staged versions whose trials decided they are better (by login),
// as their owners would: while submissions are open, and only the version still staged.
func (l *ladders) promote(ctx context.Context, c store.Contest, subs map[string]string) error {
	if !Open(c, time.Now()) {
		return nil
	}
	var errs []error
	for login, id := range subs {
		u, err := l.e.c.Store.User(ctx, c.Name, login)
		if err != nil || u.Staged != id {
			continue // another version staged, or the contestant gone, meanwhile
		}
		sub, err := l.e.c.Store.Submission(ctx, id)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if _, err := l.e.c.Store.Activate(ctx, sub); err != nil {
			errs = append(errs, err)
			continue
		}
		l.e.record(ctx, HostActor(), c.Name, "made %s's version %d active: its trial found it better than the active version (auto_promote)", login, sub.Version)
		l.poke()
	}
	return errors.Join(errs...)
}

// Poke has the ladders look for free places now rather than at their next tick: a version
// became active, or a round started.
func (e *Engine) Poke() { e.ladders.poke() }
