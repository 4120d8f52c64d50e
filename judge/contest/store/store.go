// Package store keeps the portal's state - contests, people, their credentials, submissions
// and matches - in a NATS key-value bucket, so that any number of portals share it and none
// holds state of its own (the lists' index each holds in memory is a copy of the bucket's
// index keys, loaded at its start: index.go). Every change that two portals could make at once is a
// compare-and-set on the key's revision.
//
// Secrets are never stored: passwords as bcrypt hashes, tokens, sessions and invites by the
// SHA-256 of their value (they are random and long, so a fast hash is enough).
package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/botjudge/judge/judge/queue/kv"
)

// Errors the store returns; the portal answers them as 404, 409, 400 and 403.
var (
	ErrNotFound = errors.New("not found")
	ErrExists   = errors.New("already exists")
	ErrInvalid  = errors.New("invalid")
	// ErrClosed is a change to a contest its organisers closed (Contest.ClosedAt).
	ErrClosed = errors.New("closed")
)

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

// ValidName is nil when s can name a contest, a login or a house bot: 1 to 32 lower-case
// letters, digits, '-' and '_', not starting with '-' or '_'. Names are parts of keys and of
// URLs, so nothing else is allowed.
func ValidName(what, s string) error {
	if !nameRE.MatchString(s) {
		return fmt.Errorf("%w: %s %q: want 1 to 32 of a-z, 0-9, '-' and '_', starting with a letter or digit", ErrInvalid, what, s)
	}
	return nil
}

// Store is the portal's state in one key-value bucket.
type Store struct {
	kv  *kv.Bucket
	now func() time.Time
	// TokenTTL is how long the token AddUser makes lives; 0 is until revoked.
	TokenTTL time.Duration
	// PasswordCost is bcrypt's cost for the passwords set from now on; 0 is bcrypt's default
	// (10). Only tests lower it: a password check at the default costs ~50 ms of CPU.
	PasswordCost int
	dummy        sync.Once
	dummyHashed  []byte
	indexState
}

// New keeps its state in kv (queue.KeyValue).
func New(kv *kv.Bucket) *Store { return &Store{kv: kv, now: time.Now} }

// get reads key into v and returns its revision.
func (s *Store) get(ctx context.Context, key string, v any) (uint64, error) {
	rev, _, err := s.getRaw(ctx, key, v)
	return rev, err
}

// getRaw is get that also returns the value as stored.
func (s *Store) getRaw(ctx context.Context, key string, v any) (uint64, []byte, error) {
	e, err := s.kv.Get(ctx, key)
	if errors.Is(err, kv.ErrKeyNotFound) {
		return 0, nil, ErrNotFound
	}
	if err != nil {
		return 0, nil, fmt.Errorf("store: %s: %w", key, err)
	}
	if err := json.Unmarshal(e.Value, v); err != nil {
		return 0, nil, fmt.Errorf("store: %s: %w", key, err)
	}
	return e.Revision, e.Value, nil
}

// create writes v under key, which must not exist.
func (s *Store) create(ctx context.Context, key string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	rev, err := s.kv.Create(ctx, key, data)
	if errors.Is(err, kv.ErrKeyExists) {
		return ErrExists
	} else if err != nil {
		return fmt.Errorf("store: %s: %w", key, err)
	}
	if strings.HasPrefix(key, "user.") { // a new person in the contest's list (index.go)
		s.wroteIndex(rev)
	}
	return nil
}

// update reads key into v, lets change change it, and writes it back if nobody wrote it
// meanwhile; otherwise it reads again and retries. change may return an error to stop. A
// change that changes nothing writes nothing. The fields of the record this version does not
// know (a newer portal's) are written back as they were (keepUnknown).
func update[T any](ctx context.Context, s *Store, key string, change func(*T) error) (T, error) {
	for {
		var v T
		rev, was, err := s.getRaw(ctx, key, &v)
		if err != nil {
			return v, err
		}
		if err := change(&v); err != nil {
			return v, err
		}
		data, err := json.Marshal(v)
		if err != nil {
			return v, err
		}
		data = keepUnknown(reflect.TypeFor[T](), was, data)
		if bytes.Equal(data, was) {
			return v, nil
		}
		_, err = s.kv.Update(ctx, key, data, rev)
		if err == nil {
			return v, nil
		}
		if !errors.Is(err, kv.ErrRevisionChanged) {
			return v, fmt.Errorf("store: %s: %w", key, err)
		}
		if err := ctx.Err(); err != nil {
			return v, err
		}
	}
}

// keys lists the keys under filter ("users.spring.*").
func (s *Store) keys(ctx context.Context, filter string) ([]string, error) {
	out, err := s.kv.Keys(ctx, filter)
	if err != nil {
		return nil, fmt.Errorf("store: listing %s: %w", filter, err)
	}
	return out, nil
}

// secret is a new random secret: 32 bytes, URL-safe.
func secret(prefix string) string {
	b := make([]byte, 32)
	rand.Read(b)
	return prefix + base64.RawURLEncoding.EncodeToString(b)
}

// digest is how a secret is keyed: its SHA-256, in hex.
func digest(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}
