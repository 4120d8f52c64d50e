package contest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
)

// The object keys of sources: a submission's, and a house bot's.
func sourceKey(subID string) string        { return "portal/sources/" + subID + ".json" }
func HouseKey(contest, name string) string { return "portal/house/" + contest + "/" + name + ".json" }

// buildJob is the id of a submission's build job.
func buildJob(subID string) string { return subID + "-build" }

// validationMatch is the id of a submission's validation match: one per submission, so
// that every engine that sees its build finish asks for the same match.
func validationMatch(subID string) string { return subID + "v" }

// PutSources stores a player's files, as a job carries them, under key.
func (e *Engine) PutSources(ctx context.Context, key string, files map[string]string) error {
	data, err := json.Marshal(files)
	if err != nil {
		return err
	}
	return e.c.Queue.PutObject(ctx, queue.BucketSources, key, bytes.NewReader(data))
}

// Sources reads the files stored under key.
func (e *Engine) Sources(ctx context.Context, key string) (map[string]string, error) {
	var buf bytes.Buffer
	found, err := e.c.Queue.GetObject(ctx, queue.BucketSources, key, &buf)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("contest: the sources %s are missing from the object store", key)
	}
	var files map[string]string
	return files, json.Unmarshal(buf.Bytes(), &files)
}

// submitJob puts a job on the queue; a job already there (another engine's, or this one's
// before a restart) is not queued twice.
func (e *Engine) submitJob(ctx context.Context, j job.Job, lane queue.Lane) error {
	data, err := json.Marshal(j)
	if err != nil {
		return err
	}
	_, err = e.c.Queue.SubmitTo(ctx, lane, j.ID, data)
	return err
}

// laneOf is the lane of a match's job: test matches come after official rounds, builds and
// validations, the ladder's after everything.
func laneOf(kind string) queue.Lane {
	switch kind {
	case store.KindTest:
		return queue.LaneTest
	case store.KindLadder:
		return queue.LaneLadder
	}
	return queue.LaneMain
}

// Submit records a contestant's new version of the contest - files as uploaded, in lang -
// and sends it to the judge: its sources (with the game's library) stored, its build queued
// or its place taken in the contestant's line.
func (e *Engine) Submit(ctx context.Context, ct store.Contest, login, lang string, files map[string][]byte) (store.Submission, error) {
	g, ok := e.c.Games(ct.Game)
	if !ok {
		return store.Submission{}, fmt.Errorf("contest %s: unknown game %q", ct.Name, ct.Game)
	}
	// The id is chosen here, so that the record is written once, with where its sources go.
	id := store.NewID("s")
	sub := store.Submission{ID: id, Contest: ct.Name, Login: login, Lang: lang, Source: sourceKey(id)}
	for n := range files {
		sub.Files = append(sub.Files, n)
	}
	slices.Sort(sub.Files)
	sub, err := e.c.Store.AddSubmission(ctx, sub)
	if err != nil {
		return sub, err
	}
	return sub, e.startBuild(ctx, ct, sub, game.WithLibrary(g, lang, files))
}

// startBuild stores a new submission's sources and queues its build, or puts it in its
// contestant's line behind the version the judge has (store.Line).
func (e *Engine) startBuild(ctx context.Context, c store.Contest, sub store.Submission, files map[string][]byte) error {
	p := job.NewPlayer(sub.Login, sub.Lang, files)
	if err := e.PutSources(ctx, sub.Source, p.Files); err != nil {
		return err
	}
	now, err := e.c.Store.Enter(ctx, sub.Contest, sub.Login, sub.ID)
	if err != nil || !now {
		return err
	}
	return e.submitBuild(ctx, c.Game, sub, p.Files)
}

func (e *Engine) submitBuild(ctx context.Context, gameName string, sub store.Submission, files map[string]string) error {
	return e.submitJob(ctx, job.Job{Version: job.Version, ID: buildJob(sub.ID), Game: gameName, Kind: job.KindBuild,
		Players: []job.Player{{Name: sub.Login, Lang: sub.Lang, Files: files}}}, queue.LaneMain)
}

// leave takes a version the judge is done with (built, validated, or failed by the judge)
// out of its contestant's line, and queues the build of the next one.
func (e *Engine) leave(ctx context.Context, sub store.Submission) error {
	next, err := e.c.Store.Leave(ctx, sub.Contest, sub.Login, sub.ID)
	if err != nil || next == "" {
		return err
	}
	return e.sendBuild(ctx, next)
}

// sendBuild queues the build of a stored submission (a job queued already is not queued
// twice).
func (e *Engine) sendBuild(ctx context.Context, id string) error {
	sub, err := e.c.Store.Submission(ctx, id)
	if err != nil {
		return err
	}
	c, err := e.c.Store.Contest(ctx, sub.Contest)
	if err != nil {
		return err
	}
	files, err := e.Sources(ctx, sub.Source)
	if err != nil {
		return err
	}
	return e.submitBuild(ctx, c.Game, sub, files)
}

// inLine reports whether the judge still has a version: its build or its validation (one
// the judge failed leaves the line, to be played again beside it).
func inLine(sub store.Submission) bool {
	return sub.Status == store.Queued || sub.Status == store.Compiling || (sub.Status == store.Validating && sub.Error == "")
}

// tendLines mends the contestants' lines after an engine stopped between two steps: a version
// the judge is done with leaves its line, and one whose turn it is but that may never have
// been queued is queued (again: the queue plays it once).
func (e *Engine) tendLines(ctx context.Context) error {
	lines, err := e.c.Store.Lines(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for who, l := range lines {
		contest, login, _ := strings.Cut(who, ".")
		if l.Current == "" {
			errs = append(errs, e.leave(ctx, store.Submission{Contest: contest, Login: login}))
			continue
		}
		sub, err := e.c.Store.Submission(ctx, l.Current)
		switch {
		case errors.Is(err, store.ErrNotFound):
			errs = append(errs, e.leave(ctx, store.Submission{ID: l.Current, Contest: contest, Login: login}))
		case err != nil:
			errs = append(errs, err)
		case !inLine(sub):
			errs = append(errs, e.leave(ctx, sub))
		case sub.Status == store.Queued:
			errs = append(errs, e.sendBuild(ctx, sub.ID))
		}
	}
	return errors.Join(errs...)
}

// seedOf is a match's seed, drawn from its id: the same match, asked again, is the same.
func SeedOf(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64() >> 11 // within what JSON numbers carry exactly
}

// startMatch stores a match and queues it: each seat's sources from the object store.
func (e *Engine) StartMatch(ctx context.Context, c store.Contest, m store.Match) (store.Match, error) {
	j := job.Job{Version: job.Version, ID: m.ID, Game: c.Game, Seed: &m.Seed, Options: map[string]any{}}
	for k, v := range c.Options {
		j.Options[k] = v
	}
	for _, seat := range m.Seats {
		p := job.Player{Name: seat.Name()}
		var key string
		if seat.House != "" {
			h, ok := c.HouseBot(seat.House)
			if !ok {
				return m, fmt.Errorf("%w: the contest has no house bot %q", store.ErrInvalid, seat.House)
			}
			p.Lang, key = h.Lang, h.Source
		} else {
			sub, err := e.c.Store.Submission(ctx, seat.Submission)
			if err != nil {
				return m, err
			}
			p.Lang, key = sub.Lang, sub.Source
		}
		files, err := e.Sources(ctx, key)
		if err != nil {
			return m, err
		}
		p.Files = files
		j.Players = append(j.Players, p)
	}
	m.Options = playedWith(c.Options)
	m, err := e.c.Store.AddMatch(ctx, m)
	if err != nil && !errors.Is(err, store.ErrExists) {
		return m, err
	}
	return m, e.submitJob(ctx, j, laneOf(m.Kind))
}

func (e *Engine) onResult(ctx context.Context, id string, data []byte) error {
	e.playing.judged(id)
	if subID, ok := strings.CutSuffix(id, "-build"); ok {
		var res result.Result
		if err := json.Unmarshal(data, &res); err != nil {
			return err
		}
		if err := e.built(ctx, subID, res); !errors.Is(err, store.ErrNotFound) {
			return err
		}
		return nil // another system's job
	}
	var res result.Result
	if err := json.Unmarshal(data, &res); err != nil {
		return err
	}
	m, err := e.c.Store.Match(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		_, err := e.roundMatch(ctx, id, res)
		return err // a round's match, or another system's job
	}
	if err != nil {
		return err
	}
	return e.played(ctx, m, res)
}

// built records a submission's build and, when it compiled, asks for its validation match.
func (e *Engine) built(ctx context.Context, subID string, res result.Result) error {
	sub, err := e.c.Store.Submission(ctx, subID)
	if err != nil || (sub.Status != store.Queued && sub.Status != store.Compiling) {
		return err
	}
	ok := res.Status == result.StatusOK && len(res.Players) == 1 && res.Players[0].Build.OK
	if ok {
		c, err := e.c.Store.Contest(ctx, sub.Contest)
		if err != nil {
			return err
		}
		_, sz, err := e.Sizes(c)
		if err != nil {
			return err
		}
		m := store.Match{ID: validationMatch(sub.ID), Contest: sub.Contest, Kind: store.KindValidation, Owner: sub.Login,
			Seed: SeedOf(validationMatch(sub.ID))}
		m.Seats = validationSeats(c, sub, sz.Want)
		if _, err := e.StartMatch(ctx, c, m); err != nil {
			return err
		}
	}
	after, err := e.c.Store.UpdateSubmission(ctx, subID, func(x *store.Submission) error {
		if x.Status != store.Queued && x.Status != store.Compiling {
			return nil
		}
		switch {
		case res.Status != result.StatusOK:
			x.Status, x.Error = store.Rejected, "the judge could not build it: "+errMessage(res)
		case len(res.Players) == 1:
			b := res.Players[0].Build
			x.Build = &b
			x.Status = store.CompileError
			if ok {
				x.Status, x.Validation = store.Validating, &store.Validation{Match: validationMatch(x.ID)}
			}
		}
		return nil
	})
	if err == nil && !inLine(after) {
		err = e.leave(ctx, after)
	}
	return err
}

// validationSeats are a validation match's n players: the version in the first seat, then
// the contest's house bots, then the version again (fillSeats). n is the match the contest
// plays, so that a version is validated as its ladder and rounds will play it.
func validationSeats(c store.Contest, sub store.Submission, n int) []store.Seat {
	own := store.Seat{Login: sub.Login, Submission: sub.ID}
	return FillSeats([]store.Seat{own}, n, c.House, own)
}

func errMessage(res result.Result) string {
	if res.Error != nil {
		return res.Error.Message
	}
	return "no result"
}

// played stores a match's result and, for a validation match, decides its submission.
func (e *Engine) played(ctx context.Context, m store.Match, res result.Result) error {
	if m.Result == nil {
		if _, err := e.c.Store.UpdateMatch(ctx, m.ID, func(x *store.Match) error {
			x.Result, x.Replay = &res, res.Replay
			return nil
		}); err != nil {
			return err
		}
	}
	if m.Kind == store.KindLadder {
		return e.ladders.rate(ctx, m, res)
	}
	if m.Kind != store.KindValidation {
		return nil
	}
	subID := validatedSub(m)
	retry := false
	after, err := e.c.Store.UpdateSubmission(ctx, subID, func(x *store.Submission) error {
		// Only the version's current validation decides: the result of one the judge failed
		// comes again each time an engine starts following.
		retry = false
		if x.Status != store.Validating || x.Validation == nil || x.Validation.Match != m.ID {
			return nil
		}
		if res.Status != result.StatusOK {
			x.Retries++
			x.RetryAt = time.Now().UTC().Add(revalidateAfter(x.Retries))
			x.Error = fmt.Sprintf("the judge could not play its validation match (%s); it is played again", errMessage(res))
			retry = true
			return nil
		}
		x.Status, x.Error, x.RetryAt = store.Ready, "", time.Time{}
		if f := ownFault(m, res, x.Login); f != nil {
			x.Status, x.Validation = store.Rejected, &store.Validation{Match: m.ID, Fault: f}
		}
		return nil
	})
	if err == nil && retry {
		e.c.Log.Warn("contest: the judge could not play a validation match; it is played again", "submission", subID, "match", m.ID, "err", errMessage(res))
		err = e.c.Store.MarkRevalidate(ctx, subID)
	}
	if err == nil && !inLine(after) {
		err = e.leave(ctx, after)
	}
	return err
}

// validatedSub is the submission a validation match validates: its first seat's (a match
// stored before seats were filled in turn is named after it, too).
func validatedSub(m store.Match) string {
	if len(m.Seats) > 0 && m.Seats[0].Submission != "" {
		return m.Seats[0].Submission
	}
	sub, _ := strings.CutSuffix(m.ID, "v")
	return sub
}

// revalidateAfter is how long after its n-th failed validation match a version's is played
// again: a minute, doubling up to an hour. An engine that starts plays every one at once: a
// new judge, or the organiser's repair, is the likeliest cause to have gone.
func revalidateAfter(n int) time.Duration {
	return min(time.Minute<<min(n-1, 6), time.Hour)
}

// revalidate plays again the validation matches the judge could not play, those due or, on
// an engine's first pass (all), every one. A version that is no longer waiting leaves the
// list. Any number of engines do this at once: the submission's compare-and-set names the
// next match once, and a match queued twice is played once.
func (e *Engine) revalidate(ctx context.Context, all bool) error {
	if all {
		if err := e.unreject(ctx); err != nil {
			return err
		}
	}
	ids, err := e.c.Store.Revalidations(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, id := range ids {
		errs = append(errs, e.revalidateOne(ctx, id, all))
	}
	return errors.Join(errs...)
}

// unreject gives back the versions an engine of before rejected for the judge's own failure
// to play their validation (a contest of four players once could not validate any): they
// are validating again, and played again with the others.
func (e *Engine) unreject(ctx context.Context) error {
	subs, err := e.c.Store.JudgeRejected(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, sub := range subs {
		_, err := e.c.Store.UpdateSubmission(ctx, sub.ID, func(x *store.Submission) error {
			if x.Status != store.Rejected || x.Error != sub.Error {
				return nil
			}
			x.Status, x.Retries = store.Validating, 1
			if x.Validation == nil {
				x.Validation = &store.Validation{Match: validationMatch(x.ID)}
			}
			return nil
		})
		if err == nil {
			e.c.Log.Info("contest: a version rejected for the judge's failure is validated again", "submission", sub.ID, "contest", sub.Contest, "login", sub.Login)
			err = e.c.Store.MarkRevalidate(ctx, sub.ID)
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func (e *Engine) revalidateOne(ctx context.Context, id string, all bool) error {
	sub, err := e.c.Store.Submission(ctx, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && (sub.Status != store.Validating || sub.Error == "")) {
		return e.c.Store.DoneRevalidate(ctx, id)
	}
	if err != nil {
		return err
	}
	current := sub.Validation.Match
	m, err := e.c.Store.Match(ctx, current)
	switch {
	case errors.Is(err, store.ErrNotFound):
		// Named, and the engine that named it stopped before queueing it.
	case err != nil:
		return err
	case m.Result == nil || (!all && time.Now().Before(sub.RetryAt)):
		return nil // under way, or not yet due
	default:
		next := fmt.Sprintf("%sv%d", sub.ID, sub.Retries+1)
		sub, err = e.c.Store.UpdateSubmission(ctx, id, func(x *store.Submission) error {
			if x.Validation == nil || x.Validation.Match != current {
				return errRaced
			}
			x.Validation.Match = next
			return nil
		})
		if errors.Is(err, errRaced) {
			return nil // another engine named the next match
		}
		if err != nil {
			return err
		}
	}
	c, err := e.c.Store.Contest(ctx, sub.Contest)
	if err != nil {
		return err
	}
	_, sz, err := e.Sizes(c)
	if err != nil {
		return err
	}
	v := sub.Validation.Match
	_, err = e.StartMatch(ctx, c, store.Match{ID: v, Contest: sub.Contest, Kind: store.KindValidation, Owner: sub.Login,
		Seed: SeedOf(v), Seats: validationSeats(c, sub, sz.Want)})
	return err
}

var errRaced = errors.New("another engine changed it first")

// ownFault is the first fault of login's seats in a match.
func ownFault(m store.Match, res result.Result, login string) *game.Fault {
	for i, seat := range m.Seats {
		if seat.Login == login && seat.House == "" && i < len(res.Players) && res.Players[i].Fault != nil {
			return res.Players[i].Fault
		}
	}
	return nil
}
