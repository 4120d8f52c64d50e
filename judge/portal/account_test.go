package portal_test

import (
	"bytes"
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// works reports whether token still answers for its user.
func (e *env) works(token string) bool {
	e.t.Helper()
	code, _, _ := (&client{e: e, token: token}).api("GET", "/api/v1/contests/spring/submissions", nil, "")
	return code == 200
}

// newToken makes a token through the API with c's token.
func (c *client) newToken(name string) (token, id string) {
	c.e.t.Helper()
	body, _ := json.Marshal(map[string]string{"name": name})
	code, out, _ := c.api("POST", "/api/v1/tokens", bytes.NewReader(body), "application/json")
	if code != 201 {
		c.e.t.Fatalf("a new token: %d %v", code, out)
	}
	return out["token"].(string), out["id"].(string)
}

// A user's tokens are listed (never their secret) and revocable, by their owner only; a
// password change - through the API or the account page - and a reset end every token made
// before it; the one who changed it keeps going.
func TestTokensListedRevokedAndEnded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	b := e.user("spring", "bob", false)
	first := a.token
	ci, ciID := a.newToken("ci")
	if !e.works(first) || !e.works(ci) {
		t.Fatal("the tokens do not work")
	}

	code, out, _ := a.api("GET", "/api/v1/tokens", nil, "")
	raw := mustJSON(out)
	if code != 200 || len(out["tokens"].([]any)) != 2 || !strings.Contains(raw, `"ci"`) || !strings.Contains(raw, `"first"`) ||
		strings.Contains(raw, "jt_") || strings.Contains(raw, "digest") {
		t.Errorf("alice's tokens: %d %s", code, raw)
	}
	if code, out, _ := b.api("DELETE", "/api/v1/tokens/"+ciID, nil, ""); code != 404 || !e.works(ci) {
		t.Errorf("bob revokes alice's token: %d %v", code, out)
	}
	if code, out, _ := b.api("GET", "/api/v1/tokens", nil, ""); code != 200 || strings.Contains(mustJSON(out), "ci") {
		t.Errorf("bob's list: %d %v", code, out)
	}
	if code, out, _ := a.api("DELETE", "/api/v1/tokens/"+ciID, nil, ""); code != 200 || e.works(ci) {
		t.Errorf("alice revokes her token: %d %v; it works after: %v", code, out, e.works(ci))
	}

	// The API: every token ends, the caller gets a new one in place of its own.
	script, _ := a.newToken("script")
	a.token = script
	body, _ := json.Marshal(map[string]string{"old": "password of alice", "new": "a second password"})
	code, out, _ = a.api("POST", "/api/v1/password", bytes.NewReader(body), "application/json")
	if code != 200 || out["token"] == nil {
		t.Fatalf("the password through the API: %d %v", code, out)
	}
	for name, tok := range map[string]string{"first": first, "script (the caller's)": script} {
		if e.works(tok) {
			t.Errorf("the token %s works after the password changed", name)
		}
	}
	a.token = out["token"].(string)
	if !e.works(a.token) {
		t.Errorf("the new token does not work")
	}

	// The account page: it lists them, revokes one, and a change there ends the others.
	br := e.login(t, "spring", "alice", "a second password")
	kept, _ := a.newToken("kept")
	gone, goneID := a.newToken("to revoke")
	code, page := br.get("/c/spring/account")
	if code != 200 || !strings.Contains(page, "to revoke") || strings.Contains(page, "jt_") {
		t.Errorf("the account page: %d\n%s", code, page)
	}
	if code, _ := br.post("/c/spring/account/tokens/"+goneID+"/revoke", url.Values{}, true); code != 200 || e.works(gone) || !e.works(kept) {
		t.Errorf("revoking on the page: %d; revoked works %v, the other %v", code, e.works(gone), e.works(kept))
	}
	if code, _ := br.post("/c/spring/account/password", url.Values{"old": {"a second password"}, "password": {"a third password"}}, true); code != 200 {
		t.Fatalf("the password on the page: %d", code)
	}
	if e.works(kept) || e.works(a.token) {
		t.Errorf("a token works after the password changed on the page")
	}
	if code, _ := br.get("/c/spring/account"); code != 200 || strings.Contains(br.lastURL, "/login") {
		t.Errorf("the browser that changed it is logged out: %s", br.lastURL)
	}

	// A reset (a new invite, accepted) ends them too.
	kept, _ = e.login(t, "spring", "alice", "a third password").pageToken(t, "before the reset")
	inv, err := e.st.NewInvite(t.Context(), "spring", "alice")
	if err != nil {
		t.Fatal(err)
	}
	if code, page := newBrowser(e).post("/invite/"+inv, url.Values{"password": {"a reset password"}, "again": {"a reset password"}}, false); code != 200 {
		t.Fatalf("the reset: %d %s", code, page)
	}
	if e.works(kept) {
		t.Errorf("a token works after a reset")
	}
}

var tokenRE = regexp.MustCompile(`jt_[A-Za-z0-9_-]+`)

// pageToken makes a token on the account page.
func (b *browser) pageToken(t *testing.T, name string) (string, string) {
	t.Helper()
	code, page := b.post("/c/spring/account/tokens", url.Values{"name": {name}}, true)
	tok := tokenRE.FindString(page)
	if code != 200 || tok == "" {
		t.Fatalf("a token on the page: %d", code)
	}
	return tok, page
}

// An API token lives portal.token_days unless its maker asks for 1 to portal.token_max_days;
// the first one, user add's, lives token_days too; each token is listed with its expiry, and
// the account page asks for the days.
func TestTokensExpire(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	around := func(expires any, days int) bool {
		s, _ := expires.(string)
		at, err := time.Parse(time.RFC3339, s)
		want := time.Now().Add(time.Duration(days) * 24 * time.Hour)
		return err == nil && at.After(want.Add(-time.Minute)) && at.Before(want.Add(time.Minute))
	}
	for _, tc := range []struct {
		body string
		code int
		days int
	}{
		{`{"name":"default"}`, 201, 90},
		{`{"name":"week","days":7}`, 201, 7},
		{`{"name":"year","days":365}`, 201, 365},
		{`{"name":"forever","days":366}`, 400, 0},
		{`{"name":"past","days":-1}`, 400, 0},
	} {
		code, out, _ := a.api("POST", "/api/v1/tokens", strings.NewReader(tc.body), "application/json")
		if code != tc.code || tc.code == 201 && !around(out["expires"], tc.days) || tc.code == 400 && !strings.Contains(mustJSON(out), "1 to 365 days") {
			t.Errorf("%s: %d %v; want %d, expiring in %d days", tc.body, code, out, tc.code, tc.days)
		}
	}
	_, out, _ := a.api("GET", "/api/v1/tokens", nil, "")
	for _, tok := range out["tokens"].([]any) {
		tok := tok.(map[string]any)
		want := map[any]int{"first": 90, "default": 90, "week": 7, "year": 365}[tok["name"]]
		if !around(tok["expires"], want) {
			t.Errorf("listed: %v; want it to expire in %d days", tok, want)
		}
	}
	if code, page := a.get("/c/spring/account"); code != 200 || !strings.Contains(page, `name="days"`) || !strings.Contains(page, `max="365"`) || !strings.Contains(page, "<th>expires</th>") {
		t.Errorf("the account page: %d", code)
	}
}
