package standings

import (
	"github.com/botjudge/judge/judge/rating"
	"github.com/botjudge/judge/judge/result"
)

// DefaultConfidence is the confidence standings are stated at unless a round says otherwise.
const DefaultConfidence = 0.95

// Doubt is how sure a set of matches is of the order of the entrants who played them, under
// a scoring (rating.Separate, on each seat's points by the scoring): for each pair, the
// confidence that one stands above the other, and for each entrant the places it could truly
// hold. Entrants that played none of the matches are compared with no one.
type Doubt struct {
	sep    rating.Separation
	index  map[string]int // by name: the entrant's index among those that played
	ranges [][2]int
}

// Measure is the doubt of the matches (the judged ones count) at the confidence.
func Measure(entrants []Entrant, matches []Match, s Scoring, confidence float64) Doubt {
	played := map[int]int{}
	var plays [][]rating.Play
	for _, m := range matches {
		res := m.Result
		if res.Status != result.StatusOK || len(res.Players) != len(m.Seats) {
			continue
		}
		ranks := make([]int, len(res.Players))
		for k, p := range res.Players {
			ranks[k] = p.Rank
		}
		seats := make([]rating.Play, len(m.Seats))
		for k, e := range m.Seats {
			if e < 0 || e >= len(entrants) {
				seats = nil
				break
			}
			if _, ok := played[e]; !ok {
				played[e] = len(played)
			}
			p := res.Players[k]
			seats[k] = rating.Play{Entrant: played[e], Points: s.points(p.Score, p.Rank, ranks)}
		}
		if seats != nil {
			plays = append(plays, seats)
		}
	}
	d := Doubt{index: map[string]int{}}
	for e, i := range played {
		d.index[entrants[e].Name] = i
	}
	d.sep = rating.Separate(len(played), plays)
	d.ranges = d.sep.RankRanges(confidence)
	return d
}

// Above is the confidence that a stands above b; nil when either played no match.
func (d Doubt) Above(a, b string) *float64 {
	i, ok := d.index[a]
	j, ok2 := d.index[b]
	if !ok || !ok2 {
		return nil
	}
	c := d.sep.Confidence(i, j)
	return &c
}

// Range is the places [best, worst] the entrant could truly hold among those that played,
// and false when it played none.
func (d Doubt) Range(name string) ([2]int, bool) {
	i, ok := d.index[name]
	if !ok {
		return [2]int{}, false
	}
	return d.ranges[i], true
}

// Apply sets the rows' (Compute's order) RankRange and AboveNext: an entrant that played no
// match holds the place the rules give it, and is compared with no one.
func (d Doubt) Apply(rows []Row) {
	for i := range rows {
		r := &rows[i]
		r.RankRange = [2]int{r.Rank, r.Rank}
		if rr, ok := d.Range(r.Name); ok {
			r.RankRange = rr
		}
		r.AboveNext = nil
		if i+1 < len(rows) {
			r.AboveNext = d.Above(r.Name, rows[i+1].Name)
		}
	}
}
