package portal_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/portal/upload"
)

// Organisers add people and change the settings, by the API and the organiser page;
// contestants may do neither; a deadline past closes submissions.
func TestOrganisers(t *testing.T) {
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
