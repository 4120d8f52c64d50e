package contest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
)

// The integrity check kept in the background rests three times as long as each version took
// to compare: it takes at most a quarter of a core from the builds and matches beside it. The
// same versions checked at once (the organisers' command) take a quarter of that time.
func TestIntegrityCheckIsPaced(t *testing.T) {
	ctx := t.Context()
	e, st, _ := newEngine(t)
	ct, err := e.NewContest(ctx, HostActor(), store.Contest{Name: "cup", Game: "amazes", TestQuota: 10},
		[]HouseBot{{Name: "easy", Lang: "cpp", Files: map[string][]byte{"easy.cpp": []byte("int main() {}")}}})
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("..", "..", "bots", "ontherun", "cpp", "bot.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	for _, login := range []string{"ann", "bob", "cat", "dan", "eve", "fay"} {
		if _, err := st.AddUser(ctx, "cup", login, false); err != nil {
			t.Fatal(err)
		}
		for v := range 2 {
			if _, err := e.Submit(ctx, ct, login, "cpp", map[string][]byte{"bot.cpp": append(src, byte('\n'+v))}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Its time against its own work (each version's reading and comparing), measured in the
	// same run: a machine loaded by other work slows both alike.
	took := func(paced bool) (wall, worked time.Duration) {
		fresh := New(e.c)
		start := time.Now()
		if err := fresh.catchUp(ctx, "cup", false, paced); err != nil {
			t.Fatal(err)
		}
		c := fresh.checks.of("cup")
		if n := c.index.Len(); n != 12 {
			t.Fatalf("%d versions checked; want 12", n)
		}
		return time.Since(start), c.worked
	}
	at, atWork := took(false)
	paced, pacedWork := took(true)
	if atWork <= 0 || at < atWork || paced < 4*pacedWork {
		t.Errorf("at once %v for %v of work, paced %v for %v: paced, it rests less than three times its work", at, atWork, paced, pacedWork)
	}
	t.Logf("at once %v (work %v), paced %v (work %v)", at, atWork, paced, pacedWork)
	// The organisers' page asked while the background rests does not wait for it.
	fresh := New(e.c)
	go fresh.catchUp(ctx, "cup", false, true)
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	s, err := fresh.Similar(ctx, HostActor(), "cup", 0, false)
	if err != nil || s.Versions != 12 {
		t.Fatalf("the check beside the background: %d versions, %v", s.Versions, err)
	}
	if d := time.Since(start); d > paced/2 {
		t.Errorf("the page took %v beside the background (which takes %v): it waited for it", d, paced)
	}
}

// The check reads the contest's replays as its versions played them: bob's copy of ann's bot,
// met in other matches in the same positions (the same request at the same turn and seat),
// answered as ann's did; cat's own bot otherwise; a house bot's seat is no one's. The
// agreements are the behaviour, beside any two's, with the matches where they agreed.
func TestIntegrityCheckReadsHowTheyPlay(t *testing.T) {
	ctx := t.Context()
	e, st, q := newEngine(t)
	ct, err := e.NewContest(ctx, HostActor(), store.Contest{Name: "cup", Game: "amazes", TestQuota: 10},
		[]HouseBot{{Name: "easy", Lang: "cpp", Files: map[string][]byte{"easy.cpp": []byte("int main() {}")}}})
	if err != nil {
		t.Fatal(err)
	}
	subs := map[string]store.Submission{}
	for i, login := range []string{"ann", "bob", "cat"} {
		if _, err := st.AddUser(ctx, "cup", login, false); err != nil {
			t.Fatal(err)
		}
		sub, err := e.Submit(ctx, ct, login, "cpp", map[string][]byte{"bot.cpp": fmt.Appendf(nil, "int main() { return %d; }\n", i)})
		if err != nil {
			t.Fatal(err)
		}
		subs[login] = sub
	}
	answer := map[string]func(turn int) string{
		"ann": func(turn int) string { return fmt.Sprint("F", turn%3) },
		"bob": func(turn int) string { return fmt.Sprint("F", turn%3) },
		"cat": func(turn int) string { return fmt.Sprint("R", turn%4) },
	}
	for i, login := range []string{"ann", "bob", "cat", "ann"} {
		id := fmt.Sprintf("m%d", i)
		var rp bytes.Buffer
		fmt.Fprintf(&rp, `{"type":"header","version":3,"game":"amazes","seed":%d,"options":{},"players":[{"name":"%s","lang":"cpp"},{"name":"house:easy","lang":"cpp"}]}`+"\n", i, login)
		for turn := 1; turn <= 20; turn++ {
			fmt.Fprintf(&rp, `{"type":"move","turn":%d,"player":0,"sent":"view %d\n","expect":1,"received":[%q],"limit_us":1000000,"cpu_ms":0,"cpu_us":0}`+"\n", turn, turn, answer[login](turn))
			fmt.Fprintf(&rp, `{"type":"move","turn":%d,"player":1,"sent":"view %d\n","expect":1,"received":["T"],"limit_us":1000000,"cpu_ms":0,"cpu_us":0}`+"\n", turn, turn)
		}
		fmt.Fprintf(&rp, `{"type":"result","result":{"version":1,"id":%q,"game":"amazes","seed":%d,"status":"ok","players":[{"name":%q,"score":1,"rank":1},{"name":"house:easy","score":0,"rank":2}]}}`+"\n", id, i, login)
		if err := q.PutObject(ctx, queue.BucketReplays, id+".jsonl", &rp); err != nil {
			t.Fatal(err)
		}
		res := &result.Result{ID: id, Status: result.StatusOK}
		if _, err := st.AddMatch(ctx, store.Match{ID: id, Contest: "cup", Kind: store.KindTest, Owner: login,
			Seats: []store.Seat{{Login: login, Submission: subs[login].ID}, {House: "easy"}}, Result: res, Replay: queue.BucketReplays + "/" + id + ".jsonl"}); err != nil {
			t.Fatal(err)
		}
	}
	s, err := e.Similar(ctx, HostActor(), "cup", 0, true)
	if err != nil {
		t.Fatal(err)
	}
	if s.Replays != 4 || s.Baseline == nil {
		t.Fatalf("%d replays read, baseline %v", s.Replays, s.Baseline)
	}
	got := map[string]api.SimilarPair{}
	for _, p := range s.Pairs {
		got[p.A+"-"+p.B] = p
	}
	if p := got["ann-bob"]; p.Behaviour == nil || *p.Behaviour != 1 || p.Compared != 20 || len(p.Matches) == 0 {
		t.Errorf("ann and bob: %+v; want them alike in all 20 positions", p)
	}
	if p := got["ann-cat"]; p.Behaviour == nil || *p.Behaviour > 0.3 {
		t.Errorf("ann and cat: %+v; want them apart", p)
	}
	if _, ok := got["easy"]; ok || slices.ContainsFunc(s.Pairs, func(p api.SimilarPair) bool {
		return strings.HasPrefix(p.A, "house") || strings.HasPrefix(p.B, "house")
	}) {
		t.Errorf("a house bot paired: %+v", s.Pairs)
	}
	// A contestant, and another contest's organiser, find no check.
	if _, err := e.Similar(ctx, Actor{Contest: "cup", Login: "ann"}, "cup", 0, false); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("ann asks for the check: %v", err)
	}
	if _, err := e.Similar(ctx, Actor{Contest: "other", Login: "org", Organiser: true}, "cup", 0, false); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another contest's organiser asks for the check: %v", err)
	}
}
