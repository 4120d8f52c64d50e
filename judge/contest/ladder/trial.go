package ladder

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/botjudge/judge/judge/rating"
	"github.com/botjudge/judge/judge/result"
)

// TrialTest is the sequential test a staged version's trial runs (rating.SPRT): is it elo1
// better than the active version, or no better than elo0, at error rates alpha and beta.
type TrialTest struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
}

// Test is the contest's trial test: its own, or judge compare's default.
func (s Settings) Test() rating.SPRT {
	if s.Trial == nil {
		return rating.DefaultSPRT
	}
	return rating.SPRT{Elo0: s.Trial.Elo0, Elo1: s.Trial.Elo1, Alpha: s.Trial.Alpha, Beta: s.Trial.Beta}
}

// Trial is a staged version's comparison with its contestant's active version, as judge
// compare makes it: pairs of matches of one seed that differ only in which of the two sits in
// the compared seat (in a game of two, the seats swapped; in a game of more, the same
// opponents in the same seats, the compared seat turning with each pair), and the SPRT over
// the pairs' outcomes (rating.PairOutcome).
type Trial struct {
	// Against is the active version it is compared with: a trial begun against another is
	// begun again.
	Against string `json:"against"`
	// Seats is the seats of its matches, fixed by its first pair (the outcomes' support).
	Seats int `json:"seats"`
	// Outcomes counts the pairs judged by outcome: index k is a share of k/steps of
	// rating.PairSupport(Seats).
	Outcomes []int `json:"outcomes,omitempty"`
	// Pairs counts the pairs begun; Open are those under way, by pair id.
	Pairs int                   `json:"pairs"`
	Open  map[string]*TrialPair `json:"open,omitempty"`
	// Verdict is rating.Better or rating.NotBetter once the test decided, at Decided.
	Verdict string    `json:"verdict,omitempty"`
	Decided time.Time `json:"decided,omitzero"`
}

// TrialPair is a pair under way: the compared seat and each half's ranks once judged.
type TrialPair struct {
	Seat int   `json:"seat"`
	A    []int `json:"a,omitempty"`
	B    []int `json:"b,omitempty"`
}

// TrialProgress is how far a trial is.
type TrialProgress struct {
	LLR     float64
	Bounds  [2]float64
	Matches int    // those the verdict rests on: two a judged pair
	Verdict string // rating.Better, rating.NotBetter, or "" while undecided
}

// Progress is the trial's progress under the test.
func (t *Trial) Progress(test rating.SPRT) TrialProgress {
	lo, hi := test.Bounds()
	out := TrialProgress{Bounds: [2]float64{lo, hi}, Verdict: t.Verdict}
	counts := rating.Counts{}
	support := rating.PairSupport(t.Seats)
	for k, n := range t.Outcomes {
		if n > 0 && k < len(support) {
			counts[support[k]] += float64(n)
			out.Matches += 2 * n
		}
	}
	if out.Matches > 0 {
		out.LLR = test.LLR(counts, support)
	}
	return out
}

// decided reports whether p's trial is over: it plays no more, whatever its verdict.
func (p *Player) decided() bool { return p.Trial != nil && p.Trial.Verdict != "" }

// trialAgainst is the trial of staged version p against the active version own, begun
// again when it was against another.
func (p *Player) trialAgainst(own *Player) *Trial {
	if p.Trial == nil || p.Trial.Against != own.Sub {
		p.Trial = &Trial{Against: own.Sub}
	}
	return p.Trial
}

// pickTrial seats the next pair of seed's trial, ids id and id+"-2", against its
// contestant's active version own, the other seats (a game of more than two) from pool and
// then the house bots, and records both as pending. False when the pair cannot be seated.
func (s *State) pickTrial(rng *rand.Rand, id string, seed, own *Player, pool []*Player, size Seats, set Settings, now time.Time) ([]string, bool) {
	tr := seed.trialAgainst(own)
	want := size.Want
	if tr.Seats > 0 {
		want = tr.Seats
	}
	pool = slices.DeleteFunc(slices.Clone(pool), func(p *Player) bool { return p == own || p == seed })
	var others []string
	if want > 2 {
		for _, p := range pool[:min(want-1, len(pool))] {
			others = append(others, p.Sub)
		}
		for i := 0; len(others) < want-1 && len(size.House) > 0; i++ {
			others = append(others, HouseSeat(size.House[i%len(size.House)]))
		}
		if len(others) < want-1 {
			return nil, false
		}
		rng.Shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
	}
	seat := tr.Pairs % want
	a, b := make([]string, want), make([]string, want)
	if want == 2 {
		a[0], a[1], b[0], b[1] = seed.Sub, own.Sub, own.Sub, seed.Sub
		seat = 0
	} else {
		k := 0
		for i := range want {
			if i == seat {
				a[i], b[i] = seed.Sub, own.Sub
				continue
			}
			a[i], b[i] = others[k], others[k]
			k++
		}
	}
	tr.Seats = want
	tr.Pairs++
	if tr.Open == nil {
		tr.Open = map[string]*TrialPair{}
	}
	tr.Open[id] = &TrialPair{Seat: seat}
	if s.Pending == nil {
		s.Pending = map[string]Pending{}
	}
	s.Pending[id] = Pending{Seats: a, Created: now, Trial: seed.Sub, Pair: id, Half: 1}
	s.Pending[id+"-2"] = Pending{Seats: b, Created: now, Trial: seed.Sub, Pair: id, Half: 2}
	for _, sub := range append(slices.Clone(a), b...) {
		if p := s.Players[sub]; p != nil {
			p.started(set, now)
		}
	}
	return a, true
}

// applyTrial records a trial match's result in its pair; a judged pair moves the test, and a
// verdict ends the trial. A half the judge could not give drops its pair.
func (s *State) applyTrial(m Pending, res result.Result, set Settings, now time.Time) {
	p := s.Players[m.Trial]
	if p == nil || p.Trial == nil {
		return
	}
	tr := p.Trial
	pair := tr.Open[m.Pair]
	if pair == nil {
		return
	}
	if res.Status != result.StatusOK || len(res.Players) != tr.Seats {
		delete(tr.Open, m.Pair)
		return
	}
	ranks := make([]int, len(res.Players))
	for i, pl := range res.Players {
		ranks[i] = pl.Rank
	}
	if m.Half == 1 {
		pair.A = ranks
	} else {
		pair.B = ranks
	}
	if pair.A == nil || pair.B == nil {
		return
	}
	delete(tr.Open, m.Pair)
	support := rating.PairSupport(tr.Seats)
	x := rating.PairOutcome(pair.A, pair.B, pair.Seat)
	k := slices.IndexFunc(support, func(v float64) bool { return v-1e-9 <= x && x <= v+1e-9 })
	if k < 0 {
		return
	}
	for len(tr.Outcomes) <= k {
		tr.Outcomes = append(tr.Outcomes, 0)
	}
	tr.Outcomes[k]++
	if tr.Verdict == "" {
		if v := set.Test().Decide(tr.Progress(set.Test()).LLR); v != rating.Undecided {
			tr.Verdict, tr.Decided = v, now
		}
	}
}

// Promotions are the staged versions whose trials decided they are better, by login: with
// Settings.AutoPromote, the engine makes them active.
func (s *State) Promotions() map[string]string {
	out := map[string]string{}
	for _, p := range s.Players {
		if p.Staged && p.Trial != nil && p.Trial.Verdict == rating.Better && p.Disabled == nil {
			out[p.Login] = p.Sub
		}
	}
	return out
}
