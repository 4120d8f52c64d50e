package store

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/botjudge/judge/judge/contest/ladder"
)

func ladderKey(contest string) string         { return "ladder." + contest }
func historyKey(contest, login string) string { return "hist." + contest + "." + login }

// Ladder reads a contest's ladder; a contest whose ladder never ran has an empty one.
func (s *Store) Ladder(ctx context.Context, contest string) (ladder.State, error) {
	var st ladder.State
	if ValidName("contest", contest) != nil {
		return st, ErrNotFound
	}
	_, err := s.get(ctx, ladderKey(contest), &st)
	if errors.Is(err, ErrNotFound) {
		return ladder.State{}, nil
	}
	return st, err
}

// UpdateLadder changes a contest's ladder with change, safely against other portals: the
// ladder is one key, so that a match picked and a result rated are each one write.
func (s *Store) UpdateLadder(ctx context.Context, contest string, change func(*ladder.State) error) (ladder.State, error) {
	if err := ValidName("contest", contest); err != nil {
		return ladder.State{}, err
	}
	if err := s.create(ctx, ladderKey(contest), ladder.State{}); err != nil && !errors.Is(err, ErrExists) {
		return ladder.State{}, err
	}
	return update(ctx, s, ladderKey(contest), change)
}

// Point is a contestant's rating after one ladder match.
type Point struct {
	Match   string    `json:"match"`
	At      time.Time `json:"at"`
	Version int       `json:"version"`
	Mu      float64   `json:"mu"`
	Sigma   float64   `json:"sigma"`
	Rating  float64   `json:"rating"`
}

// historyLength bounds a contestant's rating history: the plot shows the newest.
const historyLength = 1000

// AddHistory records a contestant's rating after a match, once: a match recorded already
// is not recorded again.
func (s *Store) AddHistory(ctx context.Context, contest, login string, p Point) error {
	key := historyKey(contest, login)
	if err := s.create(ctx, key, []Point{}); err != nil && !errors.Is(err, ErrExists) {
		return err
	}
	_, err := update(ctx, s, key, func(h *[]Point) error {
		if slices.ContainsFunc(*h, func(q Point) bool { return q.Match == p.Match }) {
			return nil
		}
		*h = append(*h, p)
		*h = (*h)[max(0, len(*h)-historyLength):]
		return nil
	})
	return err
}

// History is a contestant's rating history, oldest first.
func (s *Store) History(ctx context.Context, contest, login string) ([]Point, error) {
	var h []Point
	if ValidName("contest", contest) != nil || ValidName("login", login) != nil {
		return nil, ErrNotFound
	}
	_, err := s.get(ctx, historyKey(contest, login), &h)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	return h, err
}
