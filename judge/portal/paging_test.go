package portal_test

import (
	"fmt"
	"html"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/contest/store"
)

// pagedSeason is a contest whose contestants alice and bob, and organiser olga, have
// matches of every kind, stored directly (no judging needed to list them).
type pagedSeason struct {
	e                *env
	alice, bob, olga *client
	added            []store.Match
}

func newPagedSeason(t *testing.T) *pagedSeason {
	e := newEnv(t)
	e.contest("spring", nil)
	ps := &pagedSeason{e: e, alice: e.user("spring", "alice", false), bob: e.user("spring", "bob", false), olga: e.user("spring", "olga", true)}
	for range 12 {
		ps.add()
	}
	return ps
}

// add stores the next match: in turn alice's test match, a ladder match of both, bob's test
// match, bob's validation match.
func (ps *pagedSeason) add() {
	ps.e.t.Helper()
	n := len(ps.added)
	m := store.Match{Contest: "spring"}
	switch n % 4 {
	case 0:
		m.Kind, m.Owner, m.Seats = store.KindTest, "alice", []store.Seat{{Login: "alice"}, {House: "easy"}}
	case 1:
		m.ID, m.Kind, m.Seats = store.NewID("l"), store.KindLadder, []store.Seat{{Login: "bob"}, {Login: "alice"}}
	case 2:
		m.Kind, m.Owner, m.Seats = store.KindTest, "bob", []store.Seat{{Login: "bob"}, {House: "easy"}}
	case 3:
		m.ID, m.Kind, m.Owner, m.Seats = store.NewID("s")+"v", store.KindValidation, "bob", []store.Seat{{Login: "bob"}, {House: "easy"}}
	}
	m, err := ps.e.st.AddMatch(ps.e.t.Context(), m)
	if err != nil {
		ps.e.t.Fatal(err)
	}
	ps.added = append(ps.added, m)
}

// want is the ids a list shows of the matches stored so far, newest first.
func (ps *pagedSeason) want(login, kind string) []string {
	var out []string
	for _, m := range slices.Backward(ps.added) {
		if (kind == "" || m.Kind == kind) && (login == "*" || slices.Contains(m.Readers(), login)) {
			out = append(out, m.ID)
		}
	}
	return out
}

// pages follows a list's next cursors through the API, storing a match between pages, and
// gives the ids in the order they came.
func (ps *pagedSeason) pages(t *testing.T, c *client, query url.Values) []string {
	t.Helper()
	var got []string
	for range 100 {
		code, out, _ := c.api("GET", "/api/v1/contests/spring/matches?"+query.Encode(), nil, "")
		if code != 200 {
			t.Fatalf("%s: %d %v", query.Encode(), code, out)
		}
		items, _ := out["matches"].([]any)
		for _, m := range items {
			got = append(got, m.(map[string]any)["id"].(string))
		}
		ps.add()
		next, has := out["next"].(string)
		if !has {
			return got
		}
		if next == "" || fmt.Sprint(len(items)) != query.Get("limit") {
			t.Fatalf("%s: a page of %d with next %q", query.Encode(), len(items), next)
		}
		query.Set("cursor", next)
	}
	t.Fatal("no last page in 100")
	return nil
}

// Paging through the API's lists of matches gives each match once, newest first, while new
// ones come; by kind too; a contestant's list is the contestant's, an organiser's everyone's.
func TestMatchListPages(t *testing.T) {
	t.Parallel()
	ps := newPagedSeason(t)
	for _, tc := range []struct {
		who    string
		c      *client
		query  string
		list   string // whose the list is
		kind   string
		pageOf int
	}{
		{"alice", ps.alice, "mine=1", "alice", "", 2},
		{"alice", ps.alice, "", "alice", "", 5},
		{"bob", ps.bob, "mine=1&kind=test", "bob", store.KindTest, 1},
		{"bob", ps.bob, "kind=validation", "bob", store.KindValidation, 3},
		{"alice", ps.alice, "kind=ladder", "alice", store.KindLadder, 2},
		{"alice", ps.alice, "kind=round", "alice", store.KindRound, 2},
		{"olga", ps.olga, "", "*", "", 4},
		{"olga", ps.olga, "kind=test", "*", store.KindTest, 3},
		{"olga", ps.olga, "mine=1", "olga", "", 3},
	} {
		q, _ := url.ParseQuery(tc.query)
		q.Set("limit", fmt.Sprint(tc.pageOf))
		want := ps.want(tc.list, tc.kind)
		if got := ps.pages(t, tc.c, q); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s ?%s:\n got %v\nwant %v", tc.who, tc.query, got, want)
		}
	}
	// No limit: 50 a page.
	for len(ps.added) < 130 {
		ps.add()
	}
	code, out, _ := ps.olga.api("GET", "/api/v1/contests/spring/matches", nil, "")
	if ms, _ := out["matches"].([]any); code != 200 || len(ms) != 50 || out["next"] == nil {
		t.Errorf("the first page of everyone's: %d, %d matches, next %v", code, len(ms), out["next"])
	}
}

// A cursor is a place in the list, never a way into another's: whatever cursor a
// contestant sends, the matches are the contestant's own; one the portal did not give, a bad
// limit or kind, is a 400 that names it.
func TestListParameters(t *testing.T) {
	t.Parallel()
	ps := newPagedSeason(t)
	_, out, _ := ps.bob.api("GET", "/api/v1/contests/spring/matches?limit=2", nil, "")
	cursors := []string{out["next"].(string)}
	for seq := range uint64(200) {
		cursors = append(cursors, store.Cursor{Seq: seq + 1}.String(), store.Cursor{Seq: seq, Newer: true}.String())
	}
	for _, cur := range cursors {
		code, out, _ := ps.alice.api("GET", "/api/v1/contests/spring/matches?limit=3&cursor="+cur, nil, "")
		if code != 200 {
			t.Fatalf("cursor %s: %d %v", cur, code, out)
		}
		items, _ := out["matches"].([]any)
		for _, m := range items {
			if id := m.(map[string]any)["id"].(string); !slices.Contains(ps.want("alice", ""), id) {
				t.Errorf("alice's list with cursor %s gives %s", cur, id)
			}
		}
	}
	for _, tc := range []struct{ path, query, code, names string }{
		{"matches", "limit=0", "bad_limit", "limit"},
		{"matches", "limit=201", "bad_limit", "limit"},
		{"matches", "limit=ten", "bad_limit", "limit"},
		{"matches", "limit=-1", "bad_limit", "limit"},
		{"matches", "cursor=abc", "bad_cursor", "cursor"},
		{"matches", "cursor=" + cursors[0] + "x", "bad_cursor", "cursor"},
		{"matches", "kind=friendly", "bad_kind", "kind"},
		{"matches", "kind=*", "bad_kind", "kind"},
		{"submissions", "limit=1000", "bad_limit", "limit"},
		{"submissions", "cursor=%3E", "bad_cursor", "cursor"},
	} {
		code, out, _ := ps.alice.api("GET", "/api/v1/contests/spring/"+tc.path+"?"+tc.query, nil, "")
		e, _ := out["error"].(map[string]any)
		if code != 400 || e["code"] != tc.code || !strings.HasPrefix(fmt.Sprint(e["message"]), tc.names+" ") {
			t.Errorf("%s?%s: %d %v; want 400 %s naming %s", tc.path, tc.query, code, out, tc.code, tc.names)
		}
	}
}

// A contestant's versions page too.
func TestSubmissionListPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	var want []string
	for i := range 5 {
		code, out := a.upload("spring", map[string]string{"main.cpp": fmt.Sprintf("int main() { syntax error %d }", i)})
		if code != 202 {
			t.Fatalf("upload: %d %v", code, out)
		}
		want = append([]string{out["id"].(string)}, want...)
	}
	var got []string
	query := "limit=2"
	for pages := 0; ; pages++ {
		if pages > 200 {
			t.Fatal("no last page in 200")
		}
		code, out, _ := a.api("GET", "/api/v1/contests/spring/submissions?"+query, nil, "")
		if code != 200 {
			t.Fatalf("%d %v", code, out)
		}
		for _, s := range out["submissions"].([]any) {
			got = append(got, s.(map[string]any)["id"].(string))
		}
		next, ok := out["next"].(string)
		if !ok {
			break
		}
		query = "limit=2&cursor=" + next
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("alice's versions:\n got %v\nwant %v", got, want)
	}
}

var (
	matchLinkRE = regexp.MustCompile(`href="/c/spring/m/([^"/]+)"`)
	pagerRE     = regexp.MustCompile(`<a href="([^"]+)" data-testid="(older|newer|older-tests)">`)
)

// pageList reads a list's page: the matches it links, and its pager's links.
func pageList(t *testing.T, c *client, path string) (ids []string, links map[string]string) {
	t.Helper()
	code, page := c.get(path)
	if code != 200 {
		t.Fatalf("%s: %d\n%s", path, code, page)
	}
	for _, m := range matchLinkRE.FindAllStringSubmatch(page, -1) {
		ids = append(ids, m[1])
	}
	links = map[string]string{}
	for _, m := range pagerRE.FindAllStringSubmatch(page, -1) {
		links[m[2]] = html.UnescapeString(m[1])
	}
	return ids, links
}

// The pages' lists: the home page's test matches are one page of test matches only; the
// lists' pages go through every match once by their Older links, newest first, and back by
// Newer; the organiser's lists are everyone's and the organiser's alone.
func TestListPages(t *testing.T) {
	t.Parallel()
	ps := newPagedSeason(t)
	for len(ps.added) < 100 { // 25 test matches of alice's, more than the home page shows
		ps.add()
	}
	ids, links := pageList(t, ps.alice, "/c/spring/")
	tests := ps.want("alice", store.KindTest)
	if fmt.Sprint(ids) != fmt.Sprint(tests[:20]) || links["older-tests"] == "" {
		t.Errorf("alice's home page lists %v, older %q; want %v", ids, links["older-tests"], tests[:20])
	}
	for _, tc := range []struct {
		c          *client
		path, list string
		kind       string
	}{
		{ps.alice, "/c/spring/matches?limit=7", "alice", ""},
		{ps.alice, "/c/spring/matches?kind=ladder&limit=6", "alice", store.KindLadder},
		{ps.alice, links["older-tests"], "alice", store.KindTest},
		{ps.bob, "/c/spring/matches?kind=validation", "bob", store.KindValidation},
		{ps.olga, "/c/spring/admin/matches?limit=30", "*", ""},
		{ps.olga, "/c/spring/admin/matches?kind=test&limit=9", "*", store.KindTest},
	} {
		want := ps.want(tc.list, tc.kind)
		if tc.path == links["older-tests"] {
			want = tests[20:] // those older than the home page's
		}
		var got []string
		var pages [][]string
		var newer string // the last page's Newer link
		path := tc.path
		for range 50 {
			ids, l := pageList(t, tc.c, path)
			got, pages, newer = append(got, ids...), append(pages, ids), l["newer"]
			ps.add() // between pages: on none of the older ones
			if path = l["older"]; path == "" {
				break
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s by its Older links:\n got %v\nwant %v", tc.path, got, want)
		}
		if len(pages) > 2 {
			if ids, _ := pageList(t, tc.c, newer); fmt.Sprint(ids) != fmt.Sprint(pages[len(pages)-2]) {
				t.Errorf("%s: back from the last page: %v, want %v", tc.path, ids, pages[len(pages)-2])
			}
		}
	}
	for _, path := range []string{"/c/spring/admin/matches", "/c/spring/admin/versions"} {
		if code, _ := ps.alice.get(path); code != 403 {
			t.Errorf("alice opens %s: %d, want 403", path, code)
		}
	}
	for _, path := range []string{"/c/spring/matches?cursor=nope", "/c/spring/matches?kind=friendly", "/c/spring/versions?limit=0"} {
		if code, page := ps.alice.get(path); code != 400 || !strings.Contains(page, strings.SplitN(strings.SplitN(path, "?", 2)[1], "=", 2)[0]) {
			t.Errorf("%s: %d, want 400 naming its parameter", path, code)
		}
	}
}
