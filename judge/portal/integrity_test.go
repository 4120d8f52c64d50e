package portal_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/view/browsertest"
)

// renamed is src with every word of four letters or more that is no C++ keyword or library
// name renamed: a copy disguised.
func renamed(src string) string {
	keep := map[string]bool{"include": true, "using": true, "namespace": true, "return": true, "while": true, "break": true, "const": true,
		"continue": true, "struct": true, "static": true, "vector": true, "string": true, "bool": true, "true": true, "false": true, "void": true,
		"auto": true, "char": true, "long": true, "double": true, "else": true, "iostream": true, "size": true, "push_back": true, "main": true}
	return regexp.MustCompile(`\b[A-Za-z_][A-Za-z_0-9]{3,}\b`).ReplaceAllStringFunc(src, func(w string) string {
		if keep[w] {
			return w
		}
		return "q" + strings.ToUpper(w[:1]) + w[1:] + "X"
	})
}

// integrityContest is a contest of four contestants: ann's program, bob's copy of it with
// every name changed (a line of markup in a passage they share), cat's and dan's each the
// starter changed a little (dan's second version with a file that is not text).
func integrityContest(t *testing.T) (*env, *client, map[string]*client) {
	t.Helper()
	e := newEnv(t)
	e.contest("spring", nil)
	org := e.user("spring", "org", true)
	original, err := os.ReadFile(filepath.Join("..", "..", "bots", "ontherun", "cpp", "bot.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	starter, err := os.ReadFile(filepath.Join("..", "..", "bots", "amazes", "cpp", "bot.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	// (The fake judge holds a build whose source says "hold".)
	starter = bytes.ReplaceAll(starter, []byte("hold"), []byte("keep"))
	// A line of markup in the middle of the program, in a passage they share.
	lines := strings.SplitAfter(string(original), "\n")
	withMarkup := strings.Join(lines[:len(lines)/2], "") + "// <script>alert(1)</script>\n" + strings.Join(lines[len(lines)/2:], "")
	src := map[string]string{
		"ann": withMarkup,
		"bob": renamed(withMarkup),
		"cat": string(starter) + "\nint helperOne(int a) { return a * 2 + 1; }\n",
		"dan": strings.Replace(string(starter), "int main", "static int counted = 0;\nint main", 1),
	}
	cs := map[string]*client{}
	for _, login := range []string{"ann", "bob", "cat", "dan"} {
		cs[login] = e.user("spring", login, false)
		cs[login].activeVersion("spring", src[login])
	}
	if code, out := cs["dan"].upload("spring", map[string]string{"main.cpp": src["dan"], "blob.cpp": "\x00\x01\x02 not text"}); code != 202 {
		t.Fatalf("a version with a file that is not text: %d %v", code, out)
	}

	return e, org, cs
}

// The integrity check: two contestants whose versions are one program renamed are found, with
// their passages side by side (a source's markup kept text); two who each changed the starter
// bot are not (the starter left out); a file that is not text is left out with a note. An
// organiser confirms the pair and leaves the copy out of the official round, which the
// organisers' log records and the round keeps to; a contestant finds none of it (404).
func TestIntegrityCheck(t *testing.T) {
	t.Parallel()
	_, org, cs := integrityContest(t)
	var s api.Similarity
	if code, _, _ := org.api("GET", "/api/v1/contests/spring/similar?all=1", nil, ""); code != 200 {
		t.Fatalf("the check: %d", code)
	}
	org.apiJSON("/api/v1/contests/spring/similar?all=1", &s)
	if len(s.Pairs) == 0 || s.Pairs[0].A != "ann" || s.Pairs[0].B != "bob" || s.Pairs[0].Score < 0.9 || len(s.Pairs[0].Regions) == 0 {
		t.Fatalf("the pairs: %+v", s.Pairs)
	}
	for _, p := range s.Pairs[1:] {
		if p.Score > 0.3 {
			t.Errorf("%s and %s score %.2f; only ann and bob are copies (cat and dan each changed the starter)", p.A, p.B, p.Score)
		}
	}
	if s.Versions != 5 || !slices.ContainsFunc(s.Notes, func(n string) bool { return strings.Contains(n, "blob.cpp left out: not text") }) {
		t.Errorf("%d versions compared, notes %q", s.Versions, s.Notes)
	}

	// A contestant finds none of it.
	for _, path := range []string{"/c/spring/admin/similar", "/c/spring/admin/similar/ann/bob"} {
		if code, _ := cs["ann"].get(path); code != 404 {
			t.Errorf("ann opens %s: %d", path, code)
		}
	}
	if code, _, _ := cs["bob"].api("GET", "/api/v1/contests/spring/similar", nil, ""); code != 404 {
		t.Errorf("bob reads the check: %d", code)
	}
	if code, _, _ := cs["bob"].api("PUT", "/api/v1/contests/spring/similar/ann/bob", strings.NewReader(`{"verdict": "cleared"}`), "application/json"); code != 404 {
		t.Errorf("bob clears himself: %d", code)
	}

	// The organiser's pages: the pairs, and the pair's passages side by side, markup as text.
	code, page := org.get("/c/spring/admin/similar")
	if code != 200 || !strings.Contains(page, `href="/c/spring/admin/similar/ann/bob"`) {
		t.Fatalf("the check's page: %d", code)
	}
	code, page = org.get("/c/spring/admin/similar/ann/bob")
	if code != 200 || !strings.Contains(page, `data-testid="side-a"`) || !strings.Contains(page, `data-testid="side-b"`) {
		t.Fatalf("the pair's page: %d", code)
	}
	if strings.Contains(page, "<script>alert(1)") || !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("a source's markup is not kept as text on the pair's page")
	}
	// Confirmed, and the copy left out of the official round.
	if code, _ := org.post("/c/spring/admin/similar/ann/bob", url.Values{"verdict": {"confirmed"}, "exclude": {"bob"}}, true); code != 200 && code != 303 {
		t.Fatalf("the verdict: %d", code)
	}
	org.apiJSON("/api/v1/contests/spring/similar", &s)
	if s.Pairs[0].Verdict != "confirmed" || fmt.Sprint(s.Excluded) != "[bob]" {
		t.Errorf("after the verdict: %q, excluded %v", s.Pairs[0].Verdict, s.Excluded)
	}
	if code, _, _ := org.api("PUT", "/api/v1/contests/spring/similar/ann/bob", strings.NewReader(`{"verdict": "guilty"}`), "application/json"); code != 400 {
		t.Errorf("a verdict of no kind: %d", code)
	}
	if code, _, _ := org.api("PUT", "/api/v1/contests/spring/similar/ann/bob", strings.NewReader(`{"verdict": "confirmed", "exclude": ["cat"]}`), "application/json"); code != 400 {
		t.Errorf("leaving out one not of the pair: %d", code)
	}
	var log struct {
		Actions []struct{ What string }
	}
	org.apiJSON("/api/v1/contests/spring/actions", &log)
	var said []string
	for _, a := range log.Actions {
		said = append(said, a.What)
	}
	if all := strings.Join(said, "|"); !strings.Contains(all, "integrity: marked confirmed: ann and bob") || !strings.Contains(all, "integrity: left bob out of the official round") {
		t.Errorf("the organisers' log: %q", said)
	}
	body, _ := json.Marshal(map[string]any{"deadline": time.Now().Add(-time.Second).Format(time.RFC3339)})
	if code, out, _ := org.api("PUT", "/api/v1/contests/spring/settings", bytes.NewReader(body), "application/json"); code != 200 {
		t.Fatalf("the deadline: %d %v", code, out)
	}
	code, out, _ := org.api("POST", "/api/v1/contests/spring/rounds", strings.NewReader(`{"kind": "official"}`), "application/json")
	if code != 202 {
		t.Fatalf("the official round: %d %v", code, out)
	}
	var entrants []string
	for _, en := range out["entrants"].([]any) {
		if l := en.(map[string]any)["login"].(string); !strings.HasPrefix(l, "house:") {
			entrants = append(entrants, l)
		}
	}
	if slices.Sort(entrants); fmt.Sprint(entrants) != "[ann cat dan]" {
		t.Errorf("the official round entered %v; want all but bob", entrants)
	}
}

// The integrity check's pages in Chromium: the organiser page links it, the pairs are ranked
// with a bar each, a pair's page shows the passages side by side with a source's markup as
// text (nothing of it runs), and a verdict taken there is shown.
func TestIntegrityInChromium(t *testing.T) {
	t.Parallel()
	e, _, _ := integrityContest(t)
	b := browsertest.New(t)
	e.logIn(t, b, "org")
	b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/admin"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=integrity-link]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=integrity-link]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=pairs]`)))
	first := browsertest.Get(t, b, chromedp.Text(chromedp.CSS(`[data-testid=pair] [data-testid=pair-link]`)))
	if first != "ann and bob" {
		t.Errorf("the first pair: %q", first)
	}
	b.Screenshot(t, "portal-integrity.png")
	b.Do(t, chromedp.Click(chromedp.CSS(`[data-testid=pair-link]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=passage]`)))
	sides := browsertest.Get(t, b, chromedp.Evaluate[[]int](`[...document.querySelectorAll("[data-testid=passage]")].map((p) => p.querySelectorAll("pre").length)`))
	if len(sides) == 0 || sides[0] != 2 {
		t.Errorf("the passages' sides: %v; want two a passage", sides)
	}
	browsertest.CheckInert(t, b, 0, "<script>alert(1)</script>")
	b.Screenshot(t, "portal-integrity-pair.png")
	b.Do(t, chromedp.Click(chromedp.CSS(`[data-testid=confirm]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=verdict]`)))
	if v := browsertest.Get(t, b, chromedp.Text(chromedp.CSS(`[data-testid=verdict]`))); v != "confirmed" {
		t.Errorf("the verdict shown: %q", v)
	}
	b.CheckLocal(t)
}
