package similar

import (
	"cmp"
	"slices"
)

// Found is a pair of owners as reported: how alike their sources are (Score, their most
// similar versions' passages in common) and how alike they play (Behaviour: the share of the
// positions both met where they answered the same; nil with fewer than MinCompared).
type Found struct {
	A         string   `json:"a"`
	B         string   `json:"b"`
	Score     float64  `json:"score"`
	Behaviour *float64 `json:"behaviour"`
	VersionA  string   `json:"version_a,omitempty"`
	VersionB  string   `json:"version_b,omitempty"`
	Shared    int      `json:"shared"`
	Regions   []Region `json:"regions"`
	Compared  int      `json:"compared"`
	Matches   []string `json:"matches,omitempty"`
}

// Findings are the pairs, highest score first (then highest behaviour), the behaviour of any
// two owners for comparison (nil without plays), and the files left out.
type Findings struct {
	Pairs    []Found  `json:"pairs"`
	Baseline *float64 `json:"behaviour_baseline"`
	Notes    []string `json:"notes"`
}

// Find compares versions by their sources and, with plays, by how they played; pairs below
// min by both are left out.
func Find(versions []Version, o Options, plays *Plays, minScore float64) Findings {
	var x Index
	for _, v := range versions {
		x.Add(v)
	}
	return FindIn(&x, o, plays, minScore)
}

// FindIn is Find over the versions of an index.
func FindIn(x *Index, o Options, plays *Plays, minScore float64) Findings {
	rep := x.Compare(o)
	out := Findings{Pairs: []Found{}, Notes: rep.Notes}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	by := map[[2]string]*Found{}
	for _, p := range rep.Pairs {
		f := &Found{A: p.A, B: p.B, Score: p.Score, VersionA: p.VersionA, VersionB: p.VersionB, Shared: p.Shared, Regions: p.Regions}
		if f.Regions == nil {
			f.Regions = []Region{}
		}
		by[[2]string{p.A, p.B}] = f
	}
	if plays != nil {
		pairs, base := plays.Compare()
		out.Baseline = &base
		for _, a := range pairs {
			f := by[[2]string{a.A, a.B}]
			if f == nil {
				f = &Found{A: a.A, B: a.B, Regions: []Region{}}
				by[[2]string{a.A, a.B}] = f
			}
			f.Compared, f.Matches = a.Compared, a.Matches
			if a.Compared >= MinCompared {
				r := a.Rate()
				f.Behaviour = &r
			}
		}
	}
	for _, f := range by {
		if f.Score >= minScore || f.Behaviour != nil && *f.Behaviour >= minScore {
			out.Pairs = append(out.Pairs, *f)
		}
	}
	behaviour := func(f Found) float64 {
		if f.Behaviour == nil {
			return -1
		}
		return *f.Behaviour
	}
	slices.SortFunc(out.Pairs, func(x, y Found) int {
		return cmp.Or(cmp.Compare(y.Score, x.Score), cmp.Compare(behaviour(y), behaviour(x)), cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
	})
	return out
}
