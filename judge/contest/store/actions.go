package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"
)

// Action is one thing an organiser did to a contest: who, what and when. The organisers see
// the contest's actions (the organiser page, the API, judge portal contest log).
type Action struct {
	At   time.Time `json:"at"`
	Who  string    `json:"who"`
	What string    `json:"what"`
}

// actionKey keys an action by its time, so that the keys sort as the actions came.
func actionKey(contest string, at time.Time) string {
	return fmt.Sprintf("act.%s.%020d-%s", contest, at.UnixNano(), NewID("a"))
}

// Record keeps an organiser's action. who is a login, or the command line's "cli:USER";
// what says the action with its arguments, never a secret.
func (s *Store) Record(ctx context.Context, contest, who, what string) error {
	a := Action{At: s.now().UTC(), Who: who, What: what}
	return s.create(ctx, actionKey(contest, a.At), a)
}

// Actions are a contest's last limit actions (0: all), newest first.
func (s *Store) Actions(ctx context.Context, contest string, limit int) ([]Action, error) {
	if err := ValidName("contest", contest); err != nil {
		return nil, err
	}
	keys, err := s.keys(ctx, "act."+contest+".*")
	if err != nil {
		return nil, err
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(b, a) })
	if limit > 0 && len(keys) > limit {
		keys = keys[:limit]
	}
	out := []Action{}
	for _, k := range keys {
		var a Action
		if _, err := s.get(ctx, k, &a); err == nil {
			out = append(out, a)
		}
	}
	return out, nil
}
