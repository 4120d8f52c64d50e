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
	apiRoute("POST /api/v1/contests/{contest}/submissions", s.apiSubmit)
	apiRoute("GET /api/v1/contests/{contest}/submissions", s.apiSubmissions)
	apiRoute("GET /api/v1/submissions/{id}", s.apiSubmission)
	apiRoute("GET /api/v1/submissions/{id}/source", s.apiSource)
	apiRoute("POST /api/v1/submissions/{id}/activate", s.apiActivate)
	apiRoute("POST /api/v1/submissions/{id}/stage", s.apiStage)
	apiRoute("POST /api/v1/contests/{contest}/matches", s.apiAskMatch)
	apiRoute("GET /api/v1/contests/{contest}/matches", s.apiMatches)
	apiRoute("GET /api/v1/matches/{id}", s.apiMatch)
	apiRoute("GET /api/v1/matches/{id}/replay", s.apiReplay)
	apiRoute("GET /api/v1/contests/{contest}/leaderboard", s.apiLeaderboard)
	apiRoute("GET /api/v1/contests/{contest}/starters/{lang}", s.apiStarter)
	apiRoute("GET /api/v1/contests/{contest}/game", s.apiGameDir)
	apiRoute("POST /api/v1/contests/{contest}/rounds", s.apiStartRound)
	apiRoute("GET /api/v1/contests/{contest}/rounds", s.apiRounds)
	apiRoute("GET /api/v1/rounds/{id}", s.apiRound)
	apiRoute("GET /api/v1/contests/{contest}", s.apiContest)
	apiRoute("PUT /api/v1/contests/{contest}/settings", s.apiSettings)
	apiRoute("GET /api/v1/contests/{contest}/actions", s.apiActions)
	apiRoute("POST /api/v1/contests/{contest}/users", s.apiAddUser)
	apiRoute("POST /api/v1/contests/{contest}/users/{login}/reset", s.apiResetUser)
	apiRoute("DELETE /api/v1/contests/{contest}/users/{login}", s.apiRemoveUser)
	apiRoute("POST /api/v1/contests/{contest}/close", s.apiCloseContest)
	apiRoute("POST /api/v1/contests/{contest}/house", s.apiAddHouse)
	apiRoute("POST /api/v1/contests", s.apiNewContest)
	apiRoute("POST /api/v1/tokens", s.apiNewToken)
	apiRoute("GET /api/v1/tokens", s.apiTokens)
	apiRoute("DELETE /api/v1/tokens/{id}", s.apiRevokeToken)
	apiRoute("POST /api/v1/password", s.apiPassword)
	mux.Handle("/api/", s.api(func(http.ResponseWriter, *http.Request, caller) error { return errNotFound }))

	page := func(pattern string, h func(w http.ResponseWriter, r *http.Request, c caller) error) {
		mux.Handle(pattern, s.page(h))
	}
	mux.HandleFunc("GET /c/{contest}/login", s.loginPage)
	mux.HandleFunc("POST /c/{contest}/login", s.loginPage)
	mux.HandleFunc("GET /invite/{code}", s.invitePage)
	mux.HandleFunc("POST /invite/{code}", s.invitePage)
	page("POST /c/{contest}/logout", s.logout)
	page("GET /c/{contest}/{$}", s.home)
	page("POST /c/{contest}/submit", s.submitPage)
	page("GET /c/{contest}/s/{id}", s.submissionPage)
	page("POST /c/{contest}/s/{id}/activate", s.activatePage)
	page("POST /c/{contest}/s/{id}/stage", s.stagePage)
	page("POST /c/{contest}/matches", s.askMatchPage)
	page("GET /c/{contest}/matches", s.matchesPage)
	page("GET /c/{contest}/versions", s.versionsPage)
	page("GET /c/{contest}/m/{id}", s.matchPage)
	page("GET /c/{contest}/m/{id}/view", s.viewPage)
	page("GET /c/{contest}/m/{id}/replay", s.replayDownload)
	page("GET /c/{contest}/rounds", s.roundsPage)
	page("POST /c/{contest}/rounds", s.startRoundPage)
	page("GET /c/{contest}/rounds/{id}", s.roundPage)
	page("GET /c/{contest}/admin/rounds/{id}", s.exportRound)
	page("GET /c/{contest}/ladder", s.leaderboardPage)
	page("GET /c/{contest}/ladder/{login}", s.ladderPlayerPage)
	page("GET /c/{contest}/account", s.accountPage)
	page("GET /c/{contest}/judge", s.judgePage)
	page("GET /c/{contest}/rules", s.rulesPage)
	page("POST /c/{contest}/account/password", s.passwordPage)
	page("POST /c/{contest}/account/tokens", s.newTokenPage)
	page("POST /c/{contest}/account/tokens/{id}/revoke", s.revokeTokenPage)
	page("GET /c/{contest}/admin", s.adminPage)
	page("GET /c/{contest}/admin/tournament.tar.gz", s.exportTournament)
	page("GET /c/{contest}/admin/matches", s.adminMatchesPage)
	page("GET /c/{contest}/admin/versions", s.adminVersionsPage)
	page("POST /c/{contest}/admin/users", s.adminUserPage)
	page("POST /c/{contest}/admin/users/{login}/reset", s.adminResetPage)
	page("POST /c/{contest}/admin/users/{login}/remove", s.adminRemovePage)
	page("POST /c/{contest}/admin/close", s.adminClosePage)
	page("POST /c/{contest}/admin/settings", s.adminSettingsPage)
	page("POST /c/{contest}/admin/house", s.adminHousePage)
	page("POST /c/{contest}/admin/contests", s.adminContestPage)
	page("GET /c/{contest}/house/{name}", s.houseDownload)
	page("GET /c/{contest}/starter/{lang}", s.starterDownload)
	page("GET /c/{contest}/game.tar.gz", s.gameDirDownload)
	mux.Handle("GET /static/", http.StripPrefix("/static/", s.static()))
	mux.HandleFunc("GET /downloads/{file}", s.downloadFile)
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
