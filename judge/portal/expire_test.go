package portal_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/contest/store"
)

// testMatchPlayed is a portal whose contestant alice has a version validated and a test
// match played against a house bot.
func testMatchPlayed(t *testing.T) (e *env, alice *client, test, validation string) {
	t.Helper()
	e = newEnv(t)
	e.contest("spring", nil)
	alice = e.user("spring", "alice", false)
	_, validation = alice.ready("spring", "int main() {}")
	body, _ := json.Marshal(map[string]any{"opponents": []string{"house:easy"}})
	code, out, _ := alice.api("POST", "/api/v1/contests/spring/matches", bytes.NewReader(body), "application/json")
	if code != 202 {
		t.Fatalf("test match: %d %v", code, out)
	}
	test = out["id"].(string)
	alice.waitMatch(test)
	return e, alice, test, validation
}

// A test match whose replay the judge has let expire: the API answers 404 replay_expired and
// the match's page says so instead of offering to play it; the validation match's replay, of
// the main lane, stays.
func TestExpiredReplay(t *testing.T) {
	t.Parallel()
	e, a, test, validation := testMatchPlayed(t)
	if ex, err := e.q.Admin().ExpireReplays(t.Context(), time.Now().Add(time.Hour), false); err != nil || ex.Count != 1 {
		t.Fatalf("expiring: %+v, %v; want the test match's replay", ex, err)
	}

	code, out, _ := a.api("GET", "/api/v1/matches/"+test+"/replay", nil, "")
	if e, _ := out["error"].(map[string]any); code != 404 || e["code"] != "replay_expired" ||
		!strings.Contains(e["message"].(string), "the replay of this test match has expired") {
		t.Errorf("the expired replay: %d %v", code, out)
	}
	if code, out, _ := a.api("GET", "/api/v1/matches/"+test, nil, ""); code != 200 || out["result"] == nil {
		t.Errorf("the match's result: %d %v", code, out)
	}
	if code, out, _ := a.api("GET", "/api/v1/matches/"+validation+"/replay", nil, ""); code != 200 {
		t.Errorf("the validation match's replay: %d %v", code, out)
	}

	b := e.login(t, "spring", "alice", "password of alice")
	code, page := b.get("/c/spring/m/" + test)
	if code != 200 || !strings.Contains(page, "The replay of this test match has expired") || strings.Contains(page, `data-testid="view"`) {
		t.Errorf("the match page: %d\n%s", code, page)
	}
	if code, page := b.get("/c/spring/m/" + test + "/view"); code != 404 || !strings.Contains(page, "has expired") {
		t.Errorf("the viewer's page: %d\n%s", code, page)
	}
	if code, page := b.get("/c/spring/m/" + validation); code != 200 || !strings.Contains(page, `data-testid="view"`) || strings.Contains(page, "expired") {
		t.Errorf("the validation match's page: %d\n%s", code, page)
	}
}

// A test match whose record has expired with its result (judge serve's clean-up, which the
// portal's store picks for) is gone from the owner's list and its page, answered as not found;
// the validation match stays.
func TestExpiredMatch(t *testing.T) {
	t.Parallel()
	e, a, test, validation := testMatchPlayed(t)
	listed := func() string {
		t.Helper()
		code, out, _ := a.api("GET", "/api/v1/contests/spring/matches?mine=1", nil, "")
		if code != 200 {
			t.Fatalf("the list: %d %v", code, out)
		}
		var ids []string
		for _, m := range out["matches"].([]any) {
			ids = append(ids, m.(map[string]any)["id"].(string))
		}
		return strings.Join(ids, " ")
	}
	if got := listed(); !strings.Contains(got, test) || !strings.Contains(got, validation) {
		t.Fatalf("before: %s listed", got)
	}
	ex, err := e.q.Admin().ExpireKeys(t.Context(), "portal", store.MatchKeys, time.Now().Add(time.Hour), false, store.ExpirableMatch)
	if err != nil || ex.Count != 1 {
		t.Fatalf("expiring: %+v, %v; want the test match's record", ex, err)
	}
	if got := listed(); got != validation {
		t.Errorf("after: %s listed; want the validation match only", got)
	}
	if code, out, _ := a.api("GET", "/api/v1/matches/"+test, nil, ""); code != 404 {
		t.Errorf("the expired match: %d %v", code, out)
	}
	if code, out, _ := a.api("GET", "/api/v1/matches/"+validation, nil, ""); code != 200 || out["result"] == nil {
		t.Errorf("the validation match: %d %v", code, out)
	}
	b := e.login(t, "spring", "alice", "password of alice")
	if code, page := b.get("/c/spring/m/" + test); code != 404 {
		t.Errorf("the expired match's page: %d\n%s", code, page)
	}
	if code, page := b.get("/c/spring"); code != 200 || strings.Contains(page, test) {
		t.Errorf("the contest's page lists the expired match: %d", code)
	}
}
