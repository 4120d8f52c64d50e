package portal

import (
	"net/http"
	"strings"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/store"
)

// starterPages serves the starter bots.
type starterPages struct{ *Server }

// starters are the contest's languages (the judge's order) in which its game has a sample
// bot: a contestant's first bot, with nothing but the portal (docs/contestant.md).
func (s *Server) starters(ct store.Contest) []string {
	g, ok := s.c.Games(ct.Game)
	if !ok || s.c.Starter == nil {
		return nil
	}
	var out []string
	for _, lang := range s.c.Langs {
		if _, ok := s.c.Starter(g, lang); ok && ct.AllowsLang(lang) {
			out = append(out, lang)
		}
	}
	return out
}

// starter serves the contest's starter bot in lang (Config.Starter), or not_found naming the
// languages it has one in.
func (s starterPages) starter(ct store.Contest, lang string) (map[string][]byte, error) {
	if g, ok := s.c.Games(ct.Game); ok && s.c.Starter != nil && ct.AllowsLang(lang) {
		if files, ok := s.c.Starter(g, lang); ok {
			return files, nil
		}
	}
	have := "none"
	if langs := s.starters(ct); len(langs) > 0 {
		have = strings.Join(langs, ", ")
	}
	return nil, api.Errorf(api.CodeNotFound, "no starter bot in %q for this contest (%s): it has one in %s", lang, ct.Game, have)
}

// writeStarter answers the starter in lang as a .tar.gz of its files: their own paths, or
// (inDir) under GAME-LANG/, a directory of its own, so that unpacking it overwrites no bot of
// the contestant's.
func (s starterPages) writeStarter(w http.ResponseWriter, r *http.Request, c caller, lang string, inDir bool) error {
	ct, err := s.engine.Contest(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	files, err := s.starter(ct, lang)
	if err != nil {
		return err
	}
	dir := ""
	if inDir {
		dir = ct.Game + "-" + lang + "/"
	}
	return writeTarGz(w, ct.Game+"-"+lang+".tar.gz", dir, texts(files))
}

// apiStarter is GET /api/v1/contests/{contest}/starters/{lang}: plain file names, as a
// version's sources are.
func (s starterPages) apiStarter(w http.ResponseWriter, r *http.Request, c caller) error {
	return s.writeStarter(w, r, c, r.PathValue("lang"), false)
}

// starterDownload serves the judge page's link, /c/{contest}/starter/{lang}.tar.gz.
func (s starterPages) starterDownload(w http.ResponseWriter, r *http.Request, c caller) error {
	lang, _ := strings.CutSuffix(r.PathValue("lang"), ".tar.gz")
	return s.writeStarter(w, r, c, lang, true)
}
