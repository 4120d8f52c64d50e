package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/judge/tournament/schedule"
	"github.com/botjudge/judge/judge/tournament/standings"
)

// The tournament's logic against an in-memory queue and a fake daemon that judges each job
// at once: the strongest entrant wins (an entrant's strength is the digit its name ends
// with), equal strengths draw. The real queue and daemon are in cmd/judge's tests.

type memQueue struct {
	mu      sync.Mutex
	jobs    []string          // ids, in the order submitted
	data    map[string][]byte // by id
	results []string          // ids with a result, in the order published
	stored  map[string][]byte
	changed chan struct{}
	// fail answers these job ids with an infrastructure error.
	fail map[string]bool
	// judged counts the matches judged, by id.
	judged map[string]int
	// stopAfter, when above 0, stops judging after that many results (a daemon that died).
	stopAfter int
	// noise, when above 0, adds to each player's strength a draw in [0, noise) fixed by the
	// match's seed and the player's seat: matches of the same players then differ.
	noise float64
	// model, when set, gives the players' scores instead (the benchmarks' simulated fields).
	model func(seed uint64, names []string) []float64
}

func newMemQueue() *memQueue {
	return &memQueue{data: map[string][]byte{}, stored: map[string][]byte{}, changed: make(chan struct{}),
		fail: map[string]bool{}, judged: map[string]int{}}
}

func (q *memQueue) Submit(_ context.Context, id string, data []byte) (bool, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, ok := q.data[id]; ok {
		return true, nil
	}
	q.data[id] = data
	q.jobs = append(q.jobs, id)
	if q.stopAfter > 0 && len(q.results) >= q.stopAfter {
		return false, nil
	}
	if _, done := q.stored[id]; !done { // a daemon acknowledges a job already judged
		q.judge(id, data)
	}
	return false, nil
}

// judge plays a job as the fake daemon.
func (q *memQueue) judge(id string, data []byte) {
	var j job.Job
	json.Unmarshal(data, &j)
	var res result.Result
	if q.fail[id] {
		res = result.Failed(id, j.Game, *j.Seed, result.Errorf(result.Infrastructure, "the engine is gone"))
	} else {
		q.judged[id]++
		res = result.Result{ID: id, Game: j.Game, Seed: *j.Seed, Status: result.StatusOK}
		var strengths []float64
		if q.model != nil {
			var names []string
			for _, p := range j.Players {
				names = append(names, p.Name)
			}
			strengths = q.model(*j.Seed, names)
		}
		for k, p := range j.Players {
			if q.model != nil {
				break
			}
			st := float64(p.Name[len(p.Name)-1] - '0')
			if q.noise > 0 {
				h := schedule.Seed(*j.Seed, k, len(p.Name))
				st += q.noise * float64(h%1000) / 1000
				st = float64(int(st)) // whole points: equal ones draw
			}
			strengths = append(strengths, st)
		}
		ranks := make([]int, len(strengths))
		for k, s := range strengths {
			ranks[k] = 1
			for _, o := range strengths {
				if o > s {
					ranks[k]++
				}
			}
		}
		for k, p := range j.Players {
			res.Players = append(res.Players, result.Player{Name: p.Name, Lang: p.Lang, Score: strengths[k], Rank: ranks[k]})
		}
	}
	b, _ := json.Marshal(res)
	q.stored[id] = b
	q.results = append(q.results, id)
	close(q.changed)
	q.changed = make(chan struct{})
}

func (q *memQueue) Results(ctx context.Context, id string, follow bool, fn func(string, []byte) error) error {
	for i := 0; ; i++ {
		q.mu.Lock()
		for i >= len(q.results) {
			if !follow {
				q.mu.Unlock()
				return nil
			}
			ch := q.changed
			q.mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
				return ctx.Err()
			}
			q.mu.Lock()
		}
		rid := q.results[i]
		data := q.stored[rid]
		q.mu.Unlock()
		if id == "" || id == rid {
			if err := fn(rid, data); err != nil {
				return err
			}
		}
	}
}

// entrants are named e<i><strength>: e.g. "a3" has strength 3.
func entrants(names ...string) []Entrant {
	var es []Entrant
	for _, n := range names {
		es = append(es, Entrant{Name: n, Submission: submission.Submission{Lang: "cpp", Files: map[string][]byte{"a.cpp": []byte("int main(){}")}}})
	}
	return es
}

func tournamentOf(t testing.TB, game string, spec Spec, names ...string) *Tournament {
	t.Helper()
	g, ok := games.Lookup(game)
	if !ok {
		t.Fatal(game)
	}
	spec.Name, spec.Game = "t", game
	for _, n := range names {
		spec.Entrants = append(spec.Entrants, EntrantSpec{Name: n, Path: n})
	}
	return &Tournament{Spec: spec, Game: g, Entrants: entrants(names...)}
}

func order(o standings.Outcome) string {
	var s []string
	for _, r := range o.Standings {
		s = append(s, fmt.Sprintf("%d %s %g", r.Rank, r.Name, r.Points))
	}
	return strings.Join(s, ", ")
}

// A round robin of two-player matches: Amazes, and SnakeCore, a game of four by default, with
// its option players=2.
func TestRoundRobinTwoPlayers(t *testing.T) {
	for _, tc := range []struct {
		game string
		opts map[string]string
	}{
		{"amazes", nil},
		{"snakecore", map[string]string{"players": "2"}},
	} {
		t.Run(tc.game, func(t *testing.T) {
			q := newMemQueue()
			tr := tournamentOf(t, tc.game, Spec{Options: tc.opts}, "a1", "b4", "c2", "d3")
			o, err := tr.Run(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if o.Matches != 12 || o.Judged != 12 || len(o.Failed) != 0 || len(q.jobs) != 12 {
				t.Fatalf("%d matches, %d judged, failed %v, %d jobs; want 12 of each", o.Matches, o.Judged, o.Failed, len(q.jobs))
			}
			for _, id := range q.jobs {
				var j job.Job
				if err := json.Unmarshal(q.data[id], &j); err != nil || len(j.Players) != 2 {
					t.Fatalf("job %s: %d players, %v; want 2", id, len(j.Players), err)
				}
			}
			// Each plays 6 matches scoring its strength each time.
			if got := order(o); got != "1 b4 24, 2 d3 18, 3 c2 12, 4 a1 6" {
				t.Errorf("standings %s", got)
			}
			top := o.Standings[0]
			if top.Wins != 6 || top.Losses != 0 || top.Matches != 6 || top.Rating.BradleyTerry == nil || top.Rating.Elo == nil || *top.Rating.Elo <= 1500 {
				t.Errorf("the winner's row %+v", top)
			}
			checkDoubt(t, o)
			ids := append([]string(nil), q.jobs...)
			sort.Strings(ids)
			if ids[0] != "t-1-1" || ids[11] != "t-1-9" {
				t.Errorf("job ids %v", ids)
			}
		})
	}
}

// Stopped midway and run again, a tournament publishes only what has no result, judges no
// match twice and ends with the standings of a run that was never stopped; in a two-player
// game and in a four-player one, whose results carry four seats each.
func TestRestartResumes(t *testing.T) {
	for _, tc := range []struct {
		game      string
		names     []string
		matches   int // in two rounds
		stopAfter int // results before the daemons stop
	}{
		{"ontherun", []string{"a1", "b4", "c2", "d3", "e5"}, 40, 17},        // 2 × 20 ordered pairs
		{"dropblock", []string{"a1", "b4", "c2", "d3", "e5", "f0"}, 30, 11}, // 2 × C(6,4) groups
	} {
		t.Run(tc.game, func(t *testing.T) {
			of := func() *Tournament { return tournamentOf(t, tc.game, Spec{Rounds: 2}, tc.names...) }
			whole, err := of().Run(context.Background(), newMemQueue())
			if err != nil {
				t.Fatal(err)
			}
			if whole.Judged != tc.matches {
				t.Fatalf("the uninterrupted run judged %d matches, want %d", whole.Judged, tc.matches)
			}
			q := newMemQueue()
			q.stopAfter = tc.stopAfter
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			if _, err := of().Run(ctx, q); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("the stopped run: %v", err)
			}
			q.mu.Lock()
			q.stopAfter = 0
			// The daemons come back and judge what is waiting.
			for _, id := range q.jobs {
				if _, ok := q.stored[id]; !ok {
					q.judge(id, q.data[id])
				}
			}
			q.mu.Unlock()
			again, err := of().Run(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(again.Standings, whole.Standings) || again.Judged != tc.matches {
				t.Errorf("resumed: %d judged, %s; uninterrupted: %s", again.Judged, order(again), order(whole))
			}
			for id, n := range q.judged {
				if n > 1 {
					t.Errorf("match %s judged %d times", id, n)
				}
			}
		})
	}
}

// A match the judge fails is published again (and counts once it is judged); one it fails
// every time is listed as failed, counts for no one, and `retry --failed` plays it; in a
// two-player game and in a four-player one.
func TestInfrastructureFailuresAreRetried(t *testing.T) {
	for _, tc := range []struct {
		game    string
		names   []string
		matches int
	}{
		{"amazes", []string{"a1", "b4", "c2"}, 6},                // ordered pairs of 3
		{"dropblock", []string{"a1", "b4", "c2", "d3", "e5"}, 5}, // groups of 4 of 5
	} {
		t.Run(tc.game, func(t *testing.T) {
			q := newMemQueue()
			q.fail["t-1-3"] = true
			q.fail["t-1-5"], q.fail["t-1-5-r2"], q.fail["t-1-5-r3"] = true, true, true
			tr := tournamentOf(t, tc.game, Spec{}, tc.names...)
			o, err := tr.Run(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if q.judged["t-1-3-r2"] != 1 || !reflect.DeepEqual(o.Failed, []string{"t-1-5"}) || o.Judged != tc.matches-1 || o.Matches != tc.matches {
				t.Fatalf("judged %v; failed %v, %d of %d judged", q.judged, o.Failed, o.Judged, o.Matches)
			}
			// The failed match counts for no one: its entrants' matches add up to the judged ones'.
			seats := 0
			for _, r := range o.Standings {
				seats += r.Matches
			}
			if want := o.Judged * tr.seats(); seats != want {
				t.Errorf("the standings count %d entrant-matches, the %d judged matches have %d", seats, o.Judged, want)
			}
			tr.Retry = true
			o, err = tr.Run(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if q.judged["t-1-5-r4"] != 1 || len(o.Failed) != 0 || o.Judged != tc.matches {
				t.Errorf("after retry --failed: judged %v; failed %v, %d judged", q.judged, o.Failed, o.Judged)
			}
		})
	}
}

func TestSwiss(t *testing.T) {
	q := newMemQueue()
	// An entrant that does not compile, excluded, leaves five to pair by their own indices.
	tr := tournamentOf(t, "amazes", Spec{Format: Swiss, Rounds: 4, Broken: "exclude"}, "z0", "a1", "b4", "c2", "d3", "e5")
	tr.Entrants[0].Build = &result.Build{OK: false}
	o, err := tr.Run(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	// Five entrants: two matches and a bye each round.
	if o.Matches != 8 || o.Judged != 8 {
		t.Fatalf("%d matches, %d judged", o.Matches, o.Judged)
	}
	met := map[string]bool{}
	for _, id := range q.jobs {
		var j job.Job
		json.Unmarshal(q.data[id], &j)
		pair := []string{j.Players[0].Name, j.Players[1].Name}
		sort.Strings(pair)
		if met[pair[0]+pair[1]] {
			t.Errorf("%s and %s met twice", pair[0], pair[1])
		}
		met[pair[0]+pair[1]] = true
	}
	for _, r := range o.Standings {
		if r.Name == "z0" {
			if r.Matches != 0 {
				t.Errorf("the excluded entrant played %d matches", r.Matches)
			}
			continue
		}
		if r.Name == "e5" && (r.Losses != 0 || r.Wins != r.Matches || r.Matches < 3) {
			t.Errorf("the strongest entrant: %+v", r)
		}
		if r.Matches < 3 || r.Matches > 4 {
			t.Errorf("%s played %d matches in 4 rounds with a bye a round", r.Name, r.Matches)
		}
	}
}

// Four-player games: every group of four, places counted, OpenSkill ratings; broken entrants
// excluded when asked; a final among the best.
func TestFourPlayersAndFinal(t *testing.T) {
	q := newMemQueue()
	tr := tournamentOf(t, "dropblock", Spec{Final: 4}, "a1", "b4", "c2", "d3", "e5", "f0")
	tr.Entrants[5].Build = &result.Build{OK: false, Log: "error: expected ';'"}
	tr.Spec.Broken = "exclude"
	o, err := tr.Run(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	// C(5,4) = 5 groups, then the final's double round robin of the top 4: every group of 4
	// (one) in every seat rotation (two rounds of one rotation each... as the schedule plays it).
	if len(o.Broken) != 1 || o.Broken[0].Name != "f0" || !o.Broken[0].Excluded {
		t.Errorf("broken %+v", o.Broken)
	}
	for _, id := range q.jobs {
		if strings.Contains(string(q.data[id]), `"name":"f0"`) {
			t.Errorf("the excluded entrant plays %s", id)
		}
	}
	if got := order(o); !strings.HasPrefix(got, "1 e5") || !strings.Contains(got, "b4") {
		t.Errorf("standings %s", got)
	}
	top := o.Standings[0]
	if top.Places[0] == 0 || top.Rating.Mu == nil || top.Rating.Ordinal == nil || *top.Rating.Mu <= 25 {
		t.Errorf("the winner's row %+v", top)
	}
	last := o.Standings[len(o.Standings)-1]
	if last.Name != "f0" || last.Matches != 0 {
		t.Errorf("the last row %+v", last)
	}
	checkDoubt(t, o)
	for i, r := range o.Standings {
		if i < 4 && r.RankRange[1] > 4 || i >= 4 && r.RankRange[0] <= 4 {
			t.Errorf("%s, ranked %d, could hold the places %v: a final of four decides the first four", r.Name, r.Rank, r.RankRange)
		}
	}
	if rr := last.RankRange; rr != [2]int{6, 6} {
		t.Errorf("the excluded entrant could hold the places %v, want [6 6]", rr)
	}
	final := 0
	for _, id := range q.jobs {
		if strings.HasPrefix(id, "t-2-") || strings.HasPrefix(id, "t-3-") {
			final++
		}
	}
	if final == 0 || o.Matches != 5+final {
		t.Errorf("%d matches, %d in the final", o.Matches, final)
	}
}

// checkDoubt checks the standings say how sure they are: at the default confidence, each
// entrant's rank inside the places it could hold, a confidence for each pair of neighbours
// that played, none after the last.
func checkDoubt(t *testing.T, o standings.Outcome) {
	t.Helper()
	if o.Confidence != standings.DefaultConfidence {
		t.Errorf("confidence %v, want %v", o.Confidence, standings.DefaultConfidence)
	}
	for i, r := range o.Standings {
		if rr := r.RankRange; rr[0] < 1 || rr[0] > r.Rank || rr[1] < r.Rank || rr[1] > len(o.Standings) {
			t.Errorf("%s, ranked %d, could hold the places %v", r.Name, r.Rank, rr)
		}
		last := i == len(o.Standings)-1
		if played := !last && r.Matches > 0 && o.Standings[i+1].Matches > 0; played != (r.AboveNext != nil) || r.AboveNext != nil && !(*r.AboveNext >= 0 && *r.AboveNext <= 1) {
			t.Errorf("%s, ranked %d: above the next %v", r.Name, r.Rank, r.AboveNext)
		}
	}
}

func TestAttemptOf(t *testing.T) {
	for _, tc := range []struct {
		id, match string
		n         int
	}{
		{"t-1-3", "t-1-3", 1},
		{"t-1-3-r2", "t-1-3", 2},
		{"t-1-3-r12", "t-1-3", 12},
		{"spring-r2-1-3", "spring-r2-1-3", 1},
		{"spring-r2-1-3-r3", "spring-r2-1-3", 3},
		{"t-1-3-rx", "t-1-3-rx", 1},
	} {
		if m, n := attemptOf(tc.id); m != tc.match || n != tc.n {
			t.Errorf("attemptOf(%q) = %q, %d; want %q, %d", tc.id, m, n, tc.match, tc.n)
		}
	}
}

// Check refuses, before anything is compiled or published, what the round would fail on: the
// seats the game does not take, too few entrants, a Swiss round of four, options the referee
// refuses. Run refuses them too, before it publishes anything.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		game  string
		spec  Spec
		names []string
		want  string // "" for a round that can run
	}{
		{"amazes", Spec{}, []string{"a", "b"}, ""},
		{"dropblock", Spec{}, []string{"a", "b", "c", "d"}, ""},
		{"amazes", Spec{Seats: 3}, []string{"a", "b", "c"}, "seats: amazes takes 2 players, the match has 3"},
		{"dropblock", Spec{}, []string{"a", "b"}, "2 entrants, and a match of dropblock needs 4"},
		{"dropblock", Spec{Format: Swiss}, []string{"a", "b", "c", "d"}, "a Swiss tournament is for two-player matches, dropblock plays 4"},
		{"amazes", Spec{Options: map[string]string{"turns": "999"}}, []string{"a", "b"}, "options: option turns: 999 is out of range 1..150"},
		{"amazes", Spec{Options: map[string]string{"colour": "red"}}, []string{"a", "b"}, `options: unknown option "colour"`},
		{"amazes", Spec{Format: "knockout"}, []string{"a", "b"}, `format "knockout"`},
		// SnakeCore takes 2 to 8: its default four, or the count its option players fixes.
		{"snakecore", Spec{}, []string{"a", "b", "c", "d"}, ""},
		{"snakecore", Spec{}, []string{"a", "b"}, "2 entrants, and a match of snakecore needs 4"},
		{"snakecore", Spec{Options: map[string]string{"players": "2"}}, []string{"a", "b"}, ""},
		{"snakecore", Spec{Options: map[string]string{"players": "2"}, Format: Swiss}, []string{"a", "b"}, ""},
		{"snakecore", Spec{Options: map[string]string{"players": "6"}}, []string{"a", "b", "c", "d", "e"}, "5 entrants, and a match of snakecore needs 6"},
		{"snakecore", Spec{Options: map[string]string{"players": "6"}, Seats: 4}, []string{"a", "b", "c", "d", "e", "f"}, "options: option players: 6, but the match has 4 players"},
	} {
		tr := tournamentOf(t, tc.game, tc.spec, tc.names...)
		err := tr.Check()
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s %+v: %v", tc.game, tc.spec, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %+v: %v; want %q", tc.game, tc.spec, err, tc.want)
		}
		q := newMemQueue()
		if _, err := tr.Run(context.Background(), q); err == nil || len(q.jobs) > 0 {
			t.Errorf("%s %+v: Run: %v, published %d; want the error and nothing published", tc.game, tc.spec, err, len(q.jobs))
		}
	}
}

func TestRoundOf(t *testing.T) {
	for id, want := range map[string]string{
		"spring-1-17":         "spring",
		"spring-1-17-r2":      "spring",
		"a-b-3-4":             "a-b",
		"compare-ab12-7-2":    "compare-ab12",
		"spring-1":            "",
		"spring-x-1":          "",
		"20261126-123442-abc": "",
		"-1-2":                "",
	} {
		if got := RoundOf(id); got != want {
			t.Errorf("RoundOf(%q) = %q, want %q", id, got, want)
		}
	}
}
