package portal

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
)

// organising serves what organisers change: people, house bots, settings, contests.
type organising struct{ *Server }

// What organisers change from their pages and the API: people and the contest's settings.

// newUser serves what adding a user answers, once: its token and invite link.
type newUser struct {
	Login  string `json:"login"`
	Token  string `json:"token"`
	Invite string `json:"invite"`
}

func (s organising) addUser(ctx context.Context, c caller, contest, login string, organiser bool) (newUser, error) {
	nu, err := s.engine.AddUser(ctx, c.actor(), contest, login, organiser)
	if err != nil {
		return newUser{}, err
	}
	return newUser{Login: nu.User.Login, Token: nu.Token, Invite: s.c.InviteURL(nu.Invite)}, nil
}

// apiActions lists the contest's organisers' actions, newest first, for its organisers.
func (s organising) apiActions(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, err := s.engine.Organised(r.Context(), c.actor(), r.PathValue("contest"))
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

// contestJSON is a contest as a contestant sees it: no sources.
func (s organising) contestJSON(ct store.Contest) api.Contest {
	out := api.Contest{Name: ct.Name, Game: ct.Game, Options: ct.Options, Langs: ct.Langs, House: []string{},
		TestQuota: ct.TestQuota, UploadQuota: ct.UploadsAllowed(), PeerMatches: ct.PeerMatches, PublishHouse: ct.PublishHouse,
		Ladder: ct.Ladder, InFlight: ct.LadderSettings.InFlight, DisableFaults: ct.LadderSettings.DisableFaults,
		DisableWindow: ct.LadderSettings.DisableWindow, MinRate: ct.LadderSettings.MinRate, MaxRate: ct.LadderSettings.Ceiling(),
		TestRounds: append([]time.Time{}, ct.TestRounds...), Players: s.seats(ct), AutoPromote: ct.LadderSettings.AutoPromote}
	t := ct.LadderSettings.Test()
	out.Trial = api.TrialTest{Elo0: t.Elo0, Elo1: t.Elo1, Alpha: t.Alpha, Beta: t.Beta}
	for _, h := range ct.House {
		out.House = append(out.House, h.Name)
	}
	out.Leagues = []api.League{}
	for _, l := range ct.LadderSettings.Leagues {
		out.Leagues = append(out.Leagues, api.League{Name: l.Name, Boss: l.Boss})
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

func (s organising) apiContest(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, err := s.engine.Contest(r.Context(), c.actor(), r.PathValue("contest"))
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

func (s organising) apiSettings(w http.ResponseWriter, r *http.Request, c caller) error {
	var set contest.Settings
	if err := decodeBody(r, &set, `{"deadline": RFC 3339 or "", "test_quota": N, "upload_quota": N, "peer_matches": true|false, "publish_house": true|false, "ladder": true|false, "in_flight": N, "disable_faults": K, "disable_window": N, "min_rate": N, "max_rate": N, "test_rounds": [RFC 3339, ...], "trial": {"elo0": E, "elo1": E, "alpha": P, "beta": P}, "auto_promote": true|false, "leagues": [{"name": "...", "boss": "HOUSEBOT"}, ...]}`); err != nil {
		return err
	}
	ct, err := s.engine.ChangeSettings(r.Context(), c.actor(), r.PathValue("contest"), set)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.contestJSON(ct))
	return nil
}

func (s organising) apiAddUser(w http.ResponseWriter, r *http.Request, c caller) error {
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
func (s organising) adminUserPage(w http.ResponseWriter, r *http.Request, c caller) error {
	nu, err := s.addUser(r.Context(), c, r.PathValue("contest"), strings.TrimSpace(r.PostFormValue("login")), r.PostFormValue("organiser") != "")
	if err != nil {
		return err
	}
	// Redirected, not rendered: a reload would add the person again.
	s.back(w, r, c.Session.CSRF, "/c/"+r.PathValue("contest")+"/admin", "Added "+nu.Login+". Their invite link (shown once): "+nu.Invite)
	return nil
}

// adminSettingsPage changes the contest's settings from the organiser page.
func (s organising) adminSettingsPage(w http.ResponseWriter, r *http.Request, c caller) error {
	deadline := strings.TrimSpace(r.PostFormValue("deadline"))
	peers, publish, on := r.PostFormValue("peer_matches") != "", r.PostFormValue("publish_house") != "", r.PostFormValue("ladder") != ""
	set := contest.Settings{Deadline: &deadline, PeerMatches: &peers, PublishHouse: &publish, Ladder: &on}
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
	if _, ok := r.PostForm["trial_elo1"]; ok {
		var t ladder.TrialTest
		for _, f := range []struct {
			name string
			to   *float64
		}{{"trial_elo0", &t.Elo0}, {"trial_elo1", &t.Elo1}, {"trial_alpha", &t.Alpha}, {"trial_beta", &t.Beta}} {
			v := strings.TrimSpace(r.PostFormValue(f.name))
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return api.Errorf(api.CodeBadRequest, "%s: want a number, not %q", strings.TrimPrefix(f.name, "trial_"), v)
			}
			*f.to = x
		}
		promote := r.PostFormValue("auto_promote") != ""
		set.Trial, set.AutoPromote = &t, &promote
	}
	if _, ok := r.PostForm["leagues"]; ok {
		leagues := []ladder.League{}
		for _, line := range strings.FieldsFunc(r.PostFormValue("leagues"), func(r rune) bool { return r == '\n' || r == ',' }) {
			if strings.TrimSpace(line) == "" {
				continue
			}
			l, err := ladder.ParseLeague(line)
			if err != nil {
				return api.Errorf(api.CodeBadRequest, "%v", err)
			}
			leagues = append(leagues, l)
		}
		set.Leagues = &leagues
	}
	if _, err := s.engine.ChangeSettings(r.Context(), c.actor(), r.PathValue("contest"), set); err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+r.PathValue("contest")+"/admin", "The settings are saved.")
	return nil
}

func (s organising) apiAddHouse(w http.ResponseWriter, r *http.Request, c caller) error {
	up, err := s.readUpload(w, r, c)
	if err != nil {
		return err
	}
	ct, err := s.engine.AddHouse(r.Context(), c.actor(), r.PathValue("contest"), up.Name, up.Lang, up.Files)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, s.contestJSON(ct))
	return nil
}

func (s organising) adminHousePage(w http.ResponseWriter, r *http.Request, c caller) error {
	up, err := s.readUpload(w, r, c)
	if err != nil {
		return err
	}
	if _, err := s.engine.AddHouse(r.Context(), c.actor(), r.PathValue("contest"), up.Name, up.Lang, up.Files); err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+r.PathValue("contest")+"/admin", "House bot "+up.Name+" added.")
	return nil
}

// houseDownload is a house bot's sources as a tar.gz of house/NAME/, as the reproduce command
// names it: for organisers, and for contestants when the contest publishes its house bots.
func (s organising) houseDownload(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, err := s.engine.Contest(r.Context(), c.actor(), r.PathValue("contest"))
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
func (s organising) newContest(ctx context.Context, c caller, from string, f contestForm) (store.Contest, error) {
	if from != c.Contest {
		return store.Contest{}, store.ErrNotFound
	}
	ct := store.Contest{Name: f.Name, Game: f.Game, Options: f.Options, Langs: f.Langs, TestQuota: store.DefaultTestQuota, PeerMatches: f.PeerMatches}
	if f.TestQuota != nil {
		ct.TestQuota = *f.TestQuota
	}
	d, err := contest.ParseTime(f.Deadline)
	if err != nil {
		return ct, err
	}
	ct.Deadline = d
	return s.engine.NewContest(ctx, c.actor(), ct, nil)
}

func (s organising) apiNewContest(w http.ResponseWriter, r *http.Request, c caller) error {
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

func (s organising) adminContestPage(w http.ResponseWriter, r *http.Request, c caller) error {
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
