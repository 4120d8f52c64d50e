package ladder

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/rating"
)

// stagedSeason is a season of n versions of strength 0 with c00's version s00b on trial at
// strength d.
func stagedSeason(t testing.TB, seats, n int, d float64) *season {
	vs := versions(n)
	se := newSeason(t, seats, vs...)
	se.play(10 * n)
	se.strength["s00b"] = d
	se.s.Sync(append(slices.Clone(vs), Version{Sub: "s00b", Login: "c00", Version: 2, Lang: "go", Staged: true}), se.now)
	return se
}

// A trial is pairs of matches as judge compare pairs them: one seed, the staged and the
// active version swapped in the compared seat, the other seats the same.
func TestTrialPairs(t *testing.T) {
	for _, seats := range []int{2, 4} {
		se := stagedSeason(t, seats, 6, 0)
		pairs := map[string][]Pending{}
		for i := range 400 {
			se.n++
			se.s.Pick(se.rng, fmt.Sprintf("p%d", i), Seats{Least: seats, Want: seats}, se.set, se.now)
			for id, m := range se.s.Pending {
				if m.Trial != "" {
					pairs[m.Pair] = append(pairs[m.Pair], m)
				}
				se.s.Apply(id, se.result(id), se.set, se.now)
			}
		}
		if len(pairs) < 10 {
			t.Fatalf("%d seats: %d trial pairs", seats, len(pairs))
		}
		turned := map[int]bool{}
		for id, ms := range pairs {
			if len(ms) != 2 {
				t.Fatalf("%d seats: pair %s has %d halves", seats, id, len(ms))
			}
			slices.SortFunc(ms, func(a, b Pending) int { return a.Half - b.Half })
			a, b := ms[0].Seats, ms[1].Seats
			diff := 0
			for k := range a {
				if a[k] != b[k] {
					diff++
					if seats > 2 && (a[k] != "s00b" || b[k] != "s00") {
						t.Errorf("%d seats: pair %s seat %d: %s then %s; want the staged then the active version", seats, id, k, a[k], b[k])
					}
					turned[k] = true
				}
			}
			if seats == 2 && (a[0] != "s00b" || b[1] != "s00b") {
				t.Errorf("pair %s: %v then %v; want the seats swapped", id, a, b)
			}
			if seats > 2 && diff != 1 {
				t.Errorf("%d seats: pair %s differs in %d seats: %v, %v", seats, id, diff, a, b)
			}
		}
		if seats > 2 && len(turned) != seats {
			t.Errorf("%d seats: the compared seat was only %v", seats, turned)
		}
	}
}

// The trial decides: a version far better is found better, a copy not better, at about the
// test's error rates; the verdict ends it, and a version better is offered for promotion.
// The error rates and matches to a verdict over many trials are BENCHMARKS.md's
// (TestTrialErrorRates).
func TestTrialDecides(t *testing.T) {
	t.Parallel()
	const runs = 10
	for _, seats := range []int{2, 4} {
		for _, c := range []struct {
			d    float64
			want string
			of   int // verdicts of runs that must be right: a copy is found better alpha of the time
		}{{2, rating.Better, runs}, {0, rating.NotBetter, runs - 2}} {
			right := 0
			for run := range runs {
				se := stagedSeason(t, seats, 6, c.d)
				se.rng = rand.New(rand.NewPCG(uint64(run), uint64(seats)))
				for range 4000 {
					if p := se.s.Players["s00b"]; p.decided() {
						break
					}
					se.play(1)
				}
				p := se.s.Players["s00b"]
				if p.Trial == nil || !p.decided() {
					t.Fatalf("%d seats, strength %v: the trial %+v did not decide", seats, c.d, p.Trial)
				}
				if p.Trial.Verdict == c.want {
					right++
				}
				pr := p.Trial.Progress(se.set.Test())
				lo, hi := se.set.Test().Bounds()
				if pr.Matches == 0 || pr.Bounds != [2]float64{lo, hi} || (p.Trial.Verdict == rating.Better) != (pr.LLR >= hi) {
					t.Errorf("%d seats: progress %+v", seats, pr)
				}
				trials := se.s.Trials
				se.play(200)
				if se.s.Trials > trials+2 { // a pair under way may end
					t.Errorf("%d seats: %d trial matches after the verdict", seats, se.s.Trials-trials)
				}
				if got := se.s.Promotions(); (p.Trial.Verdict == rating.Better) != (got["c00"] == "s00b") {
					t.Errorf("%d seats: promotions %v", seats, got)
				}
			}
			if right < c.of {
				t.Errorf("%d seats, strength %v: %d of %d trials found %s", seats, c.d, right, runs, c.want)
			}
		}
	}
}

// A new active version begins the trial again: the old one compared with another version.
func TestTrialAgainstANewActiveVersion(t *testing.T) {
	se := stagedSeason(t, 2, 4, 0)
	se.play(20)
	if se.s.Players["s00b"].Trial.Pairs == 0 {
		t.Fatal("no trial pairs")
	}
	vs := versions(4)
	vs[0] = Version{Sub: "s00c", Login: "c00", Version: 3, Lang: "go"}
	se.s.Sync(append(vs, Version{Sub: "s00b", Login: "c00", Version: 2, Lang: "go", Staged: true}), se.now)
	se.play(30)
	if tr := se.s.Players["s00b"].Trial; tr.Against != "s00c" {
		t.Errorf("the trial is against %s; want the new active version", tr.Against)
	}
}

// The trial's settings are checked.
func TestTrialSettings(t *testing.T) {
	for _, c := range []struct {
		set  Settings
		want string
	}{
		{Settings{AutoPromote: true}, "auto_promote: give the trial's test first"},
		{Settings{Trial: &TrialTest{Elo0: 0, Elo1: 50, Alpha: 0.5, Beta: 0.05}}, "alpha 0.5"},
		{Settings{Trial: &TrialTest{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0}}, "beta 0"},
		{Settings{Trial: &TrialTest{Elo0: 50, Elo1: 50, Alpha: 0.05, Beta: 0.05}}, "elo1 50 is not above elo0 50"},
		{Settings{Trial: &TrialTest{Elo0: 0, Elo1: 30, Alpha: 0.05, Beta: 0.05}, AutoPromote: true}, ""},
	} {
		set := Defaults
		set.Trial, set.AutoPromote = c.set.Trial, c.set.AutoPromote
		err := set.Validate()
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: %v; want %q", c.set, err, c.want)
		}
	}
}
