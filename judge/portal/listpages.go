package portal

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/botjudge/judge/judge/contest/store"
)

// listPages serves the lists of versions and matches.
type listPages struct{ *Server }

// The pages' lists of matches and versions: a page at a time, newest first, with links to
// the pages beside it and, for matches, to each kind's list. The home and organiser pages
// show the newest few and link here for the rest.

// homeLimit is how many of each list the home and organiser pages show.
const homeLimit = 20

// listing is a page of a list as a page links it: Older and Newer are the links to the
// pages beside it ("" when there is none), Kinds the kinds a list of matches is filtered by.
type listing struct {
	Path         string // the list's page
	Kind         string
	Kinds        []string
	Older, Newer string
	limit        int
}

func newListing(path string, l store.List, older, newer store.Cursor, kinds bool) listing {
	ls := listing{Path: path, Kind: l.Kind, limit: l.Limit}
	if kinds {
		ls.Kinds = store.Kinds
	}
	if older != (store.Cursor{}) {
		ls.Older = ls.link(l.Kind, older)
	}
	if newer != (store.Cursor{}) {
		ls.Newer = ls.link(l.Kind, newer)
	}
	return ls
}

// link serves the list's page of kind at cur; its page size goes along when not the default.
func (ls listing) link(kind string, cur store.Cursor) string {
	q := url.Values{}
	if kind != "" {
		q.Set("kind", kind)
	}
	if c := cur.String(); c != "" {
		q.Set("cursor", c)
	}
	if ls.limit != defaultLimit && ls.limit > 0 {
		q.Set("limit", strconv.Itoa(ls.limit))
	}
	if len(q) == 0 {
		return ls.Path
	}
	return ls.Path + "?" + q.Encode()
}

// KindLink serves the newest page of the list's matches of kind ("" every kind).
func (ls listing) KindLink(kind string) string { return ls.link(kind, store.Cursor{}) }

// matchesPage serves the caller's matches; adminMatchesPage everyone's, for organisers.
func (s listPages) matchesPage(w http.ResponseWriter, r *http.Request, c caller) error {
	return s.renderMatches(w, r, c, false)
}

func (s listPages) adminMatchesPage(w http.ResponseWriter, r *http.Request, c caller) error {
	return s.renderMatches(w, r, c, true)
}

func (s listPages) renderMatches(w http.ResponseWriter, r *http.Request, c caller, all bool) error {
	ct, err := s.engine.Contest(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	login, err := c.actor().Lists(all)
	if err != nil {
		return err
	}
	path, title := "/c/"+ct.Name+"/matches", "Your matches"
	if all {
		path, title = "/c/"+ct.Name+"/admin/matches", "Every match"
	}
	l, err := listParams(r, true)
	if err != nil {
		return err
	}
	p, err := s.c.Store.MatchPage(r.Context(), ct.Name, login, l)
	if err != nil {
		return err
	}
	s.render(w, http.StatusOK, "matches.html", struct {
		pageData
		All     bool
		Matches []store.Match
		List    listing
	}{s.base(r, c, title, ""), all, p.Items, newListing(path, l, p.Older, p.Newer, true)})
	return nil
}

// versionsPage serves the caller's versions; adminVersionsPage everyone's, for organisers.
func (s listPages) versionsPage(w http.ResponseWriter, r *http.Request, c caller) error {
	return s.renderVersions(w, r, c, false)
}

func (s listPages) adminVersionsPage(w http.ResponseWriter, r *http.Request, c caller) error {
	return s.renderVersions(w, r, c, true)
}

func (s listPages) renderVersions(w http.ResponseWriter, r *http.Request, c caller, all bool) error {
	ct, err := s.engine.Contest(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	login, err := c.actor().Lists(all)
	if err != nil {
		return err
	}
	path, title := "/c/"+ct.Name+"/versions", "Your versions"
	if all {
		path, title = "/c/"+ct.Name+"/admin/versions", "Every version"
	}
	l, err := listParams(r, false)
	if err != nil {
		return err
	}
	p, err := s.c.Store.SubmissionPage(r.Context(), ct.Name, login, l)
	if err != nil {
		return err
	}
	if all {
		users, err := s.c.Store.Users(r.Context(), ct.Name)
		if err != nil {
			return err
		}
		markActiveOf(p.Items, users)
	} else {
		markActive(p.Items, c)
	}
	s.render(w, http.StatusOK, "versions.html", struct {
		pageData
		All  bool
		Subs []store.Submission
		List listing
	}{s.base(r, c, title, ""), all, p.Items, newListing(path, l, p.Older, p.Newer, false)})
	return nil
}

// markActiveOf shows each of users' active versions as such: its record says ready.
func markActiveOf(subs []store.Submission, users []store.User) {
	active := map[string]bool{}
	for _, u := range users {
		active[u.Active] = true
	}
	for i := range subs {
		if active[subs[i].ID] {
			subs[i].Status = store.Active
		}
	}
}

// markActive shows the caller's active version as such: its record says ready.
func markActive(subs []store.Submission, c caller) {
	for i := range subs {
		if subs[i].ID == c.Active && subs[i].Login == c.Login {
			subs[i].Status = store.Active
		}
	}
}
