package portal

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/portal/upload"
	"github.com/botjudge/judge/judge/submission"
)

// What a caller may do, shared by the pages and the API. Every read of a contestant's thing
// checks that it is the caller's (or that the caller organises its contest); anything else
// is "not found", whether or not it exists.

// inContest is the caller's contest, if it is contest.
func (s *Server) inContest(ctx context.Context, c caller, contest string) (store.Contest, error) {
	if c.Contest != contest {
		return store.Contest{}, errNotFound
	}
	return s.c.Store.Contest(ctx, contest)
}

// mayRead reports whether c may see what login owns in contest.
func mayRead(c caller, contest, login string) bool {
	return c.Contest == contest && (c.Login == login || c.Organiser)
}

// submit takes an upload as the caller's next version and queues its build.
func (s *Server) submit(ctx context.Context, c caller, cname string, up upload.Upload) (store.Submission, error) {
	ct, err := s.inContest(ctx, c, cname)
	if err != nil {
		return store.Submission{}, err
	}
	if ct.Closed(time.Now()) {
		return store.Submission{}, api.Errorf(api.CodeClosed, "submissions closed at %s", ct.Ended().Format("2006-01-02 15:04 MST"))
	}
	lang, err := s.langOf(up)
	if err != nil {
		return store.Submission{}, err
	}
	if !ct.AllowsLang(lang) {
		return store.Submission{}, api.Errorf(api.CodeBadUpload, "this contest takes %s, not %s", strings.Join(ct.Langs, ", "), lang)
	}
	if !c.Organiser {
		if err := s.c.Store.Take(ctx, store.Uploads, cname, c.Login, ct.UploadsAllowed()); err != nil {
			return store.Submission{}, err
		}
	}
	sub, err := s.engine.Submit(ctx, ct, c.Login, lang, up.Files)
	if err == nil {
		s.c.Log.Info("portal: upload", "contest", cname, "login", c.Login, "version", sub.Version, "id", sub.ID, "lang", lang, "files", len(up.Files))
	}
	return sub, err
}

// langOf is an upload's language: the one it names, else its files' (by their extensions),
// one of the judge's.
func (s *Server) langOf(up upload.Upload) (string, error) {
	lang := up.Lang
	if lang == "" {
		var err error
		if lang, err = submission.DetectLang(up.Files); err != nil {
			return "", api.Errorf(api.CodeBadUpload, "%s; name the language", trimSentinel(err, submission.ErrInvalid))
		}
	}
	if !slices.Contains(s.c.Langs, lang) {
		return "", api.Errorf(api.CodeBadUpload, "unknown language %q (known: %s)", lang, strings.Join(s.c.Langs, ", "))
	}
	return lang, nil
}

// submission is a submission the caller may read, with its status as the caller sees it
// (active when it is its owner's active version).
func (s *Server) submission(ctx context.Context, c caller, id string) (store.Submission, error) {
	sub, err := s.c.Store.Submission(ctx, id)
	if err != nil {
		return sub, err
	}
	if !mayRead(c, sub.Contest, sub.Login) {
		return store.Submission{}, errNotFound
	}
	owner := c.User
	if owner.Login != sub.Login {
		if owner, err = s.c.Store.User(ctx, sub.Contest, sub.Login); err != nil {
			return sub, err
		}
	}
	if owner.Active == sub.ID {
		sub.Status = store.Active
	}
	return sub, nil
}

// ownVersion is one of the caller's own versions, and its contest: what only its
// contestant may do with it (what says what) is refused to anyone else.
func (s *Server) ownVersion(ctx context.Context, c caller, id, what string) (store.Submission, store.Contest, error) {
	sub, err := s.submission(ctx, c, id)
	if err != nil {
		return sub, store.Contest{}, err
	}
	if sub.Login != c.Login {
		return sub, store.Contest{}, api.Errorf(api.CodeForbidden, "only its contestant %s", what)
	}
	ct, err := s.c.Store.Contest(ctx, sub.Contest)
	return sub, ct, err
}

// activate makes one of the caller's ready versions its active one.
func (s *Server) activate(ctx context.Context, c caller, id string) (store.Submission, error) {
	sub, ct, err := s.ownVersion(ctx, c, id, "makes a version active")
	if err != nil {
		return sub, err
	}
	if ct.Closed(time.Now()) { // the active versions are frozen for the official round
		return sub, api.Errorf(api.CodeClosed, "submissions closed at %s: the active versions are frozen", ct.Ended().Format("2006-01-02 15:04 MST"))
	}
	if _, err := s.c.Store.Activate(ctx, sub); err != nil {
		return sub, err
	}
	sub.Status = store.Active
	return sub, nil
}

// stage puts one of the caller's ready versions on trial on its contest's ladder.
func (s *Server) stage(ctx context.Context, c caller, id string) (store.Submission, error) {
	sub, ct, err := s.ownVersion(ctx, c, id, "puts a version on trial")
	if err != nil {
		return sub, err
	}
	switch {
	case !ct.Ladder || ct.Closed(time.Now()):
		return sub, api.Errorf(api.CodeNoLadder, "the contest's ladder is not running: there is nothing to try a version on")
	case c.Active == "":
		return sub, api.Errorf(api.CodeNoActiveVersion, "a trial plays against your active version and the ladder: make a version active first")
	}
	if _, err := s.c.Store.Stage(ctx, sub); err != nil {
		return sub, err
	}
	s.engine.Poke()
	return sub, nil
}

// askMatch queues a test match of the caller's active version against opponents: house bots
// ("house:NAME") and, where the contest allows, other contestants' active versions (by
// login), within the hour's quota.
func (s *Server) askMatch(ctx context.Context, c caller, cname string, opponents []string) (store.Match, error) {
	ct, err := s.inContest(ctx, c, cname)
	if err != nil {
		return store.Match{}, err
	}
	if ct.ReadOnly() {
		return store.Match{}, ct.ClosedError()
	}
	g, sz, err := s.engine.Sizes(ct)
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
	me, err := s.c.Store.User(ctx, cname, c.Login)
	if err != nil {
		return store.Match{}, err
	}
	if me.Active == "" {
		return store.Match{}, api.Errorf(api.CodeNoActiveVersion, "you have no active version: make a version that passed validation active first")
	}
	m := store.Match{ID: store.NewID("m"), Contest: cname, Kind: store.KindTest, Owner: c.Login,
		Seats: []store.Seat{{Login: c.Login, Submission: me.Active}}}
	for _, o := range opponents {
		if name, ok := strings.CutPrefix(o, "house:"); ok {
			if _, ok := ct.HouseBot(name); !ok {
				return store.Match{}, api.Errorf(api.CodeBadRequest, "no house bot %q", name)
			}
			m.Seats = append(m.Seats, store.Seat{House: name})
			continue
		}
		if !ct.PeerMatches && o != c.Login {
			return store.Match{}, api.Errorf(api.CodeForbidden, "this contest has test matches against house bots only (house:NAME)")
		}
		u, err := s.c.Store.User(ctx, cname, o)
		if err != nil || u.Active == "" || u.Organiser {
			return store.Match{}, api.Errorf(api.CodeBadRequest, "no contestant %q with an active version", o)
		}
		m.Seats = append(m.Seats, store.Seat{Login: o, Submission: u.Active})
	}
	// Seats the caller left empty take house bots, then its own version.
	m.Seats = contest.FillSeats(m.Seats, sz.Least, ct.House, m.Seats[0])
	if !c.Organiser {
		if err := s.c.Store.TakeQuota(ctx, cname, c.Login, ct.TestQuota); err != nil {
			return store.Match{}, err
		}
	}
	m.Seed = contest.SeedOf(m.ID)
	return s.engine.StartMatch(ctx, ct, m)
}

// match is a match the caller may read: its own (it asked for it, or played it on the
// ladder), or any of its contest's for an organiser.
func (s *Server) match(ctx context.Context, c caller, id string) (store.Match, error) {
	m, err := s.c.Store.Match(ctx, id)
	if err != nil {
		return m, err
	}
	if c.Contest != m.Contest || !(c.Organiser || m.Kind == store.KindRound || slices.Contains(m.Readers(), c.Login)) {
		return store.Match{}, errNotFound
	}
	return m, nil
}

// mine reports whether seat i of m is the caller's to see in full (its stderr): its own
// bot's, or any for an organiser.
func mine(c caller, m store.Match, i int) bool {
	return c.Organiser || (i < len(m.Seats) && m.Seats[i].House == "" && m.Seats[i].Login == c.Login)
}
