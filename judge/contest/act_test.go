package contest

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/store"
)

// What a contest takes is decided once (closed), for every action that asks the engine, by
// any actor: a contest its organisers closed takes nothing; one past its deadline takes no
// version, activation or trial, but still people, settings and test matches; an open one
// takes all. A contestant may not act as an organiser, nor on another contest.
func TestWhatAContestTakes(t *testing.T) {
	ctx := t.Context()
	e, st, _ := newEngine(t)
	host := HostActor()
	for _, name := range []string{"open", "late", "shut"} {
		if _, err := e.NewContest(ctx, host, store.Contest{Name: name, Game: "amazes", TestQuota: 10, Ladder: true}, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := e.AddUser(ctx, host, name, "ann", false); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	if _, err := e.ChangeSettings(ctx, host, "late", Settings{Deadline: &past}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.CloseContest(ctx, host, "shut"); err != nil {
		t.Fatal(err)
	}
	sources := map[string][]byte{"main.cpp": []byte("int main() {}")}
	quota := 5
	actions := []struct {
		name string
		do   func(contest string, a Actor) error
		// late says whether a contest past its deadline still takes it.
		late bool
	}{
		{"upload", func(c string, a Actor) error { _, err := e.Upload(ctx, a, c, "", sources); return err }, false},
		{"add a person", func(c string, a Actor) error { _, err := e.AddUser(ctx, a, c, "bob"+a.name(), false); return err }, true},
		{"change the settings", func(c string, a Actor) error {
			_, err := e.ChangeSettings(ctx, a, c, Settings{TestQuota: &quota})
			return err
		}, true},
		{"add a house bot", func(c string, a Actor) error {
			_, err := e.AddHouse(ctx, a, c, "h"+a.name()[:3], "cpp", sources)
			return err
		}, true},
		{"start a test round", func(c string, a Actor) error {
			_, err := e.StartRound(ctx, a, c, api.RoundSpec{Kind: store.RoundTest})
			return err
		}, true},
	}
	ann := func(c string) Actor { return Actor{Contest: c, Login: "ann"} }
	org := func(c string) Actor { return Actor{Contest: c, Login: "org", Organiser: true} }
	for _, act := range actions {
		for _, c := range []string{"open", "late", "shut"} {
			a := org(c)
			if act.name == "upload" {
				a = ann(c)
			}
			err := act.do(c, a)
			var ae *api.Error
			switch {
			case c == "shut":
				if !errors.Is(err, store.ErrClosed) && !(errors.As(err, &ae) && ae.Code == api.CodeClosed) {
					t.Errorf("%s in a closed contest: %v, want it refused as closed", act.name, err)
				}
			case c == "late" && !act.late:
				if !errors.As(err, &ae) || ae.Code != api.CodeClosed {
					t.Errorf("%s after the deadline: %v, want 403 closed", act.name, err)
				}
			default:
				// A round of no entrants is refused for that, not for the contest's state.
				if err != nil && !errors.Is(err, ErrTooFew) {
					t.Errorf("%s in contest %s: %v", act.name, c, err)
				}
			}
		}
		if act.name != "upload" {
			if err := act.do("open", ann("open")); !errors.Is(err, ErrForbidden) {
				t.Errorf("%s by a contestant: %v, want forbidden", act.name, err)
			}
		}
		if err := act.do("open", org("late")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s by an organiser of another contest: %v, want not found", act.name, err)
		}
	}
	if _, err := e.AskMatch(ctx, ann("shut"), "shut", api.MatchRequest{Opponents: []string{"house:x"}}); !errors.Is(err, store.ErrClosed) {
		t.Errorf("a test match in a closed contest: %v", err)
	}
	if Open(mustContest(t, st, "late"), time.Now()) || !Open(mustContest(t, st, "open"), time.Now()) {
		t.Error("Open disagrees with the deadline")
	}
	// A version uploaded in time is frozen at the deadline: it can no longer be made active.
	subs, err := st.SubmissionPage(ctx, "open", "ann", store.List{Limit: 10})
	if err != nil || len(subs.Items) != 1 {
		t.Fatalf("ann's version in contest open: %v %+v", err, subs.Items)
	}
	if _, err := e.ChangeSettings(ctx, host, "open", Settings{Deadline: &past}); err != nil {
		t.Fatal(err)
	}
	var ae *api.Error
	if _, err := e.Activate(ctx, ann("open"), subs.Items[0].ID); !errors.As(err, &ae) || ae.Code != api.CodeClosed || !strings.HasSuffix(ae.Message, ": the active versions are frozen") {
		t.Errorf("activating after the deadline: %v", err)
	}
}

func mustContest(t *testing.T, st *store.Store, name string) store.Contest {
	t.Helper()
	ct, err := st.Contest(t.Context(), name)
	if err != nil {
		t.Fatal(err)
	}
	return ct
}

// Who may read a match, a seat's stderr and a round's frozen versions: the match's own
// players and the contest's organisers; a round's matches anyone of the contest; no one of
// another contest. A contestant sees the round's versions without their ids and sources.
func TestWhoReadsWhat(t *testing.T) {
	ctx := t.Context()
	e, st, _ := newEngine(t)
	for _, c := range []string{"spring", "autumn"} {
		if _, err := st.CreateContest(ctx, store.Contest{Name: c, Game: "amazes", TestQuota: 10}); err != nil {
			t.Fatal(err)
		}
	}
	test, err := st.AddMatch(ctx, store.Match{ID: store.NewID("m"), Contest: "spring", Kind: store.KindTest, Owner: "ann",
		Seats: []store.Seat{{Login: "ann", Submission: "s1"}, {House: "easy"}}})
	if err != nil {
		t.Fatal(err)
	}
	round, err := st.AddMatch(ctx, store.Match{ID: "spring-t1-1-1", Contest: "spring", Kind: store.KindRound,
		Seats: []store.Seat{{Login: "bob", Submission: "s2"}, {Login: "cat", Submission: "s3"}}})
	if err != nil {
		t.Fatal(err)
	}
	ann, bob := Actor{Contest: "spring", Login: "ann"}, Actor{Contest: "spring", Login: "bob"}
	org, other := Actor{Contest: "spring", Login: "org", Organiser: true}, Actor{Contest: "autumn", Login: "ann", Organiser: true}
	for _, tc := range []struct {
		who  Actor
		m    store.Match
		ok   bool
		sees []bool
	}{
		{ann, test, true, []bool{true, false}},
		{bob, test, false, nil},
		{org, test, true, []bool{true, true}},
		{other, test, false, nil},
		{ann, round, true, []bool{false, false}},
		{bob, round, true, []bool{true, false}},
		{other, round, false, nil},
	} {
		_, err := e.Match(ctx, tc.who, tc.m.ID)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, store.ErrNotFound)) {
			t.Errorf("%s of %s reads %s: %v, want ok %v", tc.who.Login, tc.who.Contest, tc.m.ID, err, tc.ok)
		}
		for i, want := range tc.sees {
			if got := tc.who.Sees(tc.m, i); got != want {
				t.Errorf("%s sees seat %d of %s in full: %v, want %v", tc.who.Login, i, tc.m.ID, got, want)
			}
		}
	}
	for _, tc := range []struct {
		who  Actor
		all  bool
		want string
		err  error
	}{{ann, false, "ann", nil}, {ann, true, "", ErrForbidden}, {org, true, "*", nil}, {org, false, "org", nil}} {
		if got, err := tc.who.Lists(tc.all); got != tc.want || err != tc.err {
			t.Errorf("%s lists (all %v): %q %v, want %q %v", tc.who.Login, tc.all, got, err, tc.want, tc.err)
		}
	}
	r := store.Round{ID: "spring-t1", Contest: "spring", Entrants: []store.Entrant{{Login: "bob", Sub: "s2", Source: "portal/sources/s2.json", SHA256: "ab"}}}
	if got := RoundFor(ann, r); got.Entrants[0].Sub != "" || got.Entrants[0].Source != "" || got.Entrants[0].SHA256 != "ab" || r.Entrants[0].Sub != "s2" {
		t.Errorf("a contestant's view of the round: %+v (the record: %+v)", got.Entrants, r.Entrants)
	}
	if got := RoundFor(org, r); got.Entrants[0].Source == "" {
		t.Errorf("an organiser's view of the round lacks the sources: %+v", got.Entrants)
	}
}
