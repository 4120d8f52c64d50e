package portal_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// A test match whose replay the judge has let expire: the API answers 404 replay_expired and
// the match's page says so instead of offering to play it; the validation match's replay, of
// the main lane, stays.
func TestExpiredReplay(t *testing.T) {
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	_, validation := a.ready("spring", "int main() {}")
	body, _ := json.Marshal(map[string]any{"opponents": []string{"house:easy"}})
	code, out, _ := a.api("POST", "/api/v1/contests/spring/matches", bytes.NewReader(body), "application/json")
	if code != 202 {
		t.Fatalf("test match: %d %v", code, out)
	}
	test := out["id"].(string)
	a.waitMatch(test)
	if ex, err := e.q.ExpireReplays(t.Context(), time.Now().Add(time.Hour), false); err != nil || ex.Count != 1 {
		t.Fatalf("expiring: %+v, %v; want the test match's replay", ex, err)
	}

	code, out, _ = a.api("GET", "/api/v1/matches/"+test+"/replay", nil, "")
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
