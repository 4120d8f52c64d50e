package similar

import (
	"cmp"
	"hash/fnv"
	"slices"
	"strconv"

	"github.com/botjudge/judge/judge/replay"
)

// Plays tells how versions play, from replays: the answer each gave in each position it met,
// a position being a request's text at a turn (of a seat of a game: two bots that are told the
// same at the same turn are in the same position to a bot that answers from what it is told,
// whatever the seed). Copies rewritten to fool the source check still answer alike; versions
// of unrelated bots agree about as often as any two (Baseline).
type Plays struct {
	versions []Version // Owner and Name only
	index    map[[2]string]int
	// positions: each position's answers, one per version (its first).
	positions map[uint64][]answer
	// where: the match a version's answer at a position was seen in (its first), for the
	// matches to show.
	where map[[2]uint64]string
	// MaxPerMatch bounds the exchanges of a seat taken from one match (0: 40): positions
	// recur mostly in a match's early turns, and memory stays bounded.
	MaxPerMatch int
	taken       map[string]int
}

type answer struct {
	version int
	hash    uint64
}

// NewPlays is an empty record of plays.
func NewPlays() *Plays {
	return &Plays{index: map[[2]string]int{}, positions: map[uint64][]answer{}, where: map[[2]uint64]string{}, taken: map[string]int{}}
}

func hashOf(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// Add records that the version name of owner, seated at seat in match (of game), was sent
// request at turn and answered lines.
func (p *Plays) Add(owner, name, game, match string, seat, turn int, request string, lines []string) {
	key := [2]string{owner, name}
	v, ok := p.index[key]
	if !ok {
		v = len(p.versions)
		p.index[key] = v
		p.versions = append(p.versions, Version{Owner: owner, Name: name})
	}
	mk := match + "\x00" + strconv.Itoa(seat)
	if p.taken[mk] >= cmp.Or(p.MaxPerMatch, 40) {
		return
	}
	p.taken[mk]++
	pos := hashOf(game, strconv.Itoa(seat), strconv.Itoa(turn), request)
	for _, a := range p.positions[pos] {
		if a.version == v {
			return // its first answer there
		}
	}
	p.positions[pos] = append(p.positions[pos], answer{v, hashOf(lines...)})
	p.where[[2]uint64{pos, uint64(v)}] = match
}

// AddReplay records the answers of a replay's match (named match) by the seats owner names
// (their owner and version; false leaves a seat out, as a house bot's): the moves answered,
// not the notices, nor answers the judge faulted.
func (p *Plays) AddReplay(rp *replay.Replay, match string, owner func(seat int) (who, version string, ok bool)) {
	for _, x := range rp.Exchanges {
		if x.Expect == 0 && x.Ready == "" || x.Fault != nil {
			continue
		}
		if who, version, ok := owner(x.Player); ok {
			p.Add(who, version, rp.Header.Game, match, x.Player, x.Turn, x.Sent, x.Received)
		}
	}
}

// Agreement is two owners' plays compared: over the positions both met, how often they
// answered the same.
type Agreement struct {
	A, B           string
	Same, Compared int
	// Matches are some of the matches where A answered as B did (A's side).
	Matches []string
}

// Rate is Same over Compared.
func (a Agreement) Rate() float64 {
	if a.Compared == 0 {
		return 0
	}
	return float64(a.Same) / float64(a.Compared)
}

// maxShared bounds the versions compared at one position: a position every version meets (a
// match's first request) would otherwise cost the square of their number.
const maxShared = 200

// Compare is every two owners' agreement (owners in order, A < B), and the baseline: the
// share of answers alike over all pairs compared.
func (p *Plays) Compare() (pairs []Agreement, baseline float64) {
	type acc struct {
		same, n int
		matches []string
	}
	by := map[[2]string]*acc{}
	var same, total int
	for pos, as := range p.positions {
		if len(as) > maxShared {
			as = as[:maxShared]
		}
		for x := range as {
			for y := x + 1; y < len(as); y++ {
				va, vb := p.versions[as[x].version], p.versions[as[y].version]
				if va.Owner == vb.Owner {
					continue
				}
				ax, ay := as[x], as[y]
				if va.Owner > vb.Owner {
					va, vb, ax, ay = vb, va, ay, ax
				}
				k := [2]string{va.Owner, vb.Owner}
				a := by[k]
				if a == nil {
					a = &acc{}
					by[k] = a
				}
				a.n++
				total++
				if ax.hash == ay.hash {
					a.same++
					same++
					if m := p.where[[2]uint64{pos, uint64(ax.version)}]; len(a.matches) < 10 && !slices.Contains(a.matches, m) {
						a.matches = append(a.matches, m)
					}
				}
			}
		}
	}
	for k, a := range by {
		slices.Sort(a.matches)
		pairs = append(pairs, Agreement{A: k[0], B: k[1], Same: a.same, Compared: a.n, Matches: a.matches})
	}
	slices.SortFunc(pairs, func(x, y Agreement) int { return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B)) })
	if total > 0 {
		baseline = float64(same) / float64(total)
	}
	return pairs, baseline
}

// MinCompared is the fewest positions two owners must both have met for their agreement to
// be reported.
const MinCompared = 10
