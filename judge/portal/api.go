package portal

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/botjudge/judge/judge/portal/store"
	"github.com/botjudge/judge/judge/portal/upload"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
)

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

// submissionJSON is a submission as the API shows it.
type submissionJSON struct {
	ID         string            `json:"id"`
	Version    int               `json:"version"`
	Login      string            `json:"login"`
	Lang       string            `json:"lang"`
	Files      []string          `json:"files"`
	Status     store.Status      `json:"status"`
	Build      *result.Build     `json:"build"`
	Validation *store.Validation `json:"validation"`
	Error      string            `json:"error,omitempty"`
	Disabled   bool              `json:"disabled"`
	Created    string            `json:"created"`
}

func toJSON(sub store.Submission) submissionJSON {
	return submissionJSON{ID: sub.ID, Version: sub.Version, Login: sub.Login, Lang: sub.Lang, Files: sub.Files, Status: sub.Status,
		Build: sub.Build, Validation: sub.Validation, Error: sub.Error, Created: sub.Created.Format("2006-01-02T15:04:05Z")}
}

func (s *Server) apiSubmit(w http.ResponseWriter, r *http.Request, c caller) error {
	up, err := s.readUpload(w, r, c)
	if err != nil {
		return err
	}
	sub, err := s.submit(r.Context(), c, r.PathValue("contest"), up)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"id": sub.ID, "version": sub.Version, "status": sub.Status})
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

func (s *Server) apiSubmission(w http.ResponseWriter, r *http.Request, c caller) error {
	sub, err := s.submission(r.Context(), c, r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, toJSON(sub))
	return nil
}

func (s *Server) apiSubmissions(w http.ResponseWriter, r *http.Request, c caller) error {
	contest := r.PathValue("contest")
	if _, err := s.inContest(r.Context(), c, contest); err != nil {
		return err
	}
	subs, err := s.c.Store.Submissions(r.Context(), contest, c.Login)
	if err != nil {
		return err
	}
	out := []submissionJSON{}
	for _, sub := range subs {
		if sub.ID == c.Active {
			sub.Status = store.Active
		}
		out = append(out, toJSON(sub))
	}
	writeJSON(w, http.StatusOK, map[string]any{"submissions": out})
	return nil
}

func (s *Server) apiActivate(w http.ResponseWriter, r *http.Request, c caller) error {
	sub, err := s.activate(r.Context(), c, r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, toJSON(sub))
	return nil
}

func (s *Server) apiAskMatch(w http.ResponseWriter, r *http.Request, c caller) error {
	var body struct {
		Opponents []string `json:"opponents"`
	}
	dec := json.NewDecoder(io.LimitReader(r.Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		return errorf(http.StatusBadRequest, "bad_request", "want {\"opponents\": [\"house:NAME\" or a login, ...]}: %v", err)
	}
	m, err := s.askMatch(r.Context(), c, r.PathValue("contest"), body.Opponents)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"id": m.ID})
	return nil
}

// matchJSON is a match as the API shows it: the result with only the caller's stderr.
type matchJSON struct {
	ID      string         `json:"id"`
	Kind    string         `json:"kind"`
	Players []string       `json:"players"`
	Status  string         `json:"status"`
	Seed    uint64         `json:"seed"`
	Result  *result.Result `json:"result"`
	Created string         `json:"created"`
}

func (s *Server) matchJSON(c caller, m store.Match) matchJSON {
	out := matchJSON{ID: m.ID, Kind: m.Kind, Status: "queued", Seed: m.Seed, Created: m.Created.Format("2006-01-02T15:04:05Z")}
	for _, seat := range m.Seats {
		out.Players = append(out.Players, seat.Name())
	}
	if m.Result != nil {
		res := privateResult(*m.Result, func(i int) bool { return mine(c, m, i) })
		out.Result, out.Status = &res, string(res.Status)
	}
	return out
}

func (s *Server) apiMatch(w http.ResponseWriter, r *http.Request, c caller) error {
	m, err := s.match(r.Context(), c, r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.matchJSON(c, m))
	return nil
}

func (s *Server) apiMatches(w http.ResponseWriter, r *http.Request, c caller) error {
	contest := r.PathValue("contest")
	if _, err := s.inContest(r.Context(), c, contest); err != nil {
		return err
	}
	login := c.Login
	if c.Organiser && r.URL.Query().Get("mine") != "1" {
		login = "*"
	}
	ms, err := s.c.Store.Matches(r.Context(), contest, login)
	if err != nil {
		return err
	}
	out := []matchJSON{}
	for _, m := range ms {
		out = append(out, s.matchJSON(c, m))
	}
	writeJSON(w, http.StatusOK, map[string]any{"matches": out})
	return nil
}

// replay writes a match's replay as the caller may see it.
func (s *Server) replay(w http.ResponseWriter, r *http.Request, c caller) (store.Match, []byte, error) {
	m, err := s.match(r.Context(), c, r.PathValue("id"))
	if err != nil {
		return m, nil, err
	}
	key, ok := strings.CutPrefix(m.Replay, queue.BucketReplays+"/")
	if !ok {
		return m, nil, errorf(http.StatusNotFound, "not_found", "the match has no replay yet")
	}
	var raw, out bytes.Buffer
	found, err := s.c.Queue.GetObject(r.Context(), queue.BucketReplays, key, &raw)
	if err != nil {
		return m, nil, err
	}
	if !found {
		return m, nil, errorf(http.StatusNotFound, "not_found", "the match's replay is gone from the store")
	}
	if err := privateReplay(&out, &raw, func(i int) bool { return mine(c, m, i) }); err != nil {
		return m, nil, err
	}
	return m, out.Bytes(), nil
}

func (s *Server) apiReplay(w http.ResponseWriter, r *http.Request, c caller) error {
	m, data, err := s.replay(w, r, c)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/jsonl")
	w.Header().Set("Content-Disposition", `attachment; filename="`+m.ID+`.jsonl"`)
	w.Write(data)
	return nil
}
