package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/game/catalog"
	"github.com/botjudge/judge/judge/game/skeleton"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/queue/queuetest"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/view"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// An organiser's game, a directory: judge play builds its referee (Python) and runs it in a
// sandbox of its own beside the bots, with two players and with four, a bot's illegal move
// judged by the referee; a referee that breaks the protocol, or a bad manifest, is refused
// with its reason, exit 2, never a bot's fault.
func TestPlayAnAddedGame(t *testing.T) {
	sandboxtest.Engine(t)
	game := filepath.Join("testdata", "games", "higher")
	bot := func(name string) string { return filepath.Join(game, "bots", name) }
	for _, tc := range []struct {
		name   string
		bots   []string
		scores []float64
		faults []string
	}{
		{"two players", []string{bot("seven"), bot("three")}, []float64{3, 0}, []string{"", ""}},
		{"four players", []string{bot("three"), bot("junk"), bot("seven"), bot("seven")}, []float64{0, 0, 3, 3}, []string{"", "illegal_move", "", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := judgeTo(t, &out, append([]string{"play", "--game", game, "--json"}, tc.bots...)...); err != nil {
				t.Fatal(err)
			}
			var res result.Result
			if err := json.Unmarshal(out.Bytes(), &res); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if res.Status != result.StatusOK || res.Game != "higher" || len(res.Players) != len(tc.bots) {
				t.Fatalf("result %+v", res)
			}
			for i, p := range res.Players {
				kind := ""
				if p.Fault != nil {
					kind = string(p.Fault.Kind)
				}
				if p.Score != tc.scores[i] || kind != tc.faults[i] {
					t.Errorf("player %d (%s): score %v, fault %q; want %v, %q", i, p.Name, p.Score, kind, tc.scores[i], tc.faults[i])
				}
			}
		})
	}

	broken := t.TempDir()
	if err := os.CopyFS(broken, os.DirFS(game)); err != nil {
		t.Fatal(err)
	}
	// A referee that fails is a match that could not be judged (exit 1); a bad manifest is a
	// bad argument (exit 2).
	for _, tc := range []struct {
		name, file, text, want string
		usage                  bool
	}{
		{"a referee that dies", "main.py", "import sys\nsys.exit(3)\n", "the referee, at its answer 1 (to the start): no answer", false},
		{"a referee that writes prose", "main.py", "import sys\nsys.stdin.readline()\nprint('hello', flush=True)\nsys.stdin.readline()\n", "not the protocol's JSON", false},
		{"a bad manifest", "game.yaml", "name: amazes\n", "is a game built into the judge", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "g")
			if err := os.CopyFS(dir, os.DirFS(broken)); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			err := judge(t, "play", "--game", dir, bot("seven"), bot("three"))
			var ue cli.UsageError
			if err == nil || errors.As(err, &ue) != tc.usage || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v; want an error (a usage error: %v) saying %q", err, tc.usage, tc.want)
			}
		})
	}
}

// --game names a game's directory by a path, or by the bare name of a directory holding
// game.yaml that no built-in game has; a built-in game's name is always the built-in game.
func TestGameDir(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "games"))
	for _, tc := range []struct {
		name string
		dir  bool
	}{
		{"higher", true}, {"./higher", true}, {"higher/", true}, {".", true},
		{"amazes", false}, {"nosuch", false},
	} {
		if _, ok := gameDir(tc.name); ok != tc.dir {
			t.Errorf("gameDir(%q) = %v, want %v", tc.name, ok, tc.dir)
		}
	}
}

// An added game on a running judge: `judge game add` publishes it to the store, and the
// daemon, started before it was added, judges its jobs - two players and four - with no
// restart; the result and the replay name the version that judged them, and the replay
// re-judges with that version from the store after a newer one replaced it and after the game
// was removed (no new job of it is taken then). judge rebuild --smoke and a portal's contest
// take it by its name too, played by two, then (its second version) by four: the versions'
// validation matches are the ones that judged them, drawn in the portal by their referees.
func TestAddedGameOnARunningJudge(t *testing.T) {
	sandboxtest.Engine(t)
	listen, _ := natsHere(t)
	ctx, cancel := context.WithCancel(context.Background())
	serving := startCLI(ctx, "serve")
	defer stopped(t, time.Minute, serving)
	defer cancel()
	var q *queue.Queue
	for deadline := time.Now().Add(time.Minute); q == nil; {
		var err error
		if q, err = queue.Open(ctx, queue.Options{URL: "nats://" + listen}); err != nil {
			select {
			case err := <-serving:
				t.Fatalf("judge serve ended: %v", err)
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("judge serve did not come up: %v", err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	defer q.Close()

	dir := filepath.Join(t.TempDir(), "higher")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "games", "higher"))); err != nil {
		t.Fatal(err)
	}
	bot := func(name string) string { return filepath.Join(dir, "bots", name) }
	submit := func(bots ...string) (result.Result, error) {
		var out bytes.Buffer
		err := judgeTo(t, &out, append([]string{"submit", "--game", "higher", "--opt", "turns=4", "--wait", "--json", "--timeout", "3m"}, bots...)...)
		var res result.Result
		if err == nil {
			err = json.Unmarshal(out.Bytes(), &res)
		}
		return res, err
	}
	if out, err := runCLIWithin(t, 5*time.Minute, "game", "list"); err != nil || !strings.Contains(out, "no game added") {
		t.Fatalf("game list before any add: %v %s", err, out)
	}
	var ue cli.UsageError
	if _, err := submit(bot("seven"), bot("three")); !errors.As(err, &ue) || !strings.Contains(err.Error(), `unknown game "higher"`) {
		t.Fatalf("a job of a game not added: %v", err)
	}

	var added catalog.Entry
	out, err := runCLIWithin(t, 5*time.Minute, "game", "add", dir, "--json")
	if err != nil || json.Unmarshal([]byte(out), &added) != nil || added.Name != "higher" || len(added.Version) != 64 {
		t.Fatalf("game add: %v %s", err, out)
	}
	if out, err := runCLIWithin(t, 5*time.Minute, "game", "add", dir); err != nil || !strings.Contains(out, "is the current one already") {
		t.Errorf("adding it again: %v %s", err, out)
	}
	if out, err := runCLI(t, "games"); err != nil || !strings.Contains(out, "higher") || !strings.Contains(out, "added, version "+added.Version[:12]) {
		t.Errorf("judge games does not list the added game: %v %s", err, out)
	}

	var replays []string
	for _, tc := range []struct {
		bots   []string
		scores []float64
	}{
		{[]string{bot("seven"), bot("three")}, []float64{4, 0}},
		{[]string{bot("three"), bot("junk"), bot("seven"), bot("seven")}, []float64{0, 0, 4, 4}},
	} {
		res, err := submit(tc.bots...)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != result.StatusOK || res.GameVersion != added.Version || len(res.Players) != len(tc.bots) {
			t.Fatalf("result: %+v", res)
		}
		for i, p := range res.Players {
			if p.Score != tc.scores[i] {
				t.Errorf("%d players: player %d scored %v, want %v", len(tc.bots), i, p.Score, tc.scores[i])
			}
		}
		var buf bytes.Buffer
		key := strings.TrimPrefix(res.Replay, queue.BucketReplays+"/")
		if found, err := q.GetObject(ctx, queue.BucketReplays, key, &buf); !found || err != nil {
			t.Fatalf("the replay %s: %v %v", res.Replay, found, err)
		}
		if !strings.Contains(buf.String(), `"game_version":"`+added.Version+`"`) {
			t.Errorf("the replay does not name the version: %.300s", buf.String())
		}
		file := filepath.Join(t.TempDir(), "m.jsonl")
		os.WriteFile(file, buf.Bytes(), 0o644)
		replays = append(replays, file)
	}

	// The viewer draws an added game's replay with the version that judged it (its referee
	// run again for the pictures).
	page := filepath.Join(t.TempDir(), "m.html")
	if out, err := runCLIWithin(t, 5*time.Minute, "replay", "html", replays[1], "-o", page); err != nil {
		t.Errorf("replay html: %v %s", err, out)
	} else if html := string(must(os.ReadFile(page))); strings.Contains(html, "is an added game") || !strings.Contains(html, `"frames":[{"scores":[0,0,0,0]`) {
		t.Errorf("the page of an added game's replay has no pictures: %.2000s", html[strings.Index(html, `id="film"`):])
	}

	// judge play and judge tournament take the added game's name as a built-in game's.
	var played result.Result
	if out, err := runCLIWithin(t, 5*time.Minute, "play", "--game", "higher", "--opt", "turns=2", "--json", bot("seven"), bot("three")); err != nil || json.Unmarshal([]byte(out), &played) != nil || played.GameVersion != added.Version {
		t.Errorf("judge play of the added game: %v %s", err, out)
	}
	entrants := t.TempDir()
	for _, b := range []string{"seven", "three", "junk"} {
		os.CopyFS(filepath.Join(entrants, b), os.DirFS(bot(b)))
	}
	o, err := tournamentJSON(t, ctx, "--game", "higher", "--name", "added", "--opt", "turns=2", entrants)
	if err != nil || o.Matches != 6 || o.Judged != 6 || len(o.Standings) != 3 || o.Standings[0].Name != "seven" {
		t.Errorf("a tournament of the added game: %v %+v", err, o)
	}

	smoke(t, bot, 2)
	// The portal, its engine in its own process on the judge's NATS server (nats.url).
	t.Setenv("JUDGE_NATS_URL", "nats://"+listen)
	web := portalOfHigher(t, ctx, bot("seven"))
	validation := web.version(bot("three"), added.Version, 2)
	onTheContestantsMachine(t, web, validation, bot("three"))

	// A new version, played by four by default: the old replays still re-judge with theirs,
	// from the store, and what takes the game by its name plays the new one.
	if err := os.WriteFile(filepath.Join(dir, "main.py"), append(must(os.ReadFile(filepath.Join(dir, "main.py"))), "# v2\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	four := strings.Replace(string(must(os.ReadFile(filepath.Join(dir, "game.yaml")))), "default: 2", "default: 4", 1)
	if err := os.WriteFile(filepath.Join(dir, "game.yaml"), []byte(four), 0o644); err != nil {
		t.Fatal(err)
	}
	var v2 catalog.Entry
	out, err = runCLIWithin(t, 5*time.Minute, "game", "add", dir, "--json")
	if err != nil || json.Unmarshal([]byte(out), &v2) != nil || v2.Version == added.Version || len(v2.Earlier) != 1 {
		t.Fatalf("adding v2: %v %s", err, out)
	}
	smoke(t, bot, 4)
	web.version(bot("seven"), v2.Version, 4)
	for _, f := range replays {
		if out, err := runCLIWithin(t, 5*time.Minute, "replay", "verify", f); err != nil || !strings.Contains(out, "verified") {
			t.Errorf("verify %s with its version from the store: %v %s", f, err, out)
		}
	}
	if _, err := runCLIWithin(t, 5*time.Minute, "replay", "verify", replays[0], "--game", dir); !errors.As(err, &ue) || !strings.Contains(err.Error(), "judged by higher version "+added.Version[:12]) {
		t.Errorf("verify with another version's directory: %v", err)
	}

	if out, err := runCLIWithin(t, 5*time.Minute, "game", "remove", "higher"); err != nil || !strings.Contains(out, "removed higher") {
		t.Fatalf("remove: %v %s", err, out)
	}
	if _, err := submit(bot("seven"), bot("three")); !errors.As(err, &ue) {
		t.Errorf("a job of a removed game: %v", err)
	}
	if out, err := runCLIWithin(t, 5*time.Minute, "replay", "verify", replays[1]); err != nil || !strings.Contains(out, "verified") {
		t.Errorf("verify once the game is removed: %v %s", err, out)
	}
	if _, err := runCLIWithin(t, 5*time.Minute, "game", "remove", "amazes"); !errors.As(err, &ue) {
		t.Errorf("removing a built-in game: %v", err)
	}
}

// smoke is judge rebuild --smoke of the added game, its default players each: a bot that
// plays it passes; one whose answers are not moves fails with its fault, at a turn.
func smoke(t *testing.T, bot func(string) string, players int) {
	t.Helper()
	subs := t.TempDir()
	for _, b := range []string{"three", "junk"} {
		if err := os.CopyFS(filepath.Join(subs, b), os.DirFS(bot(b))); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	err := judgeTo(t, &out, "rebuild", "--json", "--smoke", "higher", "--opponent", bot("seven"), subs)
	var rows []rebuilt
	if err != nil || json.Unmarshal(out.Bytes(), &rows) != nil || len(rows) != 2 {
		t.Fatalf("rebuild --smoke of the added game (%d players): %v\n%s", players, err, out.String())
	}
	for _, r := range rows {
		switch {
		case r.Name == "three" && (r.Now != "ok" || r.Smoke != "ok"):
			t.Errorf("%d players: a bot that plays: %+v", players, r)
		case r.Name == "junk" && (r.Now != "ok" || !strings.Contains(r.Smoke, "illegal") || !strings.Contains(r.Smoke, " at turn ")):
			t.Errorf("%d players: a bot whose answers are not moves: %+v", players, r)
		}
	}
}

// higherPortal is `judge portal` serving a contest of the added game higher, with a house bot,
// and ann, logged in to its pages.
type higherPortal struct {
	t     *testing.T
	addr  string
	token string
	web   *http.Client
}

// portalOfHigher makes the contest (judge portal contest create, house bot house), ann, and
// starts judge portal until the test's end; ann sets her password through her invite.
func portalOfHigher(t *testing.T, ctx context.Context, house string) *higherPortal {
	t.Helper()
	addr := queuetest.FreeAddr(t)
	t.Setenv("JUDGE_PORTAL_LISTEN", addr)
	if out, err := runCLIWithin(t, 5*time.Minute, "portal", "contest", "create", "cup", "--game", "higher", "--house", "easy="+house); err != nil {
		t.Fatalf("a contest of the added game: %v\n%s", err, out)
	}
	out, err := runCLI(t, "portal", "user", "add", "--contest", "cup", "ann", "--json")
	var ann map[string]string
	if err != nil || json.Unmarshal([]byte(out), &ann) != nil {
		t.Fatalf("user add: %v\n%s", err, out)
	}
	pctx, cancel := context.WithCancel(ctx)
	serving := startCLI(pctx, "portal")
	t.Cleanup(func() { cancel(); stopped(t, time.Minute, serving) })
	jar, _ := cookiejar.New(nil)
	p := &higherPortal{t: t, addr: addr, token: ann["token"], web: &http.Client{Jar: jar}}
	pass := url.Values{"password": {"ann's long password"}, "again": {"ann's long password"}}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		resp, err := p.web.PostForm(ann["invite"], pass)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("ann's invite: %d", resp.StatusCode)
			}
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("judge portal does not serve: %v", err)
		}
	}
}

// version uploads dir's main.py as ann's new version and waits for its validation, a match of
// players seats judged by the version of the game; the match's page links its film, whose
// pictures the portal draws with that version's referee, run again in a sandbox. It returns
// the validation match's id.
func (p *higherPortal) version(dir, version string, players int) string {
	t := p.t
	t.Helper()
	code, sub := uploadVersion(p.addr, p.token, "cup", "main.py", must(os.ReadFile(filepath.Join(dir, "main.py"))))
	id, _ := sub["id"].(string)
	if code != 202 || id == "" {
		t.Fatalf("the upload: %d %v", code, sub)
	}
	for deadline := time.Now().Add(3 * time.Minute); sub["status"] != "ready"; time.Sleep(200 * time.Millisecond) {
		if _, sub = apiCall(p.addr, p.token, "GET", "/api/v1/submissions/"+id, nil, ""); time.Now().After(deadline) ||
			sub["status"] == "rejected" || sub["status"] == "compile_error" {
			t.Fatalf("ann's version of %d players: %v", players, sub)
		}
	}
	match, _ := sub["validation"].(map[string]any)["match"].(string)
	base := "http://" + p.addr + "/c/cup/m/" + match
	page := p.get(base)
	if !strings.Contains(page, `href="/c/cup/m/`+match+`/view"`) {
		t.Fatalf("the validation match's page has no link to its film:\n%s", page)
	}
	page = p.get(base + "/view")
	const open = `<script type="application/json" id="film">`
	start := strings.Index(page, open)
	end := strings.Index(page[max(start, 0):], "</script>")
	var film view.Film
	if start < 0 || end < 0 || json.Unmarshal([]byte(page[start+len(open):start+end]), &film) != nil {
		t.Fatalf("the film's page has no film:\n%.500s", page)
	}
	if film.Header.Game != "higher" || film.Header.GameVersion != version || len(film.Header.Players) != players ||
		film.Problem != "" || len(film.Mismatch) != 0 || len(film.Frames) < 2 {
		t.Errorf("the film of %d players: game %s version %.12s (want %.12s), %d seats, problem %q, mismatch %v, %d pictures",
			players, film.Header.Game, film.Header.GameVersion, version, len(film.Header.Players), film.Problem, film.Mismatch, len(film.Frames))
	}
	return match
}

// onTheContestantsMachine is ann at her terminal, with none of the judge's store: the game's
// directory, a starter bot and the validation match's replay from the portal (judge contest),
// then the match played again against its recording from that directory, her version live,
// by --local: the recorded match, exchange for exchange.
func onTheContestantsMachine(t *testing.T, p *higherPortal, match, mine string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if out, err := runCLI(t, "contest", "login", "http://"+p.addr+"/c/cup/", "--token", p.token); err != nil {
		t.Fatalf("login: %v %s", err, out)
	}
	work := t.TempDir()
	game, starter, rec := filepath.Join(work, "higher.game"), filepath.Join(work, "higher-python"), filepath.Join(work, "m.jsonl")
	if out, err := runCLI(t, "contest", "game", "-o", game); err != nil || !strings.Contains(out, "judge play --game "+game) {
		t.Fatalf("the game's directory: %v %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(game, "game.yaml")); err != nil {
		t.Fatalf("the game's directory has no game.yaml: %v", err)
	}
	if out, err := runCLI(t, "contest", "starter", "python", "-o", starter); err != nil || !strings.Contains(out, "--game higher.game ") ||
		string(must(os.ReadFile(filepath.Join(starter, "main.py")))) != string(must(os.ReadFile(filepath.Join("testdata", "games", "higher", "bots", "seven", "main.py")))) {
		t.Errorf("the starter in Python: %v %s", err, out)
	}
	if out, err := runCLI(t, "contest", "replay", match, "-o", rec); err != nil {
		t.Fatalf("the validation's replay: %v %s", err, out)
	}
	// No store: the game is the directory's.
	defer os.Setenv("JUDGE_NATS_URL", os.Getenv("JUDGE_NATS_URL"))
	os.Setenv("JUDGE_NATS_URL", "nats://127.0.0.1:1")
	if out, err := runCLIWithin(t, 5*time.Minute, "play", "--against", rec, "--seat", "0", "--game", game, "--local", mine); err != nil || !strings.Contains(out, "the recorded match, exchange for exchange") {
		t.Errorf("the validation against its recording, from the portal's directory of the game: %v\n%s", err, out)
	}
}

// get is a page of the portal's, as ann; it must be found.
func (p *higherPortal) get(url string) string {
	p.t.Helper()
	resp, err := p.web.Get(url)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		p.t.Fatalf("%s: %d\n%s", url, resp.StatusCode, body)
	}
	return string(body)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// judge game check passes a good game, and names what is wrong with a bad one: a referee
// whose matches depend on more than the seed (the first difference named), one that breaks
// the protocol, a bad manifest (the key, exit 2).
func TestGameCheck(t *testing.T) {
	sandboxtest.Engine(t)
	good := filepath.Join("testdata", "games", "higher")
	if out, err := runCLIWithin(t, 5*time.Minute, "game", "check", good, "--seeds", "2"); err != nil || !strings.Contains(out, "conformance: ok") || !strings.Contains(out, "sample bots, 4 players: ok") {
		t.Fatalf("a good game: %v\n%s", err, out)
	}
	// A Python referee of several files (docs/referee.md's example): it starts from the first
	// of its files, which imports the other.
	several := filepath.Join(t.TempDir(), "several")
	if err := os.CopyFS(several, os.DirFS(good)); err != nil {
		t.Fatal(err)
	}
	main := must(os.ReadFile(filepath.Join(several, "main.py")))
	os.Remove(filepath.Join(several, "main.py"))
	os.WriteFile(filepath.Join(several, "referee.py"), append([]byte("import game_core\n"), main...), 0o644)
	os.WriteFile(filepath.Join(several, "game_core.py"), []byte("NAME = 'higher'\n"), 0o644)
	manifest := string(must(os.ReadFile(filepath.Join(several, "game.yaml"))))
	os.WriteFile(filepath.Join(several, "game.yaml"), []byte(strings.Replace(manifest, "files: [main.py]", "files: [referee.py, game_core.py]", 1)), 0o644)
	if out, err := runCLIWithin(t, 5*time.Minute, "game", "check", several, "--seeds", "1"); err != nil || !strings.Contains(out, "conformance: ok") {
		t.Errorf("a referee of several files: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		name, file, find, replace, want string
		usage                           bool
	}{
		{"not deterministic", "main.py", "self.turn += 1", "self.turn += 1\n            import random; self.scores[0] += random.random() < 0.5", "(the same seed and answers gave another match|does not re-judge to its record)", false},
		{"a referee that crashes", "main.py", "self.turn += 1", "self.turn += 1\n            assert self.turn < 3, 'turn 3'", "AssertionError: turn 3", false},
		{"a referee that does not compile", "main.py", "self.turn += 1", "self.turn += = 1", "game.yaml: referee.files: the referee does not compile \\(compile error\\)", true},
		{"a bad bound", "game.yaml", `max: "20"`, `max: "0"`, "options\\[0\\].min: want integers min <= max", true},
		{"an unknown key", "game.yaml", "memory_mib: 64", "memory_mib: 64\nmemroy: 1", "line [0-9]+: memroy: no such key; the keys are name, title", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "g")
			if err := os.CopyFS(dir, os.DirFS(good)); err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(dir, tc.file)
			text := string(must(os.ReadFile(f)))
			if !strings.Contains(text, tc.find) {
				t.Fatalf("%s has no %q", tc.file, tc.find)
			}
			os.WriteFile(f, []byte(strings.Replace(text, tc.find, tc.replace, 1)), 0o644)
			out, err := runCLIWithin(t, 5*time.Minute, "game", "check", dir, "--seeds", "2")
			var ue cli.UsageError
			if err == nil || errors.As(err, &ue) != tc.usage || !regexp.MustCompile(tc.want).MatchString(err.Error()) {
				t.Errorf("%v (usage error: %v; want %v, saying %q)\n%s", err, errors.As(err, &ue), tc.usage, tc.want, out)
			}
		})
	}
}

// judge game new writes a game, in each of the judge's languages, that passes judge game
// check as written: its referee builds and plays two and four players; bad arguments are
// refused, exit 2, nothing written.
func TestGameNewPassesCheck(t *testing.T) {
	sandboxtest.Engine(t)
	for _, lang := range skeleton.Langs() {
		t.Run(lang, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "g")
			if out, err := runCLIWithin(t, 5*time.Minute, "game", "new", "num-"+lang, "--lang", lang, "--dir", dir); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			out, err := runCLIWithin(t, 5*time.Minute, "game", "check", dir, "--seeds", "1")
			if err != nil || !strings.Contains(out, "sample bots, 2 players: ok") || !strings.Contains(out, "sample bots, 4 players: ok") {
				t.Errorf("%v\n%s", err, out)
			}
		})
	}
	taken := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"amazes", "--lang", "go"}, "is a game built into the judge"},
		{[]string{"My Game", "--lang", "go"}, "want lowercase letters"},
		{[]string{"mine"}, "--lang: the referee's language, one of"},
		{[]string{"mine", "--lang", "cobol"}, "--lang cobol: a new game's referee is written in"},
		{[]string{"mine", "--lang", "go", "--dir", taken}, "exists"},
	} {
		out, err := runCLI(t, append([]string{"game", "new"}, tc.args...)...)
		var ue cli.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("game new %v: %v; want a usage error saying %q\n%s", tc.args, err, tc.want, out)
		}
	}
}

// A referee that fails makes judge play exit 1 (the match could not be judged; 2 is bad
// arguments), print the result with status error and error.code referee, and write the replay
// up to the failure with that result as its last line: in the sandbox and with --local.
func TestPlayWithAFailingReferee(t *testing.T) {
	sandboxtest.Engine(t)
	dir := filepath.Join(t.TempDir(), "g")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "games", "higher"))); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, "main.py")
	text := string(must(os.ReadFile(f)))
	os.WriteFile(f, []byte(strings.Replace(text, "self.turn += 1", "self.turn += 1\n            assert self.turn < 3, 'turn 3'", 1)), 0o644)
	bot := filepath.Join(dir, "bots", "seven")
	for _, local := range []bool{false, true} {
		t.Run(fmt.Sprintf("local=%v", local), func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "m.jsonl")
			args := []string{"play", "--game", dir, "--json", "--replay", file, bot, bot}
			if local {
				args = append(args[:1:1], append([]string{"--local"}, args[1:]...)...)
			}
			out, err := runCLIWithin(t, 5*time.Minute, args...)
			var res result.Result
			if exitCode(err) != 1 || json.Unmarshal([]byte(out), &res) != nil || res.Status != result.StatusError || res.Error == nil || res.Error.Code != result.Referee ||
				!strings.Contains(res.Error.Message, "AssertionError: turn 3") {
				t.Fatalf("exit %d (%v), %+v\n%s", exitCode(err), err, res, out)
			}
			rf, err := os.Open(file)
			if err != nil {
				t.Fatalf("no replay: %v", err)
			}
			defer rf.Close()
			rp, err := replay.Read(rf)
			if err != nil || len(rp.Exchanges) == 0 || rp.Result.Error == nil || rp.Result.Error.Code != result.Referee {
				t.Errorf("the replay up to the failure: %v, %d exchanges, result %+v", err, len(rp.Exchanges), rp.Result)
			}
		})
	}
}
