package contest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/judge/tournament"
	"github.com/botjudge/judge/judge/tournament/standings"
)

// Rounds - test competitions and the official round - are tournaments of the frozen active
// versions, run by the tournament package through the queue. Any engine runs the rounds it
// finds running (one started by another engine that stopped, too): a tournament's match ids
// and seeds are fixed by the round, so a round run again, or by two engines at once, plays
// each match once and comes to the same standings.

// Why a round cannot start now: each is a store.ErrConflict, which the portal answers with a
// code of its own (409 too_few, not_closed).
var (
	ErrTooFew    = fmt.Errorf("too few entrants: %w", store.ErrConflict)
	ErrNotClosed = fmt.Errorf("submissions still open: %w", store.ErrConflict)
)

// roundID is the id of a round: the official one, a test competition started at t on
// demand, or one the contest's TestRounds scheduled at t (so that every engine finds the
// same id for it, and only one starts it).
func roundID(contest, kind string, t time.Time, scheduled bool) string {
	switch {
	case kind == store.RoundOfficial:
		return contest + "-official"
	case scheduled:
		return contest + "-s" + t.UTC().Format("20060102-150405")
	}
	return contest + "-t" + t.UTC().Format("20060102-150405")
}

// StartRound freezes the active versions of a contest the actor organises and starts a round
// of them, now.
func (e *Engine) StartRound(ctx context.Context, a Actor, contest string, spec api.RoundSpec) (store.Round, error) {
	ct, err := e.Organised(ctx, a, contest)
	if err != nil {
		return store.Round{}, err
	}
	r, err := e.startRound(ctx, ct, spec, time.Now(), false)
	if err != nil {
		return r, err
	}
	e.record(ctx, a, contest, "started the %s round %s", r.Kind, r.ID)
	e.ladders.poke() // the round runs at the ladders' next look
	return r, nil
}

func (e *Engine) startRound(ctx context.Context, ct store.Contest, spec api.RoundSpec, at time.Time, scheduled bool) (store.Round, error) {
	if err := closed(ct, anyChange, at); err != nil {
		return store.Round{}, err
	}
	switch spec.Kind {
	case store.RoundTest:
	case store.RoundOfficial:
		if closed(ct, versionChange, at) == nil {
			if ct.Deadline.IsZero() {
				return store.Round{}, fmt.Errorf("%w: the official round starts after the deadline, when the active versions are frozen; set a deadline first", ErrNotClosed)
			}
			return store.Round{}, fmt.Errorf("%w: the official round starts after the deadline, %s, when the active versions are frozen", ErrNotClosed, ct.Ended().UTC().Format("2006-01-02 15:04 MST"))
		}
	default:
		return store.Round{}, fmt.Errorf("%w: kind %q: want %q or %q", store.ErrInvalid, spec.Kind, store.RoundTest, store.RoundOfficial)
	}
	r := store.Round{ID: roundID(ct.Name, spec.Kind, at, scheduled), Contest: ct.Name, Kind: spec.Kind, Format: spec.Format,
		Rounds: spec.Rounds, Final: spec.Final, Confidence: spec.Confidence, UntilSeparated: spec.UntilSeparated, Top: spec.Top, Budget: spec.Budget}
	r.Seed = SeedOf(r.ID)
	enters, err := e.leaguesEntering(ctx, ct, spec.Leagues)
	if err != nil {
		return r, err
	}
	if enters != nil {
		r.Leagues = api.LeaguesTop
	}
	users, err := e.c.Store.Users(ctx, ct.Name)
	if err != nil {
		return r, err
	}
	for _, u := range users {
		if u.Active == "" || u.Organiser || u.Disabled || enters != nil && !enters(u.Login) {
			continue
		}
		if spec.Kind == store.RoundOfficial && slices.Contains(ct.Excluded, u.Login) {
			continue // left out by the organisers: a confirmed copy (MarkSimilar)
		}
		sub, err := e.c.Store.Submission(ctx, u.Active)
		if err != nil {
			return r, err
		}
		files, err := e.Sources(ctx, sub.Source)
		if err != nil {
			return r, err
		}
		data, _ := json.Marshal(files) // map keys sorted: the same files, the same hash
		sum := sha256.Sum256(data)
		e := store.Entrant{Login: u.Login, Sub: sub.ID, Version: sub.Version, Lang: sub.Lang, Source: sub.Source, SHA256: hex.EncodeToString(sum[:])}
		if sub.Build != nil {
			e.Toolchain = sub.Build.Toolchain
		}
		r.Entrants = append(r.Entrants, e)
	}
	if err := e.FillRound(ctx, ct, &r); err != nil {
		return r, err
	}
	t, err := e.tournamentOf(ctx, ct, r, false)
	if err != nil {
		return r, err
	}
	if err := t.Check(); err != nil {
		return r, fmt.Errorf("%w: %w", store.ErrInvalid, err)
	}
	r, err = e.c.Store.AddRound(ctx, r)
	if errors.Is(err, store.ErrExists) {
		return r, fmt.Errorf("round %s: %w", r.ID, store.ErrExists)
	}
	return r, err
}

// leaguesEntering is who enters a round that takes the leagues given (api.LeaguesAll or "":
// nil, everyone; api.LeaguesTop: those in the ladder's top league).
func (e *Engine) leaguesEntering(ctx context.Context, ct store.Contest, which string) (func(login string) bool, error) {
	switch which {
	case "", api.LeaguesAll:
		return nil, nil
	case api.LeaguesTop:
	default:
		return nil, fmt.Errorf("%w: leagues %q: want %q or %q", store.ErrInvalid, which, api.LeaguesAll, api.LeaguesTop)
	}
	set := ct.LadderSettings
	if len(set.Leagues) == 0 {
		return nil, fmt.Errorf("%w: leagues %q: the contest has no leagues (its ladder settings' leagues)", store.ErrInvalid, which)
	}
	st, err := e.c.Store.Ladder(ctx, ct.Name)
	if err != nil {
		return nil, err
	}
	top := len(set.Leagues) - 1
	return func(login string) bool { return st.LeagueOf(login, set) == top }, nil
}

// FillRound sets a round's seats, the match its contest plays, and when fewer versions (two at
// least) enter
// than a match seats, enters the contest's house bots in turn until one match can be played:
// each once (house:NAME), then again as copies (house:NAME#2), all ranked in the standings
// like the versions. With no house bot, a match seats every version if the game allows
// that many players; fewer than that is an error that says so.
func (e *Engine) FillRound(ctx context.Context, ct store.Contest, r *store.Round) error {
	g, ok := e.c.Games(ct.Game)
	if !ok {
		return fmt.Errorf("%w: unknown game %q", store.ErrInvalid, ct.Game)
	}
	sz, err := matchSizes(g, ct.Options)
	if err != nil {
		return fmt.Errorf("%w: the contest's options: %v", store.ErrInvalid, err)
	}
	if len(r.Entrants) < 2 { // house bots fill seats, they do not make a round
		return fmt.Errorf("%w: %d entrants: a round needs 2 or more active versions", ErrTooFew, len(r.Entrants))
	}
	for i := 0; len(r.Entrants) < sz.Want && len(ct.House) > 0; i++ {
		h := ct.House[i%len(ct.House)]
		files, err := e.Sources(ctx, h.Source)
		if err != nil {
			return err
		}
		data, _ := json.Marshal(files)
		sum := sha256.Sum256(data)
		name := store.Seat{House: h.Name}.Name()
		if copy := i / len(ct.House); copy > 0 {
			name += "#" + strconv.Itoa(copy+1)
		}
		r.Entrants = append(r.Entrants, store.Entrant{Login: name, Lang: h.Lang, Source: h.Source, SHA256: hex.EncodeToString(sum[:])})
	}
	r.Seats = sz.Want
	if n := len(r.Entrants); n < sz.Want && n >= sz.Least {
		r.Seats = n
	}
	if len(r.Entrants) < r.Seats {
		return fmt.Errorf("%w: a match of this contest seats at least %d players, and only %d versions can enter: add a house bot, or wait for more active versions",
			ErrTooFew, sz.Least, len(r.Entrants))
	}
	return nil
}

// tournamentOf is the tournament a round is: its spec, and with sources each entrant's files.
func (e *Engine) tournamentOf(ctx context.Context, ct store.Contest, r store.Round, sources bool) (*tournament.Tournament, error) {
	g, ok := e.c.Games(ct.Game)
	if !ok {
		return nil, fmt.Errorf("%w: unknown game %q", store.ErrInvalid, ct.Game)
	}
	spec := RoundTournament(ct, r)
	t := &tournament.Tournament{Spec: spec, Game: g}
	for _, x := range r.Entrants {
		sub := submission.Submission{Lang: x.Lang}
		if sources {
			files, err := e.Sources(ctx, x.Source)
			if err != nil {
				return nil, err
			}
			sub.Files = map[string][]byte{}
			for name, text := range files {
				sub.Files[name] = []byte(text)
			}
		}
		t.Entrants = append(t.Entrants, tournament.Entrant{Name: x.Login, Submission: sub})
	}
	return t, nil
}

// roundTournament is a round as a tournament file says it: the export's tournament.yaml.
func RoundTournament(ct store.Contest, r store.Round) tournament.Spec {
	spec := tournament.Spec{Name: r.ID, Game: ct.Game, Format: r.Format, Rounds: r.Rounds, Final: r.Final, Seed: r.Seed, Seats: r.Seats,
		Options: ct.Options, Confidence: r.Confidence, UntilSeparated: r.UntilSeparated, Top: r.Top, Budget: r.Budget}
	for _, e := range r.Entrants {
		spec.Entrants = append(spec.Entrants, tournament.EntrantSpec{Name: e.Login, Path: EntrantDir(e.Login)})
	}
	return spec
}

// EntrantDir is the directory of an entrant's sources in a round's export: its name, a house
// bot's "house:NAME" as "house+NAME" (Windows takes no ':' in a name; no login has a '+').
func EntrantDir(name string) string { return strings.ReplaceAll(name, ":", "+") }

// roundRunner runs the rounds of one engine.
type roundRunner struct {
	e       *Engine
	mu      sync.Mutex
	running map[string]bool
}

// ensure runs a round unless this engine runs it already.
func (rr *roundRunner) ensure(ctx context.Context, r store.Round) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if rr.running == nil {
		rr.running = map[string]bool{}
	}
	if rr.running[r.ID] {
		return
	}
	rr.running[r.ID] = true
	go func() {
		err := rr.run(ctx, r)
		if err != nil && ctx.Err() == nil {
			rr.e.c.Log.Warn("contest: a round failed", "round", r.ID, "err", err)
		}
		rr.mu.Lock()
		delete(rr.running, r.ID)
		rr.mu.Unlock()
	}()
}

// roundQueue is the queue a round's tournament publishes to: the main lane for the official
// round, the test lane for a test competition.
type roundQueue struct {
	Queue
	lane queue.Lane
}

func (q roundQueue) Submit(ctx context.Context, id string, data []byte) (bool, error) {
	return q.SubmitTo(ctx, q.lane, id, data)
}

func (rr *roundRunner) run(ctx context.Context, r store.Round) error {
	ct, err := rr.e.c.Store.Contest(ctx, r.Contest)
	if err != nil {
		return err
	}
	t, err := rr.e.tournamentOf(ctx, ct, r, true)
	if err != nil {
		return err
	}
	lane := queue.LaneTest
	if r.Kind == store.RoundOfficial {
		lane = queue.LaneMain
	}
	out, err := t.Run(ctx, roundQueue{rr.e.c.Queue, lane})
	if ctx.Err() != nil {
		return ctx.Err() // stopped, not failed: this engine or another runs it again
	}
	_, uerr := rr.e.c.Store.UpdateRound(ctx, r.ID, func(x *store.Round) error {
		if x.Status != store.RoundRunning {
			return nil
		}
		x.Finished = time.Now().UTC()
		if err != nil {
			x.Status, x.Error = store.RoundFailed, err.Error()
			return nil
		}
		x.Status, x.Outcome = store.RoundDone, &out
		return nil
	})
	return errors.Join(err, uerr)
}

// resume runs the contest's running rounds, and starts its test competitions whose time has
// come (at most an hour late: an engine down longer does not start old ones).
func (rr *roundRunner) resume(ctx context.Context, ct store.Contest) error {
	rs, err := rr.e.c.Store.Rounds(ctx, ct.Name)
	if err != nil {
		return err
	}
	for _, r := range rs {
		if r.Status == store.RoundRunning {
			rr.ensure(ctx, r)
		}
	}
	now := time.Now()
	for _, at := range ct.TestRounds {
		if at.After(now) || now.Sub(at) > time.Hour {
			continue
		}
		if _, err := rr.e.c.Store.Round(ctx, roundID(ct.Name, store.RoundTest, at, true)); !errors.Is(err, store.ErrNotFound) {
			continue
		}
		_, err := rr.e.startRound(ctx, ct, api.RoundSpec{Kind: store.RoundTest}, at, true)
		if err == nil {
			rr.e.ladders.poke()
		}
		if errors.Is(err, store.ErrExists) || errors.Is(err, store.ErrConflict) {
			continue // another engine started it, or too few can enter
		}
		if err != nil {
			rr.e.c.Log.Warn("contest: a test competition could not start", "contest", ct.Name, "at", at, "err", err)
		}
	}
	return nil
}

// roundMatch records a match of a round as the contest's own, so that its players find it
// and everyone in the contest can watch it; it reports whether id was one.
func (e *Engine) roundMatch(ctx context.Context, id string, res result.Result) (bool, error) {
	rid := RoundOf(id)
	if rid == "" {
		return false, nil
	}
	r, err := e.c.Store.Round(ctx, rid)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return true, err
	}
	ct, err := e.c.Store.Contest(ctx, r.Contest)
	if err != nil {
		return true, err
	}
	match := store.Match{ID: id, Contest: r.Contest, Kind: store.KindRound, Seed: res.Seed, Result: &res, Replay: res.Replay, Options: playedWith(RoundTournament(ct, r).Options)}
	for _, p := range res.Players {
		if name, ok := strings.CutPrefix(p.Name, "house:"); ok {
			name, _, _ = strings.Cut(name, "#") // a copy that fills a round's seats
			match.Seats = append(match.Seats, store.Seat{House: name})
			continue
		}
		match.Seats = append(match.Seats, store.Seat{Login: p.Name})
	}
	if _, err := e.c.Store.AddMatch(ctx, match); err != nil && !errors.Is(err, store.ErrExists) {
		return true, err
	}
	return true, nil
}

// SoFar is a round's standings from the matches judged so far (ms, the round's records), as
// its tournament ranks them at its end but without the doubt and ratings, which are the
// whole round's: what a big screen shows while the round plays.
func SoFar(ct store.Contest, r store.Round, ms []store.Match) ([]standings.Row, error) {
	spec := RoundTournament(ct, r)
	scoring := standings.For(ct.Game)
	if spec.Scoring != nil {
		scoring = *spec.Scoring
	}
	var entrants []standings.Entrant
	index := map[string]int{}
	for i, x := range r.Entrants {
		entrants = append(entrants, standings.Entrant{Name: x.Login, Lang: x.Lang})
		index[x.Login] = i
	}
	var judged []standings.Match
	for _, m := range ms {
		if m.Result == nil || RoundOf(m.ID) != r.ID {
			continue
		}
		sm := standings.Match{ID: m.ID, Result: *m.Result}
		for _, p := range m.Result.Players {
			i, ok := index[p.Name]
			if !ok {
				sm.Seats = nil // a seat of no entrant: not the round's match
				break
			}
			sm.Seats = append(sm.Seats, i)
		}
		if sm.Seats != nil {
			judged = append(judged, sm)
		}
	}
	return standings.Compute(entrants, judged, scoring)
}

// RoundOf is the round a match of a round belongs to ("" for an id that is none's).
func RoundOf(matchID string) string { return tournament.RoundOf(matchID) }
