package view

import (
	"io"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/replay"
)

// Pair is two films of one match (one game, seed and options) set side by side: the
// viewer's compare mode draws both boards at the same turn, the first exchange where they
// part marked (replay.Compare, as judge replay diff finds it).
type Pair struct {
	Version    int               `json:"version"`
	A          *Film             `json:"a"`
	B          *Film             `json:"b"`
	Comparison replay.Comparison `json:"comparison"`
	// Names are how the page calls each side (a file's name, a match's id).
	Names [2]string `json:"names"`
}

// MakePair makes the pair of replays a and b, called names; replays of different matches are
// replay.ErrIncomparable, each difference named.
func MakePair(a, b *replay.Replay, names [2]string, lookup func(string) (game.Game, bool)) (*Pair, error) {
	return PairOf(Make(a, lookup), Make(b, lookup), names)
}

// PairOf sets two films side by side (films made already, by a Films say).
func PairOf(a, b *Film, names [2]string) (*Pair, error) {
	c, err := replay.Compare(a.replay(), b.replay())
	if err != nil {
		return nil, err
	}
	return &Pair{Version: FilmVersion, A: a, B: b, Comparison: c, Names: names}, nil
}

// WritePairHTML writes one self-contained page that plays both films of p side by side, as
// WriteHTMLWith writes one.
func WritePairHTML(w io.Writer, p *Pair, o PageOptions) error {
	c := *p
	c.A, c.B = unframed(p.A), unframed(p.B)
	return writeInline(w, pageData{PageOptions: o, Title: pairTitle(&c), Pair: &c})
}

func pairTitle(p *Pair) string {
	return "compare " + p.Names[0] + " and " + p.Names[1] + " - judge view"
}
