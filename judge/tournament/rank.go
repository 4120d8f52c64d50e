package tournament

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/botjudge/judge/judge/rating"
	"github.com/botjudge/judge/judge/rating/openskill"
	"github.com/botjudge/judge/judge/tournament/standings"
)

// standings ranks the entrants after the judged matches and rates them.
func (t *Tournament) standings(ms []standings.Match) ([]standings.Rated, error) {
	return t.standingsOf(ms, parts{doubt: true, ratings: true})
}

// parts are what of the standings to work out beside the points: a stage whose rows are
// ranked from one set of matches and rated from another needs each once.
type parts struct{ doubt, ratings bool }

func (t *Tournament) standingsOf(ms []standings.Match, want parts) ([]standings.Rated, error) {
	entrants, scoring := t.entrantList(), t.scoring()
	rows, err := standings.Compute(entrants, ms, scoring)
	if err != nil {
		return nil, fmt.Errorf("tournament: %w", err)
	}
	if want.doubt {
		standings.Measure(entrants, ms, scoring, t.Spec.confidence()).Apply(rows)
	}
	out := make([]standings.Rated, len(rows))
	for i, r := range rows {
		out[i] = standings.Rated{Row: r}
	}
	if !want.ratings {
		return out, nil
	}
	// Ratings that depend on the order of the matches take them in the order they were
	// scheduled, not the order their results came in: the same tournament, the same ratings.
	ms = slices.Clone(ms)
	slices.SortFunc(ms, func(a, b standings.Match) int {
		return cmp.Or(cmp.Compare(a.Round, b.Round), cmp.Compare(a.Index, b.Index))
	})
	ratings := make([]standings.Rating, len(t.Entrants))
	if t.seats() == 2 {
		t.rateTwo(ms, ratings)
	} else {
		t.rateMany(ms, ratings)
	}
	for i, r := range rows {
		out[i].Rating = ratings[t.index(r.Name)]
	}
	return out, nil
}

// entrantList is the entrants as the standings name them.
func (t *Tournament) entrantList() []standings.Entrant {
	entrants := make([]standings.Entrant, len(t.Entrants))
	for i, e := range t.Entrants {
		entrants[i] = standings.Entrant{Name: e.Name, Lang: e.Submission.Lang}
	}
	return entrants
}

// scoring is the round's standing rule: its file's, else the game's contest's.
func (t *Tournament) scoring() standings.Scoring {
	if t.Spec.Scoring != nil {
		return *t.Spec.Scoring
	}
	return standings.For(t.Game.Name())
}

func ptr(v float64) *float64 { return &v }

func (t *Tournament) rateTwo(ms []standings.Match, ratings []standings.Rating) {
	elo, e := make([]float64, len(t.Entrants)), rating.DefaultElo()
	for i := range elo {
		elo[i] = e.Start
	}
	var results []rating.Result
	for _, m := range ms {
		a, b := m.Seats[0], m.Seats[1]
		ra, rb := m.Result.Players[0].Rank, m.Result.Players[1].Rank
		score := 0.5
		switch {
		case ra < rb:
			score = 1
			results = append(results, rating.Result{Winner: a, Loser: b})
		case rb < ra:
			score = 0
			results = append(results, rating.Result{Winner: b, Loser: a})
		default:
			results = append(results, rating.Result{Winner: a, Loser: b, Draw: true})
		}
		elo[a], elo[b] = e.Update(elo[a], elo[b], score)
	}
	fit, err := rating.FitBradleyTerry(len(t.Entrants), results)
	for i := range ratings {
		ratings[i].Elo = ptr(elo[i])
		if err == nil {
			ratings[i].BradleyTerry = ptr(fit.Rating[i])
		}
	}
}

func (t *Tournament) rateMany(ms []standings.Match, ratings []standings.Rating) {
	rs := make([]openskill.Rating, len(t.Entrants))
	for i := range rs {
		rs[i] = openskill.New()
	}
	model := openskill.Default()
	for _, m := range ms {
		in := make([]openskill.Rating, len(m.Seats))
		ranks := make([]int, len(m.Seats))
		for k, e := range m.Seats {
			in[k], ranks[k] = rs[e], m.Result.Players[k].Rank
		}
		for k, r := range model.Rate(in, ranks) {
			rs[m.Seats[k]] = r
		}
	}
	for i, r := range rs {
		ratings[i] = standings.Rating{Mu: ptr(r.Mu), Sigma: ptr(r.Sigma), Ordinal: ptr(r.Ordinal())}
	}
}
