package view_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/view"
)

// Every test replay is a real match (judge play with the repository's bots); its film has a
// picture for every step, and the last picture's scores are the result's.
func TestFilmOfEveryGame(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name(), func(t *testing.T) {
			rp := readReplay(t, filepath.Join("testdata", g.Name()+".jsonl"))
			f := view.Make(rp, games.Lookup)
			if f.Problem != "" {
				t.Fatalf("problem: %s", f.Problem)
			}
			if len(f.FrameOf) != len(rp.Exchanges)+1 {
				t.Fatalf("%d steps for %d exchanges", len(f.FrameOf), len(rp.Exchanges))
			}
			for s, i := range f.FrameOf {
				if i < 0 || i >= len(f.Frames) {
					t.Fatalf("step %d has picture %d of %d", s, i, len(f.Frames))
				}
			}
			var last game.View
			if err := json.Unmarshal(f.Frames[f.FrameOf[len(f.FrameOf)-1]], &last); err != nil {
				t.Fatal(err)
			}
			if want := scoresOf(rp.Result); !reflect.DeepEqual(last.Scores, want) {
				t.Errorf("the last picture's scores are %v, the result's %v", last.Scores, want)
			}
			if len(f.Frames) < 2 {
				t.Errorf("%d distinct pictures for %d exchanges: the match does not move", len(f.Frames), len(rp.Exchanges))
			}
			b, _ := json.Marshal(f)
			t.Logf("%d exchanges, %d distinct pictures, film %d KiB", len(rp.Exchanges), len(f.Frames), len(b)>>10)
		})
	}
}

// A replay that departs from its game keeps the pictures up to where it departs, and says
// why the rest has none; one of a game this judge does not know shows its exchanges.
func TestFilmOfABadReplay(t *testing.T) {
	rp := readReplay(t, filepath.Join("testdata", "amazes.jsonl"))
	k := len(rp.Exchanges) / 2
	for rp.Exchanges[k].Expect == 0 {
		k++
	}
	rp.Exchanges[k].Received = []string{"Q"}
	f := view.Make(rp, games.Lookup)
	if !strings.Contains(f.Problem, "departs from the game") || len(f.Mismatch) != 1 || !strings.Contains(f.Mismatch[0].Field, "verdict") {
		t.Errorf("problem %q, differences %+v", f.Problem, f.Mismatch)
	}
	if f.FrameOf[k] < 0 || f.FrameOf[k+1] != -1 {
		t.Errorf("steps %d and %d have pictures %d and %d: want the first and not the second", k, k+1, f.FrameOf[k], f.FrameOf[k+1])
	}

	rp.Header.Game = "chess"
	f = view.Make(rp, games.Lookup)
	if !strings.Contains(f.Problem, `does not know the game "chess"`) || len(f.Frames) != 0 || len(f.Exchanges) != len(rp.Exchanges) {
		t.Errorf("unknown game: problem %q, %d pictures, %d exchanges", f.Problem, len(f.Frames), len(f.Exchanges))
	}
}

func TestServer(t *testing.T) {
	srv := httptest.NewServer((&view.Server{Source: &view.Files{Paths: []string{"testdata"}}, Lookup: games.Lookup, Title: "T"}).Handler())
	defer srv.Close()
	get := func(path string) (int, http.Header, []byte) {
		t.Helper()
		r, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		return r.StatusCode, r.Header, b
	}
	code, h, body := get("/")
	if code != 200 || !strings.Contains(string(body), `src="static/app.js"`) || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'self'") {
		t.Errorf("index: %d %q %s", code, h.Get("Content-Security-Policy"), body)
	}
	if code, _, body := get("/static/app.js"); code != 200 || !bytes.Contains(body, []byte("JudgeView")) {
		t.Errorf("app.js: %d", code)
	}

	var list struct {
		Title   string
		Matches []struct {
			Key, ID, Game string
			Replay        bool
			Players       []struct{ Name string }
		}
	}
	code, _, body = get("/api/list")
	if err := json.Unmarshal(body, &list); code != 200 || err != nil || list.Title != "T" {
		t.Fatalf("list: %d %v %s", code, err, body)
	}
	keys := map[string]bool{}
	for _, m := range list.Matches {
		keys[m.Key] = m.Replay && len(m.Players) > 0
	}
	for _, g := range games.All() {
		if !keys[filepath.Join("testdata", g.Name()+".jsonl")] {
			t.Errorf("the list has no %s match with a replay: %+v", g.Name(), list.Matches)
		}
	}

	code, _, body = get("/api/film/" + url.PathEscape(filepath.Join("testdata", "langwars.jsonl")))
	var f view.Film
	if err := json.Unmarshal(body, &f); code != 200 || err != nil || f.Header.Game != "langwars" || len(f.Frames) == 0 {
		t.Errorf("film: %d %v %.200s", code, err, body)
	}
	// Only the listed replays are served: no other file of the machine.
	for _, p := range []string{"/etc/passwd", "../view.go", "testdata/../view.go", "film.go"} {
		if code, _, body := get("/api/film/" + url.PathEscape(p)); code != 404 || !strings.Contains(string(body), `"error"`) {
			t.Errorf("film of %s: %d %s", p, code, body)
		}
	}

	post := func(body string) (int, string) {
		r, err := http.Post(srv.URL+"/api/film", "application/x-ndjson", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		return r.StatusCode, string(b)
	}
	good, _ := os.ReadFile(filepath.Join("testdata", "dropblock.jsonl"))
	if code, body := post(string(good)); code != 200 || !strings.Contains(body, `"frame_of"`) {
		t.Errorf("upload: %d %.200s", code, body)
	}
	for _, bad := range []struct{ body, want string }{
		{"", "empty"},
		{"{}\n", "not a replay"},
		{string(good[:len(good)/2]), ""},
		{strings.Replace(string(good), `"version":`, `"version":99,"v":`, 1), "newer"},
	} {
		code, body := post(bad.body)
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, `"error":"replay: `) || !strings.Contains(body, bad.want) {
			t.Errorf("upload of a bad replay: %d %s; want 422 saying %q", code, body, bad.want)
		}
	}
}

// A bad file among the replays is listed with the reason, not dropped and not fatal.
func TestFilesListsWhatItCannotRead(t *testing.T) {
	dir := t.TempDir()
	good, _ := os.ReadFile(filepath.Join("testdata", "amazes.jsonl"))
	os.WriteFile(filepath.Join(dir, "a.jsonl"), good, 0o644)
	os.WriteFile(filepath.Join(dir, "b.jsonl"), []byte("nonsense\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "c.txt"), []byte("not listed"), 0o644)
	ms, err := (&view.Files{Paths: []string{dir}}).Matches(context.Background())
	if err != nil || len(ms) != 2 {
		t.Fatalf("%d matches, %v", len(ms), err)
	}
	if !ms[0].HasReplay || ms[0].Result.Game != "amazes" {
		t.Errorf("a.jsonl: %+v", ms[0])
	}
	if ms[1].HasReplay || !strings.Contains(ms[1].Unreadable, "b.jsonl is not a readable replay") {
		t.Errorf("b.jsonl: %+v", ms[1])
	}
}

// fakeStore is a results stream and replay store in memory.
type fakeStore struct {
	results []result.Result
	replays map[string][]byte
}

func (s *fakeStore) Results(_ context.Context, id string, _ bool, fn func(string, []byte) error) error {
	for _, r := range s.results {
		if id == "" || r.ID == id {
			b, _ := json.Marshal(r)
			if err := fn(r.ID, b); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *fakeStore) GetObject(_ context.Context, bucket, key string, w io.Writer) (bool, error) {
	b, ok := s.replays[bucket+"/"+key]
	w.Write(b)
	return ok, nil
}

func TestStream(t *testing.T) {
	good, _ := os.ReadFile(filepath.Join("testdata", "snakecore.jsonl"))
	st := &fakeStore{
		results: []result.Result{
			{ID: "m1", Game: "snakecore", Status: "ok", Replay: "judge-replays/m1.jsonl"},
			{ID: "m2", Game: "amazes", Status: "error", Error: result.Errorf(result.BadOption, "no")},
		},
		replays: map[string][]byte{"judge-replays/m1.jsonl": good},
	}
	s := &view.Stream{Store: st, Bucket: "judge-replays"}
	ms, err := s.Matches(context.Background())
	if err != nil || len(ms) != 2 || !ms[0].HasReplay || ms[1].HasReplay || ms[0].Key != "m1" {
		t.Fatalf("%+v %v", ms, err)
	}
	var buf bytes.Buffer
	if ok, err := s.Replay(context.Background(), "m1", &buf); !ok || err != nil || !bytes.Equal(buf.Bytes(), good) {
		t.Errorf("m1: %v %v", ok, err)
	}
	if ok, err := s.Replay(context.Background(), "m2", &buf); ok || err != nil {
		t.Errorf("m2 has no replay: %v %v", ok, err)
	}
}

// The self-contained page holds the app and the film and refers to nothing outside itself;
// what a bot wrote cannot end the film's script and run as the page's.
func TestWriteHTML(t *testing.T) {
	rp := readReplay(t, filepath.Join("testdata", "amazes.jsonl"))
	evil := "</script><script>alert(1)</script><!--"
	rp.Exchanges[3].Received = []string{evil}
	rp.Header.Players[0].Name = evil
	var out bytes.Buffer
	if err := view.WriteHTML(&out, view.Make(rp, games.Lookup)); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	if strings.Contains(page, evil) || strings.Count(page, "<script") != strings.Count(page, "</script>") {
		t.Error("a bot's text closes the film's script")
	}
	if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//`).FindString(page); m != "" {
		t.Errorf("the page refers outside itself: %s", m)
	}
	start := strings.Index(page, `<script type="application/json" id="film">`)
	end := strings.Index(page[start:], "</script>")
	var f view.Film
	if err := json.Unmarshal([]byte(page[start+len(`<script type="application/json" id="film">`):start+end]), &f); err != nil {
		t.Fatalf("the film in the page does not read: %v", err)
	}
	if f.Exchanges[3].Received[0] != evil || f.Header.Players[0].Name != evil {
		t.Error("the film in the page lost the bot's text")
	}
	t.Logf("a %d-exchange amazes page: %d KiB", len(rp.Exchanges), out.Len()>>10)
}
