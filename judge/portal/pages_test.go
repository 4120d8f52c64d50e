package portal_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/portal"
)

// section is the part of page from the element with data-testid id to the end of its table.
func section(page, id string) string {
	_, rest, _ := strings.Cut(page, `data-testid="`+id+`"`)
	rest, _, _ = strings.Cut(rest, "</table>")
	return rest
}

// A version the judge could not build or validate (Error set) shows that failure once, as
// the judge's: not as the contestant's rejection, nor twice.
func TestJudgeFailureShownOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	const why = "the judge could not play its validation match: no daemon answered"
	sub, err := e.st.AddSubmission(t.Context(), store.Submission{Contest: "spring", Login: "alice", Lang: "cpp"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.UpdateSubmission(t.Context(), sub.ID, func(x *store.Submission) error {
		x.Status, x.Error = store.Rejected, why
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	code, page := a.get("/c/spring/s/" + sub.ID)
	if code != 200 || strings.Count(page, why) != 1 || !strings.Contains(page, "The judge failed here, not your version") ||
		strings.Contains(page, ">rejected<") || !strings.Contains(page, "not judged") {
		t.Errorf("the version's page: %d\n%s", code, page)
	}
	if _, page := a.get("/c/spring/"); strings.Contains(section(page, "versions"), ">rejected<") || !strings.Contains(section(page, "versions"), "not judged") {
		t.Errorf("the home page's versions:\n%s", section(page, "versions"))
	}
}

// The organiser's tables: an active version is "active", and a person's active version is
// its number, linked, not its id.
func TestAdminTables(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	id, _ := a.ready("spring", "int main() {}")
	o := e.user("spring", "olga", true)
	code, page := o.get("/c/spring/admin")
	if code != 200 {
		t.Fatalf("the organiser's page: %d", code)
	}
	if v := section(page, "all-versions"); !strings.Contains(v, ">active<") || strings.Contains(v, ">ready<") {
		t.Errorf("the versions table:\n%s", v)
	}
	// The same on the page of every version.
	if code, all := o.get("/c/spring/admin/versions"); code != 200 || !strings.Contains(section(all, "versions"), ">active<") ||
		strings.Contains(section(all, "versions"), ">ready<") {
		t.Errorf("the page of every version: %d\n%s", code, section(all, "versions"))
	}
	people := section(page, "people")
	if !strings.Contains(people, `<a href="/c/spring/s/`+id+`" data-testid="active-version">v1</a>`) ||
		regexp.MustCompile(`>\s*`+id+`\s*<`).MatchString(people) {
		t.Errorf("the people table:\n%s", people)
	}
}

// The leaderboard of a contest without a ladder says so, not that nobody has a version.
func TestLeaderboardWhileTheLadderIsOff(t *testing.T) {
	t.Parallel()
	for _, ladder := range []bool{false, true} {
		e := newEnv(t)
		e.contest("spring", func(c *store.Contest) { c.Ladder = ladder })
		a := e.user("spring", "alice", false)
		_, page := a.get("/c/spring/ladder")
		if off := strings.Contains(page, "The ladder is off"); off == ladder || strings.Contains(page, "No active versions yet") != ladder {
			t.Errorf("ladder %v: the leaderboard says\n%s", ladder, page)
		}
	}
}

// The pages of a contest one is not in link only to one's own contest; logged out, an error
// page links to no contest.
func TestNavLinksOnlyToOnesOwnContest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	e.contest("autumn", nil)
	z := e.user("autumn", "zed", false)
	for _, path := range []string{"/c/spring/", "/c/spring/ladder", "/c/spring/account", "/c/spring/admin"} {
		code, page := z.get(path)
		if code != 404 || strings.Contains(page, `href="/c/spring/`) || !strings.Contains(page, `href="/c/autumn/"`) {
			t.Errorf("zed of autumn opens %s: %d\n%s", path, code, page)
		}
	}
	// Logged out, a contest that does not exist is not linked to either.
	if code, page := newBrowser(e).get("/c/nowhere/ladder"); code != 404 || strings.Contains(page, `href="/c/nowhere/`) {
		t.Errorf("a contest that does not exist: %d\n%s", code, page)
	}
}

// noRedirects is a client with jar's cookies that stops at a redirect, to see where it goes.
func noRedirects(jar http.CookieJar) *http.Client {
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// A deep link survives the login: the login page's form keeps it, and the login goes on to
// it; but only to a page of the contest, never to another site.
func TestLoginKeepsTheDeepLink(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *portal.Options) { o.LoginRate = 100 })
	e.contest("spring", nil)
	e.user("spring", "alice", false)
	resp, err := noRedirects(nil).Get(e.srv.URL + "/c/spring/m/m0123?x=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	login := resp.Header.Get("Location")
	if want := "/c/spring/login?next=" + url.QueryEscape("/c/spring/m/m0123?x=1"); login != want {
		t.Fatalf("a deep link without a session goes to %q, want %q", login, want)
	}
	if _, page := newBrowser(e).get(login); !strings.Contains(page, `name="next" value="/c/spring/m/m0123?x=1"`) {
		t.Errorf("the login form drops the deep link:\n%s", page)
	}
	for _, c := range []struct{ next, want string }{
		{"/c/spring/m/m0123?x=1", "/c/spring/m/m0123?x=1"},
		{"/c/spring/ladder", "/c/spring/ladder"},
		{"//evil.example", "/c/spring/"},
		{"https://evil.example", "/c/spring/"},
		{"https://evil.example/c/spring/", "/c/spring/"},
		{"/c/spring//evil.example", "/c/spring/"},
		{`/c/spring/\evil.example`, "/c/spring/"},
		{"/c/spring/../../x", "/c/spring/"},
		{"/c/autumn/", "/c/spring/"},
		{"javascript:alert(1)", "/c/spring/"},
		{"/c/spring/\r\nSet-Cookie: x=1", "/c/spring/"},
		{"", "/c/spring/"},
	} {
		form := url.Values{"login": {"alice"}, "password": {"password of alice"}, "next": {c.next}}
		jar, _ := cookiejar.New(nil)
		resp, err := noRedirects(jar).PostForm(e.srv.URL+"/c/spring/login", form)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || got != c.want {
			t.Errorf("next %q: %d to %q, want %q", c.next, resp.StatusCode, got, c.want)
		}
	}
}

// The success box shows only what the portal's own handler left there, once: no text from
// the URL, and no cookie the portal did not sign for this session.
func TestFlashIsThePortalsOwn(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	for _, q := range []string{"?done=" + url.QueryEscape("<script>alert(1)</script>"), "?done=" + url.QueryEscape("Your account is locked: mail your password to evil.example")} {
		if _, page := a.get("/c/spring/" + q); strings.Contains(page, `data-testid="flash"`) || strings.Contains(page, "alert(1)") || strings.Contains(page, "evil.example") {
			t.Errorf("%s is shown:\n%s", q, page)
		}
	}
	u, _ := url.Parse(e.srv.URL)
	for _, forged := range []string{"WW91ciBhY2NvdW50IGlzIGxvY2tlZA", "WW91ciBhY2NvdW50IGlzIGxvY2tlZA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"} {
		a.web.Jar.SetCookies(u, []*http.Cookie{{Name: "judge_flash", Value: forged, Path: "/"}})
		if _, page := a.get("/c/spring/"); strings.Contains(page, `data-testid="flash"`) || strings.Contains(page, "locked") {
			t.Errorf("a forged flash cookie %q is shown", forged)
		}
	}
	// The handler's own note, after a redirect with nothing in its URL; once.
	code, out := a.upload("spring", map[string]string{"main.cpp": "int main() {}"})
	if code != 202 {
		t.Fatalf("upload: %d %v", code, out)
	}
	id := a.waitStatus(out["id"].(string), "ready")["id"].(string)
	resp, err := noRedirects(a.web.Jar).PostForm(e.srv.URL+"/c/spring/s/"+id+"/activate", url.Values{"csrf": {a.csrf}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); loc != "/c/spring/s/"+id {
		t.Errorf("activating redirects to %q", loc)
	}
	if _, page := a.get("/c/spring/s/" + id); !strings.Contains(page, `data-testid="flash">Version 1 is your active version.<`) {
		t.Errorf("the note after activating:\n%s", page)
	}
	if _, page := a.get("/c/spring/s/" + id); strings.Contains(page, `data-testid="flash"`) {
		t.Errorf("the note is shown twice")
	}
}

// The organiser's forms are Post/Redirect/Get: a reload does not add the person again, and
// the invite is shown once.
func TestAddingIsPostRedirectGet(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	o := e.user("spring", "olga", true)
	for _, f := range []struct {
		path string
		form url.Values
		note string
	}{
		{"/c/spring/admin/users", url.Values{"login": {"carol"}}, "/invite/inv_"},
		{"/c/spring/admin/contests", url.Values{"name": {"winter"}, "game": {"amazes"}}, "winter is made"},
	} {
		f.form.Set("csrf", o.csrf)
		resp, err := noRedirects(o.web.Jar).PostForm(e.srv.URL+f.path, f.form)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/c/spring/admin" {
			t.Errorf("%s: %d to %q, want 303 to /c/spring/admin", f.path, resp.StatusCode, loc)
		}
		if _, page := o.get("/c/spring/admin"); !strings.Contains(page, f.note) {
			t.Errorf("%s: the organiser's page after it has no %q", f.path, f.note)
		}
		if _, page := o.get("/c/spring/admin"); strings.Contains(page, f.note) {
			t.Errorf("%s: %q is shown again", f.path, f.note)
		}
	}
}

// multipartForm is a browser's upload form with the given fields and no file chosen.
func multipartForm(fields map[string]string) (*bytes.Buffer, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	mw.Close()
	return &buf, mw.FormDataContentType()
}

// A form's error shows on the page with the form (the home page, the organiser's), or on an
// error page that links back to it: never a dead end.
func TestFormErrorsKeepTheForm(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	o := e.user("spring", "olga", true)
	code, out := a.upload("spring", map[string]string{"main.cpp": "int main() { syntax error }"})
	if code != 202 {
		t.Fatalf("upload: %d %v", code, out)
	}
	broken := a.waitStatus(out["id"].(string), "compile_error")["id"].(string)
	post := func(c *client, path string, body io.Reader, contentType string) (int, string) {
		resp, err := c.web.Post(e.srv.URL+path, contentType, body)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		page, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(page)
	}
	noFiles := func(c *client, extra map[string]string) func() (io.Reader, string) {
		return func() (io.Reader, string) {
			fields := map[string]string{"csrf": c.csrf}
			for k, v := range extra {
				fields[k] = v
			}
			return multipartForm(fields)
		}
	}
	form := func(c *client, v url.Values) func() (io.Reader, string) {
		return func() (io.Reader, string) {
			v.Set("csrf", c.csrf)
			return strings.NewReader(v.Encode()), "application/x-www-form-urlencoded"
		}
	}
	for _, f := range []struct {
		who        *client
		path       string
		body       func() (io.Reader, string)
		status     int
		want, form string
	}{
		{a, "/c/spring/submit", noFiles(a, nil), 400, "no files uploaded", `data-testid="upload"`},
		{o, "/c/spring/admin/house", noFiles(o, map[string]string{"name": "hard"}), 400, "no files uploaded", `action="/c/spring/admin/house"`},
		{o, "/c/spring/admin/users", form(o, url.Values{"login": {"Not A Login"}}), 400, "Not A Login", `action="/c/spring/admin/users"`},
		{o, "/c/spring/admin/settings", form(o, url.Values{"test_quota": {"many"}}), 400, "want a whole number", `action="/c/spring/admin/settings"`},
		{a, "/c/spring/s/" + broken + "/activate", form(a, url.Values{}), 409, "", `<a href="/c/spring/s/` + broken + `" data-testid="back">`},
	} {
		body, ct := f.body()
		code, page := post(f.who, f.path, body, ct)
		if code != f.status || !strings.Contains(page, f.want) || !strings.Contains(page, f.form) {
			t.Errorf("%s: %d, want %d with %q and %q:\n%s", f.path, code, f.status, f.want, f.form, page)
		}
	}
}

// The test-match form is offered only with an active version to play; without, the page
// says why.
func TestPlayNeedsAnActiveVersion(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	check := func(when string, form bool, why string) {
		t.Helper()
		_, page := a.get("/c/spring/")
		if strings.Contains(page, `data-testid="ask-match"`) != form || !strings.Contains(page, why) {
			t.Errorf("%s: the form offered %v, want %v, with %q:\n%s", when, !form, form, why, page)
		}
	}
	check("no version", false, "upload a version")
	code, out := a.upload("spring", map[string]string{"main.cpp": "int main() {}"})
	if code != 202 {
		t.Fatalf("upload: %d %v", code, out)
	}
	id := a.waitStatus(out["id"].(string), "ready")["id"].(string)
	check("a version ready, none active", false, "make a version that passed its validation active")
	if code, out, _ := a.api("POST", "/api/v1/submissions/"+id+"/activate", nil, ""); code != 200 {
		t.Fatalf("activate: %d %v", code, out)
	}
	check("an active version", true, "house bot easy")
}
