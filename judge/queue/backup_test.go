package queue

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A backup holds what the store held: a job waiting and one taken and not yet done, a result,
// a replay and a key-value record come back on a new store; the job waiting is taken at once,
// the one taken once its ack wait passes, the one done never. A restore is refused onto a store with streams, onto a
// store a judge holds, and from a directory that is not a backup; a backup, into a directory
// that holds something.
func TestBackupRestore(t *testing.T) {
	t.Parallel() // it waits out an ack wait: beside the others, not before them
	ctx := testContext(t, time.Minute)
	from := embedded(t, Options{Redelivery: Redelivery{AckWait: 2 * time.Second}})
	for _, id := range []string{"done", "taken", "waiting"} {
		if _, err := from.Submit(ctx, id, []byte(`{"id":"`+id+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	done, err := from.Next(ctx)
	if err != nil || done.ID != "done" {
		t.Fatalf("the first job: %v %v", done, err)
	}
	if taken, err := from.Next(ctx); err != nil || taken.ID != "taken" { // held by a daemon, not acked
		t.Fatalf("the second job: %v %v", taken, err)
	}
	if err := from.PublishResult(ctx, LaneMain, "done", []byte(`{"status":"ok"}`)); err != nil {
		t.Fatal(err)
	}
	if err := done.Ack(ctx); err != nil {
		t.Fatal(err)
	}
	putReplay(t, from, "done.jsonl", "main", 3000)
	kv, err := from.KeyValue(ctx, "portal")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(ctx, "user.spring.ann", []byte(`{"login":"ann"}`)); err != nil {
		t.Fatal(err)
	}

	dir := filepath.Join(t.TempDir(), "backup")
	var taken []string
	b, err := from.Admin().Backup(ctx, dir, "test", func(s StreamBackup) { taken = append(taken, s.Name) })
	kvs := 0
	for _, name := range taken {
		if strings.HasPrefix(name, "KV_") {
			kvs++
		}
	}
	if err != nil || len(b.Streams) < 5 || kvs == 0 || !strings.HasPrefix(taken[kvs-1], "KV_") || taken[kvs] != from.jobsStream || taken[kvs+1] != from.resultsStream || !strings.HasPrefix(taken[kvs+2], "OBJ_") {
		t.Fatalf("backup: %v, %+v; taken in the order %v", err, b, taken)
	}
	if _, err := from.Admin().Backup(ctx, dir, "test", nil); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a backup into a directory that holds one: %v", err)
	}
	if _, err := Restore(ctx, Options{StoreDir: from.o.StoreDir, Logger: testLogger()}, dir, nil); !errors.As(err, new(*StoreInUseError)) {
		t.Errorf("a restore onto the store a judge holds: %v", err)
	}
	if _, err := Restore(ctx, Options{URL: from.URL(), Logger: testLogger()}, dir, nil); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("a restore onto a server with streams: %v", err)
	}
	if _, err := Restore(ctx, Options{StoreDir: t.TempDir(), Logger: testLogger()}, t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "not a judge backup") {
		t.Errorf("a restore from a directory that is not a backup: %v", err)
	}

	store := t.TempDir()
	if _, err := Restore(ctx, Options{StoreDir: store, Listen: "127.0.0.1:-1", Logger: testLogger()}, dir, nil); err != nil {
		t.Fatalf("restore: %v", err)
	}
	to := embedded(t, Options{StoreDir: store, Redelivery: Redelivery{AckWait: 2 * time.Second}})
	if r, ok, err := to.Result(ctx, "done"); err != nil || !ok || string(r) != `{"status":"ok"}` {
		t.Errorf("the result: %q %v %v", r, ok, err)
	}
	var replay bytes.Buffer
	if ok, err := to.GetObject(ctx, BucketReplays, "done.jsonl", &replay); err != nil || !ok || replay.Len() != 3000 {
		t.Errorf("the replay: %v %v, %d bytes", ok, err, replay.Len())
	}
	kv, err = to.KeyValue(ctx, "portal")
	if err != nil {
		t.Fatal(err)
	}
	if e, err := kv.Get(ctx, "user.spring.ann"); err != nil || string(e.Value) != `{"login":"ann"}` {
		t.Errorf("the key-value record: %v", err)
	}
	got := map[string]bool{}
	wait := testContext(t, 10*time.Second)
	for !got["waiting"] || !got["taken"] {
		d, err := to.Next(wait)
		if err != nil {
			t.Fatalf("the jobs to judge after the restore: %v; have %v, want the waiting and the taken one", err, got)
		}
		got[d.ID] = true
		d.Ack(ctx)
	}
	if d, err := to.Next(testContext(t, 3*time.Second)); err == nil { // past the ack wait
		t.Errorf("the job done before the backup is judged again: %s", d.ID)
	}
	if _, err := os.Stat(filepath.Join(dir, BackupFile)); err != nil {
		t.Error(err)
	}
}
