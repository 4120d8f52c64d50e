package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/botjudge/judge/judge/tournament/standings"
)

// Round is a full round of a contest's active versions through the tournament engine: a
// test competition, or the official round. Its ID names the tournament, so it prefixes
// every match id ("<id>-<round>-<match>"), and a round started again (by any portal)
// publishes only what has no result yet.
type Round struct {
	ID      string `json:"id"`
	Contest string `json:"contest"`
	Kind    string `json:"kind"` // RoundTest or RoundOfficial
	Format  string `json:"format"`
	Rounds  int    `json:"rounds"`
	Final   int    `json:"final"`
	Seed    uint64 `json:"seed"`
	// Seats is the players of each match: the game's default when 0 (rounds of before).
	Seats int `json:"seats,omitempty"`
	// Confidence, UntilSeparated, Top and Budget are its tournament's: how sure its standings
	// are stated, and whether it plays on until they are.
	Confidence     float64 `json:"confidence,omitempty"`
	UntilSeparated bool    `json:"until_separated,omitempty"`
	Top            int     `json:"top,omitempty"`
	Budget         int     `json:"budget,omitempty"`
	// Leagues is api.LeaguesTop when only the ladder's top league entered.
	Leagues string `json:"leagues,omitempty"`
	// Entrants are the versions frozen for the round, and the house bots (house:NAME) that
	// fill the seats of a round with fewer versions than a match has.
	Entrants []Entrant `json:"entrants"`
	Status   string    `json:"status"` // RoundRunning, RoundDone or RoundFailed
	Created  time.Time `json:"created"`
	Finished time.Time `json:"finished,omitzero"`
	// Outcome is the standings, once it is done; Error why it failed.
	Outcome *standings.Outcome `json:"outcome,omitempty"`
	Error   string             `json:"error,omitempty"`
}

// Entrant is a contestant's version frozen for a round: its sources' object and their
// SHA-256, and the toolchain it was compiled with.
type Entrant struct {
	Login     string `json:"login"`
	Sub       string `json:"sub,omitempty"`
	Version   int    `json:"version"`
	Lang      string `json:"lang"`
	Source    string `json:"source,omitempty"`
	SHA256    string `json:"sha256"`
	Toolchain string `json:"toolchain"`
}

// Round kinds and statuses.
const (
	RoundTest     = "test"
	RoundOfficial = "official"

	RoundRunning = "running"
	RoundDone    = "done"
	RoundFailed  = "failed"
)

func roundKey(id string) string { return "round." + id }
func roundIndex(contest, id string) string {
	return "own." + contest + ".rounds." + id
}

// AddRound stores a new round; a round of the same id is ErrExists.
func (s *Store) AddRound(ctx context.Context, r Round) (Round, error) {
	if !validID(r.ID) {
		return r, fmt.Errorf("%w: round id %q", ErrInvalid, r.ID)
	}
	r.Created, r.Status = s.now().UTC(), RoundRunning
	if err := s.create(ctx, roundKey(r.ID), r); err != nil {
		return r, err
	}
	return r, s.create(ctx, roundIndex(r.Contest, r.ID), r.ID)
}

// Round reads a round.
func (s *Store) Round(ctx context.Context, id string) (Round, error) {
	var r Round
	if !validID(id) {
		return r, ErrNotFound
	}
	_, err := s.get(ctx, roundKey(id), &r)
	return r, err
}

// UpdateRound changes a round safely against other portals.
func (s *Store) UpdateRound(ctx context.Context, id string, change func(*Round) error) (Round, error) {
	if !validID(id) {
		return Round{}, ErrNotFound
	}
	return update(ctx, s, roundKey(id), change)
}

// Rounds lists a contest's rounds, newest first.
func (s *Store) Rounds(ctx context.Context, contest string) ([]Round, error) {
	ids, err := s.indexed(ctx, roundIndex(contest, "*"))
	if err != nil {
		return nil, err
	}
	var out []Round
	for _, id := range ids {
		if r, err := s.Round(ctx, id); err == nil {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b Round) int { return b.Created.Compare(a.Created) })
	return out, nil
}
