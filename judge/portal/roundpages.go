package portal

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/view"
)

// roundPages serves the rounds' API and pages.
type roundPages struct{ *Server }

// The rounds' API and pages: standings and matches are public in the contest (each
// player's stderr stays its own); starting a round and exporting it are the organisers'.

func (s roundPages) apiStartRound(w http.ResponseWriter, r *http.Request, c caller) error {
	var spec api.RoundSpec
	if err := decodeBody(r, &spec, `{"kind": "test"|"official", "format": "roundrobin"|"swiss", "rounds": N, "final": K, "confidence": C, "until_separated": true|false, "top": K, "budget": N}`); err != nil {
		return err
	}
	round, err := s.engine.StartRound(r.Context(), c.actor(), r.PathValue("contest"), spec)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, roundJSON(round))
	return nil
}

// roundJSON is a round as the API answers it (the engine has kept to the caller's view).
func roundJSON(r store.Round) api.Round {
	out := api.Round{ID: r.ID, Contest: r.Contest, Kind: r.Kind, Format: r.Format, Rounds: r.Rounds, Final: r.Final, Seed: r.Seed,
		Seats: r.Seats, Confidence: r.Confidence, UntilSeparated: r.UntilSeparated, Top: r.Top, Budget: r.Budget, Leagues: r.Leagues,
		Entrants: []api.RoundEntrant{}, Status: r.Status, Created: r.Created, Finished: r.Finished, Outcome: r.Outcome, Error: r.Error}
	for _, e := range r.Entrants {
		out.Entrants = append(out.Entrants, api.RoundEntrant(e))
	}
	return out
}

func (s roundPages) apiRound(w http.ResponseWriter, r *http.Request, c caller) error {
	round, err := s.engine.Round(r.Context(), c.actor(), r.PathValue("id"))
	if err != nil {
		return err
	}
	out := roundJSON(round)
	ms, err := s.roundMatches(r, round)
	if err != nil {
		return err
	}
	out.Judged = len(ms) // a round's match is recorded with its result
	out.Playing = s.engine.Playing(round.ID)
	if round.Status == store.RoundRunning {
		ct, err := s.c.Store.Contest(r.Context(), round.Contest)
		if err != nil {
			return err
		}
		if out.SoFar, err = contest.SoFar(ct, round, ms); err != nil {
			return err
		}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// roundMatches are a round's matches, in the order they are played: only the round's records
// are read, the contest's other matches being many more.
func (s roundPages) roundMatches(r *http.Request, round store.Round) ([]store.Match, error) {
	ms, err := s.c.Store.MatchesWhere(r.Context(), round.Contest, "*", store.KindRound, func(id string) bool { return contest.RoundOf(id) == round.ID })
	if err != nil {
		return nil, err
	}
	slices.SortFunc(ms, func(a, b store.Match) int { return slices.Compare(matchOrder(a.ID), matchOrder(b.ID)) })
	return ms, nil
}

// projectorPage is a round on the big screen: the viewer following its matches live, one after
// the other by itself, the standings beside.
func (s roundPages) projectorPage(w http.ResponseWriter, r *http.Request, c caller) error {
	round, err := s.engine.Round(r.Context(), c.actor(), r.PathValue("id"))
	if err != nil || round.Contest != r.PathValue("contest") {
		return cmpErr(err, errNotFound)
	}
	f := &view.Film{Version: view.FilmVersion, Header: replay.Header{Game: round.ID}, Exchanges: []replay.Exchange{}, FrameOf: []int{-1}}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	return view.WriteHTMLWith(w, f, view.PageOptions{Projector: "/api/v1/rounds/" + round.ID,
		Back: "/c/" + round.Contest + "/rounds/" + round.ID, BackText: "← back to the round", Rules: "/rules/"})
}

func (s roundPages) apiRounds(w http.ResponseWriter, r *http.Request, c caller) error {
	_, rs, err := s.engine.Rounds(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	out := api.Rounds{Rounds: []api.Round{}}
	for _, r := range rs {
		out.Rounds = append(out.Rounds, roundJSON(r))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s roundPages) roundsPage(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, rs, err := s.engine.Rounds(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	s.render(w, http.StatusOK, "rounds.html", struct {
		pageData
		C      store.Contest
		Rounds []store.Round
		Closed bool
	}{s.base(r, c, "Rounds", ""), ct, rs, !contest.Open(ct, time.Now())})
	return nil
}

func (s roundPages) startRoundPage(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, err := s.engine.Organised(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	spec := api.RoundSpec{Kind: r.PostFormValue("kind"), Format: r.PostFormValue("format"), UntilSeparated: r.PostFormValue("until_separated") != "",
		Leagues: r.PostFormValue("leagues")}
	if v := strings.TrimSpace(r.PostFormValue("confidence")); v != "" {
		c, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return api.Errorf(api.CodeBadRequest, "confidence: want a number such as 0.95, not %q", v)
		}
		spec.Confidence = c
	}
	for _, f := range []struct {
		name string
		to   *int
	}{{"rounds", &spec.Rounds}, {"final", &spec.Final}, {"top", &spec.Top}, {"budget", &spec.Budget}} {
		if v := strings.TrimSpace(r.PostFormValue(f.name)); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return api.Errorf(api.CodeBadRequest, "%s: want a whole number, not %q", f.name, v)
			}
			*f.to = n
		}
	}
	round, err := s.engine.StartRound(r.Context(), c.actor(), ct.Name, spec)
	if err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+ct.Name+"/rounds/"+round.ID, "The round has started.")
	return nil
}

func (s roundPages) roundPage(w http.ResponseWriter, r *http.Request, c caller) error {
	round, err := s.engine.Round(r.Context(), c.actor(), r.PathValue("id"))
	if err != nil || round.Contest != r.PathValue("contest") {
		return cmpErr(err, errNotFound)
	}
	ms, err := s.roundMatches(r, round)
	if err != nil {
		return err
	}
	s.render(w, http.StatusOK, "round.html", struct {
		pageData
		R       store.Round
		Matches []store.Match
		Playing []string
	}{s.base(r, c, "Round "+round.ID, ""), round, ms, s.engine.Playing(round.ID)})
	return nil
}

// exportRound is a round's frozen set as `judge tournament` runs it: the same name, seed,
// format and options, so the same match ids and seeds, and each entrant's frozen files.
func (s roundPages) exportRound(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, err := s.engine.Organised(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	id, _ := strings.CutSuffix(r.PathValue("id"), ".tar.gz")
	round, err := s.engine.Round(r.Context(), c.actor(), id)
	if err != nil {
		return err
	}
	sources := map[string]string{}
	for _, e := range round.Entrants {
		sources[contest.EntrantDir(e.Login)] = e.Source
	}
	return s.writeTournament(w, r, round.ID, contest.RoundTournament(ct, round), sources)
}

// writeTournament answers a tournament directory as a tar.gz: DIR/tournament.yaml (spec),
// and DIR/ENTRANT/, the files of the object sources[ENTRANT] (contest.EntrantDir).
func (s *Server) writeTournament(w http.ResponseWriter, r *http.Request, dir string, spec any, sources map[string]string) error {
	yaml, err := json.MarshalIndent(spec, "", "  ") // JSON is YAML
	if err != nil {
		return err
	}
	all := map[string]string{"tournament.yaml": string(yaml)}
	for login, key := range sources {
		files, err := s.engine.Sources(r.Context(), key)
		if err != nil {
			return err
		}
		for name, text := range files {
			all[login+"/"+name] = text
		}
	}
	return writeTarGz(w, dir+".tar.gz", dir+"/", all)
}

// matchOrder serves the round, match and attempt numbers of a round's match id, to list them
// in the order they were scheduled.
func matchOrder(id string) []int {
	var out []int
	for _, part := range strings.Split(strings.TrimPrefix(id, contest.RoundOf(id)+"-"), "-") {
		n, _ := strconv.Atoi(strings.TrimPrefix(part, "r"))
		out = append(out, n)
	}
	return out
}
