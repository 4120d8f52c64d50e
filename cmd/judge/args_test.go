package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/sandbox/sandboxtest"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// noEngineNoQueue makes the engine and the queue unreachable for the commands run in this
// test: a command that reaches for either fails with status 1, not 2.
func noEngineNoQueue(t *testing.T) {
	t.Helper()
	for k, v := range map[string]string{
		"DOCKER_HOST":         "unix:///nonexistent/docker.sock",
		"JUDGE_DOCKER_HOST":   "unix:///nonexistent/docker.sock",
		"JUDGE_NATS_URL":      "nats://127.0.0.1:1",
		"JUDGE_DATA_DIR":      t.TempDir(),
		"JUDGE_IMAGES_LOCK":   "",
		"JUDGE_IMAGES_STRICT": "",
	} {
		t.Setenv(k, v)
	}
}

// runCLI runs the CLI in this process and returns what it printed through cobra and its error.
// A command that hangs on a network it should not have asked for ends with the timeout.
func runCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	return runCLIWithin(t, 30*time.Second, args...)
}

// runCLIWithin is runCLI for a command that builds and plays (judge game check), given
// timeout: a fresh machine compiles every toolchain's first program cold.
func runCLIWithin(t *testing.T, timeout time.Duration, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	return out.String(), err
}

// startCLI runs judge with args until ctx is done, its output discarded: the channel gets
// what it returned.
func startCLI(ctx context.Context, args ...string) <-chan error {
	ended := make(chan error, 1)
	go func() {
		root := newRoot()
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		root.SetArgs(args)
		ended <- root.ExecuteContext(ctx)
	}()
	return ended
}

// stopped waits for each command started by startCLI to end (its context cancelled), for
// at most wait each: one that ends with an error other than the cancellation, or does not
// end, fails the test.
func stopped(t *testing.T, wait time.Duration, ended ...<-chan error) {
	t.Helper()
	for _, e := range ended {
		select {
		case err := <-e:
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("a command ended with %v", err)
			}
		case <-time.After(wait):
			t.Fatal("a command did not stop")
		}
	}
}

// goInternals are what a message for a person must not show: Go's values, parsers and types.
var goInternals = regexp.MustCompile(`<nil>|strconv\.|time: (invalid|missing|unknown)|json: (cannot|invalid|unexpected)|yaml: unmarshal|\b(main|tournament|standings|game|build|images)\.[A-Z]|\bstat |\bopen /`)

// Every command checks what it can without the engine and the queue first: a bad argument is
// exit status 2 with a message naming it and what is allowed, with neither reachable.
func TestBadArgumentsAreRefusedUpFront(t *testing.T) {
	noEngineNoQueue(t)
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cpp := write("bots/a.cpp", "int main() {}\n")
	goBot := write("bots/b.go", "package main\n\nfunc main() {}\n")
	two := filepath.Join(dir, "two")
	write("two/a.cpp", "int main() {}\n")
	write("two/b.go", "package main\n\nfunc main() {}\n")
	four := filepath.Join(dir, "four")
	for _, n := range []string{"a", "b", "c", "d"} {
		write("four/"+n+".cpp", "int main() {}\n")
	}
	missing := filepath.Join(dir, "MISSING")
	colour := write("colour.yaml", "game: amazes\ncolour: red\nentrants: [{name: a, path: bots/a.cpp}, {name: b, path: bots/b.go}]\n")
	rounds := write("rounds.yaml", "game: amazes\nrounds: many\nentrants: [{name: a, path: bots/a.cpp}, {name: b, path: bots/b.go}]\n")
	badJSON := write("bad.json", "[{\"name\": \"a\", ")
	lostPath := write("lost.json", `[{"name": "a", "path": "bots/gone.cpp"}]`)

	for _, tc := range []struct {
		name string
		args []string
		want string // in the message: the input, and what is wanted
	}{
		// judge play
		{"play one bot", []string{"play", "--game", "amazes", cpp}, "amazes takes 2 players, the match has 1 (BOT arguments: " + cpp},
		{"play no bot", []string{"play", "--game", "amazes"}, "the match has 0 (no BOT arguments)"},
		{"play unknown option", []string{"play", "--game", "amazes", "--opt", "colour=red", cpp, goBot}, `unknown option "colour" (known: maze, memory, time, turns)`},
		{"play option out of range", []string{"play", "--game", "amazes", "--opt", "turns=999", cpp, goBot}, "option turns: 999 is out of range 1..150"},
		{"play option not a number", []string{"play", "--game", "ontherun", "--opt", "cities=many", cpp, goBot}, `option cities: "many" is not an integer`},
		{"play option without =", []string{"play", "--game", "amazes", "--opt", "turns", cpp, goBot}, `--opt "turns": want key=value`},
		{"play option file missing", []string{"play", "--game", "amazes", "--opt", "maze=@" + missing, cpp, goBot}, "--opt maze=@" + missing + ": no such file"},
		{"play unknown game", []string{"play", "--game", "chess", cpp, goBot}, `--game: unknown game "chess"; known: amazes, ontherun`},
		{"play no game", []string{"play", cpp, goBot}, `--game: which game to play (amazes, ontherun`},
		{"play negative seed", []string{"play", "--game", "amazes", "--seed", "-1", cpp, goBot}, `invalid value "-1" for --seed: want a whole number from 0 to 18446744073709551615`},
		{"play bad bool", []string{"play", "--game", "amazes", "--json=maybe", cpp, goBot}, `invalid value "maybe" for --json: want true or false`},
		{"play missing bot", []string{"play", "--game", "amazes", missing, goBot}, missing + ": no such file or directory"},
		{"play unknown language prefix", []string{"play", "--game", "amazes", "cobol:" + missing, goBot}, `cobol:` + missing + `: unknown language "cobol"; known: cpp, pascal, java, go, python, javascript, rust, csharp`},
		{"play replay in no directory", []string{"play", "--game", "amazes", "--replay", filepath.Join(missing, "m.jsonl"), cpp, goBot}, "--replay " + filepath.Join(missing, "m.jsonl") + ": no directory " + missing},
		{"play unknown flag", []string{"play", "--colour", "red"}, "unknown flag: --colour"},

		// judge submit: the daemon's checks, made before the queue is asked
		{"submit no game", []string{"submit", cpp, goBot}, `--game: which game (amazes, ontherun`},
		{"submit one bot", []string{"submit", "--game", "amazes", cpp}, "amazes takes 2 players, the match has 1"},
		{"submit five bots", []string{"submit", "--game", "dropblock", cpp, cpp, cpp, cpp, cpp}, "dropblock takes 4 players, the match has 5"},
		{"submit unknown option", []string{"submit", "--game", "amazes", "--opt", "colour=red", cpp, goBot}, `unknown option "colour"`},
		{"submit option out of range", []string{"submit", "--game", "amazes", "--opt", "turns=999", cpp, goBot}, "option turns: 999 is out of range 1..150"},
		{"submit unknown game", []string{"submit", "--game", "chess", cpp, goBot}, `--game: unknown game "chess"`},
		{"submit bad id", []string{"submit", "--game", "amazes", "--id", "a b", cpp, goBot}, `--id: job: invalid job id "a b"`},
		{"submit timeout without unit", []string{"submit", "--game", "amazes", "--timeout", "5", cpp, goBot}, `invalid value "5" for --timeout: want a duration such as 90s`},
		{"submit no timeout", []string{"submit", "--game", "amazes", "--timeout", "0s", cpp, goBot}, "--timeout 0s: want a duration above 0"},
		{"submit negative seed", []string{"submit", "--game", "amazes", "--seed", "-1", cpp, goBot}, `invalid value "-1" for --seed`},

		// judge tournament
		{"tournament json and csv", []string{"tournament", "--game", "amazes", "--json", "--csv", two}, "--json and --csv: give one"},
		{"tournament too few entrants", []string{"tournament", "--game", "dropblock", two}, "tournament: 2 entrants, and a match of dropblock needs 4"},
		{"tournament seats the game does not take", []string{"tournament", "--game", "amazes", "--seats", "3", four}, "seats: amazes takes 2 players, the match has 3"},
		{"tournament swiss of four", []string{"tournament", "--game", "dropblock", "--format", "swiss", four}, "a Swiss tournament is for two-player matches, dropblock plays 4"},
		{"tournament unknown option", []string{"tournament", "--game", "amazes", "--opt", "colour=red", two}, `unknown option "colour"`},
		{"tournament option out of range", []string{"tournament", "--game", "amazes", "--opt", "turns=999", two}, "option turns: 999 is out of range 1..150"},
		{"tournament unknown game", []string{"tournament", "--game", "chess", two}, `unknown game "chess"; known: amazes`},
		{"tournament no game", []string{"tournament", two}, "no game (--game, or game: in the tournament file)"},
		{"tournament unknown format", []string{"tournament", "--game", "amazes", "--format", "knockout", two}, `format "knockout": want roundrobin or swiss`},
		{"tournament unknown key in the file", []string{"tournament", colour}, "line 2: unknown key colour; known: name, game, format, rounds"},
		{"tournament value of the wrong kind", []string{"tournament", rounds}, `line 2: want a whole number, not "rounds: many"`},
		{"tournament missing", []string{"tournament", "--game", "amazes", missing}, missing + ": no such file or directory"},
		{"tournament missing entrant", []string{"tournament", write("lost.yaml", "game: amazes\nentrants: [{name: a, path: bots/a.cpp}, {name: gone, path: bots/gone.cpp}]\n")}, "entrant gone: " + filepath.Join(dir, "bots/gone.cpp") + ": no such file or directory"},
		{"tournament rounds not a number", []string{"tournament", "--rounds", "x", two}, `invalid value "x" for --rounds: want a whole number`},
		{"tournament negative workers", []string{"tournament", "--game", "amazes", "--workers", "-1", two}, "--workers -1: want 0 (serve.workers) or more"},
		{"tournament retry without --failed", []string{"tournament", "retry", "--game", "amazes", two}, "retry needs --failed"},
		{"tournament retry json and csv", []string{"tournament", "retry", "--failed", "--game", "amazes", "--json", "--csv", two}, "--json and --csv: give one"},
		{"tournament two paths", []string{"tournament", two, four}, "accepts 1 arg(s), received 2 (usage: judge tournament"},
		{"tournament confidence too low", []string{"tournament", "--game", "amazes", "--confidence", "0.4", two}, "confidence 0.4: want a number above 0.5 and below 1"},
		{"tournament top above the entrants", []string{"tournament", "--game", "amazes", "--until-separated", "--top", "5", four}, "top 5: the round has 4 entrants"},
		{"tournament negative budget", []string{"tournament", "--game", "amazes", "--until-separated", "--budget", "-1", two}, "budget -1: want 0 (as many matches as the schedule) or more"},
		{"tournament top without until-separated", []string{"tournament", "--game", "amazes", "--top", "2", two}, "top and budget go with until_separated (--until-separated)"},
		{"tournament confidence of one", []string{"tournament", "--game", "amazes", "--confidence", "1", two}, "confidence 1: want a number above 0.5 and below 1"},

		// judge compare
		{"compare one bot", []string{"compare", "--game", "amazes", cpp}, "two bots, NEW and OLD, not 1"},
		{"compare no game", []string{"compare", cpp, goBot}, "--game: which game (amazes, ontherun"},
		{"compare unknown game", []string{"compare", "--game", "chess", "--local", cpp, goBot}, `--game: unknown game "chess"`},
		{"compare the same path", []string{"compare", "--game", "amazes", cpp, "cpp:" + cpp}, "NEW and OLD are the same path, " + cpp},
		{"compare elo1 not above elo0", []string{"compare", "--game", "amazes", "--elo0", "10", "--elo1", "5", cpp, goBot}, "elo1 5 is not above elo0 10"},
		{"compare alpha too big", []string{"compare", "--game", "amazes", "--alpha", "0.6", cpp, goBot}, "alpha 0.6: want a probability above 0 and below 0.5"},
		{"compare beta of none", []string{"compare", "--game", "amazes", "--beta", "0", cpp, goBot}, "beta 0: want a probability above 0 and below 0.5"},
		{"compare max of one", []string{"compare", "--game", "amazes", "--max", "1", cpp, goBot}, "--max 1: want 2 matches (a pair) to 100000"},
		{"compare max of a billion", []string{"compare", "--game", "amazes", "--max", "1000000000", cpp, goBot}, "--max 1000000000: want 2 matches (a pair) to 100000"},
		{"compare elo of no number", []string{"compare", "--game", "amazes", "--elo1", "NaN", cpp, goBot}, "elo1 NaN is not above elo0 0"},
		{"compare opponents in a game of two", []string{"compare", "--game", "amazes", "--opponents", cpp, cpp, goBot}, "amazes is a game of two: NEW plays OLD, and there is no seat for opponents"},
		{"compare opponent of another game", []string{"compare", "--game", "langwars", "--opponents", filepath.Join(sandboxtest.Root(), "bots", "amazes", "java"), cpp, goBot}, "amazes/java is the sample bot of amazes, not a bot of langwars"},
		{"compare missing opponent", []string{"compare", "--game", "langwars", "--opponents", missing, cpp, goBot}, "opponent " + missing + ": " + missing + ": no such file or directory"},
		{"compare missing NEW", []string{"compare", "--game", "amazes", missing, goBot}, "NEW " + missing},

		// judge portal
		{"portal contest without a game", []string{"portal", "contest", "create", "spring"}, "--game: which game the contest plays"},
		{"portal contest bad name", []string{"portal", "contest", "create", "Spring!", "--game", "amazes"}, `contest "Spring!": want 1 to 32 of a-z`},
		{"portal contest unknown game", []string{"portal", "contest", "create", "spring", "--game", "chess"}, `--game: unknown game "chess"`},
		{"portal contest unknown language", []string{"portal", "contest", "create", "spring", "--game", "amazes", "--langs", "cobol"}, `unknown language "cobol"`},
		{"portal contest bad deadline", []string{"portal", "contest", "create", "spring", "--game", "amazes", "--deadline", "tomorrow"}, `--deadline "tomorrow": want RFC 3339`},
		{"portal contest bad house", []string{"portal", "contest", "create", "spring", "--game", "amazes", "--house", "easy"}, `--house "easy": want NAME=BOT`},
		{"portal contest missing house", []string{"portal", "contest", "create", "spring", "--game", "amazes", "--house", "easy=" + missing}, missing + ": no such file or directory"},
		{"portal contest bad league", []string{"portal", "contest", "create", "spring", "--game", "amazes", "--league", "Bronze="}, `--league: league "Bronze=": want NAME=HOUSEBOT`},
		{"portal round without a contest", []string{"portal", "round", "start"}, "--contest: the contest whose round it is"},
		{"portal user without a contest", []string{"portal", "user", "add", "alice"}, "--contest: the contest the user takes part in"},
		{"portal user bad login", []string{"portal", "user", "add", "--contest", "spring", "<b>x</b>"}, `login "<b>x</b>": want 1 to 32 of a-z`},
		{"portal bad listen", []string{"portal", "--listen", "nowhere"}, `--listen: listen: want host:port (got "nowhere")`},

		// judge images
		{"images import missing", []string{"images", "import", missing + ".tar"}, missing + ".tar: no such file"},
		{"images import a directory", []string{"images", "import", dir}, dir + ": not an archive file"},
		{"images import no file", []string{"images", "import"}, "accepts 1 arg(s), received 0 (usage: judge images import FILE"},
		{"images publish keeps none", []string{"images", "publish", "--keep", "0"}, "--keep: must be at least 1, the archive this publishes (got 0)"},
		{"images export in no directory", []string{"images", "export", filepath.Join(missing, "x.tar")}, filepath.Join(missing, "x.tar") + ": no directory " + missing},
		{"images export no file", []string{"images", "export"}, "accepts 1 arg(s), received 0 (usage: judge images export FILE"},
		{"images export unknown language", []string{"images", "export", "--lang", "cobol", filepath.Join(dir, "x.tar")}, `--lang: unknown language "cobol"; known: cpp, pascal, java, go, python, javascript, rust, csharp`},
		{"images build unknown language", []string{"images", "build", "--lang", "cpp,cobol"}, `--lang: unknown language "cobol"; known: cpp, pascal, java, go, python, javascript, rust, csharp`},
		{"images build no lock to update", []string{"images", "build", "--update-lock"}, "--update-lock: no lock file to write"},
		{"images publish unknown language", []string{"images", "publish", "--lang", "cobol"}, `--lang: unknown language "cobol"`},
		{"images unknown command", []string{"images", "bild"}, `unknown command "bild" for "judge images" (its commands: build, check, export, import, list, publish); did you mean build?`},

		// judge rebuild
		{"rebuild missing", []string{"rebuild", missing}, missing + ": no such file or directory (want a directory of submissions or a manifest)"},
		{"rebuild nothing", []string{"rebuild"}, "give a directory or manifest of submissions, or --known"},
		{"rebuild unknown language", []string{"rebuild", "--lang", "cobol", two}, `--lang: unknown language "cobol"`},
		{"rebuild unknown game", []string{"rebuild", "--game", "chess", two}, `--game: unknown game "chess"`},
		{"rebuild unknown smoke game", []string{"rebuild", "--smoke", "chess", two}, `--smoke: unknown game "chess"`},
		{"rebuild missing opponent", []string{"rebuild", "--smoke", "amazes", "--opponent", missing, two}, "--opponent: " + missing + ": no such file or directory"},
		{"rebuild opponent without smoke", []string{"rebuild", "--opponent", cpp, two}, "--opponent goes with --smoke"},
		{"rebuild from-store without known", []string{"rebuild", "--from-store", two}, "--from-store goes with --known"},
		{"rebuild manifest not JSON", []string{"rebuild", badJSON}, "manifest " + badJSON + `: want a JSON list of {"name", "path"} (not JSON at byte`},
		{"rebuild manifest entry missing", []string{"rebuild", lostPath}, "a: " + filepath.Join(dir, "bots/gone.cpp") + ": no such file or directory"},

		// judge compile
		{"compile unknown language", []string{"compile", "--lang", "cobol", cpp}, `--lang: unknown language "cobol"; known: cpp, pascal, java, go, python, javascript, rust, csharp`},
		{"compile unknown game", []string{"compile", "--game", "chess", cpp}, `--game: unknown game "chess"`},
		{"compile missing", []string{"compile", missing + ".cpp"}, missing + ".cpp: no such file or directory"},
		{"compile missing with a language", []string{"compile", "--lang", "cpp", missing}, missing + ": no such file or directory"},
		{"compile two languages", []string{"compile", cpp, goBot}, "is go, but the submission is cpp"},
		{"compile nothing", []string{"compile"}, "requires at least 1 arg(s), only received 0 (usage: judge compile"},

		// judge store clean
		{"store clean older-than not a duration", []string{"store", "clean", "--older-than", "soon"}, `invalid value "soon" for --older-than: want a duration such as 90s`},
		{"store clean older-than negative", []string{"store", "clean", "--older-than", "-1h"}, "--older-than -1h0m0s: want a duration above 0"},
		{"store clean older-than zero", []string{"store", "clean", "--older-than", "0s"}, "--older-than 0s: want a duration above 0"},

		// the rest
		{"a flag misspelt", []string{"play", "--gmae", "amazes", cpp, goBot}, "unknown flag: --gmae; did you mean --game?"},
		{"a memory option with a unit", []string{"play", "--game", "amazes", "--opt", "memory=1GiB", cpp, goBot}, `option memory: "1GiB" is not a number of MiB (memory=1024 is 1 GiB)`},
		{"view on a bare port", []string{"view", "--listen", "18081", cpp}, "--listen 18081: want HOST:PORT, e.g. --listen 127.0.0.1:18081"},
		{"view on no address of this machine", []string{"view", "--listen", "192.0.2.1:80", cpp}, "--listen 192.0.2.1:80: no network of this machine has that address"},
		{"replay html into no directory", []string{"replay", "html", cpp, "-o", filepath.Join(missing, "x.html")}, "-o " + filepath.Join(missing, "x.html") + ": no directory " + missing},
		{"replay verify of no replay", []string{"replay", "verify", cpp}, cpp + ": replay: not a replay"},
		{"results bad id", []string{"results", "a b"}, `invalid job id "a b"`},
		{"unknown command", []string{"ply"}, `unknown command "ply" for "judge" (its commands: `},
		{"games with an argument", []string{"games", "amazes"}, "judge games: unknown command \"amazes\""},
		{"serve with an argument", []string{"serve", "now"}, "judge serve: unknown command \"now\""},
		{"version with an argument", []string{"version", "now"}, "judge version: unknown command \"now\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runCLI(t, tc.args...)
			if code := exitCode(err); code != 2 {
				t.Fatalf("judge %s: exit status %d (%v); want 2", strings.Join(tc.args, " "), code, err)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.want) || goInternals.MatchString(msg) {
				t.Errorf("judge %s:\n%s\nwant a message with %q, and no Go internals", strings.Join(tc.args, " "), msg, tc.want)
			}
			if out != "" {
				t.Errorf("judge %s printed %q before refusing", strings.Join(tc.args, " "), out)
			}
		})
	}
}

// `judge version`, `judge --version` and the runner, which writes it into every result
// (judge.version) and so into every replay, give the same version.
func TestVersion(t *testing.T) {
	noEngineNoQueue(t)
	want := judgeVersion()
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, err := runCLI(t, args...)
		if err != nil || out != want+"\n" {
			t.Errorf("judge %s: %q, %v; want %q", args[0], out, err, want+"\n")
		}
	}
	a := newApp()
	a.Cfg.DataDir = t.TempDir()
	r, err := a.Runner(nil)
	if err != nil || r.Version != want {
		t.Errorf("the runner's version %q (%v); want %q", r.Version, err, want)
	}
}

func TestVersionOf(t *testing.T) {
	vcs := func(version, rev, modified string) *debug.BuildInfo {
		info := &debug.BuildInfo{Main: debug.Module{Path: "github.com/botjudge/judge", Version: version}}
		if rev != "" {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: "vcs.revision", Value: rev})
		}
		if modified != "" {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: "vcs.modified", Value: modified})
		}
		return info
	}
	const rev = "9163d2f065724069a8c2133d341a4711db9b7417"
	for _, tc := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{nil, "devel"},
		{vcs("(devel)", "", ""), "devel"},
		{vcs("", "", ""), "devel"},
		{vcs("v1.2.0", "", ""), "v1.2.0"},
		{vcs("v1.2.0", rev, "false"), "v1.2.0 (9163d2f06572)"},
		{vcs("(devel)", rev, "true"), "devel (9163d2f06572+dirty)"},
		// Go's own pseudo-version names the revision and the changes already.
		{vcs("v0.0.0-20261124162514-9163d2f06572+dirty", rev, "true"), "v0.0.0-20261124162514-9163d2f06572+dirty"},
	} {
		if got := versionOf(tc.info); got != tc.want {
			t.Errorf("versionOf(%+v) = %q; want %q", tc.info, got, tc.want)
		}
	}
	// A version given at link time is the version.
	defer func(v string) { version = v }(version)
	version = "2026.11-rc1"
	if got := judgeVersion(); got != "2026.11-rc1" {
		t.Errorf("with -X main.version: %q", got)
	}
}

// judge games --json has one key style throughout, the contract's: snake_case.
func TestGamesJSONKeys(t *testing.T) {
	noEngineNoQueue(t)
	out, err := runCLI(t, "games", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	snake := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	keys := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				keys++
				if !snake.MatchString(k) {
					t.Errorf("key %q is not snake_case", k)
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	if !strings.Contains(out, `"default": "150"`) || keys == 0 {
		t.Errorf("want the options' defaults under \"default\":\n%s", out)
	}
}

// Every flag's help is plain text: pflag takes text in backquotes for the value's name
// ("--opt judge games").
func TestFlagHelpNamesItsValue(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if strings.Contains(f.Usage, "`") {
				name, _ := pflag.UnquoteUsage(f)
				t.Errorf("%s --%s: its help names the value %q", c.CommandPath(), f.Name, name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot())
}

// tournament retry's help shows its own flag and points to the tournament's, which it takes,
// instead of repeating them.
func TestTournamentRetryHelp(t *testing.T) {
	noEngineNoQueue(t)
	parent, err := runCLI(t, "tournament", "--help")
	if err != nil || !strings.Contains(parent, "--format") {
		t.Fatalf("judge tournament --help: %v\n%s", err, parent)
	}
	retry, err := runCLI(t, "tournament", "retry", "--help")
	if err != nil || !strings.Contains(retry, "--failed") || strings.Contains(retry, "--format") ||
		!strings.Contains(retry, "The flags of judge tournament apply too") {
		t.Errorf("judge tournament retry --help: %v\n%s\nwant --failed and a pointer to the tournament's flags, not them", err, retry)
	}
}

// A mistake in a section of the configuration a command never reads does not stop it: judge
// version, judge contest and the replay of a built-in game's match, with no sandbox, are not
// refused for the sandbox's setting; a command that builds or plays is, naming the key.
func TestASettingACommandNeverReads(t *testing.T) {
	noEngineNoQueue(t)
	t.Setenv("JUDGE_SANDBOX_CPUS", "0")
	replayFile := filepath.Join(sandboxtest.Root(), "judge/view/testdata/amazes.jsonl")
	for _, args := range [][]string{{"version"}, {"replay", "verify", replayFile}} {
		if out, err := runCLI(t, args...); err != nil {
			t.Errorf("judge %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if _, err := runCLI(t, "contest", "status"); err == nil || strings.Contains(err.Error(), "sandbox") || !strings.Contains(err.Error(), "login") {
		t.Errorf("judge contest status, not logged in: %v; want the login asked for, not the sandbox's setting", err)
	}
	for _, args := range [][]string{{"play", "--game", "amazes", replayFile, replayFile}, {"compile", replayFile}} {
		_, err := runCLI(t, args...)
		if exitCode(err) != 2 || !strings.Contains(fmt.Sprint(err), "sandbox.cpus: must be greater than zero (got 0)") {
			t.Errorf("judge %s: %v; want exit status 2 naming sandbox.cpus", strings.Join(args, " "), err)
		}
	}
}
