package view

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/result"
)

// Source is where the viewer finds matches: replay files, or the judge's results stream and
// replay store.
type Source interface {
	// Matches lists the matches, oldest first.
	Matches(ctx context.Context) ([]Match, error)
	// Replay writes the replay of the match key (Match.Key) to w; false when there is none.
	Replay(ctx context.Context, key string, w io.Writer) (bool, error)
}

// Match is one match in the viewer's list.
type Match struct {
	// Key names the match to Source.Replay.
	Key    string
	Result result.Result
	// HasReplay is false for a match that could not be judged, or whose replay was not kept.
	HasReplay bool
	// Unreadable says why a file listed is not a replay this judge reads.
	Unreadable string
	// Mismatch is set for a replay that does not re-judge to the result it records.
	Mismatch bool
}

// Watcher watches a match under way: its replay lines from the first (queue.WatchLive);
// queue.ErrNotLive when no judge plays it now.
type Watcher interface {
	WatchLive(ctx context.Context, id string, buffered int) (<-chan queue.LiveLine, error)
}

// Server serves the viewer: the page, its scripts, the list of matches and their films.
type Server struct {
	Source Source
	// Lookup finds a replay's game by its GameKey (games.Lookup, for the built-in games).
	Lookup func(string) (game.Game, bool)
	// Title heads the list; Standings, when set, are shown above it (a tournament's, as
	// `judge tournament --json` writes them), and Prefix keeps to the matches whose id
	// starts with it.
	Title     string
	Standings json.RawMessage
	Prefix    string
	// MaxUpload bounds a replay posted from the page (default 256 MiB).
	MaxUpload int64
	// Live, when set, is where matches under way are watched (the queue), and Playing lists
	// them (the ids of the matches the daemons have begun and not yet judged): the list
	// shows them, each followed live at #/live/ID.
	Live    Watcher
	Playing func() []string
	// Stop, closed when the server shuts down, ends the live streams at once.
	Stop <-chan struct{}

	films *Films // of the matches listed, made once (Handler)
}

// Handler is the viewer's HTTP handler.
func (s *Server) Handler() http.Handler {
	s.films = &Films{Lookup: s.Lookup}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.index)
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(Static())))
	mux.HandleFunc("GET /api/list", s.list)
	mux.HandleFunc("GET /api/film/{key...}", s.film)
	mux.HandleFunc("POST /api/film", s.upload)
	mux.HandleFunc("GET /api/pair", s.pair)
	mux.HandleFunc("GET /api/live/{id}", s.live)
	mux.HandleFunc("GET /frame/{key...}", s.frame)
	mux.HandleFunc("GET /rules/{name}", ServeRules)
	return secure(mux)
}

// secure keeps the page to its own server: no script, style or request goes anywhere else,
// and no other site may frame it.
func secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", ServedCSP)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		h.ServeHTTP(w, r)
	})
}

func (s *Server) index(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := WriteIndex(w, "judge view"); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// listEntry is a match as the page lists it.
type listEntry struct {
	Key    string `json:"key"`
	ID     string `json:"id"`
	Game   string `json:"game"`
	Seed   uint64 `json:"seed"`
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	Replay bool   `json:"replay"`
	// Unreadable is why a file is not a readable replay; Mismatch marks a replay that does
	// not re-judge to its recorded result.
	Unreadable string       `json:"unreadable,omitempty"`
	Mismatch   bool         `json:"mismatch,omitempty"`
	Players    []listPlayer `json:"players"`
	Started    string       `json:"started,omitempty"`
}

type listPlayer struct {
	Name  string      `json:"name"`
	Score float64     `json:"score"`
	Rank  int         `json:"rank"`
	Fault *game.Fault `json:"fault,omitempty"`
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	ms, err := s.Source.Matches(r.Context())
	if err != nil {
		writeError(w, http.StatusBadGateway, err)
		return
	}
	out := struct {
		Title     string          `json:"title"`
		Standings json.RawMessage `json:"standings,omitempty"`
		Matches   []listEntry     `json:"matches"`
		Playing   []string        `json:"playing,omitempty"` // under way, to watch live
	}{Title: s.Title, Standings: s.Standings, Matches: []listEntry{}}
	if s.Live != nil && s.Playing != nil {
		judged := map[string]bool{}
		for _, m := range ms {
			judged[m.Result.ID] = true
		}
		for _, id := range s.Playing() {
			if !judged[id] && (s.Prefix == "" || strings.HasPrefix(id, s.Prefix)) {
				out.Playing = append(out.Playing, id)
			}
		}
	}
	for _, m := range ms {
		res := m.Result
		if s.Prefix != "" && !strings.HasPrefix(res.ID, s.Prefix) {
			continue
		}
		e := listEntry{Key: m.Key, ID: res.ID, Game: res.Game, Seed: res.Seed, Status: res.Status, Replay: m.HasReplay,
			Unreadable: m.Unreadable, Mismatch: m.Mismatch}
		if res.Error != nil {
			e.Error = res.Error.Error()
		}
		if !res.Judge.Started.IsZero() {
			e.Started = res.Judge.Started.Format("2006-01-02 15:04:05Z")
		}
		for _, p := range res.Players {
			e.Players = append(e.Players, listPlayer{Name: p.Name, Score: p.Score, Rank: p.Rank, Fault: p.Fault})
		}
		out.Matches = append(out.Matches, e)
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) film(w http.ResponseWriter, r *http.Request) {
	f, status, err := s.filmOf(r.Context(), r.PathValue("key"))
	if err != nil {
		writeError(w, status, err)
		return
	}
	writeJSON(w, http.StatusOK, f)
}

// filmOf is the film of the match key, or why there is none and the status that says it.
func (s *Server) filmOf(ctx context.Context, key string) (*Film, int, error) {
	var buf bytes.Buffer
	ok, err := s.Source.Replay(ctx, key, &buf)
	switch {
	case err != nil:
		return nil, http.StatusBadGateway, fmt.Errorf("reading the replay of %s: %w", key, err)
	case !ok:
		return nil, http.StatusNotFound, fmt.Errorf("there is no replay of %s", key)
	}
	f, err := s.films.Read(buf.Bytes())
	if err != nil {
		return nil, http.StatusUnprocessableEntity, err
	}
	return f, http.StatusOK, nil
}

// live streams the match id under way as server-sent events (StreamEvents; ?frames=1 adds
// its pictures): 409 when no judge plays it now, 404 when this viewer watches none.
func (s *Server) live(w http.ResponseWriter, r *http.Request) {
	if s.Live == nil {
		writeError(w, http.StatusNotFound, errors.New("this viewer shows replay files: it watches no match under way (judge view with no file does)"))
		return
	}
	id := r.PathValue("id")
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	lines, err := s.Live.WatchLive(ctx, id, LiveBuffer)
	switch {
	case errors.Is(err, queue.ErrNotLive):
		writeError(w, http.StatusConflict, fmt.Errorf("match %s is not being played now: it is listed with its result once it is judged", id))
		return
	case err != nil:
		writeError(w, http.StatusBadGateway, fmt.Errorf("watching match %s: %w", id, err))
		return
	}
	StreamEvents(ctx, w, lines, EventOptions{Frames: r.URL.Query().Get("frames") != "", Lookup: s.Lookup, Stop: s.Stop})
}

// pair is the films of the matches ?a=KEY&b=KEY side by side (the page's #/compare/A|B).
func (s *Server) pair(w http.ResponseWriter, r *http.Request) {
	var films [2]*Film
	var names [2]string
	for i, k := range []string{"a", "b"} {
		key := r.URL.Query().Get(k)
		if key == "" {
			writeError(w, http.StatusBadRequest, fmt.Errorf("compare needs two matches, ?a=KEY&b=KEY: %s is missing", k))
			return
		}
		f, status, err := s.filmOf(r.Context(), key)
		if err != nil {
			writeError(w, status, err)
			return
		}
		films[i], names[i] = f, key
	}
	p, err := PairOf(films[0], films[1], names)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	max := s.MaxUpload
	if max <= 0 {
		max = 256 << 20
	}
	f, err := Read(http.MaxBytesReader(w, r.Body, max), s.Lookup)
	writeFilm(w, f, err)
}

// writeFilm answers a film, or why the replay made none.
func writeFilm(w http.ResponseWriter, f *Film, err error) {
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err)
		return
	}
	writeJSON(w, http.StatusOK, f)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, map[string]string{"error": err.Error()})
}

// Files is a Source of replay files: each path is a replay, or a directory searched for
// *.jsonl replays (recursively).
type Files struct {
	Paths []string
	// Lookup, when set, finds each replay's game so that the list marks a replay that does
	// not re-judge to its recorded result (games.Lookup).
	Lookup func(string) (game.Game, bool)

	mu    sync.Mutex
	cache map[string]fileEntry // by path: a replay is read again only when it changed
}

type fileEntry struct {
	size, mod int64
	match     Match
	err       error
}

// Matches lists the replays, by path; a file that is not a replay is listed as a match that
// could not be read, with the reason.
func (f *Files) Matches(ctx context.Context) ([]Match, error) {
	var paths []string
	for _, p := range f.Paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			paths = append(paths, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".jsonl") {
				paths = append(paths, path)
			}
			return ctx.Err()
		})
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	out := make([]Match, 0, len(paths))
	for _, p := range paths {
		out = append(out, f.read(p))
	}
	return out, nil
}

// read is the list entry of the replay at path, from the cache while the file is unchanged.
func (f *Files) read(path string) Match {
	st, err := os.Stat(path)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cache == nil {
		f.cache = map[string]fileEntry{}
	}
	if e, ok := f.cache[path]; ok && err == nil && e.size == st.Size() && e.mod == st.ModTime().UnixNano() {
		return e.match
	}
	m := Match{Key: path, Result: result.Result{ID: filepath.Base(path), Status: result.StatusError}}
	if err == nil {
		var rp *replay.Replay
		var file *os.File
		if file, err = os.Open(path); err == nil {
			rp, err = replay.Read(file)
			file.Close()
		}
		if err == nil {
			m.Result, m.HasReplay = rp.Result, true
			m.Mismatch = f.mismatch(rp)
			if m.Result.ID == "" {
				m.Result.ID = filepath.Base(path)
			}
			if m.Result.Game == "" {
				m.Result.Game, m.Result.Seed = rp.Header.Game, rp.Header.Seed
			}
		}
	}
	if err != nil {
		m.Unreadable = fmt.Sprintf("%s is not a readable replay: %v", path, err)
		return m
	}
	f.cache[path] = fileEntry{size: st.Size(), mod: st.ModTime().UnixNano(), match: m}
	return m
}

// mismatch re-judges a replay, as its film will: true when it does not reach its record.
func (f *Files) mismatch(rp *replay.Replay) bool {
	if f.Lookup == nil {
		return false
	}
	g, ok := f.Lookup(GameKey(rp.Header))
	if !ok {
		return false // not this judge's game: the film says so
	}
	diffs, err := rp.Check(g, nil)
	return err != nil || len(diffs) > 0
}

// Replay copies the replay file key, one of those Matches lists.
func (f *Files) Replay(ctx context.Context, key string, w io.Writer) (bool, error) {
	ms, err := f.Matches(ctx)
	if err != nil {
		return false, err
	}
	// Only a listed file is served: the page cannot read any other file of the machine.
	if !slices.ContainsFunc(ms, func(m Match) bool { return m.Key == key }) {
		return false, nil
	}
	file, err := os.Open(key)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer file.Close()
	_, err = io.Copy(w, file)
	return err == nil, err
}

// Store is what the Stream source reads: the results stream and the replay store
// (queue.Queue).
type Store interface {
	Results(ctx context.Context, id string, follow bool, fn func(id string, result []byte) error) error
	GetObject(ctx context.Context, bucket, key string, w io.Writer) (bool, error)
}

// Stream is a Source of the judge's results stream, with the replays of its object store.
type Stream struct {
	Store Store
	// Bucket is the replay store (queue.BucketReplays).
	Bucket string
}

// Matches lists every stored result, oldest first.
func (s *Stream) Matches(ctx context.Context) ([]Match, error) {
	var out []Match
	err := s.Store.Results(ctx, "", false, func(_ string, data []byte) error {
		var res result.Result
		if err := json.Unmarshal(data, &res); err != nil {
			return nil // not a result this judge reads: not listed
		}
		out = append(out, Match{Key: res.ID, Result: res, HasReplay: res.Replay != ""})
		return nil
	})
	return out, err
}

// Replay copies the replay of the match whose id is key from the replay store.
func (s *Stream) Replay(ctx context.Context, key string, w io.Writer) (bool, error) {
	var res result.Result
	found := false
	err := s.Store.Results(ctx, key, false, func(_ string, data []byte) error {
		found = json.Unmarshal(data, &res) == nil
		return nil
	})
	if err != nil || !found || res.Replay == "" {
		return false, err
	}
	// The daemon names a replay by bucket and key ("judge-replays/m1.jsonl").
	return s.Store.GetObject(ctx, s.Bucket, strings.TrimPrefix(res.Replay, s.Bucket+"/"), w)
}

// DefaultListen is where `judge view` serves: this machine only.
const DefaultListen = "127.0.0.1:8080"
