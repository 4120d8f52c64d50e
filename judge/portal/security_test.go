package portal_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/contest/store"
)

// get fetches a page with the client's browser.
func (c *client) get(path string) (int, string) {
	c.e.t.Helper()
	resp, err := c.web.Get(c.e.srv.URL + path)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// post posts a form with the client's browser, with its CSRF token unless csrf is false.
func (c *client) post(path string, form url.Values, csrf bool) (int, string) {
	c.e.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if csrf {
		form.Set("csrf", c.csrf)
	}
	resp, err := c.web.PostForm(c.e.srv.URL+path, form)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// ready gives c an active version, and returns its id and its validation match's.
func (c *client) ready(contest, src string) (string, string) {
	c.e.t.Helper()
	code, out := c.upload(contest, map[string]string{"main.cpp": src})
	if code != 202 {
		c.e.t.Fatalf("upload: %d %v", code, out)
	}
	sub := c.waitStatus(out["id"].(string), "ready")
	if code, out, _ := c.api("POST", "/api/v1/submissions/"+sub["id"].(string)+"/activate", nil, ""); code != 200 {
		c.e.t.Fatalf("activate: %d %v", code, out)
	}
	return sub["id"].(string), sub["validation"].(map[string]any)["match"].(string)
}

// A contestant reads nothing of another's, on any route, by token or by session: every id of
// B's is "not found" to A, and no answer carries B's data.
func TestContestantsSeeOnlyTheirOwn(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", func(c *store.Contest) { c.PeerMatches = true })
	e.contest("autumn", nil)
	a := e.user("spring", "alice", false)
	b := e.user("spring", "bob", false)
	z := e.user("autumn", "zed", false)
	subB, valB := b.ready("spring", "int main() { /* secret of bob */ }")
	a.ready("spring", "int main() {}")
	body, _ := json.Marshal(map[string]any{"opponents": []string{"house:easy"}})
	_, out, _ := b.api("POST", "/api/v1/contests/spring/matches", bytes.NewReader(body), "application/json")
	testB := out["id"].(string)
	b.waitMatch(testB)

	secret := []string{"secret of bob", "stderr of bob", "warning of bob"}
	leaks := func(who, route, text string) {
		for _, s := range secret {
			if strings.Contains(text, s) {
				t.Errorf("%s reads %q at %s", who, s, route)
			}
		}
	}
	for _, c := range []*client{a, z} {
		for _, route := range []string{"/api/v1/submissions/" + subB, "/api/v1/submissions/" + subB + "/activate", "/api/v1/submissions/" + subB + "/source",
			"/api/v1/matches/" + valB, "/api/v1/matches/" + testB, "/api/v1/matches/" + testB + "/replay", "/api/v1/matches/" + valB + "/replay"} {
			method := "GET"
			if strings.HasSuffix(route, "/activate") {
				method = "POST"
			}
			code, out, _ := c.api(method, route, nil, "")
			if code != 404 {
				t.Errorf("%s %s %s: %d, want 404", c.login, method, route, code)
			}
			raw, _ := json.Marshal(out)
			leaks(c.login, route, string(raw))
		}
		for _, route := range []string{"/c/spring/s/" + subB, "/c/spring/m/" + valB, "/c/spring/m/" + testB, "/c/spring/m/" + testB + "/view",
			"/c/spring/m/" + testB + "/replay", "/c/autumn/s/" + subB, "/c/spring/admin", "/c/spring/admin/tournament.tar.gz",
			"/c/spring/admin/matches", "/c/spring/admin/versions"} {
			code, page := c.get(route)
			if code == 200 {
				t.Errorf("%s GET %s: 200", c.login, route)
			}
			leaks(c.login, route, page)
		}
	}
	// Lists hold one's own only; another contest's lists are not found.
	code, list, _ := a.api("GET", "/api/v1/contests/spring/matches?mine=1", nil, "")
	raw, _ := json.Marshal(list)
	if code != 200 || strings.Contains(string(raw), testB) || strings.Contains(string(raw), valB) {
		t.Errorf("alice's matches: %d %s", code, raw)
	}
	for _, route := range []string{"/c/spring/", "/c/spring/matches", "/c/spring/matches?kind=validation", "/c/spring/versions"} {
		if code, page := a.get(route); code != 200 || strings.Contains(page, testB) || strings.Contains(page, valB) || strings.Contains(page, subB) {
			t.Errorf("alice's %s: %d, or bob's matches or versions on it", route, code)
		}
	}
	for _, route := range []string{"/api/v1/contests/spring/matches", "/api/v1/contests/spring/leaderboard", "/api/v1/contests/spring"} {
		if code, _, _ := z.api("GET", route, nil, ""); code != 404 {
			t.Errorf("zed, of another contest, reads %s: %d", route, code)
		}
	}
	for _, route := range []string{"/c/spring/ladder", "/c/spring/ladder/bob", "/c/spring/matches", "/c/spring/versions"} {
		if code, _ := z.get(route); code != 404 {
			t.Errorf("zed, of another contest, opens %s: %d", route, code)
		}
	}
	if code, _ := z.upload("spring", map[string]string{"main.cpp": "int main(){}"}); code != 404 {
		t.Errorf("zed submits to spring: %d", code)
	}
	// A test match against bob plays bob's active version, but alice sees none of bob's.
	body, _ = json.Marshal(map[string]any{"opponents": []string{"bob"}})
	code, out, _ = a.api("POST", "/api/v1/contests/spring/matches", bytes.NewReader(body), "application/json")
	if code != 202 {
		t.Fatalf("alice against bob: %d %v", code, out)
	}
	m := a.waitMatch(out["id"].(string))
	raw, _ = json.Marshal(m)
	leaks("alice", "her match against bob", string(raw))
	code, rep, _ := a.api("GET", "/api/v1/matches/"+out["id"].(string)+"/replay", nil, "")
	leaks("alice", "her match's replay", rep["raw"].(string))
	if code != 200 || !strings.Contains(rep["raw"].(string), "stderr of alice") {
		t.Errorf("alice's own replay: %d", code)
	}
	// And never as an organiser.
	if code, _ := a.get("/c/spring/admin"); code != 403 {
		t.Errorf("alice on the organiser page: %d, want 403", code)
	}
	o := e.user("spring", "olga", true)
	if code, page := o.get("/c/spring/admin"); code != 200 || !strings.Contains(page, "bob") {
		t.Errorf("the organiser's page: %d", code)
	}
	if code, out, _ := o.api("GET", "/api/v1/matches/"+testB, nil, ""); code != 200 || !strings.Contains(mustJSON(out), "stderr of bob") {
		t.Errorf("the organiser reads bob's match in full: %d", code)
	}
	// Bob's sources come back to him as he uploaded them, and to the organiser.
	for _, c := range []*client{b, o} {
		code, out, header := c.api("GET", "/api/v1/submissions/"+subB+"/source", nil, "")
		files := untarGz(t, out["raw"].(string))
		if code != 200 || header.Get("Content-Type") != "application/gzip" || len(files) != 1 || files["main.cpp"] != "int main() { /* secret of bob */ }" {
			t.Errorf("%s reads bob's sources: %d %q, files %v", c.login, code, header.Get("Content-Type"), files)
		}
	}
}

// untarGz is the files of a .tar.gz, by name.
func untarGz(t *testing.T, data string) map[string]string {
	t.Helper()
	files := map[string]string{}
	gz, err := gzip.NewReader(strings.NewReader(data))
	if err != nil {
		return files
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err != nil {
			return files
		}
		b, _ := io.ReadAll(tr)
		files[h.Name] = string(b)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// A form posted from another site is refused, and so is a browser's change without its
// session's token; with both right, it goes through.
func TestCrossSiteRequestsAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	req, _ := http.NewRequest("POST", e.srv.URL+"/c/spring/account/tokens", strings.NewReader(url.Values{"csrf": {a.csrf}, "name": {"x"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := a.web.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Errorf("a cross-site form: %d, want 403", resp.StatusCode)
	}
	req, _ = http.NewRequest("POST", e.srv.URL+"/c/spring/account/tokens", strings.NewReader("name=x"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://evil.example")
	resp, _ = a.web.Do(req)
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	// The refusal is a page like the portal's others, not Go's line of plain text.
	if resp.StatusCode != 403 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(string(page), `href="/static/portal.css"`) || !strings.Contains(string(page), "another site") {
		t.Errorf("a form from another origin: %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), page)
	}
	// Under /api/, the contract's JSON error, by session and by token alike.
	for _, tok := range []string{"", a.token} {
		req, _ = http.NewRequest("POST", e.srv.URL+"/api/v1/tokens", strings.NewReader(`{"name":"x"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, _ = a.web.Do(req)
		var out struct {
			Error struct{ Code, Message string }
		}
		err := json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if resp.StatusCode != 403 || err != nil || out.Error.Code != "cross_origin" || out.Error.Message == "" {
			t.Errorf("a cross-site API request (token %v): %d %+v %v", tok != "", resp.StatusCode, out, err)
		}
	}
	if code, _ := a.post("/c/spring/account/tokens", url.Values{"name": {"x"}}, false); code != 403 {
		t.Errorf("a form without the session's token: %d, want 403", code)
	}
	if code, page := a.post("/c/spring/account/tokens", url.Values{"name": {"x"}}, true); code != 200 || !strings.Contains(page, "jt_") {
		t.Errorf("the same form, right: %d", code)
	}
}

// A session ends at logout and at a password change; the cookie is HttpOnly and SameSite.
func TestSessionsEnd(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	u, _ := url.Parse(e.srv.URL)
	cookies := a.web.Jar.Cookies(u)
	if len(cookies) != 1 {
		t.Fatalf("cookies %v", cookies)
	}
	stolen := cookies[0].Value
	if code, _ := a.get("/c/spring/"); code != 200 {
		t.Fatalf("home: %d", code)
	}
	if code, _ := a.post("/c/spring/logout", nil, true); code != 200 { // redirected to the login page
		t.Errorf("logout: %d", code)
	}
	other := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest("GET", e.srv.URL+"/c/spring/", nil)
	req.AddCookie(&http.Cookie{Name: "judge_session", Value: stolen})
	resp, _ := other.Do(req)
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the session after logout: %d, want a redirect to the login page", resp.StatusCode)
	}
	// Two browsers; the password changes in one; the other is logged out.
	b1, b2 := e.login(t, "spring", "alice", "password of alice"), e.login(t, "spring", "alice", "password of alice")
	if code, _ := b1.post("/c/spring/account/password", url.Values{"old": {"password of alice"}, "password": {"a new password"}}, true); code != 200 {
		t.Fatalf("changing the password: %d", code)
	}
	if code, _ := b2.get("/c/spring/"); code != 200 || !strings.Contains(b2.lastURL, "/login") {
		t.Errorf("the other session after the change: %d at %s", code, b2.lastURL)
	}
	if code, _ := b1.get("/c/spring/"); code != 200 || strings.Contains(b1.lastURL, "/login") {
		t.Errorf("the changing browser is logged out: %s", b1.lastURL)
	}
}

// login logs in with a fresh browser.
func (e *env) login(t *testing.T, contest, login, password string) *browser {
	t.Helper()
	b := newBrowser(e)
	code, page := b.post("/c/"+contest+"/login", url.Values{"login": {login}, "password": {password}}, false)
	if code != 200 {
		t.Fatalf("login: %d %s", code, page)
	}
	b.csrf = csrfOf([]byte(page))
	return b
}

// Logins are rate-limited per address and per login: the next one is 429 with Retry-After.
func TestLoginRateLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	e.user("spring", "alice", false)
	b := newBrowser(e)
	var last int
	for i := range 11 {
		last, _ = b.post("/c/spring/login", url.Values{"login": {"alice"}, "password": {"guess " + string(rune('a'+i))}}, false)
	}
	if last != 429 || !retrySeconds(b.header.Get("Retry-After"), 60) {
		t.Errorf("the 11th attempt in a minute: %d, Retry-After %q", last, b.header.Get("Retry-After"))
	}
}

// A test match past the hour's quota is 429 with Retry-After; the quota is the contest's.
func TestTestMatchQuota(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", func(c *store.Contest) { c.TestQuota = 2 })
	a := e.user("spring", "alice", false)
	a.ready("spring", "int main(){}")
	body := func() io.Reader {
		b, _ := json.Marshal(map[string]any{"opponents": []string{"house:easy"}})
		return bytes.NewReader(b)
	}
	for i := range 3 {
		code, out, h := a.api("POST", "/api/v1/contests/spring/matches", body(), "application/json")
		switch {
		case i < 2 && code != 202:
			t.Errorf("match %d: %d %v", i+1, code, out)
		case i == 2 && (code != 429 || !retrySeconds(h.Get("Retry-After"), 3600) || out["error"].(map[string]any)["code"] != "quota"):
			t.Errorf("past the quota: %d %v Retry-After %q", code, out, h.Get("Retry-After"))
		}
	}
	// The page says the same, in whole seconds (up to an hour: not "59m12").
	form := url.Values{"opponent": {"house:easy"}, "csrf": {a.csrf}}
	resp, err := a.web.PostForm(e.srv.URL+"/c/spring/matches", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 429 || !retrySeconds(resp.Header.Get("Retry-After"), 3600) {
		t.Errorf("the page past the quota: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}

// retrySeconds reports whether v is a Retry-After of 1 to most seconds.
func retrySeconds(v string, most int) bool {
	n, err := strconv.Atoi(v)
	return err == nil && n >= 1 && n <= most
}

// Bad requests get a clear error in the documented shape, with the documented statuses.
func TestAPIErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	anon := &client{e: e}
	if code, out, _ := anon.api("GET", "/api/v1/contests/spring/matches", nil, ""); code != 401 || out["error"] == nil {
		t.Errorf("no token: %d %v", code, out)
	}
	bad := &client{e: e, token: "jt_forged"}
	if code, _, _ := bad.api("GET", "/api/v1/contests/spring/matches", nil, ""); code != 401 {
		t.Errorf("a forged token: %d", code)
	}
	big := strings.Repeat("x", 2<<20)
	if code, out := a.upload("spring", map[string]string{"main.cpp": big}); code != 413 {
		t.Errorf("a 2 MiB file: %d %v", code, out)
	}
	if code, out := a.upload("spring", map[string]string{"notes.txt": "hello"}); code != 400 || !strings.Contains(mustJSON(out), "known extension") {
		t.Errorf("no source file: %d %v", code, out)
	}
	if code, out, _ := a.api("POST", "/api/v1/contests/spring/matches", strings.NewReader(`{"opponents":["house:easy"]}`), "application/json"); code != 409 {
		t.Errorf("a test match without an active version: %d %v", code, out)
	}
	if code, out, _ := a.api("POST", "/api/v1/contests/spring/matches", strings.NewReader(`{"oppo`), "application/json"); code != 400 {
		t.Errorf("bad JSON: %d %v", code, out)
	}
	if code, _, _ := a.api("GET", "/api/v1/nothing", nil, ""); code != 404 {
		t.Errorf("an unknown route: %d", code)
	}
}

// Passwords, tokens, invite codes and session ids never reach the portal's log, at any level;
// what happened does (logins, uploads).
func TestNoSecretsInTheLog(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	a.upload("spring", map[string]string{"main.cpp": "int main() {}"})
	b := e.login(t, "spring", "alice", "password of alice")
	newBrowser(e).post("/c/spring/login", url.Values{"login": {"alice"}, "password": {"a wrong guess"}}, false)
	b.post("/c/spring/account/password", url.Values{"old": {"password of alice"}, "password": {"the next password"}}, true)
	_, page := b.post("/c/spring/account/tokens", url.Values{"name": {"ci"}}, true)
	u, _ := url.Parse(e.srv.URL)
	var secrets []string
	for _, c := range append(a.web.Jar.Cookies(u), b.c.Jar.Cookies(u)...) {
		secrets = append(secrets, c.Value)
	}
	secrets = append(secrets, a.token, a.invite, "password of alice", "a wrong guess", "the next password")
	if m := regexp.MustCompile(`jt_[A-Za-z0-9_-]+`).FindString(page); m != "" {
		secrets = append(secrets, m)
	}
	log := e.log.String()
	if !strings.Contains(log, "portal: login") || !strings.Contains(log, "contest: upload") {
		t.Errorf("the log does not say what happened:\n%s", log)
	}
	for _, s := range secrets {
		if s != "" && strings.Contains(log, s) {
			t.Errorf("the log holds a secret %q", s)
		}
	}
}

// endless is n bytes of 'x', made as they are read.
type endless struct{ n int64 }

func (r *endless) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), r.n)
	for i := range p[:k] {
		p[i] = 'x'
	}
	r.n -= k
	return int(k), nil
}

// Hostile uploads over HTTP: a 1 GB file and 100,000 files are refused (413) after reading
// only as much as the limits allow, control characters in a name are 400, and the portal
// serves on, unharmed.
func TestHostileUploadsOverHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	post := func(body io.Reader, contentType string) (int, string) {
		req, _ := http.NewRequest("POST", e.srv.URL+"/api/v1/contests/spring/submissions", body)
		req.Header.Set("Authorization", "Bearer "+a.token)
		req.Header.Set("Content-Type", contentType)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err.Error() // the server may close the connection on a body it will not read
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	// A 1 GB file, streamed: the portal stops reading at its limit.
	pr, pw := io.Pipe()
	huge := multipart.NewWriter(pw)
	go func() {
		w, _ := huge.CreateFormFile("files", "huge.cpp")
		io.Copy(w, &endless{n: 1 << 30})
		huge.Close()
		pw.Close()
	}()
	start := time.Now()
	code, body := post(pr, huge.FormDataContentType())
	pr.CloseWithError(io.ErrClosedPipe)
	if code != 413 && code != 0 {
		t.Errorf("a 1 GB file: %d %s", code, body)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("a 1 GB file took %v to refuse: it was read", d)
	}
	// 100,000 files.
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for i := range 100000 {
		w, _ := mw.CreateFormFile("files", fmt.Sprintf("f%d.cpp", i))
		io.WriteString(w, "x")
	}
	mw.Close()
	if code, body := post(&buf, mw.FormDataContentType()); code != 413 {
		t.Errorf("100,000 files: %d %s", code, body)
	}
	// A name with control characters.
	var small bytes.Buffer // not buf: the transport may still be reading it
	mw = multipart.NewWriter(&small)
	w, _ := mw.CreateFormFile("files", "a\x1b[2Jb.cpp")
	io.WriteString(w, "int main(){}")
	mw.Close()
	if code, body := post(&small, mw.FormDataContentType()); code != 400 {
		t.Errorf("an escape sequence in a name: %d %s", code, body)
	}
	// Unharmed: the next upload goes through, and nothing was stored of the others.
	if code, out := a.upload("spring", map[string]string{"main.cpp": "int main() {}"}); code != 202 || out["version"] != 1.0 {
		t.Errorf("after them, an upload: %d %v", code, out)
	}
}
