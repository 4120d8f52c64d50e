package contest

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/similar"
)

// The integrity check of a contest (judge/similar): every version of every contestant
// compared by its sources, the code every contestant was given (the starter bots with the
// game's library, published house bots) left out, and the contest's replays compared by how
// each version plays. It is kept up to date in the background as versions arrive and matches
// are judged, a version or a replay at a time, resting three times as long as each took: a
// quarter of one core at most, so that it never delays builds or matches. It is for the
// organisers only, and decides nothing: they mark pairs cleared or confirmed and may leave a
// confirmed contestant out of the official round.

// checkEvery is how often the background looks for new versions and replays.
const checkEvery = time.Minute

// integrity is the check's state, per contest, in this engine's memory (an engine started
// again reads everything again, in the background).
type integrity struct {
	mu       sync.Mutex
	contests map[string]*checked
}

type checked struct {
	mu      sync.Mutex // over all of it
	index   similar.Index
	plays   *similar.Plays
	read    map[string]bool // the matches whose replays were read
	replays int
	worked  time.Duration // reading and comparing, its rests left out
}

func (in *integrity) of(contest string) *checked {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.contests == nil {
		in.contests = map[string]*checked{}
	}
	c := in.contests[contest]
	if c == nil {
		c = &checked{plays: similar.NewPlays(), read: map[string]bool{}}
		in.contests[contest] = c
	}
	return c
}

// run keeps every open contest's check up to date until ctx is done.
func (in *integrity) run(ctx context.Context, e *Engine) {
	t := time.NewTicker(checkEvery)
	defer t.Stop()
	for {
		cts, err := e.c.Store.Contests(ctx)
		if err == nil {
			for _, ct := range cts {
				if ct.ReadOnly() {
					continue
				}
				if err := e.catchUp(ctx, ct.Name, true, true); err != nil && ctx.Err() == nil {
					e.c.Log.Warn("contest: the integrity check", "contest", ct.Name, "err", err)
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// versionName names a version in the check: its number.
func versionName(n int) string { return "v" + strconv.Itoa(n) }

// catchUp adds to contest's check the versions not in it yet and, with replays, the replays
// of the matches judged since; paced, it rests after each. The check is locked only while one
// is added, never while a source or replay is read or while resting: the organisers' page
// does not wait for the background.
func (e *Engine) catchUp(ctx context.Context, contest string, replays, paced bool) error {
	c := e.checks.of(contest)
	rest := func(start time.Time) error {
		work := time.Since(start)
		c.mu.Lock()
		c.worked += work
		c.mu.Unlock()
		if !paced {
			return ctx.Err()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(3 * work):
			return nil
		}
	}
	subs, err := e.c.Store.Submissions(ctx, contest, "*")
	if err != nil {
		return err
	}
	version := map[string]int{}
	for _, sub := range subs {
		version[sub.ID] = sub.Version
		c.mu.Lock()
		has := c.index.Has(sub.Login, versionName(sub.Version))
		c.mu.Unlock()
		if has {
			continue
		}
		start := time.Now()
		files, err := e.Sources(ctx, sub.Source)
		if err != nil {
			return err
		}
		v := similar.Version{Owner: sub.Login, Name: versionName(sub.Version), Files: map[string][]byte{}}
		for name, text := range files {
			v.Files[name] = []byte(text)
		}
		d := similar.Prepare(v) // the tokens and fingerprints, unlocked
		c.mu.Lock()
		c.index.AddPrepared(d)
		c.mu.Unlock()
		if err := rest(start); err != nil {
			return err
		}
	}
	if !replays {
		return nil
	}
	c.mu.Lock()
	read := maps.Clone(c.read)
	c.mu.Unlock()
	ms, err := e.c.Store.MatchesWhere(ctx, contest, "*", "", func(id string) bool { return !read[id] })
	if err != nil {
		return err
	}
	for _, m := range ms {
		key, ok := strings.CutPrefix(m.Replay, queue.BucketReplays+"/")
		if m.Result == nil || !ok {
			continue // not judged yet: read once it is
		}
		start := time.Now()
		var buf bytes.Buffer
		found, err := e.c.Queue.GetObject(ctx, queue.BucketReplays, key, &buf)
		var rp *replay.Replay
		if err == nil && found {
			rp, err = replay.Read(&buf)
		}
		c.mu.Lock()
		if !c.read[m.ID] {
			c.read[m.ID] = true
			if err == nil && rp != nil { // else expired, or out of reach: its plays are not counted
				c.replays++
				c.plays.AddReplay(rp, m.ID, func(i int) (string, string, bool) {
					if i >= len(m.Seats) || m.Seats[i].Login == "" {
						return "", "", false // a house bot's
					}
					return m.Seats[i].Login, versionName(version[m.Seats[i].Submission]), true
				})
			}
		}
		c.mu.Unlock()
		if err := rest(start); err != nil {
			return err
		}
	}
	return nil
}

// integrityOf is contest, for an actor who may see its integrity check: an organiser's. To
// anyone else the check does not exist (store.ErrNotFound, not a refusal that says it does).
func (e *Engine) integrityOf(ctx context.Context, a Actor, contest string) (store.Contest, error) {
	ct, err := e.Contest(ctx, a, contest)
	if err == nil && !a.Organiser {
		err = fmt.Errorf("contest %s's integrity check: %w", contest, store.ErrNotFound)
	}
	return ct, err
}

// SimilarSources are the sources of login's version of contest, for its integrity check's
// organisers.
func (e *Engine) SimilarSources(ctx context.Context, a Actor, contest, login string, version int) (map[string]string, error) {
	if _, err := e.integrityOf(ctx, a, contest); err != nil {
		return nil, err
	}
	subs, err := e.c.Store.Submissions(ctx, contest, login)
	if err != nil {
		return nil, err
	}
	for _, s := range subs {
		if s.Version == version {
			return e.Sources(ctx, s.Source)
		}
	}
	return nil, fmt.Errorf("%s's version %d: %w", login, version, store.ErrNotFound)
}

// base is the code every contestant of ct was given: the game's starter bot (with its
// library) in each language, and the house bots' sources when they are published.
func (e *Engine) base(ctx context.Context, ct store.Contest) ([]map[string][]byte, error) {
	var out []map[string][]byte
	if g, ok := e.c.Games(ct.Game); ok && e.c.Starter != nil {
		for _, lang := range e.langs() {
			if files, ok := e.c.Starter(g, lang); ok {
				out = append(out, files)
			}
		}
	}
	if ct.PublishHouse {
		for _, h := range ct.House {
			files, err := e.Sources(ctx, h.Source)
			if err != nil {
				return nil, err
			}
			b := map[string][]byte{}
			for name, text := range files {
				b[name] = []byte(text)
			}
			out = append(out, b)
		}
	}
	return out, nil
}

// Similar is contest's integrity check for its organisers: the pairs of contestants alike
// by source or by play whose score or behaviour reaches min, with the organisers' verdicts.
// The versions not compared yet are compared now; replays (readAll) are all read now too,
// else as far as the background has read them.
func (e *Engine) Similar(ctx context.Context, a Actor, contest string, min float64, readAll bool) (api.Similarity, error) {
	ct, err := e.integrityOf(ctx, a, contest)
	if err != nil {
		return api.Similarity{}, err
	}
	if min < 0 || min > 1 {
		return api.Similarity{}, api.Errorf(api.CodeBadRequest, "min %v: want a score from 0 to 1", min)
	}
	if err := e.catchUp(ctx, contest, readAll, false); err != nil {
		return api.Similarity{}, err
	}
	base, err := e.base(ctx, ct)
	if err != nil {
		return api.Similarity{}, err
	}
	c := e.checks.of(contest)
	c.mu.Lock()
	found := similar.FindIn(&c.index, similar.Options{Base: base}, c.plays, min)
	out := api.Similarity{Contest: contest, Pairs: []api.SimilarPair{}, Baseline: found.Baseline, Notes: found.Notes,
		Versions: c.index.Len(), Replays: c.replays, Excluded: append([]string{}, ct.Excluded...)}
	c.mu.Unlock()
	verdicts := map[[2]string]string{}
	for _, m := range ct.Similar {
		verdicts[[2]string{m.A, m.B}] = m.Verdict
	}
	for _, f := range found.Pairs {
		p := api.SimilarPair{A: f.A, B: f.B, Score: f.Score, Behaviour: f.Behaviour, Regions: []api.SimilarRegion{}, Compared: f.Compared,
			Matches: append([]string{}, f.Matches...), Verdict: verdicts[[2]string{f.A, f.B}]}
		p.VersionA, _ = strconv.Atoi(strings.TrimPrefix(f.VersionA, "v"))
		p.VersionB, _ = strconv.Atoi(strings.TrimPrefix(f.VersionB, "v"))
		for _, r := range f.Regions {
			p.Regions = append(p.Regions, api.SimilarRegion(r))
		}
		out.Pairs = append(out.Pairs, p)
	}
	return out, nil
}

// MarkSimilar keeps an organiser's verdict on the pair a, b of contest (v.Verdict: cleared,
// confirmed, or "" to take it back), and leaves the contestants of v.Exclude out of the
// official round (v.Include lets them in again); the organisers' log records it.
func (e *Engine) MarkSimilar(ctx context.Context, act Actor, contest, a, b string, v api.SimilarVerdict) (store.Contest, error) {
	ct, err := e.integrityOf(ctx, act, contest)
	if err != nil {
		return ct, err
	}
	if err := closed(ct, anyChange, time.Now()); err != nil {
		return ct, err
	}
	if a > b {
		a, b = b, a
	}
	switch v.Verdict {
	case "", store.SimilarCleared, store.SimilarConfirmed:
	default:
		return ct, api.Errorf(api.CodeBadRequest, "verdict %q: want %q, %q or \"\" (none)", v.Verdict, store.SimilarCleared, store.SimilarConfirmed)
	}
	for _, login := range append(slices.Clone(v.Exclude), v.Include...) {
		if login != a && login != b {
			return ct, api.Errorf(api.CodeBadRequest, "%q is not of the pair %s and %s", login, a, b)
		}
	}
	for _, login := range []string{a, b} {
		if _, err := e.c.Store.User(ctx, contest, login); err != nil {
			return ct, fmt.Errorf("%w: no contestant %q in %s", store.ErrNotFound, login, contest)
		}
	}
	ct, err = e.c.Store.UpdateContest(ctx, contest, func(c *store.Contest) error {
		c.Similar = slices.DeleteFunc(c.Similar, func(m store.SimilarMark) bool { return m.A == a && m.B == b })
		if v.Verdict != "" {
			c.Similar = append(c.Similar, store.SimilarMark{A: a, B: b, Verdict: v.Verdict, By: act.name(), At: time.Now().UTC()})
		}
		for _, login := range v.Exclude {
			if !slices.Contains(c.Excluded, login) {
				c.Excluded = append(c.Excluded, login)
			}
		}
		c.Excluded = slices.DeleteFunc(c.Excluded, func(l string) bool { return slices.Contains(v.Include, l) })
		return nil
	})
	if err != nil {
		return ct, err
	}
	what := "took back the verdict on"
	if v.Verdict != "" {
		what = "marked " + v.Verdict + ":"
	}
	e.record(ctx, act, contest, "integrity: %s %s and %s", what, a, b)
	for _, login := range v.Exclude {
		e.record(ctx, act, contest, "integrity: left %s out of the official round", login)
	}
	for _, login := range v.Include {
		e.record(ctx, act, contest, "integrity: let %s into the official round again", login)
	}
	return ct, nil
}
