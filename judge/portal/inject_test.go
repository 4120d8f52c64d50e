package portal_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/botjudge/judge/judge/view/browsertest"
)

// hostile are strings that run code wherever a page writes them as markup (a file name
// cannot hold '/', so none has a closing tag).
var hostile = []string{
	`"><img src=x onerror="window.__pwned=1">`,
	`<svg onload="window.__pwned=2">`,
	`'><iframe srcdoc="&lt;script&gt;parent.__pwned=3&lt;">`,
	`<script>window.__pwned=4<`,
	`<a href="javascript:window.__pwned=5" id=x>x<`,
}

// Markup in every string a contestant controls - file names, sources the compiler quotes,
// what the bot prints - is shown as text on every page, in Chromium, and nothing planted
// runs. (Contest names and logins cannot hold markup: store.ValidName.)
func TestPlantedMarkupStaysTextInChromium(t *testing.T) {
	t.Parallel()
	b := browsertest.New(t)
	opened := b.WatchDialogs(t)
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)

	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	var names []string
	for i, h := range hostile {
		name := "x" + string(rune('0'+i)) + h + ".cpp"
		names = append(names, name)
		w, _ := mw.CreateFormFile("files", name)
		io.WriteString(w, "// echo "+h+"\nint main() {}\n")
	}
	mw.Close()
	code, out, _ := a.api("POST", "/api/v1/contests/spring/submissions", &buf, mw.FormDataContentType())
	if code != 202 {
		t.Fatalf("the upload: %d %v", code, out)
	}
	sub := a.waitStatus(out["id"].(string), "ready")
	match := sub["validation"].(map[string]any)["match"].(string)

	// The browser logs in with alice's password (set by her invite).
	b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/login"),
		chromedp.SendKeys(chromedp.CSS(`input[name=login]`), "alice"),
		chromedp.SendKeys(chromedp.CSS(`input[name=password]`), "password of alice"),
		chromedp.Submit(chromedp.CSS(`input[name=password]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=me]`)))
	for _, page := range []struct {
		path string
		want []string
	}{
		{"/c/spring/s/" + sub["id"].(string), append(append([]string{}, names...), hostile...)},
		{"/c/spring/m/" + match, hostile},
		{"/c/spring/", []string{"v1"}},
	} {
		t.Run(strings.ReplaceAll(page.path, "/", "_"), func(t *testing.T) {
			b.Do(t, chromedp.Navigate(e.srv.URL+page.path), chromedp.WaitVisible(chromedp.CSS(`[data-testid=me]`)))
			browsertest.CheckInert(t, b, 0, page.want...)
			if n := browsertest.Get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("svg, a#x").length`)); n > 0 {
				t.Errorf("%d planted elements", n)
			}
		})
	}
	if n := opened(); n > 0 {
		t.Errorf("%d dialogs opened", n)
	}
	b.CheckLocal(t)
}
