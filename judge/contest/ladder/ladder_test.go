package ladder

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/rating/openskill"
	"github.com/botjudge/judge/judge/result"
)

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// season plays a ladder of versions whose true strength is strength[sub]: each pending match
// is answered with ranks by strength plus noise, and a version in crashes faults always.
type season struct {
	t        testing.TB
	s        State
	set      Settings
	rng      *rand.Rand
	strength map[string]float64
	crashes  map[string]bool
	now      time.Time
	n        int
	seats    int
	house    []string // the house bots (a league's boss among them), their strengths by HouseSeat
	picked   func(id string)
}

// newSeason is a season of matches 10 seconds apart, with no ceiling to speak of: the tests
// of fairness play thousands of matches in a few simulated hours.
func newSeason(t testing.TB, seats int, versions ...Version) *season {
	set := Defaults
	set.MaxRate = 3600
	se := &season{t: t, set: set, rng: rand.New(rand.NewPCG(1, 2)), strength: map[string]float64{},
		crashes: map[string]bool{}, now: t0, seats: seats}
	se.s.Sync(versions, se.now)
	return se
}

// result is the judge's answer to a pending match.
func (se *season) result(id string) result.Result {
	m := se.s.Pending[id]
	type perf struct {
		seat int
		v    float64
	}
	var ps []perf
	for i, sub := range m.Seats {
		v := se.strength[sub] + se.rng.NormFloat64()
		if se.crashes[sub] {
			v = math.Inf(-1)
		}
		ps = append(ps, perf{i, v})
	}
	slices.SortFunc(ps, func(a, b perf) int { return -cmpF(a.v, b.v) })
	res := result.Result{Status: result.StatusOK, Players: make([]result.Player, len(m.Seats))}
	for rank, p := range ps {
		res.Players[p.seat].Rank = rank + 1
		if se.crashes[m.Seats[p.seat]] {
			res.Players[p.seat].Fault = &game.Fault{Kind: game.Crash, Turn: 3, Detail: "exit status 1"}
		}
	}
	return res
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// play picks and rates n matches, keeping the queue full.
func (se *season) play(n int) {
	for range n {
		for range se.set.InFlight + 1 {
			se.n++
			if _, ok := se.s.Pick(se.rng, fmt.Sprintf("m%d", se.n), Seats{Least: 2, Want: se.seats, House: se.house}, se.set, se.now); !ok {
				break
			}
			if se.picked != nil {
				se.picked(fmt.Sprintf("m%d", se.n))
			}
		}
		if len(se.s.Pending) == 0 {
			se.t.Fatal("no match could be picked")
		}
		if len(se.s.Pending) > se.set.InFlight+1 { // a trial's pair may take one more
			se.t.Fatalf("%d pending, in flight %d", len(se.s.Pending), se.set.InFlight)
		}
		// The oldest pending match ends first.
		ids := make([]string, 0, len(se.s.Pending))
		for id := range se.s.Pending {
			ids = append(ids, id)
		}
		slices.SortFunc(ids, func(a, b string) int { return strings.Compare(fmt.Sprintf("%08s", a), fmt.Sprintf("%08s", b)) })
		se.now = se.now.Add(10 * time.Second)
		se.s.Apply(ids[0], se.result(ids[0]), se.set, se.now)
	}
}

// checkFair checks that every version played within 20% of the mean of matches (the ladder's
// guarantee of fairness).
func (se *season) checkFair() {
	se.t.Helper()
	mean := 0.0
	for _, p := range se.s.Players {
		mean += float64(p.Matches)
	}
	mean /= float64(len(se.s.Players))
	for _, p := range se.s.Players {
		if d := math.Abs(float64(p.Matches)-mean) / mean; d > 0.2 {
			se.t.Errorf("%s played %d matches, the mean is %.1f (%.0f%% off)", p.Sub, p.Matches, mean, 100*d)
		}
	}
}

func versions(n int) []Version {
	var vs []Version
	for i := range n {
		vs = append(vs, Version{Sub: fmt.Sprintf("s%02d", i), Login: fmt.Sprintf("c%02d", i), Version: 1, Lang: "cpp"})
	}
	return vs
}

// Every version plays at the same rate, whatever its rating, and the ratings find the
// strongest: for two- and four-player games.
func TestFairAndFindsTheStrongest(t *testing.T) {
	for _, seats := range []int{2, 4} {
		t.Run(fmt.Sprintf("%d seats", seats), func(t *testing.T) {
			vs := versions(12)
			se := newSeason(t, seats, vs...)
			for i, v := range vs {
				se.strength[v.Sub] = float64(i) / 2
			}
			se.play(600)
			se.checkFair()
			rows := se.s.Leaderboard(nil)
			if rows[0].Login != "c11" {
				t.Errorf("the leader is %s, want c11 (the strongest): %+v", rows[0].Login, rows[:3])
			}
			if se.s.Rated != 600 {
				t.Errorf("rated %d, want 600", se.s.Rated)
			}
		})
	}
}

// The leaders meet the whole field now and then (the heavy tail), not only each other.
func TestLeadersMeetTheField(t *testing.T) {
	vs := versions(12)
	se := newSeason(t, 2, vs...)
	for i, v := range vs {
		se.strength[v.Sub] = float64(i)
	}
	se.play(1500)
	top := se.s.Players["s11"]
	if len(top.Versus) < 8 {
		t.Errorf("the strongest met %d of 11 opponents: %v", len(top.Versus), top.Versus)
	}
}

// A version that joins late plays from then on at the others' rate, not all the matches it
// missed at once.
func TestLateJoinerPlaysAtTheSameRate(t *testing.T) {
	vs := versions(8)
	se := newSeason(t, 2, vs[:7]...)
	se.play(300)
	before := map[string]int{}
	for sub, p := range se.s.Players {
		before[sub] = p.Matches
	}
	se.s.Sync(vs, se.now)
	se.play(300)
	late := se.s.Players["s07"].Matches
	for sub, n := range before {
		if got := se.s.Players[sub].Matches - n; math.Abs(float64(got-late)) > 0.2*float64(late) {
			t.Errorf("%s played %d matches after the late joiner came, the late joiner %d", sub, got, late)
		}
	}
}

// A new version starts from its predecessor's mu with a wider sigma; the predecessor stops
// playing and leaves the leaderboard; the contestant's older versions beyond keepRetired are
// forgotten.
func TestNewVersionPriorAndRetired(t *testing.T) {
	vs := versions(4)
	se := newSeason(t, 2, vs...)
	se.strength["s03"] = 5
	se.play(100)
	old := *se.s.Players["s03"]
	if old.Mu <= openskill.DefaultMu {
		t.Fatalf("the strong version's mu %.2f did not rise", old.Mu)
	}
	clear(se.s.Pending) // a version a pending match seats is kept: see the ones in flight end
	active := slices.Clone(vs[:3])
	for v := 2; v <= 6; v++ {
		active = append(active[:3], Version{Sub: fmt.Sprintf("s03v%d", v), Login: "c03", Version: v, Lang: "go"})
		se.s.Sync(active, se.now)
		if v == 2 {
			p2 := se.s.Players["s03v2"]
			if p2.Mu != old.Mu || p2.Sigma <= old.Sigma || p2.Sigma > openskill.DefaultSigma {
				t.Errorf("version 2 starts at mu %.3f sigma %.3f; want mu %.3f, sigma above %.3f", p2.Mu, p2.Sigma, old.Mu, old.Sigma)
			}
		}
	}
	var kept []string
	for sub, p := range se.s.Players {
		if p.Login == "c03" {
			kept = append(kept, sub)
		}
	}
	slices.Sort(kept)
	if want := []string{"s03v3", "s03v4", "s03v5", "s03v6"}; !slices.Equal(kept, want) {
		t.Errorf("kept %v of c03's versions, want %v", kept, want)
	}
	for _, r := range se.s.Leaderboard(nil) {
		if r.Login == "c03" && r.Version != 6 {
			t.Errorf("the leaderboard shows c03's version %d", r.Version)
		}
	}
	se.play(50)
	for id, m := range se.s.Pending {
		if slices.ContainsFunc(m.Seats, func(sub string) bool { return sub == "s03" }) {
			t.Errorf("the retired version plays in %s", id)
		}
	}
}

// Faults of its own in k of its last n matches take a version off the ladder, with the
// matches that counted; a compile error, or a match the judge could not give, never counts.
func TestAutoDisable(t *testing.T) {
	vs := versions(3)
	pending := func(s *State, id string, seats ...string) {
		if s.Pending == nil {
			s.Pending = map[string]Pending{}
		}
		s.Pending[id] = Pending{Seats: seats, Created: t0}
	}
	ok := func(faults ...*game.Fault) result.Result {
		r := result.Result{Status: result.StatusOK}
		for i, f := range faults {
			r.Players = append(r.Players, result.Player{Rank: i + 1, Fault: f})
		}
		return r
	}
	crash := &game.Fault{Kind: game.Crash, Turn: 3, Detail: "segfault"}
	timeout := &game.Fault{Kind: game.Timeout, Turn: 7}
	compile := &game.Fault{Kind: game.CompileError}
	judgeErr := ok(nil, crash) // a match the judge failed may still name the players' faults
	judgeErr.Status, judgeErr.Error = result.StatusError, &result.Error{Code: "infrastructure", Message: "docker"}
	cases := []struct {
		name     string
		results  []result.Result // s00 in seat 1 of each
		disabled []string        // the matches that counted, nil when not disabled
	}{
		{"three crashes of five", []result.Result{ok(nil, crash), ok(nil, nil), ok(nil, timeout), ok(nil, nil), ok(nil, crash)}, []string{"m0", "m2", "m4"}},
		{"two of five", []result.Result{ok(nil, crash), ok(nil, nil), ok(nil, nil), ok(nil, nil), ok(nil, crash)}, nil},
		{"old faults leave the window", []result.Result{ok(nil, crash), ok(nil, crash), ok(nil, nil), ok(nil, nil), ok(nil, nil), ok(nil, nil), ok(nil, crash)}, nil},
		{"compile errors do not count", []result.Result{ok(nil, compile), ok(nil, compile), ok(nil, compile)}, nil},
		{"the judge's errors do not count", []result.Result{judgeErr, judgeErr, judgeErr, ok(nil, crash), ok(nil, crash)}, nil},
		{"the opponent's faults do not count", []result.Result{ok(crash, nil), ok(crash, nil), ok(crash, nil)}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s State
			s.Sync(vs, t0)
			for i, r := range c.results {
				id := fmt.Sprintf("m%d", i)
				pending(&s, id, "s01", "s00")
				s.Apply(id, r, Defaults, t0)
			}
			d := s.Players["s00"].Disabled
			if c.disabled == nil {
				if d != nil {
					t.Fatalf("disabled: %+v", d)
				}
				return
			}
			if d == nil {
				t.Fatalf("not disabled; recent %+v", s.Players["s00"].Recent)
			}
			if !slices.Equal(d.Matches, c.disabled) {
				t.Errorf("counted %v, want %v", d.Matches, c.disabled)
			}
			for _, id := range c.disabled {
				if !strings.Contains(d.Reason, id) {
					t.Errorf("the reason %q does not name %s", d.Reason, id)
				}
			}
			for i := range 20 {
				if seats, ok := s.Pick(rand.New(rand.NewPCG(uint64(i), 0)), "x", Seats{Least: 2, Want: 2}, Defaults, t0); ok {
					if slices.Contains(seats, "s00") {
						t.Fatalf("the disabled version was picked: %v", seats)
					}
					delete(s.Pending, "x")
				}
			}
			if rows := s.Leaderboard(nil); rows[len(rows)-1].Login != "c00" || !rows[len(rows)-1].Disabled || rows[len(rows)-1].Faults != 3 {
				t.Errorf("the leaderboard does not show c00 last, disabled with 3 faults: %+v", rows)
			}
			// A new version of the contestant plays again.
			s.Sync([]Version{vs[1], vs[2], {Sub: "s00b", Login: "c00", Version: 2}}, t0)
			if p := s.Players["s00b"]; p == nil || p.Disabled != nil || !p.Active {
				t.Fatalf("the new version is not on the ladder: %+v", p)
			}
		})
	}
}

// A result is rated once: the second delivery of it (another portal's, or this one's after
// a restart) changes nothing; a result of no pending match neither.
func TestApplyOnce(t *testing.T) {
	var s State
	s.Sync(versions(2), t0)
	seats, ok := s.Pick(rand.New(rand.NewPCG(1, 1)), "m1", Seats{Least: 2, Want: 2}, Defaults, t0)
	if !ok {
		t.Fatal("no match picked")
	}
	res := result.Result{Status: result.StatusOK, Players: []result.Player{{Rank: 1}, {Rank: 2}}}
	if moved := s.Apply("m1", res, Defaults, t0); len(moved) != 2 {
		t.Fatalf("moved %d players", len(moved))
	}
	after := *s.Players[seats[0]]
	if len(after.Hour) != 1 || len(s.Players[seats[1]].Hour) != 1 || len(s.Done) != 1 {
		t.Errorf("the match's end is not kept for the guarantee and the pace: %v %v", after.Hour, s.Done)
	}
	if moved := s.Apply("m1", res, Defaults, t0); moved != nil {
		t.Errorf("the second delivery moved %d players", len(moved))
	}
	if s.Apply("m2", res, Defaults, t0) != nil || s.Rated != 1 || s.Players[seats[0]].Mu != after.Mu || s.Players[seats[0]].Matches != 1 {
		t.Errorf("rated %d, %+v", s.Rated, s.Players[seats[0]])
	}
	if after.Mu <= openskill.DefaultMu || s.Players[seats[1]].Mu >= openskill.DefaultMu {
		t.Errorf("the winner's mu %.2f, the loser's %.2f", after.Mu, s.Players[seats[1]].Mu)
	}
	if r := after.Versus[s.Players[seats[1]].Login]; r == nil || r.Won != 1 {
		t.Errorf("head to head: %+v", after.Versus)
	}
}

// A four-player match seats four different versions; with three playing it seats three
// (the game's least is two); with one, none. In a game of four alone (Lang Wars), three
// versions and two house bots seat the three and a house bot, two versions seat two house
// bots beside them (in turn, one twice if need be), and one version no match.
func TestPickSeats(t *testing.T) {
	for _, c := range []struct {
		versions, least, want int
		house                 []string
		seats, houses         int
	}{
		{12, 2, 4, nil, 4, 0}, {3, 2, 4, nil, 3, 0}, {1, 2, 2, nil, 0, 0}, {3, 4, 4, nil, 0, 0},
		{12, 4, 4, []string{"a", "b"}, 4, 0}, {3, 4, 4, []string{"a", "b"}, 4, 1}, {2, 4, 4, []string{"a"}, 4, 2},
		{1, 4, 4, []string{"a", "b"}, 0, 0}, {2, 2, 2, []string{"a"}, 2, 0},
	} {
		var s State
		s.Sync(versions(c.versions), t0)
		seats, ok := s.Pick(rand.New(rand.NewPCG(3, 3)), "m", Seats{Least: c.least, Want: c.want, House: c.house}, Defaults, t0)
		if len(seats) != c.seats || ok != (c.seats > 0) {
			t.Errorf("%+v: seats %v", c, seats)
		}
		var subs []string
		for _, seat := range seats {
			if name, ok := IsHouseSeat(seat); ok {
				if !slices.Contains(c.house, name) {
					t.Errorf("%+v: house seat %q", c, seat)
				}
				continue
			}
			subs = append(subs, seat)
		}
		if len(seats)-len(subs) != c.houses {
			t.Errorf("%+v: %d house seats in %v", c, len(seats)-len(subs), seats)
		}
		if len(slices.Compact(slices.Sorted(slices.Values(subs)))) != len(subs) {
			t.Errorf("%+v: a version twice in %v", c, seats)
		}
	}
}

// A match with house bots in its seats rates the versions alone, by their places among all
// the players, and counts no record against a house bot.
func TestApplyWithHouseSeats(t *testing.T) {
	var s State
	s.Sync(versions(2), t0)
	seats, ok := s.Pick(rand.New(rand.NewPCG(1, 1)), "m", Seats{Least: 4, Want: 4, House: []string{"easy"}}, Defaults, t0)
	if !ok || len(seats) != 4 {
		t.Fatalf("seats %v", seats)
	}
	res := result.Result{Status: result.StatusOK}
	ranks := map[string]int{"s00": 1, "s01": 4}
	for _, seat := range seats {
		r, ok := ranks[seat]
		if !ok {
			r = 2 // the house bots, between them
		}
		res.Players = append(res.Players, result.Player{Name: seat, Rank: r})
	}
	moved := s.Apply("m", res, Defaults, t0)
	if len(moved) != 2 || s.Rated != 1 || s.Skipped != 0 {
		t.Fatalf("moved %d, rated %d, skipped %d", len(moved), s.Rated, s.Skipped)
	}
	a, b := s.Players["s00"], s.Players["s01"]
	if a.Mu <= b.Mu || a.Matches != 1 || b.Matches != 1 {
		t.Errorf("mu %.2f against %.2f, matches %d %d", a.Mu, b.Mu, a.Matches, b.Matches)
	}
	if len(a.Versus) != 1 || a.Versus[b.Login] == nil || a.Versus[b.Login].Won != 1 {
		t.Errorf("records %v", a.Versus)
	}
}

func TestExpire(t *testing.T) {
	var s State
	s.Sync(versions(4), t0)
	s.Pick(rand.New(rand.NewPCG(1, 1)), "old", Seats{Least: 2, Want: 2}, Defaults, t0)
	s.Pick(rand.New(rand.NewPCG(1, 1)), "new", Seats{Least: 2, Want: 2}, Defaults, t0.Add(time.Hour))
	if gone := s.Expire(t0.Add(90*time.Minute), time.Hour); !slices.Equal(gone, []string{"old"}) || len(s.Pending) != 1 {
		t.Errorf("expired %v, pending %v", gone, s.Pending)
	}
}

func TestSettingsValidate(t *testing.T) {
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Defaults, ""},
		{Settings{InFlight: 0, DisableFaults: 1, DisableWindow: 1}, "in_flight 0"},
		{Settings{InFlight: 1, DisableFaults: 1, DisableWindow: 51}, "disable_window 51"},
		{Settings{InFlight: 1, DisableFaults: 6, DisableWindow: 5}, "disable_faults 6"},
		{Settings{InFlight: 1, DisableFaults: 0, DisableWindow: 5}, "disable_faults 0"},
	} {
		err := c.s.Validate()
		if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: %v, want %q", c.s, err, c.want)
		}
	}
}

// A staged version plays unrated matches against the ladder, its own active version among
// its opponents: its rating moves, nobody else's does; made active, it keeps what its trial
// found.
func TestStagedVersion(t *testing.T) {
	vs := versions(6)
	se := newSeason(t, 2, vs...)
	for i, v := range vs {
		se.strength[v.Sub] = float64(i) / 2
	}
	se.play(100)
	trial := Version{Sub: "s00b", Login: "c00", Version: 2, Lang: "go", Staged: true}
	se.strength["s00b"] = 5
	se.s.Sync(append(slices.Clone(vs), trial), se.now)
	if p := se.s.Players["s00b"]; p == nil || p.Active || !p.Staged || p.Mu != se.s.Players["s00"].Mu {
		t.Fatalf("the staged version: %+v", p)
	}
	rated := se.s.Rated
	se.play(300)
	st := se.s.Players["s00b"]
	if se.s.Trials < 20 || st.Matches != se.s.Trials {
		t.Errorf("%d trial matches, the staged version played %d", se.s.Trials, st.Matches)
	}
	if r := st.Versus["c00"]; r == nil || r.Won+r.Drawn+r.Lost == 0 {
		t.Errorf("no record against its own active version: %v", st.Versus)
	}
	total := 0
	for _, p := range se.s.Players {
		if !p.Staged {
			total += p.Matches
		}
	}
	if want := 2 * se.s.Rated; total != want {
		t.Errorf("the versions on the ladder count %d matches, want %d for %d rated (a trial rated them)", total, want, se.s.Rated)
	}
	if se.s.Rated-rated < 200 {
		t.Errorf("only %d rated matches beside the trial's %d", se.s.Rated-rated, se.s.Trials)
	}
	for _, r := range se.s.Leaderboard(nil) {
		if r.Sub == "s00b" {
			t.Error("the staged version is on the leaderboard")
		}
	}
	mu := st.Mu
	if mu <= se.s.Players["s00"].Mu+5 { // its trial is against its own, far weaker, version
		t.Errorf("the strong trial's mu %.1f, its active version's %.1f", mu, se.s.Players["s00"].Mu)
	}
	trial.Staged = false
	se.s.Sync(append(slices.Clone(vs[1:]), trial), se.now)
	if p := se.s.Players["s00b"]; !p.Active || p.Staged || p.Mu != mu {
		t.Errorf("made active: %+v", p)
	}
}

// A trial's first match is against its owner's active version, however far apart their
// ratings: that is the comparison the owner staged it for.
func TestTrialMeetsItsOwnVersionFirst(t *testing.T) {
	vs := versions(8)
	for seed := range uint64(40) {
		var s State
		s.Sync(vs, t0)
		for i, v := range vs {
			s.Players[v.Sub].Mu = float64(10 + 3*i)
		}
		s.Sync(append(slices.Clone(vs), Version{Sub: "s00b", Login: "c00", Version: 2, Lang: "go", Staged: true}), t0)
		s.Players["s00b"].Mu = 40 // it looks nothing like the active version, mu 10
		rng := rand.New(rand.NewPCG(seed, 7))
		var seats []string
		for n := 0; seats == nil || !slices.Contains(seats, "s00b"); n++ {
			if n == 8 {
				t.Fatalf("rng %d: the staged version is not seeded", seed)
			}
			seats, _ = s.Pick(rng, fmt.Sprintf("m%d", n), Seats{Least: 2, Want: 2}, Defaults, t0)
		}
		if !slices.Contains(seats, "s00") {
			t.Fatalf("rng %d: the trial's match seats %v, not its own active version s00", seed, seats)
		}
	}
}

// The match-rate guarantee: a version behind MinRate is seeded first, and the ladder may
// then have twice InFlight matches pending; each version's place in the queue is the order
// Pick seeds them, with a wait from the ladder's pace.
func TestMatchRateGuarantee(t *testing.T) {
	var s State
	set := Settings{InFlight: 1, DisableFaults: 3, DisableWindow: 5, MinRate: 6}
	s.Sync(versions(6), t0)
	now := t0.Add(30 * time.Minute) // each is owed 3 matches by now, and has had none
	rng := rand.New(rand.NewPCG(5, 5))
	if _, ok := s.Pick(rng, "m1", Seats{Least: 2, Want: 2}, set, now); !ok {
		t.Fatal("no first match")
	}
	if _, ok := s.Pick(rng, "m2", Seats{Least: 2, Want: 2}, set, now); !ok {
		t.Fatal("versions behind the guarantee, and no second match in flight")
	}
	if _, ok := s.Pick(rng, "m3", Seats{Least: 2, Want: 2}, set, now); ok {
		t.Error("a third match in flight, twice InFlight is 2")
	}
	// Without the guarantee, one in flight.
	var plain State
	plain.Sync(versions(6), t0)
	set0 := set
	set0.MinRate = 0
	plain.Pick(rng, "m1", Seats{Least: 2, Want: 2}, set0, now)
	if _, ok := plain.Pick(rng, "m2", Seats{Least: 2, Want: 2}, set0, now); ok {
		t.Error("a second match in flight without the guarantee")
	}

	// A version that played much, long ago, and is behind now comes before one ahead of
	// the guarantee, whatever their loads.
	var s2 State
	s2.Sync(versions(3), t0)
	now = t0.Add(2 * time.Hour)
	s2.Players["s00"].Matches, s2.Players["s00"].Last = 50, t0.Add(time.Minute)
	for i := range 6 {
		s2.Players["s01"].Hour = append(s2.Players["s01"].Hour, now.Add(-time.Duration(i)*time.Minute))
		s2.Players["s02"].Hour = append(s2.Players["s02"].Hour, now.Add(-time.Duration(i)*time.Minute))
		s2.Done = append(s2.Done, now.Add(-time.Duration(i)*time.Minute))
	}
	p0, _ := s2.PlaceOf("s00", set, now)
	p1, _ := s2.PlaceOf("s01", set, now)
	if p0.Place != 1 || !p0.Behind || p1.Place == 1 || p1.Behind {
		t.Errorf("places: s00 %+v, s01 %+v", p0, p1)
	}
	if p0.Wait <= 0 || p1.Wait <= p0.Wait {
		t.Errorf("waits: s00 %v, s01 %v (pace %.2f a minute)", p0.Wait, p1.Wait, s2.Pace(now))
	}
	if seats, _ := s2.Pick(rng, "m", Seats{Least: 2, Want: 2}, set, now); !slices.Contains(seats, "s00") {
		t.Errorf("the version behind is not seeded: %v", seats)
	}
	if _, ok := s2.PlaceOf("nobody", set, now); ok {
		t.Error("a place for a version that does not play")
	}
}

// The ladder is one key rewritten with every match: what it keeps per version is bounded,
// however many matches are played.
func TestStateStaysSmall(t *testing.T) {
	se := newSeason(t, 2, versions(12)...)
	se.play(300)
	size := func() int { data, _ := json.Marshal(se.s); return len(data) }
	a := size()
	se.play(3000)
	if b := size(); b > a*3/2 {
		t.Errorf("the state grew from %d to %d bytes over 3,000 more matches", a, b)
	}
	for _, p := range se.s.Players {
		if len(p.Hour) > Defaults.MinRate {
			t.Errorf("%s keeps %d match ends", p.Sub, len(p.Hour))
		}
	}
}

// A simulated day of a ladder whose matches take a second, far faster than its ceiling
// allows, in two- and four-player games: no version plays more than its ceiling in any
// hour (by the matches it started), each plays close to it (the ceiling is what binds), and
// the state stays one small key.
func TestCeilingHoldsForADay(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ versions, seats, ceiling int }{{2, 2, 60}, {6, 4, 30}} {
		t.Run(fmt.Sprintf("%d seats", c.seats), func(t *testing.T) {
			set := Defaults
			set.MaxRate = c.ceiling
			var s State
			s.Sync(versions(c.versions), t0)
			rng := rand.New(rand.NewPCG(7, 7))
			started := map[string][]time.Time{}
			n := 0
			for now := t0; now.Before(t0.Add(24 * time.Hour)); now = now.Add(time.Second) {
				for {
					n++
					seats, ok := s.Pick(rng, fmt.Sprintf("m%d", n), Seats{Least: c.seats, Want: c.seats}, set, now)
					if !ok {
						break
					}
					for _, sub := range seats {
						started[sub] = append(started[sub], now)
					}
				}
				for id, m := range s.Pending { // each match takes a second
					if now.Sub(m.Created) >= time.Second {
						res := result.Result{Status: result.StatusOK}
						for i, sub := range m.Seats {
							res.Players = append(res.Players, result.Player{Name: sub, Rank: i + 1})
						}
						s.Apply(id, res, set, now)
					}
				}
			}
			for sub, ts := range started {
				most := 0
				for i := range ts { // the most starts in any hour that begins at a start
					j, _ := slices.BinarySearchFunc(ts, ts[i].Add(time.Hour), time.Time.Compare)
					most = max(most, j-i)
				}
				if most > c.ceiling {
					t.Errorf("%s started %d matches in an hour, the ceiling is %d", sub, most, c.ceiling)
				}
				// Spread over the hour: in any five minutes, its burst and five minutes' share.
				most5 := 0
				for i := range ts {
					j, _ := slices.BinarySearchFunc(ts, ts[i].Add(5*time.Minute), time.Time.Compare)
					most5 = max(most5, j-i)
				}
				if limit := int(burst(set)) + c.ceiling/12 + 1; most5 > limit {
					t.Errorf("%s started %d matches in five minutes; want at most %d (a burst of %v, then the ceiling's rate)", sub, most5, limit, burst(set))
				}
				if per := float64(len(ts)) / 24; per < 0.8*float64(c.ceiling) {
					t.Errorf("%s played %.1f matches an hour, well below the ceiling of %d", sub, per, c.ceiling)
				}
			}
			if data, _ := json.Marshal(s); len(data) > 8000 {
				t.Errorf("the state is %d bytes after a day", len(data))
			}
		})
	}
}

// The leaderboard says how sure it is, on a simulated ladder with a known truth (its own
// calibration is rating's TestPairFit*, over thousands of fields): each version's range holds
// its true place in at least 95% of the seasons, copies are not told apart, versions far apart
// are, and a version is provisional at first and settled later. For two and four seats.
func TestLeaderboardSaysHowSureItIs(t *testing.T) {
	t.Parallel()
	const runs, n = 40, 10
	for _, seats := range []int{2, 4} {
		for _, copies := range []bool{true, false} {
			covered, sepCopies, adjacent, apart, early, late := 0, 0, 0, 0, 0, 0
			for run := range runs {
				se := newSeason(t, seats, versions(n)...)
				se.rng = rand.New(rand.NewPCG(uint64(run), uint64(seats)))
				for i := range n {
					if !copies {
						se.strength[fmt.Sprintf("s%02d", i)] = 3 * float64(i) / (n - 1) // s09 the strongest
					}
				}
				se.play(3 * n / seats)
				for _, r := range se.s.Leaderboard(nil) {
					if r.Provisional {
						early++
					}
				}
				se.play(57 * n / seats)
				rows := se.s.Leaderboard(nil)
				for k, r := range rows {
					if r.Provisional {
						late++
					}
					var i int
					fmt.Sscanf(r.Sub, "s%d", &i)
					if truth := n - i; copies || (r.RankRange[0] <= truth && truth <= r.RankRange[1]) {
						covered++
					}
					if r.RankRange[0] > r.Rank || r.Rank > r.RankRange[1] {
						t.Fatalf("%d seats: %s ranked %d outside its range %v", seats, r.Sub, r.Rank, r.RankRange)
					}
					if (r.AboveNext == nil) != (k == len(rows)-1) {
						t.Errorf("%d seats: row %d's above_next %v", seats, k, r.AboveNext)
					}
					if copies && r.AboveNext != nil {
						adjacent++
						if *r.AboveNext > Confidence {
							sepCopies++
						}
					}
				}
				rangeOf := func(sub string) [2]int {
					return rows[slices.IndexFunc(rows, func(r Row) bool { return r.Sub == sub })].RankRange
				}
				if !copies && rangeOf("s09")[1] < rangeOf("s00")[0] {
					apart++
				}
			}
			what := map[bool]string{true: "copies", false: "strengths 0..3"}[copies]
			t.Logf("%d seats, %s: %d of %d ranges held the true place; %d of %d adjacent copies separated; first and last apart in %d of %d; provisional %d after 3 matches each, %d after 60",
				seats, what, covered, runs*n, sepCopies, adjacent, apart, runs, early, late)
			if miss := 1 - float64(covered)/float64(runs*n); miss > 0.05 {
				t.Errorf("%d seats, %s: the ranges missed the true place in %.3f of the versions", seats, what, miss)
			}
			if copies && float64(sepCopies) > 0.05*float64(adjacent) {
				t.Errorf("%d seats: %d of %d adjacent copies separated", seats, sepCopies, adjacent)
			}
			if !copies && apart < runs*9/10 {
				t.Errorf("%d seats: the strongest and the weakest told apart in %d of %d seasons", seats, apart, runs)
			}
			if early != runs*n || late > runs*n/20 {
				t.Errorf("%d seats, %s: provisional %d after 3 matches (want all %d), %d after 60 (want few)", seats, what, early, runs*n, late)
			}
		}
	}
}

// The case: copies that draw every match are one band, and the ladder says so.
func TestDrawsAreOneBand(t *testing.T) {
	se := newSeason(t, 2, versions(3)...)
	se.play(90)
	for _, p := range se.s.Players { // the results as if every match was drawn
		for sub, r := range p.Met {
			p.Met[sub] = &[3]int{0, r[0] + r[1] + r[2], 0}
		}
	}
	for _, r := range se.s.Leaderboard(nil) {
		if r.RankRange != [2]int{1, 3} || (r.AboveNext != nil && *r.AboveNext != 0) || r.Provisional {
			t.Errorf("%s: rank %d range %v above next %v provisional %v; want 1-3, 0, settled", r.Login, r.Rank, r.RankRange, r.AboveNext, r.Provisional)
		}
	}
}

// A version the results say is surely above another is listed above it, whatever their
// ratings say: a rank is always inside its range.
func TestSureOrderOverRatings(t *testing.T) {
	s := State{Seats: 2, Players: map[string]*Player{
		"a": {Version: Version{Sub: "a", Login: "ann"}, Mu: 30, Sigma: 0.5, Matches: 60, Active: true, Met: map[string]*[3]int{"b": {0, 0, 30}, "c": {30, 0, 0}}},
		"b": {Version: Version{Sub: "b", Login: "bob"}, Mu: 40, Sigma: 4, Matches: 60, Active: true, Met: map[string]*[3]int{"a": {30, 0, 0}, "c": {30, 0, 0}}},
		"c": {Version: Version{Sub: "c", Login: "cid"}, Mu: 10, Sigma: 1, Matches: 60, Active: true, Met: map[string]*[3]int{"a": {0, 0, 30}, "b": {0, 0, 30}}},
	}}
	var got []string
	for _, r := range s.Leaderboard(nil) {
		got = append(got, fmt.Sprintf("%d %s %v", r.Rank, r.Sub, r.RankRange))
	}
	if want := "[1 b [1 1] 2 a [2 2] 3 c [3 3]]"; fmt.Sprint(got) != want {
		t.Errorf("the board %v; want %s (a's rating 28.5 above b's 28, but b beat a every time)", got, want)
	}
}

// A version that used its burst waits for its allowance: the ladder says until when.
func TestNextStart(t *testing.T) {
	set := Defaults // a ceiling of 60 an hour: a burst of 5, then one a minute
	var s State
	s.Sync(versions(2), t0)
	rng := rand.New(rand.NewPCG(1, 1))
	n := 0
	for ; n < 20; n++ {
		if _, ok := s.Pick(rng, fmt.Sprint("m", n), Seats{Least: 2, Want: 2}, set, t0); !ok {
			break
		}
		for id := range s.Pending {
			s.Apply(id, result.Result{Status: result.StatusOK, Players: []result.Player{{Rank: 1}, {Rank: 2}}}, set, t0)
		}
	}
	if n != 5 {
		t.Errorf("%d matches started at once; want the burst, 5", n)
	}
	p := s.Players["s00"]
	if next := p.nextStart(set, t0); next != t0.Add(time.Minute) {
		t.Errorf("next start %v; want a minute on", next.Sub(t0))
	}
	if at, ok := s.NextStart(set, t0); !ok || at != t0.Add(time.Minute) {
		t.Errorf("the ladder's next start %v %v; want a minute on", at.Sub(t0), ok)
	}
	if _, ok := s.Pick(rng, "late", Seats{Least: 2, Want: 2}, set, t0.Add(time.Minute)); !ok {
		t.Error("no match a minute on")
	}
}

// A version that joins when the others have used their allowances plays at once: an
// opponent may take one match on credit.
func TestJoinerPlaysAtOnceAtTheCeiling(t *testing.T) {
	set := Defaults
	var s State
	s.Sync(versions(2), t0)
	rng := rand.New(rand.NewPCG(2, 2))
	for i := range 10 {
		if _, ok := s.Pick(rng, fmt.Sprint("m", i), Seats{Least: 2, Want: 2}, set, t0); !ok {
			break
		}
		for id := range s.Pending {
			s.Apply(id, result.Result{Status: result.StatusOK, Players: []result.Player{{Rank: 1}, {Rank: 2}}}, set, t0)
		}
	}
	if _, ok := s.Pick(rng, "spent", Seats{Least: 2, Want: 2}, set, t0); ok {
		t.Fatal("the two played past their burst")
	}
	s.Sync(versions(3), t0)
	if seats, ok := s.Pick(rng, "new", Seats{Least: 2, Want: 2}, set, t0); !ok || !slices.Contains(seats, "s02") {
		t.Errorf("the new version's first match: %v %v; want it at once", seats, ok)
	}
}

// The choice of opponents favours the pairs whose order is least certain: a provisional
// version (its sigma wide) before a settled one a little nearer, and a close neighbour before
// one further off, more often than Halite's uniform draw among the nearest (halite, the
// benchmark's baseline) takes them; one the heavy tail brings in still meets the seed now and
// then.
func TestChoiceFavoursUnsurePairs(t *testing.T) {
	seed := &Player{Version: Version{Sub: "seed"}, Mu: 30, Sigma: 1}
	share := func(choose chooser, first *Player, others ...*Player) float64 {
		rng := rand.New(rand.NewPCG(1, 2))
		won := 0
		for range 4000 {
			if choose(rng, seed, append(slices.Clone(others), first), 1)[0] == first {
				won++
			}
		}
		return float64(won) / 4000
	}
	for _, c := range []struct {
		name          string
		first, second *Player
	}{
		{"provisional before settled", &Player{Version: Version{Sub: "new"}, Mu: 31.5, Sigma: 8}, &Player{Version: Version{Sub: "old"}, Mu: 29, Sigma: 1}},
		{"close before further", &Player{Version: Version{Sub: "close"}, Mu: 30.2, Sigma: 1}, &Player{Version: Version{Sub: "far"}, Mu: 32, Sigma: 1}},
	} {
		got, base := share(nearest, c.first, c.second), share(halite, c.first, c.second)
		t.Logf("%s: %.2f of the draws, Halite's %.2f", c.name, got, base)
		if got < base+0.1 {
			t.Errorf("%s: the first drawn in %.2f of the draws, Halite's in %.2f; want at least 0.1 more", c.name, got, base)
		}
	}
	near := []*Player{{Version: Version{Sub: "a"}, Mu: 30, Sigma: 1}, {Version: Version{Sub: "b"}, Mu: 30.1, Sigma: 1}}
	if far := share(nearest, &Player{Version: Version{Sub: "far"}, Mu: 60, Sigma: 1}, near...); far == 0 || far > 0.1 {
		t.Errorf("a far version met the seed in %.3f of the draws; want now and then", far)
	}
}
