package referee_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/gametest"
	"github.com/botjudge/judge/judge/game/manifest"
	"github.com/botjudge/judge/judge/game/referee"
	"github.com/botjudge/judge/judge/games"
)

// served is game g as a referee program (referee.Serve) on pipes, and the Match over it.
func served(t *testing.T, g game.Game, c game.Config) (game.Match, error) {
	t.Helper()
	toRef, fromJudge := io.Pipe()
	fromRef, toJudge := io.Pipe()
	ended := make(chan error, 1)
	go func() {
		err := referee.Serve(g, toRef, toJudge)
		toJudge.CloseWithError(fmt.Errorf("the referee ended: %v", err))
		ended <- err
	}()
	t.Cleanup(func() {
		fromJudge.Close()
		if err := <-ended; err != nil {
			t.Errorf("referee.Serve: %v", err)
		}
	})
	return referee.Start(referee.NewConn(fromRef, fromJudge), c)
}

// words are each game's move words, as its conformance case gives them.
var words = map[string][]string{
	"amazes":    {"F", "L", "R", "T", "FF", "LFR", "TF"},
	"dropblock": {"U", "R", "D", "L", "A", "N"},
	"langwars":  {"0", "1", "2", "3", "4", "5", "6", "7", "0 1 2 3 4", "7 7"},
	"ontherun":  {"C", "T", "P", "1", "2", "3", "7", "12", "40", "199"},
	"snakecore": {"getName", "N", "E", "S", "W", "U", "D", "L", "R", "1", "2", "-1", "python"},
}

// moment is what the judge sees of a match at one step: the request, the verdict, the
// picture (JSON).
type moment struct {
	Request game.Request
	Verdict *game.Fault
	View    string
}

// stepByStep plays m with the answers of seed as the referee does (gametest.Drive) and
// records each step as the film sees it: the setup, each request and verdict with the
// picture after it, the result.
func stepByStep(t *testing.T, m game.Match, ws []string, seed uint64) (string, []moment, game.Result) {
	t.Helper()
	setup, err := json.Marshal(m.Setup())
	if err != nil {
		t.Fatal(err)
	}
	picture := func() string {
		v, ok := m.(game.Viewer)
		if !ok {
			return ""
		}
		b, err := json.Marshal(v.View())
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	random := gametest.RandomAnswers(ws, seed)
	views := []string{picture()}
	log := gametest.DriveWatching(t, m, func(req game.Request) game.Reply {
		r := random(req)
		for i, l := range r.Lines { // as the protocol carries them
			r.Lines[i] = strings.ToValidUTF8(l, string(utf8.RuneError))
		}
		return r
	}, func() { views = append(views, picture()) })
	if err, ok := m.(interface{ Err() error }); ok && err.Err() != nil {
		t.Fatalf("the referee ended the match: %v", err.Err())
	}
	steps := []moment{{View: views[0]}}
	for i, x := range log {
		steps = append(steps, moment{Request: x.Request, Verdict: x.Verdict, View: views[i+1]})
	}
	return string(setup), steps, m.Result()
}

// Every built-in game, played through the protocol (the game as a referee program, Serve, and
// the judge's side, Match), is the same match as played directly, step for step: the setup,
// every request, every verdict, every picture, the result. So the protocol carries all the
// five games use: files, ready lines, intro requests, notices, per-request limits, the
// judge's faults and the game's own, pictures.
func TestEveryGameThroughTheProtocol(t *testing.T) {
	for _, g := range games.All() {
		ws, ok := words[g.Name()]
		if !ok {
			t.Errorf("no words for %s", g.Name())
			continue
		}
		lo, hi, def := g.Players()
		for _, n := range []int{lo, def, hi} {
			for seed := range uint64(4) {
				t.Run(fmt.Sprintf("%s/%d/%d", g.Name(), n, seed), func(t *testing.T) {
					c := game.Config{Seed: seed + 1, Players: n}
					direct, err := game.Start(g, c)
					if err != nil {
						t.Skipf("%s does not start with %d players and its defaults: %v", g.Name(), n, err)
					}
					through, err := served(t, g, c)
					if err != nil {
						t.Fatalf("through the protocol: %v", err)
					}
					if _, ok := direct.(game.Viewer); ok {
						if _, ok := through.(game.Viewer); !ok {
							t.Fatal("the game draws pictures, and through the protocol it does not")
						}
					}
					s1, m1, r1 := stepByStep(t, direct, ws, seed)
					s2, m2, r2 := stepByStep(t, through, ws, seed)
					if s1 != s2 {
						t.Errorf("setup:\n%s\nthrough the protocol:\n%s", s1, s2)
					}
					for i := range max(len(m1), len(m2)) {
						if i >= len(m1) || i >= len(m2) {
							t.Fatalf("%d steps directly, %d through the protocol", len(m1), len(m2))
						}
						if !reflect.DeepEqual(m1[i], m2[i]) {
							t.Fatalf("step %d:\n%+v\nthrough the protocol:\n%+v", i, m1[i], m2[i])
						}
					}
					if !reflect.DeepEqual(r1, r2) {
						t.Errorf("result %+v, through the protocol %+v", r1, r2)
					}
				})
			}
		}
	}
}

// Bad options are refused by the referee as the game refuses them: an OptionError.
func TestOptionsRefusedThroughTheProtocol(t *testing.T) {
	g, _ := games.Lookup("amazes")
	_, err := served(t, g, game.Config{Seed: 1, Players: 2, Options: map[string]string{"turns": "-3"}})
	var oe *game.OptionError
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "turns") {
		t.Errorf("turns=-3: %v, want an OptionError naming turns", err)
	}
}

// script is a referee that answers with the given lines in turn, whatever it is told.
type script struct {
	lines []string
	n     int
}

func (s *script) Exchange([]byte) ([]byte, error) {
	if s.n >= len(s.lines) {
		return nil, errors.New("its output ended")
	}
	s.n++
	return []byte(s.lines[s.n-1]), nil
}

const (
	okSetup = `{"type":"setup","options":{},"memory":1048576,"next":[{"player":0,"turn":1,"send":"go\n","expect":1,"limit_us":1000}]}`
)

// A referee that breaks the protocol or contradicts itself ends the match as its own error,
// named, never as a player's fault: Next reports the match over and Err says why.
func TestHostileReferee(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		reply *game.Reply // the player's answer to the first request
		want  string
	}{
		{"not JSON", []string{"hello"}, nil, "not the protocol's JSON"},
		{"two values", []string{`{"type":"setup"} {}`}, nil, "more than one JSON value"},
		{"an unknown field", []string{`{"type":"setup","next":[],"done":{"scores":[0,0]},"cheat":1}`}, nil, "not the protocol's JSON"},
		{"silence", nil, nil, "no answer"},
		{"a bot's type", []string{`{"type":"judged"}`}, nil, "not a setup or an error"},
		{"a player who does not exist", []string{`{"type":"setup","next":[{"player":2,"turn":1,"send":"go\n","expect":1,"limit_us":1000}]}`}, nil, "a request to player 2"},
		{"a negative player", []string{`{"type":"setup","next":[{"player":-1,"turn":1,"send":"go\n","expect":1,"limit_us":1000}]}`}, nil, "a request to player -1"},
		{"no time limit", []string{`{"type":"setup","next":[{"player":0,"turn":1,"send":"go\n","expect":1}]}`}, nil, "no time limit"},
		{"half a line", []string{`{"type":"setup","next":[{"player":0,"turn":1,"send":"go","expect":1,"limit_us":1000}]}`}, nil, "does not end its last line"},
		{"nothing next", []string{`{"type":"setup","next":[]}`}, nil, "neither waits for an answer nor ends"},
		{"two waits", []string{`{"type":"setup","next":[{"player":0,"turn":1,"send":"a\n","expect":1,"limit_us":1},{"player":1,"turn":1,"send":"b\n","expect":1,"limit_us":1}]}`}, nil, "only the last may"},
		{"waits and ends", []string{`{"type":"setup","next":[{"player":0,"turn":1,"send":"a\n","expect":1,"limit_us":1}],"done":{"scores":[1,0]}}`}, nil, "ends the match and waits"},
		{"scores for three", []string{`{"type":"setup","next":[],"done":{"scores":[1,0,0]}}`}, nil, "3 scores, the match has 2 players"},
		{"a rank of 3 of 2", []string{`{"type":"setup","next":[],"done":{"scores":[1,0],"ranks":[1,3]}}`}, nil, "ranked 3 of 2"},
		{"files for one", []string{`{"type":"setup","files":[{"a.txt":"x"}],"next":[],"done":{"scores":[1,0]}}`}, nil, "files for 1 players"},
		{"a file that is a path", []string{`{"type":"setup","files":[{"../x":"x"},{}],"next":[],"done":{"scores":[1,0]}}`}, nil, "a file name, not a path"},
		{"a crash declared", []string{okSetup, `{"type":"judged","fault":{"kind":"crash","detail":"no"},"next":[],"done":{"scores":[0,1]}}`},
			&game.Reply{Lines: []string{"x"}}, `a fault of kind "crash"`},
		{"a kind of its own", []string{okSetup, `{"type":"judged","fault":{"kind":"cheating","detail":"no"},"next":[],"done":{"scores":[0,1]}}`},
			&game.Reply{Lines: []string{"x"}}, `a fault of kind "cheating"`},
		{"a timeout judged as legal", []string{okSetup, `{"type":"judged","fault":{"kind":"illegal_move","detail":"no"},"next":[],"done":{"scores":[0,1]}}`},
			&game.Reply{Fault: &game.Fault{Kind: game.Timeout, Turn: 1}}, "timeout judged as illegal_move"},
		{"a setup for a reply", []string{okSetup, `{"type":"setup","next":[],"done":{"scores":[0,1]}}`},
			&game.Reply{Lines: []string{"x"}}, `not judged`},
		{"a fault for a player already out", []string{okSetup,
			`{"type":"judged","fault":{"kind":"illegal_move","detail":"no"},"next":[{"player":0,"turn":2,"send":"go\n","expect":1,"limit_us":1000}]}`,
			`{"type":"judged","fault":{"kind":"protocol","detail":"again"},"next":[],"done":{"scores":[0,1]}}`},
			&game.Reply{Lines: []string{"x"}}, "a fault for player 0, out since turn 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := referee.Start(&script{lines: tc.lines}, game.Config{Seed: 1, Players: 2})
			for err == nil {
				req, over := m.Next()
				if over {
					err = m.(interface{ Err() error }).Err()
					if err == nil {
						t.Fatalf("the match ended well: %+v", m.Result())
					}
					break
				}
				if req.Expect == 0 && req.Ready == "" {
					continue
				}
				r := game.Reply{Lines: []string{"x"}}
				if tc.reply != nil {
					r = *tc.reply
				}
				m.Reply(r)
			}
			if !referee.IsReferee(err) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v; want the referee's error saying %q", err, tc.want)
			}
		})
	}
}

// A referee's own verdicts take the request's turn and count as the player's first fault; the
// judge's faults are the verdict whatever the referee says; ranks given are kept.
func TestVerdictsAndResult(t *testing.T) {
	s := &script{lines: []string{
		`{"type":"setup","options":{"k":"v"},"memory":1048576,"files":[{"in.txt":"one"},{"in.txt":"two"}],"world":{"w":1},"next":[{"player":1,"turn":0,"send":"hello\n","expect":0},{"player":0,"turn":1,"send":"go\n","expect":1,"limit_us":2000}]}`,
		`{"type":"judged","fault":{"kind":"illegal_move","detail":"off the board"},"next":[{"player":1,"turn":2,"send":"","expect":0,"ready":"OK","limit_us":5000,"intro":true}]}`,
		`{"type":"judged","fault":null,"next":[],"done":{"scores":[3,3],"ranks":[2,1]}}`,
	}}
	m, err := referee.Start(s, game.Config{Seed: 1, Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	setup := m.Setup()
	if setup.Options["k"] != "v" || setup.Memory != 1<<20 || string(setup.Files[1]["in.txt"]) != "two" || string(setup.World.(json.RawMessage)) != `{"w":1}` {
		t.Errorf("setup %+v", setup)
	}
	if req, _ := m.Next(); req.Player != 1 || req.Send != "hello\n" || req.Expect != 0 {
		t.Errorf("the notice: %+v", req)
	}
	req, _ := m.Next()
	if again, _ := m.Next(); req.Player != 0 || req.Limit.Microseconds() != 2000 || again != req {
		t.Errorf("the request: %+v, then %+v", req, again)
	}
	if v := m.Reply(game.Reply{Lines: []string{"e9"}}); v == nil || v.Kind != game.IllegalMove || v.Turn != 1 || v.Detail != "off the board" {
		t.Errorf("the referee's verdict: %+v", v)
	}
	req, _ = m.Next()
	if req.Ready != "OK" || !req.Intro {
		t.Errorf("the ready request: %+v", req)
	}
	timeout := &game.Fault{Kind: game.Timeout, Turn: 2, Detail: "no ready line"}
	if v := m.Reply(game.Reply{Fault: timeout}); v != timeout {
		t.Errorf("the judge's fault came back as %+v", v)
	}
	if _, over := m.Next(); !over {
		t.Fatal("the match goes on")
	}
	res := m.Result()
	if res.Ranks[0] != 2 || res.Ranks[1] != 1 || res.Winner == nil || *res.Winner != 1 || res.Faults[0].Kind != game.IllegalMove || res.Faults[1].Kind != game.Timeout {
		t.Errorf("result %+v (faults %+v %+v)", res, res.Faults[0], res.Faults[1])
	}
}

// servedGame is an added game as the judge holds one: its manifest, and a referee program per
// match (here g's rules, referee.Serve, on pipes); started counts the programs started.
func servedGame(t *testing.T, m manifest.Manifest, g game.Game, started *atomic.Int64) *referee.Game {
	return &referee.Game{Manifest: m, Start: func() (referee.Conn, io.Closer, error) {
		started.Add(1)
		toRef, fromJudge := io.Pipe()
		fromRef, toJudge := io.Pipe()
		go func() {
			err := referee.Serve(g, toRef, toJudge)
			toJudge.CloseWithError(fmt.Errorf("the referee ended: %v", err))
		}()
		return referee.NewConn(fromRef, fromJudge), fromJudge, nil
	}}
}

// An added game passes the conformance suite every built-in game passes - option bounds,
// player counts, random play with faults, determinism, pictures, the replay's round trip -
// here Amazes' rules as a referee program behind a manifest of its options. Checking a
// match's options starts no referee.
func TestAddedGameConformance(t *testing.T) {
	m := manifest.Manifest{Name: "mazes", Title: "Amazes, refereed", Players: manifest.Players{Min: 2, Max: 2, Default: 2}, MemoryMiB: 256,
		Options: []manifest.Option{
			{Name: "turns", Type: "int", Default: "150", Min: "1", Max: "150", Help: "turns per player"},
			{Name: "time", Type: "duration", Default: "30s", Min: "1ms", Max: "1h", Help: "CPU time per player for the whole game"},
			{Name: "maze", Type: "text", Help: "a maze in CodeCup's file layout"},
		}}
	amazes, _ := games.Lookup("amazes")
	var started atomic.Int64
	g := servedGame(t, m, amazes, &started)
	if _, err := game.Start(g, game.Config{Seed: 1, Players: 2, Options: map[string]string{"turns": "9"}}); err != nil || started.Load() != 0 {
		t.Fatalf("checking a match: %v, %d referees started", err, started.Load())
	}
	if _, err := game.Start(g, game.Config{Seed: 1, Players: 2, Options: map[string]string{"turns": "900"}}); err == nil || started.Load() != 0 {
		t.Fatalf("turns=900: %v, %d referees started; want the manifest's refusal, no referee", err, started.Load())
	}
	gametest.Conformance(t, g, gametest.Case{Words: words["amazes"], Seeds: 6})
	if started.Load() == 0 {
		t.Error("no referee was started")
	}
}

// A referee program that cannot start, or that refuses options its manifest allows, is the
// referee's error: the match is over before it began, and says why.
func TestAddedGameWhoseRefereeFails(t *testing.T) {
	m := manifest.Manifest{Name: "mazes", Title: "x", Players: manifest.Players{Min: 2, Max: 2, Default: 2}, MemoryMiB: 256,
		Options: []manifest.Option{{Name: "turns", Type: "int", Default: "150", Min: "1", Max: "1000"}}}
	amazes, _ := games.Lookup("amazes")
	var started atomic.Int64
	for _, tc := range []struct {
		name string
		g    *referee.Game
		opts map[string]string
		want string
	}{
		{"no program", &referee.Game{Manifest: m, Start: func() (referee.Conn, io.Closer, error) { return nil, nil, errors.New("no such image") }}, nil, "did not start: no such image"},
		{"options it refuses", servedGame(t, m, amazes, &started), map[string]string{"turns": "999"}, "refused options its manifest allows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			match, err := game.Start(tc.g, game.Config{Seed: 1, Players: 2, Options: tc.opts})
			if err != nil {
				t.Fatal(err)
			}
			if _, over := match.Next(); !over {
				t.Fatal("the match goes on")
			}
			err = match.(interface{ Err() error }).Err()
			if !referee.IsReferee(err) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v; want the referee's error saying %q", err, tc.want)
			}
		})
	}
}

// A referee of several files in a language that starts from one name (Python's main.py) runs
// from its manifest's main, or the first of its files: that file is given to the build as
// main.py; a main.py among its files beside another main is refused, saying why.
func TestRefereeMain(t *testing.T) {
	check := manifest.Check{Langs: images.LangNames()}
	game := func(referee string, files ...string) fstest.MapFS {
		fsys := fstest.MapFS{"game.yaml": {Data: []byte("name: tictac\ntitle: T\nplayers: {min: 2, max: 2, default: 2}\nmemory_mib: 64\nreferee:\n" + referee)}}
		for _, f := range files {
			fsys[f] = &fstest.MapFile{Data: []byte("# " + f)}
		}
		return fsys
	}
	for _, c := range []struct {
		name, referee string
		files         []string
		want          string // the sources given to the build, with main.py's content
		err           string
	}{
		{"the first file", "  lang: python\n  files: [referee.py, game_core.py]\n", []string{"referee.py", "game_core.py"}, "game_core.py main.py=# referee.py", ""},
		{"main named", "  lang: python\n  files: [game_core.py, referee.py]\n  main: referee.py\n", []string{"referee.py", "game_core.py"}, "game_core.py main.py=# referee.py", ""},
		{"main.py itself", "  lang: python\n  files: [main.py, lib/rules.py]\n", []string{"main.py", "lib/rules.py"}, "lib/rules.py main.py=# main.py", ""},
		{"one file", "  lang: python\n  files: [referee.py]\n", []string{"referee.py"}, "referee.py", ""},
		{"a compiler of every file", "  lang: cpp\n  files: [referee.cpp, rules.cpp]\n", []string{"referee.cpp", "rules.cpp"}, "referee.cpp rules.cpp", ""},
		{"main.py beside another main", "  lang: python\n  files: [referee.py, main.py]\n", []string{"referee.py", "main.py"}, "", "referee.main: the referee starts from referee.py, but main.py is among referee.files too"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := referee.Load(game(c.referee, c.files...), check)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("err %v; want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, name := range slices.Sorted(maps.Keys(g.Sources)) {
				if name == "main.py" {
					name += "=" + string(g.Sources[name])
				}
				got = append(got, name)
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("the build's sources %q; want %q", got, c.want)
			}
		})
	}
}

// A referee's error counts its answers one way, from 1 (its answer to the start), whether its
// answer is no JSON or breaks the protocol, and says what the answer was to: the start, or
// which player's reply at which turn.
func TestRefereeErrorsNameTheirAnswer(t *testing.T) {
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{[]string{"hello"}, "the referee, at its answer 1 (to the start): its answer (5 bytes) is not the protocol's JSON"},
		{[]string{`{"type":"setup","next":[]}`}, "the referee, at its answer 1 (to the start): "},
		{[]string{okSetup, "hello"}, "the referee, at its answer 2 (to player 0's reply at turn 1): its answer (5 bytes) is not the protocol's JSON"},
		{[]string{okSetup, `{"type":"judged","fault":{"kind":"crash","detail":"no"},"next":[],"done":{"scores":[0,1]}}`}, "the referee, at its answer 2 (to player 0's reply at turn 1): a fault of kind"},
	} {
		m, err := referee.Start(&script{lines: c.lines}, game.Config{Seed: 1, Players: 2})
		if err == nil {
			if req, over := m.Next(); !over && (req.Expect > 0 || req.Ready != "") {
				m.Reply(game.Reply{Lines: []string{"x"}})
			}
			m.Next()
			err = m.(interface{ Err() error }).Err()
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v; want %q", c.lines, err, c.want)
		}
	}
}
