package portal_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
)

// browser is a cookie-keeping HTTP client that remembers where it ended up.
type browser struct {
	e       *env
	c       *http.Client
	csrf    string
	lastURL string
	header  http.Header
}

func newBrowser(e *env) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{e: e, c: &http.Client{Jar: jar}}
}

func (b *browser) do(req *http.Request) (int, string) {
	b.e.t.Helper()
	resp, err := b.c.Do(req)
	if err != nil {
		b.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	b.lastURL, b.header = resp.Request.URL.String(), resp.Header
	return resp.StatusCode, string(data)
}

func (b *browser) get(path string) (int, string) {
	req, _ := http.NewRequest("GET", b.e.srv.URL+path, nil)
	return b.do(req)
}

func (b *browser) post(path string, form url.Values, csrf bool) (int, string) {
	if csrf {
		form.Set("csrf", b.csrf)
	}
	req, _ := http.NewRequest("POST", b.e.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}
