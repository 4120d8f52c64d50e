package ladder

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/botjudge/judge/judge/rating"
)

// League is a league of the ladder: its name and its boss, the house bot a version of the
// league beats (by the trial's test, Settings.Test) to move up to the next. The top league's
// boss may be left out: there is nothing above it.
type League struct {
	Name string `json:"name"`
	Boss string `json:"boss,omitempty"`
}

// MaxLeagues is the most leagues a contest may declare (CodinGame's have six).
const MaxLeagues = 10

// validLeagues names what is wrong with the leagues, all of it at once.
func validLeagues(ls []League) error {
	if len(ls) > MaxLeagues {
		return fmt.Errorf("leagues: %d of them: want at most %d", len(ls), MaxLeagues)
	}
	var errs []error
	seen := map[string]bool{}
	for i, l := range ls {
		name := strings.TrimSpace(l.Name)
		switch {
		case name == "" || len(name) > 40 || name != l.Name || strings.IndexFunc(name, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" -_.", r)
		}) >= 0:
			errs = append(errs, fmt.Errorf("leagues[%d]: name %q: want 1 to 40 letters, digits, spaces, '-', '_' or '.'", i, l.Name))
		case seen[strings.ToLower(name)]:
			errs = append(errs, fmt.Errorf("leagues[%d]: %q is the name of two leagues: each needs its own", i, l.Name))
		}
		seen[strings.ToLower(name)] = true
		if l.Boss == "" && i < len(ls)-1 {
			errs = append(errs, fmt.Errorf("leagues[%d] %q: give its boss, a house bot (NAME=HOUSEBOT): a version leaves a league by beating its boss (only the top league may have none)", i, l.Name))
		}
	}
	return errors.Join(errs...)
}

// CheckBosses names each league whose boss is not one of house, the contest's house bots.
func (s Settings) CheckBosses(house []string) error {
	var errs []error
	for i, l := range s.Leagues {
		if l.Boss != "" && !slices.Contains(house, l.Boss) {
			known := "it has none"
			if len(house) > 0 {
				known = "it has " + strings.Join(house, ", ")
			}
			errs = append(errs, fmt.Errorf("leagues[%d] %q: boss %q is not a house bot of the contest (%s): add it first", i, l.Name, l.Boss, known))
		}
	}
	return errors.Join(errs...)
}

// BossTest is a version's test against its league's boss: the outcomes of its rated matches
// with the boss (index 0 below it, 1 level, 2 above, the support 0, 1/2, 1 of rating.SPRT),
// and the verdict. Started counts the ladder matches it was seated in since it joined the
// league, Seated those with the boss (bossEvery).
type BossTest struct {
	League   int       `json:"league"`
	Outcomes [3]int    `json:"outcomes"`
	Started  int       `json:"started,omitempty"`
	Seated   int       `json:"seated,omitempty"`
	Verdict  string    `json:"verdict,omitempty"`
	Decided  time.Time `json:"decided,omitzero"`
}

var bossSupport = []float64{0, 0.5, 1}

// Progress is the test's progress: its log-likelihood ratio between the bounds, the matches
// with the boss and the verdict.
func (b *BossTest) Progress(test rating.SPRT) TrialProgress {
	lo, hi := test.Bounds()
	out := TrialProgress{Bounds: [2]float64{lo, hi}, Verdict: b.Verdict}
	c := rating.Counts{}
	for k, n := range b.Outcomes {
		if n > 0 {
			c[bossSupport[k]] += float64(n)
			out.Matches += n
		}
	}
	if out.Matches > 0 {
		out.LLR = test.LLR(c, bossSupport)
	}
	return out
}

// LeagueOf is the league of login's versions (an index of set.Leagues; 0 without leagues): a
// contestant starts in the lowest and is never moved down. Leagues taken away by the
// organisers leave those above the new top in it.
func (s *State) LeagueOf(login string, set Settings) int {
	return max(0, min(s.League[login], len(set.Leagues)-1))
}

// bossTest is p's test against the boss of league lg, begun when it has none for that league.
func (p *Player) bossTest(lg int) *BossTest {
	if p.Boss == nil || p.Boss.League != lg {
		p.Boss = &BossTest{League: lg}
	}
	return p.Boss
}

// inLeague keeps of others those in seed's league.
func (s *State) inLeague(seed *Player, others []*Player, set Settings) []*Player {
	if len(set.Leagues) == 0 {
		return others
	}
	lg := s.LeagueOf(seed.Login, set)
	var out []*Player
	for _, p := range others {
		if s.LeagueOf(p.Login, set) == lg {
			out = append(out, p)
		}
	}
	return out
}

// A seed meets its league's boss in one of every bossEvery of its matches (those it seeds
// and those others seed) while its test is undecided, one of every bossEveryDecided after:
// a boss match adds to the seed's load alone, so that a league's other versions seed the
// next matches and meet the boss too - without it, in a league of two whose one version is
// decided, the other would seed (and meet the boss) only on ties.
const (
	bossEvery        = 2
	bossEveryDecided = 4
)

// bossFor is the boss a match seeded by seed seats (its seat's league), or "" for none: its
// league's, in its share of its matches (bossEvery), or in every one when it has no one
// else of its league to play (alone) - then, in a league with no boss, the boss of the league
// below, whose test it is past.
func (s *State) bossFor(seed *Player, set Settings, alone bool) (string, int) {
	if len(set.Leagues) == 0 || seed.Staged {
		return "", 0
	}
	lg := s.LeagueOf(seed.Login, set)
	if b := set.Leagues[lg].Boss; b != "" {
		t := seed.bossTest(lg)
		every := bossEvery
		if t.Verdict != "" {
			every = bossEveryDecided
		}
		if alone || every*t.Seated <= t.Started {
			return b, lg
		}
		return "", 0
	}
	if alone && lg > 0 {
		return set.Leagues[lg-1].Boss, lg - 1
	}
	return "", 0
}

// seatedInLeague counts a match picked for the versions of seats, with the boss or not.
func (s *State) seatedInLeague(seats []string, boss bool, set Settings) {
	if len(set.Leagues) == 0 {
		return
	}
	for _, sub := range seats {
		p := s.Players[sub]
		if p == nil || p.Staged {
			continue
		}
		t := p.bossTest(s.LeagueOf(p.Login, set))
		t.Started++
		if boss {
			t.Seated++
		}
	}
}

// applyBoss moves the boss tests of a rated match's versions (ps, at places ranks) that are
// in the league whose boss sat at seat m.Boss-1, and promotes those the test finds better.
func (s *State) applyBoss(m Pending, ps []*Player, ranks []int, bossRank int, set Settings, now time.Time) {
	if m.Boss == 0 || m.League >= len(set.Leagues) {
		return
	}
	test := set.Test()
	for i, p := range ps {
		if p.Staged || s.LeagueOf(p.Login, set) != m.League {
			continue
		}
		t := p.bossTest(m.League)
		if t.Verdict != "" {
			continue
		}
		k := 1
		switch {
		case ranks[i] < bossRank:
			k = 2
		case ranks[i] > bossRank:
			k = 0
		}
		t.Outcomes[k]++
		v := test.Decide(t.Progress(test).LLR)
		if v == rating.Undecided {
			continue
		}
		t.Verdict, t.Decided = v, now
		if v == rating.Better && m.League+1 < len(set.Leagues) {
			if s.League == nil {
				s.League = map[string]int{}
			}
			s.League[p.Login] = m.League + 1
			s.Promoted = append(s.Promoted, Promotion{Login: p.Login, Sub: p.Sub, To: m.League + 1, At: now, Matches: t.Progress(test).Matches})
			s.Promoted = s.Promoted[max(0, len(s.Promoted)-promotedKept):]
		}
	}
}

// Promotion is a contestant moved up a league: by its version Sub's win over the boss of the
// league below To, after Matches matches with it.
type Promotion struct {
	Login   string    `json:"login"`
	Sub     string    `json:"sub"`
	To      int       `json:"to"`
	At      time.Time `json:"at"`
	Matches int       `json:"matches"`
}

// promotedKept is how many promotions State.Promoted keeps, the newest.
const promotedKept = 200

// shuffleBoss shuffles seats with the boss among them and returns the boss's seat (a house bot
// that fills a seat may be the boss too: the seat is tracked, not looked for).
func shuffleBoss(rng *rand.Rand, seats []string, boss string) ([]string, int) {
	seats = append(seats, HouseSeat(boss))
	at := len(seats) - 1
	rng.Shuffle(len(seats), func(i, j int) {
		seats[i], seats[j] = seats[j], seats[i]
		switch at {
		case i:
			at = j
		case j:
			at = i
		}
	})
	return seats, at
}

// ParseLeague reads a league as the command line and the organiser page give it:
// NAME=HOUSEBOT, or NAME alone for a top league without a boss.
func ParseLeague(s string) (League, error) {
	name, boss, _ := strings.Cut(strings.TrimSpace(s), "=")
	l := League{Name: strings.TrimSpace(name), Boss: strings.TrimSpace(boss)}
	if l.Name == "" || strings.Contains(s, "=") && l.Boss == "" {
		return l, fmt.Errorf("league %q: want NAME=HOUSEBOT (the top league may be NAME alone)", s)
	}
	return l, nil
}
