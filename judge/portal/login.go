package portal

import (
	"errors"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/store"
)

// safeNext is where a login to contest goes on to: next when it is a page of that contest,
// else the contest's home. Never another site: no scheme, no host, nothing a browser could
// read as one ("//host", "/\host"), no control characters, no way out of the contest's
// pages by "..".
func safeNext(contest, next string) string {
	home := "/c/" + contest + "/"
	if !strings.HasPrefix(next, home) || strings.Contains(next, "//") || strings.ContainsRune(next, '\\') ||
		strings.ContainsFunc(next, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return home
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" ||
		!strings.HasPrefix(path.Clean(u.Path)+"/", home) {
		return home
	}
	return next
}

func (s webPages) loginPage(w http.ResponseWriter, r *http.Request) {
	contest := r.PathValue("contest")
	if _, err := s.c.Store.Contest(r.Context(), contest); err != nil {
		s.errorPage(w, r, caller{}, err)
		return
	}
	d := struct {
		pageData
		Login, Next string
	}{pageData: s.base(r, caller{}, "Log in", ""), Next: safeNext(contest, r.FormValue("next"))}
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
		_, err = s.startSession(w, r, u)
	}
	if err != nil {
		s.errorPage(w, r, caller{}, err)
		return
	}
	http.Redirect(w, r, d.Next, http.StatusSeeOther)
}

func (s *Server) startSession(w http.ResponseWriter, r *http.Request, u store.User) (store.Session, error) {
	id, sess, err := s.engine.NewSession(r.Context(), u)
	if err != nil {
		return sess, err
	}
	s.setSession(w, r, id)
	return sess, nil
}

func (s webPages) logout(w http.ResponseWriter, r *http.Request, c caller) error {
	if err := s.engine.EndSession(r.Context(), c.id); err != nil {
		return err
	}
	s.setSession(w, r, "")
	s.back(w, r, "", "/c/"+c.Contest+"/login", "")
	return nil
}

func (s webPages) invitePage(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	inv, err := s.c.Store.Invitation(r.Context(), code)
	if err != nil {
		s.errorPage(w, r, caller{}, api.Errorf(api.CodeNotFound, "this invite is unknown, used or expired; ask the organiser for another"))
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
	u, err := s.engine.AcceptInvite(r.Context(), code, r.FormValue("password"))
	if errors.Is(err, store.ErrInvalid) {
		d.Message = trimSentinel(err, store.ErrInvalid)
		s.render(w, http.StatusBadRequest, "invite.html", d)
		return
	}
	var sess store.Session
	if err == nil {
		sess, err = s.startSession(w, r, u)
	}
	if err != nil {
		s.errorPage(w, r, caller{}, err)
		return
	}
	s.back(w, r, sess.CSRF, "/c/"+u.Contest+"/", "Your password is set.")
}
