// Package client is the portal's API from a program (judge contest is a shell over it): each
// request of docs/portal.md's API that a contestant makes, answered in judge/api's types. A
// refusal is the portal's *api.Error, wrapped in the words "the portal answers STATUS CODE".
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"

	"github.com/botjudge/judge/judge/api"
)

// Client talks to one portal with one API token.
type Client struct {
	// URL is the portal's address (scheme, host and any path before /c/).
	URL   string
	Token string
	// HTTP makes the requests; nil is http.DefaultClient.
	HTTP *http.Client
}

// maxError bounds what is read of a refusal's body.
const maxError = 64 << 10

// Open makes one request and returns the answer's body when it is a success; the caller
// closes it. A refusal is an *api.Error (wrapped), with the portal's message.
func (c *Client) Open(ctx context.Context, method, path string, body io.Reader, contentType string) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.URL+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	h := c.HTTP
	if h == nil {
		h = http.DefaultClient
	}
	resp, err := h.Do(req)
	if err != nil {
		return nil, fmt.Errorf("reaching the portal at %s: %w", c.URL, err)
	}
	if resp.StatusCode < 300 {
		return resp.Body, nil
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxError))
	var f api.Failure
	if json.Unmarshal(raw, &f) != nil || f.Error == nil || f.Error.Message == "" {
		// Not the portal's answer (a proxy's page, say): its status and its text.
		f.Error = &api.Error{Code: api.ErrorCode(http.StatusText(resp.StatusCode)), Message: strings.TrimSpace(string(raw))}
	}
	f.Error.Status = resp.StatusCode
	return nil, fmt.Errorf("the portal answers %d %s: %w", f.Error.Status, f.Error.Code, f.Error)
}

// Call makes one request and decodes its answer into out, returning it as it came too (for
// --json).
func (c *Client) Call(ctx context.Context, method, path string, body io.Reader, contentType string, out any) (json.RawMessage, error) {
	r, err := c.Open(ctx, method, path, body, contentType)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var raw json.RawMessage
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return nil, fmt.Errorf("the portal's answer to %s %s is not JSON: %w", method, path, err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return nil, fmt.Errorf("the portal's answer to %s %s is not its API's: %w", method, path, err)
	}
	return raw, nil
}

func get[T any](ctx context.Context, c *Client, path string) (T, json.RawMessage, error) {
	var out T
	raw, err := c.Call(ctx, "GET", path, nil, "", &out)
	return out, raw, err
}

func contestPath(contest string) string { return "/api/v1/contests/" + url.PathEscape(contest) }

// Contest is the contest as a contestant sees it.
func (c *Client) Contest(ctx context.Context, contest string) (api.Contest, json.RawMessage, error) {
	return get[api.Contest](ctx, c, contestPath(contest))
}

// Upload sends a new version: its files as one .tar.gz (so that its directories stay) and its
// language ("" for the portal's guess).
func (c *Client) Upload(ctx context.Context, contest string, archive []byte, lang string) (api.Uploaded, json.RawMessage, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, err := mw.CreateFormFile("archive", "sources.tar.gz")
	if err != nil {
		return api.Uploaded{}, nil, err
	}
	w.Write(archive)
	if lang != "" {
		mw.WriteField("lang", lang)
	}
	mw.Close()
	var up api.Uploaded
	raw, err := c.Call(ctx, "POST", contestPath(contest)+"/submissions", &body, mw.FormDataContentType(), &up)
	return up, raw, err
}

// Submission is one of the caller's versions.
func (c *Client) Submission(ctx context.Context, id string) (api.Submission, json.RawMessage, error) {
	return get[api.Submission](ctx, c, "/api/v1/submissions/"+url.PathEscape(id))
}

// Activate makes a ready version the caller's active one.
func (c *Client) Activate(ctx context.Context, id string) (api.Submission, json.RawMessage, error) {
	var sub api.Submission
	raw, err := c.Call(ctx, "POST", "/api/v1/submissions/"+url.PathEscape(id)+"/activate", nil, "", &sub)
	return sub, raw, err
}

// Submissions is a page of the caller's versions, the newest first, from cursor ("" for the
// first).
func (c *Client) Submissions(ctx context.Context, contest, cursor string) (api.Submissions, json.RawMessage, error) {
	path := contestPath(contest) + "/submissions"
	if cursor != "" {
		path += "?cursor=" + url.QueryEscape(cursor)
	}
	return get[api.Submissions](ctx, c, path)
}

// AllSubmissions is every page of the caller's versions, the newest first.
func (c *Client) AllSubmissions(ctx context.Context, contest string) ([]api.Submission, error) {
	var all []api.Submission
	cursor := ""
	for {
		page, _, err := c.Submissions(ctx, contest, cursor)
		if err != nil {
			return nil, err
		}
		all = append(all, page.Submissions...)
		if page.Next == "" || len(page.Submissions) == 0 {
			return all, nil
		}
		cursor = page.Next
	}
}

// AskMatch asks for a test match of the caller's active version against opponents.
func (c *Client) AskMatch(ctx context.Context, contest string, req api.MatchRequest) (api.MatchAsked, error) {
	body, _ := json.Marshal(req)
	var m api.MatchAsked
	_, err := c.Call(ctx, "POST", contestPath(contest)+"/matches", bytes.NewReader(body), "application/json", &m)
	return m, err
}

// Match is a match the caller may see.
func (c *Client) Match(ctx context.Context, id string) (api.Match, json.RawMessage, error) {
	return get[api.Match](ctx, c, "/api/v1/matches/"+url.PathEscape(id))
}

// Matches is the first page of the caller's own matches, the newest first.
func (c *Client) Matches(ctx context.Context, contest string) (api.Matches, json.RawMessage, error) {
	return get[api.Matches](ctx, c, contestPath(contest)+"/matches?mine=1")
}

// Leaderboard is the contest's ladder.
func (c *Client) Leaderboard(ctx context.Context, contest string) (api.Leaderboard, json.RawMessage, error) {
	return get[api.Leaderboard](ctx, c, contestPath(contest)+"/leaderboard")
}

// Stats are the caller's statistics of its own matches in contest.
func (c *Client) Stats(ctx context.Context, contest string) (api.Stats, json.RawMessage, error) {
	return get[api.Stats](ctx, c, contestPath(contest)+"/stats")
}

// Replay is a match's replay (JSON lines, other players' stderr removed).
func (c *Client) Replay(ctx context.Context, id string) (io.ReadCloser, error) {
	return c.Open(ctx, "GET", "/api/v1/matches/"+url.PathEscape(id)+"/replay", nil, "")
}

// Source is one of the caller's versions as it was uploaded, a .tar.gz.
func (c *Client) Source(ctx context.Context, id string) (io.ReadCloser, error) {
	return c.Open(ctx, "GET", "/api/v1/submissions/"+url.PathEscape(id)+"/source", nil, "")
}

// Starter is the contest's starter bot in lang, a .tar.gz.
func (c *Client) Starter(ctx context.Context, contest, lang string) (io.ReadCloser, error) {
	return c.Open(ctx, "GET", contestPath(contest)+"/starters/"+url.PathEscape(lang), nil, "")
}

// GameDir is the directory of the contest's game when it is an organiser's, a .tar.gz.
func (c *Client) GameDir(ctx context.Context, contest string) (io.ReadCloser, error) {
	return c.Open(ctx, "GET", contestPath(contest)+"/game", nil, "")
}
