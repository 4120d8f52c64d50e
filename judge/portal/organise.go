package portal

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/portal/upload"
)

// What organisers change from their pages and the API: people and the contest's settings.

// organiser is the caller's contest, if the caller organises it.
func (s *Server) organiser(ctx context.Context, c caller, contest string) (store.Contest, error) {
	ct, err := s.inContest(ctx, c, contest)
	if err != nil {
		return ct, err
	}
	if !c.Organiser {
		return ct, errForbidden
	}
	return ct, nil
}

// newUser is what adding a user answers, once: its token and invite link.
type newUser struct {
	Login  string `json:"login"`
	Token  string `json:"token"`
	Invite string `json:"invite"`
}

func (s *Server) addUser(ctx context.Context, c caller, contest, login string, organiser bool) (newUser, error) {
	if _, err := s.organiser(ctx, c, contest); err != nil {
		return newUser{}, err
	}
	nu, err := s.c.Store.AddUser(ctx, contest, login, organiser)
	if err != nil {
		return newUser{}, err
	}
	s.record(ctx, contest, c, "added %s %s", map[bool]string{false: "contestant", true: "organiser"}[organiser], login)
	return newUser{Login: nu.User.Login, Token: nu.Token, Invite: s.c.InviteURL(nu.Invite)}, nil
}

// record keeps what organiser c did to contest for its organisers (store.Record); the action
// is done already, so a record that cannot be kept is logged, not the action's failure.
func (s *Server) record(ctx context.Context, contest string, c caller, format string, args ...any) {
	if err := s.c.Store.Record(ctx, contest, c.Login, fmt.Sprintf(format, args...)); err != nil {
		s.c.Log.Error("portal: keeping an organiser's action", "contest", contest, "login", c.Login, "err", err)
	}
}

// apiActions lists the contest's organisers' actions, newest first, for its organisers.
func (s *Server) apiActions(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, err := s.organiser(r.Context(), c, r.PathValue("contest"))
	if err != nil {
		return err
	}
	actions, err := s.c.Store.Actions(r.Context(), ct.Name, 0)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"actions": actions})
	return nil
}

// settings are a contest's settings an organiser may change while it runs.
type settings struct {
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
}

func (s *Server) changeSettings(ctx context.Context, c caller, contest string, set settings) (_ store.Contest, err error) {
	if _, err := s.organiser(ctx, c, contest); err != nil {
		return store.Contest{}, err
	}
	var deadline time.Time
	if set.Deadline != nil {
		var err error
		if deadline, err = parseDeadline(*set.Deadline); err != nil {
			return store.Contest{}, err
		}
	}
	var rounds []time.Time
	if set.TestRounds != nil {
		for _, v := range *set.TestRounds {
			t, err := parseDeadline(v)
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
			s.record(ctx, contest, c, "changed the settings: %s", b)
		}
	}()
	return s.c.Store.UpdateContest(ctx, contest, func(ct *store.Contest) error {
		if ct.ReadOnly() {
			return ct.ClosedError()
		}
		if set.Deadline != nil {
			ct.Deadline = deadline
		}
		if set.TestQuota != nil {
			ct.TestQuota = *set.TestQuota
		}
		if set.UploadQuota != nil {
			ct.UploadQuota = *set.UploadQuota
		}
		if set.PeerMatches != nil {
			ct.PeerMatches = *set.PeerMatches
		}
		if set.PublishHouse != nil {
			ct.PublishHouse = *set.PublishHouse
		}
		if set.Ladder != nil {
			ct.Ladder = *set.Ladder
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
		if err := l.Validate(); err != nil {
			return api.Errorf(api.CodeBadRequest, "%v", err)
		}
		return nil
	})
}

// parseDeadline reads a deadline: RFC 3339, or "" for none.
func parseDeadline(s string) (time.Time, error) {
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

// contestJSON is a contest as a contestant sees it: no sources.
func (s *Server) contestJSON(ct store.Contest) api.Contest {
	out := api.Contest{Name: ct.Name, Game: ct.Game, Options: ct.Options, Langs: ct.Langs, House: []string{},
		TestQuota: ct.TestQuota, UploadQuota: ct.UploadsAllowed(), PeerMatches: ct.PeerMatches, PublishHouse: ct.PublishHouse,
		Ladder: ct.Ladder, InFlight: ct.LadderSettings.InFlight, DisableFaults: ct.LadderSettings.DisableFaults,
		DisableWindow: ct.LadderSettings.DisableWindow, MinRate: ct.LadderSettings.MinRate, MaxRate: ct.LadderSettings.Ceiling(),
		TestRounds: append([]time.Time{}, ct.TestRounds...), Players: s.seats(ct)}
	for _, h := range ct.House {
		out.House = append(out.House, h.Name)
	}
	if !ct.Deadline.IsZero() {
		d := ct.Deadline.Format(time.RFC3339)
		out.Deadline = &d
	}
	_, out.GameAdded = s.gameDir(ct)
	if ct.ReadOnly() {
		c := ct.ClosedAt.Format(time.RFC3339)
		out.ClosedAt = &c
	}
	return out
}

func (s *Server) apiContest(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, err := s.inContest(r.Context(), c, r.PathValue("contest"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.contestJSON(ct))
	return nil
}

// decodeBody reads a small JSON body into v, refusing unknown fields.
func decodeBody(r *http.Request, v any, want string) error {
	dec := json.NewDecoder(io.LimitReader(r.Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return api.Errorf(api.CodeBadRequest, "want %s: %v", want, err)
	}
	return nil
}

func (s *Server) apiSettings(w http.ResponseWriter, r *http.Request, c caller) error {
	var set settings
	if err := decodeBody(r, &set, `{"deadline": RFC 3339 or "", "test_quota": N, "upload_quota": N, "peer_matches": true|false, "publish_house": true|false, "ladder": true|false, "in_flight": N, "disable_faults": K, "disable_window": N, "min_rate": N, "max_rate": N, "test_rounds": [RFC 3339, ...]}`); err != nil {
		return err
	}
	ct, err := s.changeSettings(r.Context(), c, r.PathValue("contest"), set)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.contestJSON(ct))
	return nil
}

func (s *Server) apiAddUser(w http.ResponseWriter, r *http.Request, c caller) error {
	var body struct {
		Login     string `json:"login"`
		Organiser bool   `json:"organiser"`
	}
	if err := decodeBody(r, &body, `{"login": "...", "organiser": false}`); err != nil {
		return err
	}
	nu, err := s.addUser(r.Context(), c, r.PathValue("contest"), body.Login, body.Organiser)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, nu)
	return nil
}

// adminUserPage adds a user from the organiser page and shows its invite once.
func (s *Server) adminUserPage(w http.ResponseWriter, r *http.Request, c caller) error {
	nu, err := s.addUser(r.Context(), c, r.PathValue("contest"), strings.TrimSpace(r.PostFormValue("login")), r.PostFormValue("organiser") != "")
	if err != nil {
		return err
	}
	// Redirected, not rendered: a reload would add the person again.
	s.back(w, r, c.Session.CSRF, "/c/"+r.PathValue("contest")+"/admin", "Added "+nu.Login+". Their invite link (shown once): "+nu.Invite)
	return nil
}

// adminSettingsPage changes the contest's settings from the organiser page.
func (s *Server) adminSettingsPage(w http.ResponseWriter, r *http.Request, c caller) error {
	deadline := strings.TrimSpace(r.PostFormValue("deadline"))
	peers, publish, ladder := r.PostFormValue("peer_matches") != "", r.PostFormValue("publish_house") != "", r.PostFormValue("ladder") != ""
	set := settings{Deadline: &deadline, PeerMatches: &peers, PublishHouse: &publish, Ladder: &ladder}
	for _, f := range []struct {
		name, what string
		to         **int
	}{{"test_quota", "test matches an hour", &set.TestQuota}, {"upload_quota", "uploads an hour", &set.UploadQuota},
		{"in_flight", "ladder matches at once", &set.InFlight}, {"max_rate", "ladder matches an hour at most", &set.MaxRate},
		{"disable_faults", "faults that take a version off", &set.DisableFaults}, {"disable_window", "ladder matches the faults are counted in", &set.DisableWindow},
		{"min_rate", "ladder matches an hour guaranteed", &set.MinRate}} {
		v := strings.TrimSpace(r.PostFormValue(f.name))
		if v == "" {
			continue // the form did not send it: unchanged
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return api.Errorf(api.CodeBadRequest, "%s: want a whole number, not %q", f.what, v)
		}
		*f.to = &n
	}
	if _, err := s.changeSettings(r.Context(), c, r.PathValue("contest"), set); err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+r.PathValue("contest")+"/admin", "The settings are saved.")
	return nil
}

// addHouse adds a house bot to the contest from an upload (its name field names it).
func (s *Server) addHouse(ctx context.Context, c caller, cname string, up upload.Upload) (_ store.Contest, err error) {
	ct, err := s.organiser(ctx, c, cname)
	if err != nil {
		return ct, err
	}
	if err := store.ValidName("house bot", up.Name); err != nil {
		return ct, err
	}
	if _, dup := ct.HouseBot(up.Name); dup {
		return ct, api.Errorf(api.CodeExists, "the contest has a house bot %q already", up.Name)
	}
	lang, err := s.langOf(up)
	if err != nil {
		return ct, err
	}
	g, ok := s.c.Games(ct.Game)
	if !ok {
		return ct, errNotFound
	}
	key := contest.HouseKey(ct.Name, up.Name)
	if err := s.engine.PutSources(ctx, key, job.NewPlayer(up.Name, lang, game.WithLibrary(g, lang, up.Files)).Files); err != nil {
		return ct, err
	}
	defer func() {
		if err == nil {
			s.record(ctx, cname, c, "added house bot %s (%s)", up.Name, lang)
		}
	}()
	return s.c.Store.UpdateContest(ctx, cname, func(x *store.Contest) error {
		if x.ReadOnly() {
			return x.ClosedError()
		}
		if _, dup := x.HouseBot(up.Name); dup {
			return api.Errorf(api.CodeExists, "the contest has a house bot %q already", up.Name)
		}
		x.House = append(x.House, store.House{Name: up.Name, Lang: lang, Source: key})
		return nil
	})
}

func (s *Server) apiAddHouse(w http.ResponseWriter, r *http.Request, c caller) error {
	up, err := s.readUpload(w, r, c)
	if err != nil {
		return err
	}
	ct, err := s.addHouse(r.Context(), c, r.PathValue("contest"), up)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, s.contestJSON(ct))
	return nil
}

func (s *Server) adminHousePage(w http.ResponseWriter, r *http.Request, c caller) error {
	up, err := s.readUpload(w, r, c)
	if err != nil {
		return err
	}
	if _, err := s.addHouse(r.Context(), c, r.PathValue("contest"), up); err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+r.PathValue("contest")+"/admin", "House bot "+up.Name+" added.")
	return nil
}

// houseDownload is a house bot's sources as a tar.gz of house/NAME/, as the reproduce command
// names it: for organisers, and for contestants when the contest publishes its house bots.
func (s *Server) houseDownload(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, err := s.inContest(r.Context(), c, r.PathValue("contest"))
	if err != nil {
		return err
	}
	if !ct.PublishHouse && !c.Organiser {
		return api.Errorf(api.CodeForbidden, "the organisers have not published the house bots")
	}
	name, _ := strings.CutSuffix(r.PathValue("name"), ".tar.gz")
	h, ok := ct.HouseBot(name)
	if !ok {
		return errNotFound
	}
	files, err := s.engine.Sources(r.Context(), h.Source)
	if err != nil {
		return err
	}
	return writeTarGz(w, h.Name+".tar.gz", "house/"+h.Name+"/", files)
}

// contestForm is a new contest as an organiser asks for it (API and page).
type contestForm struct {
	Name        string            `json:"name"`
	Game        string            `json:"game"`
	Options     map[string]string `json:"options"`
	Langs       []string          `json:"langs"`
	Deadline    string            `json:"deadline"`
	TestQuota   *int              `json:"test_quota"`
	PeerMatches bool              `json:"peer_matches"`
}

// newContest makes a contest for an organiser of another, who organises the new one too
// (with the same password); its house bots are added after, from its own organiser page.
func (s *Server) newContest(ctx context.Context, c caller, from string, f contestForm) (store.Contest, error) {
	if _, err := s.organiser(ctx, c, from); err != nil {
		return store.Contest{}, err
	}
	ct := store.Contest{Name: f.Name, Game: f.Game, Options: f.Options, Langs: f.Langs, TestQuota: store.DefaultTestQuota, PeerMatches: f.PeerMatches}
	if f.TestQuota != nil {
		ct.TestQuota = *f.TestQuota
	}
	d, err := parseDeadline(f.Deadline)
	if err != nil {
		return ct, err
	}
	ct.Deadline = d
	ct, err = s.engine.NewContest(ctx, s.c.Langs, ct, nil)
	if err != nil {
		return ct, err
	}
	s.record(ctx, ct.Name, c, "created the contest (%s), from contest %s", ct.Game, from)
	me, err := s.c.Store.User(ctx, c.Contest, c.Login)
	if err != nil {
		return ct, err
	}
	return ct, s.c.Store.AddOrganiser(ctx, ct.Name, me)
}

func (s *Server) apiNewContest(w http.ResponseWriter, r *http.Request, c caller) error {
	var f contestForm
	if err := decodeBody(r, &f, `{"name", "game", "options", "langs", "deadline", "test_quota", "peer_matches"}`); err != nil {
		return err
	}
	ct, err := s.newContest(r.Context(), c, c.Contest, f)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, s.contestJSON(ct))
	return nil
}

func (s *Server) adminContestPage(w http.ResponseWriter, r *http.Request, c caller) error {
	f := contestForm{Name: strings.TrimSpace(r.PostFormValue("name")), Game: strings.TrimSpace(r.PostFormValue("game")),
		Deadline: strings.TrimSpace(r.PostFormValue("deadline")), PeerMatches: r.PostFormValue("peer_matches") != "", Options: map[string]string{}}
	for _, kv := range strings.Fields(r.PostFormValue("options")) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return api.Errorf(api.CodeBadRequest, "option %q: want key=value", kv)
		}
		f.Options[k] = v
	}
	if l := strings.TrimSpace(r.PostFormValue("langs")); l != "" {
		f.Langs = strings.Split(strings.ReplaceAll(l, " ", ""), ",")
	}
	if q := strings.TrimSpace(r.PostFormValue("test_quota")); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil {
			return api.Errorf(api.CodeBadRequest, "test matches an hour: want a whole number")
		}
		f.TestQuota = &n
	}
	ct, err := s.newContest(r.Context(), c, r.PathValue("contest"), f)
	if err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+r.PathValue("contest")+"/admin", "Contest "+ct.Name+" is made, and you organise it: log in at /c/"+ct.Name+"/login with the same password.")
	return nil
}
