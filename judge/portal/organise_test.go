package portal_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/portal/upload"
)

// Organisers add people and change the settings, by the API and the organiser page;
// contestants may do neither; a deadline past closes submissions.
func TestOrganisers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	o := e.user("spring", "olga", true)
	a := e.user("spring", "alice", false)

	code, out, _ := o.api("POST", "/api/v1/contests/spring/users", strings.NewReader(`{"login":"bob"}`), "application/json")
	if code != 201 || out["login"] != "bob" || !strings.HasPrefix(out["token"].(string), "jt_") || !strings.Contains(out["invite"].(string), "/invite/inv_") {
		t.Errorf("adding bob: %d %v", code, out)
	}
	if code, _, _ := a.api("POST", "/api/v1/contests/spring/users", strings.NewReader(`{"login":"mallory","organiser":true}`), "application/json"); code != 403 {
		t.Errorf("a contestant adds a user: %d, want 403", code)
	}
	if code, _, _ := a.api("PUT", "/api/v1/contests/spring/settings", strings.NewReader(`{"test_quota":1000}`), "application/json"); code != 403 {
		t.Errorf("a contestant changes the settings: %d, want 403", code)
	}
	if code, out, _ := o.api("PUT", "/api/v1/contests/spring/settings", strings.NewReader(`{"deadline":"soon"}`), "application/json"); code != 400 {
		t.Errorf("a bad deadline: %d %v", code, out)
	}
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	if code, out, _ := o.api("PUT", "/api/v1/contests/spring/settings", strings.NewReader(`{"deadline":"`+past+`","peer_matches":true}`), "application/json"); code != 200 || out["deadline"] != past || out["peer_matches"] != true {
		t.Errorf("the settings: %d %v", code, out)
	}
	if code, out := a.upload("spring", map[string]string{"main.cpp": "int main(){}"}); code != 403 || !strings.Contains(mustJSON(out), "closed") {
		t.Errorf("an upload after the deadline: %d %v", code, out)
	}
	if code, out, _ := a.api("GET", "/api/v1/contests/spring", nil, ""); code != 200 || out["game"] != "amazes" || strings.Contains(mustJSON(out), "source") {
		t.Errorf("the contest as alice sees it: %d %v", code, out)
	}
	// The same from the organiser page.
	if code, page := o.post("/c/spring/admin/users", url.Values{"login": {"carol"}}, true); code != 200 || !strings.Contains(page, "/invite/inv_") {
		t.Errorf("adding carol on the page: %d", code)
	}
	if code, _ := a.post("/c/spring/admin/users", url.Values{"login": {"dave"}}, true); code != 403 {
		t.Errorf("alice on the organiser's form: %d, want 403", code)
	}
	if code, _ := o.post("/c/spring/admin/settings", url.Values{"deadline": {""}, "test_quota": {"7"}}, true); code != 200 {
		t.Errorf("the settings form: %d", code)
	}
	if code, out := a.upload("spring", map[string]string{"main.cpp": "int main(){}"}); code != 202 {
		t.Errorf("an upload once the deadline is lifted: %d %v", code, out)
	}
}

// An organiser adds a house bot; contestants download house bots only once published.
func TestHouseBots(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	o := e.user("spring", "olga", true)
	a := e.user("spring", "alice", false)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("name", "hard")
	w, _ := mw.CreateFormFile("files", "hard.cpp")
	io.WriteString(w, "int main() { /* the hard one */ }")
	mw.Close()
	code, out, _ := o.api("POST", "/api/v1/contests/spring/house", bytes.NewReader(buf.Bytes()), mw.FormDataContentType())
	if code != 201 || !strings.Contains(mustJSON(out["house"]), "hard") {
		t.Fatalf("adding a house bot: %d %v", code, out)
	}
	if code, _, _ := o.api("POST", "/api/v1/contests/spring/house", bytes.NewReader(buf.Bytes()), mw.FormDataContentType()); code != 409 {
		t.Errorf("the same house bot twice: %d", code)
	}
	if code, _, _ := a.api("POST", "/api/v1/contests/spring/house", bytes.NewReader(buf.Bytes()), mw.FormDataContentType()); code != 403 {
		t.Errorf("a contestant adds a house bot: %d", code)
	}
	if code, _ := a.get("/c/spring/house/hard.tar.gz"); code != 403 {
		t.Errorf("an unpublished house bot: %d, want 403", code)
	}
	o.api("PUT", "/api/v1/contests/spring/settings", strings.NewReader(`{"publish_house":true}`), "application/json")
	code, body := a.get("/c/spring/house/hard.tar.gz")
	if code != 200 {
		t.Fatalf("the published house bot: %d", code)
	}
	files, err := upload.Archive("hard.tar.gz", []byte(body), upload.Limits{Bytes: 1 << 20})
	if err != nil || !strings.Contains(string(files["hard.cpp"]), "the hard one") {
		t.Errorf("the house bot's archive: %v %v", files, err)
	}
}

// An organiser makes a new contest from the page or the API, and organises it with the same
// password; a contestant cannot.
func TestOrganiserMakesAContest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	o := e.user("spring", "olga", true)
	a := e.user("spring", "alice", false)
	if code, _, _ := a.api("POST", "/api/v1/contests", strings.NewReader(`{"name":"autumn","game":"amazes"}`), "application/json"); code != 403 {
		t.Errorf("a contestant makes a contest: %d, want 403", code)
	}
	for _, bad := range []string{`{"name":"Autumn!","game":"amazes"}`, `{"name":"autumn","game":"chess"}`,
		`{"name":"autumn","game":"amazes","options":{"turns":"999"}}`, `{"name":"autumn","game":"amazes","langs":["cobol"]}`} {
		if code, out, _ := o.api("POST", "/api/v1/contests", strings.NewReader(bad), "application/json"); code != 400 {
			t.Errorf("%s: %d %v, want 400", bad, code, out)
		}
	}
	code, out, _ := o.api("POST", "/api/v1/contests", strings.NewReader(`{"name":"autumn","game":"dropblock","test_quota":3}`), "application/json")
	if code != 201 || out["game"] != "dropblock" || out["test_quota"] != 3.0 {
		t.Fatalf("a new contest: %d %v", code, out)
	}
	if code, _, _ := o.api("POST", "/api/v1/contests", strings.NewReader(`{"name":"autumn","game":"amazes"}`), "application/json"); code != 409 {
		t.Errorf("the same contest twice: %d, want 409", code)
	}
	b := e.login(t, "autumn", "olga", "password of olga")
	if code, page := b.get("/c/autumn/admin"); code != 200 || !strings.Contains(page, "autumn · organiser") {
		t.Errorf("olga on autumn's organiser page: %d", code)
	}
	if code, page := o.post("/c/spring/admin/contests", url.Values{"name": {"winter"}, "game": {"amazes"}, "options": {"turns=50"}}, true); code != 200 || !strings.Contains(page, "winter is made") {
		t.Errorf("a contest from the page: %d", code)
	}
}

// Two portals on one NATS serve the same contest: an upload to one is read from the other,
// both follow the results, and the version is built and validated once.
func TestTwoPortals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	_, second := newPortal(t, e.q, slog.New(slog.DiscardHandler))
	go second.Engine().Run(t.Context())
	other := httptest.NewServer(second)
	defer other.Close()
	code, out := a.upload("spring", map[string]string{"main.cpp": "int main() {}"})
	if code != 202 {
		t.Fatalf("upload: %d %v", code, out)
	}
	id := out["id"].(string)
	a.waitStatus(id, "ready")
	req, _ := http.NewRequest("GET", other.URL+"/api/v1/submissions/"+id, nil)
	req.Header.Set("Authorization", "Bearer "+a.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var sub map[string]any
	json.NewDecoder(resp.Body).Decode(&sub)
	resp.Body.Close()
	if sub["status"] != "ready" {
		t.Errorf("the other portal reads %v", sub["status"])
	}
	// One build job and one validation match were judged, however many portals followed.
	time.Sleep(300 * time.Millisecond)
	seen := map[string]int{}
	for len(e.jobs) > 0 {
		seen[(<-e.jobs).ID]++
	}
	if len(seen) != 2 || seen[id+"-build"] != 1 || seen[id+"v"] != 1 {
		t.Errorf("jobs judged: %v; want the build and the validation once each", seen)
	}
}

// A closed contest is read-only and still viewable: no version, test match, setting, person
// or house bot more (403 closed, saying when), while its contest, versions and pages answer
// and say it is closed. A removed contestant's token and session no longer work.
func TestClosedContestAndRemovedUser(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	o := e.user("spring", "olga", true)
	a := e.user("spring", "alice", false)
	b := e.user("spring", "bob", false)
	code, up := a.upload("spring", map[string]string{"main.cpp": "int main(){}"})
	if code != 202 {
		t.Fatalf("an upload while open: %d %v", code, up)
	}
	if _, err := e.st.CloseContest(t.Context(), "spring"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		who          *client
		method, path string
		body         string
	}{
		{a, "POST", "/api/v1/contests/spring/matches", `{"opponents":["house:easy"]}`},
		{o, "PUT", "/api/v1/contests/spring/settings", `{"test_quota":5}`},
		{o, "POST", "/api/v1/contests/spring/users", `{"login":"carol"}`},
	} {
		code, out, _ := tc.who.api(tc.method, tc.path, strings.NewReader(tc.body), "application/json")
		if code != 403 || !strings.Contains(mustJSON(out), `"code":"closed"`) || !strings.Contains(mustJSON(out), "read-only") {
			t.Errorf("%s %s in a closed contest: %d %v; want 403 closed", tc.method, tc.path, code, out)
		}
	}
	if code, out := a.upload("spring", map[string]string{"main.cpp": "int main(){}"}); code != 403 || !strings.Contains(mustJSON(out), `"code":"closed"`) {
		t.Errorf("an upload to a closed contest: %d %v", code, out)
	}
	// Its rounds page offers no round to start.
	if code, page := o.get("/c/spring/rounds"); code != 200 || strings.Contains(page, `data-testid="start-round"`) || !strings.Contains(page, `data-testid="no-rounds"`) {
		t.Errorf("the closed contest's rounds page: %d, still offers to start a round: %v", code, strings.Contains(page, "start-round"))
	}
	if code, out, _ := a.api("GET", "/api/v1/contests/spring", nil, ""); code != 200 || out["closed_at"] == nil {
		t.Errorf("the closed contest: %d %v; want it, with closed_at", code, out)
	}
	if code, out, _ := a.api("GET", "/api/v1/submissions/"+up["id"].(string), nil, ""); code != 200 {
		t.Errorf("a version of the closed contest: %d %v", code, out)
	}
	for _, c := range []*client{a, o} {
		page := map[*client]string{a: "/c/spring/", o: "/c/spring/admin"}[c]
		if code, body := c.get(page); code != 200 || !strings.Contains(body, `data-testid="read-only"`) {
			t.Errorf("%s: %d; want it to say the contest is closed", page, code)
		}
	}

	if _, err := e.st.RemoveUser(t.Context(), "spring", "bob"); err != nil {
		t.Fatal(err)
	}
	if e.works(b.token) {
		t.Error("a removed contestant's token still works")
	}
	if code, body := b.get("/c/spring/"); code == 200 && strings.Contains(body, "bob") && strings.Contains(body, "Log out") {
		t.Errorf("a removed contestant's session still works: %d", code)
	}
}

// What organisers do is kept, who and when, and shown to the contest's organisers alone:
// newest first by the API and on the organiser page.
func TestOrganisersActionsAreKept(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	o := e.user("spring", "olga", true)
	a := e.user("spring", "alice", false)
	if code, out, _ := o.api("POST", "/api/v1/contests/spring/users", strings.NewReader(`{"login":"bob"}`), "application/json"); code != 201 {
		t.Fatalf("adding bob: %d %v", code, out)
	}
	if code, out, _ := o.api("PUT", "/api/v1/contests/spring/settings", strings.NewReader(`{"test_quota":3}`), "application/json"); code != 200 {
		t.Fatalf("the settings: %d %v", code, out)
	}
	if code, _ := o.post("/c/spring/admin/users", url.Values{"login": {"<b>carol</b>"}}, true); code != 400 {
		t.Errorf("a login of markup: %d, want 400", code)
	}
	code, out, _ := o.api("GET", "/api/v1/contests/spring/actions", nil, "")
	list, _ := out["actions"].([]any)
	if code != 200 || len(list) != 2 {
		t.Fatalf("the actions: %d %v; want the two done", code, out)
	}
	newest, oldest := list[0].(map[string]any), list[1].(map[string]any)
	if newest["who"] != "olga" || newest["what"] != `changed the settings: {"test_quota":3}` || oldest["what"] != "added contestant bob" || newest["at"] == nil {
		t.Errorf("the actions: %v", list)
	}
	if code, _, _ := a.api("GET", "/api/v1/contests/spring/actions", nil, ""); code != 403 {
		t.Errorf("a contestant reads the organisers' actions: %d, want 403", code)
	}
	e.contest("autumn", nil)
	otto := e.user("autumn", "otto", true)
	if code, _, _ := otto.api("GET", "/api/v1/contests/spring/actions", nil, ""); code != 404 {
		t.Errorf("another contest's organiser reads spring's actions: %d, want 404", code)
	}
	if code, _, _ := otto.api("DELETE", "/api/v1/contests/spring/users/alice", nil, ""); code != 404 {
		t.Errorf("another contest's organiser removes spring's alice: %d, want 404", code)
	}
	if code, page := o.get("/c/spring/admin"); code != 200 || !strings.Contains(page, `data-testid="actions"`) || !strings.Contains(page, "added contestant bob") {
		t.Errorf("the organiser page's actions: %d", code)
	}
}

// Organisers reset and remove people and close the contest from the API and their page, as
// the command line does; never themselves; a contestant may do none of it; each is kept in
// the organisers' actions.
func TestOrganisersManagePeopleAndClose(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	o := e.user("spring", "olga", true)
	a := e.user("spring", "alice", false)
	b := e.user("spring", "bob", false)
	for _, tc := range []struct {
		who          *client
		method, path string
		code         int
	}{
		{a, "POST", "/api/v1/contests/spring/users/bob/reset", 403},
		{a, "DELETE", "/api/v1/contests/spring/users/bob", 403},
		{a, "POST", "/api/v1/contests/spring/close", 403},
		{o, "POST", "/api/v1/contests/spring/users/olga/reset", 409},
		{o, "DELETE", "/api/v1/contests/spring/users/olga", 409},
		{o, "DELETE", "/api/v1/contests/spring/users/zed", 404},
	} {
		if code, out, _ := tc.who.api(tc.method, tc.path, nil, ""); code != tc.code {
			t.Errorf("%s %s by %s: %d %v, want %d", tc.method, tc.path, tc.who.login, code, out, tc.code)
		}
	}
	code, out, _ := o.api("POST", "/api/v1/contests/spring/users/alice/reset", nil, "")
	if code != 200 || !strings.Contains(mustJSON(out), "/invite/inv_") || e.works(a.token) {
		t.Errorf("olga resets alice: %d %v; alice's token works after: %v", code, out, e.works(a.token))
	}
	if code, page := o.post("/c/spring/admin/users/bob/remove", url.Values{}, true); code != 200 || !strings.Contains(page, "Removed bob") || e.works(b.token) {
		t.Errorf("olga removes bob on her page: %d; bob's token works after: %v", code, e.works(b.token))
	}
	if _, page := o.get("/c/spring/admin"); !strings.Contains(page, "<td>bob</td><td>contestant</td><td>removed</td>") {
		t.Errorf("the people after bob's removal: %s", page)
	}
	if code, page := o.post("/c/spring/admin/close", url.Values{"confirm": {"sprung"}}, true); code != 400 || !strings.Contains(page, "type the contest&#39;s name") {
		t.Errorf("closing without its name typed: %d", code)
	}
	if code, page := o.post("/c/spring/admin/close", url.Values{"confirm": {"spring"}}, true); code != 200 || !strings.Contains(page, `data-testid="read-only"`) {
		t.Errorf("closing with its name typed: %d", code)
	}
	if ct, err := e.st.Contest(t.Context(), "spring"); err != nil || !ct.ReadOnly() {
		t.Errorf("the contest after closing: %+v %v", ct, err)
	}
	_, out, _ = o.api("GET", "/api/v1/contests/spring/actions", nil, "")
	if raw := mustJSON(out); !strings.Contains(raw, "closed the contest") || !strings.Contains(raw, "removed bob") || !strings.Contains(raw, "reset alice") {
		t.Errorf("the actions: %s", raw)
	}
}
