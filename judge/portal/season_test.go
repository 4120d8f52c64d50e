package portal_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/daemon"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/judge/tournament"
)

// seasonBot is the Amazes sample bot in lang that explores for its first turns turns and
// then only turns round (T) for the rest of the match's 150: it discovers no square after,
// so turns is the bot's strength (150 is the sample).
func seasonBot(t *testing.T, lang string, turns int) (string, string) {
	t.Helper()
	name := map[string]string{"cpp": "bot.cpp", "go": "bot.go", "java": "Bot.java", "pascal": "bot.pas"}[lang]
	src, err := os.ReadFile(filepath.Join("..", "..", "bots", "amazes", lang, name))
	if err != nil {
		t.Fatal(err)
	}
	// Where each sample writes its answer, and what goes before.
	at := map[string][2]string{
		"cpp":    {`        std::cout << answer`, `        if (turn > %d) answer = "T";` + "\n"},
		"go":     {"\t\tout.Write(answer)", "\t\tif turn > %d {\n\t\t\tanswer = []byte{'T'}\n\t\t}\n"},
		"java":   {`            out.print(answer);`, `            if (turn > %d) { answer.setLength(0); answer.append('T'); }` + "\n"},
		"pascal": {`    writeln(answer);`, `    if turn > %d then answer := 'T';` + "\n"},
	}[lang]
	s := string(src)
	if !strings.Contains(s, at[0]) {
		t.Fatalf("the %s sample has no %q to put the lazy turns before", lang, at[0])
	}
	return name, strings.Replace(s, at[0], fmt.Sprintf(at[1], turns)+at[0], 1)
}

// timeBomb is the C++ sample that crashes at its third turn once the clock passes at: it
// passes its validation match and crashes on the ladder afterwards.
func timeBomb(t *testing.T, at time.Time) string {
	_, s := seasonBot(t, "cpp", 150)
	s = strings.Replace(s, "#include <string>", "#include <string>\n#include <ctime>\n#include <cstdlib>", 1)
	return strings.Replace(s, `        if (line == "Quit") return 0;`+"\n",
		fmt.Sprintf(`        if (line == "Quit") return 0;
        if (turn == 3 && time(nullptr) > %dLL) abort();
`, at.Unix()), 1)
}

// seasonJudge is the judge of a season: the embedded NATS server, a daemon and a portal,
// each of which can be killed and started again.
type seasonJudge struct {
	t      *testing.T
	e      *env
	runner *match.Runner
	stopD  func()
	stopP  func()
}

func (j *seasonJudge) startDaemon() {
	ctx, cancel := context.WithCancel(context.Background())
	d, err := daemon.New(daemon.Options{Queue: j.e.q, Runners: []daemon.Runner{j.runner}, Workers: 2,
		Jobs: job.Rules{Game: games.Lookup, Langs: images.LangNames(), MaxSource: 1 << 20}, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		j.t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	j.stopD = func() { cancel(); <-done }
}

func (j *seasonJudge) startPortal() {
	st, p := newPortal(j.t, j.e.q, slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.Engine().Run(ctx); close(done) }()
	j.e.st, j.e.srv = st, httptest.NewServer(p)
	srv := j.e.srv
	j.stopP = func() { srv.Close(); cancel(); <-done }
}

// TestSeason plays a season through the API on the real judge: 12 contestants whose bots
// differ in strength, in four languages, new versions over time (one of them on trial
// first), one that crashes on purpose, JUDGE_SEASON of ladder (make season: 15m) with the
// portal and the daemon killed and started again halfway, a test competition, the deadline
// and the official round; the two rounds' exports are run again by the tournament engine on
// a second judge. It prints the figures BENCHMARKS.md quotes.
func TestSeason(t *testing.T) {
	t.Parallel()
	length, err := time.ParseDuration(os.Getenv("JUDGE_SEASON"))
	if err != nil {
		t.Skip("a long run of its own: make season (JUDGE_SEASON=15m)")
	}
	begin := time.Now()
	q, err := queue.Open(t.Context(), queue.Options{Redelivery: queue.Redelivery{AckWait: 15 * time.Second}, StoreDir: t.TempDir(), InProcess: true,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	j := &seasonJudge{t: t, e: &env{t: t, q: q}, runner: matchtest.Runner(t)}
	j.startDaemon()
	j.startPortal()
	defer func() { j.stopP(); j.stopD() }()

	house, text := seasonBot(t, "cpp", 150)
	ctx := t.Context()
	// The ladder as fast as the daemon plays it: the season measures the ladder's rate and
	// fairness, which a ceiling of an hour's matches would hold down to a few a minute.
	set := ladder.Defaults
	set.MaxRate = 3600
	if _, err := contest.New(contest.Config{Store: j.e.st, Queue: q, Games: games.Lookup}).NewContest(ctx, contest.HostActor(),
		store.Contest{Name: "season", Game: "amazes", TestQuota: 10, Ladder: true, LadderSettings: set},
		[]contest.HouseBot{{Name: "sample", Lang: "cpp", Files: map[string][]byte{house: []byte(text)}}}); err != nil {
		t.Fatal(err)
	}
	org := j.e.user("season", "org", true)
	langs := []string{"cpp", "go", "java", "pascal"}
	// Turns of exploring: the strength. Above about 75 turns it hardly grows (the maze is
	// mostly known by then: a 15-minute season rated 90, 110 and 150 within 2 of each
	// other), so the strongest is well above the rest.
	steps := []int{5, 8, 10, 12, 15, 18, 20, 25, 30, 40, 50, 150}
	cs := make([]*client, len(steps))
	subs := map[string]string{}
	upload := func(c *client, lang string, steps int) string {
		name, src := seasonBot(t, lang, steps)
		code, out := c.upload("season", map[string]string{name: src})
		if code != 202 {
			t.Fatalf("%s uploads: %d %v", c.login, code, out)
		}
		c.waitStatus(out["id"].(string), "ready")
		return out["id"].(string)
	}
	activate := func(c *client, id string) {
		if code, out, _ := c.api("POST", "/api/v1/submissions/"+id+"/activate", nil, ""); code != 200 {
			t.Fatalf("%s activates %s: %d %v", c.login, id, code, out)
		}
		subs[c.login] = id
	}
	for i, s := range steps {
		cs[i] = j.e.user("season", fmt.Sprintf("c%02d", i+1), false)
		activate(cs[i], upload(cs[i], langs[i%len(langs)], s))
	}
	t.Logf("%v: 12 versions active", time.Since(begin).Round(time.Second))
	ladderStart := time.Now()
	at := func(f float64) { time.Sleep(time.Until(ladderStart.Add(time.Duration(f * float64(length))))) }

	// A fifth in: c03's new version crashes on the ladder (a time bomb, past validation).
	at(0.2)
	name, _ := seasonBot(t, "cpp", 150)
	code, out := cs[2].upload("season", map[string]string{name: timeBomb(t, time.Now().Add(30*time.Second))})
	if code != 202 {
		t.Fatalf("the time bomb: %d %v", code, out)
	}
	bomb := out["id"].(string)
	cs[2].waitStatus(bomb, "ready")
	activate(cs[2], bomb)

	// A third in: three contestants improve; c05 tries its new version on the ladder first.
	at(0.33)
	activate(cs[0], upload(cs[0], "cpp", 25))
	activate(cs[1], upload(cs[1], "go", 30))
	trial := upload(cs[4], "java", 60)
	if code, out, _ := cs[4].api("POST", "/api/v1/submissions/"+trial+"/stage", nil, ""); code != 200 {
		t.Fatalf("stage: %d %v", code, out)
	}

	// Halfway: the portal and the daemon are killed, and started again.
	at(0.5)
	activate(cs[4], trial)
	before, _ := j.e.st.Ladder(ctx, "season")
	j.stopP()
	j.stopD()
	t.Logf("%v: portal and daemon killed, %d rated, %d pending", time.Since(begin).Round(time.Second), before.Rated, len(before.Pending))
	time.Sleep(5 * time.Second)
	j.startDaemon()
	j.startPortal()

	// From here to the deadline, every version that plays should play as much as the others.
	at(0.55)
	from, _ := j.e.st.Ladder(ctx, "season")

	// A test competition.
	at(0.6)
	body, _ := json.Marshal(map[string]any{"kind": "test"})
	code, out, _ = org.api("POST", "/api/v1/contests/season/rounds", bytes.NewReader(body), "application/json")
	if code != 202 {
		t.Fatalf("a test competition: %d %v", code, out)
	}
	test := org.waitRoundFor(out["id"].(string), 15*time.Minute)

	// The deadline: the ladder stops; the official round.
	at(1)
	body, _ = json.Marshal(map[string]any{"deadline": time.Now().UTC().Format(time.RFC3339)})
	if code, out, _ := org.api("PUT", "/api/v1/contests/season/settings", bytes.NewReader(body), "application/json"); code != 200 {
		t.Fatalf("the deadline: %d %v", code, out)
	}
	ladderEnd := time.Now()
	eventually(t, 5*time.Minute, func() error {
		if st, _ := j.e.st.Ladder(ctx, "season"); len(st.Pending) > 0 {
			return fmt.Errorf("%d ladder matches pending", len(st.Pending))
		}
		return nil
	})
	body, _ = json.Marshal(map[string]any{"kind": "official"})
	code, out, _ = org.api("POST", "/api/v1/contests/season/rounds", bytes.NewReader(body), "application/json")
	if code != 202 {
		t.Fatalf("the official round: %d %v", code, out)
	}
	roundStart := time.Now()
	official := org.waitRoundFor(out["id"].(string), 15*time.Minute)
	roundTime := time.Since(roundStart)

	// The checks.
	st, _ := j.e.st.Ladder(ctx, "season")
	ms, _ := j.e.st.Matches(ctx, "season", "*")
	var ladderMatches, noResult int
	var wall []time.Duration
	for _, m := range ms {
		if m.Kind != store.KindLadder {
			continue
		}
		ladderMatches++
		if m.Result == nil {
			noResult++
			continue
		}
		wall = append(wall, m.Result.Judge.Finished.Sub(m.Result.Judge.Started))
	}
	if noResult > 0 || ladderMatches != st.Rated+st.Trials+st.Skipped {
		t.Errorf("%d ladder matches stored, %d without a result; %d rated, %d trials, %d skipped", ladderMatches, noResult, st.Rated, st.Trials, st.Skipped)
	}
	rows := org.leaderboard("season")
	if rows[0]["login"] != "c12" {
		t.Errorf("the leader is %v, want c12 (the sample, exploring all 150 turns): %v", rows[0]["login"], rows[:3])
	}
	_, sub, _ := cs[2].api("GET", "/api/v1/submissions/"+bomb, nil, "")
	if d, _ := sub["disabled"].(map[string]any); d == nil || !strings.Contains(fmt.Sprint(d["reason"]), "crash") {
		t.Errorf("the time bomb is not off the ladder for its crashes: %v", sub["disabled"])
	}
	// Fairness: the matches of each version that played from 0.55 of the ladder to its end.
	var played []float64
	var who []string
	for sub, p := range st.Players {
		was := from.Players[sub]
		if !p.Active || p.Disabled != nil || was == nil || !was.Active || was.Disabled != nil {
			continue
		}
		played = append(played, float64(p.Matches+p.Unrated-was.Matches-was.Unrated))
		who = append(who, fmt.Sprintf("%s v%d", p.Login, p.Version.Version))
	}
	mean := 0.0
	for _, n := range played {
		mean += n
	}
	mean /= float64(len(played))
	worst := 0.0
	for i, n := range played {
		worst = max(worst, math.Abs(n-mean)/mean)
		if math.Abs(n-mean) > 0.2*mean {
			t.Errorf("%s played %.0f matches in the last part of the ladder, the mean is %.1f", who[i], n, mean)
		}
	}

	// The rounds' exports, run by the tournament engine on a second judge.
	q2, err := queue.Open(ctx, queue.Options{StoreDir: t.TempDir(), InProcess: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer q2.Close()
	j2 := &seasonJudge{t: t, e: &env{t: t, q: q2}, runner: j.runner}
	j2.startDaemon()
	defer j2.stopD()
	for _, round := range []map[string]any{test, official} {
		id := round["id"].(string)
		resp, err := org.web.Get(j.e.srv.URL + "/c/season/admin/rounds/" + id + ".tar.gz")
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("the export of %s: %v", id, err)
		}
		dir := untar(t, resp.Body)
		resp.Body.Close()
		spec, err := tournament.Load(filepath.Join(dir, id))
		if err != nil {
			t.Fatal(err)
		}
		g, _ := games.Lookup(spec.Game)
		tt := &tournament.Tournament{Spec: spec, Game: g}
		for _, en := range spec.Entrants {
			sub, err := submission.Load(en.Path, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			tt.Entrants = append(tt.Entrants, tournament.Entrant{Name: en.Name, Submission: sub})
		}
		got, err := tt.Run(ctx, q2)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(round["outcome"].(map[string]any)["standings"])
		have, _ := json.Marshal(got.Standings)
		if !jsonEqual(want, have) {
			t.Errorf("round %s's standings:\n%s\nthe tournament engine on its export:\n%s", id, want, have)
		}
	}

	slices.Sort(wall)
	minutes := ladderEnd.Sub(ladderStart).Minutes()
	t.Logf("season: %v in all; ladder %.1f min: %d rated + %d trial matches (%.1f a minute), %d skipped; fairness: worst %.1f%% off the mean %.1f matches over %d versions (the last 45%%)",
		time.Since(begin).Round(time.Second), minutes, st.Rated, st.Trials, float64(st.Rated+st.Trials)/minutes, st.Skipped, 100*worst, mean, len(played))
	if len(wall) > 0 {
		t.Logf("a ladder match on the daemon: median %v, p90 %v; the official round (%v matches): %v",
			wall[len(wall)/2].Round(time.Millisecond), wall[len(wall)*9/10].Round(time.Millisecond),
			official["outcome"].(map[string]any)["matches"], roundTime.Round(time.Second))
	}
	t.Logf("leaderboard: %v", func() []string {
		var out []string
		for _, r := range rows {
			out = append(out, fmt.Sprintf("%v v%v %.1f (%v)", r["login"], r["version"], r["rating"], r["matches"]))
		}
		return out
	}())
}

// waitRoundFor polls a round until it is done, for up to d.
func (c *client) waitRoundFor(id string, d time.Duration) map[string]any {
	c.e.t.Helper()
	var round map[string]any
	eventually(c.e.t, d, func() error {
		code, out, _ := c.api("GET", "/api/v1/rounds/"+id, nil, "")
		if code != 200 || out["status"] != "done" {
			return fmt.Errorf("round %s: %d %v", id, code, out["status"])
		}
		round = out
		return nil
	})
	return round
}
