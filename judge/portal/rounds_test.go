package portal_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/judge/tournament"
)

// waitRound polls a round until it is done.
func (c *client) waitRound(id string) map[string]any { return c.waitRoundFor(id, 30*time.Second) }

func standingsOf(round map[string]any) []string {
	var names []string
	for _, r := range round["outcome"].(map[string]any)["standings"].([]any) {
		names = append(names, r.(map[string]any)["name"].(string))
	}
	return names
}

// A test competition before the deadline and the official round after it, both from the
// API: the frozen active versions in a round robin, standings and matches public in the
// contest (each player's stderr its own), the set frozen at the deadline; and the official
// round exported as a tournament gives the same standings with the tournament engine on
// another judge.
func TestRounds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", func(c *store.Contest) { c.Deadline = time.Now().Add(time.Hour) })
	org := e.user("spring", "org", true)
	cs := map[string]*client{}
	for i, login := range []string{"ann", "bob", "cat", "dan"} {
		cs[login] = e.user("spring", login, false)
		cs[login].activeVersion("spring", fmt.Sprintf("int main() { /* strength %d */ }", i))
	}
	start := func(c *client, kind string) (int, map[string]any) {
		body, _ := json.Marshal(map[string]any{"kind": kind})
		code, out, _ := c.api("POST", "/api/v1/contests/spring/rounds", bytes.NewReader(body), "application/json")
		return code, out
	}
	if code, out := start(org, "official"); code != 409 || !strings.Contains(fmt.Sprint(out), "starts after the deadline, 20") || strings.Contains(fmt.Sprint(out), "set a deadline first") {
		t.Errorf("the official round before the deadline (set, in an hour): %d %v", code, out)
	}
	if code, out := start(cs["ann"], "test"); code != 403 {
		t.Errorf("a contestant starts a round: %d %v", code, out)
	}
	for _, bad := range []struct{ body, want string }{
		{`{"kind": "final"}`, `kind "final"`},
		{`{"kind": "test", "format": "chess"}`, "chess"},
		{`{"kind": "test", "rounds": -1}`, "rounds"},
		{`{"kind": "test", "seats": 2}`, "seats"},
		{`{"kind": "test", "until_separated": true, "top": 9}`, "top 9: the round has 4 entrants"},
		{`{"kind": "test", "confidence": 2}`, "confidence 2: want a number above 0.5 and below 1"},
		{`{"kind": "test", "budget": 50}`, "top and budget go with until_separated"},
	} {
		code, out, _ := org.api("POST", "/api/v1/contests/spring/rounds", strings.NewReader(bad.body), "application/json")
		if code != 400 || !strings.Contains(fmt.Sprint(out), bad.want) {
			t.Errorf("%s: %d %v, want 400 naming %q", bad.body, code, out, bad.want)
		}
	}
	bad, _ := json.Marshal(map[string]any{"test_rounds": []string{"tomorrow"}})
	if code, out, _ := org.api("PUT", "/api/v1/contests/spring/settings", bytes.NewReader(bad), "application/json"); code != 400 ||
		!strings.Contains(fmt.Sprint(out), "tomorrow") {
		t.Errorf("a bad test_rounds time: %d %v", code, out)
	}
	code, out := start(org, "test")
	if code != 202 || out["status"] != "running" || len(out["entrants"].([]any)) != 4 {
		t.Fatalf("a test competition: %d %v", code, out)
	}
	test := cs["ann"].waitRound(out["id"].(string))
	for _, en := range test["entrants"].([]any) {
		if en := en.(map[string]any); en["sub"] != nil || en["source"] != nil || len(en["sha256"].(string)) != 64 {
			t.Errorf("a contestant sees a frozen entrant as %v: no version ids or source keys of others, its hash", en)
		}
	}
	if got := strings.Join(standingsOf(test), " "); got != "dan cat bob ann" {
		t.Errorf("the test competition's standings: %s", got)
	}
	// Its matches are everyone's to watch, each player's stderr its own.
	// The standings say how sure they are, by API and on the page.
	outcome := test["outcome"].(map[string]any)
	if outcome["confidence"] != 0.95 {
		t.Errorf("the outcome's confidence %v, want 0.95", outcome["confidence"])
	}
	rows := outcome["standings"].([]any)
	for i, r := range rows {
		r := r.(map[string]any)
		rr, ok := r["rank_range"].([]any)
		next, has := r["above_next"]
		if !ok || len(rr) != 2 || rr[0].(float64) > r["rank"].(float64) || rr[1].(float64) < r["rank"].(float64) || !has || (next == nil) != (i == len(rows)-1) {
			t.Errorf("row %d: rank %v, rank_range %v, above_next %v", i, r["rank"], r["rank_range"], next)
		}
	}
	code, page := cs["ann"].get("/c/spring/rounds/" + test["id"].(string))
	if code != 200 || !strings.Contains(page, `data-testid="standings"`) || strings.Count(page, `data-testid="rank-range"`) != 4 || strings.Count(page, `data-testid="above-next"`) != 4 ||
		!strings.Contains(page, "at 95% confidence") {
		t.Fatalf("the round's page: %d, want the standings with each row's places and above the next, at 95%% confidence:\n%s", code, page)
	}
	var other string
	for _, m := range regexpAll(`/c/spring/m/(spring-t[0-9-]+)"`, page) {
		if _, m2, _ := org.api("GET", "/api/v1/matches/"+m, nil, ""); !strings.Contains(fmt.Sprint(m2["players"]), "ann") {
			other = m
			break
		}
	}
	if other == "" {
		t.Fatal("no match without ann on the round's page")
	}
	e.contest("autumn", nil)
	z := e.user("autumn", "zed", false)
	for _, route := range []string{"/api/v1/rounds/" + test["id"].(string), "/api/v1/contests/spring/rounds", "/api/v1/matches/" + other} {
		if code, _, _ := z.api("GET", route, nil, ""); code != 404 {
			t.Errorf("zed, of another contest, reads %s: %d", route, code)
		}
	}
	if code, _ := z.get("/c/spring/rounds/" + test["id"].(string)); code != 404 {
		t.Errorf("zed opens spring's round: %d", code)
	}
	if code, _ := cs["ann"].get("/c/spring/admin/rounds/" + test["id"].(string) + ".tar.gz"); code != 403 {
		t.Errorf("a contestant exports a round, with everyone's sources: %d", code)
	}
	code, m, _ := cs["ann"].api("GET", "/api/v1/matches/"+other, nil, "")
	if code != 200 || strings.Contains(mustJSON(m), "stderr of") {
		t.Errorf("ann watches %s, a match of others: %d %s", other, code, mustJSON(m))
	}

	// A test competition at a time the organiser set starts on its own.
	at := time.Now().Add(-time.Second).UTC().Truncate(time.Second)
	body, _ := json.Marshal(map[string]any{"test_rounds": []string{at.Format(time.RFC3339), "2099-01-01T00:00:00Z"}})
	if code, out, _ := org.api("PUT", "/api/v1/contests/spring/settings", bytes.NewReader(body), "application/json"); code != 200 {
		t.Fatalf("test_rounds: %d %v", code, out)
	}
	if got := strings.Join(standingsOf(cs["cat"].waitRound("spring-s"+at.Format("20060102-150405"))), " "); got != "dan cat bob ann" {
		t.Errorf("the scheduled test competition's standings: %s", got)
	}
	if rs, _ := e.st.Rounds(t.Context(), "spring"); len(rs) != 2 {
		t.Errorf("%d rounds, want the two test competitions so far", len(rs))
	}

	// The deadline: uploads and activations refused; the official round plays the frozen set.
	body, _ = json.Marshal(map[string]any{"deadline": time.Now().Add(-time.Second).Format(time.RFC3339)})
	if code, out, _ := org.api("PUT", "/api/v1/contests/spring/settings", bytes.NewReader(body), "application/json"); code != 200 {
		t.Fatalf("the deadline: %d %v", code, out)
	}
	if code, _ := cs["ann"].upload("spring", map[string]string{"main.cpp": "int main() { /* strength 9 */ }"}); code != 403 {
		t.Errorf("an upload after the deadline: %d", code)
	}
	subs, _ := e.st.Submissions(t.Context(), "spring", "ann")
	if code, out, _ := cs["ann"].api("POST", "/api/v1/submissions/"+subs[0].ID+"/activate", nil, ""); code != 403 {
		t.Errorf("an activation after the deadline: %d %v", code, out)
	}
	code, out = start(org, "official")
	if code != 202 {
		t.Fatalf("the official round: %d %v", code, out)
	}
	if code, again := start(org, "official"); code != 409 {
		t.Errorf("the official round twice: %d %v", code, again)
	}
	official := cs["bob"].waitRound(out["id"].(string))
	for _, en := range official["entrants"].([]any) {
		if en := en.(map[string]any); len(en["sha256"].(string)) != 64 || en["version"] != 1.0 {
			t.Errorf("a frozen entrant: %v", en)
		}
	}

	// The export, run by the tournament engine on another judge, gives the same standings.
	runExport(t, org, e.srv.URL, "spring", official, newEnv(t).q)
}

// runExport downloads round's export as org, on the portal at base, runs it with the
// tournament engine on q, and checks that it gives the round's standings. The tournament is
// renamed, so that on the round's own queue its matches are judged again, not taken from the
// round's results.
func runExport(t *testing.T, org *client, base, contest string, round map[string]any, q tournament.Queue) {
	t.Helper()
	id := round["id"].(string)
	tt := exported(t, org, base+"/c/"+contest+"/admin/rounds/"+id+".tar.gz", id)
	tt.Spec.Name = "again-" + tt.Spec.Name
	got, err := tt.Run(t.Context(), q)
	if err != nil || got.Judged == 0 || got.Judged != got.Matches {
		t.Fatalf("judge tournament on the export of %s: %d of %d matches judged, %v", id, got.Judged, got.Matches, err)
	}
	t.Logf("judge tournament on the export of %s: %d matches among %d entrants", id, got.Matches, len(tt.Entrants))
	want, _ := json.Marshal(round["outcome"].(map[string]any)["standings"])
	have, _ := json.Marshal(got.Standings)
	if !jsonEqual(want, have) {
		t.Errorf("round %s's standings:\n%s\njudge tournament on its export:\n%s", id, want, have)
	}
}

// exported is the tournament of the export at url, downloaded as org: the directory dir of
// its tar.gz, as judge tournament loads it.
func exported(t *testing.T, org *client, url, dir string) *tournament.Tournament {
	t.Helper()
	resp, err := org.web.Get(url)
	if err != nil {
		t.Fatalf("the export: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("the export: %s %s", resp.Status, body)
	}
	spec, err := tournament.Load(filepath.Join(untar(t, resp.Body), dir))
	if err != nil {
		t.Fatal(err)
	}
	g, _ := lookup(spec.Game)
	tt := &tournament.Tournament{Spec: spec, Game: g}
	for _, en := range spec.Entrants {
		if strings.ContainsAny(filepath.Base(en.Path), `<>:"|?*\`) {
			t.Errorf("the export's entrant %s is in %q, a name Windows cannot unpack", en.Name, filepath.Base(en.Path))
		}
		sub, err := submission.Load(en.Path, 1<<20) // Load made it the directory's
		if err != nil {
			t.Fatal(err)
		}
		tt.Entrants = append(tt.Entrants, tournament.Entrant{Name: en.Name, Submission: sub})
	}
	return tt
}

func regexpAll(re, s string) []string {
	var out []string
	for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	json.Unmarshal(a, &x)
	json.Unmarshal(b, &y)
	return fmt.Sprint(x) == fmt.Sprint(y)
}

// untar unpacks a tar.gz into a new directory.
func untar(t *testing.T, r io.Reader) string {
	t.Helper()
	dir := t.TempDir()
	gz, err := gzip.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return dir
		}
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, filepath.FromSlash(h.Name))
		os.MkdirAll(filepath.Dir(path), 0o755)
		data, _ := io.ReadAll(tr)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A round is resumable: one started on a portal that stops is run to its end by another.
func TestRoundOutlivesItsPortal(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	org := e.user("spring", "org", true)
	for i, login := range []string{"ann", "bob", "cat"} {
		e.user("spring", login, false).activeVersion("spring", fmt.Sprintf("int main() { /* strength %d */ }", i))
	}
	e.stopFollow() // the portal still answers, but runs nothing
	body, _ := json.Marshal(map[string]any{"kind": "test", "rounds": 2})
	code, out, _ := org.api("POST", "/api/v1/contests/spring/rounds", bytes.NewReader(body), "application/json")
	if code != 202 {
		t.Fatalf("a test competition: %d %v", code, out)
	}
	time.Sleep(300 * time.Millisecond)
	if r, _ := e.st.Round(t.Context(), out["id"].(string)); r.Status != store.RoundRunning {
		t.Fatalf("the round is %s with no portal running it", r.Status)
	}
	if _, page := org.get("/c/spring/ladder"); !strings.Contains(page, `data-testid="busy"`) {
		t.Error("the leaderboard does not say a round is using the machines")
	}
	_, p2 := newPortal(t, e.q, slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	followed := make(chan struct{})
	go func() { p2.Engine().Run(ctx); close(followed) }()
	defer func() { cancel(); <-followed }()
	round := org.waitRound(out["id"].(string))
	if got := strings.Join(standingsOf(round), " "); got != "cat bob ann" {
		t.Errorf("standings %s", got)
	}
	if o := round["outcome"].(map[string]any); o["matches"] != o["judged"] || o["matches"].(float64) < 6 {
		t.Errorf("two rounds of a round robin of 3: %v matches, %v judged", o["matches"], o["judged"])
	}
}
