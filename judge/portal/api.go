package portal

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/ladder"

	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/portal/upload"
	"github.com/botjudge/judge/judge/queue"
)

// apiV1 serves the JSON API of versions and matches.
type apiV1 struct{ *Server }

// api wraps an API handler: it finds the caller (401 without one), refuses a browser's
// change without its CSRF token, and answers an error as JSON.
func (s *Server) api(h func(w http.ResponseWriter, r *http.Request, c caller) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := s.who(r)
		if err == nil {
			err = checkCSRF(r, c)
		}
		if err == nil {
			err = h(w, r, c)
		}
		if err != nil {
			s.writeError(w, err)
		}
	})
}

// toJSON is a submission as the API shows it; st is its contest's ladder (set, its settings).
func toJSON(sub store.Submission, st ladder.State, set ladder.Settings) api.Submission {
	out := api.Submission{ID: sub.ID, Version: sub.Version, Login: sub.Login, Lang: sub.Lang, Files: sub.Files, Status: string(sub.Status),
		Build: sub.Build, Error: sub.Error, Created: sub.Created.Format("2006-01-02T15:04:05Z")}
	if v := sub.Validation; v != nil {
		out.Validation = &api.Validation{Match: v.Match, Fault: v.Fault}
	}
	if p := st.Players[sub.ID]; p != nil {
		if d := p.Disabled; d != nil {
			out.Disabled = &api.Disabled{Reason: d.Reason, Matches: d.Matches, At: d.At}
		}
		out.Ladder = &api.Ladder{Staged: p.Staged, Mu: p.Mu, Sigma: p.Sigma, Rating: p.Rating(), Matches: p.Matches}
		if p.Versus != nil {
			out.Ladder.Versus = map[string]*api.Record{}
			for k, r := range p.Versus {
				out.Ladder.Versus[k] = &api.Record{Won: r.Won, Drawn: r.Drawn, Lost: r.Lost}
			}
		}
		if pl, ok := st.PlaceOf(sub.ID, set, time.Now()); ok {
			out.Ladder.Queue = &api.QueuePlace{Place: pl.Place, Pending: pl.Pending, WaitSeconds: int(pl.Wait.Seconds()), Behind: pl.Behind}
		}
		out.Trial = trialJSON(p, st, set)
		if !p.Staged {
			out.Ladder.League = leagueJSON(p, st, set)
		}
	}
	return out
}

// leagueJSON is a version's league and its test against the boss (nil without leagues).
func leagueJSON(p *ladder.Player, st ladder.State, set ladder.Settings) *api.LeagueProgress {
	if len(set.Leagues) == 0 {
		return nil
	}
	lg := st.LeagueOf(p.Login, set)
	l := set.Leagues[lg]
	out := &api.LeagueProgress{Name: l.Name, Boss: l.Boss, Top: lg == len(set.Leagues)-1}
	lo, hi := set.Test().Bounds()
	out.Bounds = [2]float64{lo, hi}
	for _, m := range st.Promoted {
		if m.Sub == p.Sub && m.To < len(set.Leagues) {
			out.Promoted = append(out.Promoted, api.Promotion{To: set.Leagues[m.To].Name, At: m.At, Matches: m.Matches})
		}
	}
	if t := p.Boss; t != nil && t.League == lg {
		pr := t.Progress(set.Test())
		out.LLR, out.Matches = pr.LLR, pr.Matches
		if pr.Verdict != "" {
			v := pr.Verdict
			out.Verdict = &v
		}
	}
	return out
}

// trialJSON is a staged version's trial as the API shows it (nil for a version never tried).
func trialJSON(p *ladder.Player, st ladder.State, set ladder.Settings) *api.Trial {
	if p.Trial == nil {
		return nil
	}
	pr := p.Trial.Progress(set.Test())
	out := &api.Trial{LLR: pr.LLR, Bounds: pr.Bounds, Matches: pr.Matches}
	if pr.Verdict != "" {
		v := pr.Verdict
		out.Verdict = &v
	}
	if a := st.Players[p.Trial.Against]; a != nil {
		out.Against = a.Version.Version
	}
	return out
}

func (s apiV1) apiStage(w http.ResponseWriter, r *http.Request, c caller) error {
	sub, err := s.engine.Stage(r.Context(), c.actor(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return s.writeSubmission(w, r, sub)
}

func (s apiV1) apiSubmit(w http.ResponseWriter, r *http.Request, c caller) error {
	up, err := s.readUpload(w, r, c)
	if err != nil {
		return err
	}
	sub, err := s.engine.Upload(r.Context(), c.actor(), r.PathValue("contest"), up.Lang, up.Files)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, api.Uploaded{ID: sub.ID, Version: sub.Version, Status: string(sub.Status)})
	return nil
}

// readUpload reads an upload's request under the limits; a browser's must carry its
// session's CSRF token (a form field, read with the parts, or the header checkCSRF read).
func (s *Server) readUpload(w http.ResponseWriter, r *http.Request, c caller) (upload.Upload, error) {
	r.Body = http.MaxBytesReader(w, r.Body, bodyLimit(s.c.Upload))
	up, err := upload.Request(r, s.c.Upload)
	if err == nil && r.Header.Get("X-CSRF-Token") == "" {
		err = checkCSRFValue(c, up.CSRF)
	}
	return up, err
}

// bodyLimit bounds an upload's request: the files, an archive's overhead and the form's.
func bodyLimit(lim upload.Limits) int64 { return 2*lim.Bytes + 256<<10 }

func (s apiV1) apiSubmission(w http.ResponseWriter, r *http.Request, c caller) error {
	sub, err := s.engine.Version(r.Context(), c.actor(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return s.writeSubmission(w, r, sub)
}

// apiSource is a version's files as they were uploaded, a .tar.gz of plain names: the
// contestant's own (an organiser's, any), never another contestant's (404).
func (s apiV1) apiSource(w http.ResponseWriter, r *http.Request, c caller) error {
	sub, err := s.engine.Version(r.Context(), c.actor(), r.PathValue("id"))
	if err != nil {
		return err
	}
	files, err := s.engine.Sources(r.Context(), sub.Source)
	if err != nil {
		return err
	}
	return writeTarGz(w, fmt.Sprintf("%s-v%d.tar.gz", sub.Login, sub.Version), "", files)
}

func (s apiV1) apiLeaderboard(w http.ResponseWriter, r *http.Request, c caller) error {
	b, err := s.engine.Board(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	out := api.Leaderboard{Rows: []api.LeaderboardRow{}, Status: b.Status, Message: b.Message}
	if !b.Next.IsZero() {
		out.Next = &b.Next
	}
	for _, r := range b.Rows {
		out.Rows = append(out.Rows, api.LeaderboardRow{Rank: r.Rank, Login: r.Login, Version: r.Version, Lang: r.Lang,
			Mu: r.Mu, Sigma: r.Sigma, Rating: r.Rating, Matches: r.Matches, Disabled: r.Disabled, Faults: r.Faults,
			RankRange: r.RankRange, AboveNext: r.AboveNext, Provisional: r.Provisional, Band: r.Band, League: r.League})
	}
	for _, l := range b.Contest.LadderSettings.Leagues {
		n := 0
		for _, r := range b.Rows {
			if r.League == l.Name {
				n++
			}
		}
		out.Leagues = append(out.Leagues, api.League{Name: l.Name, Boss: l.Boss, Versions: n})
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s apiV1) apiStats(w http.ResponseWriter, r *http.Request, c caller) error {
	st, err := s.engine.Stats(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, st)
	return nil
}

func (s apiV1) apiSubmissions(w http.ResponseWriter, r *http.Request, c caller) error {
	contest := r.PathValue("contest")
	if _, err := s.engine.Contest(r.Context(), c.actor(), contest); err != nil {
		return err
	}
	l, err := listParams(r, false)
	if err != nil {
		return err
	}
	p, err := s.c.Store.SubmissionPage(r.Context(), contest, c.Login, l)
	if err != nil {
		return err
	}
	st, set, err := s.ladderOf(r.Context(), contest)
	if err != nil {
		return err
	}
	out := api.Submissions{Submissions: []api.Submission{}, Next: p.Older.String()}
	for _, sub := range p.Items {
		if sub.ID == c.Active {
			sub.Status = store.Active
		}
		out.Submissions = append(out.Submissions, toJSON(sub, st, set))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// Lists are paged: limit items a page (defaultLimit unless asked, at most maxLimit).
const (
	defaultLimit = 50
	maxLimit     = 200
)

// listParams reads the page of a list a request asks for: ?limit=N&cursor=C, and for a list
// of matches &kind=K. A bad value is a 400 whose code names the parameter.
func listParams(r *http.Request, kinds bool) (store.List, error) {
	q := r.URL.Query()
	l := store.List{Limit: defaultLimit}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxLimit {
			return l, api.Errorf(api.CodeBadLimit, "limit %q: want a whole number from 1 to %d", v, maxLimit)
		}
		l.Limit = n
	}
	cur, err := store.ParseCursor(q.Get("cursor"))
	if err != nil {
		return l, api.Errorf(api.CodeBadCursor, "cursor %q: not a cursor the portal gave; start again without it", q.Get("cursor"))
	}
	l.Cursor = cur
	if kinds {
		if k := q.Get("kind"); k != "" {
			if !slices.Contains(store.Kinds, k) {
				return l, api.Errorf(api.CodeBadKind, "kind %q: want one of %s", k, strings.Join(store.Kinds, ", "))
			}
			l.Kind = k
		}
	}
	return l, nil
}

func (s apiV1) apiActivate(w http.ResponseWriter, r *http.Request, c caller) error {
	sub, err := s.engine.Activate(r.Context(), c.actor(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return s.writeSubmission(w, r, sub)
}

func (s apiV1) apiAskMatch(w http.ResponseWriter, r *http.Request, c caller) error {
	var body api.MatchRequest
	dec := json.NewDecoder(io.LimitReader(r.Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		return api.Errorf(api.CodeBadRequest, "want {\"opponents\": [\"house:NAME\" or a login, ...], \"seed\": N (optional)}: %v", err)
	}
	m, err := s.engine.AskMatch(r.Context(), c.actor(), r.PathValue("contest"), body)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, api.MatchAsked{ID: m.ID})
	return nil
}

// matchJSON is a match as the API shows it: the result with only the caller's stderr.
func (s apiV1) matchJSON(c caller, m store.Match) api.Match {
	out := api.Match{ID: m.ID, Kind: m.Kind, Status: "queued", Seed: m.Seed, Created: m.Created.Format("2006-01-02T15:04:05Z")}
	for _, seat := range m.Seats {
		out.Players = append(out.Players, seat.Name())
	}
	if m.Result != nil {
		res := privateResult(*m.Result, func(i int) bool { return c.actor().Sees(m, i) })
		out.Result, out.Status = &res, string(res.Status)
	}
	return out
}

func (s apiV1) apiMatch(w http.ResponseWriter, r *http.Request, c caller) error {
	m, err := s.engine.Match(r.Context(), c.actor(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.matchJSON(c, m))
	return nil
}

func (s apiV1) apiMatches(w http.ResponseWriter, r *http.Request, c caller) error {
	contest := r.PathValue("contest")
	if _, err := s.engine.Contest(r.Context(), c.actor(), contest); err != nil {
		return err
	}
	// An organiser lists every match of the contest unless it asks for its own.
	login, err := c.actor().Lists(c.Organiser && r.URL.Query().Get("mine") != "1")
	if err != nil {
		return err
	}
	l, err := listParams(r, true)
	if err != nil {
		return err
	}
	p, err := s.c.Store.MatchPage(r.Context(), contest, login, l)
	if err != nil {
		return err
	}
	out := api.Matches{Matches: []api.Match{}, Next: p.Older.String()}
	for _, m := range p.Items {
		out.Matches = append(out.Matches, s.matchJSON(c, m))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// replay writes a match's replay as the caller may see it.
func (s *Server) replay(ctx context.Context, c caller, id string) (store.Match, []byte, error) {
	m, err := s.engine.Match(ctx, c.actor(), id)
	if err != nil {
		return m, nil, err
	}
	key, ok := strings.CutPrefix(m.Replay, queue.BucketReplays+"/")
	if !ok {
		return m, nil, api.Errorf(api.CodeNotFound, "the match has no replay yet")
	}
	var raw, out bytes.Buffer
	found, err := s.c.Queue.GetObject(ctx, queue.BucketReplays, key, &raw)
	if err != nil {
		return m, nil, err
	}
	if !found {
		return m, nil, s.replayGone(ctx, m)
	}
	if err := privateReplay(&out, &raw, func(i int) bool { return c.actor().Sees(m, i) }); err != nil {
		return m, nil, err
	}
	return m, out.Bytes(), nil
}

// replayGone serves the answer for a match whose replay is not in the store: the judge deletes
// those of test and ladder matches after nats.replays_max_age, and keeps the others.
func (s *Server) replayGone(ctx context.Context, m store.Match) *api.Error {
	// What goes to the test and ladder lanes: laneOf, and the rounds' (roundRunner.run).
	what := ""
	switch m.Kind {
	case store.KindTest, store.KindLadder:
		what = m.Kind + " match"
	case store.KindRound:
		if r, err := s.c.Store.Round(ctx, contest.RoundOf(m.ID)); err == nil && r.Kind == store.RoundTest {
			what = "match of a test round"
		}
	}
	if what == "" {
		return api.Errorf(api.CodeNotFound, "the match's replay is gone from the store")
	}
	return api.Errorf(api.CodeReplayExpired,
		"the replay of this %s has expired: the judge keeps the replays of test and ladder matches for a while (nats.replays_max_age), their results for good", what)
}

func (s *Server) apiReplay(w http.ResponseWriter, r *http.Request, c caller) error {
	m, data, err := s.replay(r.Context(), c, r.PathValue("id"))
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/jsonl")
	w.Header().Set("Content-Disposition", `attachment; filename="`+m.ID+`.jsonl"`)
	w.Write(data)
	return nil
}

// writeSubmission answers a submission as the API shows it.
func (s apiV1) writeSubmission(w http.ResponseWriter, r *http.Request, sub store.Submission) error {
	st, set, err := s.ladderOf(r.Context(), sub.Contest)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, toJSON(sub, st, set))
	return nil
}

// ladderOf is a contest's ladder and its settings.
func (s apiV1) ladderOf(ctx context.Context, contest string) (ladder.State, ladder.Settings, error) {
	ct, err := s.c.Store.Contest(ctx, contest)
	if err != nil {
		return ladder.State{}, ladder.Settings{}, err
	}
	st, err := s.c.Store.Ladder(ctx, contest)
	return st, ct.LadderSettings, err
}
