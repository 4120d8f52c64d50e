package contest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/queue/kv"
	"github.com/botjudge/judge/judge/result"
)

// judge is a fake daemon on q: every build compiles, and every match is judged at once, its
// players ranked by the number after "strength " in their files. A job the real daemon would
// refuse (the game's player count, its options) gets the error result it would give.
func judge(ctx context.Context, q *queue.Queue) {
	for {
		d, err := q.Next(ctx)
		if err != nil {
			return
		}
		j, g, err := job.Parse(d.Data, job.Rules{Game: games.Lookup, Langs: images.LangNames(), MaxSource: 1 << 20})
		res := result.Result{Version: result.Version, ID: j.ID, Game: j.Game, Status: result.StatusOK}
		if err == nil && j.Kind != job.KindBuild {
			opts, _ := j.StringOptions()
			if _, serr := game.Start(g, game.Config{Seed: 1, Players: len(j.Players), Options: opts}); serr != nil {
				err = result.Errorf(result.BadOption, "%v", serr)
			}
		}
		if err != nil {
			res = result.Failed(d.ID, j.Game, 0, err)
		}
		if j.Seed != nil {
			res.Seed = *j.Seed
		}
		strength := make([]int, len(j.Players))
		for i, p := range j.Players {
			for _, f := range p.Files {
				if k := strings.Index(f, "strength "); k >= 0 {
					fmt.Sscanf(f[k:], "strength %d", &strength[i])
				}
			}
			if err == nil {
				res.Players = append(res.Players, result.Player{Name: p.Name, Lang: p.Lang, Build: result.Build{OK: true}})
			}
		}
		for i := range res.Players {
			res.Players[i].Rank, res.Players[i].Score = 1, float64(strength[i])
			for _, o := range strength {
				if o > strength[i] {
					res.Players[i].Rank++
				}
			}
		}
		data, _ := json.Marshal(res)
		q.PublishResult(ctx, d.Lane, res.ID, data)
		d.Ack(ctx)
	}
}

// until waits for cond, failing the test with its last error after a minute.
func until(t *testing.T, what string, cond func() error) {
	t.Helper()
	var err error
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if err = cond(); err == nil {
			return
		}
	}
	t.Fatalf("%s: %v", what, err)
}

// newEngine is an engine on a real NATS server of its own, in the process, and its store.
func newEngine(t *testing.T) (*Engine, *store.Store, *queue.Queue) {
	t.Helper()
	e, st, q, _ := newEngineKV(t)
	return e, st, q
}

// newEngineKV is newEngine with the store's bucket.
func newEngineKV(t *testing.T) (*Engine, *store.Store, *queue.Queue, *kv.Bucket) {
	t.Helper()
	q, err := queue.Open(t.Context(), queue.Options{StoreDir: t.TempDir(), InProcess: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	b, err := q.KeyValue(t.Context(), "portal")
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(b)
	return New(Config{Store: st, Queue: q, Games: games.Lookup}), st, q, b
}

// The contest engine with no web server in front of it: a contest, two contestants' versions
// built, validated with every seat the game needs filled, made active, a test match against
// the house bot, the ladder rating both, a test competition with its standings - each step
// asked of the engine directly, in a two-player game and games of four.
func TestEngineWithoutHTTP(t *testing.T) {
	for _, tc := range []struct {
		game        string
		least, want int
	}{
		{"amazes", 2, 2},
		{"langwars", 4, 4},
		{"snakecore", 2, 4},
	} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			e, st, q := newEngine(t)
			rctx, stop := context.WithCancel(context.Background())
			ran, judged := make(chan struct{}), make(chan struct{})
			go func() { e.Run(rctx); close(ran) }()
			go func() { judge(rctx, q); close(judged) }()
			t.Cleanup(func() { stop(); <-ran; <-judged })

			ct, err := e.NewContest(ctx, HostActor(), store.Contest{Name: "cup", Game: tc.game, TestQuota: 10, Ladder: true,
				LadderSettings: ladder.Settings{InFlight: 2, DisableFaults: 2, DisableWindow: 4}},
				[]HouseBot{{Name: "easy", Lang: "cpp", Files: map[string][]byte{"easy.cpp": []byte("int main() {}")}}})
			if err != nil {
				t.Fatal(err)
			}
			subs := map[string]store.Submission{}
			for login, strength := range map[string]int{"ann": 2, "bob": 1} {
				if _, err := st.AddUser(ctx, "cup", login, false); err != nil {
					t.Fatal(err)
				}
				sub, err := e.Submit(ctx, ct, login, "cpp", map[string][]byte{"main.cpp": fmt.Appendf(nil, "int main() {} // strength %d", strength)})
				if err != nil {
					t.Fatal(err)
				}
				until(t, login+"'s version validated", func() error {
					sub, err = st.Submission(ctx, sub.ID)
					if err == nil && sub.Status != store.Ready {
						err = fmt.Errorf("status %s (%s)", sub.Status, sub.Error)
					}
					return err
				})
				v, err := st.Match(ctx, validationMatch(sub.ID))
				if err != nil || len(v.Seats) != tc.want || v.Seats[0].Login != login || v.Seats[1].House != "easy" {
					t.Errorf("the validation match seats %+v (%v), want %s, the house bot and %d seats", v.Seats, err, login, tc.want)
				}
				if _, err := st.Activate(ctx, sub); err != nil {
					t.Fatal(err)
				}
				subs[login] = sub
			}
			e.Poke()

			_, sz, err := e.Sizes(ct)
			if err != nil || sz.Least != tc.least || sz.Want != tc.want {
				t.Fatalf("sizes %+v, %v; want least %d, want %d", sz, err, tc.least, tc.want)
			}
			own := store.Seat{Login: "ann", Submission: subs["ann"].ID}
			m := store.Match{ID: store.NewID("m"), Contest: "cup", Kind: store.KindTest, Owner: "ann", Seats: FillSeats([]store.Seat{own}, sz.Least, ct.House, own)}
			m.Seed = SeedOf(m.ID)
			if _, err := e.StartMatch(ctx, ct, m); err != nil {
				t.Fatal(err)
			}
			until(t, "the test match", func() error {
				m, err := st.Match(ctx, m.ID)
				switch {
				case err != nil:
					return err
				case m.Result == nil:
					return errors.New("no result yet")
				case m.Result.Status != result.StatusOK || len(m.Result.Players) != tc.least:
					return fmt.Errorf("%s with %d players (%v)", m.Result.Status, len(m.Result.Players), m.Result.Error)
				}
				return nil
			})

			until(t, "the ladder rating both versions", func() error {
				l, err := st.Ladder(ctx, "cup")
				if err != nil {
					return err
				}
				for login, sub := range subs {
					if p := l.Players[sub.ID]; p == nil || p.Matches < 1 {
						return fmt.Errorf("%s not rated yet (%d rated)", login, l.Rated)
					}
				}
				return nil
			})

			r, err := e.StartRound(ctx, HostActor(), ct.Name, api.RoundSpec{Kind: store.RoundTest})
			if err != nil {
				t.Fatal(err)
			}
			until(t, "the test competition", func() error {
				r, err := st.Round(ctx, r.ID)
				switch {
				case err != nil:
					return err
				case r.Status != store.RoundDone:
					return fmt.Errorf("status %s %s", r.Status, r.Error)
				case r.Outcome == nil || len(r.Outcome.Standings) == 0 || r.Outcome.Standings[0].Name != "ann":
					return fmt.Errorf("standings %+v", r.Outcome)
				}
				return nil
			})
			if _, err := e.StartRound(ctx, HostActor(), ct.Name, api.RoundSpec{Kind: store.RoundOfficial}); !errors.Is(err, ErrNotClosed) {
				t.Errorf("an official round before the deadline: %v, want ErrNotClosed", err)
			}
		})
	}
}

// A round of fewer than two versions is refused as too few, whatever house bots could fill.
func TestRoundOfOneIsTooFew(t *testing.T) {
	e := New(Config{Games: games.Lookup})
	r := store.Round{Entrants: []store.Entrant{{Login: "ann"}}}
	err := e.FillRound(t.Context(), store.Contest{Name: "cup", Game: "amazes", House: []store.House{{Name: "easy"}}}, &r)
	if !errors.Is(err, ErrTooFew) || !errors.Is(err, store.ErrConflict) {
		t.Errorf("one entrant: %v, want ErrTooFew (a conflict)", err)
	}
}

// A round's tournament carries how sure its standings are stated and whether it plays on
// until they are sure: its export runs the same round.
func TestRoundTournamentPlaysOn(t *testing.T) {
	r := store.Round{ID: "spring-official", Format: "roundrobin", Confidence: 0.9, UntilSeparated: true, Top: 2, Budget: 40,
		Entrants: []store.Entrant{{Login: "ann"}, {Login: "bob"}}}
	spec := RoundTournament(store.Contest{Name: "spring", Game: "amazes"}, r)
	if spec.Confidence != 0.9 || !spec.UntilSeparated || spec.Top != 2 || spec.Budget != 40 || len(spec.Entrants) != 2 {
		t.Errorf("the round's tournament: %+v", spec)
	}
}
