package ladder

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/rating"
)

// leagueSeason is a season of Bronze (its boss at strength 0), Silver (its boss at 2) and
// Gold (no boss), and versions of the strengths given, s00 first.
func leagueSeason(t testing.TB, seats int, strengths ...float64) *season {
	se := newSeason(t, seats, versions(len(strengths))...)
	se.set.Leagues = []League{{"Bronze", "bronze"}, {"Silver", "silver"}, {"Gold", ""}}
	se.house = []string{"bronze", "silver"}
	se.strength[HouseSeat("bronze")], se.strength[HouseSeat("silver")] = 0, 2
	for i, v := range strengths {
		se.strength[fmt.Sprintf("s%02d", i)] = v
	}
	return se
}

// A version plays within its league, and its boss; it moves up when the test finds it better
// than the boss, never down; the leaderboard lists the top league first: for games of two
// and four players.
func TestLeagues(t *testing.T) {
	t.Parallel()
	// A boss's distance is a match's noise (its performance is strength plus a standard
	// normal): a version wins three quarters of its matches with a boss 1 below it.
	strengths := []float64{-1, -1, -1, -1, 1, 1, 1, 1, 3.5, 3.5, 3.5, 3.5}
	want := []string{"Bronze", "Bronze", "Bronze", "Bronze", "Silver", "Silver", "Silver", "Silver", "Gold", "Gold", "Gold", "Gold"}
	for _, seats := range []int{2, 4} {
		t.Run(fmt.Sprint(seats, " seats"), func(t *testing.T) {
			se := leagueSeason(t, seats, strengths...)
			was := map[string]int{}
			bossMatches := 0
			se.picked = func(id string) {
				m := se.s.Pending[id]
				lg := -1
				for _, sub := range m.Seats {
					if _, house := IsHouseSeat(sub); house {
						continue
					}
					l := se.s.LeagueOf(se.s.Players[sub].Login, se.set)
					if lg >= 0 && l != lg {
						t.Fatalf("match %s seats %v: versions of leagues %d and %d", id, m.Seats, lg, l)
					}
					lg = l
				}
				if m.Boss > 0 {
					bossMatches++
					// In Gold, which has no boss, one alone plays the boss it beat.
					if boss := se.set.Leagues[m.League].Boss; m.Seats[m.Boss-1] != HouseSeat(boss) || m.League != lg && !(lg == 2 && m.League == 1 && len(m.Seats) == 2) {
						t.Fatalf("match %s seats %v: boss at seat %d of league %d, the versions' league %d", id, m.Seats, m.Boss, m.League, lg)
					}
				}
				for login, l := range se.s.League {
					if l < was[login] {
						t.Fatalf("%s moved down from league %d to %d", login, was[login], l)
					}
					was[login] = l
				}
			}
			se.play(3000 / seats)
			rows := se.s.Leaderboard(se.set.Leagues)
			var got []string
			for i, r := range rows {
				var k int
				fmt.Sscanf(r.Sub, "s%d", &k)
				if r.League != want[k] {
					t.Errorf("%s (strength %g) is in %s; want %s (boss test %+v)", r.Sub, strengths[k], r.League, want[k], se.s.Players[r.Sub].Boss)
				}
				if r.Rank != i+1 || r.RankRange[0] > r.Rank || r.Rank > r.RankRange[1] {
					t.Errorf("row %d: rank %d range %v", i, r.Rank, r.RankRange)
				}
				got = append(got, r.League)
			}
			if !slices.IsSortedFunc(got, func(a, b string) int {
				order := map[string]int{"Gold": 0, "Silver": 1, "Bronze": 2}
				return order[a] - order[b]
			}) {
				t.Errorf("the leaderboard's leagues in the order %v; want the top first", got)
			}
			// A league's range never reaches into another's.
			for _, r := range rows {
				for _, q := range rows {
					if r.League != q.League && (r.RankRange[0] <= q.Rank && q.Rank <= r.RankRange[1]) {
						t.Fatalf("%s of %s ranges %v over %s of %s at %d", r.Sub, r.League, r.RankRange, q.Sub, q.League, q.Rank)
					}
				}
			}
			se.checkFair()
			if bossMatches == 0 {
				t.Error("no match seated a boss")
			}
			if len(se.s.Promoted) != 4+2*4 {
				t.Errorf("%d promotions; want 12 (four to Silver and on to Gold, four to Silver)", len(se.s.Promoted))
			}
			// A contestant's new version starts in its contestant's league, its test begun anew.
			vs := versions(len(strengths))
			vs[8] = Version{Sub: "s08v2", Login: "c08", Version: 2, Lang: "go"}
			se.s.Sync(vs, se.now)
			if lg := se.s.LeagueOf("c08", se.set); lg != 2 || se.s.Players["s08v2"].Boss != nil {
				t.Errorf("c08's new version in league %d, boss test %+v; want Gold, none", lg, se.s.Players["s08v2"].Boss)
			}
		})
	}
}

// A version alone in its league, which has no boss, plays the boss it beat, at the others'
// rate; one alone in a league with a boss plays the boss.
func TestAloneInALeague(t *testing.T) {
	t.Parallel()
	for _, seats := range []int{2, 4} {
		se := leagueSeason(t, seats, 3, -1, -1, -1, -1)
		se.play(2000 / seats)
		if lg := se.s.LeagueOf("c00", se.set); lg != 2 {
			t.Fatalf("%d seats: the strongest is in league %d; want Gold", seats, lg)
		}
		p := se.s.Players["s00"]
		others := 0.0
		for _, q := range se.s.Players {
			if q != p {
				others += float64(q.Matches) / 4
			}
		}
		if d := math.Abs(float64(p.Matches)-others) / others; d > 0.2 {
			t.Errorf("%d seats: alone in Gold it played %d matches, the others %.1f", seats, p.Matches, others)
		}
		n := 0
		for _, m := range se.s.Pending {
			if slices.Contains(m.Seats, "s00") {
				n++
				if m.Boss == 0 || m.Seats[m.Boss-1] != HouseSeat("silver") || len(m.Seats) != seats && !(seats == 4 && len(m.Seats) == 2) {
					t.Errorf("%d seats: its match %v; want it against Silver's boss", seats, m.Seats)
				}
			}
		}
	}
}

// A version no better than its boss is told so, and keeps its place in its league.
func TestNotBetterThanTheBoss(t *testing.T) {
	t.Parallel()
	se := leagueSeason(t, 2, -1.5, -1.5, -1.5)
	se.play(600)
	for _, p := range se.s.Players {
		if p.Boss == nil || p.Boss.Verdict != rating.NotBetter || se.s.LeagueOf(p.Login, se.set) != 0 {
			t.Errorf("%s: boss test %+v, league %d; want not better, in Bronze", p.Sub, p.Boss, se.s.LeagueOf(p.Login, se.set))
		}
		if pr := p.Boss.Progress(se.set.Test()); pr.LLR > pr.Bounds[0] || pr.Matches == 0 {
			t.Errorf("%s: progress %+v", p.Sub, pr)
		}
	}
}

func TestLeagueSettings(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		leagues []League
		house   []string
		want    string
	}{
		{"fine", []League{{"Bronze", "easy"}, {"Gold", ""}}, []string{"easy"}, ""},
		{"a boss at the top too", []League{{"Wood 2", "easy"}, {"Legend", "hard"}}, []string{"easy", "hard"}, ""},
		{"one name twice", []League{{"Bronze", "easy"}, {"bronze", "easy"}, {"Gold", ""}}, []string{"easy"}, `"bronze" is the name of two leagues`},
		{"no name", []League{{"", "easy"}, {"Gold", ""}}, []string{"easy"}, `leagues[0]: name ""`},
		{"markup", []League{{"<b>", "easy"}, {"Gold", ""}}, []string{"easy"}, `name "<b>"`},
		{"no boss below the top", []League{{"Bronze", ""}, {"Gold", ""}}, nil, `leagues[0] "Bronze": give its boss`},
		{"a boss that is no house bot", []League{{"Bronze", "nobody"}, {"Gold", ""}}, []string{"easy"}, `boss "nobody" is not a house bot of the contest (it has easy)`},
		{"no house bot at all", []League{{"Bronze", "nobody"}, {"Gold", ""}}, nil, `(it has none)`},
		{"too many", slices.Repeat([]League{{"x", "easy"}}, 11), []string{"easy"}, "want at most 10"},
	} {
		set := Defaults
		set.Leagues = c.leagues
		err := set.Validate()
		if err == nil {
			err = set.CheckBosses(c.house)
		}
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
}
