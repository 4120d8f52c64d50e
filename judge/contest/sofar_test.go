package contest

import (
	"testing"

	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/result"
)

// The standings so far rank the entrants by the round's matches judged, as the round's own
// scoring does at its end: Amazes adds up the scores, Lang Wars gives 3-2-1-0 by place. A
// match of another round, or not judged yet, counts for no one.
func TestSoFar(t *testing.T) {
	const rid = "spring-test-20261203-1"
	played := func(id string, names []string, scores []float64, ranks []int) store.Match {
		res := result.Result{Status: result.StatusOK}
		for i, n := range names {
			res.Players = append(res.Players, result.Player{Name: n, Score: scores[i], Rank: ranks[i]})
		}
		return store.Match{ID: id, Kind: store.KindRound, Result: &res}
	}
	for _, c := range []struct {
		game    string
		matches []store.Match
		want    []string  // names, best first
		points  []float64 // theirs
		count   []int     // matches each played
	}{
		{"amazes", []store.Match{
			played(rid+"-1-1", []string{"ann", "bob"}, []float64{120, 30}, []int{1, 2}),
			played(rid+"-1-2", []string{"bob", "house:easy"}, []float64{50, 40}, []int{1, 2}),
			played("spring-test-20261203-2-1-1", []string{"house:easy", "ann"}, []float64{900, 0}, []int{1, 2}), // another round's
			{ID: rid + "-2-1", Kind: store.KindRound},                                                           // not judged yet
		}, []string{"ann", "bob", "house:easy"}, []float64{120, 80, 40}, []int{1, 2, 1}},
		{"langwars", []store.Match{
			played(rid+"-1-1", []string{"ann", "bob", "cat", "house:easy"}, []float64{9, 4, 4, 1}, []int{1, 2, 3, 4}),
			played(rid+"-1-2", []string{"bob", "cat", "house:easy", "ann"}, []float64{9, 4, 2, 1}, []int{1, 2, 3, 4}),
		}, []string{"bob", "ann", "cat", "house:easy"}, []float64{5, 3, 3, 1}, []int{2, 2, 2, 2}},
	} {
		t.Run(c.game, func(t *testing.T) {
			r := store.Round{ID: rid, Status: store.RoundRunning}
			for _, n := range []string{"ann", "bob", "cat", "house:easy"} {
				if c.game == "amazes" && n == "cat" {
					continue
				}
				r.Entrants = append(r.Entrants, store.Entrant{Login: n, Lang: "cpp"})
			}
			rows, err := SoFar(store.Contest{Game: c.game}, r, c.matches)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != len(c.want) {
				t.Fatalf("%d rows: %+v", len(rows), rows)
			}
			for i, row := range rows {
				if row.Name != c.want[i] || row.Points != c.points[i] || row.Matches != c.count[i] {
					t.Errorf("row %d: %s %v points in %d matches; want %s %v in %d", i, row.Name, row.Points, row.Matches, c.want[i], c.points[i], c.count[i])
				}
			}
		})
	}
}
