package portal_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/api"
	apiclient "github.com/botjudge/judge/judge/api/client"
	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
)

// The API's types are the portal's answers, whole: every answer the client reads decodes
// into its judge/api type with no field left over (a handler that answers with anything else,
// a map or a record of the store, fails here), and the client reads each as the portal said
// it, through the portal's real HTTP server.
func TestTheAPITypesAreThePortalsAnswers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", func(c *store.Contest) {
		c.Ladder = true
		c.LadderSettings = ladder.Settings{InFlight: 1, DisableFaults: 2, DisableWindow: 4}
		c.Deadline = time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	})
	ann := e.user("spring", "ann", false)
	ann.activeVersion("spring", "int main() { /* ann */ }")
	bob := e.user("spring", "bob", false)
	bob.activeVersion("spring", "int main() { /* bob */ }")
	eventually(t, 30*time.Second, func() error {
		if rows := ann.leaderboard("spring"); len(rows) != 2 || rows[0]["matches"].(float64) < 1 {
			return fmt.Errorf("the leaderboard: %v", rows)
		}
		return nil
	})
	cl := &apiclient.Client{URL: e.srv.URL, Token: ann.token}
	ctx := t.Context()
	asked, err := cl.AskMatch(ctx, "spring", api.MatchRequest{Opponents: []string{"house:easy"}})
	if err != nil {
		t.Fatal(err)
	}
	ann.waitMatch(asked.ID)

	strict := func(path string, into any) {
		t.Helper()
		code, _, _ := ann.api("GET", path, nil, "")
		r, err := cl.Open(ctx, "GET", path, nil, "")
		if err != nil || code != 200 {
			t.Fatalf("GET %s: %d %v", path, code, err)
		}
		defer r.Close()
		data, _ := io.ReadAll(r)
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(into); err != nil {
			t.Errorf("GET %s is not its api type %T: %v\n%s", path, into, err, data)
		}
	}
	subs, _, err := cl.Submissions(ctx, "spring", "")
	if err != nil || len(subs.Submissions) != 1 || subs.Submissions[0].Status != api.StatusActive || subs.Submissions[0].Ladder == nil {
		t.Fatalf("ann's versions: %v %+v", err, subs)
	}
	id := subs.Submissions[0].ID
	var sub api.Submission
	strict("/api/v1/submissions/"+id, &sub)
	// The ladder plays on between the two reads: its numbers may move, the version's do not.
	got, _, err := cl.Submission(ctx, id)
	if err != nil || got.ID != sub.ID || got.Version != sub.Version || got.Status != sub.Status || !reflect.DeepEqual(got.Build, sub.Build) ||
		!reflect.DeepEqual(got.Validation, sub.Validation) || got.Ladder == nil || sub.Build == nil || !sub.Build.OK || sub.Validation == nil || sub.Ladder.Versus["bob"] == nil {
		t.Errorf("the version: %v\n%+v\n%+v", err, got, sub)
	}
	var page api.Submissions
	strict("/api/v1/contests/spring/submissions", &page)
	var m api.Match
	strict("/api/v1/matches/"+asked.ID, &m)
	if got, _, err := cl.Match(ctx, asked.ID); err != nil || m.Result == nil || got.ID != asked.ID || len(got.Players) != 2 {
		t.Errorf("the match: %v %+v", err, got)
	}
	var ms api.Matches
	strict("/api/v1/contests/spring/matches?mine=1", &ms)
	if len(ms.Matches) == 0 {
		t.Errorf("ann's matches: %+v", ms)
	}
	var board api.Leaderboard
	strict("/api/v1/contests/spring/leaderboard", &board)
	if len(board.Rows) != 2 || board.Rows[0].Rank != 1 {
		t.Errorf("the leaderboard: %+v", board)
	}
	var ct api.Contest
	strict("/api/v1/contests/spring", &ct)
	if got, _, err := cl.Contest(ctx, "spring"); err != nil || got.Name != "spring" || got.Game != "amazes" || got.Players != 2 || got.Deadline == nil || got.ClosedAt != nil || !reflect.DeepEqual(got.House, []string{"easy"}) {
		t.Errorf("the contest: %v %+v", err, got)
	}
	org := e.user("spring", "org", true)
	body, _ := json.Marshal(api.RoundSpec{Kind: "test"})
	code, started, _ := org.api("POST", "/api/v1/contests/spring/rounds", bytes.NewReader(body), "application/json")
	if code != 202 {
		t.Fatalf("a test round: %d %v", code, started)
	}
	org.waitRound(started["id"].(string))
	var round api.Round
	strict("/api/v1/rounds/"+started["id"].(string), &round)
	if round.Status != "done" || round.Outcome == nil || len(round.Entrants) != 2 || round.Entrants[0].Source != "" {
		t.Errorf("the round as ann sees it: %+v", round)
	}
	var rounds api.Rounds
	strict("/api/v1/contests/spring/rounds", &rounds)
	if len(rounds.Rounds) != 1 {
		t.Errorf("the contest's rounds: %+v", rounds)
	}
	if r, err := cl.Replay(ctx, asked.ID); err != nil {
		t.Errorf("the replay: %v", err)
	} else {
		r.Close()
	}
	if _, _, err := cl.Submission(ctx, "s-bobs"); err == nil {
		t.Error("a version that is not ann's was read")
	}
}
