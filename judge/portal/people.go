package portal

import (
	"context"
	"net/http"
	"strings"

	"github.com/botjudge/judge/judge/api"
)

// An organiser's hand on people and the contest itself, from the organiser page and the API,
// as judge portal user reset|remove and contest close do from the command line.

// resetUser ends a person's sessions and tokens and forgets the password: a new invite link.
func (s organising) resetUser(ctx context.Context, c caller, contest, login string) (string, error) {
	_, code, err := s.engine.ResetUser(ctx, c.actor(), contest, login)
	if err != nil {
		return "", err
	}
	return s.c.InviteURL(code), nil
}

func (s organising) apiResetUser(w http.ResponseWriter, r *http.Request, c caller) error {
	invite, err := s.resetUser(r.Context(), c, r.PathValue("contest"), r.PathValue("login"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"login": r.PathValue("login"), "invite": invite})
	return nil
}

func (s organising) apiRemoveUser(w http.ResponseWriter, r *http.Request, c caller) error {
	if _, err := s.engine.RemoveUser(r.Context(), c.actor(), r.PathValue("contest"), r.PathValue("login")); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"login": r.PathValue("login"), "removed": true})
	return nil
}

func (s organising) apiCloseContest(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, err := s.engine.CloseContest(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.contestJSON(ct))
	return nil
}

func (s organising) adminResetPage(w http.ResponseWriter, r *http.Request, c caller) error {
	login := r.PathValue("login")
	invite, err := s.resetUser(r.Context(), c, r.PathValue("contest"), login)
	if err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+r.PathValue("contest")+"/admin", "Reset "+login+": every session and API token ended. Their new invite link (shown once): "+invite)
	return nil
}

func (s organising) adminRemovePage(w http.ResponseWriter, r *http.Request, c caller) error {
	login := r.PathValue("login")
	if _, err := s.engine.RemoveUser(r.Context(), c.actor(), r.PathValue("contest"), login); err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+r.PathValue("contest")+"/admin", "Removed "+login+": no login, session or token more; their versions and matches stay.")
	return nil
}

// adminClosePage closes the contest once the organiser has typed its name: it cannot be undone.
func (s organising) adminClosePage(w http.ResponseWriter, r *http.Request, c caller) error {
	contest := r.PathValue("contest")
	if strings.TrimSpace(r.PostFormValue("confirm")) != contest {
		return api.Errorf(api.CodeBadRequest, "type the contest's name, %s, to close it: it cannot be opened again", contest)
	}
	if _, err := s.engine.CloseContest(r.Context(), c.actor(), contest); err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+contest+"/admin", "The contest is closed: read-only from now on, still viewable.")
	return nil
}
