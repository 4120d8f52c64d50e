package job

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/result"
)

const good = `{"version":1,"id":"m1","game":"amazes","seed":3,"options":{"turns":150,"maze":""},
 "players":[{"name":"a","lang":"cpp","files":{"a.cpp":"int main(){}"}},{"name":"b","lang":"go","files":{"b.go":"package main"}}]}`

// four is a job of a four-player game, good's counterpart.
const four = `{"version":1,"id":"m4","game":"langwars","seed":3,"options":{"turns":10},
 "players":[{"name":"a","lang":"cpp","files":{"a.cpp":"int main(){}"}},{"name":"b","lang":"go","files":{"b.go":"package main"}},
 {"name":"c","lang":"cpp","files":{"a.cpp":"int main(){}"}},{"name":"d","lang":"go","files":{"b.go":"package main"}}]}`

var rules = Rules{Game: games.Lookup, Langs: images.LangNames(), MaxSource: 1 << 20}

// A build job may have any number of players but none; a match job the game's number.
func TestParseBuildJob(t *testing.T) {
	one := `{"version":1,"id":"b1","game":"amazes","kind":"build","players":[{"name":"a","lang":"cpp","files":{"a.cpp":"int main(){}"}}]}`
	if j, _, err := Parse([]byte(one), rules); err != nil || j.Kind != KindBuild {
		t.Errorf("a build job of one player: %+v %v", j, err)
	}
	if _, _, err := Parse([]byte(strings.Replace(one, `"kind":"build"`, `"kind":"match"`, 1)), rules); !errors.Is(err, result.InvalidJob) {
		t.Errorf("a match job of one player: %v", err)
	}
}

func TestParse(t *testing.T) {
	j, _, err := Parse([]byte(good), rules)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := j.StringOptions()
	if err != nil || opts["turns"] != "150" || opts["maze"] != "" || *j.Seed != 3 || string(j.Players[1].Sources()["b.go"]) != "package main" {
		t.Errorf("job %+v, options %v, %v", j, opts, err)
	}
	if j, _, err := Parse([]byte(four), rules); err != nil || len(j.Players) != 4 || j.Players[3].Name != "d" {
		t.Errorf("a four-player job: %+v, %v", j, err)
	}
	for _, tc := range []struct {
		name, from, to string
		code           result.Code
		mention        string
		newer          bool // a newer judge's job (NewerError): handed back, not failed at once
	}{
		{"not JSON", good, "{", result.InvalidJob, "not a job", false},
		{"unknown field", `"seed":3`, `"seed":3,"colour":1`, result.InvalidJob, `the field "colour" is not one this judge knows`, true},
		{"version", `"version":1`, `"version":2`, result.InvalidJob, "version 2 (this judge reads 1)", true},
		{"version 0", `"version":1`, `"version":0`, result.InvalidJob, "version 0 is not supported", false},
		{"bad id", `"id":"m1"`, `"id":"a b"`, result.InvalidJob, "id", false},
		{"unknown game", `"game":"amazes"`, `"game":"chess"`, result.UnknownGame, "chess", false},
		{"player count", `,{"name":"b","lang":"go","files":{"b.go":"package main"}}`, ``, result.InvalidJob, "amazes takes 2 players, the match has 1", false},
		{"player count of a four-player game", good, strings.Replace(four, `,{"name":"d","lang":"go","files":{"b.go":"package main"}}`, ``, 1),
			result.InvalidJob, "langwars takes 4 players, the match has 3", false},
		{"unknown language", `"lang":"go"`, `"lang":"cobol"`, result.InvalidJob, "cobol", false},
		{"no files", `"files":{"b.go":"package main"}`, `"files":{}`, result.InvalidJob, "no source", false},
		{"path escape", `"b.go"`, `"../b.go"`, result.InvalidJob, "..", false},
		{"file and directory", `"files":{"b.go":"package main"}`, `"files":{"b":"x","b/b.go":"package main"}`, result.InvalidJob, "both a file and the directory", false},
		{"too large", `int main(){}`, strings.Repeat("x", 2<<20), result.InvalidJob, "limit", false},
		{"option type", `"turns":150`, `"turns":[1]`, result.BadOption, "turns", false},
		{"unknown kind", `"seed":3`, `"seed":3,"kind":"train"`, result.InvalidJob, "kind", false},
		{"a build job of no player", good, `{"version":1,"id":"b1","game":"amazes","kind":"build","players":[]}`, result.InvalidJob, "at least one player", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := strings.Replace(good, tc.from, tc.to, 1)
			if tc.from == good {
				data = tc.to
			}
			_, _, err := Parse([]byte(data), rules)
			if err == nil {
				t.Fatal("accepted")
			}
			e := result.AsError(err)
			if !errors.Is(err, tc.code) || !strings.Contains(e.Message, tc.mention) || strings.HasPrefix(e.Message, string(tc.code)) {
				t.Errorf("code %q message %q; want %s mentioning %q, without the code", e.Code, e.Message, tc.code, tc.mention)
			}
			if newer := errors.As(err, new(*NewerError)); newer != tc.newer {
				t.Errorf("a newer judge's job: %v, want %v", newer, tc.newer)
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
			if j, _, err := Parse([]byte(data), rules); err != nil || j.Players[1].Lang != l.Name {
				t.Errorf("a %s player: %+v, %v", l.Name, j.Players, err)
			}
		})
	}
	_, _, err := Parse([]byte(strings.Replace(good, `"lang":"go"`, `"lang":"cobol"`, 1)), rules)
	want := `player 1 (b): unknown language "cobol" (known: ` + strings.Join(names, ", ") + ")"
	if e := result.AsError(err); e.Code != result.InvalidJob || e.Message != want {
		t.Errorf("code %q message %q; want %s %q", e.Code, e.Message, result.InvalidJob, want)
	}
}

// The one error type: its code answers errors.Is, its cause is kept (errors.Is and errors.As
// reach it), and any other error is the judge's own (infrastructure).
func TestErrors(t *testing.T) {
	cause := errors.New("option turns: 999 is out of range")
	err := fmt.Errorf("starting the match: %w", result.Errorf(result.BadOption, "%w", cause))
	if e := result.AsError(err); e.Code != result.BadOption || e.Message != cause.Error() || e.Error() != "bad_option: "+cause.Error() {
		t.Errorf("code %q message %q error %q", e.Code, e.Message, e.Error())
	}
	if !errors.Is(err, result.BadOption) || errors.Is(err, result.InvalidJob) || !errors.Is(err, cause) {
		t.Errorf("errors.Is: bad_option %v, invalid_job %v, the cause %v; want true, false, true",
			errors.Is(err, result.BadOption), errors.Is(err, result.InvalidJob), errors.Is(err, cause))
	}
	other := errors.New("engine down")
	if e := result.AsError(other); e.Code != result.Infrastructure || e.Message != "engine down" || !errors.Is(e, other) {
		t.Errorf("another error: code %q message %q", e.Code, e.Message)
	}
	if _, _, err := Parse([]byte(`{`), rules); !errors.Is(err, result.InvalidJob) {
		t.Errorf("a job that is not JSON: %v", err)
	}
}
