package portal

import (
	"bytes"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/view"
)

// webPages serves the contestants' and organisers' own pages: signing in, versions, matches,
// the organiser page.
type webPages struct{ *Server }

func (s webPages) home(w http.ResponseWriter, r *http.Request, c caller) error {
	return s.renderHome(w, r, c, nil)
}

// renderHome renders the contestant's home, with failed the error of its form just posted.
func (s *Server) renderHome(w http.ResponseWriter, r *http.Request, c caller, failed *api.Error) error {
	ct, err := s.engine.Contest(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	// One page of each: the rest is on the versions' and matches' own pages. Only test
	// matches here, which the contestant asked for; the others are a kind link away.
	subs, err := s.c.Store.SubmissionPage(r.Context(), ct.Name, c.Login, store.List{Limit: homeLimit})
	if err != nil {
		return err
	}
	markActive(subs.Items, c)
	tests, err := s.c.Store.MatchPage(r.Context(), ct.Name, c.Login, store.List{Kind: store.KindTest, Limit: homeLimit})
	if err != nil {
		return err
	}
	var peers []string
	if ct.PeerMatches {
		users, err := s.c.Store.Users(r.Context(), ct.Name)
		if err != nil {
			return err
		}
		for _, u := range users {
			if u.Active != "" && !u.Organiser && u.Login != c.Login {
				peers = append(peers, u.Login)
			}
		}
	}
	langs := s.c.Langs
	if len(ct.Langs) > 0 {
		langs = ct.Langs
	}
	d := struct {
		pageData
		C        store.Contest
		Subs     []store.Submission
		Matches  []store.Match
		Versions listing
		Tests    listing
		Peers    []string
		Langs    []string
		Closed   bool
		Active   bool
	}{s.base(r, c, ct.Name, ""), ct, subs.Items, tests.Items,
		newListing("/c/"+ct.Name+"/versions", store.List{}, subs.Older, store.Cursor{}, false),
		newListing("/c/"+ct.Name+"/matches", store.List{Kind: store.KindTest}, tests.Older, store.Cursor{}, true),
		peers, langs, !contest.Open(ct, time.Now()), c.Active != ""}
	status := http.StatusOK
	if failed != nil {
		status, d.Message = failed.Status, failed.Message
		if failed.Retry > 0 {
			w.Header().Set("Retry-After", retryAfter(failed.Retry))
		}
	}
	s.render(w, status, "home.html", d)
	return nil
}

func (s webPages) submitPage(w http.ResponseWriter, r *http.Request, c caller) error {
	up, err := s.readUpload(w, r, c)
	if err != nil {
		return err
	}
	sub, err := s.engine.Upload(r.Context(), c.actor(), r.PathValue("contest"), up.Lang, up.Files)
	if err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+sub.Contest+"/s/"+sub.ID, "")
	return nil
}

func (s webPages) submissionPage(w http.ResponseWriter, r *http.Request, c caller) error {
	sub, err := s.engine.Version(r.Context(), c.actor(), r.PathValue("id"))
	if err != nil || sub.Contest != r.PathValue("contest") {
		return cmpErr(err, errNotFound)
	}
	ct, st, err := s.contestLadder(r, c)
	if err != nil {
		return err
	}
	mine := sub.Login == c.Login
	var active *ladder.Player // the owner's active version, beside a version on trial
	if mine && c.Active != sub.ID {
		active = st.Players[c.Active]
	}
	var place *ladder.Place
	if pl, ok := st.PlaceOf(sub.ID, ct.LadderSettings, time.Now()); ok && ct.Ladder {
		place = &pl
	}
	busy, err := s.engine.Busy(r.Context(), ct.Name)
	if err != nil {
		return err
	}
	var trial *api.Trial
	var league *api.LeagueProgress
	if p := st.Players[sub.ID]; p != nil {
		trial = trialJSON(p, st, ct.LadderSettings)
		if !p.Staged {
			league = leagueJSON(p, st, ct.LadderSettings)
		}
	}
	s.render(w, http.StatusOK, "submission.html", struct {
		pageData
		S        store.Submission
		Mine     bool
		WhyNot   string
		L        *ladder.Player
		Active   *ladder.Player
		CanStage bool
		Place    *ladder.Place
		Busy     string
		Trial    *api.Trial
		Auto     bool
		League   *api.LeagueProgress
	}{s.base(r, c, "Version "+itoa(sub.Version), ""), sub, mine, whyNot(sub), st.Players[sub.ID], active,
		mine && sub.Status == store.Ready && ct.Ladder && contest.Open(ct, time.Now()) && c.Active != "" && c.Staged != sub.ID,
		place, busy, trial, ct.LadderSettings.AutoPromote, league})
	return nil
}

// whyNot says why a version cannot be made active (yet).
func whyNot(sub store.Submission) string {
	switch sub.Status {
	case store.Queued, store.Compiling:
		return "It cannot be made active yet: it is being compiled."
	case store.CompileError:
		return "It cannot be made active: it does not compile (the log is below)."
	case store.Validating:
		return "It cannot be made active yet: its validation match is being played."
	case store.Rejected:
		if sub.Validation != nil && sub.Validation.Fault != nil {
			return "It cannot be made active: it failed its validation match (" + string(sub.Validation.Fault.Kind) + "); the match shows what happened."
		}
		return "It cannot be made active until the judge has built and validated it (above)."
	}
	return ""
}

func (s webPages) activatePage(w http.ResponseWriter, r *http.Request, c caller) error {
	sub, err := s.engine.Activate(r.Context(), c.actor(), r.PathValue("id"))
	if err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+sub.Contest+"/s/"+sub.ID, "Version "+itoa(sub.Version)+" is your active version.")
	return nil
}

func (s webPages) stagePage(w http.ResponseWriter, r *http.Request, c caller) error {
	sub, err := s.engine.Stage(r.Context(), c.actor(), r.PathValue("id"))
	if err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+sub.Contest+"/s/"+sub.ID, "Version "+itoa(sub.Version)+" is on trial on the ladder: unrated matches against the ladder and your active version.")
	return nil
}

func (s webPages) askMatchPage(w http.ResponseWriter, r *http.Request, c caller) error {
	if err := r.ParseForm(); err != nil {
		return api.Errorf(api.CodeBadRequest, "%v", err)
	}
	req := api.MatchRequest{Opponents: r.PostForm["opponent"]}
	if v := strings.TrimSpace(r.PostFormValue("seed")); v != "" {
		seed, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return api.Errorf(api.CodeBadRequest, "seed %q: want a whole number from 0", v)
		}
		req.Seed = &seed
	}
	m, err := s.engine.AskMatch(r.Context(), c.actor(), r.PathValue("contest"), req)
	if err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+m.Contest+"/m/"+m.ID, "")
	return nil
}

func (s webPages) matchPage(w http.ResponseWriter, r *http.Request, c caller) error {
	m, err := s.engine.Match(r.Context(), c.actor(), r.PathValue("id"))
	if err != nil || m.Contest != r.PathValue("contest") {
		return cmpErr(err, errNotFound)
	}
	ct, err := s.c.Store.Contest(r.Context(), m.Contest)
	if err != nil {
		return err
	}
	var res *result.Result
	if m.Result != nil {
		pr := privateResult(*m.Result, func(i int) bool { return c.actor().Sees(m, i) })
		res = &pr
	}
	replay, gone := m.Replay != "", ""
	if key, ok := strings.CutPrefix(m.Replay, queue.BucketReplays+"/"); ok {
		// A store that cannot be asked leaves the links: the viewer's page then says why.
		if has, err := s.c.Queue.HasObject(r.Context(), queue.BucketReplays, key); err == nil && !has {
			msg := s.replayGone(r.Context(), m).Message
			replay, gone = false, strings.ToUpper(msg[:1])+msg[1:]+"."
		}
	}
	_, added := s.gameDir(ct)
	needs, exact := needsOf(c, ct, m, added)
	// The caller's other matches of this seed, to compare with (judge replay diff).
	var seeded []store.Match
	if mine, err := s.c.Store.MatchesWhere(r.Context(), m.Contest, c.Login, "", nil); err == nil {
		for _, o := range mine {
			if o.ID != m.ID && o.Seed == m.Seed && o.Result != nil && o.Replay != "" {
				seeded = append(seeded, o)
			}
		}
	}
	s.render(w, http.StatusOK, "match.html", struct {
		pageData
		M          store.Match
		R          *result.Result
		Replay     bool
		ReplayGone string // why there is no replay to watch
		Reproduce  string
		Version    string
		Needs      []need // what the command needs, seat by seat, and where to get it
		Exact      bool   // the caller can get everything the command needs
		Against    []string
		Seeded     []store.Match // the caller's other matches of this seed
	}{s.base(r, c, "Match "+m.ID, ""), m, res, replay, gone, reproduce(ct, m, added), s.c.Version, needs, exact, against(c, ct, m, added), seeded})
	return nil
}

// comparedMatches are the matches {id} and {other} of the request's contest and their
// replays, as the caller may see them.
func (s webPages) comparedMatches(r *http.Request, c caller) (ms [2]store.Match, data [2][]byte, err error) {
	for i, id := range []string{r.PathValue("id"), r.PathValue("other")} {
		m, d, err := s.replay(r.Context(), c, id)
		if err != nil {
			return ms, data, err
		}
		if m.Contest != r.PathValue("contest") {
			return ms, data, errNotFound
		}
		ms[i], data[i] = m, d
	}
	return ms, data, nil
}

// comparePage sets two matches of one seed side by side (replay.Compare, as judge replay
// diff): where they part, both answers there, and how each ended; both as the caller may see
// them.
func (s webPages) comparePage(w http.ResponseWriter, r *http.Request, c caller) error {
	ms, data, err := s.comparedMatches(r, c)
	if err != nil {
		return err
	}
	var rps [2]*replay.Replay
	for i := range data {
		rp, err := replay.Read(bytes.NewReader(data[i]))
		if err != nil {
			return api.Errorf(api.CodeConflict, "match %s's replay does not read: %v", ms[i].ID, err)
		}
		rps[i] = rp
	}
	cmp, err := replay.Compare(rps[0], rps[1])
	if err != nil {
		return api.Errorf(api.CodeConflict, "%v", err)
	}
	names := func(rp *replay.Replay, scores []float64) []string {
		out := make([]string, len(scores))
		for i := range out {
			out[i] = fmt.Sprintf("player %d", i)
			if i < len(rp.Header.Players) {
				out[i] = rp.Header.Players[i].Name
			}
		}
		return out
	}
	s.render(w, http.StatusOK, "compare.html", struct {
		pageData
		A, B           store.Match
		C              replay.Comparison
		NamesA, NamesB []string
	}{s.base(r, c, "Compare "+ms[0].ID+" and "+ms[1].ID, ""), ms[0], ms[1], cmp, names(rps[0], cmp.Scores[0]), names(rps[1], cmp.Scores[1])})
	return nil
}

// compareViewPage is the viewer playing two matches of one seed side by side (view.Pair),
// as the caller may see each.
func (s webPages) compareViewPage(w http.ResponseWriter, r *http.Request, c caller) error {
	ms, data, err := s.comparedMatches(r, c)
	if err != nil {
		return err
	}
	var films [2]*view.Film
	for i := range data {
		if films[i], err = s.films.Read(data[i]); err != nil {
			return api.Errorf(api.CodeConflict, "match %s's replay does not read: %v", ms[i].ID, err)
		}
	}
	pair, err := view.PairOf(films[0], films[1], [2]string{"match " + ms[0].ID, "match " + ms[1].ID})
	if err != nil {
		return api.Errorf(api.CodeConflict, "%v", err)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	back := "/c/" + ms[0].Contest + "/m/" + ms[0].ID + "/compare/" + ms[1].ID
	return view.WritePairHTML(w, pair, view.PageOptions{Back: back, BackText: "← back to the comparison", Rules: "/rules/"})
}

// against are the judge play --against commands that play m again from its replay with one
// of the caller's seats live (an organiser's: any contestant's), the others as recorded.
// An added game's names its directory (gameArg): the judge on a contestant's machine has no
// store to find it in.
func against(c caller, ct store.Contest, m store.Match, added bool) []string {
	var out []string
	for i, seat := range m.Seats {
		if seat.House == "" && c.actor().Sees(m, i) {
			args := []string{"judge", "play", "--against", m.ID + ".jsonl", "--seat", strconv.Itoa(i)}
			if added {
				args = append(args, "--game", gameArg(ct, added))
			}
			out = append(out, shellArgs(append(args, seatDir(seat))...))
		}
	}
	return out
}

// need is a directory the reproduce command names, what goes in it, and where the caller
// gets it: a link, or why it cannot (Missing).
type need struct {
	Dir, What, Link string
	Missing         bool
}

// needsOf are the directories m's reproduce command needs, once each, and whether the
// caller can have every one: an added game's directory, its own version's files (from its own
// upload), the house bots when the organiser publishes them, and nobody else's code.
func needsOf(c caller, ct store.Contest, m store.Match, added bool) ([]need, bool) {
	var out []need
	if added {
		out = append(out, need{Dir: gameArg(ct, added), What: "the game " + ct.Game + ", the organisers' own: its directory", Link: "/c/" + ct.Name + "/game.tar.gz"})
	}
	exact := true
	seen := map[string]bool{}
	for _, seat := range m.Seats {
		dir := seatDir(seat)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		n := need{Dir: dir}
		switch {
		case seat.House != "" && (ct.PublishHouse || c.Organiser):
			n.What, n.Link = "the house bot "+seat.House+"'s files", "/c/"+ct.Name+"/house/"+seat.House+".tar.gz"
		case seat.House != "":
			n.What, n.Missing = "the house bot "+seat.House+"'s files, which this contest does not publish: ask its organisers, or put a bot of your own there (the match then differs from this one)", true
		case seat.Login == c.Login && !c.Organiser:
			n.What = "your version's files, as you uploaded them"
			if seat.Submission != "" {
				n.Link = "/c/" + ct.Name + "/s/" + seat.Submission
			}
		case c.Organiser:
			n.What = seat.Login + "'s version's files (a round's export holds them)"
		default:
			n.What, n.Missing = seat.Login+"'s version, which is not yours to have: put a bot of your own there (the match then differs from this one)", true
		}
		exact = exact && !n.Missing
		out = append(out, n)
	}
	return out, exact
}

// seatDir serves the directory the reproduce command names for a seat.
func seatDir(seat store.Seat) string {
	if seat.House != "" {
		return "house/" + seat.House
	}
	return seat.Login + "/"
}

// reproduce serves the judge play command that plays the same match: the same game (an added
// one's directory), seed and options, the contestant's sources as a directory, each house bot as the organiser
// publishes it (house/NAME).
func reproduce(c store.Contest, m store.Match, added bool) string {
	args := []string{"judge", "play", "--game", gameArg(c, added), "--seed", utoa(m.Seed)}
	args = append(args, optionArgs(c.Options)...)
	for _, seat := range m.Seats {
		args = append(args, seatDir(seat))
	}
	return shellArgs(args...)
}

// shellArgs is a command line a shell reads back as args.
func shellArgs(args ...string) string {
	for i, a := range args {
		if strings.ContainsAny(a, " \t\"'$`\\") {
			args[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(args, " ")
}

func (s webPages) viewPage(w http.ResponseWriter, r *http.Request, c caller) error {
	m, data, err := s.replay(r.Context(), c, r.PathValue("id"))
	if err != nil {
		return err
	}
	f, err := s.films.Read(data)
	if err != nil {
		return err
	}
	// The page carries its own policy (its scripts by hash); the pages' would forbid them.
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	// Opened from the match's page to watch it: from its start, and a way back there.
	return view.WriteHTMLWith(w, f, view.PageOptions{First: true, Back: "/c/" + m.Contest + "/m/" + m.ID, BackText: "← back to the match", Rules: "/rules/"})
}

// watchPage is the viewer following a match under way (apiLive's events with its pictures);
// a match over is its view page.
func (s webPages) watchPage(w http.ResponseWriter, r *http.Request, c caller) error {
	m, err := s.engine.Watchable(r.Context(), c.actor(), r.PathValue("id"))
	if err != nil || m.Contest != r.PathValue("contest") {
		return cmpErr(err, errNotFound)
	}
	if m.Result != nil {
		http.Redirect(w, r, "/c/"+m.Contest+"/m/"+m.ID+"/view", http.StatusSeeOther)
		return nil
	}
	f := &view.Film{Version: view.FilmVersion, Header: replay.Header{Game: m.Contest, Seed: m.Seed}, Exchanges: []replay.Exchange{}, FrameOf: []int{-1}}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	return view.WriteHTMLWith(w, f, view.PageOptions{Live: "/api/v1/matches/" + m.ID + "/live?frames=1",
		Back: "/c/" + m.Contest + "/m/" + m.ID, BackText: "← back to the match", Rules: "/rules/"})
}

func (s webPages) replayDownload(w http.ResponseWriter, r *http.Request, c caller) error {
	return s.apiReplay(w, r, c)
}

func (s webPages) adminPage(w http.ResponseWriter, r *http.Request, c caller) error {
	return s.renderAdmin(w, r, c, nil)
}

// renderAdmin renders the organiser page, with failed the error of its form just posted.
func (s *Server) renderAdmin(w http.ResponseWriter, r *http.Request, c caller, failed *api.Error) error {
	ct, err := s.engine.Organised(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	users, err := s.c.Store.Users(r.Context(), ct.Name)
	if err != nil {
		return err
	}
	// The newest of each list; the rest on their own pages.
	subs, err := s.c.Store.SubmissionPage(r.Context(), ct.Name, "*", store.List{Limit: homeLimit})
	if err != nil {
		return err
	}
	ms, err := s.c.Store.MatchPage(r.Context(), ct.Name, "*", store.List{Limit: homeLimit})
	if err != nil {
		return err
	}
	markActiveOf(subs.Items, users)
	// The people's active and staged versions, which may be older than the page's.
	own := map[string]store.Submission{}
	for _, u := range users {
		for _, id := range []string{u.Active, u.Staged} {
			if id == "" {
				continue
			}
			if sub, err := s.c.Store.Submission(r.Context(), id); err == nil {
				own[id] = sub
			}
		}
	}
	actions, err := s.c.Store.Actions(r.Context(), ct.Name, homeLimit)
	if err != nil {
		return err
	}
	status, msg := http.StatusOK, ""
	if failed != nil {
		status, msg = failed.Status, failed.Message
	}
	s.render(w, status, "admin.html", struct {
		pageData
		C        store.Contest
		Users    []store.User
		Subs     []store.Submission
		Matches  []store.Match
		Versions listing
		All      listing
		Own      map[string]store.Submission // the people's active and staged versions, by id
		Actions  []store.Action              // the organisers' newest actions
	}{s.base(r, c, ct.Name+" · organiser", msg), ct, users, subs.Items, ms.Items,
		newListing("/c/"+ct.Name+"/admin/versions", store.List{}, subs.Older, store.Cursor{}, false),
		newListing("/c/"+ct.Name+"/admin/matches", store.List{}, ms.Older, store.Cursor{}, true), own, actions})
	return nil
}

// optionArgs are a contest's options as judge play's --opt flags, in order.
func optionArgs(opts map[string]string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		out = append(out, "--opt", k+"="+opts[k])
	}
	return out
}
