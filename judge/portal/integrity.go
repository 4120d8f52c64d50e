package portal

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/store"
)

// integrityPages serve a contest's integrity check (contest.Engine.Similar) to its organisers:
// the pairs of contestants alike, each pair's passages side by side, and their verdicts. To
// anyone else none of it exists (404).
type integrityPages struct{ *Server }

// minOf is the request's ?min= (0 when none).
func minOf(r *http.Request) (float64, error) {
	v := r.URL.Query().Get("min")
	if v == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, api.Errorf(api.CodeBadRequest, "min %q: want a score from 0 to 1", v)
	}
	return f, nil
}

// apiSimilar is GET /api/v1/contests/{contest}/similar[?min=SCORE][&all=1]: all=1 reads every
// replay not read yet before answering (else as far as the background has).
func (s integrityPages) apiSimilar(w http.ResponseWriter, r *http.Request, c caller) error {
	min, err := minOf(r)
	if err != nil {
		return err
	}
	out, err := s.engine.Similar(r.Context(), c.actor(), r.PathValue("contest"), min, r.URL.Query().Get("all") != "")
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// apiMarkSimilar is PUT /api/v1/contests/{contest}/similar/{a}/{b} {"verdict", "exclude",
// "include"}.
func (s integrityPages) apiMarkSimilar(w http.ResponseWriter, r *http.Request, c caller) error {
	var v api.SimilarVerdict
	if err := decodeBody(r, &v, `{"verdict": "cleared" or "confirmed" or "", "exclude": [LOGIN], "include": [LOGIN]}`); err != nil {
		return err
	}
	ct, err := s.engine.MarkSimilar(r.Context(), c.actor(), r.PathValue("contest"), r.PathValue("a"), r.PathValue("b"), v)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"similar": ct.Similar, "excluded": ct.Excluded})
	return nil
}

func (s integrityPages) similarPage(w http.ResponseWriter, r *http.Request, c caller) error {
	min, err := minOf(r)
	if err != nil {
		return err
	}
	out, err := s.engine.Similar(r.Context(), c.actor(), r.PathValue("contest"), min, false)
	if err != nil {
		return err
	}
	s.render(w, http.StatusOK, "similar.html", struct {
		pageData
		S   api.Similarity
		Min float64
	}{s.base(r, c, "Integrity check", ""), out, min})
	return nil
}

// sidePassage is a passage in common, as the pair's page shows it: A's lines beside B's.
type sidePassage struct {
	api.SimilarRegion
	A, B []numbered
}

type numbered struct {
	N    int
	Text string
}

// linesOf are lines from to to (from 1) of text, numbered.
func linesOf(text string, from, to int) []numbered {
	ls := strings.Split(text, "\n")
	var out []numbered
	for n := max(from, 1); n <= min(to, len(ls)); n++ {
		out = append(out, numbered{n, ls[n-1]})
	}
	return out
}

// similarPairPage is two contestants' passages in common side by side, the matches where they
// played alike, and the verdict's form.
func (s integrityPages) similarPairPage(w http.ResponseWriter, r *http.Request, c caller) error {
	contest, a, b := r.PathValue("contest"), r.PathValue("a"), r.PathValue("b")
	out, err := s.engine.Similar(r.Context(), c.actor(), contest, 0, false)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(out.Pairs, func(p api.SimilarPair) bool { return p.A == a && p.B == b || p.A == b && p.B == a })
	if i < 0 {
		return api.Errorf(api.CodeNotFound, "%s and %s are not a pair the check found alike", a, b)
	}
	p := out.Pairs[i]
	var passages []sidePassage
	if p.VersionA > 0 && p.VersionB > 0 {
		srcA, err := s.engine.SimilarSources(r.Context(), c.actor(), contest, p.A, p.VersionA)
		if err != nil {
			return err
		}
		srcB, err := s.engine.SimilarSources(r.Context(), c.actor(), contest, p.B, p.VersionB)
		if err != nil {
			return err
		}
		for _, rg := range p.Regions {
			passages = append(passages, sidePassage{rg, linesOf(srcA[rg.FileA], rg.FromA, rg.ToA), linesOf(srcB[rg.FileB], rg.FromB, rg.ToB)})
		}
	}
	s.render(w, http.StatusOK, "similar-pair.html", struct {
		pageData
		P         api.SimilarPair
		Passages  []sidePassage
		Baseline  *float64
		ExcludedA bool
		ExcludedB bool
		Cleared   string
		Confirmed string
	}{s.base(r, c, "Integrity check: "+p.A+" and "+p.B, ""), p, passages, out.Baseline,
		slices.Contains(out.Excluded, p.A), slices.Contains(out.Excluded, p.B), store.SimilarCleared, store.SimilarConfirmed})
	return nil
}

// markSimilarPage takes the pair page's form: verdict, and exclude or include a login.
func (s integrityPages) markSimilarPage(w http.ResponseWriter, r *http.Request, c caller) error {
	contest, a, b := r.PathValue("contest"), r.PathValue("a"), r.PathValue("b")
	v := api.SimilarVerdict{Verdict: r.PostFormValue("verdict")}
	if l := r.PostFormValue("exclude"); l != "" {
		v.Exclude = []string{l}
	}
	if l := r.PostFormValue("include"); l != "" {
		v.Include = []string{l}
	}
	if _, err := s.engine.MarkSimilar(r.Context(), c.actor(), contest, a, b, v); err != nil {
		return err
	}
	s.back(w, r, c.Session.CSRF, "/c/"+contest+"/admin/similar/"+a+"/"+b, "Kept, and written in the organisers' log.")
	return nil
}
