package portal_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/portal"
	"github.com/botjudge/judge/judge/portal/upload"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
	"golang.org/x/crypto/bcrypt"
)

// env is a portal on a real HTTP server and a real (embedded) NATS server, with a fake daemon
// that judges every job at once: a source containing "syntax error" does not compile, one
// containing "crash" crashes at turn 1 (one containing "ladderbomb" only in ladder
// matches), and every bot writes "stderr of NAME" to stderr. Players are ranked by the
// number after "strength " in their source (0 without), and a crashed one last.
type env struct {
	t     testing.TB
	q     *queue.Queue
	st    *store.Store
	p     *portal.Server
	srv   *httptest.Server
	now   time.Time
	jobs  chan job.Job
	house map[string][]byte
	// release lets go a build the fake daemon holds (a source containing "hold").
	release chan struct{}
	// log is everything the portal logged, at debug level.
	log *syncBuffer
	// stopFollow stops the portal's work beside its pages (Follow), as a portal killed does;
	// call it at most once.
	stopFollow func()
	// failing makes the judge fail the matches of a "judgefail" bot (refuses).
	failing atomic.Bool
	// slow is how long the fake daemon takes over each job (nanoseconds).
	slow atomic.Int64
	// liveNext lets the fake daemon write the next line of a test match played live (a player's
	// source containing "livematch"): it writes each line through the queue's live tee, as
	// the daemon does, and waits for liveNext before the next.
	liveNext chan struct{}
	// movesWritten are when playRecorded wrote each move line (BenchmarkLiveDelay).
	movesMu      sync.Mutex
	movesWritten []time.Time
	// taken are the ids of the jobs the fake daemon took, in order.
	takenMu sync.Mutex
	taken   []string
}

// takenJobs are the ids of the jobs taken so far.
func (e *env) takenJobs() []string {
	e.takenMu.Lock()
	defer e.takenMu.Unlock()
	return slices.Clone(e.taken)
}

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newEnv(t testing.TB, opts ...func(*portal.Options)) *env {
	t.Helper()
	quiet := slog.New(slog.DiscardHandler)
	q, err := queue.Open(t.Context(), queue.Options{StoreDir: t.TempDir(), InProcess: true, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	log := &syncBuffer{}
	st, p := newPortal(t, q, slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug})), opts...)
	ctx, cancel := context.WithCancel(context.Background())
	pctx, pcancel := context.WithCancel(ctx)
	followed, judged := make(chan struct{}), make(chan struct{})
	go func() { p.Engine().Run(pctx); close(followed) }()
	e := &env{t: t, q: q, st: st, p: p, srv: httptest.NewServer(p), jobs: make(chan job.Job, 100), release: make(chan struct{}), liveNext: make(chan struct{}), log: log}
	e.stopFollow = func() { pcancel(); <-followed }
	go func() { e.daemon(ctx); close(judged) }()
	t.Cleanup(func() { cancel(); <-followed; <-judged; e.srv.Close() })
	return e
}

// newPortal is a portal on q, with the judge's games and languages and a 1 MiB upload limit.
func newPortal(t testing.TB, q *queue.Queue, log *slog.Logger, opts ...func(*portal.Options)) (*store.Store, *portal.Server) {
	t.Helper()
	o := portal.DefaultOptions()
	for _, f := range opts {
		f(&o)
	}
	kv, err := q.KeyValue(t.Context(), "portal")
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(kv)
	st.PasswordCost = bcrypt.MinCost // bcrypt's default took most of the package's CPU (TestPasswordCost keeps the default)
	p, err := portal.New(portal.Config{Options: o, Store: st, Queue: q, Games: lookup, Starter: games.Starter,
		Langs: images.LangNames(), Upload: upload.Limits{Bytes: 1 << 20, Files: 64}, Version: "test", Log: log})
	if err != nil {
		t.Fatal(err)
	}
	return st, p
}

// daemon is the fake daemon.
func (e *env) daemon(ctx context.Context) {
	for {
		d, err := e.q.Next(ctx)
		if err != nil {
			return
		}
		var j job.Job
		json.Unmarshal(d.Data, &j)
		e.takenMu.Lock()
		e.taken = append(e.taken, j.ID)
		e.takenMu.Unlock()
		e.q.Started(j.ID)
		time.Sleep(time.Duration(e.slow.Load()))
		if j.Kind == job.KindBuild && strings.Contains(j.Players[0].Files["main.cpp"], "hold") {
			select {
			case <-e.release:
			case <-ctx.Done():
				return
			}
		}
		if err := e.refuses(j, d.Data); err != nil { // as the real daemon refuses it
			data, _ := json.Marshal(result.Failed(j.ID, j.Game, 0, err))
			e.q.PublishResult(ctx, queue.LaneMain, j.ID, data)
			d.Ack(ctx)
			continue
		}
		res := result.Result{Version: result.Version, ID: j.ID, Game: j.Game, Status: result.StatusOK}
		if j.Seed != nil {
			res.Seed = *j.Seed
		}
		strength := make([]int, len(j.Players))
		var replay bytes.Buffer
		var names []string
		for _, p := range j.Players {
			names = append(names, fmt.Sprintf(`{"name":%q,"lang":%q}`, p.Name, p.Lang))
		}
		fmt.Fprintf(&replay, `{"type":"header","version":3,"game":%q,"seed":%d,"options":{},"players":[%s]}`+"\n", j.Game, res.Seed, strings.Join(names, ","))
		for i, p := range j.Players {
			src := ""
			for _, f := range p.Files {
				src += f
			}
			pl := result.Player{Name: p.Name, Lang: p.Lang, Build: result.Build{OK: true, Log: "warning of " + p.Name}, Stderr: "stderr of " + p.Name,
				Closest: &result.CPUCall{Turn: 1 + i, CPUus: int64(100 * (1 + i + len(src)%5)), LimitUS: 1000}}
			if strings.Contains(src, "echo") { // as a compiler quotes the source, and a bot prints its input
				pl.Build.Log += ": " + src
				pl.Stderr += ": " + src
			}
			if strings.Contains(src, "syntax error") {
				pl.Build = result.Build{OK: false, Log: "main.cpp:1: error: expected ';' <b>bold</b>"}
				pl.Fault = &game.Fault{Kind: game.CompileError}
			} else if strings.Contains(src, "crash") || (strings.Contains(src, "ladderbomb") && strings.HasPrefix(j.ID, "l")) {
				pl.Fault = &game.Fault{Kind: game.Crash, Turn: 1, Detail: "exit status 139"}
				if strings.Contains(src, "echo") {
					pl.Fault.Detail += ": " + src
				}
			}
			if k := strings.Index(src, "strength "); k >= 0 {
				fmt.Sscanf(src[k:], "strength %d", &strength[i])
			}
			if pl.Fault != nil {
				strength[i] = -1
			}
			res.Players = append(res.Players, pl)
			// A move of each player's, its answer its source's (another version answers
			// otherwise), and its stderr, which holds a drawing of its own (docs/viewer.md): its
			// owner's alone.
			fmt.Fprintf(&replay, `{"type":"move","turn":1,"player":%d,"sent":"go","expect":1,"received":["answer %x"],"limit_us":1000000,"cpu_ms":0,"cpu_us":0}`+"\n", i, sha256.Sum256([]byte(src)))
			fmt.Fprintf(&replay, `{"type":"stderr","player":%d,"exchange":%d,"text":"stderr of %s"}`+"\n", i, i, p.Name)
			fmt.Fprintf(&replay, `{"type":"stderr","player":%d,"exchange":%d,"text":"\n@judge text 1 1 layer=plan plan of %s\n"}`+"\n", i, i, p.Name)
		}
		for i := range res.Players {
			res.Players[i].Rank, res.Players[i].Score = 1, float64(strength[i])
			for _, o := range strength {
				if o > strength[i] {
					res.Players[i].Rank++
				}
			}
			if res.Players[i].Rank == 1 && (res.Winner == nil || strength[*res.Winner] < strength[i]) {
				res.Winner = &i
			} else if res.Players[i].Rank == 1 {
				res.Winner = nil // a draw
			}
		}
		if j.Kind != job.KindBuild {
			footer, _ := json.Marshal(map[string]any{"type": "result", "result": res})
			replay.Write(append(footer, '\n'))
			if strings.HasPrefix(j.ID, "m") && strings.Contains(fmt.Sprint(j.Players), "livematch") && !e.playLive(ctx, j, replay.Bytes()) {
				return
			}
			if (strings.HasPrefix(j.ID, "m") || contest.RoundOf(j.ID) != "") && strings.Contains(fmt.Sprint(j.Players), "livereal") {
				e.playRecorded(ctx, j)
			}
			e.q.PutObjectMeta(ctx, queue.BucketReplays, j.ID+".jsonl", map[string]string{queue.MetaLane: d.Lane.String()}, &replay) // as the daemon records it
			res.Replay = queue.BucketReplays + "/" + j.ID + ".jsonl"
		}
		data, _ := json.Marshal(res)
		e.q.PublishResult(ctx, queue.LaneMain, j.ID, data)
		d.Ack(ctx)
		select {
		case e.jobs <- j:
		default:
		}
	}
}

// playLive writes a match's replay through the queue's live tee, as the daemon does: the
// header, three moves of each player, then the rest, each line once liveNext lets it.
func (e *env) playLive(ctx context.Context, j job.Job, replay []byte) bool {
	live, stop := e.q.Live(j.ID)
	defer stop()
	lines := strings.SplitAfter(string(replay), "\n")
	var moves []string
	for turn := 1; turn <= 3; turn++ {
		for p := range j.Players {
			moves = append(moves, fmt.Sprintf(`{"type":"move","turn":%d,"player":%d,"sent":"go","expect":1,"received":["%d"],"limit_us":1000000,"cpu_ms":0,"cpu_us":0}`+"\n", turn, p, turn))
		}
	}
	for _, l := range append(append(lines[:1:1], moves...), lines[1:]...) {
		if l == "" {
			continue
		}
		select {
		case <-e.liveNext:
		case <-ctx.Done():
			return false
		}
		io.WriteString(live, l)
	}
	return true
}

// playRecorded plays a test match live as a real match of its game was played (the viewer's
// testdata replay of the game, or an added game's in testdata: higher-four's was played by
// judge play --local of cmd/judge/testdata/games/higher): its lines through the queue's live
// tee, 20 ms apart, or further apart for it to last 5 s (so that a page opened on a loaded
// machine, and the big screen, which looks for the next match every 3 s, see it play).
func (e *env) playRecorded(ctx context.Context, j job.Job) {
	data, err := os.ReadFile(filepath.Join("testdata", j.Game+".jsonl"))
	if errors.Is(err, fs.ErrNotExist) {
		data, err = os.ReadFile(filepath.Join("..", "view", "testdata", j.Game+".jsonl"))
	}
	if err != nil {
		e.t.Error(err)
		return
	}
	live, stop := e.q.Live(j.ID)
	defer stop()
	lines := strings.SplitAfter(string(data), "\n")
	gap := max(20*time.Millisecond, 5*time.Second/time.Duration(len(lines)))
	for _, l := range lines {
		select {
		case <-time.After(gap):
		case <-ctx.Done():
			return
		}
		io.WriteString(live, l)
		if strings.HasPrefix(l, `{"type":"move"`) {
			e.movesMu.Lock()
			e.movesWritten = append(e.movesWritten, time.Now())
			e.movesMu.Unlock()
		}
	}
}

// refuses is why the real daemon would not play a job: its checks (the game's player count,
// the languages) and the game's own start with the job's options and players; and the
// judge's failure that a "judgefail" bot's validation meets while e.failing is set.
func (e *env) refuses(j job.Job, data []byte) error {
	_, g, err := job.Parse(data, job.Rules{Game: lookup, Langs: images.LangNames(), MaxSource: 1 << 20})
	if err != nil || j.Kind == job.KindBuild {
		return err
	}
	opts, err := j.StringOptions()
	if err != nil {
		return err
	}
	if _, err := game.Start(g, game.Config{Seed: 1, Players: len(j.Players), Options: opts}); err != nil {
		return result.Errorf(result.BadOption, "%v", err)
	}
	if e.failing.Load() {
		for _, p := range j.Players {
			for _, f := range p.Files {
				if strings.Contains(f, "judgefail") {
					return result.Errorf(result.Infrastructure, "the engine went away")
				}
			}
		}
	}
	return nil
}

// contest makes a contest with a house bot.
func (e *env) contest(name string, change func(*store.Contest)) {
	e.t.Helper()
	c := store.Contest{Name: name, Game: "amazes", TestQuota: 100, House: []store.House{{Name: "easy", Lang: "cpp", Source: "portal/house/" + name + "/easy.json"}}}
	if change != nil {
		change(&c)
	}
	if c.LadderSettings.Unset() {
		c.LadderSettings = ladder.Defaults
		c.LadderSettings.MaxRate = 0
	}
	if c.LadderSettings.MaxRate == 0 {
		// The tests' ladders play as fast as the fake judge answers: the ceiling's pacing (a
		// few matches, then one a minute) is the ladder package's to test.
		c.LadderSettings.MaxRate = 3600
	}
	if err := e.q.PutObject(e.t.Context(), queue.BucketSources, c.House[0].Source, strings.NewReader(`{"easy.cpp":"int main(){}"}`)); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.st.CreateContest(e.t.Context(), c); err != nil {
		e.t.Fatal(err)
	}
}

// client is a contestant: a browser (cookie jar) and a token.
type client struct {
	e      *env
	login  string
	token  string
	invite string
	web    *http.Client
	csrf   string
}

// user adds a user and accepts its invite in a browser, which then holds the session.
func (e *env) user(contest, login string, organiser bool) *client {
	e.t.Helper()
	nu, err := e.st.AddUser(e.t.Context(), contest, login, organiser)
	if err != nil {
		e.t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	c := &client{e: e, login: login, token: nu.Token, invite: nu.Invite, web: &http.Client{Jar: jar}}
	resp, err := c.web.PostForm(e.srv.URL+"/invite/"+nu.Invite, url.Values{"password": {"password of " + login}, "again": {"password of " + login}})
	if err != nil {
		e.t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "Your password is set") {
		e.t.Fatalf("accepting the invite: %d %s", resp.StatusCode, body)
	}
	c.csrf = csrfOf(body)
	return c
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func csrfOf(page []byte) string {
	if m := csrfRE.FindSubmatch(page); m != nil {
		return string(m[1])
	}
	return ""
}

// api calls the API with the client's token; body is JSON, or a *multipart.Writer's output.
func (c *client) api(method, path string, body io.Reader, contentType string) (int, map[string]any, http.Header) {
	c.e.t.Helper()
	req, _ := http.NewRequest(method, c.e.srv.URL+path, body)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var out map[string]any
	json.Unmarshal(data, &out)
	if out == nil {
		out = map[string]any{"raw": string(data)}
	}
	return resp.StatusCode, out, resp.Header
}

// upload sends files as a submission through the API.
func (c *client) upload(contest string, files map[string]string) (int, map[string]any) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for name, src := range files {
		w, _ := mw.CreateFormFile("files", name)
		io.WriteString(w, src)
	}
	mw.Close()
	code, out, _ := c.api("POST", "/api/v1/contests/"+contest+"/submissions", &buf, mw.FormDataContentType())
	return code, out
}

// waitStatus polls a submission until its status is one of want, for up to 20 seconds.
func (c *client) waitStatus(id string, want ...string) map[string]any {
	c.e.t.Helper()
	return c.waitStatusFor(id, 20*time.Second, want...)
}

func (c *client) waitStatusFor(id string, d time.Duration, want ...string) map[string]any {
	c.e.t.Helper()
	deadline := time.Now().Add(d)
	for {
		code, sub, _ := c.api("GET", "/api/v1/submissions/"+id, nil, "")
		if code != 200 {
			c.e.t.Fatalf("GET submission %s: %d %v", id, code, sub)
		}
		for _, w := range want {
			if sub["status"] == w {
				return sub
			}
		}
		if time.Now().After(deadline) {
			c.e.t.Fatalf("submission %s is %v, want %v", id, sub["status"], want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (c *client) waitMatch(id string) map[string]any {
	c.e.t.Helper()
	return c.waitMatchFor(id, 20*time.Second)
}

func (c *client) waitMatchFor(id string, d time.Duration) map[string]any {
	c.e.t.Helper()
	deadline := time.Now().Add(d)
	for {
		code, m, _ := c.api("GET", "/api/v1/matches/"+id, nil, "")
		if code != 200 {
			c.e.t.Fatalf("GET match %s: %d %v", id, code, m)
		}
		if m["result"] != nil {
			return m
		}
		if time.Now().After(deadline) {
			c.e.t.Fatalf("match %s was not judged", id)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The contestant's whole path through the API: a compile error with its log, a fix that
// validates, activation, a test match against the house bot with only its own stderr.
func TestContestantPath(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)

	code, out := a.upload("spring", map[string]string{"main.cpp": "int main() { syntax error }"})
	if code != 202 || out["version"] != 1.0 || out["status"] != "queued" {
		t.Fatalf("upload: %d %v", code, out)
	}
	sub := a.waitStatus(out["id"].(string), "compile_error")
	if b := sub["build"].(map[string]any); !strings.Contains(b["log"].(string), "expected ';'") {
		t.Errorf("the compile log: %v", b)
	}
	if code, out, _ := a.api("POST", "/api/v1/submissions/"+sub["id"].(string)+"/activate", nil, ""); code != 409 {
		t.Errorf("activating a version that does not compile: %d %v", code, out)
	}

	code, out = a.upload("spring", map[string]string{"main.cpp": "int main() { return 0; }"})
	if code != 202 || out["version"] != 2.0 {
		t.Fatalf("second upload: %d %v", code, out)
	}
	id := out["id"].(string)
	sub = a.waitStatus(id, "ready")
	v := sub["validation"].(map[string]any)
	if v["match"] == "" || v["fault"] != nil {
		t.Errorf("validation %v", v)
	}
	if code, out, _ := a.api("POST", "/api/v1/submissions/"+id+"/activate", nil, ""); code != 200 || out["status"] != "active" {
		t.Fatalf("activate: %d %v", code, out)
	}
	body, _ := json.Marshal(map[string]any{"opponents": []string{"house:easy"}})
	code, out, _ = a.api("POST", "/api/v1/contests/spring/matches", bytes.NewReader(body), "application/json")
	if code != 202 {
		t.Fatalf("test match: %d %v", code, out)
	}
	m := a.waitMatch(out["id"].(string))
	players := m["result"].(map[string]any)["players"].([]any)
	if own := players[0].(map[string]any); own["stderr"] != "stderr of alice" {
		t.Errorf("own stderr: %v", own["stderr"])
	}
	if house := players[1].(map[string]any); house["stderr"] != nil && house["stderr"] != "" {
		t.Errorf("the house bot's stderr is shown: %v", house["stderr"])
	}
	code, raw, _ := a.api("GET", "/api/v1/matches/"+out["id"].(string)+"/replay", nil, "")
	if code != 200 || !strings.Contains(raw["raw"].(string), "stderr of alice") || strings.Contains(raw["raw"].(string), "stderr of house:easy") ||
		strings.Contains(raw["raw"].(string), "warning of house:easy") {
		t.Errorf("the replay: %d %v", code, raw["raw"])
	}
	// Its own drawings are in the replay it downloads, the other player's are not.
	if r := raw["raw"].(string); !strings.Contains(r, "@judge text 1 1 layer=plan plan of alice") || strings.Contains(r, "plan of house:easy") {
		t.Errorf("the drawings in the replay: %s", r)
	}
	// A version that crashes in its validation match is rejected, and says why.
	code, out = a.upload("spring", map[string]string{"main.cpp": "int main() { crash(); }"})
	sub = a.waitStatus(out["id"].(string), "rejected")
	if f := sub["validation"].(map[string]any)["fault"].(map[string]any); f["kind"] != "crash" || f["turn"] != 1.0 {
		t.Errorf("the rejection's fault: %v", f)
	}
}

// A version is "compiling" once a daemon has begun its build.
func TestCompilingIsShown(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.contest("spring", nil)
	a := e.user("spring", "alice", false)
	code, out := a.upload("spring", map[string]string{"main.cpp": "int main() { /* hold */ }"})
	if code != 202 {
		t.Fatalf("upload: %d %v", code, out)
	}
	a.waitStatus(out["id"].(string), "compiling")
	close(e.release)
	a.waitStatus(out["id"].(string), "ready")
}
