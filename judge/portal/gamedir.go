package portal

import (
	"net/http"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/game"
)

// gameDirs serves an added game's directory, for contestants' judges.
type gameDirs struct{ *Server }

// gameDir serves the directory of the contest's game when it is an organiser's (game.Directory):
// what judge play needs, as --game DIR, to play it on a contestant's machine. A built-in
// game, in every judge already, has none.
func (s *Server) gameDir(ct store.Contest) (map[string][]byte, bool) {
	g, ok := s.c.Games(ct.Game)
	if !ok {
		return nil, false
	}
	d, ok := g.(game.Directory)
	if !ok {
		return nil, false
	}
	return d.Directory(), true
}

// gameArg is judge play's --game for the contest's game on a contestant's machine: a built-in
// game's name, or an added game's directory as its download unpacks, GAME.game/ (a login has
// no dot: no seat's directory of the same commands is named so).
func gameArg(ct store.Contest, added bool) string {
	if added {
		return ct.Game + ".game/"
	}
	return ct.Game
}

// writeGameDir answers the contest's added game's directory as a .tar.gz: its own paths, or
// (inDir) under GAME.game/ (gameArg).
func (s gameDirs) writeGameDir(w http.ResponseWriter, r *http.Request, c caller, inDir bool) error {
	ct, err := s.engine.Contest(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	files, ok := s.gameDir(ct)
	if !ok {
		return api.Errorf(api.CodeNotFound, "%s is built into the judge: judge play --game %s plays it, with nothing to download", ct.Game, ct.Game)
	}
	dir := ""
	if inDir {
		dir = gameArg(ct, true)
	}
	return writeTarGz(w, ct.Game+".game.tar.gz", dir, texts(files))
}

// apiGameDir is GET /api/v1/contests/{contest}/game.
func (s gameDirs) apiGameDir(w http.ResponseWriter, r *http.Request, c caller) error {
	return s.writeGameDir(w, r, c, false)
}

// gameDirDownload is /c/{contest}/game.tar.gz, the judge and match pages' link.
func (s gameDirs) gameDirDownload(w http.ResponseWriter, r *http.Request, c caller) error {
	return s.writeGameDir(w, r, c, true)
}

// localPlay serves the judge play --local command that plays a match of the contest on a
// contestant's machine: its game (gameArg), options and number of seats, the bot directory
// first in seat 0 and other in every other seat.
func (s *Server) localPlay(ct store.Contest, added bool, first, other string) string {
	args := append([]string{"judge", "play", "--local", "--game", gameArg(ct, added)}, optionArgs(ct.Options)...)
	args = append(args, first)
	for range s.seats(ct) - 1 {
		args = append(args, other)
	}
	return shellArgs(args...)
}

// seats are how many players the contest's matches seat (its validation's, ladder's and
// rounds'); 2 when the game cannot say.
func (s *Server) seats(ct store.Contest) int {
	if _, sz, err := s.engine.Sizes(ct); err == nil && sz.Want > 0 {
		return sz.Want
	}
	return 2
}
