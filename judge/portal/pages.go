package portal

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"embed"
	"errors"
	"html/template"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/portal/ladder"
	"github.com/botjudge/judge/judge/portal/store"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/tournament"
	"github.com/botjudge/judge/judge/view"
)

//go:embed web
var web embed.FS

var pages = template.Must(template.New("").Funcs(template.FuncMap{"rows": rows}).ParseFS(web, "web/*.html"))

// rows hands a list's table (match-rows, version-rows) its items, its data-testid and
// whether it is everyone's (with whose each item is).
func rows(id string, all bool, items any) map[string]any {
	return map[string]any{"ID": id, "All": all, "Matches": items, "Subs": items}
}

// pageCSP is the portal pages' policy: nothing but the portal's own stylesheet; no script
// at all (the pages need none), no frames, forms only to the portal.
const pageCSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// pageData is what every page's layout reads.
type pageData struct {
	Title   string
	Contest string
	Me      store.User
	CSRF    string
	Flash   string
	Message string
}

// render writes page name with data (which embeds pageData).
func (s *Server) render(w http.ResponseWriter, status int, name string, data any) {
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, data); err != nil {
		s.c.Log.Error("portal: rendering a page", "page", name, "err", err)
		http.Error(w, "the portal failed to render the page", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// page wraps a page handler: without a session it sends the browser to the contest's login
// page; a change without the session's CSRF token is refused; an error is a page saying
// what went wrong, with its status.
func (s *Server) page(h func(w http.ResponseWriter, r *http.Request, c caller) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := s.who(r)
		if errors.Is(err, errUnauthorized) || (err == nil && c.Session == nil) {
			contest := r.PathValue("contest")
			if store.ValidName("contest", contest) != nil {
				s.errorPage(w, r, caller{}, errNotFound)
				return
			}
			http.Redirect(w, r, "/c/"+contest+"/login?next="+url.QueryEscape(r.URL.Path), http.StatusSeeOther)
			return
		}
		if err == nil {
			err = checkCSRF(r, c)
		}
		if err == nil {
			err = h(w, r, c)
		}
		if err != nil {
			s.errorPage(w, r, c, err)
		}
	})
}

func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, c caller, err error) {
	e := s.asAPIError(err)
	if e.Retry > 0 {
		w.Header().Set("Retry-After", retryAfter(e.Retry))
	}
	s.render(w, e.Status, "error.html", s.base(r, c, http.StatusText(e.Status), e.Message))
}

func (s *Server) base(r *http.Request, c caller, title, msg string) pageData {
	d := pageData{Title: title, Contest: r.PathValue("contest"), Me: c.User, Message: msg, Flash: r.URL.Query().Get("done")}
	if c.Session != nil {
		d.CSRF = c.Session.CSRF
	}
	if d.Contest == "" {
		d.Contest = c.Contest
	}
	return d
}

// back sends the browser to path, with a note for the next page.
func back(w http.ResponseWriter, r *http.Request, path, note string) {
	if note != "" {
		path += "?done=" + url.QueryEscape(note)
	}
	http.Redirect(w, r, path, http.StatusSeeOther)
}

func (s *Server) loginPage(w http.ResponseWriter, r *http.Request) {
	contest := r.PathValue("contest")
	if _, err := s.c.Store.Contest(r.Context(), contest); err != nil {
		s.errorPage(w, r, caller{}, err)
		return
	}
	d := struct {
		pageData
		Login string
	}{pageData: s.base(r, caller{}, "Log in", "")}
	if r.Method == http.MethodGet {
		s.render(w, http.StatusOK, "login.html", d)
		return
	}
	d.Login = r.FormValue("login")
	if ok, wait := s.limiter.allow("addr:"+s.limiter.clientAddr(r), "login:"+contest+"/"+d.Login); !ok {
		w.Header().Set("Retry-After", retryAfter(wait))
		d.Message = "Too many attempts: wait a minute and try again."
		s.render(w, http.StatusTooManyRequests, "login.html", d)
		return
	}
	u, err := s.c.Store.CheckPassword(r.Context(), contest, d.Login, r.FormValue("password"))
	s.c.Log.Info("portal: login", "contest", contest, "login", d.Login, "ok", err == nil, "addr", s.limiter.clientAddr(r))
	if errors.Is(err, store.ErrBadLogin) {
		d.Message = "Wrong login or password."
		s.render(w, http.StatusUnauthorized, "login.html", d)
		return
	}
	if err == nil {
		err = s.startSession(w, r, u)
	}
	if err != nil {
		s.errorPage(w, r, caller{}, err)
		return
	}
	next := r.URL.Query().Get("next")
	if !strings.HasPrefix(next, "/c/"+contest+"/") { // only within the portal: no open redirect
		next = "/c/" + contest + "/"
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (s *Server) startSession(w http.ResponseWriter, r *http.Request, u store.User) error {
	id, _, err := s.c.Store.NewSession(r.Context(), u)
	if err != nil {
		return err
	}
	s.setSession(w, r, id)
	return nil
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request, c caller) error {
	if err := s.c.Store.EndSession(r.Context(), c.id); err != nil {
		return err
	}
	s.setSession(w, r, "")
	back(w, r, "/c/"+c.Contest+"/login", "")
	return nil
}

func (s *Server) invitePage(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	inv, err := s.c.Store.Invitation(r.Context(), code)
	if err != nil {
		s.errorPage(w, r, caller{}, errorf(http.StatusNotFound, "not_found", "this invite is unknown, used or expired; ask the organiser for another"))
		return
	}
	d := struct {
		pageData
		Login, Code string
	}{pageData: s.base(r, caller{}, "Welcome", ""), Login: inv.Login, Code: code}
	d.Contest = inv.Contest
	if r.Method == http.MethodGet {
		s.render(w, http.StatusOK, "invite.html", d)
		return
	}
	if r.FormValue("password") != r.FormValue("again") {
		d.Message = "The two passwords differ."
		s.render(w, http.StatusBadRequest, "invite.html", d)
		return
	}
	u, err := s.c.Store.AcceptInvite(r.Context(), code, r.FormValue("password"))
	if errors.Is(err, store.ErrInvalid) {
		d.Message = trimSentinel(err, store.ErrInvalid)
		s.render(w, http.StatusBadRequest, "invite.html", d)
		return
	}
	if err == nil {
		err = s.startSession(w, r, u)
	}
	if err != nil {
		s.errorPage(w, r, caller{}, err)
		return
	}
	back(w, r, "/c/"+u.Contest+"/", "Your password is set.")
}

func (s *Server) home(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, err := s.inContest(r.Context(), c, r.PathValue("contest"))
	if err != nil {
		return err
	}
	// One page of each: the rest is on the versions' and matches' own pages. Only test
	// matches here, which the contestant asked for; the others are a kind link away.
	subs, err := s.c.Store.SubmissionPage(r.Context(), ct.Name, c.Login, store.List{Limit: homeLimit})
	if err != nil {
		return err
	}
	markActive(subs.Items, c)
	tests, err := s.c.Store.MatchPage(r.Context(), ct.Name, c.Login, store.List{Kind: store.KindTest, Limit: homeLimit})
	if err != nil {
		return err
	}
	var peers []string
	if ct.PeerMatches {
		users, err := s.c.Store.Users(r.Context(), ct.Name)
		if err != nil {
			return err
		}
		for _, u := range users {
			if u.Active != "" && !u.Organiser && u.Login != c.Login {
				peers = append(peers, u.Login)
			}
		}
	}
	langs := s.c.Langs
	if len(ct.Langs) > 0 {
		langs = ct.Langs
	}
	s.render(w, http.StatusOK, "home.html", struct {
		pageData
		C        store.Contest
		Subs     []store.Submission
		Matches  []store.Match
		Versions listing
		Tests    listing
		Peers    []string
		Langs    []string
		Closed   bool
	}{s.base(r, c, ct.Name, ""), ct, subs.Items, tests.Items,
		newListing("/c/"+ct.Name+"/versions", store.List{}, subs.Older, store.Cursor{}, false),
		newListing("/c/"+ct.Name+"/matches", store.List{Kind: store.KindTest}, tests.Older, store.Cursor{}, true),
		peers, langs, ct.Closed(time.Now())})
	return nil
}

func (s *Server) submitPage(w http.ResponseWriter, r *http.Request, c caller) error {
	up, err := s.readUpload(w, r, c)
	if err != nil {
		return err
	}
	sub, err := s.submit(r.Context(), c, r.PathValue("contest"), up)
	if err != nil {
		return err
	}
	back(w, r, "/c/"+sub.Contest+"/s/"+sub.ID, "")
	return nil
}

func (s *Server) submissionPage(w http.ResponseWriter, r *http.Request, c caller) error {
	sub, err := s.submission(r.Context(), c, r.PathValue("id"))
	if err != nil || sub.Contest != r.PathValue("contest") {
		return cmpErr(err, errNotFound)
	}
	ct, st, err := s.contestLadder(r, c)
	if err != nil {
		return err
	}
	mine := sub.Login == c.Login
	var active *ladder.Player // the owner's active version, beside a version on trial
	if mine && c.Active != sub.ID {
		active = st.Players[c.Active]
	}
	var place *ladder.Place
	if pl, ok := st.PlaceOf(sub.ID, ct.LadderSettings, time.Now()); ok && ct.Ladder {
		place = &pl
	}
	busy, err := s.busy(r.Context(), ct.Name)
	if err != nil {
		return err
	}
	s.render(w, http.StatusOK, "submission.html", struct {
		pageData
		S        store.Submission
		Mine     bool
		WhyNot   string
		L        *ladder.Player
		Active   *ladder.Player
		CanStage bool
		Place    *ladder.Place
		Busy     string
	}{s.base(r, c, "Version "+itoa(sub.Version), ""), sub, mine, whyNot(sub), st.Players[sub.ID], active,
		mine && sub.Status == store.Ready && ct.Ladder && !ct.Closed(time.Now()) && c.Active != "" && c.Staged != sub.ID,
		place, busy})
	return nil
}

// whyNot says why a version cannot be made active (yet).
func whyNot(sub store.Submission) string {
	switch sub.Status {
	case store.Queued, store.Compiling:
		return "It cannot be made active yet: it is being compiled."
	case store.CompileError:
		return "It cannot be made active: it does not compile (the log is below)."
	case store.Validating:
		return "It cannot be made active yet: its validation match is being played."
	case store.Rejected:
		if sub.Validation != nil && sub.Validation.Fault != nil {
			return "It cannot be made active: it failed its validation match (" + string(sub.Validation.Fault.Kind) + "); the match shows what happened."
		}
		return "It cannot be made active: " + sub.Error
	}
	return ""
}

func (s *Server) activatePage(w http.ResponseWriter, r *http.Request, c caller) error {
	sub, err := s.activate(r.Context(), c, r.PathValue("id"))
	if err != nil {
		return err
	}
	s.ladders.poke()
	back(w, r, "/c/"+sub.Contest+"/s/"+sub.ID, "Version "+itoa(sub.Version)+" is your active version.")
	return nil
}

func (s *Server) stagePage(w http.ResponseWriter, r *http.Request, c caller) error {
	sub, err := s.stage(r.Context(), c, r.PathValue("id"))
	if err != nil {
		return err
	}
	back(w, r, "/c/"+sub.Contest+"/s/"+sub.ID, "Version "+itoa(sub.Version)+" is on trial on the ladder: unrated matches against the ladder and your active version.")
	return nil
}

func (s *Server) askMatchPage(w http.ResponseWriter, r *http.Request, c caller) error {
	if err := r.ParseForm(); err != nil {
		return errorf(http.StatusBadRequest, "bad_request", "%v", err)
	}
	m, err := s.askMatch(r.Context(), c, r.PathValue("contest"), r.PostForm["opponent"])
	if err != nil {
		return err
	}
	back(w, r, "/c/"+m.Contest+"/m/"+m.ID, "")
	return nil
}

func (s *Server) matchPage(w http.ResponseWriter, r *http.Request, c caller) error {
	m, err := s.match(r.Context(), c, r.PathValue("id"))
	if err != nil || m.Contest != r.PathValue("contest") {
		return cmpErr(err, errNotFound)
	}
	ct, err := s.c.Store.Contest(r.Context(), m.Contest)
	if err != nil {
		return err
	}
	var res *result.Result
	if m.Result != nil {
		pr := privateResult(*m.Result, func(i int) bool { return mine(c, m, i) })
		res = &pr
	}
	replay, gone := m.Replay != "", ""
	if key, ok := strings.CutPrefix(m.Replay, queue.BucketReplays+"/"); ok {
		// A store that cannot be asked leaves the links: the viewer's page then says why.
		if has, err := s.c.Queue.HasObject(r.Context(), queue.BucketReplays, key); err == nil && !has {
			msg := s.replayGone(r.Context(), m).Message
			replay, gone = false, strings.ToUpper(msg[:1])+msg[1:]+"."
		}
	}
	s.render(w, http.StatusOK, "match.html", struct {
		pageData
		M          store.Match
		R          *result.Result
		Replay     bool
		ReplayGone string // why there is no replay to watch
		Reproduce  string
		Version    string
		Houses     []string // the house bots of the match the caller may download
	}{s.base(r, c, "Match "+m.ID, ""), m, res, replay, gone, reproduce(ct, m), s.c.Version, houses(c, ct, m)})
	return nil
}

// houses are the house bots of m the caller may download.
func houses(c caller, ct store.Contest, m store.Match) []string {
	if !ct.PublishHouse && !c.Organiser {
		return nil
	}
	var out []string
	for _, seat := range m.Seats {
		if seat.House != "" && !slices.Contains(out, seat.House) {
			out = append(out, seat.House)
		}
	}
	return out
}

// reproduce is the judge play command that plays the same match: the same game, seed and
// options, the contestant's sources as a directory, each house bot as the organiser
// publishes it (house/NAME).
func reproduce(c store.Contest, m store.Match) string {
	args := []string{"judge", "play", "--game", c.Game, "--seed", utoa(m.Seed)}
	args = append(args, optionArgs(c.Options)...)
	for _, seat := range m.Seats {
		if seat.House != "" {
			args = append(args, "house/"+seat.House)
		} else {
			args = append(args, seat.Login+"/")
		}
	}
	for i, a := range args {
		if strings.ContainsAny(a, " \t\"'$`\\") {
			args[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(args, " ")
}

func (s *Server) viewPage(w http.ResponseWriter, r *http.Request, c caller) error {
	_, data, err := s.replay(w, r, c)
	if err != nil {
		return err
	}
	f, err := view.Read(bytes.NewReader(data), s.c.Games)
	if err != nil {
		return err
	}
	// The page carries its own policy (its scripts by hash); the pages' would forbid them.
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	return view.WriteHTML(w, f)
}

func (s *Server) replayDownload(w http.ResponseWriter, r *http.Request, c caller) error {
	return s.apiReplay(w, r, c)
}

func (s *Server) accountPage(w http.ResponseWriter, r *http.Request, c caller) error {
	d := struct {
		pageData
		Token string
	}{pageData: s.base(r, c, c.Login, "")}
	switch r.URL.Path {
	case "/c/" + c.Contest + "/account/password":
		_, err := s.c.Store.SetPassword(r.Context(), c.Contest, c.Login, r.FormValue("old"), r.FormValue("password"))
		if errors.Is(err, store.ErrBadLogin) || errors.Is(err, store.ErrInvalid) {
			d.Message = map[bool]string{true: "The current password is wrong.", false: "A password has 10 to 72 characters."}[errors.Is(err, store.ErrBadLogin)]
			s.render(w, http.StatusBadRequest, "account.html", d)
			return nil
		}
		if err != nil {
			return err
		}
		// Every session ended with the change, this one too: a new one for this browser.
		u, err := s.c.Store.User(r.Context(), c.Contest, c.Login)
		if err == nil {
			err = s.startSession(w, r, u)
		}
		if err != nil {
			return err
		}
		back(w, r, "/c/"+c.Contest+"/account", "The password is changed; every other session has ended.")
		return nil
	case "/c/" + c.Contest + "/account/tokens":
		name := strings.TrimSpace(r.FormValue("name"))
		if len(name) > 40 {
			name = name[:40]
		}
		tok, err := s.c.Store.NewToken(r.Context(), c.Contest, c.Login, name)
		if err != nil {
			return err
		}
		d.Token = tok
	}
	s.render(w, http.StatusOK, "account.html", d)
	return nil
}

func (s *Server) adminPage(w http.ResponseWriter, r *http.Request, c caller) error {
	return s.renderAdmin(w, r, c, "")
}

// renderAdmin renders the organiser page, with a note at its top.
func (s *Server) renderAdmin(w http.ResponseWriter, r *http.Request, c caller, note string) error {
	ct, err := s.organiser(r.Context(), c, r.PathValue("contest"))
	if err != nil {
		return err
	}
	users, err := s.c.Store.Users(r.Context(), ct.Name)
	if err != nil {
		return err
	}
	// The newest of each list; the rest on their own pages.
	subs, err := s.c.Store.SubmissionPage(r.Context(), ct.Name, "*", store.List{Limit: homeLimit})
	if err != nil {
		return err
	}
	ms, err := s.c.Store.MatchPage(r.Context(), ct.Name, "*", store.List{Limit: homeLimit})
	if err != nil {
		return err
	}
	s.render(w, http.StatusOK, "admin.html", struct {
		pageData
		C        store.Contest
		Users    []store.User
		Subs     []store.Submission
		Matches  []store.Match
		Versions listing
		All      listing
	}{s.base(r, c, ct.Name+" · organiser", note), ct, users, subs.Items, ms.Items,
		newListing("/c/"+ct.Name+"/admin/versions", store.List{}, subs.Older, store.Cursor{}, false),
		newListing("/c/"+ct.Name+"/admin/matches", store.List{}, ms.Older, store.Cursor{}, true)})
	return nil
}

// exportTournament writes the contestants' active versions as a tar.gz of one directory
// that `judge tournament DIR` runs as it is: DIR/tournament.yaml (the contest's game and
// options, an entrant per contestant) and DIR/LOGIN/, each version's files.
func (s *Server) exportTournament(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, err := s.organiser(r.Context(), c, r.PathValue("contest"))
	if err != nil {
		return err
	}
	users, err := s.c.Store.Users(r.Context(), ct.Name)
	if err != nil {
		return err
	}
	spec := tournament.Spec{Name: ct.Name, Game: ct.Game, Options: ct.Options}
	sources := map[string]string{}
	for _, u := range users {
		if u.Active == "" || u.Organiser {
			continue
		}
		sub, err := s.c.Store.Submission(r.Context(), u.Active)
		if err != nil {
			return err
		}
		sources[u.Login] = sub.Source
		spec.Entrants = append(spec.Entrants, tournament.EntrantSpec{Name: u.Login, Path: u.Login})
	}
	if len(spec.Entrants) == 0 {
		return errorf(http.StatusConflict, "no_entrants", "no contestant has an active version yet")
	}
	return s.writeTournament(w, r, ct.Name, spec, sources)
}

// tarGz is files, each under dir, as a tar.gz.
func tarGz(dir string, files map[string]string) ([]byte, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		data := files[name]
		if err := tw.WriteHeader(&tar.Header{Name: dir + name, Mode: 0o644, Size: int64(len(data)), ModTime: time.Now()}); err != nil {
			return nil, err
		}
		if _, err := io.WriteString(tw, data); err != nil {
			return nil, err
		}
	}
	if err := errors.Join(tw.Close(), gz.Close()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (s *Server) static() http.Handler {
	sub, _ := fs.Sub(web, "web")
	fsrv := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, ".css") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "max-age=3600")
		fsrv.ServeHTTP(w, r)
	})
}
