package contest

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/botjudge/judge/judge/contest/store"
)

// A store written before the contest engine took its rules from the portal (the judge of
// 2026-12-02, commit f3f919a: `judge portal contest create`, `user add|reset`, two contestants'
// uploads through `judge contest submit`, a rejected version, a test match, the ladder, a test
// round, a closed contest; testdata/store-2026-12-02.json is its bucket, key by key) reads
// after it, whole, through the engine; and the engine goes on writing to it.
func TestAStoreOfBefore(t *testing.T) {
	data, err := os.ReadFile("testdata/store-2026-12-02.json")
	if err != nil {
		t.Fatal(err)
	}
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(data, &entries); err != nil {
		t.Fatal(err)
	}
	e, st, _, kv := newEngineKV(t)
	ctx := t.Context()
	for k, v := range entries {
		if _, err := kv.Put(ctx, k, v); err != nil {
			t.Fatal(err)
		}
	}
	host := HostActor()
	spring, err := e.Contest(ctx, host, "spring")
	if err != nil || spring.Game != "amazes" || !spring.Ladder || spring.Deadline.IsZero() || len(spring.House) != 1 || spring.House[0].Name != "easy" || spring.ReadOnly() {
		t.Fatalf("contest spring: %v %+v", err, spring)
	}
	users, err := st.Users(ctx, "spring")
	var logins []string
	for _, u := range users {
		logins = append(logins, u.Login)
	}
	if err != nil || !slices.Equal(logins, []string{"ann", "bob", "cat", "org"}) {
		t.Errorf("the people: %v %v", err, logins)
	}
	bob := Actor{Contest: "spring", Login: "bob"}
	subs, err := st.SubmissionPage(ctx, "spring", "bob", store.List{Limit: 10})
	if err != nil || len(subs.Items) != 2 {
		t.Fatalf("bob's versions: %v %+v", err, subs)
	}
	for _, s := range subs.Items {
		v, err := e.Version(ctx, bob, s.ID)
		switch {
		case err != nil:
			t.Errorf("version %d: %v", s.Version, err)
		case s.Version == 1 && (v.Status != store.Active || v.Build == nil || !v.Build.OK):
			t.Errorf("version 1 is not the active one: %+v", v)
		case s.Version == 2 && (v.Status != store.Rejected || v.Validation == nil || v.Validation.Fault == nil):
			t.Errorf("version 2 is not rejected with its fault: %+v", v)
		}
	}
	if _, err := e.Version(ctx, Actor{Contest: "spring", Login: "cat"}, subs.Items[0].ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("cat read bob's version: %v", err)
	}
	ms, err := st.MatchPage(ctx, "spring", "bob", store.List{Limit: 200, Kind: store.KindTest})
	if err != nil || len(ms.Items) != 1 || ms.Items[0].Result == nil || len(ms.Items[0].Seats) != 2 {
		t.Errorf("bob's test match: %v %+v", err, ms.Items)
	}
	lad, err := st.Ladder(ctx, "spring")
	if err != nil || len(lad.Players) < 2 {
		t.Errorf("the ladder: %v %d players", err, len(lad.Players))
	}
	rs, err := st.Rounds(ctx, "spring")
	if err != nil || len(rs) != 1 || rs[0].Status != store.RoundDone || rs[0].Outcome == nil || len(rs[0].Outcome.Standings) != 2 || rs[0].Outcome.Standings[0].RankRange == [2]int{} {
		t.Errorf("the test round: %v %+v", err, rs)
	}
	acts, err := st.Actions(ctx, "spring", 0)
	if err != nil || len(acts) == 0 || acts[len(acts)-1].What != "created the contest (amazes)" {
		t.Errorf("the organisers' log: %v %+v", err, acts)
	}
	// What the engine decides of it now: the closed contest takes nothing, the open one a
	// new version, numbered after the two of before, and a new person.
	shut, err := e.Contest(ctx, host, "shut")
	if err != nil || !shut.ReadOnly() {
		t.Fatalf("contest shut: %v %+v", err, shut)
	}
	if _, err := e.AddUser(ctx, host, "shut", "eve", false); !errors.Is(err, store.ErrClosed) {
		t.Errorf("a person added to the closed contest: %v", err)
	}
	sub, err := e.Upload(ctx, bob, "spring", "", map[string][]byte{"main.cpp": []byte("int main() {}")})
	if err != nil || sub.Version != 3 || sub.Source == "" {
		t.Errorf("bob's new version: %v %+v", err, sub)
	}
	if _, err := e.AddUser(ctx, host, "spring", "eve", false); err != nil {
		t.Errorf("a new person: %v", err)
	}
}
