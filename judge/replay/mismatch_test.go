package replay_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/replay"
)

// TestTamperedReplaysSayWhatDiffers edits a real replay as a forger would - its result, one
// answer, its header - and checks that Verify names each field that differs, with the
// recorded and the re-judged value in words.
func TestTamperedReplaysSayWhatDiffers(t *testing.T) {
	good, err := os.ReadFile("../view/testdata/amazes.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(good), "\n")
	// editLine changes the first line holding old (after the header) to hold new there; new
	// "DROP" removes the line.
	editLine := func(old, new string) string {
		for i, l := range lines[1:] {
			if strings.Contains(l, old) {
				out := append([]string(nil), lines...)
				out[i+1] = strings.Replace(l, old, new, 1)
				if new == "DROP" {
					out[i+1] = ""
				}
				return strings.Join(out, "")
			}
		}
		t.Fatalf("no line holds %q", old)
		return ""
	}
	cases := []struct {
		name, replay string
		want         []replay.Difference // exactly these, in order; nil: at least one, checked by words
		words        []string
	}{
		{name: "untouched", replay: string(good)},
		{name: "score", replay: editLine(`"score":170`, `"score":175`),
			want: []replay.Difference{{Field: `player 0 ("amazes/cpp") score`, Recorded: "175", Rejudged: "170"}}},
		{name: "winner", replay: editLine(`"winner":0`, `"winner":null`),
			want: []replay.Difference{{Field: "winner", Recorded: "a draw", Rejudged: `player 0 ("amazes/cpp")`}}},
		{name: "fault", replay: editLine(`"rank":2,"fault":null`, `"rank":2,"fault":{"kind":"timeout","turn":3,"detail":"slow"}`),
			want: []replay.Difference{{Field: `player 1 ("amazes/java") fault`, Recorded: `timeout at turn 3: "slow"`, Rejudged: "no fault"}}},
		{name: "seed of the result", replay: editLine(`"game":"amazes","seed":7,"status"`, `"game":"amazes","seed":8,"status"`),
			want: []replay.Difference{{Field: "seed", Recorded: "8", Rejudged: "7"}}},
		{name: "an answer", replay: editLine(`"received":["FFR"]`, `"received":["Q"]`),
			words: []string{"exchange", "verdict", "recorded the answer accepted", "re-judged protocol at turn 3"}},
		{name: "what was sent", replay: editLine(`"sent":"W\nW\nRLNW\nW\n233\n"`, `"sent":"W\nW\nRLNW\nW\n234\n"`),
			want: []replay.Difference{{Field: "exchange 299 sent", Recorded: `"W\nW\nRLNW\nW\n234\n"`, Rejudged: `"W\nW\nRLNW\nW\n233\n"`}}},
		{name: "a move dropped", replay: editLine(`{"type":"move","turn":150,"player":1,`, "DROP"),
			words: []string{"exchange 300", "recorded the end of the match", "re-judged player 1 asked at turn 150"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := replay.Verify(strings.NewReader(c.replay), games.Lookup)
			if c.want == nil && c.words == nil {
				if err != nil {
					t.Fatalf("the untouched replay: %v", err)
				}
				return
			}
			var m *replay.MismatchError
			if !errors.As(err, &m) {
				t.Fatalf("Verify: %v, want a MismatchError", err)
			}
			if msg := err.Error(); strings.Contains(msg, "<nil>") || strings.Contains(msg, "%!") {
				t.Errorf("the message has Go's words in it: %s", msg)
			}
			if c.want != nil && !equal(m.Differences, c.want) {
				t.Errorf("differences %+v, want %+v", m.Differences, c.want)
			}
			for _, w := range c.words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q does not say %q", err, w)
				}
			}
		})
	}
}

func equal(a, b []replay.Difference) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
