package portal

import (
	"bytes"
	"net/http"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/view"
)

// rulesPages serves the rules of the contest's game.
type rulesPages struct{ *Server }

// rulesPage is /c/{contest}/rules: the rules of the contest's game, a built-in game's page
// (as /rules/GAME) or an added game's own (its manifest's rules).
func (s rulesPages) rulesPage(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, err := s.engine.Contest(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	g, ok := s.c.Games(ct.Game)
	if !ok {
		return api.Errorf(api.CodeNotFound, "the contest's game %s is not one this judge has: ask the organisers", ct.Game)
	}
	var page bytes.Buffer
	if own, ok := g.(game.RulesPage); ok {
		src := own.RulesPage()
		if src == nil {
			return api.Errorf(api.CodeNotFound, "%s, the organisers' own game, has no rules page: ask them, or read its directory (the judge page)", ct.Game)
		}
		err = view.WriteRulesOf(&page, ct.Game, src)
	} else if found, werr := view.WriteRules(&page, ct.Game); !found {
		return api.Errorf(api.CodeNotFound, "%s has no rules page", ct.Game)
	} else {
		err = werr
	}
	if err != nil {
		return err
	}
	view.WriteRulesResponse(w, page.Bytes())
	return nil
}
