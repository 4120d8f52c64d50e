package queue_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
	"github.com/botjudge/judge/judge/queue"
)

// largestJob is the largest job the judge takes by default, as `judge submit` and `judge
// tournament` publish it: the game with the most players, each with sources of real C++ up
// to the default source limit.
func largestJob(t *testing.T) (id string, data []byte) {
	t.Helper()
	cpp, err := os.ReadFile(filepath.Join("..", "..", "bots", "snakecore", "cpp", "bot.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	name, players := "", 0
	for _, g := range games.All() {
		if _, max, _ := g.Players(); max > players {
			name, players = g.Name(), max
		}
	}
	limit := int64(build.DefaultLimits().SourceLimit)
	var entrants []job.Player
	for i := range players {
		const file = "bot.cpp"
		src := bytes.Repeat(cpp, int(limit)/len(cpp)+1)[:limit-int64(len(file))]
		entrants = append(entrants, job.NewPlayer(fmt.Sprintf("p%d", i), "cpp", map[string][]byte{file: src}))
	}
	id = "largest"
	data, err = json.Marshal(job.New(id, name, nil, nil, entrants))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := job.Parse(data, job.Rules{Game: games.Lookup, Langs: images.LangNames(), MaxSource: limit}); err != nil {
		t.Fatalf("the largest job is not one the daemon takes: %v", err)
	}
	return id, data
}

// The embedded server's payload limit is above NATS's advice because the largest job the judge
// takes needs it; that job goes through the queue whole, and one past the limit is refused at
// once with an error that says why, not retried.
func TestLargestJobFits(t *testing.T) {
	t.Parallel()
	id, data := largestJob(t)
	t.Logf("the largest job: %d bytes (%.2f MiB)", len(data), float64(len(data))/(1<<20))
	if len(data) <= server.MAX_PAYLOAD_MAX_SIZE {
		t.Errorf("the largest job is %d bytes, within NATS's advised %d: the embedded server's limit can come down to it", len(data), server.MAX_PAYLOAD_MAX_SIZE)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	q, err := queue.Open(ctx, queue.Options{Listen: "127.0.0.1:-1", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if _, err := q.Submit(ctx, id, data); err != nil {
		t.Fatalf("submit the largest job: %v", err)
	}
	d, err := q.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d.ID != id || !bytes.Equal(d.Data, data) {
		t.Errorf("delivered %s, %d bytes; submitted %s, %d bytes", d.ID, len(d.Data), id, len(data))
	}
	if err := d.Ack(ctx); err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	_, err = q.Submit(ctx, "oversized", make([]byte, 32<<20+1))
	if err == nil || !strings.Contains(err.Error(), "maximum payload") || !strings.Contains(err.Error(), "too large") || time.Since(start) > 5*time.Second {
		t.Errorf("an oversized job: %v after %s", err, time.Since(start).Round(time.Millisecond))
	}
}
