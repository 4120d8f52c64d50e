package portal_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/portal/store"
)

// section is the part of page from the element with data-testid id to the end of its table.
func section(page, id string) string {
	_, rest, _ := strings.Cut(page, `data-testid="`+id+`"`)
	rest, _, _ = strings.Cut(rest, "</table>")
	return rest
}

// A version the judge could not build or validate (Error set) shows that failure once, as
// the judge's: not as the contestant's rejection, nor twice.
func TestJudgeFailureShownOnce(t *testing.T) {
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	const why = "the judge could not play its validation match: no daemon answered"
	sub, err := e.st.AddSubmission(t.Context(), store.Submission{Contest: "spring", Login: "alice", Lang: "cpp"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.UpdateSubmission(t.Context(), sub.ID, func(x *store.Submission) error {
		x.Status, x.Error = store.Rejected, why
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	code, page := a.get("/c/spring/s/" + sub.ID)
	if code != 200 || strings.Count(page, why) != 1 || !strings.Contains(page, "The judge failed here, not your version") ||
		strings.Contains(page, ">rejected<") || !strings.Contains(page, "not judged") {
		t.Errorf("the version's page: %d\n%s", code, page)
	}
	if _, page := a.get("/c/spring/"); strings.Contains(section(page, "versions"), ">rejected<") || !strings.Contains(section(page, "versions"), "not judged") {
		t.Errorf("the home page's versions:\n%s", section(page, "versions"))
	}
}

// The organiser's tables: an active version is "active", and a person's active version is
// its number, linked, not its id.
func TestAdminTables(t *testing.T) {
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	id, _ := a.ready("spring", "int main() {}")
	o := e.user("spring", "olga", true)
	code, page := o.get("/c/spring/admin")
	if code != 200 {
		t.Fatalf("the organiser's page: %d", code)
	}
	if v := section(page, "all-versions"); !strings.Contains(v, ">active<") || strings.Contains(v, ">ready<") {
		t.Errorf("the versions table:\n%s", v)
	}
	people := section(page, "people")
	if !strings.Contains(people, `<a href="/c/spring/s/`+id+`" data-testid="active-version">v1</a>`) ||
		regexp.MustCompile(`>\s*`+id+`\s*<`).MatchString(people) {
		t.Errorf("the people table:\n%s", people)
	}
}

// The leaderboard of a contest without a ladder says so, not that nobody has a version.
func TestLeaderboardWhileTheLadderIsOff(t *testing.T) {
	for _, ladder := range []bool{false, true} {
		e := newEnv(t)
		e.contest("spring", func(c *store.Contest) { c.Ladder = ladder })
		a := e.user("spring", "alice", false)
		_, page := a.get("/c/spring/ladder")
		if off := strings.Contains(page, "The ladder is off"); off == ladder || strings.Contains(page, "No active versions yet") != ladder {
			t.Errorf("ladder %v: the leaderboard says\n%s", ladder, page)
		}
	}
}

// The pages of a contest one is not in link only to one's own contest.
func TestNavLinksOnlyToOnesOwnContest(t *testing.T) {
	e := newEnv(t)
	e.contest("spring", nil)
	e.contest("autumn", nil)
	z := e.user("autumn", "zed", false)
	for _, path := range []string{"/c/spring/", "/c/spring/ladder", "/c/spring/account", "/c/spring/admin"} {
		code, page := z.get(path)
		if code != 404 || strings.Contains(page, `href="/c/spring/`) || !strings.Contains(page, `href="/c/autumn/"`) {
			t.Errorf("zed of autumn opens %s: %d\n%s", path, code, page)
		}
	}
}
