package portal_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/portal"
)

// The judge's binaries for contestants: each contest's "the judge" page lists what the
// downloads directory's SHA256SUMS names, and the portal serves those files and nothing else
// there (not a file beside them, not a name that climbs out); without a directory the page
// says where else to get the judge.
func TestTheJudgeForContestants(t *testing.T) {
	dir := t.TempDir()
	sum := strings.Repeat("ab", 32)
	files := map[string]string{"judge-v1.2-linux-amd64": "ELF linux", "judge-v1.2-darwin-arm64": "Mach-O", "judge-v1.2-windows-amd64.exe": "PE", "secret": "the organiser's", "SHA256SUMS": sum + "  judge-v1.2-linux-amd64\n" +
		sum + "  judge-v1.2-darwin-arm64\n" + sum + "  judge-v1.2-windows-amd64.exe\n" + sum + "  ../judge-x-linux-amd64\n" + sum + "  secret\n"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := newEnv(t, func(o *portal.Options) { o.Downloads = dir })
	e.contest("spring", nil)
	ann := e.user("spring", "ann", false)
	code, page := ann.get("/c/spring/judge")
	if code != 200 || !strings.Contains(page, `href="/downloads/judge-v1.2-linux-amd64"`) || !strings.Contains(page, `href="/downloads/judge-v1.2-darwin-arm64"`) ||
		!strings.Contains(page, `<td>windows amd64</td><td><a href="/downloads/judge-v1.2-windows-amd64.exe"`) ||
		strings.Contains(page, "secret") || strings.Contains(page, "judge-x") || !strings.Contains(page, "judge contest login http://127.0.0.1:8090/c/spring/") {
		t.Errorf("the page: %d\n%s", code, page)
	}
	if !strings.Contains(page, "judge play --local --game amazes") {
		t.Errorf("the page does not say how to test a bot of the contest's game:\n%s", page)
	}
	for _, tc := range []struct {
		path string
		code int
		body string
	}{
		{"/downloads/judge-v1.2-linux-amd64", 200, "ELF linux"},
		{"/downloads/judge-v1.2-darwin-arm64", 200, "Mach-O"},
		{"/downloads/judge-v1.2-windows-amd64.exe", 200, "PE"},
		{"/downloads/secret", 404, "no such download"},
		{"/downloads/SHA256SUMS", 404, "no such download"},
		{"/downloads/..%2fjudge-x-linux-amd64", 404, ""},
	} {
		resp, err := http.Get(e.srv.URL + tc.path) // no login: the judge is no secret
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code || !strings.Contains(string(b), tc.body) {
			t.Errorf("%s: %d %q; want %d %q", tc.path, resp.StatusCode, b, tc.code, tc.body)
		}
		if tc.code == 200 && !strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
			t.Errorf("%s: Content-Disposition %q", tc.path, resp.Header.Get("Content-Disposition"))
		}
	}

	bare := newEnv(t)
	bare.contest("spring", nil)
	if _, page := bare.user("spring", "bob", false).get("/c/spring/judge"); !strings.Contains(page, `data-testid="no-downloads"`) {
		t.Errorf("without downloads:\n%s", page)
	}
}

// The games' rules pages are the portal's too, to anyone (a match's viewer links its game's),
// served with a policy that runs nothing.
func TestRulesPages(t *testing.T) {
	e := newEnv(t)
	resp, err := http.Get(e.srv.URL + "/rules/langwars")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "<h1>Lang Wars</h1>") || !strings.HasPrefix(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("/rules/langwars: %d %q\n%.300s", resp.StatusCode, resp.Header.Get("Content-Security-Policy"), page)
	}
	if resp, err := http.Get(e.srv.URL + "/rules/nothing"); err != nil || resp.StatusCode != 404 {
		t.Errorf("/rules/nothing: %v %v", resp.Status, err)
	}
}
