package portal_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/contest/store"
)

// Uploads past the contest's hourly quota are 429 with Retry-After, counted across every
// portal; another contestant's are not, nor an organiser's.
func TestUploadQuota(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", func(c *store.Contest) { c.UploadQuota = 3 })
	ann, bob, org := e.user("spring", "ann", false), e.user("spring", "bob", false), e.user("spring", "org", true)
	for i := range 3 {
		if code, out := ann.upload("spring", map[string]string{"main.cpp": fmt.Sprintf("int main() { /* %d */ }", i)}); code != 202 {
			t.Fatalf("upload %d: %d %v", i+1, code, out)
		}
	}
	// The fourth, through this portal and through another on the same store.
	_, second := newPortal(t, e.q, nil)
	other := httptest.NewServer(second)
	defer other.Close()
	for _, base := range []string{e.srv.URL, other.URL} {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		w, _ := mw.CreateFormFile("files", "main.cpp")
		io.WriteString(w, "int main() { /* 4 */ }")
		mw.Close()
		req, _ := http.NewRequest("POST", base+"/api/v1/contests/spring/submissions", &buf)
		req.Header.Set("Authorization", "Bearer "+ann.token)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 429 || !retrySeconds(resp.Header.Get("Retry-After"), 3600) ||
			!strings.Contains(string(body), `"quota"`) || !strings.Contains(string(body), "upload quota") {
			t.Errorf("the fourth upload at %s: %d %s, Retry-After %q", base, resp.StatusCode, body, resp.Header.Get("Retry-After"))
		}
	}
	if code, out := bob.upload("spring", map[string]string{"main.cpp": "int main() {}"}); code != 202 {
		t.Errorf("bob's first upload: %d %v", code, out)
	}
	for i := range 4 {
		if code, out := org.upload("spring", map[string]string{"main.cpp": fmt.Sprintf("int main() { /* org %d */ }", i)}); code != 202 {
			t.Errorf("the organiser's upload %d: %d %v", i+1, code, out)
		}
	}
}

// One contestant who uploads forty versions at once does not delay another's, nor a round:
// each contestant has one build or validation with the judges at a time, so bob's upload
// and a test competition asked for after ann's forty are judged after at most a few more
// of her jobs, and hers are all judged in the end, in the order she uploaded them.
func TestOneContestantCannotFloodTheJudges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", func(c *store.Contest) { c.UploadQuota = 100 })
	ann, bob, cat := e.user("spring", "ann", false), e.user("spring", "bob", false), e.user("spring", "cat", false)
	org := e.user("spring", "org", true)
	bob.activeVersion("spring", "int main() { /* bob 1 */ }")
	cat.activeVersion("spring", "int main() { /* cat 1 */ }")
	// The judges are slow while she uploads, so that most of her jobs are still to judge
	// when bob asks (else the order would prove nothing), and quick after.
	e.slow.Store(int64(200 * time.Millisecond))
	var anns []string
	for i := range 40 {
		code, out := ann.upload("spring", map[string]string{"main.cpp": fmt.Sprintf("int main() { /* %d */ }", i)})
		if code != 202 {
			t.Fatalf("ann's upload %d: %d %v", i+1, code, out)
		}
		anns = append(anns, out["id"].(string))
	}
	// What counts is how many of ann's jobs go before bob's once he has asked: on a loaded
	// machine her forty uploads take long enough for the judges to work through some of
	// them before he does.
	bobAsked := len(e.takenJobs())
	if bobAsked > len(anns) {
		t.Fatalf("%d of ann's %d jobs were judged before bob asked: the order after proves nothing", bobAsked, 2*len(anns))
	}
	e.slow.Store(int64(20 * time.Millisecond))
	code, out := bob.upload("spring", map[string]string{"main.cpp": "int main() { /* bob 2 */ }"})
	if code != 202 {
		t.Fatalf("bob's upload: %d %v", code, out)
	}
	bobs := out["id"].(string)
	roundAsked := len(e.takenJobs())
	code, out, _ = org.api("POST", "/api/v1/contests/spring/rounds", strings.NewReader(`{"kind": "test"}`), "application/json")
	if code != 202 {
		t.Fatalf("a test competition: %d %v", code, out)
	}
	round := out["id"].(string)
	bob.waitStatus(bobs, "ready")
	if r := bob.waitRound(round); r["status"] != "done" {
		t.Fatalf("the round: %v", r)
	}
	taken := e.takenJobs()
	annsBefore := func(job string) int {
		from := bobAsked
		if strings.HasPrefix(job, round) {
			from = roundAsked
		}
		n := 0
		for _, id := range taken[from:slices.Index(taken, job)] {
			if slices.ContainsFunc(anns, func(a string) bool { return strings.HasPrefix(id, a) }) {
				n++
			}
		}
		return n
	}
	if n := annsBefore(bobs + "v"); n > 4 {
		t.Errorf("%d of ann's jobs were judged after bob's upload and before his validation: %v", n, taken[bobAsked:])
	}
	if n := annsBefore(round + "-1-1"); n > 6 {
		t.Errorf("%d of ann's jobs were judged after the round was asked for and before its match: %v", n, taken[roundAsked:])
	}
	ann.waitStatusFor(anns[len(anns)-1], time.Minute, "ready")
	var builds []string
	for _, id := range e.takenJobs() {
		if b, ok := strings.CutSuffix(id, "-build"); ok && slices.Contains(anns, b) {
			builds = append(builds, b)
		}
	}
	if !slices.Equal(builds, anns) {
		t.Errorf("ann's builds were taken in the order %v, not her uploads' %v", builds, anns)
	}
}
