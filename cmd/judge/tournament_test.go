package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/tournament/standings"
	"github.com/botjudge/judge/judge/view"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// The tournament command with a real NATS server and a real daemon, both embedded in the
// command, and real bots: the sample bots of each language, twice, so 8 entrants.

// natsHere gives the test a NATS server of its own when a command embeds one: its own port and
// storage, so that nothing is left for the next run.
func natsHere(t *testing.T) (listen, store string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	listen = l.Addr().String()
	l.Close()
	store = t.TempDir()
	t.Setenv("JUDGE_NATS_LISTEN", listen)
	t.Setenv("JUDGE_NATS_STORE", store)
	t.Setenv("JUDGE_NATS_URL", "")
	return listen, store
}

// entrantsDir is a directory of 8 entrants of game: its sample bot in each language, twice.
func entrantsDir(t *testing.T, game string, n int) string {
	t.Helper()
	dir := t.TempDir()
	langs := []string{"cpp", "go", "java", "pascal"}
	for i := range n {
		lang := langs[i%len(langs)]
		src := filepath.Join(sandboxtest.Root(), "bots", game, lang)
		if err := os.CopyFS(filepath.Join(dir, fmt.Sprint(lang, i/len(langs)+1)), os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// tournamentJSON runs `judge tournament ... --json` until ctx is done and returns its outcome.
func tournamentJSON(t *testing.T, ctx context.Context, args ...string) (standings.Outcome, error) {
	t.Helper()
	var out bytes.Buffer
	root := newRoot()
	root.SetOut(&out)
	root.SetArgs(append([]string{"--data-dir", sandboxtest.DataDir(), "tournament", "--json"}, args...))
	err := root.ExecuteContext(ctx)
	var o standings.Outcome
	if err == nil {
		if jerr := json.Unmarshal(out.Bytes(), &o); jerr != nil {
			t.Fatalf("the outcome is not JSON: %v\n%s", jerr, out.String())
		}
	}
	return o, err
}

// A round robin of 5 entrants of each game (C++ twice: two entrants may share a bot), on the
// embedded default, gives full standings, and judge view --tournament shows each: its
// standings, and a match of each seat count with its replay, from the one store that holds
// every game's tournament. SnakeCore plays at its
// default four and, with its option players=2, at two, with no --seats.
func TestTournamentOfEachGame(t *testing.T) {
	sandboxtest.Engine(t)
	listen, store := natsHere(t)
	for _, tc := range []struct {
		name, game string
		opts       []string
		seats      int
	}{
		{"amazes", "amazes", nil, 2},
		{"ontherun", "ontherun", []string{"--opt", "cities=60"}, 2},
		{"dropblock", "dropblock", []string{"--opt", "turns=200"}, 4},
		{"langwars", "langwars", nil, 4},
		{"snakecore", "snakecore", []string{"--opt", "moves=100"}, 4},
		{"snakecore-2", "snakecore", []string{"--opt", "moves=100", "--opt", "players=2"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			o, err := tournamentJSON(t, context.Background(), append([]string{"--game", tc.game, "--name", "each-" + tc.name}, append(tc.opts, entrantsDir(t, tc.game, 5))...)...)
			if err != nil {
				t.Fatal(err)
			}
			want := 20 // two-player matches: every ordered pair of 5
			if tc.seats == 4 {
				want = 5 // every group of 4 of 5
			}
			if o.Matches != want || o.Judged != want || len(o.Failed) != 0 || len(o.Standings) != 5 {
				t.Fatalf("%d matches, %d judged, failed %v, %d rows; want %d judged of %d and 5 rows", o.Matches, o.Judged, o.Failed, len(o.Standings), want, want)
			}
			matches := 0
			for i, r := range o.Standings {
				matches += r.Matches
				if r.Rank < 1 || i > 0 && r.Points > o.Standings[i-1].Points {
					t.Errorf("row %d out of order: %+v", i, r)
				}
				// How sure it is, under the game's own standing rule.
				last := i == len(o.Standings)-1
				if rr := r.RankRange; rr[0] > r.Rank || rr[1] < r.Rank || rr[0] < 1 || rr[1] > 5 || last != (r.AboveNext == nil) {
					t.Errorf("row %d: rank %d could be %v, above the next %v", i, r.Rank, rr, r.AboveNext)
				}
			}
			if o.Confidence != 0.95 {
				t.Errorf("confidence %v", o.Confidence)
			}
			if matches != tc.seats*want {
				t.Errorf("%d entrant-matches in %d matches of %d players", matches, want, tc.seats)
			}
			q, err := queue.Open(context.Background(), queue.Options{Listen: listen, StoreDir: store})
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			checkTournamentView(t, q, o, want, tc.seats)
			t.Logf("%s: %d matches in %v", tc.name, want, time.Since(start).Round(time.Second))
		})
	}
}

// A bot that breaks in every match is separated from every other entrant, in a game of two
// (Amazes, where a broken bot draws when its opponent scores nothing too: three rounds) and a
// game of four (Lang Wars, whose sample bots share first place).
func TestTournamentSeparatesABrokenBot(t *testing.T) {
	sandboxtest.Engine(t)
	natsHere(t)
	for _, tc := range []struct {
		game   string
		langs  []string
		rounds string
	}{
		{"amazes", []string{"cpp", "go", "java", "pascal"}, "3"},
		{"langwars", []string{"cpp", "go", "java", "pascal", "python"}, "1"},
	} {
		t.Run(tc.game, func(t *testing.T) {
			dir := t.TempDir()
			for _, l := range append(tc.langs, "broken") {
				if err := os.CopyFS(filepath.Join(dir, l), os.DirFS(filepath.Join(sandboxtest.Root(), "bots", tc.game, l))); err != nil {
					t.Fatal(err)
				}
			}
			o, err := tournamentJSON(t, context.Background(), "--game", tc.game, "--rounds", tc.rounds, "--name", "broken-"+tc.game, dir)
			if err != nil {
				t.Fatal(err)
			}
			n := len(o.Standings)
			for i, r := range o.Standings {
				switch {
				case r.Name == "broken" && (i != n-1 || r.RankRange != [2]int{n, n}):
					t.Errorf("the broken bot ranked %d, could hold the places %v; want [%d %d]", r.Rank, r.RankRange, n, n)
				case r.Name != "broken" && r.RankRange[1] >= n:
					t.Errorf("%s could be last (%v), below the broken bot", r.Name, r.RankRange)
				}
			}
			if above := o.Standings[n-2].AboveNext; above == nil || *above < o.Confidence {
				t.Errorf("the last but one stands above the broken bot at %v, want at least %v", above, o.Confidence)
			}
		})
	}
}

// Stopped midway and run again, a tournament resumes: it judges no match twice and ends with
// the standings of an uninterrupted run of the same seed. A match the judge failed (its
// result an infrastructure error) is published again and counts once judged.
func TestTournamentResumesAndRetries(t *testing.T) {
	sandboxtest.Engine(t)
	listen, store := natsHere(t)
	dir := entrantsDir(t, "amazes", 8)
	args := func(name string) []string {
		return []string{"--game", "amazes", "--seed", "9", "--name", name, "--opt", "turns=60", dir}
	}

	whole, err := tournamentJSON(t, context.Background(), args("whole")...)
	if err != nil {
		t.Fatal(err)
	}

	// The judge failed the first attempt at match 3 of "resumed" before it started.
	q, err := queue.Open(context.Background(), queue.Options{Listen: listen, StoreDir: store})
	if err != nil {
		t.Fatal(err)
	}
	failed, _ := json.Marshal(result.Failed("resumed-1-3", "amazes", 1, result.Errorf(result.Infrastructure, "the engine is gone")))
	if err := q.PublishResult(context.Background(), queue.LaneMain, "resumed-1-3", failed); err != nil {
		t.Fatal(err)
	}
	q.Close()

	// Stopped once 10 of its 56 matches have results: midway, however fast the judge is.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			q, err := queue.Open(ctx, queue.Options{URL: "nats://" + listen})
			if err != nil {
				time.Sleep(50 * time.Millisecond) // the tournament's embedded server is starting
				continue
			}
			defer q.Close()
			n := 0
			q.Results(ctx, "", true, func(id string, _ []byte) error {
				if strings.HasPrefix(id, "resumed-") {
					if n++; n == 10 {
						cancel()
					}
				}
				return nil
			})
			return
		}
	}()
	if _, err := tournamentJSON(t, ctx, args("resumed")...); err == nil {
		t.Fatal("the tournament finished before it was stopped: stopping it proves nothing")
	}
	resumed, err := tournamentJSON(t, context.Background(), args("resumed")...)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Judged != 56 || len(resumed.Failed) != 0 || !reflect.DeepEqual(resumed.Standings, whole.Standings) {
		t.Errorf("resumed: %d judged, failed %v, standings %+v\nuninterrupted: %+v", resumed.Judged, resumed.Failed, resumed.Standings, whole.Standings)
	}
	// Two copies of each of four bots (docs/tournament.md's example): the round cannot tell
	// copies apart, and says so: each copy's place lies in the other's interval.
	at := map[string]standings.Rated{}
	for _, r := range whole.Standings {
		at[r.Name] = r
	}
	for _, lang := range []string{"cpp", "go", "java", "pascal"} {
		a, b := at[lang+"1"], at[lang+"2"]
		if a.Rank < b.RankRange[0] || a.Rank > b.RankRange[1] || b.Rank < a.RankRange[0] || b.Rank > a.RankRange[1] {
			t.Errorf("copies told apart: %s ranked %d of %v, %s ranked %d of %v", a.Name, a.Rank, a.RankRange, b.Name, b.Rank, b.RankRange)
		}
	}

	q, err = queue.Open(context.Background(), queue.Options{Listen: listen, StoreDir: store})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	results := map[string]int{}
	q.Results(context.Background(), "", false, func(id string, _ []byte) error {
		results[id]++
		return nil
	})
	for id, n := range results {
		if n > 1 {
			t.Errorf("match %s has %d results: judged twice", id, n)
		}
	}
	if results["resumed-1-3-r2"] != 1 {
		t.Errorf("the match the judge failed was not published again: %v", results)
	}
	if n := len(results); n != 56+56+1 {
		t.Errorf("%d results stored; want 56 for each run and the failed attempt", n)
	}

	// The view of "whole", whose store also holds "resumed" and its failed attempt.
	checkTournamentView(t, q, whole, 56, 2)
}

// checkTournamentView is judge view --tournament on the outcome o, read from the store of q:
// its title and standings, then the tournament's matches alone from the results stream, each
// of seats players and with its replay; the film the first and the last link to are of seats
// players, and re-judge.
func checkTournamentView(t *testing.T, q *queue.Queue, o standings.Outcome, matches, seats int) {
	t.Helper()
	outcome := filepath.Join(t.TempDir(), o.Tournament+".json")
	b, _ := json.Marshal(o)
	if err := os.WriteFile(outcome, b, 0o644); err != nil {
		t.Fatal(err)
	}
	s := &view.Server{Source: &view.Stream{Store: q, Bucket: queue.BucketReplays}, Lookup: games.Lookup}
	if err := readOutcome(outcome, s); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	var list struct {
		Title     string
		Standings []standings.Rated
		Matches   []struct {
			Key, ID, Game string
			Replay        bool
			Players       []struct{ Name string }
		}
	}
	getJSON(t, srv.URL+"/api/list", &list)
	title := fmt.Sprintf("Tournament %s (%s)", o.Tournament, o.Game)
	if list.Title != title || !reflect.DeepEqual(list.Standings, o.Standings) || len(list.Matches) != matches {
		t.Fatalf("the list: %q, %d rows, %d matches; want %q, the tournament's %d rows and %d matches",
			list.Title, len(list.Standings), len(list.Matches), title, len(o.Standings), matches)
	}
	for _, m := range list.Matches {
		if !strings.HasPrefix(m.ID, o.Tournament+"-") || m.Game != o.Game || !m.Replay || len(m.Players) != seats {
			t.Fatalf("listed %s: game %s, replay %v, %d players; want a match of %s with its replay and %d players",
				m.ID, m.Game, m.Replay, len(m.Players), o.Game, seats)
		}
	}
	for _, m := range []int{0, len(list.Matches) - 1} {
		var film view.Film
		id := list.Matches[m].ID
		getJSON(t, srv.URL+"/api/film/"+list.Matches[m].Key, &film)
		if film.Problem != "" || len(film.Mismatch) != 0 || film.Result.ID != id || len(film.Header.Players) != seats || len(film.Frames) < 2 {
			t.Errorf("the film of %s: problem %q, mismatch %v, result %q, %d players, %d pictures; want %d players",
				id, film.Problem, film.Mismatch, film.Result.ID, len(film.Header.Players), len(film.Frames), seats)
		}
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	r, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	if err := json.NewDecoder(r.Body).Decode(v); err != nil || r.StatusCode != 200 {
		t.Fatalf("%s: %d %v", url, r.StatusCode, err)
	}
}
