package queue

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The embedded server's store on a disk that fills: the write that finds no room breaks the
// stream (nats-server keeps a stream's write error until it restarts), what is published
// meanwhile waits, and once room is freed the server restarts on its store by itself: the
// waiting publish goes through, and nothing stored before is lost.
func TestStoreOnAFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("mounts a tmpfs (root) and waits about 8 s for the server to mend; skipped under -short")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=96m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("this test mounts a small tmpfs (it needs root): %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	old := mendEvery
	mendEvery = 200 * time.Millisecond
	t.Cleanup(func() { mendEvery = old })

	q := embedded(t, Options{StoreDir: filepath.Join(dir, "store")})
	c := client(t, q.URL(), Options{}) // another process's connection: a daemon's
	if err := c.PublishResult(testContext(t, 10*time.Second), LaneMain, "before", []byte(`{"id":"before"}`)); err != nil {
		t.Fatal(err)
	}
	filler := filepath.Join(dir, "filler")
	if out, err := exec.Command("dd", "if=/dev/zero", "of="+filler, "bs=1M", "count=200").CombinedOutput(); err == nil {
		t.Fatalf("dd filled a 96 MiB disk with 200 MiB: %s", out)
	}
	big := []byte(`{"id":"full","x":"` + strings.Repeat("x", 256<<10) + `"}`)
	if err := c.PublishResult(testContext(t, 3*time.Second), LaneMain, "full", big); err == nil {
		t.Fatal("a result was stored on a full disk")
	}
	// A publish made while the disk is full waits, and goes through once the server is back.
	published := make(chan error, 1)
	go func() {
		published <- c.PublishResult(testContext(t, 60*time.Second), LaneMain, "during", []byte(`{"id":"during"}`))
	}()
	select {
	case err := <-published:
		t.Fatalf("a publish went through, or failed, while the store could not be written: %v", err)
	case <-time.After(2 * time.Second):
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	freed := time.Now()
	select {
	case err := <-published:
		if err != nil {
			t.Fatalf("the publish made while the disk was full: %v", err)
		}
		t.Logf("stored %v after room was freed", time.Since(freed).Round(time.Millisecond))
	case <-time.After(50 * time.Second):
		t.Fatal("the publish made while the disk was full never went through after room was freed")
	}
	for i := range 3 {
		id := fmt.Sprintf("after-%d", i)
		if err := c.PublishResult(testContext(t, 10*time.Second), LaneMain, id, []byte(`{"id":"`+id+`"}`)); err != nil {
			t.Errorf("publishing %s after room was freed: %v", id, err)
		}
	}
	for _, id := range []string{"before", "during", "after-2"} {
		if _, found, err := c.Result(testContext(t, 10*time.Second), id); err != nil || !found {
			t.Errorf("result %s: found %v, %v", id, found, err)
		}
	}
}

// A store at JetStream's limit refuses a delete's marker: expiring replays then frees the room
// all the same, and writes go through again.
func TestExpireReplaysFromAFullStore(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("this test mounts a small tmpfs (it needs root): %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	// JetStream's limit is three quarters of the disk's free space: 18 MiB here.
	q := embedded(t, Options{StoreDir: filepath.Join(dir, "store")})
	var err error
	n := 0
	for ; n < 1000 && err == nil; n++ {
		err = q.PutObjectMeta(testContext(t, 10*time.Second), BucketReplays, fmt.Sprintf("r%d", n), map[string]string{MetaLane: LaneLadder.String()},
			strings.NewReader(strings.Repeat("x", 100<<10)))
	}
	if !StoreFull(err) {
		t.Fatalf("after %d replays: %v; want the store full", n, err)
	}
	// Full to the last byte: not even a small replay fits.
	for err = nil; err == nil; n++ {
		err = q.PutObjectMeta(testContext(t, 10*time.Second), BucketReplays, fmt.Sprintf("r%d", n), map[string]string{MetaLane: LaneLadder.String()},
			strings.NewReader("x"))
	}
	if !StoreFull(err) {
		t.Fatalf("after %d replays: %v; want the store full", n, err)
	}
	ex, err := q.Admin().ExpireReplays(testContext(t, 30*time.Second), time.Now().Add(time.Hour), false)
	if err != nil {
		t.Fatalf("expiring replays from a full store: %v", err)
	}
	if ex.Count < n-3 {
		t.Errorf("expired %d replays of %d", ex.Count, n-2)
	}
	if left := replaysLeft(t, q); len(left) != 0 {
		t.Errorf("left after the clean-up: %v", left)
	}
	if err := q.PutObjectMeta(testContext(t, 10*time.Second), BucketReplays, "after", nil, strings.NewReader(strings.Repeat("x", 1<<20))); err != nil {
		t.Errorf("a replay stored after the clean-up: %v", err)
	}
}
