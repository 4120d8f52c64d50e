// Package ladder is a contest's continuous ladder: which active versions play next
// (matchmaking), how each result moves their ratings (OpenSkill), and when a version's own
// faults take it off the ladder. It is pure and deterministic given its random source: the
// portal keeps one State per contest in its store and changes it by compare-and-set, so
// that any number of portals run one ladder and a restarted one picks up where it was.
//
// docs/portal.md says what was chosen and why.
package ladder

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/rating"
	"github.com/botjudge/judge/judge/rating/openskill"
	"github.com/botjudge/judge/judge/result"
)

// Settings are a contest's ladder settings.
type Settings struct {
	// InFlight is how many ladder matches may wait on the queue or play at once: the ladder
	// fills what the daemons leave, and never floods the queue.
	InFlight int `json:"in_flight"`
	// A version with a fault of its own in DisableFaults of its last DisableWindow ladder
	// matches is taken off the ladder.
	DisableFaults int `json:"disable_faults"`
	DisableWindow int `json:"disable_window"`
	// MinRate is the ladder matches an hour every version that plays is guaranteed (0: no
	// guarantee beyond fairness): one behind it is seeded first, and the ladder may then
	// have twice InFlight matches pending.
	MinRate int `json:"min_rate"`
	// MaxRate is the ladder matches an hour a version plays at most: the ceiling that keeps
	// trivial bots from filling the judges and the store (0: the default, for contests made
	// before there was one).
	MaxRate int `json:"max_rate,omitempty"`
	// Trial is the test a staged version's trial runs (nil: judge compare's default);
	// AutoPromote makes a version the test decides is better active by itself.
	Trial       *TrialTest `json:"trial,omitempty"`
	AutoPromote bool       `json:"auto_promote,omitempty"`
	// Leagues are the ladder's leagues, the lowest first (none: one list). A version plays
	// within its contestant's league, and its boss; Settings.Test against the boss moves it up.
	Leagues []League `json:"leagues,omitempty"`
}

// Defaults are a new contest's ladder settings.
var Defaults = Settings{InFlight: 4, DisableFaults: 3, DisableWindow: 5, MinRate: 6, MaxRate: 60}

// Ceiling is MaxRate, or the default's when it is 0.
func (s Settings) Ceiling() int {
	if s.MaxRate == 0 {
		return Defaults.MaxRate
	}
	return s.MaxRate
}

// Validate names the first setting out of range.
func (s Settings) Validate() error {
	switch {
	case s.InFlight < 1 || s.InFlight > 64:
		return fmt.Errorf("in_flight %d: want 1 to 64", s.InFlight)
	case s.DisableWindow < 1 || s.DisableWindow > 50:
		return fmt.Errorf("disable_window %d: want 1 to 50", s.DisableWindow)
	case s.DisableFaults < 1 || s.DisableFaults > s.DisableWindow:
		return fmt.Errorf("disable_faults %d: want 1 to disable_window (%d)", s.DisableFaults, s.DisableWindow)
	case s.MinRate < 0 || s.MinRate > 600:
		return fmt.Errorf("min_rate %d: want 0 to 600 ladder matches an hour", s.MinRate)
	case s.MaxRate < 0 || s.MaxRate > 3600:
		return fmt.Errorf("max_rate %d: want 1 to 3600 ladder matches an hour (0: the default, %d)", s.MaxRate, Defaults.MaxRate)
	case s.Ceiling() < s.MinRate:
		return fmt.Errorf("max_rate %d: want at least min_rate (%d)", s.Ceiling(), s.MinRate)
	case s.AutoPromote && s.Trial == nil:
		return fmt.Errorf("auto_promote: give the trial's test first (trial: elo0, elo1, alpha, beta), which decides what is promoted")
	}
	if s.Trial != nil {
		if err := s.Test().Check(); err != nil {
			return fmt.Errorf("trial: %w", err)
		}
	}
	return validLeagues(s.Leagues)
}

// Unset reports whether the settings were never given (a contest made before the ladder had
// settings): InFlight is at least 1 in any that were.
func (s Settings) Unset() bool { return s.InFlight == 0 }

// Version is a contestant's version as the ladder knows it.
type Version struct {
	Sub     string `json:"sub"`
	Login   string `json:"login"`
	Version int    `json:"version"`
	Lang    string `json:"lang"`
	// Staged is a version on trial: it plays unrated matches against the versions on the
	// ladder, and its owner makes it active after seeing how it fares.
	Staged bool `json:"staged,omitempty"`
}

// Player is a version on the ladder, or one that was.
type Player struct {
	Version
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
	// Matches counts its rated ladder matches (for a staged version, its trial matches).
	// Unrated counts the trial matches of others it played, which rate nobody but them.
	// Base is the load (State.load) it was given when it joined, the least of the others',
	// so that a version that joins late plays at the others' rate rather than catching up on
	// their matches.
	Matches int `json:"matches"`
	Unrated int `json:"unrated,omitempty"`
	Base    int `json:"base"`
	// Active is whether it is its contestant's active version: only those play, and staged
	// versions on trial (Staged).
	Active bool      `json:"active"`
	Joined time.Time `json:"joined"`
	Last   time.Time `json:"last,omitzero"`
	// Hour are the ends of its matches of the last hour, the newest MinRate of them, for the
	// match-rate guarantee.
	Hour []time.Time `json:"hour,omitempty"`
	// Started counts the ladder matches picked for it in each rateSlot of the last hour,
	// the newest last, the newest slot beginning at SlotStart: for the ceiling
	// (Settings.MaxRate), a dozen numbers in the state whatever the ceiling.
	Started   []int     `json:"started,omitempty"`
	SlotStart time.Time `json:"slot_start,omitzero"`
	// Allowance is the matches it may start, as it was at AllowanceAt: it refills at the
	// ceiling's rate up to burst, so that a version's matches of the hour are spread over the
	// hour (the ceiling a rate, not a burst). A zero AllowanceAt is a full allowance.
	Allowance   float64   `json:"allowance,omitempty"`
	AllowanceAt time.Time `json:"allowance_at,omitzero"`
	// Recent are its last rated matches (the disable window), oldest first.
	Recent []Outcome `json:"recent,omitempty"`
	// Trial is a staged version's trial against its contestant's active version.
	Trial *Trial `json:"trial,omitempty"`
	// Boss is its test against its league's boss (Settings.Leagues).
	Boss     *BossTest          `json:"boss,omitempty"`
	Disabled *Disabled          `json:"disabled,omitempty"`
	Versus   map[string]*Record `json:"versus,omitempty"` // by opponent login
	// Met are its rated results against each version still in the state, by submission id
	// (won, drawn, lost; in a match of more, finished above, level, below): what the
	// leaderboard's doubt is fitted to (rating.SeparatePairs).
	Met map[string]*[3]int `json:"met,omitempty"`
}

// Rating is the player's conservative rating, mu - 3 sigma: what the leaderboard sorts by.
func (p *Player) Rating() float64 { return openskill.Rating{Mu: p.Mu, Sigma: p.Sigma}.Ordinal() }

// Outcome is one rated match of a player's: its fault, when it had one that counts.
type Outcome struct {
	Match string      `json:"match"`
	Fault *game.Fault `json:"fault,omitempty"`
}

// Disabled is why a version was taken off the ladder: Matches are the matches that counted.
type Disabled struct {
	Reason  string    `json:"reason"`
	Matches []string  `json:"matches"`
	At      time.Time `json:"at"`
}

// Record is a player's results against one opponent.
type Record struct {
	Won   int `json:"won"`
	Drawn int `json:"drawn"`
	Lost  int `json:"lost"`
}

// Pending is a ladder match on the queue: the submissions in its seats. A trial's match names
// the staged version (Trial), its pair (the pair's id, which seeds both halves) and its half
// (1 or 2).
type Pending struct {
	Seats   []string  `json:"seats"`
	Created time.Time `json:"created"`
	Trial   string    `json:"trial,omitempty"`
	Pair    string    `json:"pair,omitempty"`
	Half    int       `json:"half,omitempty"`
	// Boss is the seat (from 1) of the boss of league League, in a match that tests the
	// versions of that league against it; 0 in one that does not.
	Boss   int `json:"boss,omitempty"`
	League int `json:"league,omitempty"`
}

// State is a contest's ladder.
type State struct {
	// choose picks the opponents (nearest, unless a benchmark compares another).
	choose chooser

	Players map[string]*Player `json:"players"` // by submission id
	Pending map[string]Pending `json:"pending"` // by match id
	// Rated counts the matches rated; Trials the unrated matches of staged versions; Skipped
	// those whose result the judge could not give.
	Rated   int `json:"rated"`
	Trials  int `json:"trials,omitempty"`
	Skipped int `json:"skipped"`
	// Done are the ends of the last matches (doneKept), to tell the ladder's pace.
	Done []time.Time `json:"done,omitempty"`
	// Seats is the most versions a rated match has seated: the leaderboard's fit counts the
	// results of one match together (rating.SeparatePairs).
	Seats int `json:"seats,omitempty"`
	// League is each contestant's league (an index of Settings.Leagues), by login: absent
	// is the lowest (LeagueOf). Promoted are the latest moves up, the newest last.
	League   map[string]int `json:"league,omitempty"`
	Promoted []Promotion    `json:"promoted,omitempty"`
}

// doneKept is how many match ends State.Done keeps.
const doneKept = 60

// behind reports whether p has had fewer matches in the last hour than the guarantee owes
// it: MinRate an hour, for the part of the last hour it has been on the ladder. The guarantee
// is the ladder's versions': a staged version's trial is owed none.
func (s *State) behind(p *Player, set Settings, now time.Time) bool {
	if set.MinRate == 0 || p.Staged { // a trial's pairs wait for its active version's allowance
		return false
	}
	since := min(now.Sub(p.Joined), time.Hour)
	owed := int(float64(set.MinRate) * since.Hours())
	n := s.pendingOf(p)
	for _, t := range p.Hour {
		if now.Sub(t) <= time.Hour {
			n++
		}
	}
	return n < owed
}

// rateSlot is the span the ceiling counts matches in: the hour's count includes the whole
// oldest slot the hour reaches into, so a version never passes its ceiling in any hour and
// is held below it by at most a slot's share (a twelfth).
const rateSlot = 5 * time.Minute

// burst is the most matches a version may start at once, after a pause: its ceiling's share
// of a rateSlot, at least one.
func burst(set Settings) float64 {
	return max(1, math.Ceil(float64(set.Ceiling())*float64(rateSlot)/float64(time.Hour)))
}

// allowance is the matches p may start at now.
func (p *Player) allowance(set Settings, now time.Time) float64 {
	if p.AllowanceAt.IsZero() {
		return burst(set)
	}
	return min(burst(set), p.Allowance+max(0, now.Sub(p.AllowanceAt).Hours())*float64(set.Ceiling()))
}

// started counts a match picked for p at now.
func (p *Player) started(set Settings, now time.Time) {
	p.Allowance, p.AllowanceAt = p.allowance(set, now)-1, now
	slot := now.UTC().Truncate(rateSlot)
	if n := int(slot.Sub(p.SlotStart) / rateSlot); n > 0 || len(p.Started) == 0 {
		p.Started = append(p.Started, make([]int, min(max(n, 1), int(time.Hour/rateSlot)))...)
		p.SlotStart = slot
	}
	p.Started[len(p.Started)-1]++
	p.Started = p.Started[max(0, len(p.Started)-int(time.Hour/rateSlot)-1):]
}

// lastHour is the matches picked for p in the slots the hour up to now reaches into.
func (p *Player) lastHour(now time.Time) int {
	n := 0
	for i, c := range p.Started {
		end := p.SlotStart.Add(time.Duration(i-len(p.Started)+2) * rateSlot)
		if now.Sub(end) < time.Hour {
			n += c
		}
	}
	return n
}

// full reports whether p may start no match now: it has had its ceiling of matches in the
// last hour, or has used its allowance (burst) for now. An opponent may take one match on
// credit (its allowance down to -1), so that a version that joins when the others have used
// theirs plays at once rather than a minute later.
func (s *State) full(p *Player, set Settings, now time.Time, seed bool) bool {
	credit := 1.0
	if !seed {
		credit = 0
	}
	return p.lastHour(now) >= set.Ceiling() || p.allowance(set, now) < credit
}

// NextStart is about when the ladder may start its next match (now if it may): when two of
// the versions that play may. False when fewer than two play.
func (s *State) NextStart(set Settings, now time.Time) (time.Time, bool) {
	var at []time.Time
	for _, p := range s.playing() {
		at = append(at, p.nextStart(set, now))
	}
	if len(at) < 2 {
		return time.Time{}, false
	}
	slices.SortFunc(at, time.Time.Compare)
	return at[1], true
}

// nextStart is when p may seed a match again (now if it may).
func (p *Player) nextStart(set Settings, now time.Time) time.Time {
	at := now
	if a := p.allowance(set, now); a < 1 {
		at = now.Add(time.Duration((1 - a) / float64(set.Ceiling()) * float64(time.Hour)))
	}
	// The hour's count falls as its oldest slots leave it.
	for i := range p.Started {
		if p.lastHour(at) < set.Ceiling() {
			break
		}
		if gone := p.SlotStart.Add(time.Duration(i-len(p.Started)+2)*rateSlot + time.Hour); gone.After(at) {
			at = gone
		}
	}
	return at
}

func (s *State) pendingOf(p *Player) int {
	n := 0
	for _, m := range s.Pending {
		if slices.Contains(m.Seats, p.Sub) {
			n++
		}
	}
	return n
}

// order is the versions that play, in the order Pick seeds them: those behind the
// guarantee first, then the least load, the longest since they played, the least certain.
func (s *State) order(set Settings, now time.Time) []*Player {
	players := s.playing()
	type key struct {
		ahead bool // not behind
		load  int
	}
	keys := make(map[*Player]key, len(players)) // each worked out once: a ladder of 500 sorts them often
	for _, p := range players {
		keys[p] = key{!s.behind(p, set, now), s.load(p)}
	}
	slices.SortStableFunc(players, func(a, b *Player) int {
		ka, kb := keys[a], keys[b]
		return cmp.Or(cmpBool(ka.ahead, kb.ahead), cmp.Compare(ka.load, kb.load), a.Last.Compare(b.Last), cmp.Compare(b.Sigma, a.Sigma))
	})
	return players
}

// Place is a version's place in the ladder's queue: how many are seeded before it, and,
// from the ladder's pace, about when its next match starts.
type Place struct {
	Place   int           // 1: it is seeded next
	Pending bool          // it is in a match on the queue now
	Wait    time.Duration // 0 when the pace is not known yet
	Behind  bool          // below its guaranteed rate
}

// PlaceOf is where sub is in the ladder's queue; false when it does not play.
func (s *State) PlaceOf(sub string, set Settings, now time.Time) (Place, bool) {
	for i, p := range s.order(set, now) {
		if p.Sub != sub {
			continue
		}
		pl := Place{Place: i + 1, Pending: s.pendingOf(p) > 0, Behind: s.behind(p, set, now)}
		if pace := s.Pace(now); pace > 0 {
			pl.Wait = time.Duration(float64(i+1) / pace * float64(time.Minute))
		}
		return pl, true
	}
	return Place{}, false
}

// Pace is the ladder's matches a minute over its last doneKept matches of the last hour.
func (s *State) Pace(now time.Time) float64 {
	var recent []time.Time
	for _, t := range s.Done {
		if now.Sub(t) <= time.Hour {
			recent = append(recent, t)
		}
	}
	if len(recent) < 2 {
		return 0
	}
	span := now.Sub(slices.MinFunc(recent, time.Time.Compare)).Minutes()
	if span <= 0 {
		return 0
	}
	return float64(len(recent)) / span
}

// keepRetired is how many versions a contestant no longer plays the state keeps (the
// newest): a version made active again comes back with its rating, and the state stays
// small enough for one key.
const keepRetired = 3

// widen is the spread added to a predecessor's sigma for a new version's prior: a new
// version is likely close to the old one, but not surely.
const widen = openskill.DefaultSigma / 2

// Sync makes the versions in active the ones that play (the staged ones on trial). A
// version new to the ladder starts from its predecessor's mu (the contestant's newest
// version the ladder had) with sigma widened by widen (at most the prior's), or from the
// prior when it has none. A staged version made active keeps the rating its trial gave it.
func (s *State) Sync(active []Version, now time.Time) {
	if s.Players == nil {
		s.Players = map[string]*Player{}
	}
	on := map[string]Version{}
	for _, v := range active {
		on[v.Sub] = v
	}
	base := s.leastLoad() // of the versions that played until now
	for _, p := range s.Players {
		was := p.plays()
		v, ok := on[p.Sub]
		p.Active, p.Staged = ok && !v.Staged, ok && v.Staged
		if !was && p.plays() {
			p.Base += max(0, base-s.load(p)) // back after a break: at the others' level
		}
	}
	for _, v := range active {
		if _, ok := s.Players[v.Sub]; ok {
			continue
		}
		r := openskill.New()
		if prev := s.newest(v.Login, v.Sub); prev != nil {
			r = openskill.Rating{Mu: prev.Mu, Sigma: min(math.Hypot(prev.Sigma, widen), openskill.DefaultSigma)}
		}
		s.Players[v.Sub] = &Player{Version: v, Mu: r.Mu, Sigma: r.Sigma, Base: base, Active: !v.Staged, Joined: now}
	}
	s.prune()
}

// newest is login's newest version on the ladder other than sub.
func (s *State) newest(login, sub string) *Player {
	var best *Player
	for _, p := range s.Players {
		if p.Login == login && p.Sub != sub && (best == nil || p.Version.Version > best.Version.Version) {
			best = p
		}
	}
	return best
}

// prune forgets the retired versions of each contestant beyond the newest keepRetired, but
// never one a pending match seats.
func (s *State) prune() {
	seated := map[string]bool{}
	for _, m := range s.Pending {
		for _, sub := range m.Seats {
			seated[sub] = true
		}
	}
	byLogin := map[string][]*Player{}
	for _, p := range s.Players {
		if !p.Active && !p.Staged && !seated[p.Sub] {
			byLogin[p.Login] = append(byLogin[p.Login], p)
		}
	}
	for _, ps := range byLogin {
		slices.SortFunc(ps, func(a, b *Player) int { return b.Version.Version - a.Version.Version })
		for _, p := range ps[min(keepRetired, len(ps)):] {
			delete(s.Players, p.Sub)
		}
	}
	for _, p := range s.Players {
		for sub := range p.Met {
			if s.Players[sub] == nil {
				delete(p.Met, sub)
			}
		}
	}
}

// plays reports whether p plays: active or staged, and not disabled.
// A staged version whose trial decided plays no more: it waits for its owner (or
// auto-promotion) and leaves the contestant's share of the ladder to the active version.
func (p *Player) plays() bool {
	return (p.Active || p.Staged) && p.Disabled == nil && !(p.Staged && p.decided())
}

// playing are the versions that play, in a fixed order.
func (s *State) playing() []*Player {
	var out []*Player
	for _, p := range s.Players {
		if p.plays() {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *Player) int { return strings.Compare(a.Sub, b.Sub) })
	return out
}

// load is how much of the ladder a player has had: the load it joined with, and its
// matches since, rated or pending.
func (s *State) load(p *Player) int {
	return p.Base + p.Matches + p.Unrated + s.pendingOf(p)
}

// leastLoad is the least load of the versions that play (0 when none does).
func (s *State) leastLoad() int {
	least := -1
	for _, p := range s.playing() {
		if l := s.load(p); least < 0 || l < least {
			least = l
		}
	}
	return max(least, 0)
}

// loadSlack is how far above the seed's load an opponent may be: opponents are chosen by
// rating, and without a bound the middle of the field would be everyone's opponent and play
// far more than the ends.
const loadSlack = 2

// HouseSeat is how a pending match names a seat of the house bot name: a submission id never
// has the prefix.
func HouseSeat(name string) string { return housePrefix + name }

// IsHouseSeat reports whether a pending match's seat is a house bot's, and which.
func IsHouseSeat(seat string) (string, bool) { return strings.CutPrefix(seat, housePrefix) }

const housePrefix = "house:"

// Seats is how many seats a ladder match has: between Least and Want versions (the game's
// smallest match and the one the ladder plays, as the contest's options allow). House are
// the contest's house bots: when fewer than Least versions can meet, they take the seats
// left, in turn, so that a game of four players has a ladder from two contestants on.
type Seats struct {
	Least, Want int
	House       []string
}

// Pick chooses the seats of a new ladder match, id, and records it as pending. It returns
// false when InFlight matches are pending already (twice that when the seed is behind the
// guaranteed rate) or too few versions play: at least two, and Least when there is no house
// bot to fill the seats.
//
// The seed is a version behind the guaranteed rate (Settings.MinRate) if there is one, else
// the version that has had the least of the ladder (then the one that played longest ago,
// then the least certain rating); its opponents are drawn from the k versions
// nearest its mu among those not far above it in load, where k - (want-1) is heavy-tailed
// (P(k-(want-1) >= j) = 1/(j+1)), so that most matches are close while leaders still meet
// the whole field. Seats are shuffled, the house bots' with the versions'. A staged version
// plays only as the seed of its trial's pairs (Trial): two pending matches at once, id and
// id+"-2", against its contestant's active version, rating no one but itself; its second
// half may take one place more than InFlight, so that a ladder always full still plays it.
func (s *State) Pick(rng *rand.Rand, id string, size Seats, set Settings, now time.Time) ([]string, bool) {
	players := slices.DeleteFunc(s.order(set, now), func(p *Player) bool { return s.full(p, set, now, false) })
	seeds := slices.DeleteFunc(slices.Clone(players), func(p *Player) bool { return s.full(p, set, now, true) })
	if len(seeds) == 0 {
		return nil, false
	}
	room := set.InFlight
	if s.behind(seeds[0], set, now) {
		room *= 2
	}
	if len(s.Pending) >= room {
		return nil, false
	}
	// A staged seed whose trial cannot be seated now (its active version at its ceiling)
	// lets the next one seed.
	for i, seed := range seeds {
		if seats, ok, next := s.pickFor(rng, id, seed, players, size, set, now); ok || !next || i == len(seeds)-1 {
			return seats, ok
		}
	}
	return nil, false
}

// pickFor seats a match seeded by seed; next when the next version may seed instead.
func (s *State) pickFor(rng *rand.Rand, id string, seed *Player, players []*Player, size Seats, set Settings, now time.Time) ([]string, bool, bool) {
	others := s.inLeague(seed, slices.DeleteFunc(slices.Clone(players), func(p *Player) bool { return p.Staged || p == seed }), set)
	// With leagues, a seed that cannot play in its league leaves the others theirs.
	leagues := len(set.Leagues) > 0
	boss, lg := s.bossFor(seed, set, len(others) == 0)
	need := size.Least
	if len(size.House) > 0 {
		need = min(need, 2)
	}
	if boss != "" {
		need = 1 // the seed and the boss, and house bots for the seats left
	}
	if len(others)+1 < max(need, 2) && boss == "" {
		return nil, false, seed.Staged || leagues
	}
	bossSeats := 0
	if boss != "" {
		bossSeats = 1
	}
	want := min(size.Want-bossSeats, len(others)+1)
	if near := slices.DeleteFunc(slices.Clone(others), func(p *Player) bool {
		return s.load(p) > s.load(seed)+loadSlack
	}); len(near) >= want-1 {
		others = near
	}
	choose := s.choose
	if choose == nil {
		choose = nearest
	}
	pool := choose(rng, seed, others, want-1)
	if seed.Staged {
		own := s.ownActive(seed, players)
		if own == nil {
			return nil, false, true
		}
		seats, ok := s.pickTrial(rng, id, seed, own, pool, size, set, now)
		return seats, ok, !ok
	}
	seats := []string{seed.Sub}
	for _, p := range pool[:want-len(seats)] {
		seats = append(seats, p.Sub)
	}
	s.seatedInLeague(seats, boss != "", set)
	for i := 0; len(seats)+bossSeats < size.Least; i++ {
		seats = append(seats, HouseSeat(size.House[i%len(size.House)]))
	}
	m := Pending{Created: now}
	if boss != "" {
		var at int
		seats, at = shuffleBoss(rng, seats, boss)
		m.Boss, m.League = at+1, lg
	} else {
		rng.Shuffle(len(seats), func(i, j int) { seats[i], seats[j] = seats[j], seats[i] })
	}
	m.Seats = seats
	if s.Pending == nil {
		s.Pending = map[string]Pending{}
	}
	s.Pending[id] = m
	for _, sub := range seats {
		if p := s.Players[sub]; p != nil {
			p.started(set, now)
		}
	}
	return seats, true, false
}

// A chooser orders others for a match seeded by seed, the n it chooses first.
type chooser func(rng *rand.Rand, seed *Player, others []*Player, n int) []*Player

// nearest chooses the opponents among the k versions nearest the seed's mu, k the n seats
// left and a heavy-tailed extra, P(extra >= j) = 1/(j+1) (Halite III's scheme), drawn among
// those (without replacement) by how unsure the pair's order is: weight Phi(-|d|/s) s^2, the
// chance that their mu are the wrong way round times what a match between them can tell, d
// the difference of their mu and s^2 the sum of their sigmas' squares, at least half the
// pool's mean. Neighbours whose intervals overlap, and versions still provisional, meet
// first; the rest follow, nearest first. Measured against Halite's uniform draw and wider choices: BENCHMARKS.md.
func nearest(rng *rand.Rand, seed *Player, others []*Player, n int) []*Player {
	others = slices.Clone(others)
	slices.SortStableFunc(others, func(a, b *Player) int {
		return cmp.Compare(math.Abs(a.Mu-seed.Mu), math.Abs(b.Mu-seed.Mu))
	})
	extra := int(1/(1-rng.Float64())) - 1 // 1-Float64 is in (0, 1]
	k := min(n+extra, len(others))
	pool := others[:k]
	weights := make([]float64, k)
	sum := 0.0
	for i, p := range pool {
		v := seed.Sigma*seed.Sigma + p.Sigma*p.Sigma
		weights[i] = 0.5 * math.Erfc(math.Abs(p.Mu-seed.Mu)/math.Sqrt(2*v)) * v
		sum += weights[i]
	}
	keys := make(map[*Player]float64, k)
	for i, p := range pool {
		// Each of the pool weighs at least half the pool's mean, so that one the heavy tail
		// brought in still meets the seed now and then: the leaders meet the field.
		w := max(weights[i], sum/float64(2*k), 1e-12)
		// Efraimidis and Spirakis: the largest keys log(u)/w are a weighted draw.
		keys[p] = math.Log(1-rng.Float64()) / w
	}
	slices.SortStableFunc(pool, func(a, b *Player) int { return cmp.Compare(keys[b], keys[a]) })
	return others
}

// ownActive is the active version a staged seed's trial is against, when it may play now
// (players are those that may).
func (s *State) ownActive(seed *Player, players []*Player) *Player {
	i := slices.IndexFunc(players, func(p *Player) bool { return p.Active && p.Login == seed.Login })
	if i < 0 {
		return nil
	}
	return players[i]
}

// Expire forgets pending matches older than age (the queue's de-duplication window: one
// older could not be queued again harmlessly) and returns their ids.
func (s *State) Expire(now time.Time, age time.Duration) []string {
	var gone []string
	for id, m := range s.Pending {
		if now.Sub(m.Created) > age {
			gone = append(gone, id)
			delete(s.Pending, id)
		}
	}
	slices.Sort(gone)
	return gone
}

// counts reports whether a fault is the bot's own doing for the ladder: every fault but a
// compile error, which on the ladder (the version compiled before) means the toolchain
// changed under it.
func counts(f *game.Fault) bool { return f != nil && f.Kind != game.CompileError }

// Apply rates a pending match by its result and returns the players it moved; a match not
// pending (rated already, by this portal or another) changes nothing. A result the judge
// could not give (its status is not ok) is not rated and counts against nobody.
func (s *State) Apply(id string, res result.Result, set Settings, now time.Time) []*Player {
	m, ok := s.Pending[id]
	if !ok {
		return nil
	}
	delete(s.Pending, id)
	if res.Status != result.StatusOK || len(res.Players) != len(m.Seats) {
		s.Skipped++
		if m.Trial != "" {
			s.applyTrial(m, res, set, now) // drops its pair
		}
		return nil
	}
	// The versions' seats alone are rated, by their places among every player's: a house
	// bot that takes a seat has no rating.
	var ps []*Player
	var places []result.Player
	for i, sub := range m.Seats {
		if _, house := IsHouseSeat(sub); house {
			continue
		}
		p := s.Players[sub]
		if p == nil {
			s.Skipped++
			return nil
		}
		ps, places = append(ps, p), append(places, res.Players[i])
	}
	trial := m.Trial != "" || slices.ContainsFunc(ps, func(p *Player) bool { return p.Staged })
	for _, p := range ps {
		// The guarantee owes at most MinRate: more ends than that never tell more, and the
		// ladder is one key, rewritten with every match.
		p.Hour = append(slices.DeleteFunc(p.Hour, func(t time.Time) bool { return now.Sub(t) > time.Hour }), now)
		p.Hour = p.Hour[max(0, len(p.Hour)-set.MinRate):]
	}
	s.Done = append(s.Done, now)
	s.Done = s.Done[max(0, len(s.Done)-doneKept):]
	in := make([]openskill.Rating, len(ps))
	ranks := make([]int, len(ps))
	for i, p := range ps {
		in[i], ranks[i] = openskill.Rating{Mu: p.Mu, Sigma: p.Sigma}, places[i].Rank
	}
	var moved []*Player
	for i, r := range openskill.Default().Rate(in, ranks) {
		p := ps[i]
		if trial && !p.Staged {
			p.Unrated++ // a trial rates only the version on trial
			continue
		}
		moved = append(moved, p)
		p.Mu, p.Sigma = r.Mu, r.Sigma
		p.Matches++
		p.Last = now
		o := Outcome{Match: id}
		if f := places[i].Fault; counts(f) {
			o.Fault = f
		}
		p.Recent = append(p.Recent, o)
		p.Recent = p.Recent[max(0, len(p.Recent)-set.DisableWindow):]
		p.disable(set, now)
		for j, q := range ps {
			if j == i || (q.Login == p.Login && !trial) { // a trial's record against its own active version counts
				continue
			}
			if p.Versus == nil {
				p.Versus = map[string]*Record{}
			}
			rec := p.Versus[q.Login]
			if rec == nil {
				rec = &Record{}
				p.Versus[q.Login] = rec
			}
			k := 1 // drawn
			switch a, b := places[i].Rank, places[j].Rank; {
			case a < b:
				rec.Won++
				k = 0
			case a > b:
				rec.Lost++
				k = 2
			default:
				rec.Drawn++
			}
			if !trial {
				if p.Met == nil {
					p.Met = map[string]*[3]int{}
				}
				if p.Met[q.Sub] == nil {
					p.Met[q.Sub] = &[3]int{}
				}
				p.Met[q.Sub][k]++
			}
		}
	}
	if trial {
		s.Trials++
		s.applyTrial(m, res, set, now)
	} else {
		s.Rated++
		s.Seats = max(s.Seats, len(ps))
		if m.Boss > 0 {
			s.applyBoss(m, ps, ranks, res.Players[m.Boss-1].Rank, set, now)
		}
	}
	return moved
}

// disable takes p off the ladder when DisableFaults of its recent matches had faults of
// its own.
func (p *Player) disable(set Settings, now time.Time) {
	if p.Disabled != nil {
		return
	}
	var ids, what []string
	for _, o := range p.Recent {
		if o.Fault != nil {
			ids = append(ids, o.Match)
			what = append(what, fmt.Sprintf("%s at turn %d in %s", o.Fault.Kind, o.Fault.Turn, o.Match))
		}
	}
	if len(ids) < set.DisableFaults {
		return
	}
	p.Disabled = &Disabled{Matches: ids, At: now, Reason: fmt.Sprintf(
		"its own faults in %d of its last %d ladder matches (%s); upload a new version to play again",
		len(ids), len(p.Recent), strings.Join(what, "; "))}
}

// Row is a line of the leaderboard.
type Row struct {
	Rank     int     `json:"rank"`
	Login    string  `json:"login"`
	Version  int     `json:"version"`
	Sub      string  `json:"-"`
	Lang     string  `json:"lang"`
	Mu       float64 `json:"mu"`
	Sigma    float64 `json:"sigma"`
	Rating   float64 `json:"rating"`
	Matches  int     `json:"matches"`
	Disabled bool    `json:"disabled"`
	// Faults counts its recent matches with a fault of its own.
	Faults int `json:"faults"`
	// RankRange is the places [best, worst] it could truly hold, at Confidence; AboveNext how
	// sure the ladder is that it stands above the next row (nil for the last on the ladder,
	// and for those off it). Provisional while its rating is not settled (Provisional).
	RankRange   [2]int   `json:"rank_range"`
	AboveNext   *float64 `json:"above_next"`
	Provisional bool     `json:"provisional"`
	// Band numbers the runs of rows the ladder cannot tell apart, from 1: a row begins a new
	// band when the one above it is separated from it (AboveNext above Confidence).
	Band int `json:"band"`
	// League is the name of its league, in a contest that has leagues.
	League string `json:"league,omitempty"`
}

// Confidence is the ladder's: its rank ranges hold a version's true place at least this often,
// and neighbours are told apart at it.
const Confidence = 0.95

// A version is provisional until it has ProvisionalMatches rated ladder matches and the
// standard error of its fitted strength (in logits, against the field's mean) is at most
// ProvisionalSE: its 95% interval no wider than about +-170 Elo. The matches are a floor for
// a game of copies that draw every match, whose spread the fit measures as none.
const (
	ProvisionalMatches = 10
	ProvisionalSE      = 0.5
)

// Leaderboard is the contestants' active versions by conservative rating (mu - 3 sigma), best
// first (ties: more matches, then login), except that a version the ladder is sure stands
// above another (at Confidence) is never listed below it; those off the ladder come after
// those on it, their ranges their own place: a version that no longer plays no longer
// competes for one.
//
// How sure it is comes from the versions' results against each other (Met), not from the
// ratings: OpenSkill's sigma is what one match more would move a rating, and on a ladder it
// shrinks far faster than the ratings' error does (copies of one bot end up "separated" in
// half their pairs). rating.SeparatePairs fits the results and reads the ranges and the
// confidences as a round's standings read theirs.
//
// With leagues, the top league comes first, then each below it: every version of a league
// ranks above every one of the leagues below, and each league's order and doubt are its own
// versions' (Row.League names it).
func (s *State) Leaderboard(leagues []League) []Row {
	key := s.boardKey(leagues)
	boards.Lock()
	rows, ok := boards.m[key]
	boards.Unlock()
	if ok {
		return slices.Clone(rows)
	}
	rows = s.leaderboard(leagues)
	boards.Lock()
	defer boards.Unlock()
	if boards.m == nil || len(boards.m) >= boardsKept {
		boards.m = map[[32]byte][]Row{}
	}
	boards.m[key] = rows
	return slices.Clone(rows)
}

// boards are the leaderboards made lately, by what they were made of (boardKey): a page of a
// ladder that has not changed since it was last shown is not fitted again (a fit of 500
// versions takes a fifth of a second: BENCHMARKS.md).
var boards struct {
	sync.Mutex
	m map[[32]byte][]Row
}

const boardsKept = 64

// boardKey is a digest of what the leaderboard reads: a version's rating, results and faults
// change only with a match rated (Rated), and which versions it lists with Sync (the active
// ones, and whether each is disabled), and the leagues and who is in which.
func (s *State) boardKey(leagues []League) [32]byte {
	h := sha256.New()
	b := binary.AppendUvarint(nil, uint64(s.Rated))
	b = binary.AppendUvarint(b, uint64(s.Seats))
	for _, l := range leagues {
		b = append(append(b, l.Name...), 0)
	}
	b = append(b, 1)
	for _, login := range slices.Sorted(maps.Keys(s.League)) {
		b = append(append(b, login...), 0)
		b = binary.AppendUvarint(b, uint64(s.League[login]))
	}
	for _, sub := range slices.Sorted(maps.Keys(s.Players)) {
		if p := s.Players[sub]; p.Active {
			b = append(append(b, sub...), 0)
			b = binary.AppendUvarint(b, uint64(p.Matches))
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p.Mu))
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p.Sigma))
			if p.Disabled != nil {
				b = append(b, 1)
			}
		}
	}
	h.Write(b)
	var k [32]byte
	h.Sum(k[:0])
	return k
}

func (s *State) leaderboard(leagues []League) []Row {
	set := Settings{Leagues: leagues}
	byLeague := make([][]*Player, max(1, len(leagues)))
	for _, p := range s.Players {
		if p.Active {
			lg := s.LeagueOf(p.Login, set)
			byLeague[lg] = append(byLeague[lg], p)
		}
	}
	var rows []Row
	for lg := len(byLeague) - 1; lg >= 0; lg-- {
		above, band := len(rows), 0
		if above > 0 {
			band = rows[above-1].Band
		}
		for _, r := range s.board(byLeague[lg]) {
			r.Rank += above
			r.RankRange[0] += above
			r.RankRange[1] += above
			r.Band += band
			if len(leagues) > 0 {
				r.League = leagues[lg].Name
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// board is the leaderboard of players alone, ranked from 1.
func (s *State) board(players []*Player) []Row {
	var on, off []Row
	for _, p := range players {
		r := Row{Login: p.Login, Version: p.Version.Version, Sub: p.Sub, Lang: p.Lang, Mu: p.Mu, Sigma: p.Sigma,
			Rating: p.Rating(), Matches: p.Matches, Disabled: p.Disabled != nil}
		for _, o := range p.Recent {
			if o.Fault != nil {
				r.Faults++
			}
		}
		if r.Disabled {
			off = append(off, r)
		} else {
			on = append(on, r)
		}
	}
	byRating := func(a, b Row) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), cmp.Compare(b.Matches, a.Matches), strings.Compare(a.Login, b.Login))
	}
	slices.SortFunc(on, byRating)
	slices.SortFunc(off, byRating)
	var recs []rating.PairRecord
	for i, a := range on {
		met := s.Players[a.Sub].Met
		for j := i + 1; j < len(on); j++ {
			if r := met[on[j].Sub]; r != nil {
				recs = append(recs, rating.PairRecord{I: i, J: j, Won: r[0], Drawn: r[1], Lost: r[2]})
			}
		}
	}
	fit := rating.SeparatePairs(len(on), s.Seats, recs)
	for i := range on {
		on[i].Provisional = on[i].Matches < ProvisionalMatches || !(fit.SE[i] <= ProvisionalSE)
	}
	sep := fit.Separation
	ranges, known := sep.RankRanges(Confidence), sep.Known(Confidence)
	// The first row (by rating) that no row left is known to stand above goes next.
	above := make([]int, len(on)) // rows left known to stand above each
	for i := range on {
		for j := range on {
			if known[j][i] {
				above[i]++
			}
		}
	}
	order := make([]int, 0, len(on))
	for len(order) < len(on) {
		// There is one: what is known follows the order of mu, so it has no cycle.
		i := slices.Index(above, 0)
		order, above[i] = append(order, i), -1
		for j := range on {
			if known[i][j] {
				above[j]--
			}
		}
	}
	rows := make([]Row, 0, len(on)+len(off))
	for k, i := range order {
		r := on[i]
		r.RankRange = ranges[i]
		if k+1 < len(order) {
			c := sep.Confidence(i, order[k+1])
			r.AboveNext = &c
		}
		rows = append(rows, r)
	}
	rows = append(rows, off...)
	for i := range rows {
		rows[i].Rank, rows[i].Band = i+1, 1
		if i > 0 {
			rows[i].Band = rows[i-1].Band
			if above := rows[i-1].AboveNext; rows[i].Disabled || above == nil || *above > Confidence {
				rows[i].Band++
			}
		}
		if rows[i].Disabled {
			rows[i].RankRange = [2]int{i + 1, i + 1}
		}
	}
	return rows
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}
