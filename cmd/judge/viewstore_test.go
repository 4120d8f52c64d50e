package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/view"
)

// judgedStore makes dataDir what a `judge serve` that judged one Amazes match leaves: its
// result and its replay in dataDir/nats. The server is still running on it; the caller
// closes it to have a stopped judge's directory.
func judgedStore(t *testing.T, dataDir, id string) *queue.Queue {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	q, err := queue.Open(ctx, queue.Options{Listen: "127.0.0.1:-1", StoreDir: filepath.Join(dataDir, "nats"),
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	replay, err := os.ReadFile(filepath.Join("..", "..", "judge", "view", "testdata", "amazes.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	publishMatch(t, q, id, replay)
	return q
}

// publishMatch stores a match as the daemon does: the replay, then the result naming it (the
// result recorded at the replay's end).
func publishMatch(t *testing.T, q *queue.Queue, id string, replay []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	lines := bytes.Split(bytes.TrimSpace(replay), []byte("\n"))
	var last struct {
		Result result.Result `json:"result"`
	}
	if err := json.Unmarshal(lines[len(lines)-1], &last); err != nil || last.Result.Game == "" {
		t.Fatalf("the replay's last line is no result: %v", err)
	}
	res := last.Result
	res.ID, res.Replay = id, queue.BucketReplays+"/"+id+".jsonl"
	if err := q.PutObject(ctx, queue.BucketReplays, id+".jsonl", bytes.NewReader(replay)); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(res)
	if err := q.PublishResult(ctx, queue.LaneMain, id, data); err != nil {
		t.Fatal(err)
	}
}

// viewing runs `judge view` with args until the test ends and returns its address once it
// serves.
func viewing(t *testing.T, args ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runJudge(ctx, t, append([]string{"view", "--listen", addr}, args...)...) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("judge view %v: %v", args, err)
			}
		case <-time.After(15 * time.Second):
			t.Errorf("judge view %v did not stop", args)
		}
	})
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("judge view %v: %v", args, err)
		default:
		}
		if r, err := http.Get("http://" + addr + "/api/list"); err == nil {
			r.Body.Close()
			return addr
		}
	}
	t.Fatalf("judge view %v does not serve", args)
	return ""
}

// get returns the body of a GET of path on the viewer at addr, failing on a status other than
// 200.
func get(t *testing.T, addr, path string) string {
	t.Helper()
	r, err := http.Get("http://" + addr + path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	body, _ := io.ReadAll(r.Body)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %.300s", path, r.Status, body)
	}
	return string(body)
}

// listed reports whether the viewer at addr lists match id with its replay.
func listed(t *testing.T, addr, id string) bool {
	t.Helper()
	var list struct {
		Matches []struct {
			ID     string `json:"id"`
			Replay bool   `json:"replay"`
		} `json:"matches"`
	}
	if err := json.Unmarshal([]byte(get(t, addr, "/api/list")), &list); err != nil {
		t.Fatal(err)
	}
	for _, m := range list.Matches {
		if m.ID == id && m.Replay {
			return true
		}
	}
	return false
}

// After the judge has stopped, `judge view --data-dir DIR` and `judge view DIR` show its
// matches and replays from the store itself, and leave the store free for the next judge: a
// match of a two-player game and one of a four-player game, each listed with its players and
// linked to a film of them all.
func TestViewStoreOfAStoppedJudge(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	q := judgedStore(t, dataDir, "demo-amazes")
	langwars, err := os.ReadFile(filepath.Join("..", "..", "judge", "view", "testdata", "langwars.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	publishMatch(t, q, "demo-langwars", langwars)
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	matches := []struct {
		id, game string
		players  int
	}{{"demo-amazes", "amazes", 2}, {"demo-langwars", "langwars", 4}}
	for _, args := range [][]string{{"--data-dir", dataDir}, {dataDir}, {filepath.Join(dataDir, "nats")}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			addr := viewing(t, args...)
			var list struct {
				Matches []struct {
					ID, Game string
					Replay   bool
					Players  []struct{ Name string }
				}
			}
			if err := json.Unmarshal([]byte(get(t, addr, "/api/list")), &list); err != nil {
				t.Fatal(err)
			}
			for _, m := range matches {
				n := -1
				for _, l := range list.Matches {
					if l.ID == m.id && l.Game == m.game && l.Replay {
						n = len(l.Players)
					}
				}
				if n != m.players {
					t.Errorf("%s: listed with its replay and %d players, want %d: %+v", m.id, n, m.players, list.Matches)
				}
				var film view.Film
				if err := json.Unmarshal([]byte(get(t, addr, "/api/film/"+m.id)), &film); err != nil {
					t.Fatal(err)
				}
				if film.Header.Game != m.game || len(film.Header.Players) != m.players || film.Problem != "" || len(film.Frames) < 2 {
					t.Errorf("the film of %s: game %q, %d players, problem %q, %d pictures; want %s of %d players",
						m.id, film.Header.Game, len(film.Header.Players), film.Problem, len(film.Frames), m.game, m.players)
				}
			}
		})
	}
	// Every viewer above has stopped: a judge can take the store again.
	if err := judgedStore(t, dataDir, "next").Close(); err != nil {
		t.Errorf("the store after viewing: %v", err)
	}
}

// While a judge runs on the store, the viewer reads through that judge's server instead of
// opening the store a second time (which would corrupt it): it sees matches published after
// it started.
func TestViewStoreOfARunningJudge(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	q := judgedStore(t, dataDir, "before")
	addr := viewing(t, dataDir)
	if !listed(t, addr, "before") {
		t.Errorf("the list lacks the match: %.500s", get(t, addr, "/api/list"))
	}
	replay, err := os.ReadFile(filepath.Join("..", "..", "judge", "view", "testdata", "ontherun.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	publishMatch(t, q, "after", replay)
	if !listed(t, addr, "after") {
		t.Errorf("a match judged while viewing is not listed: %.500s", get(t, addr, "/api/list"))
	}
	if film := get(t, addr, "/api/film/after"); !strings.Contains(film, `"game":"ontherun"`) {
		t.Errorf("the replay: %.300s", film)
	}
}

// A store held by a server that takes no clients (another viewer reading it in its process)
// cannot be read through, nor opened again: the viewer says so, naming the store.
func TestViewStoreHeldWithoutClients(t *testing.T) {
	defer func(w time.Duration) { base.StoreStartWait = w }(base.StoreStartWait)
	base.StoreStartWait = 300 * time.Millisecond
	dataDir := t.TempDir()
	store := filepath.Join(dataDir, "nats")
	if err := judgedStore(t, dataDir, "m1").Close(); err != nil {
		t.Fatal(err)
	}
	holder, err := queue.Open(context.Background(), queue.Options{StoreDir: store, InProcess: true, ReadOnly: true,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	err = runJudge(context.Background(), t, "view", "--listen", "127.0.0.1:0", dataDir)
	var inUse *queue.StoreInUseError
	if !errors.As(err, &inUse) || !strings.Contains(err.Error(), store) {
		t.Errorf("viewing a store another viewer holds: %v", err)
	}
	t.Logf("the error: %v", err)
}

// With no replay files, no store in the data directory and no judge serving, the error says
// where it looked.
func TestViewStoreNothingToShow(t *testing.T) {
	t.Setenv("JUDGE_NATS_LISTEN", "127.0.0.1:1")
	dataDir := t.TempDir()
	err := runJudge(context.Background(), t, "view", "--listen", "127.0.0.1:0", "--data-dir", dataDir)
	if err == nil || !strings.Contains(err.Error(), dataDir) || !strings.Contains(err.Error(), "nats://127.0.0.1:1") {
		t.Errorf("nothing to show: %v", err)
	}
	t.Logf("the error: %v", err)
	if entries, _ := os.ReadDir(dataDir); len(entries) != 0 {
		t.Errorf("looking left %v in the data directory", entries)
	}
}
