package queue

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/jsm.go"
)

// A backup is a directory: BackupFile, which says what it holds, and a directory per stream
// of the server (the jobs, the results, every object store and key-value bucket), each
// JetStream's own snapshot of the stream and its consumers (jsm.go writes and reads them).
const BackupFile = "backup.json"

// Backup is what a backup holds.
type Backup struct {
	// Judge is the version of the judge that made it; Created when.
	Judge   string         `json:"judge"`
	Created time.Time      `json:"created"`
	Streams []StreamBackup `json:"streams"`
}

// StreamBackup is one stream of a backup, in the order it was taken.
type StreamBackup struct {
	Name     string `json:"name"`
	Messages uint64 `json:"messages"`
	Bytes    uint64 `json:"bytes"`
	// Dir is the stream's snapshot, relative to the backup.
	Dir string `json:"dir"`
}

// ErrNotEmpty is a restore onto a server that has streams already.
var ErrNotEmpty = errors.New("the server has streams already")

// backupOrder is the order the streams are taken in, so that what the backup's records name
// is in it: the key-value buckets first (the portal's records), then the jobs, then the
// results, then the object stores (replays, builds, sources). A match that ends while the
// backup runs is then either still a job in it, to be judged again, or done with its result
// and replay; and a record of the portal never names a result or a replay the backup lacks
// (the contest engine, when it starts, reads every result again and catches its records up).
func (a Admin) backupOrder(name string) int {
	q := a.q
	switch {
	case strings.HasPrefix(name, "KV_"):
		return 0
	case name == q.jobsStream:
		return 1
	case name == q.resultsStream:
		return 2
	case strings.HasPrefix(name, "OBJ_"):
		return 3
	}
	return 4
}

// Backup writes a snapshot of every stream on the server into dir, which must not exist or
// be empty, and says each stream's size to progress as it is taken. It changes nothing: the
// judges go on while it runs.
func (a Admin) Backup(ctx context.Context, dir, judge string, progress func(StreamBackup)) (Backup, error) {
	q := a.q
	if err := BackupDirFree(dir); err != nil {
		return Backup{}, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Backup{}, err
	}
	mgr, err := jsm.New(q.nc)
	if err != nil {
		return Backup{}, err
	}
	var infos []StreamBackup
	for info := range q.js.ListStreams(ctx).Info() {
		infos = append(infos, StreamBackup{Name: info.Config.Name, Messages: info.State.Msgs, Bytes: info.State.Bytes, Dir: info.Config.Name})
	}
	slices.SortFunc(infos, func(x, y StreamBackup) int {
		return cmp.Or(cmp.Compare(a.backupOrder(x.Name), a.backupOrder(y.Name)), strings.Compare(x.Name, y.Name))
	})
	b := Backup{Judge: judge, Created: time.Now().UTC()}
	for _, sb := range infos {
		str, err := mgr.LoadStream(sb.Name)
		if err != nil {
			return b, fmt.Errorf("backing up %s: %w", sb.Name, err)
		}
		if _, err := str.SnapshotToDirectory(ctx, filepath.Join(dir, sb.Dir), jsm.SnapshotConsumers()); err != nil {
			return b, fmt.Errorf("backing up %s: %w", sb.Name, err)
		}
		if st, err := str.LatestState(); err == nil { // what it holds now, as taken
			sb.Messages, sb.Bytes = st.Msgs, st.Bytes
		}
		b.Streams = append(b.Streams, sb)
		if progress != nil {
			progress(sb)
		}
	}
	data, _ := json.MarshalIndent(b, "", "  ")
	// Written last: a directory without it is a backup that did not finish.
	return b, os.WriteFile(filepath.Join(dir, BackupFile), append(data, '\n'), 0o600)
}

// BackupDirFree says why dir cannot take a backup: it holds something already, and a backup
// goes into a new directory, so that none is overwritten.
func BackupDirFree(dir string) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty: a backup goes into a new directory, so that none is overwritten", dir)
	}
	return nil
}

// ReadBackup reads what the backup in dir holds, or says why dir is not one.
func ReadBackup(dir string) (Backup, error) {
	var b Backup
	data, err := os.ReadFile(filepath.Join(dir, BackupFile))
	if errors.Is(err, os.ErrNotExist) {
		return b, fmt.Errorf("%s is not a judge backup: it has no %s (a backup that did not finish has none either)", dir, BackupFile)
	}
	if err != nil {
		return b, err
	}
	if err := json.Unmarshal(data, &b); err != nil || len(b.Streams) == 0 {
		return b, fmt.Errorf("%s: %s is not a judge backup's (%v)", dir, BackupFile, err)
	}
	for _, s := range b.Streams {
		if !filepath.IsLocal(s.Dir) {
			return b, fmt.Errorf("%s: stream %s is at %q, outside the backup", dir, s.Name, s.Dir)
		}
	}
	return b, nil
}

// Restore puts the backup in dir onto the server o opens (the embedded one on o.StoreDir
// when o.URL is empty), which must have no stream: a restore never merges with, or
// overwrites, what a judge keeps. An embedded store a judge holds is refused as in use
// (*StoreInUseError).
func Restore(ctx context.Context, o Options, dir string, progress func(StreamBackup)) (Backup, error) {
	b, err := ReadBackup(dir)
	if err != nil {
		return b, err
	}
	o.bare = true
	if o.URL == "" {
		o.InProcess = true
	}
	q, err := Open(ctx, o)
	if err != nil {
		return b, err
	}
	defer q.Close()
	var there []string
	for name := range q.js.StreamNames(ctx).Name() {
		there = append(there, name)
	}
	if len(there) > 0 {
		slices.Sort(there)
		return b, fmt.Errorf("%w (%s): a restore goes onto an empty store, never over a judge's", ErrNotEmpty, strings.Join(there, ", "))
	}
	mgr, err := jsm.New(q.nc)
	if err != nil {
		return b, err
	}
	for _, s := range b.Streams {
		if _, _, err := mgr.RestoreSnapshotFromDirectory(ctx, s.Name, filepath.Join(dir, s.Dir)); err != nil {
			return b, fmt.Errorf("restoring %s: %w", s.Name, err)
		}
		if progress != nil {
			progress(s)
		}
	}
	return b, nil
}
