package portal

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/store"
)

// accounts serves the account page and the API's tokens and password.
type accounts struct{ *Server }

// A person's own credentials: the password and the API tokens, from the account page and
// the API. A password change ends every session and every token of the user; the one who
// changed it keeps going (a new session for the browser, a new token for a script, in place
// of the one it used), since they have just proved the password.

// tokenJSON is a token as its owner sees it listed: never the secret, nor its digest.
type tokenJSON struct {
	ID      string  `json:"id"`
	Name    string  `json:"name"`
	Created string  `json:"created"`
	Expires *string `json:"expires"` // null: never (a token made before tokens expired)
}

func tokensJSON(ts []store.Token) []tokenJSON {
	out := []tokenJSON{}
	for _, t := range ts {
		out = append(out, tokenJSONOf(t))
	}
	return out
}

func tokenJSONOf(t store.Token) tokenJSON {
	j := tokenJSON{ID: t.ID, Name: t.Name, Created: t.Created.Format(time.RFC3339)}
	if !t.Expires.IsZero() {
		e := t.Expires.Format(time.RFC3339)
		j.Expires = &e
	}
	return j
}

// tokenTTL is how long a new token asked to live days lives: token_days when 0, at most
// token_max_days.
func (s accounts) tokenTTL(days int) (time.Duration, error) {
	if days == 0 {
		return s.c.TokenTTL(), nil
	}
	if days < 0 || days > s.c.TokenMaxDays {
		return 0, api.Errorf(api.CodeBadRequest, "days %d: a token lives 1 to %d days (%d when not said)", days, s.c.TokenMaxDays, s.c.TokenDays)
	}
	return time.Duration(days) * 24 * time.Hour, nil
}

// tokenName is a token's name as asked for, within bounds.
func tokenName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if len(name) > 40 {
		return "", api.Errorf(api.CodeBadRequest, "a token's name has at most 40 bytes")
	}
	return name, nil
}

func (s accounts) apiNewToken(w http.ResponseWriter, r *http.Request, c caller) error {
	var body struct {
		Name string `json:"name"`
		Days int    `json:"days"`
	}
	if err := decodeBody(r, &body, `{"name": "...", "days": N}`); err != nil {
		return err
	}
	name, err := tokenName(body.Name)
	if err != nil {
		return err
	}
	ttl, err := s.tokenTTL(body.Days)
	if err != nil {
		return err
	}
	tok, t, err := s.engine.NewToken(r.Context(), c.actor(), name, ttl)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, map[string]any{"token": tok, "id": t.ID, "name": t.Name, "expires": tokenJSONOf(t).Expires})
	return nil
}

func (s accounts) apiTokens(w http.ResponseWriter, r *http.Request, c caller) error {
	ts, err := s.c.Store.Tokens(r.Context(), c.Contest, c.Login)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"tokens": tokensJSON(ts)})
	return nil
}

func (s accounts) apiRevokeToken(w http.ResponseWriter, r *http.Request, c caller) error {
	id := r.PathValue("id")
	if err := s.engine.RevokeToken(r.Context(), c.actor(), id); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "revoked": true})
	return nil
}

func (s accounts) apiPassword(w http.ResponseWriter, r *http.Request, c caller) error {
	var body struct {
		Old string `json:"old"`
		New string `json:"new"`
	}
	if err := decodeBody(r, &body, `{"old": "...", "new": "..."}`); err != nil {
		return err
	}
	if _, err := s.engine.SetPassword(r.Context(), c.actor(), body.Old, body.New); err != nil {
		return err
	}
	out := map[string]string{"status": "changed: every session and every API token of yours has ended"}
	switch {
	case c.Session != nil:
		if _, err := s.restartSession(w, r, c); err != nil {
			return err
		}
		out["status"] += "; this browser has a new session"
	case c.Token != nil:
		tok, t, err := s.engine.NewToken(r.Context(), c.actor(), c.Token.Name, s.c.TokenTTL())
		if err != nil {
			return err
		}
		out["token"], out["id"] = tok, t.ID
		out["status"] += "; token is the new one in place of the one this request used"
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// restartSession gives the browser that changed the password a new session: the change
// ended every session, its own too.
func (s accounts) restartSession(w http.ResponseWriter, r *http.Request, c caller) (store.Session, error) {
	u, err := s.c.Store.User(r.Context(), c.Contest, c.Login)
	if err != nil {
		return store.Session{}, err
	}
	return s.startSession(w, r, u)
}

// accountData serves what the account page shows.
type accountData struct {
	pageData
	Token  string // a new token, shown once
	Tokens []tokenJSON
	// TokenDays and TokenMaxDays bound a new token's life (Options).
	TokenDays, TokenMaxDays int
}

func (s accounts) renderAccount(w http.ResponseWriter, r *http.Request, c caller, status int, d accountData) error {
	ts, err := s.c.Store.Tokens(r.Context(), c.Contest, c.Login)
	if err != nil {
		return err
	}
	d.Tokens = tokensJSON(ts)
	d.TokenDays, d.TokenMaxDays = s.c.TokenDays, s.c.TokenMaxDays
	s.render(w, status, "account.html", d)
	return nil
}

func (s accounts) accountPage(w http.ResponseWriter, r *http.Request, c caller) error {
	if r.PathValue("contest") != c.Contest {
		return errNotFound
	}
	return s.renderAccount(w, r, c, http.StatusOK, accountData{pageData: s.base(r, c, c.Login, "")})
}

func (s accounts) passwordPage(w http.ResponseWriter, r *http.Request, c caller) error {
	if r.PathValue("contest") != c.Contest {
		return errNotFound
	}
	_, err := s.engine.SetPassword(r.Context(), c.actor(), r.FormValue("old"), r.FormValue("password"))
	if errors.Is(err, store.ErrBadLogin) || errors.Is(err, store.ErrInvalid) {
		msg := "A password has 10 to 72 characters."
		if errors.Is(err, store.ErrBadLogin) {
			msg = "The current password is wrong."
		}
		return s.renderAccount(w, r, c, http.StatusBadRequest, accountData{pageData: s.base(r, c, c.Login, msg)})
	}
	var sess store.Session
	if err == nil {
		sess, err = s.restartSession(w, r, c)
	}
	if err != nil {
		return err
	}
	s.back(w, r, sess.CSRF, "/c/"+c.Contest+"/account", "The password is changed; every other session and every API token has ended.")
	return nil
}

func (s accounts) newTokenPage(w http.ResponseWriter, r *http.Request, c caller) error {
	if r.PathValue("contest") != c.Contest {
		return errNotFound
	}
	name, err := tokenName(r.FormValue("name"))
	if err != nil {
		return err
	}
	days := 0
	if v := strings.TrimSpace(r.FormValue("days")); v != "" {
		if days, err = strconv.Atoi(v); err != nil {
			return api.Errorf(api.CodeBadRequest, "days %q: want a number of days", v)
		}
	}
	ttl, err := s.tokenTTL(days)
	if err != nil {
		return err
	}
	tok, _, err := s.engine.NewToken(r.Context(), c.actor(), name, ttl)
	if err != nil {
		return err
	}
	return s.renderAccount(w, r, c, http.StatusOK, accountData{pageData: s.base(r, c, c.Login, ""), Token: tok})
}

func (s accounts) revokeTokenPage(w http.ResponseWriter, r *http.Request, c caller) error {
	if r.PathValue("contest") != c.Contest {
		return errNotFound
	}
	if err := s.engine.RevokeToken(r.Context(), c.actor(), r.PathValue("id")); err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+c.Contest+"/account", "The token is revoked.")
	return nil
}
