package contest

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/game"
)

// Stats are the actor's statistics of its own matches in a contest (api.Stats): every match of
// its that has a result, test, validation, ladder and round alike.
func (e *Engine) Stats(ctx context.Context, a Actor, contest string) (api.Stats, error) {
	if _, err := e.Contest(ctx, a, contest); err != nil {
		return api.Stats{}, err
	}
	subs, err := e.c.Store.Submissions(ctx, contest, a.Login)
	if err != nil {
		return api.Stats{}, err
	}
	version := map[string]int{}
	for _, s := range subs {
		version[s.ID] = s.Version
	}
	ms, err := e.c.Store.Matches(ctx, contest, a.Login)
	if err != nil {
		return api.Stats{}, err
	}
	ct, err := e.c.Store.Contest(ctx, contest)
	if err != nil {
		return api.Stats{}, err
	}
	var roles []string
	if g, ok := e.c.Games(ct.Game); ok {
		roles = game.RolesOf(g)
	}
	return statsOf(a.Login, version, roles, ms), nil
}

// maxCalls is how many closest calls the statistics list.
const maxCalls = 10

// playedWith is a match's record of the contest's options opts: a copy, empty (not nil) when
// there are none, so that a record says it played with the game's defaults.
func playedWith(opts map[string]string) map[string]string {
	if opts == nil {
		return map[string]string{}
	}
	return maps.Clone(opts)
}

// optionWords are a match's options as the statistics name them ("k=v" by key, those with a
// value), or what an older record, which kept none, played with.
func optionWords(o map[string]string) string {
	var words []string
	for _, k := range slices.Sorted(maps.Keys(o)) {
		if o[k] != "" {
			words = append(words, k+"="+o[k])
		}
	}
	if o == nil {
		return "not recorded (the contest's options then)"
	}
	if len(words) == 0 {
		return "the game's defaults"
	}
	return strings.Join(words, " ")
}

// statsOf is login's statistics of matches, its versions' numbers by submission id, roles the
// game's seats' parts (none when they play alike).
func statsOf(login string, version map[string]int, roles []string, ms []store.Match) api.Stats {
	type acc struct {
		api.StatsRow
		score float64
		order int // for sorting: a version's number, a length's span
	}
	groups := map[string]map[string]*acc{}
	add := func(group, key string, order int, won, drawn, lost int, score float64) {
		g := groups[group]
		if g == nil {
			g = map[string]*acc{}
			groups[group] = g
		}
		r := g[key]
		if r == nil {
			r = &acc{StatsRow: api.StatsRow{Key: key}, order: order}
			g[key] = r
		}
		r.Matches++
		r.Won, r.Drawn, r.Lost, r.score = r.Won+won, r.Drawn+drawn, r.Lost+lost, r.score+score
	}
	faults := map[int]map[string]int{}
	out := api.Stats{Login: login}
	for _, m := range ms {
		res := m.Result
		if res == nil || res.Status != "ok" || len(res.Players) != len(m.Seats) {
			continue
		}
		for i, seat := range m.Seats {
			if seat.House != "" || seat.Login != login {
				continue
			}
			me := res.Players[i]
			v := version[seat.Submission]
			if me.Fault != nil && me.Fault.Kind != "" {
				if faults[v] == nil {
					faults[v] = map[string]int{}
				}
				faults[v][string(me.Fault.Kind)]++
			}
			won, drawn, lost := 0, 0, 0
			for j, other := range res.Players {
				if j == i {
					continue
				}
				w, d, l := 0, 0, 0
				switch {
				case me.Rank < other.Rank:
					w = 1
				case me.Rank > other.Rank:
					l = 1
				default:
					d = 1
				}
				won, drawn, lost = won+w, drawn+d, lost+l
				name := m.Seats[j].Name()
				if m.Seats[j].Login == login {
					name = "yourself"
				}
				add("opponent", name, 0, w, d, l, me.Score)
			}
			out.Matches++
			seatName := fmt.Sprintf("seat %d", i)
			if i < len(roles) {
				seatName += " (" + roles[i] + ")"
			}
			add("seat", seatName, i, won, drawn, lost, me.Score)
			add("options", optionWords(m.Options), 0, won, drawn, lost, me.Score)
			if c := me.Closest; c != nil && c.LimitUS > 0 {
				out.ClosestCalls = append(out.ClosestCalls, api.StatsCall{Match: m.ID, Kind: m.Kind, Version: v, Turn: c.Turn,
					CPUus: c.CPUus, LimitUS: c.LimitUS, Share: c.Share()})
			}
			add("version", fmt.Sprintf("v%d", v), v, won, drawn, lost, me.Score)
			span := lengthSpan(me.Moves)
			add("length", span.name, span.order, won, drawn, lost, me.Score)
			break // a match where it sat twice counts once
		}
	}
	rows := func(group string, byOrder bool) []api.StatsRow {
		var rs []*acc
		for _, r := range groups[group] {
			rs = append(rs, r)
		}
		slices.SortFunc(rs, func(a, b *acc) int {
			if byOrder {
				return cmp.Compare(a.order, b.order)
			}
			return cmp.Or(cmp.Compare(b.Matches, a.Matches), strings.Compare(a.Key, b.Key))
		})
		out := []api.StatsRow{}
		for _, r := range rs {
			row := r.StatsRow
			row.Score = r.score / float64(row.Matches)
			if n := row.Won + row.Drawn + row.Lost; n > 0 {
				row.WinRate = (float64(row.Won) + float64(row.Drawn)/2) / float64(n)
			}
			out = append(out, row)
		}
		return out
	}
	out.ByOpponent, out.BySeat, out.ByLength, out.ByVersion = rows("opponent", false), rows("seat", true), rows("length", true), rows("version", true)
	out.ByOptions = rows("options", false)
	slices.SortStableFunc(out.ClosestCalls, func(a, b api.StatsCall) int { return cmp.Compare(b.Share, a.Share) })
	if out.ClosestCalls == nil {
		out.ClosestCalls = []api.StatsCall{}
	}
	out.ClosestCalls = out.ClosestCalls[:min(len(out.ClosestCalls), maxCalls)]
	for i := 1; i < len(out.ByVersion); i++ {
		d := out.ByVersion[i].WinRate - out.ByVersion[i-1].WinRate
		out.ByVersion[i].Change = &d
	}
	out.Faults = []api.StatsFaults{}
	for _, v := range slices.Sorted(maps.Keys(faults)) {
		out.Faults = append(out.Faults, api.StatsFaults{Version: v, Kinds: faults[v]})
	}
	return out
}

// lengthSpan is the span of moves a match's length falls in, for the statistics by length:
// spans doubling from 10 moves.
func lengthSpan(moves int) struct {
	name  string
	order int
} {
	lo := 0
	for hi := 10; ; hi *= 2 {
		if moves < hi {
			return struct {
				name  string
				order int
			}{fmt.Sprintf("%d-%d moves", lo, hi-1), hi}
		}
		lo = hi
	}
}
