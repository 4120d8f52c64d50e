package contest

import (
	"errors"
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
			_, err := e.StartRound(ctx, a, c, RoundSpec{Kind: store.RoundTest})
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
	if _, err := e.AskMatch(ctx, ann("shut"), "shut", []string{"house:x"}); !errors.Is(err, store.ErrClosed) {
		t.Errorf("a test match in a closed contest: %v", err)
	}
	if Open(mustContest(t, st, "late"), time.Now()) || !Open(mustContest(t, st, "open"), time.Now()) {
		t.Error("Open disagrees with the deadline")
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
