package portal_test

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/result"
)

// BenchmarkListPages is a page of each list (issue #37) in a contest of 1,000 matches and
// then of 100,000, over the real HTTP server, the embedded NATS server and the store: the
// API's first page of a contestant's matches (mine=1) and of everyone's (an organiser's),
// a contestant's 10th page (the last, with 1,000), the home page, the organiser's page; and
// cold-store, a contestant's first page from a store that has not listed anything yet (its
// watcher loads every index key first, as a portal's first list does). Beside them, "before": the
// same contestant's whole list as the portal read it before it was paged (every index key
// listed, then every record read, one KV get each, and sorted). The matches are stored
// straight through the store, as the portal stores them (store.AddMatch, 16 at once): 70%
// ladder matches of two of the 20 contestants, 20% test matches, 10% validations.
//
//	go test ./judge/portal/ -run '^$' -bench BenchmarkListPages -benchtime 2s
func BenchmarkListPages(b *testing.B) {
	e := newEnv(b)
	e.contest("bench", nil)
	const contestants = 20
	var cs []*client
	for i := range contestants {
		cs = append(cs, e.user("bench", fmt.Sprintf("c%d", i), false))
	}
	olga := e.user("bench", "olga", true)
	kv, err := e.q.KeyValue(b.Context(), "portal")
	if err != nil {
		b.Fatal(err)
	}

	stored := 0
	fill := func(n int) {
		start := time.Now()
		var next atomic.Int64
		next.Store(int64(stored))
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				rnd := rand.New(rand.NewPCG(uint64(next.Load()), 1))
				for next.Add(1) <= int64(n) {
					a, o := rnd.IntN(contestants), rnd.IntN(contestants-1)
					if o >= a {
						o++
					}
					m := store.Match{Contest: "bench", Seed: rnd.Uint64()}
					switch k := rnd.IntN(10); {
					case k < 7:
						m.ID, m.Kind, m.Seats = store.NewID("l"), store.KindLadder, []store.Seat{{Login: cs[a].login}, {Login: cs[o].login}}
					case k < 9:
						m.Kind, m.Owner, m.Seats = store.KindTest, cs[a].login, []store.Seat{{Login: cs[a].login}, {House: "easy"}}
					default:
						m.ID, m.Kind, m.Owner, m.Seats = store.NewID("s")+"v", store.KindValidation, cs[a].login, []store.Seat{{Login: cs[a].login}, {House: "easy"}}
					}
					m.Result = &result.Result{Version: result.Version, Status: result.StatusOK, Seed: m.Seed}
					for _, s := range m.Seats {
						m.Result.Players = append(m.Result.Players, result.Player{Name: s.Name(), Lang: "cpp", Rank: 1,
							Build: result.Build{OK: true, Log: "warning: unused variable"}, Stderr: "turn 1: exploring"})
					}
					if _, err := e.st.AddMatch(b.Context(), m); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		b.Logf("stored %d matches in %v", n-stored, time.Since(start).Round(time.Millisecond))
		stored = n
	}
	get := func(b *testing.B, c *client, path string, token bool) []byte {
		req, _ := http.NewRequest("GET", e.srv.URL+path, nil)
		hc := c.web
		if token {
			req.Header.Set("Authorization", "Bearer "+c.token)
			hc = http.DefaultClient
		}
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			b.Fatalf("%s: %d %s", path, resp.StatusCode, body)
		}
		return body
	}
	// before is the whole list as Store.Matches read it before #37.
	before := func(b *testing.B, login string) int {
		keys, err := kv.Keys(b.Context(), "own.bench."+login+".m.*.*")
		if err != nil {
			b.Fatal(err)
		}
		var ms []store.Match
		for _, k := range keys {
			e, err := kv.Get(b.Context(), k)
			if err != nil {
				b.Fatal(err)
			}
			var id string
			json.Unmarshal(e.Value, &id)
			rec, err := kv.Get(b.Context(), "match."+id)
			if err != nil {
				b.Fatal(err)
			}
			var m store.Match
			json.Unmarshal(rec.Value, &m)
			ms = append(ms, m)
		}
		slices.SortFunc(ms, func(a, b store.Match) int { return b.Created.Compare(a.Created) })
		return len(ms)
	}

	for _, size := range []int{1000, 100000} {
		fill(size)
		c0 := cs[0]
		deep := "" // the cursor of c0's 10th page, or of the last when there are fewer
		for range 9 {
			var out struct{ Next string }
			json.Unmarshal(get(b, c0, "/api/v1/contests/bench/matches?mine=1&cursor="+deep, true), &out)
			if out.Next == "" {
				break
			}
			deep = out.Next
		}
		for _, bm := range []struct {
			name  string
			c     *client
			path  string
			token bool
		}{
			{"api-mine", c0, "/api/v1/contests/bench/matches?mine=1", true},
			{"api-mine-deep", c0, "/api/v1/contests/bench/matches?mine=1&cursor=" + deep, true},
			{"api-mine-test", c0, "/api/v1/contests/bench/matches?mine=1&kind=test", true},
			{"api-everyone", olga, "/api/v1/contests/bench/matches", true},
			{"home", c0, "/c/bench/", false},
			{"organiser", olga, "/c/bench/admin", false},
		} {
			b.Run(fmt.Sprintf("matches=%d/%s", size, bm.name), func(b *testing.B) {
				for b.Loop() {
					get(b, bm.c, bm.path, bm.token)
				}
			})
		}
		// A portal's first list: its watcher loads every index key (index.go).
		b.Run(fmt.Sprintf("matches=%d/cold-store", size), func(b *testing.B) {
			for b.Loop() {
				cold := store.New(kv)
				if _, err := cold.MatchPage(b.Context(), "bench", c0.login, store.List{Limit: 50}); err != nil {
					b.Fatal(err)
				}
				cold.Close()
			}
		})
		b.Run(fmt.Sprintf("matches=%d/before", size), func(b *testing.B) {
			n := 0
			for b.Loop() {
				n = before(b, c0.login)
			}
			b.ReportMetric(float64(n), "matches")
		})
	}
}
