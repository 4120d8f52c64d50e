package job

import (
	"errors"
	"strings"
	"testing"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/result"
)

const good = `{"version":1,"id":"m1","game":"amazes","seed":3,"options":{"turns":150,"maze":""},
 "players":[{"name":"a","lang":"cpp","files":{"a.cpp":"int main(){}"}},{"name":"b","lang":"go","files":{"b.go":"package main"}}]}`

func TestParse(t *testing.T) {
	j, err := Parse([]byte(good), games.Lookup, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	m, err := j.Match(games.Lookup, 99)
	if err != nil || m.Seed != 3 || m.Options["turns"] != "150" || len(m.Players) != 2 || m.Players[1].Submission.Lang != "go" {
		t.Errorf("match job %+v, %v", m, err)
	}
	for _, tc := range []struct {
		name, from, to, code, mention string
	}{
		{"not JSON", good, "{", result.InvalidJob, "not a job"},
		{"unknown field", `"seed":3`, `"seed":3,"colour":1`, result.InvalidJob, "colour"},
		{"version", `"version":1`, `"version":2`, result.InvalidJob, "version 2"},
		{"bad id", `"id":"m1"`, `"id":"a b"`, result.InvalidJob, "id"},
		{"unknown game", `"game":"amazes"`, `"game":"chess"`, result.UnknownGame, "chess"},
		{"player count", `,{"name":"b","lang":"go","files":{"b.go":"package main"}}`, ``, result.InvalidJob, "amazes takes 2 players, the job has 1"},
		{"unknown language", `"lang":"go"`, `"lang":"cobol"`, result.InvalidJob, "cobol"},
		{"no files", `"files":{"b.go":"package main"}`, `"files":{}`, result.InvalidJob, "no source"},
		{"path escape", `"b.go"`, `"../b.go"`, result.InvalidJob, ".."},
		{"too large", `int main(){}`, strings.Repeat("x", 2<<20), result.InvalidJob, "limit"},
		{"option type", `"turns":150`, `"turns":[1]`, result.BadOption, "turns"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := strings.Replace(good, tc.from, tc.to, 1)
			if tc.from == good {
				data = tc.to
			}
			_, err := Parse([]byte(data), games.Lookup, 1<<20)
			if err == nil {
				t.Fatal("accepted")
			}
			if Code(err) != tc.code || !strings.Contains(Message(err), tc.mention) || strings.HasPrefix(Message(err), tc.code) {
				t.Errorf("code %q message %q; want %s mentioning %q, without the code", Code(err), Message(err), tc.code, tc.mention)
			}
		})
	}
}

// Every language of images.Langs is accepted, and the message for an unknown one lists them
// all, in the table's order: a language added to images.Langs is covered here without an edit.
func TestParseKnowsEveryLanguage(t *testing.T) {
	var names []string
	for _, l := range images.Langs() {
		names = append(names, l.Name)
		t.Run(l.Name, func(t *testing.T) {
			data := strings.Replace(good, `"lang":"go","files":{"b.go"`, `"lang":"`+l.Name+`","files":{"b`+l.Exts[0]+`"`, 1)
			if j, err := Parse([]byte(data), games.Lookup, 1<<20); err != nil || j.Players[1].Lang != l.Name {
				t.Errorf("a %s player: %+v, %v", l.Name, j.Players, err)
			}
		})
	}
	_, err := Parse([]byte(strings.Replace(good, `"lang":"go"`, `"lang":"cobol"`, 1)), games.Lookup, 1<<20)
	want := `player 1 (b): unknown language "cobol" (known: ` + strings.Join(names, ", ") + ")"
	if Code(err) != result.InvalidJob || Message(err) != want {
		t.Errorf("code %q message %q; want %s %q", Code(err), Message(err), result.InvalidJob, want)
	}
}

func TestCodeAndMessageOfMatchErrors(t *testing.T) {
	err := &match.Error{Code: result.BadOption, Err: errors.New("option turns: 999 is out of range")}
	if Code(err) != result.BadOption || Message(err) != "option turns: 999 is out of range" {
		t.Errorf("code %q message %q", Code(err), Message(err))
	}
	other := errors.New("engine down")
	if Code(other) != result.Infrastructure || Message(other) != "engine down" {
		t.Errorf("code %q message %q", Code(other), Message(other))
	}
}
