// Package standings adds up a tournament's judged matches into its standings: points by the
// scoring the game's contest used, wins, draws and losses (two-player games) or places
// (more players), faults by kind, matches played. It is pure: the same matches give the same
// standings in any order.
package standings

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/botjudge/judge/judge/result"
)

// Entrant is a competitor.
type Entrant struct {
	Name string `json:"name"`
	Lang string `json:"lang"`
}

// Match is a match of the tournament: when it was played (its round and index in the round),
// the entrant in each seat, and its result. A result that is not judged (status error) counts
// for no one.
type Match struct {
	ID           string
	Round, Index int
	Seats        []int
	Result       result.Result
}

// Method is how a match's result becomes points.
type Method string

const (
	// ByScore adds up the players' match scores: CodeCup's sum of points (Amazes' squares,
	// On The Run's 20-point split) and SnakeCore's total score.
	ByScore Method = "score"
	// ByResult gives points for the result: Win, Draw and Loss in a two-player match, and
	// Places[place-1] in a match of more (players that share a place share the points of
	// the places they span), as JavaChallenge ranked by match results. The match scores
	// break ties.
	ByResult Method = "result"
)

// Scoring is how matches become points.
type Scoring struct {
	Method Method  `json:"method" yaml:"method"`
	Win    float64 `json:"win" yaml:"win"`
	Draw   float64 `json:"draw" yaml:"draw"`
	Loss   float64 `json:"loss" yaml:"loss"`
	// Places are the points of the places of a match of more than two players, first first.
	Places []float64 `json:"places,omitempty" yaml:"places"`
}

// For is the scoring of game's contest: CodeCup's games (Amazes, On The Run) and SnakeCore
// add up their scores; JavaChallenge's (Drop the Block, Lang Wars) give 3, 2, 1 and 0 points
// for the four places.
func For(game string) Scoring {
	switch game {
	case "dropblock", "langwars":
		return Scoring{Method: ByResult, Win: 3, Draw: 1, Places: []float64{3, 2, 1, 0}}

	}
	return Scoring{Method: ByScore}
}

// Row is one entrant's standing.
type Row struct {
	Rank int    `json:"rank"`
	Name string `json:"name"`
	Lang string `json:"lang"`
	// Points rank the entrants; Score, the sum of their match scores, breaks ties.
	Points float64 `json:"points"`
	Score  float64 `json:"score"`
	// Wins, Draws and Losses count two-player matches; Places counts the places of matches of
	// more players (Places[0] first places, ...).
	Wins   int   `json:"wins"`
	Draws  int   `json:"draws"`
	Losses int   `json:"losses"`
	Places []int `json:"places,omitempty"`
	// Faults counts the entrant's faults by kind.
	Faults  map[string]int `json:"faults"`
	Matches int            `json:"matches"`
	// RankRange is the places [best, worst] the entrant could truly hold at the outcome's
	// confidence; AboveNext the confidence that it truly stands above the entrant ranked next
	// (nil for the last, and beside an entrant that played no match). Doubt sets them.
	RankRange [2]int   `json:"rank_range"`
	AboveNext *float64 `json:"above_next"`
}

// Compute is the standings of the entrants after the matches, best first: by points, then
// score; entrants equal in both share a rank and are listed by name.
func Compute(entrants []Entrant, matches []Match, s Scoring) ([]Row, error) {
	rows := make([]Row, len(entrants))
	for i, e := range entrants {
		rows[i] = Row{Name: e.Name, Lang: e.Lang, Faults: map[string]int{}}
	}
	for _, m := range matches {
		if m.Result.Status != result.StatusOK {
			continue
		}
		res := m.Result
		if len(res.Players) != len(m.Seats) {
			return nil, fmt.Errorf("standings: match %s: %d players in the result, %d seats", m.ID, len(res.Players), len(m.Seats))
		}
		ranks := make([]int, len(res.Players))
		for k, p := range res.Players {
			if p.Rank < 1 || p.Rank > len(res.Players) {
				return nil, fmt.Errorf("standings: match %s: player %d ranked %d of %d", m.ID, k, p.Rank, len(res.Players))
			}
			ranks[k] = p.Rank
		}
		for k, e := range m.Seats {
			if e < 0 || e >= len(rows) {
				return nil, fmt.Errorf("standings: match %s: no entrant %d", m.ID, e)
			}
			p, r := res.Players[k], &rows[e]
			r.Matches++
			r.Score += p.Score
			if p.Fault != nil {
				r.Faults[string(p.Fault.Kind)]++
			}
			if len(m.Seats) == 2 {
				switch other := ranks[1-k]; {
				case p.Rank < other:
					r.Wins++
				case p.Rank == other:
					r.Draws++
				default:
					r.Losses++
				}
			} else {
				for len(r.Places) < len(m.Seats) {
					r.Places = append(r.Places, 0)
				}
				r.Places[p.Rank-1]++
			}
			r.Points += s.points(p.Score, p.Rank, ranks)
		}
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	better := func(a, b Row) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.Score, a.Score))
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(better(rows[a], rows[b]), cmp.Compare(rows[a].Name, rows[b].Name))
	})
	out := make([]Row, len(rows))
	for pos, i := range order {
		out[pos] = rows[i]
		out[pos].Rank = pos + 1
		if pos > 0 && better(out[pos-1], out[pos]) == 0 {
			out[pos].Rank = out[pos-1].Rank
		}
	}
	return out, nil
}

// points is what a player of the given match score and rank (among ranks) gets.
func (s Scoring) points(score float64, rank int, ranks []int) float64 {
	if s.Method != ByResult {
		return score
	}
	tied := 0
	for _, r := range ranks {
		if r == rank {
			tied++
		}
	}
	if len(ranks) == 2 {
		switch {
		case tied == 2:
			return s.Draw
		case rank == 1:
			return s.Win
		}
		return s.Loss
	}
	// Players sharing rank r span places r .. r+tied-1: they share those places' points.
	var sum float64
	for place := rank; place < rank+tied; place++ {
		if place-1 < len(s.Places) {
			sum += s.Places[place-1]
		}
	}
	return sum / float64(tied)
}
