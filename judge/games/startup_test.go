package games_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// A bot that burns 600 ms of CPU beyond its language's start-up allowance before its first
// request, in a game whose first request allows 300 ms (the READY limit, the first answer's,
// or the whole game's budget, each game as its rules say), times out at that request, in
// every game and every language: start-up is the bot's time. The other players play on
// untouched.
//
// Each language plays one game, in turn, and every game is played: where the first request
// is and how it is limited is the game's, what start-up costs is the language's, and neither
// depends on the other (every pair cost 40 matches a runtime). Java plays SnakeCore, whose
// library runs the bot's constructor before it reads anything, and burns 1,500 ms there: a
// burn that long was once charged as answer time at turn 0, not start-up, under runc.
func TestStartUpBurnerTimesOutAtItsFirstRequest(t *testing.T) {
	sandboxtest.Alone(t, "it times start-up burns against their allowance")
	r := matchtest.Runner(t)
	type startCase struct {
		game   string
		opts   map[string]string
		seat   int
		others int
	}
	cases := []startCase{
		{"amazes", map[string]string{"time": "300ms", "turns": "20"}, 0, 1},
		{"ontherun", map[string]string{"time": "300ms", "cities": "30"}, 0, 1},
		{"dropblock", map[string]string{"ready": "300ms", "turns": "40"}, 1, 3},
		{"langwars", map[string]string{"ready": "300ms", "turns": "2"}, 2, 3},
		{"snakecore", map[string]string{"first": "300ms", "moves": "10"}, 3, 3},
	}
	java := slices.Index(langs, "java")
	played := map[string]bool{}
	for i, lang := range langs {
		// Counted from Java, which plays SnakeCore, the last game.
		n := len(cases)
		tc := cases[((i-java-1)%n+n)%n]
		played[tc.game] = true
		g, _ := games.Lookup(tc.game)
		t.Run(tc.game+"/"+lang, func(t *testing.T) {
			l, _ := images.LangByName(lang)
			allow := l.Startup(sandboxtest.Runtime()).Milliseconds()
			// Beyond the allowance by 600 ms, so that what is charged clears the limit
			// whatever the runtime's own start (a JVM's under gVisor: about a second).
			burn := 600 + allow
			if lang == "java" {
				burn = max(burn, 1500)
			}
			bots := make([]string, 0, tc.others+1)
			for i := 0; i < tc.others; i++ {
				bots = append(bots, "bots/"+tc.game+"/cpp")
			}
			burner := "sandbox/testdata/burner/" + lang
			if tc.game == "snakecore" && lang == "java" {
				burner += "-jbot" // SnakeCore's Java bots are a Jbot, run by its library
			}
			burner = withBurn(t, burner, burn)
			bots = append(bots[:tc.seat], append([]string{burner}, bots[tc.seat:]...)...)
			res, rp := matchtest.Play(t, r, g, 11, tc.opts, bots...)
			first := -1
			for _, x := range rp.Exchanges {
				if x.Player == tc.seat && (x.Expect > 0 || x.Ready != "") {
					first = x.Turn
					break
				}
			}
			p := res.Players[tc.seat]
			if f := p.Fault; f == nil || f.Kind != game.Timeout || f.Turn != first ||
				!strings.Contains(f.Detail, "300 ms CPU limit") || !strings.Contains(f.Detail, "starting up") {
				t.Errorf("fault %v; want a timeout at its first request (turn %d) naming the 300 ms limit and the start-up", f, first)
			}
			// The bot times its burn by its own clock; under gVisor the host's cgroup sees less.
			least := burn - 10
			if sandboxtest.GVisor() {
				least = burn * 3 / 4
			}
			if p.StartupCPUms < least || p.CPUms < p.StartupCPUms-allow {
				t.Errorf("start-up %d ms CPU, charged %d ms; want the %d ms burn (at least %d ms), and it less the allowance (%d ms)", p.StartupCPUms, p.CPUms, burn, least, allow)
			}
			for i, o := range res.Players {
				if i != tc.seat && o.Fault != nil {
					t.Errorf("player %d: %v", i, fmt.Sprint(o.Fault))
				}
			}
		})
	}
	for _, tc := range cases {
		if !played[tc.game] {
			t.Errorf("%s was not played: fewer languages than games", tc.game)
		}
	}
}

// withBurn copies the burner at dir (relative to the repository root) to a directory of the
// test's, its burn set to ms: the figure on its line marked burn-ms.
func withBurn(t *testing.T, dir string, ms int64) string {
	t.Helper()
	src := filepath.Join(sandboxtest.Root(), dir)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	marked := regexp.MustCompile(`\b600\b(.*burn-ms)`)
	found := false
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if marked.Match(b) {
			found = true
			b = marked.ReplaceAll(b, []byte(fmt.Sprintf("%d$1", ms)))
		}
		if err := os.WriteFile(filepath.Join(out, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !found {
		t.Fatalf("%s has no line marked burn-ms", dir)
	}
	return out
}
