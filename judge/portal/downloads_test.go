package portal_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/portal"
)

// The judge's binaries for contestants: each contest's "the judge" page lists what the
// downloads directory's SHA256SUMS names, and the portal serves those files and nothing else
// there (not a file beside them, not a name that climbs out); without a directory the page
// says where else to get the judge.
func TestTheJudgeForContestants(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// Starter bots: the judge page of a contest offers its game's sample bot in each language the
// contest takes, each a .tar.gz under GAME-LANG/ (the API's with plain names): a built-in
// game's from the judge's bots/ (a game of two and one of four; SnakeCore's with its helper
// library), an added game's from its directory's samples. A language without one, or not the
// contest's, is refused naming those there are; another contest's starters are not the
// caller's to see.
func TestStarterBots(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("two", nil)
	e.contest("four", func(c *store.Contest) { c.Game, c.Langs = "langwars", []string{"python", "cpp"} })
	e.contest("snake", func(c *store.Contest) { c.Game = "snakecore" })
	e.contest("added", func(c *store.Contest) { c.Game = "higher-four" })
	repo := func(path string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct {
		contest  string
		listed   []string // the languages on the judge page
		lang     string
		want     map[string]string // files of the download, by name in it
		refusal  string            // or the refusal's text
		hasFiles []string          // files besides want's
	}{
		{"two", images.LangNames(), "cpp", map[string]string{"amazes-cpp/bot.cpp": repo("bots/amazes/cpp/bot.cpp")}, "", nil},
		{"two", nil, "java", map[string]string{"amazes-java/Bot.java": repo("bots/amazes/java/Bot.java")}, "", nil},
		{"four", []string{"cpp", "python"}, "python", map[string]string{"langwars-python/main.py": repo("bots/langwars/python/main.py")}, "", nil},
		{"four", nil, "java", nil, `no starter bot in "java" for this contest (langwars): it has one in cpp, python`, nil},
		{"two", nil, "broken", nil, "it has one in cpp, pascal, java, go, python, javascript, rust, csharp", nil},
		{"two", nil, "cobol", nil, `no starter bot in "cobol"`, nil},
		{"snake", nil, "go", map[string]string{"snakecore-go/bot.go": repo("bots/snakecore/go/bot.go")}, "", []string{"snakecore-go/snake/snake.go"}},
		{"added", []string{"python"}, "python", map[string]string{"higher-four-python/main.py": repo("cmd/judge/testdata/games/higher/bots/seven/main.py")}, "", nil},
		{"added", nil, "cpp", nil, "it has one in python", nil},
	} {
		who := e.user(tc.contest, "ann-"+tc.lang, false)
		if tc.listed != nil {
			_, page := who.get("/c/" + tc.contest + "/judge")
			var got []string
			for _, m := range regexp.MustCompile(`href="/c/`+tc.contest+`/starter/([a-z]+)\.tar\.gz"`).FindAllStringSubmatch(page, -1) {
				got = append(got, m[1])
			}
			if !slices.Equal(got, tc.listed) {
				t.Errorf("%s's judge page offers starters in %v, want %v", tc.contest, got, tc.listed)
			}
			// The commands that play one here seat as many as the contest's matches.
			play := map[string]string{"two": "judge play --local --game amazes amazes-LANG/ amazes-LANG/</pre>",
				"four":  "judge play --local --game langwars langwars-LANG/ langwars-LANG/ langwars-LANG/ langwars-LANG/</pre>",
				"added": "judge play --local --game higher-four.game/ higher-four-LANG/ higher-four-LANG/ higher-four-LANG/ higher-four-LANG/</pre>"}[tc.contest]
			if !strings.Contains(page, play) {
				t.Errorf("%s's judge page lacks %q", tc.contest, play)
			}
		}
		code, body := who.get("/c/" + tc.contest + "/starter/" + tc.lang + ".tar.gz")
		apiCode, apiBody, _ := who.api("GET", "/api/v1/contests/"+tc.contest+"/starters/"+tc.lang, nil, "")
		if tc.refusal != "" {
			if code != 404 || !strings.Contains(html.UnescapeString(body), tc.refusal) {
				t.Errorf("%s %s: the page answers %d, want 404 saying %q:\n%.300s", tc.contest, tc.lang, code, tc.refusal, body)
			}
			apiErr, _ := apiBody["error"].(map[string]any)
			if msg, _ := apiErr["message"].(string); apiCode != 404 || apiErr["code"] != "not_found" || !strings.Contains(msg, tc.refusal) {
				t.Errorf("%s %s: the API answers %d %v, want 404 saying %q", tc.contest, tc.lang, apiCode, apiBody, tc.refusal)
			}
			continue
		}
		files := untarGz(t, body)
		for name, text := range tc.want {
			if files[name] != text {
				t.Errorf("%s %s: %s is %.80q, want the sample's (%d bytes); the download has %v", tc.contest, tc.lang, name, files[name], len(text), slices.Sorted(maps.Keys(files)))
			}
		}
		for _, name := range tc.hasFiles {
			if files[name] == "" {
				t.Errorf("%s %s: no %s in %v", tc.contest, tc.lang, name, slices.Sorted(maps.Keys(files)))
			}
		}
		plain := untarGz(t, fmt.Sprint(apiBody["raw"]))
		if apiCode != 200 || len(plain) != len(files) {
			t.Errorf("%s %s: the API answers %d with %v, want the page's files %v", tc.contest, tc.lang, apiCode, slices.Sorted(maps.Keys(plain)), slices.Sorted(maps.Keys(files)))
		}
		var dir string
		for name := range tc.want {
			dir, _, _ = strings.Cut(name, "/")
		}
		for name, text := range plain {
			if files[dir+"/"+name] != text {
				t.Errorf("%s %s: the API's %q is not the page's %s/%s", tc.contest, tc.lang, name, dir, name)
			}
		}
	}
	// Another contest's, by a page and by the API: not found, as anything of another contest.
	bob := e.user("two", "bob", false)
	if code, _ := bob.get("/c/four/starter/cpp.tar.gz"); code != 404 {
		t.Errorf("two's contestant fetching four's starter: %d, want 404", code)
	}
	if code, _, _ := bob.api("GET", "/api/v1/contests/four/starters/cpp", nil, ""); code != 404 {
		t.Errorf("two's contestant fetching four's starter by the API: %d, want 404", code)
	}
	if resp, err := http.Get(e.srv.URL + "/api/v1/contests/two/starters/cpp"); err != nil || resp.StatusCode != 401 {
		t.Errorf("no token: %v %v, want 401", resp.StatusCode, err)
	}
}

// An organiser's game on a contestant's machine: the judge page offers the game's directory
// (GAME.game.tar.gz, by the API its plain files) and names it in every command; a match's
// page lists it among what its commands need and names it with --game, in the reproduce
// command and in those against the recording. The contest's API says game_added. A built-in
// game has no directory to download; another contest's is not the caller's.
func TestAnAddedGameOnTheContestantsMachine(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("own", func(c *store.Contest) { c.Game = "higher-four" })
	e.contest("two", nil)
	ann, bob := e.user("own", "ann", false), e.user("two", "bob", false)
	dir := filepath.Join("..", "..", "cmd", "judge", "testdata", "games", "higher")
	want := map[string]string{}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			rel, _ := filepath.Rel(dir, path)
			want[filepath.ToSlash(rel)] = string(b)
		}
		return err
	})
	if len(want) < 4 {
		t.Fatalf("the test game's directory: %v", want)
	}

	_, page := ann.get("/c/own/judge")
	for _, w := range []string{`href="/c/own/game.tar.gz"`, "judge play --local --game higher-four.game/ mybot/ otherbot/ otherbot/ otherbot/</pre>", "--seat N --game higher-four.game/", "judge play --local --game higher-four.game/ higher-four-LANG/"} {
		if !strings.Contains(page, w) {
			t.Errorf("the judge page of a contest of an added game lacks %q:\n%s", w, page)
		}
	}
	code, body := ann.get("/c/own/game.tar.gz")
	got := untarGz(t, body)
	for name, text := range want {
		if got["higher-four.game/"+name] != text {
			t.Errorf("the game's download: %s differs or is missing (%d: %v)", name, code, slices.Sorted(maps.Keys(got)))
		}
	}
	if len(got) != len(want) {
		t.Errorf("the game's download has %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	if code, out, _ := ann.api("GET", "/api/v1/contests/own/game", nil, ""); code != 200 || !maps.Equal(untarGz(t, fmt.Sprint(out["raw"])), want) {
		t.Errorf("the game by the API: %d, not the directory's files", code)
	}
	for _, tc := range []struct {
		who     *client
		contest string
		added   bool
		players float64
	}{{ann, "own", true, 4}, {bob, "two", false, 2}} {
		if code, out, _ := tc.who.api("GET", "/api/v1/contests/"+tc.contest, nil, ""); code != 200 || out["game_added"] != tc.added || out["players"] != tc.players {
			t.Errorf("%s's contest: %d, game_added %v, players %v; want %v, %v", tc.contest, code, out["game_added"], out["players"], tc.added, tc.players)
		}
	}

	id := ann.activeVersion("own", "int main() { /* ann */ }")
	body0, _ := json.Marshal(map[string]any{"opponents": []string{"house:easy"}})
	code, out, _ := ann.api("POST", "/api/v1/contests/own/matches", bytes.NewReader(body0), "application/json")
	if code != 202 {
		t.Fatalf("a test match: %d %v (version %s)", code, out, id)
	}
	m := out["id"].(string)
	ann.waitMatch(m)
	_, page = ann.get("/c/own/m/" + m)
	page = html.UnescapeString(page)
	for _, w := range []string{"judge play --game higher-four.game/ --seed ", "<code>higher-four.game/</code>: the game higher-four", `href="/c/own/game.tar.gz"`,
		"judge play --against " + m + ".jsonl --seat 0 --game higher-four.game/ ann/"} {
		if !strings.Contains(page, w) {
			t.Errorf("the match page of an added game lacks %q:\n%s", w, page)
		}
	}

	for _, tc := range []struct {
		who  *client
		path string
		code int
		say  string
	}{
		{bob, "/api/v1/contests/two/game", 404, "amazes is built into the judge"},
		{bob, "/api/v1/contests/own/game", 404, ""},
		{ann, "/api/v1/contests/two/game", 404, ""},
	} {
		code, out, _ := tc.who.api("GET", tc.path, nil, "")
		if code != tc.code || !strings.Contains(mustJSON(out), tc.say) {
			t.Errorf("%s by %s: %d %v; want %d saying %q", tc.path, tc.who.login, code, out, tc.code, tc.say)
		}
	}
	if code, _ := bob.get("/c/own/game.tar.gz"); code != 404 {
		t.Errorf("another contest's game by its page: %d, want 404", code)
	}
}

// Each contest's page links the rules of its game, /c/CONTEST/rules: a built-in game's page
// (a game of two, one of four), an added game's own (its manifest's rules), its markup inert
// (no script, no raw HTML, no javascript: link; a link into the judge's docs goes to the
// common rules, one to another site stays), served with a policy that runs nothing. An added
// game without a rules page, or another contest's, is not found.
func TestContestRulesPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for name, g := range map[string]string{"two": "amazes", "four": "langwars", "own": "higher-four", "marked": "higher-marked", "bare": "higher-bare"} {
		e.contest(name, func(c *store.Contest) { c.Game = g })
	}
	for _, tc := range []struct {
		contest string
		code    int
		want    []string
		unwant  []string
	}{
		{"two", 200, []string{"<title>Amazes", "maze"}, nil},
		{"four", 200, []string{"<title>Lang Wars"}, nil},
		{"own", 200, []string{"<title>Higher - the rules", "The highest", "<code>TURN t</code>"}, nil},
		{"marked", 200, []string{`href="common"`, `href="https://example.org/"`, " click "}, []string{"<script", "<img", "onerror", "javascript:"}},
		{"bare", 404, []string{"has no rules page"}, nil},
	} {
		who := e.user(tc.contest, "ann", false)
		if _, home := who.get("/c/" + tc.contest + "/"); !strings.Contains(home, `href="/c/`+tc.contest+`/rules"`) {
			t.Errorf("%s's page does not link its rules", tc.contest)
		}
		resp, err := who.web.Get(e.srv.URL + "/c/" + tc.contest + "/rules")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page := string(b)
		if resp.StatusCode != tc.code {
			t.Errorf("%s's rules: %d, want %d\n%.500s", tc.contest, resp.StatusCode, tc.code, page)
		}
		for _, w := range tc.want {
			if !strings.Contains(page, w) {
				t.Errorf("%s's rules lack %q:\n%.1500s", tc.contest, w, page)
			}
		}
		for _, w := range tc.unwant {
			if strings.Contains(page, w) {
				t.Errorf("%s's rules have %q:\n%.1500s", tc.contest, w, page)
			}
		}
		if csp := resp.Header.Get("Content-Security-Policy"); tc.code == 200 && !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("%s's rules served with policy %q", tc.contest, csp)
		}
	}
	if code, _ := e.user("two", "bob", false).get("/c/own/rules"); code != 404 {
		t.Errorf("another contest's rules: %d, want 404", code)
	}
}
