package portal

import (
	"context"
	"net/http"
	"strings"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/store"
)

// An organiser's hand on people and the contest itself, from the organiser page and the API,
// as judge portal user reset|remove and contest close do from the command line.

// notSelf refuses an organiser's reset or removal of their own login: the password is
// changed on the account page, and another organiser removes an organiser.
func notSelf(c caller, login, what string) error {
	if login == c.Login {
		return api.Errorf(api.CodeSelf, "you do not %s yourself: change your password on your account page, or ask another organiser", what)
	}
	return nil
}

// resetUser ends a person's sessions and tokens and forgets the password: a new invite.
func (s *Server) resetUser(ctx context.Context, c caller, contest, login string) (string, error) {
	if _, err := s.organiser(ctx, c, contest); err != nil {
		return "", err
	}
	if err := notSelf(c, login, "reset"); err != nil {
		return "", err
	}
	_, code, err := s.c.Store.ResetUser(ctx, contest, login)
	if err != nil {
		return "", err
	}
	s.record(ctx, contest, c, "reset %s: every session and token ended, a new invite", login)
	return s.c.InviteURL(code), nil
}

// removeUser takes a person out of the contest (store.RemoveUser).
func (s *Server) removeUser(ctx context.Context, c caller, contest, login string) error {
	if _, err := s.organiser(ctx, c, contest); err != nil {
		return err
	}
	if err := notSelf(c, login, "remove"); err != nil {
		return err
	}
	if _, err := s.c.Store.RemoveUser(ctx, contest, login); err != nil {
		return err
	}
	s.record(ctx, contest, c, "removed %s", login)
	return nil
}

// closeContest makes the contest read-only (store.CloseContest).
func (s *Server) closeContest(ctx context.Context, c caller, contest string) (store.Contest, error) {
	ct, err := s.organiser(ctx, c, contest)
	if err != nil {
		return ct, err
	}
	if ct.ReadOnly() {
		return ct, nil
	}
	if ct, err = s.c.Store.CloseContest(ctx, contest); err == nil {
		s.record(ctx, contest, c, "closed the contest")
	}
	return ct, err
}

func (s *Server) apiResetUser(w http.ResponseWriter, r *http.Request, c caller) error {
	invite, err := s.resetUser(r.Context(), c, r.PathValue("contest"), r.PathValue("login"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"login": r.PathValue("login"), "invite": invite})
	return nil
}

func (s *Server) apiRemoveUser(w http.ResponseWriter, r *http.Request, c caller) error {
	if err := s.removeUser(r.Context(), c, r.PathValue("contest"), r.PathValue("login")); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"login": r.PathValue("login"), "removed": true})
	return nil
}

func (s *Server) apiCloseContest(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, err := s.closeContest(r.Context(), c, r.PathValue("contest"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.contestJSON(ct))
	return nil
}

func (s *Server) adminResetPage(w http.ResponseWriter, r *http.Request, c caller) error {
	login := r.PathValue("login")
	invite, err := s.resetUser(r.Context(), c, r.PathValue("contest"), login)
	if err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+r.PathValue("contest")+"/admin", "Reset "+login+": every session and API token ended. Their new invite link (shown once): "+invite)
	return nil
}

func (s *Server) adminRemovePage(w http.ResponseWriter, r *http.Request, c caller) error {
	login := r.PathValue("login")
	if err := s.removeUser(r.Context(), c, r.PathValue("contest"), login); err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+r.PathValue("contest")+"/admin", "Removed "+login+": no login, session or token more; their versions and matches stay.")
	return nil
}

// adminClosePage closes the contest once the organiser has typed its name: it cannot be undone.
func (s *Server) adminClosePage(w http.ResponseWriter, r *http.Request, c caller) error {
	contest := r.PathValue("contest")
	if strings.TrimSpace(r.PostFormValue("confirm")) != contest {
		return api.Errorf(api.CodeBadRequest, "type the contest's name, %s, to close it: it cannot be opened again", contest)
	}
	if _, err := s.closeContest(r.Context(), c, contest); err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+contest+"/admin", "The contest is closed: read-only from now on, still viewable.")
	return nil
}
