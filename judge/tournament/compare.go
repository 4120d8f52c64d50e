package tournament

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/rating"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/tournament/schedule"
)

// Compare decides whether a new version of a bot is better than an old one by a sequential
// test (rating.SPRT) over pairs of matches that differ only in which of the two sits in the
// compared seat: in a game of two, one seed played twice with the seats swapped (NEW against
// OLD, then OLD against NEW); in a game of more, one seed and the same opponents in the same
// seats, NEW in the compared seat of the first match and OLD in the second, the compared seat
// turning with each pair. The pairs are taken in their order, so the verdict is the same
// however the daemons' results arrive: a run stopped and started again, or judged by any
// number of daemons, comes to it after the same pairs.
type Compare struct {
	// Name prefixes its match ids: "<name>-<pair>-1" and "-2".
	Name    string
	Game    game.Game
	Options map[string]string
	// Seats is the players of each match (the game's default when 0).
	Seats int
	Seed  uint64
	// New and Old are the versions compared; Opponents fill the other seats of a game of more
	// than two, in turn (Old when none are given).
	New, Old  Entrant
	Opponents []Entrant
	Test      rating.SPRT
	// Max is the matches at most; Window the pairs published ahead of the first unsettled
	// one (default 8); Retries as a tournament's.
	Max, Window, Retries int
	// Play, when set, plays each match here (judge compare --local) instead of through the
	// queue: the seed and the entrants in seat order.
	Play func(ctx context.Context, seed uint64, seats []Entrant) (result.Result, error)
	// Progress is told of each pair that moves the test.
	Progress func(CompareOutcome)

	players int // seats' answer, once worked out (it may start a match of the game to see)
}

// CompareOutcome is how far a comparison is, and what it came to.
type CompareOutcome struct {
	Game string `json:"game"`
	New  string `json:"new"`
	Old  string `json:"old"`
	// Verdict is rating.Better, rating.NotBetter or rating.Undecided (Max reached).
	Verdict string     `json:"verdict"`
	LLR     float64    `json:"llr"`
	Bounds  [2]float64 `json:"bounds"`
	// Matches are those the verdict rests on (two a pair), Pairs their pairs.
	Matches int `json:"matches"`
	Pairs   int `json:"pairs"`
	// Elo is the estimated difference, NEW less OLD: Elo for a game of two, the places by
	// which NEW finishes ahead of where OLD did for a game of more (Unit says which), with
	// its interval at 95%.
	Elo         float64    `json:"elo"`
	EloInterval [2]float64 `json:"elo_interval"`
	Unit        string     `json:"unit"`
	// Outcomes counts the pairs by NEW's share of them (0 to 1).
	Outcomes map[string]int `json:"outcomes"`
	// Faults counts the faults of NEW and of OLD in the compared seat, by kind.
	Faults map[string]map[string]int `json:"faults"`
	// Failed are the matches of the pairs the judge failed on every attempt (one of the two
	// is enough): those pairs count for nothing.
	Failed []string `json:"failed"`
}

// Units of CompareOutcome.Elo.
const (
	UnitElo    = "elo"
	UnitPlaces = "places"
)

// MaxCompare bounds a comparison's matches: its pairs are laid out when it starts.
const MaxCompare = 100000

// compareWindow is the pairs published ahead by default: enough for several daemons, and
// what is wasted when the test decides.
const compareWindow = 8

// seats is the players of a match.
func (c *Compare) seats() int {
	if c.players == 0 {
		t := Tournament{Spec: Spec{Seats: c.Seats, Seed: c.Seed, Options: c.Options}, Game: c.Game}
		c.players = t.seats()
	}
	return c.players
}

// Check says what would stop the comparison before anything is played.
func (c *Compare) Check() error {
	if err := c.Test.Check(); err != nil {
		return err
	}
	if c.Max < 2 || c.Max > MaxCompare {
		return fmt.Errorf("compare: max %d: want 2 matches (a pair) to %d", c.Max, MaxCompare)
	}
	n := c.seats()
	if err := game.CheckPlayers(c.Game, n); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if n == 2 && len(c.Opponents) > 0 {
		return fmt.Errorf("compare: %s is a game of two: NEW plays OLD, and there is no seat for opponents", c.Game.Name())
	}
	if _, err := game.Start(c.Game, game.Config{Seed: c.Seed, Players: n, Options: c.Options}); err != nil {
		return fmt.Errorf("compare: options: %w", err)
	}
	return nil
}

// tournament is the comparison as a tournament of its entrants (New 0, Old 1, the opponents
// after them), whose follower publishes and follows its matches.
func (c *Compare) tournament() *Tournament {
	t := &Tournament{Spec: Spec{Name: c.Name, Game: c.Game.Name(), Options: c.Options, Seats: c.Seats, Seed: c.Seed, Retries: c.Retries}, Game: c.Game}
	t.Spec = t.Spec.WithDefaults()
	t.Spec.Retries = c.Retries
	t.Entrants = append([]Entrant{c.New, c.Old}, c.opponents()...)
	return t
}

// opponents are the other seats' entrants: at least one for each of them, OLD's copies when
// none are given, and the given ones' copies when too few, each copy named "NAME#2" and so
// on, so that no name sits twice in a match.
func (c *Compare) opponents() []Entrant {
	n := c.seats()
	if n == 2 {
		return nil
	}
	given := c.Opponents
	if len(given) == 0 {
		given = []Entrant{c.Old}
	}
	out := slices.Clone(given)
	if len(c.Opponents) == 0 {
		out = nil
	}
	for i := len(out); i < n-1; i++ {
		e := given[i%len(given)]
		copy := i/len(given) + 1 // the given ones are the first
		if len(c.Opponents) == 0 {
			copy = i + 2 // OLD itself is the first, in the compared seat
		}
		e.Name += "#" + strconv.Itoa(copy)
		out = append(out, e)
	}
	return out
}

// pair is the two matches of pair p (from 1), as the tournament's entrants in seat order,
// and the compared seat.
func (c *Compare) pair(p int) (a, b schedule.Match, seat int) {
	n := c.seats()
	seed := schedule.Seed(c.Seed, p, 1)
	if n == 2 {
		return schedule.Match{Round: p, Index: 1, Seats: []int{0, 1}, Seed: seed},
			schedule.Match{Round: p, Index: 2, Seats: []int{1, 0}, Seed: seed}, 0
	}
	seat = (p - 1) % n
	opps := len(c.opponents())
	sa, sb := make([]int, n), make([]int, n)
	k := 0
	for s := range n {
		if s == seat {
			sa[s], sb[s] = 0, 1
			continue
		}
		e := 2 + (k+p-1)%opps
		sa[s], sb[s] = e, e
		k++
	}
	return schedule.Match{Round: p, Index: 1, Seats: sa, Seed: seed}, schedule.Match{Round: p, Index: 2, Seats: sb, Seed: seed}, seat
}

// outcome is NEW's share of a pair whose two results are judged (rating.PairOutcome).
func (c *Compare) outcome(a, b *result.Result, seat int) float64 {
	return rating.PairOutcome(ranks(a), ranks(b), seat)
}

func ranks(r *result.Result) []int {
	out := make([]int, len(r.Players))
	for i, p := range r.Players {
		out[i] = p.Rank
	}
	return out
}

// support is every outcome a pair can have.
func (c *Compare) support() []float64 { return rating.PairSupport(c.seats()) }

// Run plays pairs until the test decides or Max matches are played: through q, or with Play.
func (c *Compare) Run(ctx context.Context, q Queue) (CompareOutcome, error) {
	if err := c.Check(); err != nil {
		return CompareOutcome{}, err
	}
	t := c.tournament()
	window := c.Window
	if window <= 0 {
		window = compareWindow
	}
	maxPairs := c.Max / 2
	lower, upper := c.Test.Bounds()
	out := CompareOutcome{Game: c.Game.Name(), New: c.New.Name, Old: c.Old.Name, Verdict: rating.Undecided, Bounds: [2]float64{lower, upper},
		Outcomes: map[string]int{}, Faults: map[string]map[string]int{"new": {}, "old": {}}, Failed: []string{}, Unit: UnitElo}
	if c.seats() > 2 {
		out.Unit = UnitPlaces
	}
	counts := rating.Counts{}
	f := &follower{t: t, q: q, slots: map[string]*slot{}, start: time.Now()}
	pairs := make([][2]*slot, maxPairs+1)
	seats := make([]int, maxPairs+1)
	for p := 1; p <= maxPairs; p++ {
		a, b, seat := c.pair(p)
		s := f.add([]schedule.Match{a, b}, nil)
		pairs[p], seats[p] = [2]*slot{s[0], s[1]}, seat
		if c.Play == nil {
			f.slots[s[0].id], f.slots[s[1].id] = s[0], s[1]
		}
	}
	// next is the first pair not yet in the test; published the pairs handed to the judge.
	next, published := 1, 0
	// advance takes the settled pairs from next on into the test, in order, until one is
	// not settled or the test decides.
	advance := func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		for next <= maxPairs && out.Verdict == rating.Undecided {
			a, b := pairs[next][0], pairs[next][1]
			if !a.settled || !b.settled {
				return false
			}
			if a.res.Status != result.StatusOK || b.res.Status != result.StatusOK {
				out.Failed = append(out.Failed, a.id, b.id)
			} else {
				x := c.outcome(a.res, b.res, seats[next])
				counts.Add(x)
				out.Outcomes[strconv.FormatFloat(x, 'f', -1, 64)]++
				for who, s := range map[string]*slot{"new": a, "old": b} {
					if fl := s.res.Players[seats[next]].Fault; fl != nil {
						out.Faults[who][string(fl.Kind)]++
					}
				}
				out.Pairs++
				out.Matches += 2
				out.LLR = c.Test.LLR(counts, c.support())
				out.Verdict = c.Test.Decide(out.LLR)
				c.estimate(&out, counts)
				if c.Progress != nil {
					c.Progress(out)
				}
			}
			next++
		}
		return true
	}
	if c.Play != nil {
		for p := 1; p <= maxPairs && out.Verdict == rating.Undecided; p++ {
			for _, s := range pairs[p] {
				if err := c.playHere(ctx, t, s); err != nil {
					return out, err
				}
			}
			advance()
		}
		return out, nil
	}
	// What is stored already: a comparison run before, or daemons that went on without it.
	f.setReplaying(true)
	err := q.Results(ctx, "", false, f.take)
	f.setReplaying(false)
	if err != nil {
		return out, fmt.Errorf("compare: reading the results: %w", err)
	}
	publish := func() error {
		for published < maxPairs && published < next-1+window {
			published++
			for _, s := range pairs[published] {
				if err := f.publish(ctx, s); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if done := advance(); done || out.Verdict != rating.Undecided {
		return out, nil
	}
	if err := publish(); err != nil {
		return out, err
	}
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	err = q.Results(fctx, "", true, func(id string, data []byte) error {
		if err := f.take(id, data); err != nil {
			return err
		}
		if s := f.slotOf(id); s != nil && !s.settled {
			if err := f.publish(ctx, s); err != nil { // the judge failed it: once more
				return err
			}
		}
		if done := advance(); done || out.Verdict != rating.Undecided {
			return errDone
		}
		return publish()
	})
	if errors.Is(err, errDone) {
		return out, nil
	}
	return out, fmt.Errorf("compare: following the results: %w", err)
}

// playHere settles a slot with c.Play, attempt after attempt while the judge fails it.
func (c *Compare) playHere(ctx context.Context, t *Tournament, s *slot) error {
	seats := make([]Entrant, len(s.m.Seats))
	for k, e := range s.m.Seats {
		seats[k] = t.Entrants[e]
	}
	for attempt := 1; ; attempt++ {
		res, err := c.Play(ctx, s.m.Seed, seats)
		if err != nil && !errors.Is(err, result.Infrastructure) {
			return err
		}
		if err == nil && (res.Status == result.StatusOK || res.Error == nil || res.Error.Code != result.Infrastructure) || attempt > c.Retries {
			if err != nil {
				res = result.Failed(s.id, c.Game.Name(), s.m.Seed, result.Errorf(result.Infrastructure, "%v", err))
			}
			s.res, s.settled = &res, true
			return nil
		}
	}
}

// estimate sets the outcome's difference and its interval from the pairs counted. Too few
// pairs to say leave the widest interval there is: a clean sweep is a large difference, not
// an infinite one.
func (c *Compare) estimate(out *CompareOutcome, counts rating.Counts) {
	mean, low, high := counts.Mean(0.95)
	if math.IsNaN(mean) {
		mean, low, high = 0.5, 0, 1
	}
	clip := func(x float64) float64 { return max(1e-4, min(1-1e-4, x)) }
	diff := func(x float64) float64 { return rating.ScoreElo(clip(x)) }
	if n := c.seats(); n > 2 {
		diff = func(x float64) float64 { return (2*max(0, min(1, x)) - 1) * float64(n-1) }
	}
	out.Elo, out.EloInterval = diff(mean)+0, [2]float64{diff(low) + 0, diff(high) + 0} // +0: no "-0"
}
