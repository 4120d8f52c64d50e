package portal

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/view"
)

// routes are the portal's pages and API (docs/portal.md). Every request passes
// http.CrossOriginProtection: a form posted from another site is refused before any handler.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	apiRoute := func(pattern string, h func(w http.ResponseWriter, r *http.Request, c caller) error) {
		mux.Handle(pattern, s.api(h))
	}
	apiRoute("POST /api/v1/contests/{contest}/submissions", apiV1{s}.apiSubmit)
	apiRoute("GET /api/v1/contests/{contest}/submissions", apiV1{s}.apiSubmissions)
	apiRoute("GET /api/v1/submissions/{id}", apiV1{s}.apiSubmission)
	apiRoute("GET /api/v1/submissions/{id}/source", apiV1{s}.apiSource)
	apiRoute("POST /api/v1/submissions/{id}/activate", apiV1{s}.apiActivate)
	apiRoute("POST /api/v1/submissions/{id}/stage", apiV1{s}.apiStage)
	apiRoute("POST /api/v1/contests/{contest}/matches", apiV1{s}.apiAskMatch)
	apiRoute("GET /api/v1/contests/{contest}/matches", apiV1{s}.apiMatches)
	apiRoute("GET /api/v1/matches/{id}", apiV1{s}.apiMatch)
	apiRoute("GET /api/v1/matches/{id}/replay", s.apiReplay)
	apiRoute("GET /api/v1/matches/{id}/live", s.apiLive)
	apiRoute("GET /api/v1/contests/{contest}/leaderboard", apiV1{s}.apiLeaderboard)
	apiRoute("GET /api/v1/contests/{contest}/stats", apiV1{s}.apiStats)
	apiRoute("GET /api/v1/contests/{contest}/starters/{lang}", starterPages{s}.apiStarter)
	apiRoute("GET /api/v1/contests/{contest}/game", gameDirs{s}.apiGameDir)
	apiRoute("POST /api/v1/contests/{contest}/rounds", roundPages{s}.apiStartRound)
	apiRoute("GET /api/v1/contests/{contest}/rounds", roundPages{s}.apiRounds)
	apiRoute("GET /api/v1/rounds/{id}", roundPages{s}.apiRound)
	apiRoute("GET /api/v1/contests/{contest}", organising{s}.apiContest)
	apiRoute("PUT /api/v1/contests/{contest}/settings", organising{s}.apiSettings)
	apiRoute("GET /api/v1/contests/{contest}/actions", organising{s}.apiActions)
	apiRoute("GET /api/v1/contests/{contest}/similar", integrityPages{s}.apiSimilar)
	apiRoute("PUT /api/v1/contests/{contest}/similar/{a}/{b}", integrityPages{s}.apiMarkSimilar)
	apiRoute("POST /api/v1/contests/{contest}/users", organising{s}.apiAddUser)
	apiRoute("POST /api/v1/contests/{contest}/users/{login}/reset", organising{s}.apiResetUser)
	apiRoute("DELETE /api/v1/contests/{contest}/users/{login}", organising{s}.apiRemoveUser)
	apiRoute("POST /api/v1/contests/{contest}/close", organising{s}.apiCloseContest)
	apiRoute("POST /api/v1/contests/{contest}/house", organising{s}.apiAddHouse)
	apiRoute("POST /api/v1/contests", organising{s}.apiNewContest)
	apiRoute("POST /api/v1/tokens", accounts{s}.apiNewToken)
	apiRoute("GET /api/v1/tokens", accounts{s}.apiTokens)
	apiRoute("DELETE /api/v1/tokens/{id}", accounts{s}.apiRevokeToken)
	apiRoute("POST /api/v1/password", accounts{s}.apiPassword)
	mux.Handle("/api/", s.api(func(http.ResponseWriter, *http.Request, caller) error { return errNotFound }))

	page := func(pattern string, h func(w http.ResponseWriter, r *http.Request, c caller) error) {
		mux.Handle(pattern, s.page(h))
	}
	mux.HandleFunc("GET /c/{contest}/login", webPages{s}.loginPage)
	mux.HandleFunc("POST /c/{contest}/login", webPages{s}.loginPage)
	mux.HandleFunc("GET /invite/{code}", webPages{s}.invitePage)
	mux.HandleFunc("POST /invite/{code}", webPages{s}.invitePage)
	page("POST /c/{contest}/logout", webPages{s}.logout)
	page("GET /c/{contest}/{$}", webPages{s}.home)
	page("POST /c/{contest}/submit", webPages{s}.submitPage)
	page("GET /c/{contest}/s/{id}", webPages{s}.submissionPage)
	page("POST /c/{contest}/s/{id}/activate", webPages{s}.activatePage)
	page("POST /c/{contest}/s/{id}/stage", webPages{s}.stagePage)
	page("POST /c/{contest}/matches", webPages{s}.askMatchPage)
	page("GET /c/{contest}/matches", listPages{s}.matchesPage)
	page("GET /c/{contest}/versions", listPages{s}.versionsPage)
	page("GET /c/{contest}/m/{id}", webPages{s}.matchPage)
	page("GET /c/{contest}/m/{id}/view", webPages{s}.viewPage)
	page("GET /c/{contest}/m/{id}/watch", webPages{s}.watchPage)
	page("GET /c/{contest}/m/{id}/compare/{other}", webPages{s}.comparePage)
	page("GET /c/{contest}/m/{id}/compare/{other}/view", webPages{s}.compareViewPage)
	page("GET /c/{contest}/m/{id}/replay", webPages{s}.replayDownload)
	page("GET /c/{contest}/rounds", roundPages{s}.roundsPage)
	page("POST /c/{contest}/rounds", roundPages{s}.startRoundPage)
	page("GET /c/{contest}/rounds/{id}", roundPages{s}.roundPage)
	page("GET /c/{contest}/rounds/{id}/projector", roundPages{s}.projectorPage)
	page("GET /c/{contest}/admin/rounds/{id}", roundPages{s}.exportRound)
	page("GET /c/{contest}/ladder", ladderPages{s}.leaderboardPage)
	page("GET /c/{contest}/stats", ladderPages{s}.statsPage)
	page("GET /c/{contest}/ladder/{login}", ladderPages{s}.ladderPlayerPage)
	page("GET /c/{contest}/account", accounts{s}.accountPage)
	page("GET /c/{contest}/judge", downloadPages{s}.judgePage)
	page("GET /c/{contest}/rules", rulesPages{s}.rulesPage)
	page("POST /c/{contest}/account/password", accounts{s}.passwordPage)
	page("POST /c/{contest}/account/tokens", accounts{s}.newTokenPage)
	page("POST /c/{contest}/account/tokens/{id}/revoke", accounts{s}.revokeTokenPage)
	page("GET /c/{contest}/admin", webPages{s}.adminPage)
	page("GET /c/{contest}/admin/tournament.tar.gz", webPages{s}.exportTournament)
	page("GET /c/{contest}/admin/matches", listPages{s}.adminMatchesPage)
	page("GET /c/{contest}/admin/versions", listPages{s}.adminVersionsPage)
	page("GET /c/{contest}/admin/similar", integrityPages{s}.similarPage)
	page("GET /c/{contest}/admin/similar/{a}/{b}", integrityPages{s}.similarPairPage)
	page("POST /c/{contest}/admin/similar/{a}/{b}", integrityPages{s}.markSimilarPage)
	page("POST /c/{contest}/admin/users", organising{s}.adminUserPage)
	page("POST /c/{contest}/admin/users/{login}/reset", organising{s}.adminResetPage)
	page("POST /c/{contest}/admin/users/{login}/remove", organising{s}.adminRemovePage)
	page("POST /c/{contest}/admin/close", organising{s}.adminClosePage)
	page("POST /c/{contest}/admin/settings", organising{s}.adminSettingsPage)
	page("POST /c/{contest}/admin/house", organising{s}.adminHousePage)
	page("POST /c/{contest}/admin/contests", organising{s}.adminContestPage)
	page("GET /c/{contest}/house/{name}", organising{s}.houseDownload)
	page("GET /c/{contest}/starter/{lang}", starterPages{s}.starterDownload)
	page("GET /c/{contest}/game.tar.gz", gameDirs{s}.gameDirDownload)
	mux.Handle("GET /static/", http.StripPrefix("/static/", s.static()))
	mux.HandleFunc("GET /downloads/{file}", downloadPages{s}.downloadFile)
	mux.HandleFunc("GET /rules/{name}", view.ServeRules) // public, as the games are
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		if c, err := s.who(r); err == nil {
			http.Redirect(w, r, "/c/"+c.Contest+"/", http.StatusSeeOther)
			return
		}
		s.errorPage(w, r, caller{}, api.Errorf(api.CodeNotFound, "open your contest's page (/c/CONTEST/) or your invite link"))
	})
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(s.crossOrigin))
	return cop.Handler(mux)
}

// crossOrigin answers a request CrossOriginProtection refused as any other refusal: the
// contract's JSON error under /api/, a page elsewhere (its own would be a line of plain text).
func (s *Server) crossOrigin(w http.ResponseWriter, r *http.Request) {
	err := api.Errorf(api.CodeCrossOrigin, "the request came from another site: the portal takes changes only from its own pages and from scripts")
	if strings.HasPrefix(r.URL.Path, "/api/") {
		s.writeError(w, err)
		return
	}
	s.errorPage(w, r, caller{}, err)
}

func itoa(n int) string    { return strconv.Itoa(n) }
func utoa(n uint64) string { return strconv.FormatUint(n, 10) }

// cmpErr is err, or other when err is nil.
func cmpErr(err, other error) error {
	if err != nil {
		return err
	}
	return other
}
