package portal

import (
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/contest/store"
)

// The plot spans the history: the first point at the left edge, the last at the right, the
// highest value at the top; a new version is marked where it starts.
func TestPlot(t *testing.T) {
	t.Parallel()
	if p := newPlot(nil); p.Points != 0 || p.Mu != "" {
		t.Errorf("an empty history: %+v", p)
	}
	h := []store.Point{{Version: 1, Mu: 25, Rating: 0}, {Version: 1, Mu: 30, Rating: 10}, {Version: 2, Mu: 40, Rating: 20}}
	p := newPlot(h)
	mu := strings.Fields(p.Mu)
	if len(mu) != 3 || mu[0] != "48.0,93.0" || mu[2] != "628.0,12.0" {
		t.Errorf("mu %v", mu)
	}
	if r := strings.Fields(p.Rating); r[0] != "48.0,228.0" {
		t.Errorf("rating %v: the lowest value is at the bottom (y 228)", r)
	}
	if len(p.Versions) != 2 || p.Versions[1].Label != "v2" || p.Versions[1].At != 628 {
		t.Errorf("versions %+v", p.Versions)
	}
	if p.Ticks[0].Label != "0" || p.Ticks[len(p.Ticks)-1].Label != "40" {
		t.Errorf("ticks %+v", p.Ticks)
	}
}
