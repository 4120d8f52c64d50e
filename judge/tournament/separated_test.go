package tournament

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/job"
)

// A round played until separated: after its schedule it plays whole repetitions among the
// contenders only, until the top places are separated or the budget is spent; run again it
// plays nothing more and comes to the same standings. A game of two and a game of four.
func TestUntilSeparated(t *testing.T) {
	for _, tc := range []struct {
		name, game string
		entrants   []string
		top        int
		separated  bool
		opts       map[string]string
	}{
		// Strengths 9, 6 and 3, and three weak ones, each match's points moved by up to 5.
		{"two, apart", "amazes", []string{"a9", "b7", "c5", "d3", "e1", "f0"}, 2, true, nil},
		// Equal strengths: no number of matches separates them; the budget ends it.
		{"two, copies", "amazes", []string{"a5", "b5", "c5", "d5"}, 3, false, nil},
		{"four, apart", "dropblock", []string{"a9", "b6", "c3", "d1", "e1", "f0"}, 2, true, nil},
		{"four, copies", "langwars", []string{"a5", "b5", "c5", "d5", "e5"}, 2, false, nil},
		// SnakeCore at six: a block of seat rotations among the contenders is every group of
		// six of them in each of six rotations.
		{"six, apart", "snakecore", []string{"a9", "b8", "c7", "d6", "e5", "f4", "g3", "h2"}, 2, true, map[string]string{"players": "6"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := newMemQueue()
			q.noise = 5
			spec := Spec{UntilSeparated: true, Top: tc.top, Budget: 400, Options: tc.opts}
			tr := tournamentOf(t, tc.game, spec, tc.entrants...)
			var last Progress
			tr.Progress = func(p Progress) { last = p }
			o, err := tr.Run(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			schedule := len(tr.Entrants) * (len(tr.Entrants) - 1)
			if n := tr.seats(); n > 2 {
				schedule = binomial(len(tr.Entrants), n)
			}
			extra := o.Matches - schedule
			if extra <= 0 || extra > 400 || !last.PlayingOn || last.Extra != extra || last.Budget != 400 {
				t.Fatalf("%d matches, %d of them after the schedule of %d (progress %+v); want some, at most the budget of 400", o.Matches, extra, schedule, last)
			}
			if got := len(o.Unseparated) == 0; got != tc.separated || len(o.Unseparated) != last.Open {
				t.Errorf("unseparated %v (progress: %d open), want separated %v", o.Unseparated, last.Open, tc.separated)
			}
			for i := 0; i < tc.top && tc.separated; i++ {
				if a := o.Standings[i].AboveNext; a == nil || *a <= o.Confidence {
					t.Errorf("%s, ranked %d, above the next at %v", o.Standings[i].Name, i+1, a)
				}
			}
			checkDoubt(t, o)
			// The matches played on seat only contenders, and every one of them equally often.
			played := map[string]int{}
			for _, id := range q.jobs {
				if round := roundOf(id); round > 1 {
					var j job.Job
					json.Unmarshal(q.data[id], &j)
					for _, p := range j.Players {
						played[p.Name]++
					}
				}
			}
			counts := map[int]bool{}
			for _, n := range played {
				counts[n] = true
			}
			if len(counts) != 1 || len(played) < tc.top+1 {
				t.Errorf("the matches played on seated %v: want the contenders, at least %d, equally often", played, tc.top+1)
			}
			if !tc.separated && len(played) != len(tc.entrants) {
				t.Errorf("copies: contenders %v, want every entrant", played)
			}
			jobs := len(q.jobs)
			again := tournamentOf(t, tc.game, spec, tc.entrants...)
			o2, err := again.Run(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if len(q.jobs) != jobs || !reflect.DeepEqual(o2, o) {
				t.Errorf("run again: %d jobs more; same standings %v", len(q.jobs)-jobs, reflect.DeepEqual(o2, o))
			}
		})
	}
}

// roundOf is the round of a match id "t-ROUND-INDEX".
func roundOf(id string) int {
	parts := strings.Split(id, "-")
	n := 0
	for _, c := range parts[1] {
		n = 10*n + int(c-'0')
	}
	return n
}

func binomial(n, k int) int {
	r := 1
	for i := range k {
		r = r * (n - i) / (i + 1)
	}
	return r
}

// A round run again under its name with other flags that choose other contenders (or other
// entrants) meets results of other players under its match ids: it says so and counts none.
func TestAnotherRoundOfTheSameName(t *testing.T) {
	q := newMemQueue()
	q.noise = 5
	names := []string{"a9", "b7", "c5", "d3", "e1", "f0"}
	if _, err := tournamentOf(t, "amazes", Spec{UntilSeparated: true, Top: 1, Budget: 400}, names...).Run(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	_, err := tournamentOf(t, "amazes", Spec{UntilSeparated: true, Top: 4, Budget: 400}, names...).Run(context.Background(), q)
	if err == nil || !strings.Contains(err.Error(), "the store holds another round of the name t") {
		t.Errorf("other contenders under the same match ids: %v", err)
	}
	_, err = tournamentOf(t, "amazes", Spec{}, "g1", "h2", "i3").Run(context.Background(), q)
	if err == nil || !strings.Contains(err.Error(), "was played with") {
		t.Errorf("other entrants under the same name: %v", err)
	}
}
