package portal

import (
	"fmt"
	"testing"

	"github.com/botjudge/judge/judge/contest/ladder"
)

// A version's head-to-head table is its own record, never its other versions' added in (the
// page once said 80 draws against a contestant whose active version had played 60 matches),
// and names the opponent's versions it met.
func TestHeadToHeadIsOneVersions(t *testing.T) {
	v := func(sub, login string, n int, active bool) *ladder.Player {
		return &ladder.Player{Version: ladder.Version{Sub: sub, Login: login, Version: n}, Active: active}
	}
	ann1, ann2 := v("a1", "ann", 1, false), v("a2", "ann", 2, true)
	bob1, bob2, cat := v("b1", "bob", 1, false), v("b2", "bob", 2, true), v("c1", "cat", 1, true)
	ann1.Versus = map[string]*ladder.Record{"bob": {Drawn: 80}}
	ann2.Versus = map[string]*ladder.Record{"bob": {Won: 1, Drawn: 2, Lost: 3}, "cat": {Won: 4}}
	ann2.Met = map[string]*[3]int{"b1": {1, 0, 0}, "b2": {0, 2, 3}, "c1": {4, 0, 0}}
	st := ladder.State{Players: map[string]*ladder.Player{"a1": ann1, "a2": ann2, "b1": bob1, "b2": bob2, "c1": cat}}
	got := fmt.Sprint(versusRows(ann2, st))
	if want := "[{bob {1 2 3} [1 2]} {cat {4 0 0} [1]}]"; got != want {
		t.Errorf("ann v2's head to head: %s; want %s", got, want)
	}
	if rows := versusRows(nil, st); rows != nil {
		t.Errorf("no version: %v", rows)
	}
}
