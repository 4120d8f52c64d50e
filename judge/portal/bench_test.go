package portal_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/match/matchtest"
	"github.com/botjudge/judge/judge/submission"
)

// samples is how many uploads each figure is made of.
const samples = 20

// BenchmarkUploadToVerdict measures, on a real portal, NATS and daemon (make bench-portal),
// the time from an upload's request to its compile result (a version that does not compile)
// and to its validation result (one that does), each over 20 fresh sources (no build cache),
// median and p90; and, as the baseline, the same compilations made directly with the
// builder, and the same validation matches played directly with the runner.
func BenchmarkUploadToVerdict(b *testing.B) {
	ctx, q, st, srv := realPortal(b)
	bot, err := os.ReadFile(filepath.Join("..", "..", "bots", "amazes", "cpp", "bot.cpp"))
	if err != nil {
		b.Fatal(err)
	}
	house := []contest.HouseBot{{Name: "easy", Lang: "cpp", Files: map[string][]byte{"bot.cpp": bot}}}
	if _, err := contest.New(contest.Config{Store: st, Queue: q, Games: games.Lookup}).NewContest(ctx, contest.HostActor(),
		store.Contest{Name: "bench", Game: "amazes", TestQuota: 1}, house); err != nil {
		b.Fatal(err)
	}
	nu, err := st.AddUser(ctx, "bench", "alice", false)
	if err != nil {
		b.Fatal(err)
	}
	sourceOf := func(kind string, i int) string {
		if kind == "compile" {
			return fmt.Sprintf("// %d %d\nint main() { not C++ }\n", time.Now().UnixNano(), i)
		}
		return fmt.Sprintf("// %d %d\n%s", time.Now().UnixNano(), i, bot)
	}
	timeUpload := func(src string, final ...string) time.Duration {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		w, _ := mw.CreateFormFile("files", "bot.cpp")
		io.WriteString(w, src)
		mw.Close()
		start := time.Now()
		req, _ := http.NewRequest("POST", srv.URL+"/api/v1/contests/bench/submissions", &buf)
		req.Header.Set("Authorization", "Bearer "+nu.Token)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		for {
			req, _ := http.NewRequest("GET", srv.URL+"/api/v1/submissions/"+out["id"].(string), nil)
			req.Header.Set("Authorization", "Bearer "+nu.Token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			var sub map[string]any
			json.NewDecoder(resp.Body).Decode(&sub)
			resp.Body.Close()
			if slices.Contains(final, sub["status"].(string)) {
				return time.Since(start)
			}
			if time.Since(start) > 3*time.Minute {
				b.Fatalf("status %v after 3 minutes", sub["status"])
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	runner := matchtest.Runner(b)
	amazes, _ := games.Lookup("amazes")
	direct := func(kind, src string) time.Duration {
		start := time.Now()
		sub := submission.Submission{Lang: "cpp", Files: map[string][]byte{"bot.cpp": []byte(src)}}
		if kind == "compile" {
			if _, err := runner.Builder.Build(ctx, sub); err != nil {
				b.Fatal(err)
			}
			return time.Since(start)
		}
		house := submission.Submission{Lang: "cpp", Files: map[string][]byte{"bot.cpp": bot}}
		if _, err := runner.Play(ctx, match.Job{ID: "direct", Game: amazes, Seed: 1,
			Players: []match.Entrant{{Name: "alice", Submission: sub}, {Name: "house:easy", Submission: house}}}); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	stats := func(ds []time.Duration) (time.Duration, time.Duration) {
		slices.Sort(ds)
		return ds[len(ds)/2], ds[(len(ds)*9+9)/10-1]
	}
	for b.Loop() {
		for _, kind := range []string{"compile", "validation"} {
			var portalTimes, baseTimes []time.Duration
			for i := range samples {
				final := []string{"compile_error"}
				if kind == "validation" {
					final = []string{"ready", "rejected"}
				}
				portalTimes = append(portalTimes, timeUpload(sourceOf(kind, i), final...))
				baseTimes = append(baseTimes, direct(kind, sourceOf(kind, i)))
			}
			pm, p90 := stats(portalTimes)
			bm, b90 := stats(baseTimes)
			b.ReportMetric(float64(pm.Milliseconds()), kind+"-median-ms")
			b.ReportMetric(float64(p90.Milliseconds()), kind+"-p90-ms")
			b.ReportMetric(float64(bm.Milliseconds()), kind+"-direct-median-ms")
			b.ReportMetric(float64(b90.Milliseconds()), kind+"-direct-p90-ms")
			b.ReportMetric(float64(pm)/float64(bm), kind+"-median-ratio")
		}
	}
}

// BenchmarkLadderMatch is the portal's own cost of a ladder match: picking it, storing and
// queueing it, and rating its result, with the queue (the embedded NATS server) and a
// daemon that judges every job at once - so that a match costs only what the portal and the
// queue do. 8 contestants, the default settings; ns/op is the time per rated match.
func BenchmarkLadderMatch(b *testing.B) {
	e := newEnv(b)
	e.contest("bench", func(c *store.Contest) { c.Ladder = true })
	for i := range 8 {
		e.user("bench", fmt.Sprintf("c%d", i), false).activeVersion("bench", fmt.Sprintf("int main() { /* strength %d */ }", i))
	}
	rated := func() int {
		st, _ := e.st.Ladder(b.Context(), "bench")
		return st.Rated
	}
	for rated() < 10 { // the ladder is running
		time.Sleep(10 * time.Millisecond)
	}
	start := rated()
	b.ResetTimer()
	for rated() < start+b.N {
		time.Sleep(time.Millisecond)
	}
}
