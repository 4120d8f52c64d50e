package tournament

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/rating"
	"github.com/botjudge/judge/judge/result"
)

// compareOf is a comparison of the named entrants (strength: the digit a name ends with) on
// the fake daemon's terms.
func compareOf(t *testing.T, gameName string, newName, oldName string, opponents ...string) *Compare {
	t.Helper()
	g, ok := games.Lookup(gameName)
	if !ok {
		t.Fatal(gameName)
	}
	es := entrants(append([]string{newName, oldName}, opponents...)...)
	return &Compare{Name: "cmp", Game: g, Seed: 3, New: es[0], Old: es[1], Opponents: es[2:], Test: rating.DefaultSPRT, Max: 400, Retries: 2}
}

// A version that wins every match is better; a copy (equal strength: every match a draw, or
// the same place) is not; in a game of two and a game of four. Run again, it judges nothing
// more and comes to the same verdict.
func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		name, game, new, old string
		opponents            []string
		want                 string
	}{
		{"two, better", "amazes", "new9", "old1", nil, rating.Better},
		{"two, a copy", "amazes", "new5", "old5", nil, rating.NotBetter},
		{"four, better", "dropblock", "new9", "old1", []string{"x4", "y5", "z6"}, rating.Better},
		{"four, worse", "langwars", "new0", "old7", []string{"x4", "y5"}, rating.NotBetter},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := newMemQueue()
			c := compareOf(t, tc.game, tc.new, tc.old, tc.opponents...)
			var seen []float64
			c.Progress = func(o CompareOutcome) { seen = append(seen, o.LLR) }
			out, err := c.Run(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := c.Test.Bounds()
			if out.Verdict != tc.want || out.Matches != 2*out.Pairs || out.Pairs != len(seen) || out.Bounds != [2]float64{lo, hi} {
				t.Fatalf("%+v: want %s, its pairs told as they came", out, tc.want)
			}
			if (out.LLR >= hi) != (tc.want == rating.Better) || (out.LLR <= lo) != (tc.want == rating.NotBetter) {
				t.Errorf("LLR %v against the bounds %v %v", out.LLR, lo, hi)
			}
			if tc.want == rating.Better && !(out.Elo > 0 && out.EloInterval[0] > 0) || out.EloInterval[0] > out.Elo || out.EloInterval[1] < out.Elo {
				t.Errorf("difference %v %s, interval %v", out.Elo, out.Unit, out.EloInterval)
			}
			// Every pair's two matches share a seed, and differ only in the compared seat.
			for _, id := range q.jobs {
				if !strings.HasSuffix(id, "-1") {
					continue
				}
				var a, b job.Job
				json.Unmarshal(q.data[id], &a)
				json.Unmarshal(q.data[strings.TrimSuffix(id, "-1")+"-2"], &b)
				if *a.Seed != *b.Seed {
					t.Errorf("%s: seeds %d and %d", id, *a.Seed, *b.Seed)
				}
				diff := 0
				for k := range a.Players {
					if a.Players[k].Name != b.Players[k].Name {
						diff++
					}
				}
				if len(a.Players) == 2 && (a.Players[0].Name != b.Players[1].Name || a.Players[1].Name != b.Players[0].Name) || len(a.Players) > 2 && diff != 1 {
					t.Errorf("%s: %v then %v", id, a.Players, b.Players)
				}
			}
			jobs := len(q.jobs)
			again, err := compareOf(t, tc.game, tc.new, tc.old, tc.opponents...).Run(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if len(q.jobs) != jobs || !reflect.DeepEqual(again, out) {
				t.Errorf("run again: %d jobs more, %+v\nfirst: %+v", len(q.jobs)-jobs, again, out)
			}
		})
	}
}

// A pair the judge failed on every attempt counts for nothing; the test goes on with the next.
func TestCompareSkipsFailedPairs(t *testing.T) {
	q := newMemQueue()
	for _, id := range []string{"cmp-1-2", "cmp-1-2-r2", "cmp-1-2-r3"} {
		q.fail[id] = true
	}
	out, err := compareOf(t, "amazes", "new9", "old1").Run(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if out.Verdict != rating.Better || !reflect.DeepEqual(out.Failed, []string{"cmp-1-1", "cmp-1-2"}) {
		t.Errorf("%+v", out)
	}
}

// Played here (judge compare --local), a comparison comes to the verdict the queue's does.
func TestCompareHere(t *testing.T) {
	q := newMemQueue()
	viaQueue, err := compareOf(t, "dropblock", "new9", "old1", "x4").Run(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	c := compareOf(t, "dropblock", "new9", "old1", "x4")
	plays := 0
	c.Play = func(_ context.Context, seed uint64, seats []Entrant) (result.Result, error) {
		plays++
		var players []job.Player
		for _, e := range seats {
			players = append(players, job.Player{Name: e.Name})
		}
		data, _ := json.Marshal(job.New("here", "dropblock", &seed, nil, players))
		fake := newMemQueue()
		fake.judge("here", data)
		var res result.Result
		json.Unmarshal(fake.stored["here"], &res)
		return res, nil
	}
	here, err := c.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if plays != here.Matches || here.Verdict != viaQueue.Verdict || here.LLR != viaQueue.LLR {
		t.Errorf("here %+v in %d plays\nthrough the queue %+v", here, plays, viaQueue)
	}
	// The opponent fills the three other seats as itself and two copies, named apart.
	names := map[string]bool{}
	for _, e := range c.tournament().Entrants {
		names[e.Name] = true
	}
	if !names["x4"] || !names["x4#2"] || !names["x4#3"] || len(names) != 5 {
		t.Errorf("entrants %v", names)
	}
}

func TestCompareCheck(t *testing.T) {
	c := compareOf(t, "amazes", "new9", "old1", "x4")
	if err := c.Check(); err == nil || !strings.Contains(err.Error(), "no seat for opponents") {
		t.Errorf("opponents in a game of two: %v", err)
	}
	c = compareOf(t, "amazes", "new9", "old1")
	c.Max = 1
	if err := c.Check(); err == nil || !strings.Contains(err.Error(), "max 1: want 2 matches (a pair) to 100000") {
		t.Errorf("max 1: %v", err)
	}
}
