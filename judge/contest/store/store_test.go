package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/queue/kv"
	"github.com/botjudge/judge/judge/result"
)

// open starts an embedded NATS server (in-process, no port) and opens a store on it.
func open(t *testing.T) *store.Store {
	t.Helper()
	s, _ := openKV(t)
	return s
}

// openKV is open, with the store's bucket for what the store's methods cannot write.
func openKV(t *testing.T) (*store.Store, *kv.Bucket) {
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
	return store.New(b), b
}

func TestContestsAndUsers(t *testing.T) {
	s, ctx := open(t), t.Context()
	if _, err := s.CreateContest(ctx, store.Contest{Name: "spring", Game: "amazes", TestQuota: 10}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateContest(ctx, store.Contest{Name: "spring", Game: "amazes"}); !errors.Is(err, store.ErrExists) {
		t.Errorf("the same contest twice: %v", err)
	}
	for _, bad := range []string{"", "Spring", "a.b", "a b", "-x", "<script>", "../x", "x\x00"} {
		if _, err := s.CreateContest(ctx, store.Contest{Name: bad, Game: "amazes"}); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("contest %q: %v", bad, err)
		}
	}
	nu, err := s.AddUser(ctx, "spring", "alice", false)
	if err != nil || nu.Token == "" || nu.Invite == "" {
		t.Fatalf("%+v %v", nu, err)
	}
	if _, err := s.AddUser(ctx, "spring", "alice", false); !errors.Is(err, store.ErrExists) {
		t.Errorf("alice twice: %v", err)
	}
	if _, err := s.AddUser(ctx, "autumn", "bob", false); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a user of no contest: %v", err)
	}
	if u, _, err := s.TokenUser(ctx, nu.Token); err != nil || u.Login != "alice" {
		t.Errorf("token: %+v %v", u, err)
	}
	if _, _, err := s.TokenUser(ctx, nu.Token+"x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a wrong token: %v", err)
	}
	// No password until the invite is accepted.
	if _, err := s.CheckPassword(ctx, "spring", "alice", ""); !errors.Is(err, store.ErrBadLogin) {
		t.Errorf("login before the invite: %v", err)
	}
	if _, err := s.AcceptInvite(ctx, nu.Invite, "short"); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("a short password: %v", err)
	}
	if _, err := s.AcceptInvite(ctx, nu.Invite, "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AcceptInvite(ctx, nu.Invite, "another password!"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the invite used twice: %v", err)
	}
	if _, err := s.CheckPassword(ctx, "spring", "alice", "correct horse battery"); err != nil {
		t.Errorf("login: %v", err)
	}
	for _, c := range [][3]string{{"spring", "alice", "wrong password"}, {"spring", "nobody", "correct horse battery"}, {"autumn", "alice", "correct horse battery"}} {
		if _, err := s.CheckPassword(ctx, c[0], c[1], c[2]); !errors.Is(err, store.ErrBadLogin) {
			t.Errorf("%v: %v", c, err)
		}
	}
}

// An invite is used once even when two requests race for it.
func TestInviteOnceUnderRace(t *testing.T) {
	s, ctx := open(t), t.Context()
	s.CreateContest(ctx, store.Contest{Name: "c", Game: "amazes"})
	nu, err := s.AddUser(ctx, "c", "u", false)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for range 8 {
		wg.Go(func() {
			if _, err := s.AcceptInvite(context.Background(), nu.Invite, "a good long password"); err == nil {
				mu.Lock()
				won++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if won != 1 {
		t.Errorf("%d requests used the invite, want 1", won)
	}
}

// A session ends at logout and at a password change.
func TestSessions(t *testing.T) {
	s, ctx := open(t), t.Context()
	s.CreateContest(ctx, store.Contest{Name: "c", Game: "amazes"})
	nu, _ := s.AddUser(ctx, "c", "u", false)
	u, err := s.AcceptInvite(ctx, nu.Invite, "first password")
	if err != nil {
		t.Fatal(err)
	}
	id, sess, err := s.NewSession(ctx, u)
	if err != nil || sess.CSRF == "" {
		t.Fatal(err)
	}
	if _, got, err := s.SessionUser(ctx, id); err != nil || got.Login != "u" {
		t.Fatalf("%+v %v", got, err)
	}
	other, _, _ := s.NewSession(ctx, u)
	if err := s.EndSession(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.SessionUser(ctx, id); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a session after logout: %v", err)
	}
	if _, err := s.SetPassword(ctx, "c", "u", "wrong old one", "second password"); !errors.Is(err, store.ErrBadLogin) {
		t.Errorf("a change with the wrong password: %v", err)
	}
	if _, _, err := s.SessionUser(ctx, other); err != nil {
		t.Errorf("the other session before the change: %v", err)
	}
	if _, err := s.SetPassword(ctx, "c", "u", "first password", "second password"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.SessionUser(ctx, other); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a session after a password change: %v", err)
	}
}

// A session ends at its time, and its record goes when it is next seen.
func TestSessionExpires(t *testing.T) {
	s, b := openKV(t)
	ctx := t.Context()
	s.CreateContest(ctx, store.Contest{Name: "c", Game: "amazes"})
	nu, _ := s.AddUser(ctx, "c", "u", false)
	u, err := s.AcceptInvite(ctx, nu.Invite, "first password")
	if err != nil {
		t.Fatal(err)
	}
	id, _, err := s.NewSession(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	sessions := func() int {
		keys, _ := b.Keys(ctx)
		n := 0
		for _, k := range keys {
			if strings.HasPrefix(k, "session.") {
				n++
			}
		}
		return n
	}
	if n := sessions(); n != 1 {
		t.Fatalf("%d session records", n)
	}
	store.SetNow(s, func() time.Time { return time.Now().Add(store.SessionTTL + time.Minute) })
	if _, _, err := s.SessionUser(ctx, id); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a session past its time: %v", err)
	}
	if n := sessions(); n != 0 {
		t.Errorf("%d session records are kept after it ended", n)
	}
}

func TestSubmissionsAndQuota(t *testing.T) {
	s, ctx := open(t), t.Context()
	s.CreateContest(ctx, store.Contest{Name: "c", Game: "amazes"})
	s.AddUser(ctx, "c", "a", false)
	s.AddUser(ctx, "c", "b", false)
	var subs []store.Submission
	for range 3 {
		sub, err := s.AddSubmission(ctx, store.Submission{Contest: "c", Login: "a", Lang: "cpp"})
		if err != nil {
			t.Fatal(err)
		}
		subs = append(subs, sub)
	}
	if subs[0].Version != 1 || subs[2].Version != 3 || subs[0].Status != store.Queued {
		t.Errorf("versions %d..%d, status %s", subs[0].Version, subs[2].Version, subs[0].Status)
	}
	if _, err := s.AddSubmission(ctx, store.Submission{Contest: "c", Login: "b", Lang: "go"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Submissions(ctx, "c", "a"); len(got) != 3 || got[0].Version != 3 {
		t.Errorf("a's submissions: %d", len(got))
	}
	if got, _ := s.Submissions(ctx, "c", "*"); len(got) != 4 {
		t.Errorf("everyone's: %d", len(got))
	}
	if _, err := s.Activate(ctx, subs[0]); !errors.Is(err, store.ErrConflict) {
		t.Errorf("activating a queued version: %v", err)
	}
	ready, _ := s.UpdateSubmission(ctx, subs[1].ID, func(x *store.Submission) error { x.Status = store.Ready; return nil })
	if u, err := s.Activate(ctx, ready); err != nil || u.Active != ready.ID {
		t.Errorf("activating a ready version: %+v %v", u, err)
	}
	if _, err := s.Submission(ctx, "../"+subs[0].ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a bad id: %v", err)
	}
	for i := range 3 {
		if err := s.TakeQuota(ctx, "c", "a", 2); (err != nil) != (i == 2) {
			t.Errorf("test match %d of a quota of 2: %v", i+1, err)
		}
	}
	var q *store.ErrQuota
	if err := s.TakeQuota(ctx, "c", "a", 2); !errors.As(err, &q) || q.Retry <= 0 {
		t.Errorf("past the quota: %v", err)
	}
	if err := s.TakeQuota(ctx, "c", "b", 2); err != nil {
		t.Errorf("b's quota is b's own: %v", err)
	}
}

// The quota holds when many requests (as from several portals) take it at once.
func TestQuotaUnderRace(t *testing.T) {
	s, ctx := open(t), t.Context()
	var wg sync.WaitGroup
	var mu sync.Mutex
	took := 0
	for range 20 {
		wg.Go(func() {
			if s.TakeQuota(ctx, "c", "a", 5) == nil {
				mu.Lock()
				took++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if took != 5 {
		t.Errorf("%d test matches taken of a quota of 5", took)
	}
}

func TestExpirableMatch(t *testing.T) {
	res := &result.Result{ID: "x"}
	two := []store.Seat{{Login: "alice"}, {Login: "bob"}, {House: "easy"}}
	for _, tc := range []struct {
		name string
		key  string
		m    store.Match
		want string
	}{
		{"a test match played", "match.m1", store.Match{ID: "m1", Contest: "spring", Kind: store.KindTest, Owner: "alice", Seats: two, Result: res},
			"true [all.spring.m.test.m1 own.spring.alice.m.test.m1 own.spring.alice.m.m1]"},
		{"a ladder match played", "match.l1", store.Match{ID: "l1", Contest: "spring", Kind: store.KindLadder, Seats: two, Result: res},
			"true [all.spring.m.ladder.l1 own.spring.alice.m.ladder.l1 own.spring.alice.m.l1 own.spring.bob.m.ladder.l1 own.spring.bob.m.l1]"},
		{"a test match not played yet", "match.m1", store.Match{ID: "m1", Contest: "spring", Kind: store.KindTest, Owner: "alice"}, "false []"},
		{"a ladder match not played yet", "match.l1", store.Match{ID: "l1", Contest: "spring", Kind: store.KindLadder, Seats: two}, "false []"},
		{"a validation match", "match.sv", store.Match{ID: "sv", Contest: "spring", Kind: store.KindValidation, Owner: "alice", Result: res}, "false []"},
		{"a round's match", "match.spring-r1-1", store.Match{ID: "spring-r1-1", Contest: "spring", Kind: store.KindRound, Seats: two, Result: res}, "false []"},
		{"a record under another key", "match.m2", store.Match{ID: "m1", Contest: "spring", Kind: store.KindTest, Owner: "alice", Result: res}, "false []"},
	} {
		data, _ := json.Marshal(tc.m)
		drop, with := store.ExpirableMatch(tc.key, data)
		if got := fmt.Sprint(drop, " ", with); got != tc.want {
			t.Errorf("%s: %s; want %s", tc.name, got, tc.want)
		}
	}
	if drop, _ := store.ExpirableMatch("match.m1", []byte("{not json")); drop {
		t.Error("a record that is not JSON may go")
	}
}

// A token made before tokens were listed (no id, no index entry, no epoch) still works, is
// listed from its first use on, and can then be revoked; a password change ends it.
func TestOldTokensAreAdopted(t *testing.T) {
	s, b := openKV(t)
	ctx := t.Context()
	s.CreateContest(ctx, store.Contest{Name: "c", Game: "amazes"})
	nu, _ := s.AddUser(ctx, "c", "u", false)
	if _, err := s.AcceptInvite(ctx, nu.Invite, "first password"); err != nil {
		t.Fatal(err)
	}
	const old = "jt_an-old-token-of-u"
	sum := sha256.Sum256([]byte(old))
	rec, _ := json.Marshal(map[string]any{"contest": "c", "login": "u", "name": "old", "created": time.Now().UTC()})
	if _, err := b.Create(ctx, "token."+hex.EncodeToString(sum[:]), rec); err != nil {
		t.Fatal(err)
	}
	u, tok, err := s.TokenUser(ctx, old)
	if err != nil || u.Login != "u" || tok.ID == "" {
		t.Fatalf("the old token: %+v %+v %v", u, tok, err)
	}
	ts, err := s.Tokens(ctx, "c", "u")
	if err != nil || len(ts) != 2 || ts[1].ID != tok.ID {
		t.Fatalf("the tokens: %+v %v; want the first and the old one", ts, err)
	}
	firstSum := sha256.Sum256([]byte(nu.Token))
	firstKey := "token." + hex.EncodeToString(firstSum[:])
	was, err := b.Get(ctx, firstKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetPassword(ctx, "c", "u", "first password", "second password"); err != nil {
		t.Fatal(err)
	}
	// The change ends the tokens by itself, atomically: a record its tidying missed (a
	// portal stopped halfway) is still no valid token.
	if _, err := b.Put(ctx, firstKey, was.Value); err != nil {
		t.Fatal(err)
	}
	for _, tk := range []string{old, nu.Token} {
		if _, _, err := s.TokenUser(ctx, tk); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a token after the password changed: %v", err)
		}
	}
	b.Delete(ctx, firstKey)
	if ts, err := s.Tokens(ctx, "c", "u"); err != nil || len(ts) != 0 {
		t.Errorf("the tokens after the change: %+v %v", ts, err)
	}
	if _, err := b.Get(ctx, "token."+hex.EncodeToString(sum[:])); !errors.Is(err, kv.ErrKeyNotFound) {
		t.Errorf("the old token's record after the change: %v", err)
	}
}

// A reset ends the user's sessions and tokens and the old password: only the new invite
// lets the user in again, with a password of its own.
func TestResetUser(t *testing.T) {
	s, ctx := open(t), t.Context()
	if _, err := s.CreateContest(ctx, store.Contest{Name: "spring", Game: "amazes", TestQuota: 10}); err != nil {
		t.Fatal(err)
	}
	nu, err := s.AddUser(ctx, "spring", "alice", false)
	if err != nil {
		t.Fatal(err)
	}
	u, err := s.AcceptInvite(ctx, nu.Invite, "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	sess, _, err := s.NewSession(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	_, code, err := s.ResetUser(ctx, "spring", "alice")
	if err != nil || code == "" {
		t.Fatalf("reset: %q %v", code, err)
	}
	if _, _, err := s.TokenUser(ctx, nu.Token); err == nil {
		t.Error("the token outlived the reset")
	}
	if _, _, err := s.SessionUser(ctx, sess); err == nil {
		t.Error("the session outlived the reset")
	}
	if _, err := s.CheckPassword(ctx, "spring", "alice", "correct horse battery"); err == nil {
		t.Error("the old password outlived the reset")
	}
	if _, err := s.AcceptInvite(ctx, code, "another good password"); err != nil {
		t.Errorf("the new invite: %v", err)
	}
	if _, err := s.CheckPassword(ctx, "spring", "alice", "another good password"); err != nil {
		t.Errorf("the new password: %v", err)
	}
	if _, _, err := s.ResetUser(ctx, "spring", "bob"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a reset of nobody: %v", err)
	}
}

// A removed user is out: no session, token, password or earlier invite lets them in, a reset
// is refused, and their versions stay counted. A closed contest refuses new people, and
// closing again keeps the first closing's time.
func TestRemoveUserAndCloseContest(t *testing.T) {
	s, ctx := open(t), t.Context()
	if _, err := s.CreateContest(ctx, store.Contest{Name: "spring", Game: "amazes", TestQuota: 10}); err != nil {
		t.Fatal(err)
	}
	nu, err := s.AddUser(ctx, "spring", "alice", false)
	if err != nil {
		t.Fatal(err)
	}
	u, err := s.AcceptInvite(ctx, nu.Invite, "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	sess, _, err := s.NewSession(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	late, err := s.NewInvite(ctx, "spring", "alice")
	if err != nil {
		t.Fatal(err)
	}
	if u, err = s.RemoveUser(ctx, "spring", "alice"); err != nil || !u.Disabled {
		t.Fatalf("remove: %+v %v", u, err)
	}
	if _, _, err := s.TokenUser(ctx, nu.Token); err == nil {
		t.Error("the token outlived the removal")
	}
	if _, _, err := s.SessionUser(ctx, sess); err == nil {
		t.Error("the session outlived the removal")
	}
	if _, err := s.CheckPassword(ctx, "spring", "alice", "correct horse battery"); err == nil {
		t.Error("the password outlived the removal")
	}
	if _, err := s.AcceptInvite(ctx, late, "another good password"); err == nil {
		t.Error("an invite made before the removal let the user back in")
	}
	if _, _, err := s.ResetUser(ctx, "spring", "alice"); !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "alice was removed") {
		t.Errorf("a reset of a removed user: %v", err)
	}
	if _, err := s.RemoveUser(ctx, "spring", "bob"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("removing nobody: %v", err)
	}

	c, err := s.CloseContest(ctx, "spring")
	if err != nil || !c.ReadOnly() || !c.Closed(c.ClosedAt) || !c.Ended().Equal(c.ClosedAt) {
		t.Fatalf("close: %+v %v", c, err)
	}
	again, err := s.CloseContest(ctx, "spring")
	if err != nil || !again.ClosedAt.Equal(c.ClosedAt) {
		t.Errorf("closing again: %v %v; want the first time, %v", again.ClosedAt, err, c.ClosedAt)
	}
	if _, err := s.CloseContest(ctx, "autumn"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("closing no contest: %v", err)
	}
}

// A token past its time is not a token: it lets no one in and is not listed.
func TestTokenExpires(t *testing.T) {
	s, b := openKV(t)
	ctx := t.Context()
	if _, err := s.CreateContest(ctx, store.Contest{Name: "spring", Game: "amazes", TestQuota: 10}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddUser(ctx, "spring", "alice", false); err != nil {
		t.Fatal(err)
	}
	short, st, err := s.NewToken(ctx, "spring", "alice", "short", 50*time.Millisecond)
	if err != nil || st.Expires.IsZero() {
		t.Fatalf("a token of 50 ms: %+v %v", st, err)
	}
	long, _, err := s.NewToken(ctx, "spring", "alice", "long", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.TokenUser(ctx, short); err != nil {
		t.Fatalf("the short token at once: %v", err)
	}
	time.Sleep(100 * time.Millisecond)
	if _, _, err := s.TokenUser(ctx, short); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the short token past its time: %v", err)
	}
	if _, _, err := s.TokenUser(ctx, long); err != nil {
		t.Errorf("the long token: %v", err)
	}
	ts, err := s.Tokens(ctx, "spring", "alice")
	var names []string
	for _, tk := range ts {
		names = append(names, tk.Name)
	}
	if err != nil || !slices.Equal(names, []string{"first", "long"}) {
		t.Errorf("the tokens listed: %v %v; want first and long", names, err)
	}
	// An expired token's records go once it is seen: a season's dead tokens do not pile up.
	keys, _ := b.Keys(ctx)
	n := 0
	for _, k := range keys {
		if strings.Contains(k, ".t.") || strings.HasPrefix(k, "token.") {
			n++
		}
	}
	if n != 2*len(names) {
		t.Errorf("%d token records and index entries are kept for %d live tokens", n, len(names))
	}
}

// A record a newer portal wrote keeps the fields this version does not know when this version
// changes it (a cluster upgraded one machine at a time), at the top and in a record within;
// a field this version knows is still its own to change and to drop.
func TestUnknownFieldsOutliveAChange(t *testing.T) {
	s, b := openKV(t)
	ctx := t.Context()
	if _, err := s.CreateContest(ctx, store.Contest{Name: "spring", Game: "amazes", TestQuota: 10}); err != nil {
		t.Fatal(err)
	}
	nu, err := s.AddUser(ctx, "spring", "ann", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AcceptInvite(ctx, nu.Invite, "a good long password"); err != nil {
		t.Fatal(err)
	}
	newer := func(key string, add func(map[string]any)) {
		e, err := b.Get(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		json.Unmarshal(e.Value, &m)
		add(m)
		data, _ := json.Marshal(m)
		if _, err := b.Put(ctx, key, data); err != nil {
			t.Fatal(err)
		}
	}
	newer("contest.spring", func(m map[string]any) {
		m["sponsor"] = "ACME"
		m["ladder_settings"].(map[string]any)["decay"] = 0.5
	})
	newer("user.spring.ann", func(m map[string]any) { m["nickname"] = "Annie" })

	if _, err := s.UpdateContest(ctx, "spring", func(c *store.Contest) error { c.TestQuota = 3; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RemoveUser(ctx, "spring", "ann"); err != nil { // drops the password, a known field
		t.Fatal(err)
	}
	raw := func(key string) string {
		e, err := b.Get(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		return string(e.Value)
	}
	if c := raw("contest.spring"); !strings.Contains(c, `"sponsor":"ACME"`) || !strings.Contains(c, `"decay":0.5`) || !strings.Contains(c, `"test_quota":3`) {
		t.Errorf("the contest after a change: %s", c)
	}
	if u := raw("user.spring.ann"); !strings.Contains(u, `"nickname":"Annie"`) || strings.Contains(u, `"password"`) || !strings.Contains(u, `"disabled":true`) {
		t.Errorf("the user after a change: %s", u)
	}
}
