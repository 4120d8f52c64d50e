package contest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/contest/store"
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
	took := func(paced bool) time.Duration {
		fresh := New(e.c)
		start := time.Now()
		if err := fresh.catchUp(ctx, "cup", false, paced); err != nil {
			t.Fatal(err)
		}
		if n := fresh.checks.of("cup").index.Len(); n != 12 {
			t.Fatalf("%d versions checked; want 12", n)
		}
		return time.Since(start)
	}
	at, paced := took(false), took(true)
	if paced < 3*at {
		t.Errorf("the paced check took %v, the check at once %v: it rests less than three times its work", paced, at)
	}
	t.Logf("at once %v, paced %v", at, paced)
}
