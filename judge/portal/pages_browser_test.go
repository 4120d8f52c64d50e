package portal_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/view/browsertest"
)

// spilling lists the status badges on the page that are not small badges inside their
// table rows: a border of a box of their own, or their box beyond their row's.
const spilling = `[...document.querySelectorAll("table [data-testid=status]")].flatMap((s) => {
  const r = s.getBoundingClientRect(), row = s.closest("tr").getBoundingClientRect(), cs = getComputedStyle(s);
  return r.top < row.top || r.bottom > row.bottom || cs.borderTopWidth !== "0px" ?
    [s.innerText + ": " + JSON.stringify({top: r.top, bottom: r.bottom, rowTop: row.top, rowBottom: row.bottom, border: cs.borderTopWidth})] : [];
})`

// The portal's pages in Chromium, as contestants and organisers found them wrong (#37): a
// deep link survives the login; a match's status is a small badge inside its row, not the
// flash box; the viewer opens at the match's first step, with a link back to its page.
func TestPagesInChromium(t *testing.T) {
	t.Parallel()
	b := browsertest.New(t)
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	a.ready("spring", "int main() {}")
	body, _ := json.Marshal(map[string]any{"opponents": []string{"house:easy"}})
	code, out, _ := a.api("POST", "/api/v1/contests/spring/matches", bytes.NewReader(body), "application/json")
	if code != 202 {
		t.Fatalf("test match: %d %v", code, out)
	}
	match := out["id"].(string)
	a.waitMatch(match)

	// A link to the match, opened logged out, leads there once logged in.
	b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/m/"+match), chromedp.WaitVisible(chromedp.CSS(`input[name=login]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name=login]`), "alice"),
		chromedp.SendKeys(chromedp.CSS(`input[name=password]`), "password of alice"),
		chromedp.Submit(chromedp.CSS(`input[name=password]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=me]`)))
	if at := browsertest.Get(t, b, chromedp.Evaluate[string](`location.pathname`)); at != "/c/spring/m/"+match {
		t.Errorf("logged in at %s, want the match's page", at)
	}

	b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=matches]`)))
	if s := browsertest.Get(t, b, chromedp.Evaluate[string](`document.querySelector("[data-testid=matches] [data-testid=status]").innerText`)); s != "ok" {
		t.Errorf("the test match's status: %q", s)
	}
	if bad := browsertest.Get(t, b, chromedp.Evaluate[[]string](spilling)); len(bad) > 0 {
		t.Errorf("status badges spill over their rows: %s", strings.Join(bad, "; "))
	}

	// The viewer, opened from the match's page, starts at the first step and leads back.
	replay, err := os.ReadFile("../view/testdata/amazes.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.q.PutObject(t.Context(), queue.BucketReplays, match+".jsonl", bytes.NewReader(replay)); err != nil {
		t.Fatal(err)
	}
	b.Do(t, chromedp.Navigate(e.srv.URL+"/c/spring/m/"+match), chromedp.Click(chromedp.CSS(`[data-testid=view]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=step]`)))
	step := browsertest.Get(t, b, chromedp.Evaluate[[]int](`[+document.querySelector("[data-testid=step]").dataset.step, +document.querySelector("[data-testid=slider]").max]`))
	if step[0] != 0 || step[1] < 100 {
		t.Errorf("the viewer opens at step %d of %d, want the first", step[0], step[1])
	}
	b.Do(t, chromedp.Click(chromedp.CSS(`[data-testid=back-link]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=reproduce]`)))
	if at := browsertest.Get(t, b, chromedp.Evaluate[string](`location.pathname`)); at != "/c/spring/m/"+match {
		t.Errorf("the viewer's link back leads to %s, want the match's page", at)
	}
	b.CheckLocal(t)
}
