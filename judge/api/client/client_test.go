package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/botjudge/judge/judge/api"
)

// A portal's refusal reaches the caller as the portal said it, typed; what is not the
// portal's answer (a proxy's page) keeps its status and text; pages are followed to the last;
// an upload carries the token, the archive and the language.
func TestClientAgainstAServer(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/submissions/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(api.Failure{Error: api.Errorf(api.CodeNotFound, "no such thing here")})
	})
	mux.HandleFunc("GET /api/v1/matches/{id}", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "<html>bad gateway</html>", http.StatusBadGateway)
	})
	mux.HandleFunc("GET /api/v1/contests/spring/submissions", func(w http.ResponseWriter, r *http.Request) {
		page := api.Submissions{Submissions: []api.Submission{{ID: "s3", Version: 3}, {ID: "s2", Version: 2}}, Next: "c2"}
		if r.URL.Query().Get("cursor") == "c2" {
			page = api.Submissions{Submissions: []api.Submission{{ID: "s1", Version: 1}}}
		}
		json.NewEncoder(w).Encode(page)
	})
	mux.HandleFunc("POST /api/v1/contests/spring/submissions", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok" {
			w.WriteHeader(http.StatusUnauthorized)
			json.NewEncoder(w).Encode(api.Failure{Error: api.Errorf(api.CodeUnauthorized, "log in")})
			return
		}
		f, _, err := r.FormFile("archive")
		if err != nil {
			t.Errorf("no archive: %v", err)
			return
		}
		data, _ := io.ReadAll(f)
		w.WriteHeader(http.StatusAccepted)
		json.NewEncoder(w).Encode(api.Uploaded{ID: fmt.Sprintf("%s-%s", data, r.FormValue("lang")), Version: 4, Status: api.StatusQueued})
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx := context.Background()
	c := &Client{URL: srv.URL, Token: "tok"}

	_, _, err := c.Submission(ctx, "x")
	var ae *api.Error
	if !errors.As(err, &ae) || ae.Status != 404 || ae.Code != api.CodeNotFound || err.Error() != "the portal answers 404 not_found: no such thing here" {
		t.Errorf("a refusal: %v (%+v)", err, ae)
	}
	_, _, err = c.Match(ctx, "x")
	if !errors.As(err, &ae) || ae.Status != 502 || err.Error() != "the portal answers 502 Bad Gateway: <html>bad gateway</html>" {
		t.Errorf("a proxy's page: %v", err)
	}
	all, err := c.AllSubmissions(ctx, "spring")
	if err != nil || len(all) != 3 || all[2].ID != "s1" {
		t.Errorf("every page: %v %+v", err, all)
	}
	up, raw, err := c.Upload(ctx, "spring", []byte("tgz"), "cpp")
	if err != nil || up.ID != "tgz-cpp" || up.Version != 4 || len(raw) == 0 {
		t.Errorf("an upload: %v %+v", err, up)
	}
	_, _, err = (&Client{URL: srv.URL, Token: "other"}).Upload(ctx, "spring", nil, "")
	if !errors.As(err, &ae) || ae.Code != api.CodeUnauthorized {
		t.Errorf("a wrong token: %v", err)
	}
}
