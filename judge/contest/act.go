package contest

import (
	"context"
	"fmt"
	"os/user"
	"slices"
	"strings"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/submission"
)

// Every rule of who may do what to a contest is decided here, against the Actor that asks: the
// portal's pages and API and the organisers' commands call these methods and decide nothing
// themselves. A refusal is an *api.Error, or one of the store's errors (store.ErrNotFound for
// what is not the actor's to see, whether or not it exists).

// Actor is who asks the engine to act: a person signed in to a contest (Contest, Login,
// Organiser), or the organisers' command line on the portal's host (Host), which organises
// every contest.
type Actor struct {
	Contest   string
	Login     string
	Organiser bool
	// Host names the command line's user in the organisers' log ("cli:NAME").
	Host string
}

// HostActor is the organisers' command line on the portal's host, named after the user that
// runs it.
func HostActor() Actor {
	who := "cli"
	if u, err := user.Current(); err == nil {
		who += ":" + u.Username
	}
	return Actor{Host: who, Organiser: true}
}

// name is the actor as the organisers' log names it.
func (a Actor) name() string {
	if a.Host != "" {
		return a.Host
	}
	return a.Login
}

// ErrForbidden refuses what only a contest's organisers may do.
var ErrForbidden = api.Errorf(api.CodeForbidden, "only the contest's organisers may do that")

// Contest is a contest the actor may see: its own, or any from the host.
func (e *Engine) Contest(ctx context.Context, a Actor, name string) (store.Contest, error) {
	if a.Host == "" && a.Contest != name {
		return store.Contest{}, store.ErrNotFound
	}
	ct, err := e.c.Store.Contest(ctx, name)
	if err != nil {
		return ct, fmt.Errorf("contest %s: %w", name, err)
	}
	return ct, nil
}

// Organised is a contest the actor organises.
func (e *Engine) Organised(ctx context.Context, a Actor, name string) (store.Contest, error) {
	ct, err := e.Contest(ctx, a, name)
	if err != nil {
		return ct, err
	}
	if !a.Organiser {
		return ct, ErrForbidden
	}
	return ct, nil
}

// record keeps what an organiser did to a contest for its organisers (store.Record); the
// action is done already, so a record that cannot be kept is logged, not the action's failure.
func (e *Engine) record(ctx context.Context, a Actor, contest, format string, args ...any) {
	if err := e.c.Store.Record(ctx, contest, a.name(), fmt.Sprintf(format, args...)); err != nil {
		e.c.Log.Error("contest: the action was done, but not kept in the contest's log", "contest", contest, "by", a.name(), "err", err)
	}
}

// A change is what a contest may stop taking: anything, or what touches the versions.
type change int

const (
	// anyChange is refused once the organisers closed the contest (read-only).
	anyChange change = iota
	// versionChange (an upload, an activation) is refused once submissions ended too: at the
	// deadline, the active versions are frozen for the official round.
	versionChange
)

// closed is the one answer to "does the contest still take this change at now?": nil, or
// the refusal.
func closed(ct store.Contest, what change, now time.Time) error {
	switch {
	case ct.ReadOnly() && what == anyChange:
		return ct.ClosedError()
	case what == versionChange && ct.Closed(now):
		return api.Errorf(api.CodeClosed, "submissions closed at %s", ct.Ended().Format("2006-01-02 15:04 MST"))
	}
	return nil
}

// Open reports whether the contest takes versions at now (uploads, activations, trials).
func Open(ct store.Contest, now time.Time) bool { return closed(ct, versionChange, now) == nil }

// laddering reports whether the contest's ladder plays at now: on, and submissions open.
func laddering(ct store.Contest, now time.Time) bool { return ct.Ladder && Open(ct, now) }

// Upload takes files as the actor's next version of the contest, in lang ("" for the one its
// files' extensions say), and queues its build, within the hour's upload quota (organisers
// have none).
func (e *Engine) Upload(ctx context.Context, a Actor, contest, lang string, files map[string][]byte) (store.Submission, error) {
	ct, err := e.Contest(ctx, a, contest)
	if err != nil {
		return store.Submission{}, err
	}
	if err := closed(ct, versionChange, time.Now()); err != nil {
		return store.Submission{}, err
	}
	if lang, err = e.LangOf(lang, files); err != nil {
		return store.Submission{}, err
	}
	if !ct.AllowsLang(lang) {
		return store.Submission{}, api.Errorf(api.CodeBadUpload, "this contest takes %s, not %s", strings.Join(ct.Langs, ", "), lang)
	}
	if !a.Organiser {
		if err := e.c.Store.Take(ctx, store.Uploads, contest, a.Login, ct.UploadsAllowed()); err != nil {
			return store.Submission{}, err
		}
	}
	sub, err := e.Submit(ctx, ct, a.Login, lang, files)
	if err == nil {
		e.c.Log.Info("contest: upload", "contest", contest, "login", a.Login, "version", sub.Version, "id", sub.ID, "lang", lang, "files", len(files))
	}
	return sub, err
}

// LangOf is an upload's language: lang when it names one, else its files' (by their
// extensions), one of the judge's.
func (e *Engine) LangOf(lang string, files map[string][]byte) (string, error) {
	if lang == "" {
		var err error
		if lang, err = submission.DetectLang(files); err != nil {
			return "", api.Errorf(api.CodeBadUpload, "%s; name the language", strings.TrimPrefix(err.Error(), submission.ErrInvalid.Error()+": "))
		}
	}
	langs := e.langs()
	if !slices.Contains(langs, lang) {
		return "", api.Errorf(api.CodeBadUpload, "unknown language %q (known: %s)", lang, strings.Join(langs, ", "))
	}
	return lang, nil
}

// langs are the judge's languages.
func (e *Engine) langs() []string {
	if e.c.Langs == nil {
		return images.LangNames()
	}
	return e.c.Langs
}

// Version is a version the actor may read, with its status as the actor sees it (active
// when it is its owner's active version): its contestant's own, or any of its contest's for
// an organiser.
func (e *Engine) Version(ctx context.Context, a Actor, id string) (store.Submission, error) {
	sub, _, err := e.version(ctx, a, id)
	return sub, err
}

// version is Version and its owner.
func (e *Engine) version(ctx context.Context, a Actor, id string) (store.Submission, store.User, error) {
	sub, err := e.c.Store.Submission(ctx, id)
	if err != nil {
		return sub, store.User{}, err
	}
	if a.Host == "" && (a.Contest != sub.Contest || (a.Login != sub.Login && !a.Organiser)) {
		return store.Submission{}, store.User{}, store.ErrNotFound
	}
	owner, err := e.c.Store.User(ctx, sub.Contest, sub.Login)
	if err != nil {
		return sub, owner, err
	}
	if owner.Active == sub.ID {
		sub.Status = store.Active
	}
	return sub, owner, nil
}

// ownVersion is one of the actor's own versions, the actor's record and its contest: what
// only its contestant may do with it (what says what) is refused to anyone else.
func (e *Engine) ownVersion(ctx context.Context, a Actor, id, what string) (store.Submission, store.User, store.Contest, error) {
	sub, me, err := e.version(ctx, a, id)
	if err != nil {
		return sub, me, store.Contest{}, err
	}
	if sub.Login != a.Login {
		return sub, me, store.Contest{}, api.Errorf(api.CodeForbidden, "only its contestant %s", what)
	}
	ct, err := e.c.Store.Contest(ctx, sub.Contest)
	return sub, me, ct, err
}

// Activate makes one of the actor's ready versions its active one.
func (e *Engine) Activate(ctx context.Context, a Actor, id string) (store.Submission, error) {
	sub, _, ct, err := e.ownVersion(ctx, a, id, "makes a version active")
	if err != nil {
		return sub, err
	}
	if !Open(ct, time.Now()) {
		return sub, api.Errorf(api.CodeClosed, "submissions closed at %s: the active versions are frozen", ct.Ended().Format("2006-01-02 15:04 MST"))
	}
	if _, err := e.c.Store.Activate(ctx, sub); err != nil {
		return sub, err
	}
	sub.Status = store.Active
	e.Poke()
	return sub, nil
}

// Stage puts one of the actor's ready versions on trial on its contest's ladder.
func (e *Engine) Stage(ctx context.Context, a Actor, id string) (store.Submission, error) {
	sub, me, ct, err := e.ownVersion(ctx, a, id, "puts a version on trial")
	if err != nil {
		return sub, err
	}
	switch {
	case !laddering(ct, time.Now()):
		return sub, api.Errorf(api.CodeNoLadder, "the contest's ladder is not running: there is nothing to try a version on")
	case me.Active == "":
		return sub, api.Errorf(api.CodeNoActiveVersion, "a trial plays against your active version and the ladder: make a version active first")
	}
	if _, err := e.c.Store.Stage(ctx, sub); err != nil {
		return sub, err
	}
	e.Poke()
	return sub, nil
}

// AskMatch queues a test match of the actor's active version against opponents: house bots
// ("house:NAME") and, where the contest allows, other contestants' active versions (by
// login), within the hour's quota (organisers have none).
func (e *Engine) AskMatch(ctx context.Context, a Actor, contest string, req api.MatchRequest) (store.Match, error) {
	opponents := req.Opponents
	ct, err := e.Contest(ctx, a, contest)
	if err != nil {
		return store.Match{}, err
	}
	if err := closed(ct, anyChange, time.Now()); err != nil {
		return store.Match{}, err
	}
	g, sz, err := e.Sizes(ct)
	if err != nil {
		return store.Match{}, err
	}
	if n := 1 + len(opponents); n > sz.Most {
		takes := fmt.Sprint(sz.Most)
		if sz.Least != sz.Most {
			takes = fmt.Sprintf("%d to %d", sz.Least, sz.Most)
		}
		return store.Match{}, api.Errorf(api.CodeBadRequest, "a match of %s in this contest has %s players: you and at most %d opponents, not %d",
			g.Name(), takes, sz.Most-1, len(opponents))
	}
	me, err := e.c.Store.User(ctx, contest, a.Login)
	if err != nil {
		return store.Match{}, err
	}
	if me.Active == "" {
		return store.Match{}, api.Errorf(api.CodeNoActiveVersion, "you have no active version: make a version that passed validation active first")
	}
	m := store.Match{ID: store.NewID("m"), Contest: contest, Kind: store.KindTest, Owner: a.Login,
		Seats: []store.Seat{{Login: a.Login, Submission: me.Active}}}
	for _, o := range opponents {
		if name, ok := strings.CutPrefix(o, "house:"); ok {
			if _, ok := ct.HouseBot(name); !ok {
				return store.Match{}, api.Errorf(api.CodeBadRequest, "no house bot %q", name)
			}
			m.Seats = append(m.Seats, store.Seat{House: name})
			continue
		}
		if !ct.PeerMatches && o != a.Login {
			return store.Match{}, api.Errorf(api.CodeForbidden, "this contest has test matches against house bots only (house:NAME)")
		}
		u, err := e.c.Store.User(ctx, contest, o)
		if err != nil || u.Active == "" || u.Organiser {
			return store.Match{}, api.Errorf(api.CodeBadRequest, "no contestant %q with an active version", o)
		}
		m.Seats = append(m.Seats, store.Seat{Login: o, Submission: u.Active})
	}
	// Seats the actor left empty take house bots, then its own version.
	m.Seats = FillSeats(m.Seats, sz.Least, ct.House, m.Seats[0])
	if !a.Organiser {
		if err := e.c.Store.TakeQuota(ctx, contest, a.Login, ct.TestQuota); err != nil {
			return store.Match{}, err
		}
	}
	m.Seed = SeedOf(m.ID)
	if req.Seed != nil {
		m.Seed = *req.Seed
	}
	return e.StartMatch(ctx, ct, m)
}
