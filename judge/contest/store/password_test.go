package store_test

import (
	"testing"

	"github.com/botjudge/judge/judge/contest/store"
	"golang.org/x/crypto/bcrypt"
)

// A password is kept at bcrypt's default cost unless the store is told otherwise (tests lower
// it: the portal's spent most of their CPU hashing); either way it checks, and a wrong one
// does not.
func TestPasswordCost(t *testing.T) {
	for _, tc := range []struct {
		set, want int
	}{{0, bcrypt.DefaultCost}, {bcrypt.MinCost, bcrypt.MinCost}} {
		s, ctx := open(t), t.Context()
		s.PasswordCost = tc.set
		if _, err := s.CreateContest(ctx, store.Contest{Name: "spring", Game: "amazes"}); err != nil {
			t.Fatal(err)
		}
		nu, err := s.AddUser(ctx, "spring", "alice", false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AcceptInvite(ctx, nu.Invite, "a long enough password"); err != nil {
			t.Fatal(err)
		}
		u, err := s.CheckPassword(ctx, "spring", "alice", "a long enough password")
		if err != nil {
			t.Fatalf("cost %d: the password does not check: %v", tc.set, err)
		}
		if cost, err := bcrypt.Cost(u.Password); err != nil || cost != tc.want {
			t.Errorf("PasswordCost %d: kept at cost %d (%v); want %d", tc.set, cost, err, tc.want)
		}
		if _, err := s.CheckPassword(ctx, "spring", "alice", "another long password"); err == nil {
			t.Errorf("cost %d: a wrong password checks", tc.set)
		}
		if _, err := s.CheckPassword(ctx, "spring", "nobody", "another long password"); err == nil {
			t.Errorf("cost %d: an unknown login checks", tc.set)
		}
	}
}
