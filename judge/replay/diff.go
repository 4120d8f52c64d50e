package replay

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Comparison is two replays of one match (one game, seed and options) set side by side: the
// first exchange where they part, if any, and how each ended.
type Comparison struct {
	Same  bool        `json:"same"`
	First *Divergence `json:"first"`
	// Scores are each player's final score in A and in B.
	Scores [2][]float64 `json:"scores"`
}

// Divergence is the first exchange where two replays differ: its index (from 0), the turn and
// player of A's exchange there (B's when A has none), and each side's answer there (its lines
// joined by newlines; nil for a side that has no exchange there, its match over). Why names
// what differs: the answers, what was asked, a fault, or a match that ended.
type Divergence struct {
	Exchange int     `json:"exchange"`
	Turn     int     `json:"turn"`
	Player   int     `json:"player"`
	A        *string `json:"a"`
	B        *string `json:"b"`
	Why      string  `json:"why"`
}

// ErrIncomparable is two replays that are not of one match: their game, seed, options or
// players' count differ (the error names each).
var ErrIncomparable = errors.New("the replays are not of one match")

// Compare sets replays a and b of one match side by side; a pair of different games, seeds,
// options, game versions or player counts is ErrIncomparable, naming each difference.
func Compare(a, b *Replay) (Comparison, error) {
	var why []string
	ha, hb := a.Header, b.Header
	if ha.Game != hb.Game {
		why = append(why, fmt.Sprintf("games %s and %s", ha.Game, hb.Game))
	} else if ha.GameVersion != hb.GameVersion {
		why = append(why, fmt.Sprintf("%s judged by version %s and by version %s", ha.Game, short(ha.GameVersion), short(hb.GameVersion)))
	}
	if ha.Seed != hb.Seed {
		why = append(why, fmt.Sprintf("seeds %d and %d", ha.Seed, hb.Seed))
	}
	if !maps.Equal(ha.Options, hb.Options) {
		why = append(why, fmt.Sprintf("options %s and %s", optionWords(ha.Options), optionWords(hb.Options)))
	}
	if len(ha.Players) != len(hb.Players) {
		why = append(why, fmt.Sprintf("%d players and %d", len(ha.Players), len(hb.Players)))
	}
	if len(why) > 0 {
		return Comparison{}, fmt.Errorf("%w: %s", ErrIncomparable, strings.Join(why, "; "))
	}
	c := Comparison{Same: true}
	for side, rp := range []*Replay{a, b} {
		c.Scores[side] = []float64{}
		for _, p := range rp.Result.Players {
			c.Scores[side] = append(c.Scores[side], p.Score)
		}
	}
	for i := range max(len(a.Exchanges), len(b.Exchanges)) {
		var xa, xb *Exchange
		if i < len(a.Exchanges) {
			xa = &a.Exchanges[i]
		}
		if i < len(b.Exchanges) {
			xb = &b.Exchanges[i]
		}
		if why := differs(xa, xb); why != "" {
			d := &Divergence{Exchange: i, A: answer(xa), B: answer(xb), Why: why}
			if x := cmpOr(xa, xb); x != nil {
				d.Turn, d.Player = x.Turn, x.Player
			}
			c.Same, c.First = false, d
			return c, nil
		}
	}
	if !slices.Equal(c.Scores[0], c.Scores[1]) {
		// Every exchange alike but the results not: a game whose result reads more than the
		// answers (the CPU time its budgets count).
		c.Same, c.First = false, &Divergence{Exchange: len(a.Exchanges), Why: "every exchange alike, the results not"}
	}
	return c, nil
}

// differs says what differs between two exchanges at one index ("" when nothing that the
// judgement reads does).
func differs(a, b *Exchange) string {
	switch {
	case a == nil && b == nil:
		return ""
	case a == nil:
		return "A's match ended here, B's went on"
	case b == nil:
		return "B's match ended here, A's went on"
	case a.Player != b.Player || a.Turn != b.Turn:
		return fmt.Sprintf("A asked player %d at turn %d, B player %d at turn %d", a.Player, a.Turn, b.Player, b.Turn)
	case a.Sent != b.Sent:
		return "what was sent differs"
	case !slices.Equal(a.Received, b.Received):
		return "the answers differ"
	case faultWords(a.Fault) != faultWords(b.Fault):
		return fmt.Sprintf("faults differ: %s and %s", faultWords(a.Fault), faultWords(b.Fault))
	case faultWords(a.Verdict) != faultWords(b.Verdict):
		return fmt.Sprintf("verdicts differ: %s and %s", faultWords(a.Verdict), faultWords(b.Verdict))
	}
	return ""
}

func answer(x *Exchange) *string {
	if x == nil {
		return nil
	}
	s := strings.Join(x.Received, "\n")
	return &s
}

func cmpOr(a, b *Exchange) *Exchange {
	if a != nil {
		return a
	}
	return b
}

func short(v string) string {
	if v == "" {
		return "(none)"
	}
	return v[:min(12, len(v))]
}

func optionWords(o map[string]string) string {
	if len(o) == 0 {
		return "(none)"
	}
	var kv []string
	for _, k := range slices.Sorted(maps.Keys(o)) {
		kv = append(kv, k+"="+o[k])
	}
	return strings.Join(kv, " ")
}
