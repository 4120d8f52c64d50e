package contest

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/job"
)

// What organisers change, from the portal's pages and API or the host's command line: people,
// house bots, the contest's settings and the contest itself. Each is kept in the organisers'
// log.

// Settings are a contest's settings an organiser may change while it runs; a nil field is
// left as it is.
type Settings struct {
	// Deadline is RFC 3339, or "" for none.
	Deadline     *string `json:"deadline,omitempty"`
	TestQuota    *int    `json:"test_quota,omitempty"`
	UploadQuota  *int    `json:"upload_quota,omitempty"`
	PeerMatches  *bool   `json:"peer_matches,omitempty"`
	PublishHouse *bool   `json:"publish_house,omitempty"`
	// TestRounds are the test competitions' times (RFC 3339).
	TestRounds *[]string `json:"test_rounds,omitempty"`
	// The ladder: on or off, and its settings (ladder.Settings).
	Ladder        *bool `json:"ladder,omitempty"`
	InFlight      *int  `json:"in_flight,omitempty"`
	DisableFaults *int  `json:"disable_faults,omitempty"`
	DisableWindow *int  `json:"disable_window,omitempty"`
	MinRate       *int  `json:"min_rate,omitempty"`
	MaxRate       *int  `json:"max_rate,omitempty"`
	// Trial is the test of a staged version's trial; AutoPromote makes a version it finds
	// better active by itself (ladder.Settings).
	Trial       *ladder.TrialTest `json:"trial,omitempty"`
	AutoPromote *bool             `json:"auto_promote,omitempty"`
	// Leagues replaces the ladder's leagues, the lowest first ([] for none).
	Leagues *[]ladder.League `json:"leagues,omitempty"`
}

// ParseTime reads a time as the settings give it: RFC 3339, or "" for none.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return t, api.Errorf(api.CodeBadRequest, "deadline %q: want RFC 3339, like 2026-12-24T18:00:00Z", s)
	}
	return t, nil
}

// ChangeSettings changes the settings set gives of a contest the actor organises.
func (e *Engine) ChangeSettings(ctx context.Context, a Actor, contest string, set Settings) (_ store.Contest, err error) {
	if _, err := e.Organised(ctx, a, contest); err != nil {
		return store.Contest{}, err
	}
	var deadline time.Time
	if set.Deadline != nil {
		if deadline, err = ParseTime(*set.Deadline); err != nil {
			return store.Contest{}, err
		}
	}
	var rounds []time.Time
	if set.TestRounds != nil {
		for _, v := range *set.TestRounds {
			t, err := ParseTime(v)
			if err != nil || t.IsZero() {
				return store.Contest{}, api.Errorf(api.CodeBadRequest, "test_rounds: %q: want RFC 3339 times, like 2026-12-24T18:00:00Z", v)
			}
			rounds = append(rounds, t)
		}
		slices.SortFunc(rounds, time.Time.Compare)
	}
	if set.TestQuota != nil && *set.TestQuota < 0 {
		return store.Contest{}, api.Errorf(api.CodeBadRequest, "test_quota %d: want 0 or more", *set.TestQuota)
	}
	if set.UploadQuota != nil && *set.UploadQuota < 1 {
		return store.Contest{}, api.Errorf(api.CodeBadRequest, "upload_quota %d: want 1 or more uploads an hour", *set.UploadQuota)
	}
	defer func() {
		if err == nil {
			b, _ := json.Marshal(set)
			e.record(ctx, a, contest, "changed the settings: %s", b)
		}
	}()
	return e.c.Store.UpdateContest(ctx, contest, func(ct *store.Contest) error {
		if err := closed(*ct, anyChange, time.Now()); err != nil {
			return err
		}
		if set.Deadline != nil {
			ct.Deadline = deadline
		}
		for _, f := range []struct{ from, to *int }{{set.TestQuota, &ct.TestQuota}, {set.UploadQuota, &ct.UploadQuota}} {
			if f.from != nil {
				*f.to = *f.from
			}
		}
		for _, f := range []struct{ from, to *bool }{{set.PeerMatches, &ct.PeerMatches}, {set.PublishHouse, &ct.PublishHouse}, {set.Ladder, &ct.Ladder}} {
			if f.from != nil {
				*f.to = *f.from
			}
		}
		if set.TestRounds != nil {
			ct.TestRounds = rounds
		}
		l := &ct.LadderSettings
		for _, f := range []struct{ from, to *int }{{set.InFlight, &l.InFlight}, {set.DisableFaults, &l.DisableFaults}, {set.DisableWindow, &l.DisableWindow}, {set.MinRate, &l.MinRate}, {set.MaxRate, &l.MaxRate}} {
			if f.from != nil {
				*f.to = *f.from
			}
		}
		if set.Trial != nil {
			t := *set.Trial
			l.Trial = &t
		}
		if set.AutoPromote != nil {
			l.AutoPromote = *set.AutoPromote
		}
		if set.Leagues != nil {
			l.Leagues = slices.Clone(*set.Leagues)
		}
		if err := validLadder(*ct); err != nil {
			return api.Errorf(api.CodeBadRequest, "%v", err)
		}
		return nil
	})
}

// validLadder names what is wrong with the contest's ladder settings: their own ranges, and a
// league's boss that is not one of its house bots.
func validLadder(ct store.Contest) error {
	if err := ct.LadderSettings.Validate(); err != nil {
		return err
	}
	var house []string
	for _, h := range ct.House {
		house = append(house, h.Name)
	}
	return ct.LadderSettings.CheckBosses(house)
}

// AddUser adds a contestant or an organiser to a contest the actor organises, with an API
// token and a one-time invite code.
func (e *Engine) AddUser(ctx context.Context, a Actor, contest, login string, organiser bool) (store.NewUser, error) {
	ct, err := e.Organised(ctx, a, contest)
	if err != nil {
		return store.NewUser{}, err
	}
	if err := closed(ct, anyChange, time.Now()); err != nil {
		return store.NewUser{}, err
	}
	nu, err := e.c.Store.AddUser(ctx, contest, login, organiser)
	if err != nil {
		return nu, err
	}
	e.record(ctx, a, contest, "added %s %s", map[bool]string{false: "contestant", true: "organiser"}[organiser], login)
	return nu, nil
}

// notSelf refuses an organiser's reset or removal of their own login: the password is
// changed on the account page, and another organiser removes an organiser.
func notSelf(a Actor, login, what string) error {
	if a.Host == "" && login == a.Login {
		return api.Errorf(api.CodeSelf, "you do not %s yourself: change your password on your account page, or ask another organiser", what)
	}
	return nil
}

// ResetUser ends a person's sessions and tokens and forgets the password: the user and a
// new invite code.
func (e *Engine) ResetUser(ctx context.Context, a Actor, contest, login string) (store.User, string, error) {
	if _, err := e.Organised(ctx, a, contest); err != nil {
		return store.User{}, "", err
	}
	if err := notSelf(a, login, "reset"); err != nil {
		return store.User{}, "", err
	}
	u, code, err := e.c.Store.ResetUser(ctx, contest, login)
	if err != nil {
		return u, "", err
	}
	e.record(ctx, a, contest, "reset %s: every session and token ended, a new invite", login)
	return u, code, nil
}

// RemoveUser takes a person out of the contest (store.RemoveUser).
func (e *Engine) RemoveUser(ctx context.Context, a Actor, contest, login string) (store.User, error) {
	if _, err := e.Organised(ctx, a, contest); err != nil {
		return store.User{}, err
	}
	if err := notSelf(a, login, "remove"); err != nil {
		return store.User{}, err
	}
	u, err := e.c.Store.RemoveUser(ctx, contest, login)
	if err != nil {
		return u, err
	}
	e.record(ctx, a, contest, "removed %s", login)
	return u, nil
}

// CloseContest makes the contest read-only from now on (store.CloseContest); closed already,
// it stays closed since then, and nothing more is recorded.
func (e *Engine) CloseContest(ctx context.Context, a Actor, contest string) (store.Contest, error) {
	ct, err := e.Organised(ctx, a, contest)
	if err != nil || ct.ReadOnly() {
		return ct, err
	}
	if ct, err = e.c.Store.CloseContest(ctx, contest); err == nil {
		e.record(ctx, a, contest, "closed the contest")
	}
	return ct, err
}

// AddHouse adds a house bot to a contest the actor organises: its name, and its files in
// lang ("" for the one their extensions say).
func (e *Engine) AddHouse(ctx context.Context, a Actor, contest, name, lang string, files map[string][]byte) (_ store.Contest, err error) {
	ct, err := e.Organised(ctx, a, contest)
	if err != nil {
		return ct, err
	}
	if err := store.ValidName("house bot", name); err != nil {
		return ct, err
	}
	if _, dup := ct.HouseBot(name); dup {
		return ct, api.Errorf(api.CodeExists, "the contest has a house bot %q already", name)
	}
	if lang, err = e.LangOf(lang, files); err != nil {
		return ct, err
	}
	g, ok := e.c.Games(ct.Game)
	if !ok {
		return ct, store.ErrNotFound
	}
	key := HouseKey(ct.Name, name)
	if err := e.PutSources(ctx, key, job.NewPlayer(name, lang, game.WithLibrary(g, lang, files)).Files); err != nil {
		return ct, err
	}
	defer func() {
		if err == nil {
			e.record(ctx, a, contest, "added house bot %s (%s)", name, lang)
		}
	}()
	return e.c.Store.UpdateContest(ctx, contest, func(x *store.Contest) error {
		if err := closed(*x, anyChange, time.Now()); err != nil {
			return err
		}
		if _, dup := x.HouseBot(name); dup {
			return api.Errorf(api.CodeExists, "the contest has a house bot %q already", name)
		}
		x.House = append(x.House, store.House{Name: name, Lang: lang, Source: key})
		return nil
	})
}
