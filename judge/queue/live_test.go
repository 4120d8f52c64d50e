package queue

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// A match is watched live from its first line, however late the watcher comes, in order,
// from another connection (a portal beside the daemon); a watcher that stops reading is
// dropped without the match waiting for it; a match no daemon plays is ErrNotLive.
func TestWatchLive(t *testing.T) {
	t.Parallel()
	daemon := embedded(t, Options{})
	portal := client(t, daemon.url, Options{})
	ctx := testContext(t, 30*time.Second)
	id := "spring-official.r1 m2" // not a subject token as it is
	tee, stop := daemon.Live(id)
	defer stop()
	line := func(i int) string { return fmt.Sprintf(`{"type":"move","n":%d}`, i) }
	for i := range 3 {
		fmt.Fprintln(tee, line(i))
	}
	fmt.Fprint(tee, `{"type":"move",`) // a line written in two parts
	w, err := portal.WatchLive(ctx, id, 64)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(tee, `"n":3}`)
	for i := 4; i < 10; i++ {
		fmt.Fprintln(tee, line(i))
	}
	for i := range 10 {
		select {
		case l, ok := <-w:
			if !ok || l.N != i || string(l.Data) != line(i) {
				t.Fatalf("line %d: %d %q (open %v); want %q", i, l.N, l.Data, ok, line(i))
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("line %d did not come", i)
		}
	}

	// A watcher that reads nothing: the match's writes do not wait for it, and it is dropped.
	slow, err := portal.WatchLive(ctx, id, 4)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := 10; i < 5010; i++ {
		fmt.Fprintln(tee, line(i))
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("5,000 lines took %v with a watcher that reads nothing", d)
	}
	got := 0
	for range slow {
		got++
	}
	if got >= 5010 {
		t.Errorf("the slow watcher got all %d lines; want it dropped", got)
	}
	if _, err := portal.WatchLive(ctx, "nobody plays this", 4); !errors.Is(err, ErrNotLive) {
		t.Errorf("a match no daemon plays: %v", err)
	}
}

// BenchmarkLiveTee is a match's replay lines (a move line of 200 bytes) written through the
// daemon's live tee, with no watcher and with ten watching from another connection: what
// watching costs the daemon per line.
func BenchmarkLiveTee(b *testing.B) {
	daemon := embedded(b, Options{})
	line := []byte(`{"type":"move","turn":12,"player":1,"sent":"W\nW\nRW\nRW\n305","expect":1,"limit_us":1000000,"received":["FFR"],"cpu_ms":0,"cpu_us":211}` + "\n")
	for _, watchers := range []int{0, 10} {
		b.Run(fmt.Sprintf("watchers=%d", watchers), func(b *testing.B) {
			id := fmt.Sprintf("bench-%d", watchers)
			tee, stop := daemon.Live(id)
			defer stop()
			tee.Write(line)
			portal := client(b, daemon.url, Options{})
			ctx := b.Context()
			for range watchers {
				w, err := portal.WatchLive(ctx, id, 1<<16)
				if err != nil {
					b.Fatal(err)
				}
				go func() {
					for range w {
					}
				}()
			}
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				tee.Write(line)
			}
		})
	}
}
