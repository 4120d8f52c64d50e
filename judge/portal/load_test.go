package portal_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/contest/store"
)

// TestPortalLoad is the load test (make load-portal; skipped unless JUDGE_PORTAL_LOAD is set
// to a duration): 50 contestants at once, each in a loop for that long, upload a version
// (one in four does not compile), wait for its verdict, make it active, ask for a test
// match, wait for it, and read their pages, through the API and a logged-in browser session.
// Every upload must reach a final status (nothing lost), no answer may carry another
// contestant's secret, and it reports the latency of every request (p50, p90, p99, max).
// The judging is the fake daemon's, at once: the load is the portal's and NATS's.
func TestPortalLoad(t *testing.T) {
	t.Parallel()
	spell := os.Getenv("JUDGE_PORTAL_LOAD")
	if spell == "" {
		t.Skip("a load test: make load-portal (JUDGE_PORTAL_LOAD=2m)")
	}
	length, err := time.ParseDuration(spell)
	if err != nil {
		t.Fatalf("JUDGE_PORTAL_LOAD=%q: want a duration", spell)
	}
	const contestants = 50
	e := newEnv(t)
	e.contest("load", func(c *store.Contest) { c.TestQuota = 1 << 20 })
	clients := make([]*client, contestants)
	for i := range clients {
		clients[i] = e.user("load", fmt.Sprintf("c%02d", i), false)
	}
	var mu sync.Mutex
	var latencies []time.Duration
	uploads, finals, leaks, failures := 0, 0, 0, 0
	timed := func(c *http.Client, req *http.Request) (int, []byte) {
		start := time.Now()
		resp, err := c.Do(req)
		if err != nil {
			mu.Lock()
			failures++
			mu.Unlock()
			return 0, nil
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		d := time.Since(start)
		mu.Lock()
		latencies = append(latencies, d)
		mu.Unlock()
		return resp.StatusCode, body
	}
	end := time.Now().Add(length)
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Go(func() {
			jar, _ := cookiejar.New(nil)
			web := &http.Client{Jar: jar}
			form := url.Values{"login": {c.login}, "password": {"password of " + c.login}}
			req, _ := http.NewRequest("POST", e.srv.URL+"/c/load/login", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			timed(web, req)
			mine := "secret-of-" + c.login
			check := func(body []byte) {
				for j := range contestants {
					if j != i && bytes.Contains(body, []byte(fmt.Sprintf("secret-of-c%02d", j))) {
						mu.Lock()
						leaks++
						mu.Unlock()
					}
				}
			}
			api := func(method, path string, body io.Reader, ct string) (int, map[string]any) {
				req, _ := http.NewRequest(method, e.srv.URL+path, body)
				req.Header.Set("Authorization", "Bearer "+c.token)
				if ct != "" {
					req.Header.Set("Content-Type", ct)
				}
				code, data := timed(http.DefaultClient, req)
				check(data)
				var out map[string]any
				json.Unmarshal(data, &out)
				return code, out
			}
			page := func(path string) {
				req, _ := http.NewRequest("GET", e.srv.URL+path, nil)
				_, data := timed(web, req)
				check(data)
			}
			wait := func(path string, done func(map[string]any) bool) bool {
				for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
					if code, out := api("GET", path, nil, ""); code == 200 && done(out) {
						return true
					}
				}
				return false
			}
			for n := 0; time.Now().Before(end); n++ {
				src := fmt.Sprintf("// %s %d echo\nint main() {}\n", mine, n)
				if n%4 == 3 {
					src += "syntax error"
				}
				var buf bytes.Buffer
				mw := multipart.NewWriter(&buf)
				w, _ := mw.CreateFormFile("files", "main.cpp")
				io.WriteString(w, src)
				mw.Close()
				code, out := api("POST", "/api/v1/contests/load/submissions", &buf, mw.FormDataContentType())
				if code != 202 {
					mu.Lock()
					failures++
					mu.Unlock()
					continue
				}
				id := out["id"].(string)
				mu.Lock()
				uploads++
				mu.Unlock()
				var status string
				if wait("/api/v1/submissions/"+id, func(s map[string]any) bool {
					status, _ = s["status"].(string)
					return status == "ready" || status == "compile_error" || status == "rejected"
				}) {
					mu.Lock()
					finals++
					mu.Unlock()
				}
				page("/c/load/")
				page("/c/load/s/" + id)
				if status != "ready" {
					continue
				}
				api("POST", "/api/v1/submissions/"+id+"/activate", nil, "")
				code, out = api("POST", "/api/v1/contests/load/matches", strings.NewReader(`{"opponents":["house:easy"]}`), "application/json")
				if code == 202 {
					m := out["id"].(string)
					wait("/api/v1/matches/"+m, func(x map[string]any) bool { return x["result"] != nil })
					page("/c/load/m/" + m)
				}
			}
		})
	}
	wg.Wait()
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[int(p*float64(len(latencies)-1))] }
	t.Logf("%d contestants for %v: %d uploads, %d reached a final status, %d requests; latency p50 %v, p90 %v, p99 %v, max %v; %d failed requests, %d leaks",
		contestants, length, uploads, finals, len(latencies), pct(.5).Round(time.Microsecond), pct(.9).Round(time.Microsecond),
		pct(.99).Round(time.Microsecond), latencies[len(latencies)-1].Round(time.Microsecond), failures, leaks)
	if finals != uploads {
		t.Errorf("%d of %d uploads never reached a final status", uploads-finals, uploads)
	}
	if leaks > 0 || failures > 0 {
		t.Errorf("%d answers carried another contestant's secret; %d requests failed", leaks, failures)
	}
}
