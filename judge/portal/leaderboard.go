package portal

import (
	"cmp"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
)

// ladderPages serves the leaderboard and a contestant's ladder page.
type ladderPages struct{ *Server }

// The ladder's pages: the leaderboard, and each contestant's rating history and head to
// head. Ratings are public within the contest; stderr, sources and logs stay private.

// contestLadder serves the caller's contest and its ladder.
func (s *Server) contestLadder(r *http.Request, c caller) (store.Contest, ladder.State, error) {
	ct, err := s.engine.Contest(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return ct, ladder.State{}, err
	}
	st, err := s.c.Store.Ladder(r.Context(), ct.Name)
	return ct, st, err
}

func (s ladderPages) leaderboardPage(w http.ResponseWriter, r *http.Request, c caller) error {
	b, err := s.engine.Board(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	s.render(w, http.StatusOK, "leaderboard.html", struct {
		pageData
		C       store.Contest
		B       contest.Board
		Rows    []ladder.Row
		Leagues []boardLeague
		Pending int
		Rated   int
		Pace    float64
		// ProvisionalMatches is the ladder's rule, said on the page.
		ProvisionalMatches int
	}{s.base(r, c, "Leaderboard", ""), b.Contest, b, b.Rows, boardLeagues(b), len(b.State.Pending), b.State.Rated, b.State.Pace(time.Now()), ladder.ProvisionalMatches})
	return nil
}

// boardLeague is a league's part of the leaderboard page: one without a name when the
// contest has no leagues.
type boardLeague struct {
	ladder.League
	Top, Bottom bool
	Rows        []ladder.Row
}

// boardLeagues are the leaderboard's rows by league, the top league first.
func boardLeagues(b contest.Board) []boardLeague {
	ls := b.Contest.LadderSettings.Leagues
	if len(ls) == 0 {
		return []boardLeague{{Top: true, Bottom: true, Rows: b.Rows}}
	}
	var out []boardLeague
	for i := len(ls) - 1; i >= 0; i-- {
		g := boardLeague{League: ls[i], Top: i == len(ls)-1, Bottom: i == 0}
		for _, r := range b.Rows {
			if r.League == ls[i].Name {
				g.Rows = append(g.Rows, r)
			}
		}
		out = append(out, g)
	}
	return out
}

// statsPage is the caller's statistics of its own matches, as the API gives them, with a bar
// for each row's win rate.
func (s ladderPages) statsPage(w http.ResponseWriter, r *http.Request, c caller) error {
	st, err := s.engine.Stats(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	s.render(w, http.StatusOK, "stats.html", struct {
		pageData
		S api.Stats
	}{s.base(r, c, "Your statistics", ""), st})
	return nil
}

// versusRow is a line of a version's head-to-head table: its record against one opponent (as
// the API's ladder.versus has it), and the opponent's versions it met in rated matches.
type versusRow struct {
	Login string
	ladder.Record
	Versions []int
}

// versusRows are p's head-to-head table: p's own record only, never its other versions'
// added in, so that the page says what the API says of p.
func versusRows(p *ladder.Player, st ladder.State) []versusRow {
	if p == nil {
		return nil
	}
	var rows []versusRow
	for o, rec := range p.Versus {
		row := versusRow{Login: o, Record: *rec}
		for sub := range p.Met {
			if q := st.Players[sub]; q != nil && q.Login == o {
				row.Versions = append(row.Versions, q.Version.Version)
			}
		}
		slices.Sort(row.Versions)
		rows = append(rows, row)
	}
	slices.SortFunc(rows, func(a, b versusRow) int { return strings.Compare(a.Login, b.Login) })
	return rows
}

func (s ladderPages) ladderPlayerPage(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, st, err := s.contestLadder(r, c)
	if err != nil {
		return err
	}
	login := r.PathValue("login")
	var p *ladder.Player
	for _, q := range st.Players {
		if q.Login == login && (q.Active || p == nil || (!p.Active && q.Version.Version > p.Version.Version)) {
			p = q // the active version, else the latest
		}
	}
	hist, err := s.c.Store.History(r.Context(), ct.Name, login)
	if err != nil {
		return err
	}
	if p == nil && len(hist) == 0 {
		return errNotFound
	}
	rows := versusRows(p, st)
	s.render(w, http.StatusOK, "ladder-player.html", struct {
		pageData
		Login  string
		P      *ladder.Player
		Plot   plot
		Versus []versusRow
	}{s.base(r, c, login+" on the ladder", ""), login, p, newPlot(hist), rows})
	return nil
}

// plot is a rating history drawn as SVG by the page's template: mu, and the conservative
// rating below it, against the match count.
type plot struct {
	W, H     int
	Mu       string // the polyline's points
	Rating   string
	Ticks    []tick // the y axis
	Versions []tick // where a new version started (x)
	Points   int
}

type tick struct {
	At    float64
	Label string
}

const (
	plotW, plotH = 640, 240
	plotLeft     = 48 // room for the y labels
	plotPad      = 12
)

// newPlot lays out a history; an empty one has no points.
func newPlot(h []store.Point) plot {
	pl := plot{W: plotW, H: plotH, Points: len(h)}
	if len(h) == 0 {
		return pl
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range h {
		lo, hi = min(lo, p.Rating, p.Mu), max(hi, p.Rating, p.Mu)
	}
	lo, hi = math.Floor(lo/5)*5, math.Ceil(hi/5)*5
	if hi-lo < 5 {
		hi = lo + 5
	}
	x := func(i int) float64 {
		if len(h) == 1 {
			return plotLeft
		}
		return plotLeft + float64(i)*float64(plotW-plotLeft-plotPad)/float64(len(h)-1)
	}
	y := func(v float64) float64 { return plotPad + (hi-v)*float64(plotH-2*plotPad)/(hi-lo) }
	var mu, rating []string
	for i, p := range h {
		mu = append(mu, fmt.Sprintf("%.1f,%.1f", x(i), y(p.Mu)))
		rating = append(rating, fmt.Sprintf("%.1f,%.1f", x(i), y(p.Rating)))
		if i == 0 || p.Version != h[i-1].Version {
			pl.Versions = append(pl.Versions, tick{x(i), fmt.Sprintf("v%d", p.Version)})
		}
	}
	pl.Mu, pl.Rating = strings.Join(mu, " "), strings.Join(rating, " ")
	step := cmp.Or(math.Ceil((hi-lo)/5/5)*5, 5)
	for v := lo; v <= hi; v += step {
		pl.Ticks = append(pl.Ticks, tick{y(v), fmt.Sprintf("%.0f", v)})
	}
	return pl
}
